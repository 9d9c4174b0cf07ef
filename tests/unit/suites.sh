#!/bin/sh
# suites.sh -- `make check`'s run of the Check unit tests but the
# simulator's sweeps (the test cases tagged "sweep", which
# tests/unit/sweep-rooted.sh and sweep-rootless.sh run beside it, so that
# `make -j` shares them out).  Run from the top of the build tree.
# `tests/unit/check_intercom` alone runs everything.
CK_EXCLUDE_TAGS=sweep
export CK_EXCLUDE_TAGS
exec ./tests/unit/check_intercom
