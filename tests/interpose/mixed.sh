#!/bin/sh
# mixed.sh -- a program linked with libintercom (icp_mixed) under the
# preload at p = 2 3: its IC_ calls and its intercepted MPI_ calls share
# one InterCom state (src/interpose/Makefile.inc says why).
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh mixed tests/interpose/icp_mixed
