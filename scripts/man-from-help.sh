#!/bin/sh
# man-from-help.sh -- write the man page of one of InterCom's programs,
# generated from its --help (and --version) output, on standard output.
#
#   scripts/man-from-help.sh PROGRAM [SECTION]
#
# The help text has the layout every InterCom program uses (tuning/help.h):
#   line 1              NAME -- one-line summary          -> NAME
#   "usage: ..." lines  and their indented continuations  -> SYNOPSIS
#   "heading:" lines    at column 0                       -> a section each
#   "  LEFT   text"     items, continued by lines indented
#                       deeper                            -> tagged paragraphs
#   other lines         at column 0                       -> text
# Exit status: 0, or 1 when PROGRAM gives no help (or fails).
set -eu

prog=${1:?usage: man-from-help.sh PROGRAM [SECTION]}
section=${2:-1}
help=$("$prog" --help) || { echo "man-from-help.sh: $prog --help failed" >&2; exit 1; }
[ -n "$help" ] || { echo "man-from-help.sh: $prog --help printed nothing" >&2; exit 1; }
version=$("$prog" --version 2>/dev/null | awk '{ print $NF; exit }') || version=
name=$(basename "$prog")
name=${name#lt-}

printf '%s\n' "$help" | awk -v name="$name" -v sec="$section" -v ver="$version" '
function esc(s) {
    gsub(/\\/, "\\e", s)
    gsub(/-/, "\\-", s)
    if (s ~ /^[.'"'"']/)
        s = "\\&" s
    return s
}
function flush() {
    if (item != "") {
        print ".TP"
        print ".B " esc(item)
        print esc(text)
    }
    item = ""
    text = ""
}
NR == 1 {
    up = toupper(name)
    print ".TH " up " " sec " \"\" \"InterCom " ver "\" \"InterCom\""
    print ".SH NAME"
    summary = $0
    sub(/^[^ ]* -- /, "", summary)
    print esc(name) " \\- " esc(summary)
    next
}
/^usage: / {
    flush()
    print ".SH SYNOPSIS"
    print ".nf"
    sub(/^usage: +/, "")
    print esc($0)
    syn = 1
    next
}
syn && /^  +[^ ]/ { sub(/^ +/, ""); print esc($0); next }
syn { print ".fi"; syn = 0 }
/^$/ { flush(); next }
/^[^ ].*:$/ {
    flush()
    h = $0
    sub(/:$/, "", h)
    print ".SH " esc(toupper(h))
    para = 0
    next
}
/^  [^ ]/ {
    flush()
    line = substr($0, 3)
    if (match(line, /  +/)) {
        item = substr(line, 1, RSTART - 1)
        text = substr(line, RSTART + RLENGTH)
    } else {
        item = line
        text = ""
    }
    next
}
/^   +[^ ]/ && item != "" {
    sub(/^ +/, "")
    text = text (text == "" ? "" : " ") $0
    next
}
{
    flush()
    if (!para) {
        print ".SH NOTES"
        para = 1
    }
    print esc($0)
}
END { flush(); if (syn) print ".fi" }
'
