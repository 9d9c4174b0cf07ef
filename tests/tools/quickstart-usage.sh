#!/bin/sh
# quickstart-usage.sh -- ./quickstart's usage: --help prints it on stdout
# with exit status 0; no command or an unknown one prints it on stderr
# with exit status 2.  Either way it is the comment block at the top of the
# script and nothing else (no line of code), and it names both commands.
# Nothing is installed or built: the usage comes before any step.
set -u
qs=${IC_SRCDIR:-${srcdir:-.}}/quickstart
[ -x "$qs" ] || { echo "no $qs"; exit 99; }
work=$(mktemp -d "${TMPDIR:-/tmp}/ic-qs.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
status=0
fail() {
    echo "FAIL: $*"
    status=1
}

check_text() { # FILE WHAT
    grep -q '\./quickstart bench' "$1" || fail "$2: no './quickstart bench'"
    grep -q '\./quickstart test' "$1" || fail "$2: no './quickstart test'"
    grep -Eq '^(set |[a-z_]+=|\. |if |case |exec |#)' "$1" && fail "$2: a line of code: $(grep -E '^(set |[a-z_]+=|\. |if |case |exec |#)' "$1" | head -n 1)"
    # exactly the comment block of the script
    awk 'NR == 1 { next } /^#/ { sub(/^# ?/, ""); print; next } { exit }' "$qs" >"$work/want"
    grep -v "^quickstart: unknown command" "$1" | cmp -s - "$work/want" || fail "$2: not the comment block"
}

"$qs" --help >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 0 ] || fail "quickstart --help: exit status $rc"
[ -s "$work/err" ] && fail "quickstart --help wrote on stderr"
check_text "$work/out" "quickstart --help"

"$qs" >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 2 ] || fail "quickstart (no command): exit status $rc, expected 2"
[ -s "$work/out" ] && fail "quickstart (no command) wrote on stdout"
check_text "$work/err" "quickstart (no command)"

"$qs" no-such-command >"$work/out" 2>"$work/err"
rc=$?
[ $rc -eq 2 ] || fail "quickstart no-such-command: exit status $rc, expected 2"
head -n 1 "$work/err" | grep -q "unknown command 'no-such-command'" ||
    fail "quickstart no-such-command: the first line does not name the command"
check_text "$work/err" "quickstart no-such-command"
exit $status
