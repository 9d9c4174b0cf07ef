/*
 * movement.c -- IC_Bcast, IC_Gather(v), IC_Scatter(v), IC_Allgather(v) and
 * IC_Barrier against the vendor MPI, with every registered algorithm
 * forced in turn and with automatic selection.
 *
 * Datatypes (send -> receive, the same type signature): MPI_INT,
 * MPI_DOUBLE_INT (padding inside the extent), a strided vector, a resized
 * int with a non-zero lower bound, and mixed pairs (a vector of 2 ints on
 * one side, 2 MPI_INTs on the other; for bcast, even and odd ranks use the
 * two types).
 *
 *   1. counts 0, 1, p-1, p, p+1, 1000 (per block for the gather family) x
 *      every root x in_place where MPI allows it, for MPI_INT; fewer
 *      counts and roots for the other datatypes;
 *   2. v-variants: even, uneven (zeros included) and single-rank counts x
 *      packed, gapped and reversed displacements x roots x in_place;
 *   3. a large odd count (100003 elements in all);
 *   4. barrier: nobody leaves before everybody entered.
 * Non-significant arguments are passed as NULL / MPI_DATATYPE_NULL in
 * every other case.
 */
#include "mpitest.h"

static const IC_Coll fixed[] = {IC_COLL_ID_BCAST, IC_COLL_ID_GATHER, IC_COLL_ID_SCATTER,
                                IC_COLL_ID_ALLGATHER};
static const IC_Coll vvar[] = {IC_COLL_ID_GATHERV, IC_COLL_ID_SCATTERV, IC_COLL_ID_ALLGATHERV};

static int rooted(IC_Coll c)
{
    return c != IC_COLL_ID_ALLGATHER && c != IC_COLL_ID_ALLGATHERV;
}

static int has_in_place(IC_Coll c)
{
    return c != IC_COLL_ID_BCAST;
}

/* 1. counts x roots x in_place: every count and root for MPI_INT, every
 * root at two counts for the strided vector, the other datatypes at three
 * counts with a rotating root */
static void fixed_matrix(int p)
{
    long counts[] = {0, 1, p - 1, p, p + 1, 1000};
    long idx = 0;
    for (int k = 0; k < 4; k++) {
        IC_Coll cl = fixed[k];
        for (int a = 0; a < mt_nalgs(cl); a++)
            for (int tp = 0; tp < mt_ntpairs; tp++)
                for (int ci = 0; ci < 6; ci++) {
                    int some = ci == 1 || ci == 4 || ci == 5;
                    if (tp != 0 && !some)
                        continue;
                    int all_roots = rooted(cl) && (tp == 0 || (tp == 2 && ci != 5));
                    int r0 = rooted(cl) ? (int)(idx % p) : -1;
                    for (int ip = 0; ip <= has_in_place(cl); ip++)
                        for (int root = all_roots ? 0 : r0; root < (all_roots ? p : r0 + 1);
                             root++) {
                            mt_move_t m = {cl,        &mt_tpairs[tp], counts[ci], MT_EVEN,
                                           MT_PACKED, root,           ip,         (int)(idx % 2)};
                            mt_run_move(mt_world, NULL, &m, a);
                            idx++;
                        }
                }
    }
}

/* 2. v-variants */
static void v_matrix(int p)
{
    long idx = 0;
    /* MPI_INT, the resized int, a mixed pair, types differing by rank */
    const int tps[] = {0, 3, 4, 7};
    for (int k = 0; k < 3; k++) {
        IC_Coll cl = vvar[k];
        for (int a = 0; a < mt_nalgs(cl); a++)
            for (int ti = 0; ti < 4; ti++)
                for (int pat = 0; pat < MT_NPATTERNS; pat++)
                    for (int dk = 0; dk < MT_NDISPLS; dk++)
                        for (int ip = 0; ip <= 1; ip++) {
                            int nroots = rooted(cl) ? p : 1;
                            for (int root = 0; root < nroots; root++) {
                                /* every root for one displacement kind */
                                if (rooted(cl) && dk != MT_GAPS && root != (int)(idx % p))
                                    continue;
                                mt_move_t m = {cl,
                                               &mt_tpairs[tps[ti]],
                                               1 + (long)(idx % 4),
                                               pat,
                                               dk,
                                               rooted(cl) ? root : -1,
                                               ip,
                                               (int)(idx % 2)};
                                mt_run_move(mt_world, NULL, &m, a);
                                idx++;
                            }
                        }
    }
}

/* 3. large odd count */
static void large(int p)
{
    for (int k = 0; k < 4; k++) {
        IC_Coll cl = fixed[k];
        long n = cl == IC_COLL_ID_BCAST ? 100003 : 100003 / p | 1;
        for (int a = 0; a < mt_nalgs(cl); a++) {
            mt_move_t m = {cl,    &mt_tpairs[a % 2 ? 2 : 0], n, MT_EVEN, MT_PACKED,
                           p / 2, has_in_place(cl) && a % 2, 0};
            mt_run_move(mt_world, NULL, &m, a);
        }
    }
    for (int k = 0; k < 3; k++) {
        IC_Coll cl = vvar[k];
        for (int a = 0; a < mt_nalgs(cl); a++) {
            mt_move_t m = {cl,      &mt_tpairs[0],           100003 / p | 1, MT_UNEVEN,
                           MT_GAPS, rooted(cl) ? p - 1 : -1, a % 2,          0};
            mt_run_move(mt_world, NULL, &m, a);
        }
    }
}

int main(int argc, char **argv)
{
    int p = mt_init(&argc, &argv, "movement");
    fixed_matrix(p);
    v_matrix(p);
    large(p);
    for (int a = 0; a < mt_nalgs(IC_COLL_ID_BARRIER); a++)
        mt_run_barrier(mt_world, NULL, a);
    return mt_finalize();
}
