#!/bin/sh
# nonblocking.sh -- tests/mpi/nonblocking.c built with MPI_ names (MPI_I*,
# the persistent _init calls -- MPI-4's, or Open MPI's MPIX_ ones --,
# MPI_Start(all), MPI_Request_free and the MPI's own completion calls)
# under the preload at p = 1 2 3 4: every result equals the vendor's
# (PMPI_) answer, and InterCom served every collective.
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh preloaded tests/interpose/icp_nonblocking
