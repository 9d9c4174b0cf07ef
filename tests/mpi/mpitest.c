/*
 * mpitest.c -- shared machinery of the multi-rank tests: program set-up and
 * summary, case reporting, algorithm iteration, the datatype and op
 * tables, test values, comparisons and guarded buffers.  See mpitest.h.
 */
#include "mpitest.h"

#include "choose.h" /* the scratch rule of the one-shot allreduce (ic_one_shot_fits) */

#include <float.h>
#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

MPI_Comm mt_world = MPI_COMM_NULL;
int mt_rank, mt_size;
long mt_ncases;
long mt_nskipped;
long mt_nref_skipped;
int mt_verbose;
int mt_nonblocking;
MPI_Request mt_req = MPI_REQUEST_NULL;

int mt_nb_complete(int rc, MPI_Request *req)
{
    static unsigned calls;
    if (rc != MPI_SUCCESS)
        return rc;
    if (calls++ % 2 == 0)
        return MPI_Wait(req, MPI_STATUS_IGNORE);
    int flag = 0;
    while (!flag && rc == MPI_SUCCESS)
        rc = MPI_Test(req, &flag, MPI_STATUS_IGNORE);
    return rc;
}

static const char *prog = "mpitest";
static long nfail;
#define MT_MAXPRINT 20

/* ------------------------------------------------------------- program */

static void types_init(void);
static void types_free(void);
static void ops_init(void);
static void ops_free(void);

int mt_init(int *argc, char ***argv, const char *name)
{
    prog = name;
    MPI_Init(argc, argv);
    MPI_Comm_dup(MPI_COMM_WORLD, &mt_world);
    MPI_Comm_set_errhandler(mt_world, MPI_ERRORS_RETURN);
    MPI_Comm_rank(mt_world, &mt_rank);
    MPI_Comm_size(mt_world, &mt_size);
    const char *v = getenv("IC_TEST_VERBOSE");
    mt_verbose = v && *v && *v != '0';
    v = getenv("IC_TEST_NONBLOCKING");
    mt_nonblocking = v && *v && *v != '0';
    setvbuf(stdout, NULL, _IOLBF, 0);
    types_init();
    ops_init();
    return mt_size;
}

int mt_finalize(void)
{
    long total = 0, cases = 0;
    MPI_Allreduce(&nfail, &total, 1, MPI_LONG, MPI_SUM, mt_world);
    MPI_Allreduce(&mt_ncases, &cases, 1, MPI_LONG, MPI_MAX, mt_world);
    if (mt_rank == 0 && mt_nskipped)
        printf("NOTE: %s p=%d: %ld cases skipped: this MPI lays out resized datatypes wrongly "
               "(MPI_Type_get_true_extent or MPI_Unpack; SimGrid SMPI 3.32 does), so neither it "
               "nor InterCom can be checked with them\n",
               prog, mt_size, mt_nskipped);
    long nref = 0;
    MPI_Allreduce(&mt_nref_skipped, &nref, 1, MPI_LONG, MPI_MAX, mt_world);
    if (mt_rank == 0 && nref)
        printf("NOTE: %s p=%d: %ld reference calls of this MPI not made: SimGrid SMPI 3.32's "
               "MPI_Allreduce of count 0 on a derived datatype with a commutative op divides by "
               "zero at p = 16..31 (its segmented ring); InterCom's calls of those cases still "
               "checked\n",
               prog, mt_size, nref);
    if (mt_rank == 0) {
        if (total)
            printf("FAIL: %s p=%d: %ld failure(s) in %ld cases\n", prog, mt_size, total, cases);
        else
            printf("PASS: %s p=%d: %ld cases\n", prog, mt_size, cases);
    }
    for (int c = 0; c < IC_COLL_ID_COUNT; c++)
        IC_Set_algorithm((IC_Coll)c, NULL);
    ops_free();
    types_free();
    MPI_Comm_free(&mt_world);
    MPI_Finalize();
    return total ? 1 : 0;
}

/* ---------------------------------------------------------------- cases */

const char *mt_case_str(const mt_case_t *c)
{
    static char s[512];
    int p = 0;
    if (c->comm != MPI_COMM_NULL)
        MPI_Comm_size(c->comm, &p);
    int n = snprintf(s, sizeof(s), "coll=%s alg=%s comm=%s p=%d", c->coll, c->alg ? c->alg : "-",
                     c->comm_name ? c->comm_name : "world", p);
    if (c->root >= 0)
        n += snprintf(s + n, sizeof(s) - (size_t)n, " root=%d", c->root);
    n += snprintf(s + n, sizeof(s) - (size_t)n, " count=%ld type=%s", c->count,
                  c->type ? c->type : "-");
    if (c->op)
        n += snprintf(s + n, sizeof(s) - (size_t)n, " op=%s", c->op);
    n += snprintf(s + n, sizeof(s) - (size_t)n, " in_place=%d", c->in_place);
    if (c->extra)
        snprintf(s + n, sizeof(s) - (size_t)n, " %s", c->extra);
    return s;
}

static void vfail(const mt_case_t *c, const char *fmt, va_list ap)
{
    nfail++;
    if (nfail > MT_MAXPRINT) {
        if (nfail == MT_MAXPRINT + 1)
            printf("FAIL %s: rank %d: more failures not shown\n", prog, mt_rank);
        return;
    }
    char msg[512];
    vsnprintf(msg, sizeof(msg), fmt, ap);
    if (c)
        printf("FAIL %s: %s: rank %d: %s\n", prog, mt_case_str(c), mt_rank, msg);
    else
        printf("FAIL %s: rank %d: %s\n", prog, mt_rank, msg);
    fflush(stdout);
}

void mt_fail(const mt_case_t *c, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(c, fmt, ap);
    va_end(ap);
}

void mt_note(const mt_case_t *c, const char *fmt, ...)
{
    static int nnotes;
    if (++nnotes > MT_MAXPRINT)
        return;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof(msg), fmt, ap);
    va_end(ap);
    printf("NOTE %s: %s: rank %d: %s\n", prog, mt_case_str(c), mt_rank, msg);
}

void mt_failx(const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    vfail(NULL, fmt, ap);
    va_end(ap);
}

long mt_failures(void)
{
    return nfail;
}

void mt_begin(const mt_case_t *c)
{
    mt_ncases++;
    if (mt_verbose && mt_rank == 0) {
        printf("case %ld: %s\n", mt_ncases, mt_case_str(c));
        fflush(stdout);
    }
}

int mt_rc(const mt_case_t *c, int rc, const char *what)
{
    if (rc == MPI_SUCCESS)
        return 0;
    char s[MPI_MAX_ERROR_STRING];
    int len = 0;
    MPI_Error_string(rc, s, &len);
    mt_fail(c, "%s returned %d (%s)", what, rc, s);
    return 1;
}

/* ----------------------------------------------------------- algorithms */

/* Mesh plans forced in turn after the registered algorithms when MT_MESH
 * names a shape (RxC, RxCxD): for every algorithm that can be a mesh
 * step of the collective, that algorithm along every dimension, fastest
 * dimension first and slowest first; and mixes (step t takes the
 * (j + t)-th step algorithm).  A plan text IC_Set_algorithm rejects is
 * not a mesh step. */
#define MT_MAXMESH 40
static char mesh_plan[IC_COLL_ID_COUNT][MT_MAXMESH][160];
static int mesh_n[IC_COLL_ID_COUNT], mesh_ready[IC_COLL_ID_COUNT];

static void mesh_plans(IC_Coll coll)
{
    if (mesh_ready[coll])
        return;
    mesh_ready[coll] = 1;
    const char *shape = getenv("MT_MESH");
    if (!shape || !*shape)
        return;
    int k = 1;
    for (const char *q = shape; *q; q++)
        k += *q == 'x';
    const char *steps[32];
    int ns = 0;
    for (int i = 0; i < IC_Algorithm_count(coll) && ns < 32; i++) {
        char text[160];
        const char *name = IC_Algorithm_name(coll, i);
        int n = snprintf(text, sizeof(text), "%s:", shape);
        for (int t = 0; t < k; t++)
            n += snprintf(text + n, sizeof(text) - (size_t)n, "%sd%d=%s", t ? "," : "", t, name);
        if (IC_Set_algorithm(coll, text) == MPI_SUCCESS)
            steps[ns++] = name;
    }
    IC_Set_algorithm(coll, NULL);
    for (int j = 0; j <= ns && ns > 0; j++)
        for (int ord = 0; ord < 2 && mesh_n[coll] < MT_MAXMESH; ord++) {
            char *text = mesh_plan[coll][mesh_n[coll]];
            int n = snprintf(text, 160, "%s:", shape);
            for (int t = 0; t < k; t++)
                n += snprintf(text + n, 160 - (size_t)n, "%sd%d=%s", t ? "," : "",
                              ord ? t : k - 1 - t, steps[j < ns ? j : (t + ord) % ns]);
            mesh_n[coll]++;
        }
}

/* The registered algorithms forced in turn: all of them, none when MT_MESH
 * is set (the runs without it cover them). */
static int nregistered(IC_Coll coll)
{
    const char *shape = getenv("MT_MESH");
    return shape && *shape ? 0 : IC_Algorithm_count(coll);
}

/* MT_TABLE set: each algorithm is chosen by a tuning table instead of
 * IC_Set_algorithm.  The table, written by every rank alike and loaded
 * with IC_Tuning_load, holds first a rule for communicators of a million
 * ranks and more with another algorithm (it must never decide here),
 * then the rule for every call of the collective.  "auto": no table. */
const char *mt_coll_name(IC_Coll c)
{
    static const char *const n[] = {"bcast",
                                    "reduce",
                                    "allreduce",
                                    "allgather",
                                    "allgatherv",
                                    "reduce_scatter",
                                    "reduce_scatter_block",
                                    "scatter",
                                    "scatterv",
                                    "gather",
                                    "gatherv",
                                    "barrier"};
    return (int)c >= 0 && (int)c < IC_COLL_ID_COUNT ? n[c] : "?";
}

static int by_table(IC_Coll coll, const char *name)
{
    if (!name) {
        IC_Set_algorithm(coll, NULL);
        return IC_Tuning_load(NULL);
    }
    const char *other = NULL;
    for (int i = 0; i < IC_Algorithm_count(coll) && !other; i++)
        if (strcmp(IC_Algorithm_name(coll, i), name) != 0)
            other = IC_Algorithm_name(coll, i);
    char path[] = "/tmp/intercom-mt-table-XXXXXX";
    int fd = mkstemp(path);
    FILE *f = fd >= 0 ? fdopen(fd, "w") : NULL;
    if (!f)
        return MPI_ERR_OTHER;
    const char *cname = mt_coll_name(coll);
    fprintf(f, "intercom-tuning 1\n# written by mpitest.c (MT_TABLE)\n");
    if (other)
        fprintf(f, "%s 1000000-* any 0-* any %s\n", cname, other);
    fprintf(f, "%s 1-* any 0-* any %s\n", cname, name);
    int ok = fclose(f) == 0;
    int rc = ok ? IC_Tuning_load(path) : MPI_ERR_OTHER;
    remove(path);
    IC_Set_algorithm(coll, NULL);
    return rc;
}

int mt_nalgs(IC_Coll coll)
{
    mesh_plans(coll);
    return nregistered(coll) + mesh_n[coll] + 1;
}

const char *mt_alg(IC_Coll coll, int i)
{
    mesh_plans(coll);
    int nreg = nregistered(coll);
    const char *name = i < nreg                  ? IC_Algorithm_name(coll, i)
                       : i < nreg + mesh_n[coll] ? mesh_plan[coll][i - nreg]
                                                 : NULL;
    const char *table = getenv("MT_TABLE");
    if (table && *table) {
        if (by_table(coll, name) != MPI_SUCCESS)
            mt_failx("a tuning table choosing %s for collective %d failed to load",
                     name ? name : "auto", (int)coll);
    } else if (IC_Set_algorithm(coll, name) != MPI_SUCCESS) {
        mt_failx("IC_Set_algorithm(%d, %s) failed", (int)coll, name ? name : "NULL");
    }
    return name ? name : "auto";
}

/* A plan text without its parameters: "pipeline(64)" -> "pipeline". */
static void strip_params(const char *in, char *out, size_t len)
{
    size_t n = 0;
    for (int depth = 0; *in && n + 1 < len; in++) {
        depth += *in == '(';
        if (!depth)
            out[n++] = *in;
        depth -= *in == ')';
    }
    out[n] = 0;
}

/* Is the name of `len` characters at `name` one of coll's registered
 * algorithms? */
static int registered(IC_Coll coll, const char *name, size_t len)
{
    for (int i = 0; i < IC_Algorithm_count(coll); i++) {
        const char *r = IC_Algorithm_name(coll, i);
        if (strlen(r) == len && strncmp(r, name, len) == 0)
            return 1;
    }
    return 0;
}

/* Does text (parameters stripped) name a plan of coll: a registered
 * algorithm, or SHAPE:dI=NAME,... with registered names?  *ranks gets the
 * mesh's ranks (0 for a 1-D plan). */
static int plan_ok(IC_Coll coll, const char *text, long *ranks)
{
    *ranks = 0;
    const char *colon = strchr(text, ':');
    if (!colon)
        return registered(coll, text, strlen(text));
    *ranks = 1;
    for (const char *q = text; q < colon;) {
        char *end;
        long d = strtol(q, &end, 10);
        if (end == q || d < 1)
            return 0;
        *ranks *= d;
        q = *end == 'x' ? end + 1 : end;
    }
    for (const char *q = colon + 1; *q;) {
        const char *eq = strchr(q, '=');
        if (!eq || q[0] != 'd')
            return 0;
        const char *end = strchr(eq, ',');
        size_t len = end ? (size_t)(end - eq - 1) : strlen(eq + 1);
        if (!registered(coll, eq + 1, len))
            return 0;
        q = end ? end + 1 : eq + 1 + len;
    }
    return 1;
}

/* Can algorithm `name` of coll serve a line of n ranks whose vector is
 * `elems` elements, `bytes` in all, within the scratch allowance `slack`
 * (INTERCOM_SCRATCH_SLACK)?  The library's own rules (ic_algorithm_t.room:
 * algorithms.h): the circulant reduce holds up to 2 ceil(log2 p) + 1
 * blocks at once, so within the allowance a vector shorter than that
 * cannot be served (ic_circulant_reduce_fits); the k-nomial combine holds
 * its root's children's partials, at least ceil(log2 p) of them
 * (ic_knomial_reduce_fits); the one-shot allreduce
 * receives the other vectors of its line at once (ic_one_shot_fits; in
 * bytes it is the same for every element size). */
static int step_fits(IC_Coll coll, const char *name, size_t len, int n, long bytes, long elems,
                     size_t slack)
{
    if (coll == IC_COLL_ID_REDUCE && len == strlen("circulant") &&
        strncmp(name, "circulant", len) == 0 && bytes > 0 && elems > 0)
        return ic_circulant_reduce_fits(ic_bounded_from(slack, (size_t)(bytes / elems)), n,
                                        (size_t)elems);
    if (coll == IC_COLL_ID_REDUCE && len == strlen("knomial") &&
        strncmp(name, "knomial", len) == 0 && bytes > 0 && elems > 0)
        return ic_knomial_reduce_fits(ic_bounded_from(slack, (size_t)(bytes / elems)), n,
                                      (size_t)elems);
    if (len == strlen("one_shot") && strncmp(name, "one_shot", len) == 0 && bytes > 0)
        return ic_one_shot_fits(ic_bounded_from(slack, 1), n, (size_t)bytes);
    return 1;
}

/* May the library decline forced plan `text` (parameters stripped) for a
 * call of `elems` elements, `bytes` per rank, on `size` ranks?  Where a
 * step's algorithm cannot serve its line within the scratch allowance
 * (step_fits), the plan cannot serve the call and automatic selection
 * runs (ic_alg_room).  A 1-D plan: the rule on all ranks.  A mesh step's
 * line sees at most the whole vector (a reduce's and the one-shot's steps
 * keep it): where the whole fits on every step the plan must run;
 * elsewhere it may give way. */
static int may_give_way(const char *text, IC_Coll coll, int size, long bytes, long elems)
{
    const char *v = getenv("INTERCOM_SCRATCH_SLACK");
    char *end = NULL;
    double d = v && *v ? strtod(v, &end) : -1;
    size_t slack = d >= 0 && !*end ? (size_t)d : IC_SCRATCH_SLACK;
    const char *colon = strchr(text, ':');
    if (!colon)
        return !step_fits(coll, text, strlen(text), size, bytes, elems, slack);
    long dims[16];
    int k = 0;
    for (const char *q = text; q < colon && k < 16; k++) {
        dims[k] = strtol(q, &end, 10);
        q = *end == 'x' ? end + 1 : end;
    }
    for (const char *q = strchr(colon, '='); q; q = strchr(q + 1, '=')) {
        const char *dt = q; /* "dT=NAME": T's digits follow the 'd' */
        while (dt > colon && dt[-1] != 'd')
            dt--;
        long t = strtol(dt, NULL, 10);
        size_t len = strcspn(q + 1, ",");
        if (t >= 0 && t < k && !step_fits(coll, q + 1, len, (int)dims[t], bytes, elems, slack))
            return 1;
    }
    return 0;
}

void mt_check_alg(const mt_case_t *c, IC_Coll coll, int any_order, long bytes, long elems)
{
    char last[200], forced[200];
    long ranks = 0, franks = 0;
    strip_params(IC_Last_algorithm(coll), last, sizeof(last));
    if (!plan_ok(coll, last, &ranks)) {
        mt_fail(c, "IC_Last_algorithm is '%s', not a plan of registered algorithms", last);
        return;
    }
    if (!any_order || strcmp(c->alg, "auto") == 0)
        return;
    strip_params(c->alg, forced, sizeof(forced));
    plan_ok(coll, forced, &franks);
    int size = 0;
    MPI_Comm_size(c->comm, &size);
    /* a mesh plan of another size cannot serve this communicator */
    if (strcmp(last, forced) != 0 && (franks == 0 || franks == size) &&
        !may_give_way(forced, coll, size, bytes, elems))
        mt_fail(c, "forced algorithm '%s' but '%s' ran", c->alg, last);
}

/* -------------------------------------------------------------- types */

static mt_basic_t basics[] = {
    {MPI_SIGNED_CHAR, "MPI_SIGNED_CHAR", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UNSIGNED_CHAR, "MPI_UNSIGNED_CHAR", MT_INT, 0, 0, 0, 0, 0},
    {MPI_SHORT, "MPI_SHORT", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UNSIGNED_SHORT, "MPI_UNSIGNED_SHORT", MT_INT, 0, 0, 0, 0, 0},
    {MPI_INT, "MPI_INT", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UNSIGNED, "MPI_UNSIGNED", MT_INT, 0, 0, 0, 0, 0},
    {MPI_LONG, "MPI_LONG", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UNSIGNED_LONG, "MPI_UNSIGNED_LONG", MT_INT, 0, 0, 0, 0, 0},
    {MPI_LONG_LONG, "MPI_LONG_LONG", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UNSIGNED_LONG_LONG, "MPI_UNSIGNED_LONG_LONG", MT_INT, 0, 0, 0, 0, 0},
    {MPI_INT8_T, "MPI_INT8_T", MT_INT, 0, 1, 0, 0, 0},
    {MPI_INT16_T, "MPI_INT16_T", MT_INT, 0, 1, 0, 0, 0},
    {MPI_INT32_T, "MPI_INT32_T", MT_INT, 0, 1, 0, 0, 0},
    {MPI_INT64_T, "MPI_INT64_T", MT_INT, 0, 1, 0, 0, 0},
    {MPI_UINT8_T, "MPI_UINT8_T", MT_INT, 0, 0, 0, 0, 0},
    {MPI_UINT16_T, "MPI_UINT16_T", MT_INT, 0, 0, 0, 0, 0},
    {MPI_UINT32_T, "MPI_UINT32_T", MT_INT, 0, 0, 0, 0, 0},
    {MPI_UINT64_T, "MPI_UINT64_T", MT_INT, 0, 0, 0, 0, 0},
    {MPI_AINT, "MPI_AINT", MT_INT, 0, 1, 0, 0, 0},
    {MPI_OFFSET, "MPI_OFFSET", MT_INT, 0, 1, 0, 0, 0},
    {MPI_COUNT, "MPI_COUNT", MT_INT, 0, 1, 0, 0, 0},
    {MPI_FLOAT, "MPI_FLOAT", MT_FLOAT, 0, 1, 'f', 0, 0},
    {MPI_DOUBLE, "MPI_DOUBLE", MT_FLOAT, 0, 1, 'd', 0, 0},
    {MPI_LONG_DOUBLE, "MPI_LONG_DOUBLE", MT_FLOAT, 0, 1, 'l', 0, 0},
    {MPI_C_BOOL, "MPI_C_BOOL", MT_BOOL, 0, 0, 0, 0, 0},
    {MPI_C_FLOAT_COMPLEX, "MPI_C_FLOAT_COMPLEX", MT_COMPLEX, 0, 1, 'f', 0, 0},
    {MPI_C_DOUBLE_COMPLEX, "MPI_C_DOUBLE_COMPLEX", MT_COMPLEX, 0, 1, 'd', 0, 0},
    {MPI_C_LONG_DOUBLE_COMPLEX, "MPI_C_LONG_DOUBLE_COMPLEX", MT_COMPLEX, 0, 1, 'l', 0, 0},
    {MPI_BYTE, "MPI_BYTE", MT_BYTE, 0, 0, 0, 0, 0},
    {MPI_FLOAT_INT, "MPI_FLOAT_INT", MT_PAIR, 0, 1, 'f', 4, 0},
    {MPI_DOUBLE_INT, "MPI_DOUBLE_INT", MT_PAIR, 0, 1, 'd', 8, 0},
    {MPI_LONG_DOUBLE_INT, "MPI_LONG_DOUBLE_INT", MT_PAIR, 0, 1, 'l', 0, 0},
    {MPI_LONG_INT, "MPI_LONG_INT", MT_PAIR, 0, 1, 0, 8, 0},
    {MPI_2INT, "MPI_2INT", MT_PAIR, 0, 1, 0, 4, 0},
    {MPI_SHORT_INT, "MPI_SHORT_INT", MT_PAIR, 0, 1, 0, 2, 0},
    {MPI_DATATYPE_NULL, NULL, MT_INT, 0, 0, 0, 0, 0}, /* the matrix type, set in types_init */
    {MPI_DATATYPE_NULL, NULL, MT_INT, 0, 0, 0, 0, 0}};
#define NBASICS ((int)(sizeof(basics) / sizeof(basics[0])) - 2)

const mt_basic_t *mt_basics = basics;

mt_type_t mt_vec_int, mt_res_int, mt_resneg_int, mt_vec_uint, mt_res_uint, mt_resneg_uint, mt_mat,
    mt_matgap;
static mt_basic_t *mat_basic = &basics[NBASICS];

static mt_tpair_t tpairs[8];
const mt_tpair_t *mt_tpairs = tpairs;
int mt_ntpairs = 8;

const mt_basic_t *mt_basic_find(MPI_Datatype t)
{
    for (int i = 0; i < NBASICS + 1; i++)
        if (basics[i].type == t)
            return &basics[i];
    return NULL;
}

mt_type_t mt_type_of(MPI_Datatype t)
{
    const mt_basic_t *b = mt_basic_find(t);
    mt_type_t r = {t, b ? b->name : "?", b, 1, 0};
    return r;
}

static mt_type_t derived(MPI_Datatype t, const char *name, MPI_Datatype of, int per)
{
    MPI_Type_commit(&t);
    mt_type_t r = {t, name, mt_basic_find(of), per, 0};
    return r;
}

/* One element of `of` at byte disp, resized to lower bound lb and extent. */
static MPI_Datatype resized_one(MPI_Datatype of, MPI_Aint disp, MPI_Aint lb, MPI_Aint extent)
{
    int bl = 1;
    MPI_Datatype u, t;
    MPI_Type_create_struct(1, &bl, &disp, &of, &u);
    MPI_Type_create_resized(u, lb, extent, &t);
    MPI_Type_free(&u);
    return t;
}

/* Does this MPI lay out t (one element of `size` bytes at disp, within a
 * resized extent) as MPI says?  Its true extent must be the element's, and
 * unpacking 3 elements must write their bytes and no others.  (SimGrid SMPI
 * 3.32 gives the resized bounds as the true extent and writes whole extents,
 * past the last element.) */
static int resized_ok(MPI_Datatype t, MPI_Aint disp, int size)
{
    MPI_Aint lb, extent, tlb, textent;
    MPI_Type_get_extent(t, &lb, &extent);
    MPI_Type_get_true_extent(t, &tlb, &textent);
    if (tlb != disp || textent != size)
        return 0;
    enum { N = 3, PAD = 64 };
    unsigned char mem[N * 64 + 2 * PAD], ones[N * 16];
    if (extent <= 0 || extent > 64 || size > 16)
        return 0;
    memset(mem, 0, sizeof(mem));
    memset(ones, 0xFF, sizeof(ones));
    unsigned char *buf = mem + PAD - lb;
    int pos = 0;
    if (MPI_Unpack(ones, N * size, &pos, buf, N, t, MPI_COMM_SELF) != MPI_SUCCESS)
        return 0;
    for (long k = 0; k < (long)sizeof(mem); k++) {
        long at = k - (long)(buf - mem);
        int in = 0;
        for (int e = 0; e < N; e++)
            in |= at >= e * extent + disp && at < e * extent + disp + size;
        if ((mem[k] != 0) != in)
            return 0;
    }
    return 1;
}

/* A resized type, marked broken where this MPI lays it out wrongly. */
static mt_type_t resized(MPI_Datatype of, MPI_Aint disp, MPI_Aint lb, MPI_Aint extent,
                         const char *name)
{
    int size;
    MPI_Type_size(of, &size);
    mt_type_t r = derived(resized_one(of, disp, lb, extent), name, of, 1);
    r.broken = !resized_ok(r.type, disp, size);
    return r;
}

int mt_skip_types(const struct mt_type *a, const struct mt_type *b)
{
    if (!(a && a->broken) && !(b && b->broken))
        return 0;
    mt_nskipped++;
    return 1;
}

static void types_init(void)
{
    for (int i = 0; i < NBASICS; i++) {
        MPI_Type_size(basics[i].type, &basics[i].size);
        if (basics[i].cls == MT_PAIR && basics[i].vsize == 0)
            basics[i].vsize = (int)sizeof(long double);
        if (basics[i].cls == MT_PAIR) {
            int v = basics[i].vsize, in = (int)sizeof(int);
            basics[i].ioff = basics[i].size == v + in ? v : (v + in - 1) / in * in;
        }
    }
    MPI_Datatype t;
    /* 2x2 unsigned matrix, the element of the user ops */
    MPI_Type_contiguous(4, MPI_UNSIGNED, &t);
    MPI_Type_commit(&t);
    mat_basic->type = t;
    mat_basic->name = "mat2x2";
    mat_basic->cls = MT_MAT;
    mat_basic->size = 4 * (int)sizeof(unsigned);
    mt_mat = (mt_type_t){t, "mat2x2", mat_basic, 1, 0};
    /* the same matrix with a gap between its rows */
    MPI_Type_vector(2, 2, 3, MPI_UNSIGNED, &t);
    MPI_Type_commit(&t);
    mt_matgap = (mt_type_t){t, "mat2x2(rows 12 bytes apart)", mat_basic, 1, 0};
    /* strided: 2 ints 12 bytes apart, extent 16: bytes 4..11 are gaps */
    MPI_Type_vector(2, 1, 3, MPI_INT, &t);
    mt_vec_int = derived(t, "vec2int", MPI_INT, 2);
    MPI_Type_vector(2, 1, 3, MPI_UNSIGNED, &t);
    mt_vec_uint = derived(t, "vec2uint", MPI_UNSIGNED, 2);
    /* one int at byte 8, lower bound 4, extent 16 */
    mt_res_int = resized(MPI_INT, 8, 4, 16, "resized_int(lb=4,ext=16)");
    mt_res_uint = resized(MPI_UNSIGNED, 8, 4, 16, "resized_uint(lb=4,ext=16)");
    /* one int at byte 0, lower bound -4, extent 12 */
    mt_resneg_int = resized(MPI_INT, 0, -4, 12, "resized_int(lb=-4,ext=12)");
    mt_resneg_uint = resized(MPI_UNSIGNED, 0, -4, 12, "resized_uint(lb=-4,ext=12)");

    static mt_type_t t_int, t_dint;
    t_int = mt_type_of(MPI_INT);
    t_dint = mt_type_of(MPI_DOUBLE_INT);
    tpairs[0] = (mt_tpair_t){"MPI_INT", &t_int, &t_int, 1, 1, 0};
    tpairs[1] = (mt_tpair_t){"MPI_DOUBLE_INT", &t_dint, &t_dint, 1, 1, 0};
    tpairs[2] = (mt_tpair_t){"vec2int", &mt_vec_int, &mt_vec_int, 1, 1, 0};
    tpairs[3] = (mt_tpair_t){"resized_int(lb=4)", &mt_res_int, &mt_res_int, 1, 1, 0};
    tpairs[4] = (mt_tpair_t){"vec2int->MPI_INT", &mt_vec_int, &t_int, 1, 2, 0};
    tpairs[5] = (mt_tpair_t){"MPI_INT->vec2int", &t_int, &mt_vec_int, 2, 1, 0};
    tpairs[6] = (mt_tpair_t){"resized_int(lb=-4)", &mt_resneg_int, &mt_resneg_int, 1, 1, 0};
    tpairs[7] = (mt_tpair_t){"vec2int<->MPI_INT(by rank parity)", &mt_vec_int, &t_int, 1, 2, 1};
}

static void types_free(void)
{
    MPI_Type_free(&mt_vec_int.type);
    MPI_Type_free(&mt_res_int.type);
    MPI_Type_free(&mt_resneg_int.type);
    MPI_Type_free(&mt_vec_uint.type);
    MPI_Type_free(&mt_res_uint.type);
    MPI_Type_free(&mt_resneg_uint.type);
    MPI_Type_free(&mat_basic->type);
    MPI_Type_free(&mt_matgap.type);
}

/* ------------------------------------------------------------------ ops */

/* 2x2 matrix product, row-major [a b; c d], mod 2^32: in (x) inout. */
static void matmul_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    /* mt_mat: 4 unsigned in a row; mt_matgap: rows 12 bytes apart, extent 20 */
    size_t stride = 16, row2 = 8;
    if (*dt == mt_matgap.type)
        stride = 20, row2 = 12;
    for (int k = 0; k < *len; k++) {
        unsigned x[4], y[4];
        char *xi = (char *)in + (size_t)k * stride, *yi = (char *)inout + (size_t)k * stride;
        memcpy(x, xi, 8);
        memcpy(x + 2, xi + row2, 8);
        memcpy(y, yi, 8);
        memcpy(y + 2, yi + row2, 8);
        unsigned r[4] = {x[0] * y[0] + x[1] * y[2], x[0] * y[1] + x[1] * y[3],
                         x[2] * y[0] + x[3] * y[2], x[2] * y[1] + x[3] * y[3]};
        memcpy(yi, r, 8);
        memcpy(yi + row2, r + 2, 8);
    }
}

/* a + b + ab = (1 + a)(1 + b) - 1 mod 2^32: commutative and associative.
 * On MPI_UNSIGNED and on the strided and resized layouts of it (the
 * function walks their type maps itself, as a user op must). */
static void ucomm_fn(void *in, void *inout, int *len, MPI_Datatype *dt)
{
    size_t stride = sizeof(unsigned), per = 1, gap = 0, first = 0;
    if (*dt == mt_vec_uint.type) {
        stride = 16, per = 2, gap = 12;
    } else if (*dt == mt_res_uint.type) {
        stride = 16, first = 8;
    } else if (*dt == mt_resneg_uint.type) {
        stride = 12;
    }
    for (int k = 0; k < *len; k++)
        for (size_t q = 0; q < per; q++) {
            size_t at = (size_t)k * stride + first + q * gap;
            unsigned x, y;
            memcpy(&x, (char *)in + at, sizeof(x));
            memcpy(&y, (char *)inout + at, sizeof(y));
            y = x + y + x * y;
            memcpy((char *)inout + at, &y, sizeof(y));
        }
}

mt_op_t mt_ops[] = {{MPI_SUM, "MPI_SUM", MT_OP_SUM, 1},
                    {MPI_PROD, "MPI_PROD", MT_OP_PROD, 1},
                    {MPI_MIN, "MPI_MIN", MT_OP_MINMAX, 1},
                    {MPI_MAX, "MPI_MAX", MT_OP_MINMAX, 1},
                    {MPI_LAND, "MPI_LAND", MT_OP_LOGIC, 1},
                    {MPI_LOR, "MPI_LOR", MT_OP_LOGIC, 1},
                    {MPI_LXOR, "MPI_LXOR", MT_OP_LOGIC, 1},
                    {MPI_BAND, "MPI_BAND", MT_OP_BITS, 1},
                    {MPI_BOR, "MPI_BOR", MT_OP_BITS, 1},
                    {MPI_BXOR, "MPI_BXOR", MT_OP_BITS, 1},
                    {MPI_MINLOC, "MPI_MINLOC", MT_OP_LOC, 1},
                    {MPI_MAXLOC, "MPI_MAXLOC", MT_OP_LOC, 1},
                    {MPI_OP_NULL, "matmul(noncommutative)", MT_OP_USER_MAT, 0},
                    {MPI_OP_NULL, "a+b+ab(commutative)", MT_OP_USER_COMM, 1},
                    {MPI_OP_NULL, NULL, MT_OP_SUM, 1}};
mt_op_t *mt_op_matmul = &mt_ops[12];
mt_op_t *mt_op_ucomm = &mt_ops[13];

static void ops_init(void)
{
    MPI_Op_create(matmul_fn, 0, &mt_op_matmul->op);
    MPI_Op_create(ucomm_fn, 1, &mt_op_ucomm->op);
}

static void ops_free(void)
{
    MPI_Op_free(&mt_op_matmul->op);
    MPI_Op_free(&mt_op_ucomm->op);
}

const mt_op_t *mt_op_find(MPI_Op op)
{
    for (mt_op_t *o = mt_ops; o->name; o++)
        if (o->op == op)
            return o;
    return NULL;
}

int mt_op_defined(const mt_op_t *o, const mt_basic_t *b)
{
    switch (o->kind) {
    case MT_OP_SUM:
    case MT_OP_PROD:
        return b->cls == MT_INT || b->cls == MT_FLOAT || b->cls == MT_COMPLEX;
    case MT_OP_MINMAX:
        return b->cls == MT_INT || b->cls == MT_FLOAT;
    case MT_OP_LOGIC:
        return b->cls == MT_INT || b->cls == MT_BOOL;
    case MT_OP_BITS:
        return b->cls == MT_INT || b->cls == MT_BYTE;
    case MT_OP_LOC:
        return b->cls == MT_PAIR;
    case MT_OP_USER_COMM:
        return b->type == MPI_UNSIGNED;
    case MT_OP_USER_MAT:
        return b->cls == MT_MAT;
    }
    return 0;
}

/* -------------------------------------------------------------- values */

static uint32_t mix(uint32_t a, uint32_t b, uint32_t c)
{
    uint32_t h = a * 0x9E3779B1u ^ (b + 0x7F4A7C15u) * 0x85EBCA77u;
    h ^= (c + 0x165667B1u) * 0xC2B2AE3Du;
    h ^= h >> 15;
    h *= 0x2C1B3C6Du;
    h ^= h >> 12;
    h *= 0x297A2D39u;
    h ^= h >> 15;
    return h;
}

/* A random value in [1, 2) with all the mantissa bits of kind fk used. */
static long double unit12(uint32_t h1, uint32_t h2)
{
    long double u = (long double)h1 / 4294967296.0L + (long double)h2 / 18446744073709551616.0L;
    return 1.0L + u;
}

static void put_float(int fk, void *dst, long double v)
{
    if (fk == 'f') {
        float f = (float)v;
        memcpy(dst, &f, sizeof(f));
    } else if (fk == 'd') {
        double d = (double)v;
        memcpy(dst, &d, sizeof(d));
    } else {
        long double l = v;
        memset(dst, 0, sizeof(l)); /* x87 padding bytes: defined */
        memcpy(dst, &l, sizeof(l));
    }
}

static long double get_float(int fk, const void *src)
{
    if (fk == 'f') {
        float f;
        memcpy(&f, src, sizeof(f));
        return f;
    }
    if (fk == 'd') {
        double d;
        memcpy(&d, src, sizeof(d));
        return d;
    }
    long double l;
    memcpy(&l, src, sizeof(l));
    return l;
}

static int fsize(int fk)
{
    return fk == 'f'   ? (int)sizeof(float)
           : fk == 'd' ? (int)sizeof(double)
                       : (int)sizeof(long double);
}

/* Bytes of a floating value that carry it (x87 long double: 10 of 16). */
static int fcanon(int fk)
{
    if (fk == 'l' && LDBL_MANT_DIG == 64)
        return 10;
    return fsize(fk);
}

static void put_int(void *dst, int size, long long v)
{
    /* little- or big-endian alike: through the integer type of that size */
    switch (size) {
    case 1: {
        int8_t x = (int8_t)v;
        memcpy(dst, &x, 1);
        break;
    }
    case 2: {
        int16_t x = (int16_t)v;
        memcpy(dst, &x, 2);
        break;
    }
    case 4: {
        int32_t x = (int32_t)v;
        memcpy(dst, &x, 4);
        break;
    }
    default: {
        int64_t x = (int64_t)v;
        memcpy(dst, &x, 8);
        break;
    }
    }
}

/* Largest value of an integer type of `size` bytes (INT64_MAX for both
 * 64-bit ones: a long long holds it). */
static long long int_limit(int size, int is_signed)
{
    if (size >= 8)
        return INT64_MAX;
    long long m = (1LL << (8 * size)) - 1;
    return is_signed ? m / 2 : m;
}

static void gen_one(const mt_basic_t *b, mt_opkind_t k, int r, int p, size_t i, unsigned seed,
                    unsigned char *out)
{
    uint32_t h = mix(seed, (uint32_t)r, (uint32_t)i);
    uint32_t h2 = mix(h, 0x51u, (uint32_t)i);
    switch (b->cls) {
    case MT_INT: {
        long long v;
        long long lim = int_limit(b->size, b->is_signed);
        if (k == MT_OP_SUM) {
            long long bound = lim / (p > 0 ? p : 1);
            if (bound > 1000)
                bound = 1000;
            v = b->is_signed ? (long long)(h % (uint32_t)(2 * bound + 1)) - bound
                             : (long long)(h % (uint32_t)(bound + 1));
        } else if (k == MT_OP_PROD) {
            v = (size_t)r == i % (size_t)p ? 2 : 1; /* one factor 2 per element */
            if (b->is_signed && (h & 1))
                v = -v;
        } else if (k == MT_OP_LOGIC) {
            static const int lv[4] = {0, 1, 0, 5};
            v = lv[h % 4];
        } else if (k == MT_OP_USER_COMM) {
            v = h % 8;
        } else { /* MIN/MAX, bits, plain data: any bit pattern */
            uint64_t x = ((uint64_t)h << 32) | h2;
            memcpy(out, &x, (size_t)b->size);
            return;
        }
        put_int(out, b->size, v);
        return;
    }
    case MT_FLOAT:
    case MT_COMPLEX: {
        int parts = b->cls == MT_COMPLEX ? 2 : 1;
        int fs = fsize(b->fkind);
        for (int q = 0; q < parts; q++) {
            uint32_t a1 = mix(h, (uint32_t)q, 1), a2 = mix(h2, (uint32_t)q, 2);
            long double v;
            if (k == MT_OP_PROD)
                v = q == 0 ? 0.75L * unit12(a1, a2) : 0.05L * (unit12(a1, a2) - 1.0L);
            else
                v = ldexpl(unit12(a1, a2), (int)(a1 % 7) - 3);
            if (k == MT_OP_MINMAX && (a2 & 1))
                v = -v;
            put_float(b->fkind, out + q * fs, v);
        }
        return;
    }
    case MT_BOOL:
        out[0] = (h % 4) != 0;
        return;
    case MT_BYTE:
        out[0] = (unsigned char)h;
        return;
    case MT_PAIR: {
        long long val = h % 4; /* small values: ties between ranks */
        int idx = (int)(h2 % 100);
        memset(out, 0, (size_t)b->size); /* padding, where this MPI packs it */
        if (b->fkind)
            put_float(b->fkind, out, (long double)val);
        else
            put_int(out, b->vsize, val);
        memcpy(out + b->ioff, &idx, sizeof(int));
        return;
    }
    case MT_MAT: {
        unsigned m[4] = {h % 4, (h >> 8) % 4, (h >> 16) % 4, (h >> 24) % 4};
        memcpy(out, m, sizeof(m));
        return;
    }
    }
}

void mt_gen(const mt_basic_t *b, mt_opkind_t k, int r, int p, size_t i0, size_t n, unsigned seed,
            void *packed)
{
    unsigned char *out = packed;
    for (size_t i = 0; i < n; i++)
        gen_one(b, k, r, p, i0 + i, seed, out + i * (size_t)b->size);
}

double mt_tol(const mt_basic_t *b, int p)
{
    long double eps = b->fkind == 'f' ? FLT_EPSILON : b->fkind == 'd' ? DBL_EPSILON : LDBL_EPSILON;
    return (double)(8.0L * (p + 1) * eps);
}

static int fclose_enough(long double g, long double w, long double scale, double tol)
{
    if (g == w)
        return 1;
    if (tol <= 0)
        return 0;
    return fabsl(g - w) <= (long double)tol * scale;
}

long mt_cmp(const mt_basic_t *b, const void *got, const void *want, size_t n, double tol, char *why,
            size_t whylen)
{
    const unsigned char *g = got, *w = want;
    size_t sz = (size_t)b->size;
    for (size_t i = 0; i < n; i++, g += sz, w += sz) {
        int ok;
        if (b->cls == MT_FLOAT || b->cls == MT_COMPLEX) {
            int parts = b->cls == MT_COMPLEX ? 2 : 1, fs = fsize(b->fkind);
            long double gv[2] = {0, 0}, wv[2] = {0, 0};
            for (int q = 0; q < parts; q++) {
                gv[q] = get_float(b->fkind, g + q * fs);
                wv[q] = get_float(b->fkind, w + q * fs);
            }
            long double scale = fabsl(wv[0]) > fabsl(wv[1]) ? fabsl(wv[0]) : fabsl(wv[1]);
            ok = fclose_enough(gv[0], wv[0], scale, tol) && fclose_enough(gv[1], wv[1], scale, tol);
            if (!ok) {
                snprintf(why, whylen, "element %zu: got %.21Lg%+.21Lgi, vendor %.21Lg%+.21Lgi", i,
                         gv[0], gv[1], wv[0], wv[1]);
                return (long)i;
            }
            continue;
        }
        if (b->cls == MT_PAIR) {
            /* the value's and the index's bytes, not the padding between */
            size_t vb = b->fkind ? (size_t)fcanon(b->fkind) : (size_t)b->vsize;
            ok = memcmp(g, w, vb) == 0 && memcmp(g + b->ioff, w + b->ioff, sizeof(int)) == 0;
        } else {
            ok = memcmp(g, w, sz) == 0;
        }
        if (!ok) {
            int n1 = snprintf(why, whylen, "element %zu: got", i);
            for (size_t k = 0; k < sz && k < 16 && n1 > 0 && (size_t)n1 < whylen; k++)
                n1 += snprintf(why + n1, whylen - (size_t)n1, " %02x", g[k]);
            if (n1 > 0 && (size_t)n1 < whylen)
                n1 += snprintf(why + n1, whylen - (size_t)n1, ", vendor");
            for (size_t k = 0; k < sz && k < 16 && n1 > 0 && (size_t)n1 < whylen; k++)
                n1 += snprintf(why + n1, whylen - (size_t)n1, " %02x", w[k]);
            return (long)i;
        }
    }
    return -1;
}

static uint64_t fnv(uint64_t h, const unsigned char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

uint64_t mt_hash(const mt_basic_t *b, const void *packed, size_t n, uint64_t h)
{
    const unsigned char *p = packed;
    size_t sz = (size_t)b->size;
    for (size_t i = 0; i < n; i++, p += sz) {
        if (b->cls == MT_FLOAT || b->cls == MT_COMPLEX) {
            int fs = fsize(b->fkind);
            h = fnv(h, p, (size_t)fcanon(b->fkind));
            if (b->cls == MT_COMPLEX)
                h = fnv(h, p + fs, (size_t)fcanon(b->fkind));
        } else if (b->cls == MT_PAIR) {
            h = fnv(h, p, b->fkind ? (size_t)fcanon(b->fkind) : (size_t)b->vsize);
            h = fnv(h, p + b->ioff, sizeof(int));
        } else {
            h = fnv(h, p, sz);
        }
    }
    return h;
}

int mt_same_everywhere(MPI_Comm comm, uint64_t h)
{
    uint64_t v[2] = {h, ~h}, m[2];
    MPI_Allreduce(v, m, 2, MPI_UINT64_T, MPI_MAX, comm);
    return m[0] == ~m[1];
}

/* ------------------------------------------------------------- buffers */

#define GUARD 32

static unsigned char pattern(unsigned seed, size_t k)
{
    return (unsigned char)(mix(seed, (uint32_t)k, 0xB0F) >> 7);
}

int mt_buf_alloc(mt_buf_t *b, MPI_Datatype type, long span, unsigned seed)
{
    memset(b, 0, sizeof(*b));
    b->type = type;
    MPI_Aint lb, ext, tlb, text;
    MPI_Type_get_extent(type, &lb, &ext);
    MPI_Type_get_true_extent(type, &tlb, &text);
    MPI_Type_size(type, &b->tsize);
    b->extent = ext;
    MPI_Aint lo = 0, hi = 0;
    if (span > 0) {
        lo = lb < tlb ? lb : tlb;
        if (lo > 0)
            lo = 0;
        hi = (MPI_Aint)span * ext + lb;
        MPI_Aint tend = tlb + (MPI_Aint)(span - 1) * ext + text;
        if (tend > hi)
            hi = tend;
    }
    b->len = (size_t)(hi - lo) + 2 * GUARD;
    b->mem = malloc(b->len);
    b->mask = calloc(b->len, 1);
    b->init = malloc(b->len);
    if (!b->mem || !b->mask || !b->init) {
        mt_failx("out of memory for a buffer of %zu bytes", b->len);
        mt_buf_free(b);
        return -1;
    }
    b->buf = (char *)b->mem + GUARD - lo;
    for (size_t k = 0; k < b->len; k++)
        b->mem[k] = pattern(seed, k);
    return 0;
}

void mt_buf_free(mt_buf_t *b)
{
    free(b->mem);
    free(b->mask);
    free(b->init);
    memset(b, 0, sizeof(*b));
}

void mt_buf_mark(mt_buf_t *b, long off, int n)
{
    if (n <= 0 || !b->mem)
        return;
    size_t bytes = (size_t)n * (size_t)b->tsize;
    unsigned char *ones = malloc(bytes ? bytes : 1), *tmp = calloc(b->len, 1);
    if (!ones || !tmp) {
        mt_failx("out of memory for a mask");
        free(ones);
        free(tmp);
        return;
    }
    memset(ones, 0xFF, bytes);
    int pos = 0;
    char *at = (char *)tmp + (b->buf - (char *)b->mem) + off * b->extent;
    MPI_Unpack(ones, (int)bytes, &pos, at, n, b->type, MPI_COMM_SELF);
    for (size_t k = 0; k < b->len; k++)
        b->mask[k] |= tmp[k] != 0;
    free(ones);
    free(tmp);
}

void mt_buf_put(mt_buf_t *b, long off, int n, const void *packed)
{
    if (n <= 0)
        return;
    int pos = 0;
    MPI_Unpack(packed, n * b->tsize, &pos, b->buf + off * b->extent, n, b->type, MPI_COMM_SELF);
}

void mt_buf_get(const mt_buf_t *b, long off, int n, void *packed)
{
    if (n <= 0)
        return;
    int pos = 0;
    MPI_Pack(b->buf + off * b->extent, n, b->type, packed, n * b->tsize, &pos, MPI_COMM_SELF);
}

void mt_buf_snapshot(mt_buf_t *b)
{
    if (b->mem)
        memcpy(b->init, b->mem, b->len);
}

long mt_buf_changed(const mt_buf_t *b, int all)
{
    if (!b->mem)
        return -1;
    for (size_t k = 0; k < b->len; k++)
        if (b->mem[k] != b->init[k] && (all || !b->mask[k]))
            return (long)k - (long)(b->buf - (char *)b->mem);
    return -1;
}

int mt_buf_pair(mt_buf_t *v, mt_buf_t *i, MPI_Datatype type, long span, unsigned seed)
{
    if (mt_buf_alloc(v, type, span, seed) != 0)
        return -1;
    if (mt_buf_alloc(i, type, span, seed) != 0) {
        mt_buf_free(v);
        return -1;
    }
    return 0;
}
