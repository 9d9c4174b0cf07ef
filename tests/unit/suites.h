/*
 * suites.h -- one Check suite per module; tests/unit/runner.c runs them all.
 * To add a module's tests: write check_<module>.c defining
 * Suite *suite_<module>(void), declare it here, list it in runner.c and in
 * tests/Makefile.inc.
 */
#ifndef IC_TEST_SUITES_H
#define IC_TEST_SUITES_H

#include <check.h>

Suite *suite_sim(void);
Suite *suite_cost(void);
Suite *suite_cost_formulas(void);
Suite *suite_primitives(void);
Suite *suite_collectives(void);
Suite *suite_bench_fit(void);
Suite *suite_placement(void);
Suite *suite_table(void);
Suite *suite_tan_strazdins(void);
Suite *suite_copy(void);

#endif
