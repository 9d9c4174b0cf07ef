#!/bin/sh
# c.sh -- the C test program plain and under the preload (p = 1 2 3 4), and
# linked with libintercom-pmpi instead of preloaded.
sh=${SHELL:-/bin/sh}
"$sh" tests/interpose/run-interpose.sh compare tests/interpose/icp_coll_c
rc=$?
[ $rc -eq 0 ] || [ $rc -eq 77 ] || exit $rc
exec "$sh" tests/interpose/run-interpose.sh linked tests/interpose/icp_coll_c \
    tests/interpose/icp_coll_c_linked
