#!/bin/sh
# sweep-rooted.sh -- the simulator's sweeps of the rooted collectives (the
# collectives suite's case sim_rooted; tests/unit/suites.sh runs the rest).
exec ./tests/unit/check_intercom collectives sim_rooted
