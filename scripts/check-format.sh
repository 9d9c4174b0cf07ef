#!/bin/sh
# check-format.sh -- every C source and header of the tree follows
# .clang-format (clang-format --dry-run --Werror); lists the files that do
# not and exits 1.  Run from anywhere; CI (.ci/run) runs it.  To fix:
#   clang-format -i FILE...
set -eu
cd "$(dirname "$0")/.."
command -v clang-format >/dev/null 2>&1 || {
    echo "check-format.sh: clang-format not found (scripts/install-deps.sh --extra)" >&2
    exit 2
}
if git rev-parse --is-inside-work-tree >/dev/null 2>&1; then
    files=$(git ls-files '*.c' '*.h')
else
    files=$(find include src algorithms tuning tests bench -name '*.c' -o -name '*.h')
fi
bad=0
for f in $files; do
    if ! clang-format --dry-run --Werror "$f" >/dev/null 2>&1; then
        echo "not formatted: $f"
        bad=1
    fi
done
[ $bad -eq 0 ] && echo "check-format.sh: every C file follows .clang-format"
exit $bad
