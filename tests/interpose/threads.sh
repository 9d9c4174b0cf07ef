#!/bin/sh
# threads.sh -- tests/mpi/threads.c built with MPI_ names (three threads of
# each rank calling collectives, nonblocking and persistent ones at once on
# communicators of their own, at MPI_THREAD_MULTIPLE) under the preload at
# p = 1 2 3 4: every result right, and InterCom served every collective.
# Skipped where the MPI does not grant MPI_THREAD_MULTIPLE.
exec "${SHELL:-/bin/sh}" tests/interpose/run-interpose.sh preloaded tests/interpose/icp_threads
