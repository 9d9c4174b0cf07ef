#!/bin/sh
# hpcc.sh -- HPC Challenge (Debian's hpcc, unmodified) under the preload at
# p = 4 with a small problem (tests/interpose/hpccinf.txt): every check of
# hpcc passes and the report shows the calls InterCom served.  Skipped when
# hpcc is not installed.  Also: make check-apps.
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh hpcc
