# Sourced by the tests that run intercom-bench under SimGrid SMPI: sets
# top (the source tree), smpi (the SMPI build tree: IC_SMPI_BUILD, else
# build-smpi in the source tree, where ./quickstart makes one) and work (a
# temporary directory, removed at exit); skips (exit 77) without smpirun
# or without an SMPI build of intercom-bench.
set -u

top=${IC_SRCDIR:-${srcdir:-.}}
smpi=${IC_SMPI_BUILD:-$top/build-smpi}
if ! command -v smpirun >/dev/null 2>&1; then
    echo "SKIP: smpirun not found"
    exit 77
fi
if [ ! -x "$smpi/bench/intercom-bench" ]; then
    echo "SKIP: no SMPI build of intercom-bench ($smpi; set IC_SMPI_BUILD)"
    exit 77
fi
work=$(mktemp -d "${TMPDIR:-/tmp}/ic-smpi-test.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
