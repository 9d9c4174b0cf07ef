/*
 * icp_mixed.c -- a program linked with libintercom that also runs under
 * LD_PRELOAD=libintercom-pmpi.so: its IC_ calls and its intercepted MPI_
 * calls must share one InterCom state (src/interpose/Makefile.inc says
 * why they do).
 *
 * It forces an allreduce algorithm with IC_Set_algorithm, calls
 * MPI_Allreduce, checks the sums and prints, on rank 0,
 *     forced NAME, MPI_Allreduce served by WHO
 * with WHO = IC_Last_algorithm (or "the vendor MPI" when empty), then
 * the same for IC_Allreduce.  Plain, MPI_Allreduce is the vendor's; under
 * the preload, InterCom serves it with the forced algorithm, which the
 * program's own IC_Last_algorithm sees (tests/interpose/run-interpose.sh
 * mixed).  Exit status 1 on a wrong sum.
 */
#include "intercom.h"

#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#define N 4096

static const char *who(void)
{
    const char *a = IC_Last_algorithm(IC_COLL_ID_ALLREDUCE);
    return a && *a ? a : "the vendor MPI";
}

/* The sums of `call`: element i is sum over ranks of (rank + i). */
static int check(const int *out, int p, const char *call)
{
    int bad = 0;
    for (int i = 0; i < N; i++)
        if (out[i] != p * (p - 1) / 2 + p * i)
            bad++;
    if (bad)
        fprintf(stderr, "FAIL: %s: %d wrong elements\n", call, bad);
    return bad;
}

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    int *in = malloc(N * sizeof(int)), *out = malloc(N * sizeof(int));
    if (!in || !out)
        MPI_Abort(MPI_COMM_WORLD, 2);
    for (int i = 0; i < N; i++)
        in[i] = rank + i;

    /* the last registered allreduce algorithm: never the only one */
    int n = IC_Algorithm_count(IC_COLL_ID_ALLREDUCE);
    const char *forced = IC_Algorithm_name(IC_COLL_ID_ALLREDUCE, n - 1);
    if (!forced || IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, forced) != MPI_SUCCESS)
        MPI_Abort(MPI_COMM_WORLD, 2);

    int bad = 0;
    MPI_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad += check(out, p, "MPI_Allreduce");
    if (rank == 0)
        printf("forced %s, MPI_Allreduce served by %s\n", forced, who());
    IC_Allreduce(in, out, N, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    bad += check(out, p, "IC_Allreduce");
    if (rank == 0)
        printf("forced %s, IC_Allreduce served by %s\n", forced, who());

    free(in);
    free(out);
    MPI_Finalize();
    return bad ? 1 : 0;
}
