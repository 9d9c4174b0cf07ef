#!/bin/sh
# no-recursion.sh -- libintercom never calls a collective that libintercom-pmpi intercepts.
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh recursion
