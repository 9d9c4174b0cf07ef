/*
 * icp_outside.c -- an MPI program that calls a collective before MPI_Init
 * (argument "before") or after MPI_Finalize ("after"), which MPI forbids:
 * under the preload the MPI must react exactly as without it (the call goes
 * to the PMPI_ function), which tests/interpose/run-interpose.sh checks.
 */
#include <mpi.h>
#include <stdio.h>
#include <string.h>

int main(int argc, char **argv)
{
    int x = 1;
    int before = argc > 1 && strcmp(argv[1], "before") == 0;
    if (before)
        MPI_Barrier(MPI_COMM_WORLD);
    MPI_Init(&argc, &argv);
    MPI_Finalize();
    if (!before)
        MPI_Bcast(&x, 1, MPI_INT, 0, MPI_COMM_WORLD);
    printf("the MPI let the program go on\n");
    return 0;
}
