#!/bin/sh
# summary-check.sh -- parse the summary line of intercom-bench coll (text or
# CSV output: "# summary: InterCom faster at F of N sizes, slower at S, the
# same at E, noise at Z; geometric mean of vendor/InterCom G (> 1: InterCom
# faster)") and check it: F + S + E + Z = N (= EXPECTED when given), a
# positive mean unless every size is noise, and, when the CSV table TABLE
# is in the file (a run without --algorithms), the counts equal its rows'
# verdicts.  Prints
# "F S E Z N G" on success; exit status 1 with a message otherwise.
#
#   summary-check.sh FILE [TABLE [EXPECTED]]
set -u
file=${1:?usage: summary-check.sh FILE [TABLE [EXPECTED]]}
table=${2:-}
expected=${3:-}
line=$(grep -m 1 '^# summary: ' "$file" | sed 's/^# summary: //') ||
    { echo "no '# summary:' line in $file"; exit 1; }
[ -n "$line" ] || { echo "no '# summary:' line in $file"; exit 1; }
parsed=$(echo "$line" | sed -n 's/^InterCom faster at \([0-9]*\) of \([0-9]*\) sizes, slower at \([0-9]*\), the same at \([0-9]*\), noise at \([0-9]*\); geometric mean of vendor\/InterCom \([0-9.]*\|-\|nan\) (> 1: InterCom faster)$/\1 \3 \4 \5 \2 \6/p')
[ -n "$parsed" ] || { echo "unparsable summary: $line"; exit 1; }
set -- $parsed
f=$1 s=$2 e=$3 z=$4 n=$5 g=$6
[ $((f + s + e + z)) -eq "$n" ] || { echo "summary: $f + $s + $e + $z != $n"; exit 1; }
[ -z "$expected" ] || [ "$n" -eq "$expected" ] || { echo "summary: $n sizes, expected $expected"; exit 1; }
if [ "$z" -lt "$n" ]; then
    echo "$g" | grep -Eq '^[0-9]+\.[0-9]+$' && [ "$(echo "$g" | awk '{ print ($1 > 0) }')" = 1 ] ||
        { echo "summary: geometric mean '$g' is not a positive number"; exit 1; }
fi
if [ -n "$table" ] && grep -q "^# table: $table\$" "$file"; then
    counts=$(awk -F, -v t="# table: $table" '$0 == t { on = 1; hdr = 1; next }
        on && (/^$/ || /^# table:/) { on = 0 }
        on && hdr { for (i = 1; i <= NF; i++) if ($i == "verdict") k = i; hdr = 0; next }
        on { c[$k]++ }
        END { printf "%d %d %d %d\n", c["faster"], c["slower"], c["same"], c["noise"] }' "$file")
    [ "$counts" = "$f $s $e $z" ] ||
        { echo "summary says '$f $s $e $z' (faster slower same noise), the table's rows '$counts'"; exit 1; }
fi
echo "$f $s $e $z $n $g"
