/*
 * runner.c -- runs every Check suite of tests/unit (no MPI needed).
 *
 *   check_intercom                run all suites
 *   check_intercom SUITE [TCASE]  run one suite (and one test case)
 *
 * Check's own environment variables work too (CK_RUN_SUITE, CK_RUN_CASE,
 * CK_VERBOSITY, CK_FORK=no for debugging).  Exit status 0 when every test
 * passed.
 */
#include "suites.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef Suite *(*suite_fn)(void);

static const struct {
    const char *name;
    suite_fn make;
} suites[] = {
    {"sim", suite_sim},
    {"cost", suite_cost},
    {"cost_formulas", suite_cost_formulas},
    {"primitives", suite_primitives},
    {"collectives", suite_collectives},
    {"bench_fit", suite_bench_fit},
    {"placement", suite_placement},
    {"table", suite_table},
    {"tan_strazdins", suite_tan_strazdins},
    {"copy", suite_copy},
};

int main(int argc, char **argv)
{
    const char *only = argc > 1 ? argv[1] : NULL;
    const char *tcase = argc > 2 ? argv[2] : NULL;
    SRunner *sr = NULL;
    size_t n = sizeof(suites) / sizeof(suites[0]);
    for (size_t i = 0; i < n; i++) {
        if (only && strcmp(only, suites[i].name) != 0)
            continue;
        Suite *s = suites[i].make();
        if (!sr)
            sr = srunner_create(s);
        else
            srunner_add_suite(sr, s);
    }
    if (!sr) {
        fprintf(stderr, "no suite named '%s'; suites:", only);
        for (size_t i = 0; i < n; i++)
            fprintf(stderr, " %s", suites[i].name);
        fprintf(stderr, "\n");
        return 2;
    }
    if (tcase)
        srunner_run(sr, only, tcase, CK_ENV);
    else
        srunner_run_all(sr, CK_ENV);
    int failed = srunner_ntests_failed(sr);
    srunner_free(sr);
    return failed == 0 ? EXIT_SUCCESS : EXIT_FAILURE;
}
