/*
 * intercom-info -- what InterCom has and what it would choose.
 *
 *   intercom-info list
 *       every registered algorithm: collective, name, restrictions,
 *       description
 *   intercom-info choose [-p P] [--alpha S] [--beta S/B] [--gamma S/B]
 *                        [--beta-x S/B] [--x-min BYTES] [--overhead S] [--burst BYTES] [--elem BYTES]
 *                        [--noncommutative]
 *       for each collective and message size (8 B .. 16 MiB), the
 *       algorithm the cost-model selector picks and its predicted time
 *       (the same decision the library makes at run time with the same
 *       parameters; INTERCOM_ALPHA/_BETA/_GAMMA/_BETA_EXCHANGE feed the
 *       library; --beta-x, the time per byte of an exchange, defaults to
 *       twice --beta and applies to exchanged messages of at least
 *       --x-min bytes, default 64 KiB, as in the library's model across
 *       nodes; INTERCOM_EXCHANGE_MIN); --overhead, LogGP's o (default
 *       alpha / 8, INTERCOM_OVERHEAD); --burst, the token bucket of
 *       rate-bound links (INTERCOM_BURST), default 0
 *   intercom-info schedule COLL ALG -p P -n COUNT [--root R] [--rank R]
 *       print a rank's schedule (all ranks without --rank)
 *
 * No MPI is needed: this runs the schedule builders and the cost model.
 */
#include "algorithms.h"
#include "choose.h"
#include "cost.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void usage(void)
{
    fprintf(stderr,
            "usage: intercom-info list\n"
            "       intercom-info choose [-p P] [--alpha S] [--beta S_PER_BYTE] "
            "[--gamma S_PER_BYTE] [--beta-x S_PER_BYTE] [--x-min BYTES] [--overhead S] [--burst BYTES] [--elem BYTES] "
            "[--noncommutative]\n"
            "       intercom-info schedule COLL ALG -p P -n COUNT [--root R] [--rank R]\n");
}

static int is_reduction(ic_coll_t c)
{
    return c == IC_COLL_REDUCE || c == IC_COLL_ALLREDUCE || c == IC_COLL_REDUCE_SCATTER ||
           c == IC_COLL_REDUCE_SCATTER_BLOCK;
}

/* Describe a call of `elems` elements of elem bytes in total on p ranks
 * (blocks even; scratch bounded as the library does from
 * INTERCOM_SCRATCH_SLACK on). */
static void make_args(ic_coll_args_t *a, ic_coll_t c, int p, size_t elems, size_t elem, int root,
                      int commute, size_t *counts)
{
    memset(a, 0, sizeof(*a));
    a->coll = c;
    a->size = p;
    a->root = root;
    a->commutative = commute;
    a->units_match = 1;
    a->bounded_from = ic_bounded_from(ic_scratch_slack(), elem);
    switch (c) {
    case IC_COLL_BCAST:
    case IC_COLL_REDUCE:
    case IC_COLL_ALLREDUCE:
        a->count = elems;
        break;
    case IC_COLL_BARRIER:
        break;
    default: {
        /* per-rank blocks: elems is the whole vector */
        size_t blk = elems / (size_t)p;
        for (int i = 0; i < p; i++)
            counts[i] = blk;
        a->counts = counts;
        a->count = blk * (size_t)p;
        a->sendcount = blk;
        a->recvcount = blk;
        break;
    }
    }
}

static int cmd_list(void)
{
    printf("%-22s %-18s %-26s %s\n", "collective", "algorithm", "restrictions", "description");
    for (const ic_algorithm_t *alg = ic_algorithms; alg->name; alg++) {
        char r[64] = "";
        if (!(alg->flags & IC_ALG_KEEPS_ORDER))
            strcat(r, "commutative-op ");
        if (alg->flags & IC_ALG_NEEDS_PACKED)
            strcat(r, "packed-blocks");
        if (!*r)
            strcpy(r, "-");
        printf("%-22s %-18s %-26s %s\n", ic_coll_name(alg->coll), alg->name, r,
               alg->description);
    }
    return 0;
}

static int cmd_choose(int p, ic_cost_params_t *c, size_t elem, int commute)
{
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts)
        return 1;
    printf("p=%d alpha=%.3g s beta=%.3g s/B beta_x=%.3g s/B (exchanges of %zu B and more) "
           "gamma=%.3g s/B element=%zu B overhead=%.3g s burst=%zu B%s\n",
           p, c->alpha, c->beta, c->beta_x, c->x_min, c->gamma, elem, c->overhead, c->burst,
           commute ? "" : " non-commutative op");
    printf("%-22s %10s  %-18s %12s\n", "collective", "bytes", "algorithm", "predicted_s");
    for (int ci = 0; ci < IC_COLL_COUNT; ci++) {
        ic_coll_t coll = (ic_coll_t)ci;
        for (size_t bytes = 8; bytes <= ((size_t)16 << 20); bytes *= 8) {
            size_t elems = bytes / elem;
            if (coll == IC_COLL_BARRIER && bytes > 8)
                break;
            ic_coll_args_t a;
            make_args(&a, coll, p, elems, elem, 0, is_reduction(coll) ? commute : 1, counts);
            double t = 0;
            const ic_algorithm_t *alg = ic_choose(&a, c, elem, &t);
            printf("%-22s %10zu  %-18s %12.4g\n", ic_coll_name(coll),
                   coll == IC_COLL_BARRIER ? (size_t)0 : bytes, alg ? alg->name : "(none)", t);
        }
    }
    free(counts);
    return 0;
}

static int find_coll(const char *name, ic_coll_t *out)
{
    for (int ci = 0; ci < IC_COLL_COUNT; ci++)
        if (strcmp(ic_coll_name((ic_coll_t)ci), name) == 0) {
            *out = (ic_coll_t)ci;
            return 0;
        }
    return -1;
}

static int cmd_schedule(const char *cname, const char *aname, int p, size_t n, size_t elem,
                        int root, int rank)
{
    ic_coll_t coll;
    if (find_coll(cname, &coll)) {
        fprintf(stderr, "intercom-info: unknown collective '%s'\n", cname);
        return 2;
    }
    const ic_algorithm_t *alg = ic_alg_find(coll, aname);
    if (!alg) {
        fprintf(stderr, "intercom-info: no algorithm '%s' for %s\n", aname, cname);
        return 2;
    }
    size_t *counts = calloc((size_t)p, sizeof(size_t));
    if (!counts)
        return 1;
    for (int r = 0; r < p; r++) {
        if (rank >= 0 && r != rank)
            continue;
        ic_coll_args_t a;
        make_args(&a, coll, p, n, elem, root, 1, counts);
        a.rank = r;
        ic_sched_t s;
        ic_sched_init(&s, r, p);
        if (alg->build(&s, &a) != 0 || ic_sched_ok(&s) != 0) {
            fprintf(stderr, "intercom-info: building the schedule failed\n");
            ic_sched_free(&s);
            free(counts);
            return 1;
        }
        ic_sched_dump(&s, stdout);
        ic_sched_free(&s);
    }
    free(counts);
    return 0;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        usage();
        return 2;
    }
    int p = 8, root = 0, rank = -1, commute = 1;
    size_t elem = 1, n = 0;
    ic_cost_params_t c;
    ic_cost_defaults(&c);
    const char *pos[3] = {NULL, NULL, NULL};
    int npos = 0, x_min_set = 0, overhead_set = 0;
    for (int i = 2; i < argc; i++) {
        const char *o = argv[i];
        const char *v = (i + 1 < argc) ? argv[i + 1] : NULL;
        if (!strcmp(o, "-p") && v)
            p = atoi(v), i++;
        else if (!strcmp(o, "-n") && v)
            n = (size_t)strtoull(v, NULL, 10), i++;
        else if (!strcmp(o, "--root") && v)
            root = atoi(v), i++;
        else if (!strcmp(o, "--rank") && v)
            rank = atoi(v), i++;
        else if (!strcmp(o, "--alpha") && v)
            c.alpha = atof(v), i++;
        else if (!strcmp(o, "--beta") && v)
            c.beta = atof(v), i++;
        else if (!strcmp(o, "--gamma") && v)
            c.gamma = atof(v), i++;
        else if (!strcmp(o, "--beta-x") && v)
            c.beta_x = atof(v), i++;
        else if (!strcmp(o, "--x-min") && v)
            c.x_min = (size_t)strtoull(v, NULL, 10), x_min_set = 1, i++;
        else if (!strcmp(o, "--overhead") && v)
            c.overhead = atof(v), overhead_set = 1, i++;
        else if (!strcmp(o, "--burst") && v)
            c.burst = (size_t)strtoull(v, NULL, 10), i++;
        else if (!strcmp(o, "--elem") && v)
            elem = (size_t)strtoull(v, NULL, 10), i++;
        else if (!strcmp(o, "--noncommutative"))
            commute = 0;
        else if (o[0] != '-' && npos < 3)
            pos[npos++] = o;
        else {
            usage();
            return 2;
        }
    }
    if (p < 1 || elem < 1 || root < 0 || root >= p) {
        fprintf(stderr, "intercom-info: need p >= 1, elem >= 1, 0 <= root < p\n");
        return 2;
    }
    if (c.beta_x <= 0) /* as the library across nodes (src/env.c) */
        c.beta_x = 2 * c.beta;
    if (!x_min_set)
        c.x_min = 65536;
    if (!overhead_set) /* as the library across nodes */
        c.overhead = c.alpha / 8;
    if (!strcmp(argv[1], "list"))
        return cmd_list();
    if (!strcmp(argv[1], "choose"))
        return cmd_choose(p, &c, elem, commute);
    if (!strcmp(argv[1], "schedule") && npos == 2)
        return cmd_schedule(pos[0], pos[1], p, n, elem, root, rank);
    usage();
    return 2;
}
