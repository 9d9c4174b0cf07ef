/*
 * intercom-bench -- communication benchmarks, and InterCom against the
 * vendor MPI (cli.c; `intercom-bench --help`).
 */
#include "bench.h"

int main(int argc, char **argv)
{
    return ic_bench_main(argc, argv, NULL);
}
