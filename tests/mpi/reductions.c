/*
 * reductions.c -- IC_Reduce, IC_Allreduce, IC_Reduce_scatter and
 * IC_Reduce_scatter_block against the vendor MPI, with every registered
 * algorithm forced in turn and with automatic selection.
 *
 *   1. every predefined datatype with every predefined op MPI defines for
 *      it (MINLOC/MAXLOC on the pair types included) and the user ops
 *      (a non-commutative 2x2 matrix product, a commutative one), at a
 *      small count, each with two of the algorithms in turn; the root,
 *      MPI_IN_PLACE and NULL non-root receive buffers rotate over the
 *      cases;
 *   2. counts 0, 1, p-1, p, p+1, 1000 x every root x in_place or not, for
 *      a few datatype/op pairs: int sum, double sum, the matrix product on
 *      a contiguous matrix and on one with a gap between its rows, the
 *      commutative user op on unsigned, on a strided vector of them and on
 *      resized ones with positive and negative lower bounds (the vendors
 *      define predefined ops on predefined datatypes only); reduce_scatter
 *      with even, uneven (zeros included) and single-rank block counts;
 *   3. a large odd count (100003 elements) for double sum and the matrix
 *      product;
 *   4. MPI_INT on some ranks, a derived type of the same signature (an
 *      error there) on the others: the plan must come out alike.
 */
#include "mpitest.h"

#include <stdio.h>
#include <string.h>

static const IC_Coll colls[] = {IC_COLL_ID_REDUCE, IC_COLL_ID_ALLREDUCE, IC_COLL_ID_REDUCE_SCATTER,
                                IC_COLL_ID_REDUCE_SCATTER_BLOCK};
#define NCOLLS 4

/* 1. the datatype x op matrix: each combination with two of the choices
 * (registered algorithms and "auto"), rotating, so every choice meets every
 * datatype class and op */
static void type_op_matrix(int p)
{
    for (int k = 0; k < NCOLLS; k++) {
        IC_Coll cl = colls[k];
        int nalgs = mt_nalgs(cl);
        long idx = 0;
        for (const mt_basic_t *b = mt_basics; b->name; b++) {
            mt_type_t t = {b->type, b->name, b, 1, 0};
            for (const mt_op_t *o = mt_ops; o->name; o++) {
                if (!mt_op_defined(o, b))
                    continue;
                for (int j = 0; j < 2 && j < nalgs; j++) {
                    mt_red_t r = {cl,
                                  &t,
                                  o,
                                  0,
                                  MT_UNEVEN,
                                  (int)((idx + j) % p),
                                  (int)((idx / 2 + j) % 2),
                                  (int)(idx % 3 == 0)};
                    if (cl == IC_COLL_ID_REDUCE_SCATTER)
                        r.count = 2 * p + 1;
                    else if (cl == IC_COLL_ID_REDUCE_SCATTER_BLOCK)
                        r.count = 2;
                    else
                        r.count = p + 1;
                    mt_run_red(mt_world, NULL, &r, (int)((idx + j) % nalgs));
                }
                idx++;
            }
        }
    }
}

/* 2. counts x roots x in_place for a few datatype/op pairs */
static void count_root_matrix(int p)
{
    static mt_type_t t_int, t_double, t_unsigned;
    t_int = mt_type_of(MPI_INT);
    t_double = mt_type_of(MPI_DOUBLE);
    t_unsigned = mt_type_of(MPI_UNSIGNED);
    const struct {
        const mt_type_t *t;
        const mt_op_t *o;
    } tyops[] = {
        {&t_int, &mt_ops[0]},        {&t_double, &mt_ops[0]},        {&mt_mat, mt_op_matmul},
        {&mt_matgap, mt_op_matmul},  {&t_unsigned, mt_op_ucomm},     {&mt_vec_uint, mt_op_ucomm},
        {&mt_res_uint, mt_op_ucomm}, {&mt_resneg_uint, mt_op_ucomm},
    };
    const int ntyops = (int)(sizeof(tyops) / sizeof(tyops[0]));
    long counts[] = {0, 1, p - 1, p, p + 1, 1000};
    for (int k = 0; k < NCOLLS; k++) {
        IC_Coll cl = colls[k];
        for (int a = 0; a < mt_nalgs(cl); a++)
            for (int ti = 0; ti < ntyops; ti++) {
                const mt_op_t *o = tyops[ti].o;
                for (int ci = 0; ci < 6; ci++)
                    for (int ip = 0; ip <= 1; ip++) {
                        int nroots = cl == IC_COLL_ID_REDUCE ? p : 1;
                        int npat = cl == IC_COLL_ID_REDUCE_SCATTER ? MT_NPATTERNS : 1;
                        for (int root = 0; root < nroots; root++)
                            for (int pat = 0; pat < npat; pat++) {
                                mt_red_t r = {cl,  tyops[ti].t, o,  counts[ci],
                                              pat, root,        ip, (root + ci) % 2};
                                mt_run_red(mt_world, NULL, &r, a);
                            }
                    }
            }
    }
}

/* 3. a large odd count */
static void large(int p)
{
    static mt_type_t t_double;
    t_double = mt_type_of(MPI_DOUBLE);
    for (int k = 0; k < NCOLLS; k++) {
        IC_Coll cl = colls[k];
        for (int a = 0; a < mt_nalgs(cl); a++) {
            long n = cl == IC_COLL_ID_REDUCE_SCATTER_BLOCK ? 100003 / p | 1 : 100003;
            mt_red_t r = {cl, &t_double, &mt_ops[0], n, MT_UNEVEN, p / 2, a % 2, 0};
            mt_run_red(mt_world, NULL, &r, a);
            if (cl == IC_COLL_ID_REDUCE || cl == IC_COLL_ID_ALLREDUCE) {
                mt_red_t m = {cl,      &mt_mat, mt_op_matmul, 100003 / 4 | 1,
                              MT_EVEN, p - 1,   (a + 1) % 2,  1};
                mt_run_red(mt_world, NULL, &m, a);
            }
        }
    }
}

/* 4. One type signature through different handles: the odd ranks pass a
 * contiguous type of one MPI_INT where the even ones pass MPI_INT.  A
 * predefined op on a derived type is an error only those ranks see
 * (MPI_ERR_OP, as the vendors' MPI_Reduce_local): they still take their
 * part, so whether the op gives the same bits in any order (the ring
 * allreduce needs it) must come out alike from both handles, or the ranks
 * would build different plans and hang or mix up their messages.  The
 * ring forced, then the automatic choice: every rank returns, the odd
 * ones with MPI_ERR_OP, the even ones with MPI_SUCCESS. */
static void mixed_handles(void)
{
    MPI_Datatype one_int;
    MPI_Type_contiguous(1, MPI_INT, &one_int);
    MPI_Type_commit(&one_int);
    int odd = mt_rank % 2;
    MPI_Datatype t = odd ? one_int : MPI_INT;
    enum { N = 1000 };
    static int in[N], out[N];
    for (int i = 0; i < N; i++)
        in[i] = mt_rank * 7 + i;
    const char *plans[] = {"ring", "auto"};
    for (int k = 0; k < 2; k++) {
        IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, plans[k]);
        int rc = IC_Allreduce(in, out, N, t, MPI_SUM, mt_world), cls = MPI_SUCCESS;
        MPI_Error_class(rc, &cls);
        if (cls != (odd ? MPI_ERR_OP : MPI_SUCCESS))
            mt_failx("allreduce %s, MPI_INT and a contiguous type of it on alternate ranks: "
                     "error class %d, expected %d",
                     plans[k], cls, odd ? MPI_ERR_OP : MPI_SUCCESS);
    }
    IC_Set_algorithm(IC_COLL_ID_ALLREDUCE, NULL);
    MPI_Type_free(&one_int);
}

int main(int argc, char **argv)
{
    int p = mt_init(&argc, &argv, "reductions");
    type_op_matrix(p);
    count_root_matrix(p);
    large(p);
    mixed_handles();
    return mt_finalize();
}
