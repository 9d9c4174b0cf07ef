# smoke-lib.sh -- shared by the intercom-bench smoke tests (bench/tests/*.sh).
#
# Sourced, not run.  `make check` runs the tests from the top of the build
# tree.  run_bench NP ARGS... runs intercom-bench on NP ranks through
# `tests/mpi/run-mpi.sh --np NP` (the project's launcher wrapper:
# oversubscription, root, skip when there is no launcher), within
# IC_TEST_TIMEOUT seconds (default 300), and leaves its standard output in
# $out and its standard error in $err.  The checks look at the
# structure of the output and at the verification columns, never at times.

set -u

bench=bench/intercom-bench
runner=tests/mpi/run-mpi.sh
if [ ! -x "$bench" ] || [ ! -f "$runner" ]; then
    echo "run from the top of the build tree after make (missing $bench or $runner)"
    exit 99
fi

# In an --enable-sanitizers build, LeakSanitizer would fail every run on
# the MPI library's own allocations at exit; errors still fail the run.
ASAN_OPTIONS=${ASAN_OPTIONS:-detect_leaks=0}
export ASAN_OPTIONS

limit=${IC_TEST_TIMEOUT:-300}
timeout_cmd=
if command -v timeout >/dev/null 2>&1; then
    timeout_cmd="timeout -k 10 $limit"
fi

work=$(mktemp -d "${TMPDIR:-/tmp}/ic-bench-smoke.XXXXXX") || exit 99
trap 'rm -rf "$work"' EXIT
out=$work/out
err=$work/err

show() {
    echo "--- stdout:"
    cat "$out"
    echo "--- stderr:"
    cat "$err"
}

fail() {
    echo "FAIL: $*"
    show
    exit 1
}

run_bench() {
    np=$1
    shift
    echo "+ mpirun -n $np $(basename "$bench") $*"
    $timeout_cmd sh "$runner" --np "$np" "$bench" "$@" >"$out" 2>"$err"
    rc=$?
    if [ $rc -eq 124 ] || [ $rc -eq 137 ]; then
        fail "$(basename "$bench") $* did not finish within $limit s"
    fi
    if [ $rc -eq 77 ]; then
        echo "SKIP: no MPI launcher"
        exit 77
    fi
    [ $rc -eq 0 ] || fail "$(basename "$bench") $* exited with status $rc"
}

# Rows of CSV table NAME (without its header line).
csv_rows() {
    awk -v t="# table: $1" '$0 == t { on = 1; hdr = 1; next }
        on && /^$/ { on = 0 } on && /^# table:/ { on = 0 }
        on { if (hdr) { hdr = 0; next } print }' "$out"
}

# Values of column COL of CSV table NAME (no quoting in these tables).
csv_col() {
    # fields may be quoted and hold commas (plan texts: "2x2:d1=bucket,d0=bucket")
    awk -v t="# table: $1" -v c="$2" '
        function fields(line,   i, ch, q, f) {
            f = ""; q = 0
            for (i = 1; i <= length(line); i++) {
                ch = substr(line, i, 1)
                if (ch == "\"") { q = !q; continue }
                f = f ((ch == "," && q) ? "\034" : ch)
            }
            n = split(f, F, ",")
            for (i = 1; i <= n; i++) gsub("\034", ",", F[i])
        }
        $0 == t { on = 1; hdr = 1; next }
        on && (/^$/ || /^# table:/) { on = 0 }
        on && hdr { fields($0); for (i = 1; i <= n; i++) if (F[i] == c) k = i; hdr = 0; next }
        on { fields($0); print (k ? F[k] : "NOCOLUMN") }' "$out"
}

expect_rows() { # TABLE N
    n=$(csv_rows "$1" | wc -l)
    [ "$n" -eq "$2" ] || fail "table $1 has $n rows, expected $2"
}

# Every value of the column is a positive number.
expect_positive() { # TABLE COL
    csv_col "$1" "$2" | awk -v c="$2" '
        { if ($0 == "NOCOLUMN" || $0 !~ /^[0-9.eE+-]+$/ || $0 + 0 <= 0) { print "bad " c ": [" $0 "]"; bad = 1 } }
        END { exit bad }' || fail "column $2 of table $1 is not all positive numbers"
}

expect_all() { # TABLE COL VALUE
    bad=$(csv_col "$1" "$2" | grep -cvx "$3")
    [ "$bad" -eq 0 ] || fail "$bad rows of table $1 have $2 other than '$3'"
}

# An info line '# KEY: value' whose value is a number (fitted values of
# noisy timings on a busy machine may be anything, even inf or nan).
expect_info() { # KEY
    line=$(grep "^# $1: " "$out" | head -n 1)
    [ -n "$line" ] || fail "no '# $1:' line"
    v=$(echo "$line" | sed "s|^# $1: ||" | awk '{ print $1 }')
    echo "$v" | grep -Eqi '^([-+]?[0-9.]+(e[-+]?[0-9]+)?|[-+]?inf|[-+]?nan)$' ||
        fail "'# $1:' is not a number: $line"
}
