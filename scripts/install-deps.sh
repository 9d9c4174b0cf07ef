#!/bin/sh
# install-deps.sh -- install what InterCom needs on Debian/Ubuntu (apt-get).
#
#   scripts/install-deps.sh            build, test and benchmark dependencies
#   scripts/install-deps.sh --test     also what the whole test suite runs
#                                      (hpcc: HPC Challenge under the preload)
#   scripts/install-deps.sh --bench    also what ./quickstart bench simulates
#                                      with (SimGrid)
#   scripts/install-deps.sh --extra    all of these, and MPICH and NetPIPE
#                                      (alternative MPIs, comparisons) and
#                                      clang-format (CI's format check)
#
# Idempotent and quiet: when every package is already installed it prints
# nothing and does not touch apt.  Otherwise it runs `apt-get update` and
# installs the missing ones (as root, or through sudo).
set -eu

base="build-essential autoconf automake libtool pkg-config make
      libopenmpi-dev openmpi-bin libhwloc-dev hwloc check
      gfortran gnuplot-nox valgrind iproute2 util-linux procps"
test="hpcc"
bench="libsimgrid-dev"
extra="libmpich-dev mpich $bench netpipe-openmpi clang-format $test"

pkgs=$base
for arg in "$@"; do
    case $arg in
    --extra) pkgs="$pkgs $extra" ;;
    --test) pkgs="$pkgs $test" ;;
    --bench) pkgs="$pkgs $bench" ;;
    -h | --help)
        awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$0"
        exit 0
        ;;
    *)
        echo "install-deps.sh: unknown option $arg" >&2
        exit 2
        ;;
    esac
done

missing=
for p in $pkgs; do
    st=$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null || true)
    [ "$st" = installed ] || missing="$missing $p"
done
[ -z "$missing" ] && exit 0

if ! command -v apt-get >/dev/null 2>&1; then
    echo "install-deps.sh: apt-get not found; install these packages by hand:$missing" >&2
    exit 1
fi
sudo=
if [ "$(id -u)" -ne 0 ]; then
    if command -v sudo >/dev/null 2>&1; then
        sudo=sudo
    else
        echo "install-deps.sh: not root and no sudo; as root run: apt-get install$missing" >&2
        exit 1
    fi
fi
echo "install-deps.sh: installing:$missing"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
# shellcheck disable=SC2086
$sudo apt-get install -y -qq --no-install-recommends $missing >/dev/null
