#!/bin/sh
# sweep-rootless.sh -- the simulator's sweeps of the rootless and v
# collectives and of p = 97, 256, 1000 (the collectives suite's case
# sim_rootless; tests/unit/suites.sh runs the rest).
exec ./tests/unit/check_intercom collectives sim_rootless
