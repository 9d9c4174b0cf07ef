/*
 * smpi_bcast.c -- an SMPI program that calls IC_Bcast (and IC_Allreduce)
 * and checks the results against the simulated MPI's own collectives.
 * Built with smpicc against the static libintercom.a of an SMPI build (SMPI
 * privatises the executable's globals, so the library must be linked in).
 */
#include <intercom.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
    MPI_Init(&argc, &argv);
    int rank, p, bad = 0;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    MPI_Comm_size(MPI_COMM_WORLD, &p);
    const int counts[] = {0, 1, 7, 1000, 100003};
    for (size_t k = 0; k < sizeof(counts) / sizeof(counts[0]); k++) {
        int n = counts[k];
        int *a = malloc(sizeof(int) * (size_t)(n + 1));
        int *b = malloc(sizeof(int) * (size_t)(n + 1));
        for (int root = 0; root < p; root += (p > 3 ? p / 3 : 1)) {
            for (int i = 0; i < n; i++)
                a[i] = b[i] = rank == root ? i * 7 + root : -1;
            IC_Bcast(a, n, MPI_INT, root, MPI_COMM_WORLD);
            MPI_Bcast(b, n, MPI_INT, root, MPI_COMM_WORLD);
            if (memcmp(a, b, sizeof(int) * (size_t)n) != 0)
                bad++;
        }
        for (int i = 0; i < n; i++)
            a[i] = b[i] = rank * 3 + i;
        IC_Allreduce(MPI_IN_PLACE, a, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        MPI_Allreduce(MPI_IN_PLACE, b, n, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
        if (memcmp(a, b, sizeof(int) * (size_t)n) != 0)
            bad++;
        free(a);
        free(b);
    }
    int total = 0;
    MPI_Allreduce(&bad, &total, 1, MPI_INT, MPI_SUM, MPI_COMM_WORLD);
    if (rank == 0)
        printf("smpi_bcast: p = %d: %s (bcast last algorithm: %s)\n", p, total ? "FAILED" : "ok",
               IC_Last_algorithm(IC_COLL_ID_BCAST));
    MPI_Finalize();
    return total ? 1 : 0;
}
