/*
 * intercom-tune -- measure the machine and write InterCom's tuning table
 * (tune.c; `intercom-tune --help`): `intercom-bench tune` as a program of
 * its own.
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return ic_bench_main(argc, argv, "tune");
}
