#!/bin/sh
# controls.sh -- INTERCOM_DISABLE, INTERCOM_REPORT, the vendor fallbacks, and
# calls before MPI_Init or after MPI_Finalize.
sh=${SHELL:-/bin/sh}
"$sh" tests/interpose/run-interpose.sh controls tests/interpose/icp_coll_c || exit $?
exec "$sh" tests/interpose/run-interpose.sh outside tests/interpose/icp_outside
