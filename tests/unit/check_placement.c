/*
 * check_placement.c -- unit tests of node-aware placement
 * (algorithms/placement.c) and of the hwloc keys inside a node
 * (src/topo_hw.c) on synthetic topologies.
 *
 * ic_place_order: the identity when keys follow rank order (blocks per
 * node, p = 1, no levels); round-robin node ids (placement.h's example,
 * with and without packages); nodes of different sizes; node keys whose
 * values run against rank order; bad arguments; and, on random keys for
 * p = 1..200 and 1..3 levels, the properties that define the order (a
 * permutation; every group of every level on consecutive positions, groups
 * in the order of their lowest rank, increasing ranks inside the finest
 * group).  ic_place_uniform: equal and unequal node sizes, p = 1.
 *
 * ic_topo_hw_keys (only when configure found hwloc): given cpusets on
 * "pack:2 l3:2 core:4 pu:2" and on topologies without caches, with
 * private caches only, with two shared levels, and without cores.
 */
#include "config.h"

#include <check.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "placement.h"
#include "suites.h"
#include "topo_hw.h"

static char ctx[160]; /* the case under test, for failure messages */
#define CHECK(cond)                                                                                \
    do {                                                                                           \
        if (!(cond))                                                                               \
            ck_abort_msg("%s: %s (line %d)", ctx, #cond, __LINE__);                                \
    } while (0)
#define CHECK_EQ(a, b)                                                                             \
    do {                                                                                           \
        long long a_ = (long long)(a), b_ = (long long)(b);                                        \
        if (a_ != b_)                                                                              \
            ck_abort_msg("%s: %s == %s (%lld != %lld, line %d)", ctx, #a, #b, a_, b_, __LINE__);   \
    } while (0)

/* order must equal want[0 .. p-1]. */
static void check_order(int p, const int *order, const int *want)
{
    for (int i = 0; i < p; i++)
        if (order[i] != want[i])
            ck_abort_msg("%s: order[%d] = %d, want %d", ctx, i, order[i], want[i]);
}

static void check_identity(int p, const int *order)
{
    for (int i = 0; i < p; i++)
        if (order[i] != i)
            ck_abort_msg("%s: order[%d] = %d, want the identity", ctx, i, order[i]);
}

/* ------------------------------------------------------ ic_place_order */

START_TEST(test_identity)
{
    int order[64];
    /* Blocks of 4 consecutive ranks per node, 2 packages of 2 in each,
     * one cache per package: keys in rank order. */
    int keys[16 * 3];
    for (int r = 0; r < 16; r++) {
        keys[r * 3] = r / 4 * 4;
        keys[r * 3 + 1] = r % 4 / 2;
        keys[r * 3 + 2] = r % 4 / 2;
    }
    snprintf(ctx, sizeof ctx, "blocks of 4");
    CHECK_EQ(ic_place_order(16, 3, keys, order), 0);
    check_identity(16, order);
    /* Every rank alone, every rank on one node, unknown (-1) finer keys. */
    for (int r = 0; r < 16; r++)
        keys[r * 3] = r, keys[r * 3 + 1] = keys[r * 3 + 2] = -1;
    snprintf(ctx, sizeof ctx, "one rank per node");
    CHECK_EQ(ic_place_order(16, 3, keys, order), 0);
    check_identity(16, order);
    for (int r = 0; r < 16; r++)
        keys[r * 3] = 7;
    snprintf(ctx, sizeof ctx, "one node, finer keys unknown");
    CHECK_EQ(ic_place_order(16, 3, keys, order), 0);
    check_identity(16, order);
    /* No levels; p = 1. */
    snprintf(ctx, sizeof ctx, "no levels");
    CHECK_EQ(ic_place_order(16, 0, NULL, order), 0);
    check_identity(16, order);
    snprintf(ctx, sizeof ctx, "p = 1");
    int one[3] = {5, 2, -1};
    order[0] = 9;
    CHECK_EQ(ic_place_order(1, 3, one, order), 0);
    CHECK_EQ(order[0], 0);
    CHECK_EQ(ic_place_uniform(1, one), 1);
}
END_TEST

/* placement.h's example: 8 ranks round-robin on 2 nodes. */
START_TEST(test_round_robin)
{
    int order[8], node[8], keys[8 * 2];
    for (int r = 0; r < 8; r++) {
        node[r] = r % 2;
        keys[r * 2] = r % 2;
        keys[r * 2 + 1] = r / 2 % 2;
    }
    snprintf(ctx, sizeof ctx, "round robin, nodes only");
    CHECK_EQ(ic_place_order(8, 1, node, order), 0);
    check_order(8, order, (const int[]){0, 2, 4, 6, 1, 3, 5, 7});
    CHECK_EQ(ic_place_uniform(8, node), 4);
    snprintf(ctx, sizeof ctx, "round robin, nodes and packages");
    CHECK_EQ(ic_place_order(8, 2, keys, order), 0);
    check_order(8, order, (const int[]){0, 4, 2, 6, 1, 5, 3, 7});
    /* A package key equal on two nodes is two groups: node first. */
    for (int r = 0; r < 8; r++)
        keys[r * 2 + 1] = 0;
    snprintf(ctx, sizeof ctx, "round robin, one package key on both nodes");
    CHECK_EQ(ic_place_order(8, 2, keys, order), 0);
    check_order(8, order, (const int[]){0, 2, 4, 6, 1, 3, 5, 7});
    /* 12 ranks on 3 nodes round-robin: 3 nodes of 4. */
    int node12[12], order12[12];
    for (int r = 0; r < 12; r++)
        node12[r] = r % 3;
    snprintf(ctx, sizeof ctx, "12 round robin on 3");
    CHECK_EQ(ic_place_order(12, 1, node12, order12), 0);
    check_order(12, order12, (const int[]){0, 3, 6, 9, 1, 4, 7, 10, 2, 5, 8, 11});
    CHECK_EQ(ic_place_uniform(12, node12), 4);
}
END_TEST

START_TEST(test_uneven)
{
    int order[7];
    /* p = 5 in blocks of 2 (INTERCOM_RANKS_PER_NODE=2): 2 + 2 + 1. */
    int blocks[5] = {0, 0, 2, 2, 4};
    snprintf(ctx, sizeof ctx, "5 in blocks of 2");
    CHECK_EQ(ic_place_order(5, 1, blocks, order), 0);
    check_identity(5, order);
    CHECK_EQ(ic_place_uniform(5, blocks), 0);
    /* p = 7 round-robin on 3 nodes: 3 + 2 + 2. */
    int rr[7];
    for (int r = 0; r < 7; r++)
        rr[r] = r % 3;
    snprintf(ctx, sizeof ctx, "7 round robin on 3");
    CHECK_EQ(ic_place_order(7, 1, rr, order), 0);
    check_order(7, order, (const int[]){0, 3, 6, 1, 4, 2, 5});
    CHECK_EQ(ic_place_uniform(7, rr), 0);
    /* Sizes 2 + 2 + 3: the first node's size is not the odd one out. */
    int last[7] = {0, 0, 1, 1, 2, 2, 2};
    snprintf(ctx, sizeof ctx, "2 + 2 + 3");
    CHECK_EQ(ic_place_uniform(7, last), 0);
    /* Uneven packages inside equal nodes: still uniform nodes. */
    int keys[6 * 2] = {0, 0, 0, 1, 0, 1, 3, 0, 3, 0, 3, 0};
    snprintf(ctx, sizeof ctx, "uneven packages");
    CHECK_EQ(ic_place_order(6, 2, keys, order), 0);
    check_identity(6, order);
    int nodes6[6] = {0, 0, 0, 3, 3, 3};
    CHECK_EQ(ic_place_uniform(6, nodes6), 3);
}
END_TEST

/* Groups come in the order of their lowest rank, not of their key. */
START_TEST(test_key_values)
{
    int order[6];
    int big_first[4] = {5, 5, 1, 1};
    snprintf(ctx, sizeof ctx, "keys 5 5 1 1");
    CHECK_EQ(ic_place_order(4, 1, big_first, order), 0);
    check_identity(4, order);
    CHECK_EQ(ic_place_uniform(4, big_first), 2);
    int alt[4] = {1, 0, 1, 0};
    snprintf(ctx, sizeof ctx, "keys 1 0 1 0");
    CHECK_EQ(ic_place_order(4, 1, alt, order), 0);
    check_order(4, order, (const int[]){0, 2, 1, 3});
    int neg[6] = {-3, 8, -3, 8, 8, -3};
    snprintf(ctx, sizeof ctx, "keys -3 8 -3 8 8 -3");
    CHECK_EQ(ic_place_order(6, 1, neg, order), 0);
    check_order(6, order, (const int[]){0, 2, 5, 1, 3, 4});
    CHECK_EQ(ic_place_uniform(6, neg), 3);
}
END_TEST

START_TEST(test_bad_args)
{
    int order[4] = {9, 9, 9, 9}, keys[4] = {0, 0, 1, 1};
    snprintf(ctx, sizeof ctx, "bad arguments");
    CHECK_EQ(ic_place_order(0, 1, keys, order), -1);
    CHECK_EQ(ic_place_order(4, -1, keys, order), -1);
    check_identity(4, order);
    order[0] = 9;
    CHECK_EQ(ic_place_order(4, 1, NULL, order), -1);
    check_identity(4, order);
    CHECK_EQ(ic_place_order(4, 1, keys, NULL), -1);
    CHECK_EQ(ic_place_uniform(0, keys), -1);
    CHECK_EQ(ic_place_uniform(4, NULL), -1);
}
END_TEST

static unsigned lcg(unsigned *state)
{
    *state = *state * 1103515245u + 12345u;
    return (*state >> 16) & 0x7fff;
}

/* Do ranks a and b agree at levels 0 .. l? */
static int same_group(const int *keys, int nl, int a, int b, int l)
{
    for (int i = 0; i <= l; i++)
        if (keys[a * nl + i] != keys[b * nl + i])
            return 0;
    return 1;
}

/* The defining properties of ic_place_order on random keys. */
START_TEST(test_random_properties)
{
    enum { PMAX = 200 };
    static int keys[PMAX * 3], order[PMAX], pos[PMAX];
    unsigned seed = 12345;
    for (int p = 1; p <= PMAX; p++) {
        for (int nl = 1; nl <= 3; nl++) {
            int spread = 1 + (int)(lcg(&seed) % 6); /* keys per level */
            for (int i = 0; i < p * nl; i++)
                keys[i] = (int)(lcg(&seed) % (unsigned)spread) - 1;
            snprintf(ctx, sizeof ctx, "random keys, p = %d, %d levels, %d values", p, nl, spread);
            CHECK_EQ(ic_place_order(p, nl, keys, order), 0);
            for (int r = 0; r < p; r++)
                pos[r] = -1;
            for (int i = 0; i < p; i++) {
                CHECK(order[i] >= 0 && order[i] < p);
                CHECK(pos[order[i]] == -1); /* a permutation */
                pos[order[i]] = i;
            }
            for (int l = 0; l < nl; l++) {
                for (int i = 0; i + 1 < p; i++) {
                    int a = order[i], b = order[i + 1];
                    if (same_group(keys, nl, a, b, l))
                        continue;
                    /* a's group ends at i: no later position is in it ... */
                    for (int j = i + 2; j < p; j++)
                        CHECK(!same_group(keys, nl, a, order[j], l));
                    /* ... and, inside their common coarser group, a's group
                     * has a lower lowest rank than b's (the first position
                     * of a group holds its lowest rank). */
                    if (l == 0 || same_group(keys, nl, a, b, l - 1)) {
                        int first = i;
                        while (first > 0 && same_group(keys, nl, a, order[first - 1], l))
                            first--;
                        CHECK(order[first] < b);
                    }
                }
            }
            for (int i = 0; i + 1 < p; i++)
                if (same_group(keys, nl, order[i], order[i + 1], nl - 1))
                    CHECK(order[i] < order[i + 1]);
            /* Uniform: the node sizes, directly. */
            int q = -2, uniform = 1;
            for (int r = 0; r < p; r++) {
                int n = 0;
                for (int s = 0; s < p; s++)
                    n += keys[s * nl] == keys[r * nl];
                if (q == -2)
                    q = n;
                else if (n != q)
                    uniform = 0;
            }
            int node[PMAX];
            for (int r = 0; r < p; r++)
                node[r] = keys[r * nl];
            CHECK_EQ(ic_place_uniform(p, node), uniform ? q : 0);
        }
    }
}
END_TEST

/* ------------------------------------------------------ ic_topo_hw_keys */

#ifdef IC_HAVE_HWLOC
static hwloc_topology_t synthetic(const char *desc)
{
    hwloc_topology_t topo;
    ck_assert_int_eq(hwloc_topology_init(&topo), 0);
    ck_assert_msg(hwloc_topology_set_synthetic(topo, desc) == 0, "synthetic %s", desc);
    ck_assert_int_eq(hwloc_topology_load(topo), 0);
    return topo;
}

/* The keys of the PUs listed in `list` (hwloc's list syntax, "2-3,9"),
 * against (want_package, want_cache). */
static void check_set(hwloc_topology_t topo, const char *desc, const char *list, int want_package,
                      int want_cache)
{
    hwloc_bitmap_t set = hwloc_bitmap_alloc();
    ck_assert_msg(set != NULL, "hwloc_bitmap_alloc");
    ck_assert_int_eq(hwloc_bitmap_list_sscanf(set, list), 0);
    int pkg = 7, cache = 7;
    snprintf(ctx, sizeof ctx, "%s, PUs {%s}", desc, list);
    CHECK_EQ(ic_topo_hw_keys(topo, set, &pkg, &cache), 0);
    CHECK_EQ(pkg, want_package);
    CHECK_EQ(cache, want_cache);
    hwloc_bitmap_free(set);
}

START_TEST(test_hw_l3)
{
    /* 2 packages x 2 L3 x 4 cores x 2 PUs: L3 j holds PUs 8j .. 8j+7,
     * package i PUs 16i .. 16i+15. */
    const char *d = "pack:2 l3:2 core:4 pu:2";
    hwloc_topology_t topo = synthetic(d);
    check_set(topo, d, "9", 0, 1);
    check_set(topo, d, "2-3", 0, 0);   /* core 1 */
    check_set(topo, d, "0,7", 0, 0);   /* two cores of one L3 */
    check_set(topo, d, "31", 1, 3);    /* the last PU */
    check_set(topo, d, "16-23", 1, 2); /* a whole L3 */
    check_set(topo, d, "0-15", 0, -1); /* a package: two L3 */
    check_set(topo, d, "15-16", -1, -1);
    check_set(topo, d, "0-31", -1, -1); /* unbound */
    check_set(topo, d, "", -1, -1);     /* empty */
    check_set(topo, d, "40", -1, -1);   /* outside the machine */
    int pkg = 7, cache = 7;
    snprintf(ctx, sizeof ctx, "NULL set");
    CHECK_EQ(ic_topo_hw_keys(topo, NULL, &pkg, &cache), -1);
    CHECK_EQ(pkg, -1);
    CHECK_EQ(cache, -1);
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_hw_other_shapes)
{
    /* No caches: packages only. */
    const char *d = "pack:2 core:2 pu:2";
    hwloc_topology_t topo = synthetic(d);
    check_set(topo, d, "5", 1, -1);
    check_set(topo, d, "0-3", 0, -1);
    check_set(topo, d, "3-4", -1, -1);
    hwloc_topology_destroy(topo);
    /* Private caches only (one L2 per core): no shared cache. */
    d = "pack:2 l2:4 core:1 pu:2";
    topo = synthetic(d);
    check_set(topo, d, "3", 0, -1);
    check_set(topo, d, "8-9", 1, -1);
    hwloc_topology_destroy(topo);
    /* Shared L3 and L2 pairs: the deepest shared level, the L2. */
    d = "pack:2 l3:1 l2:2 core:2 pu:1";
    topo = synthetic(d);
    check_set(topo, d, "3", 0, 1);
    check_set(topo, d, "4", 1, 2);
    check_set(topo, d, "1-2", 0, -1); /* two L2 of one L3 */
    hwloc_topology_destroy(topo);
    /* No cores: caches shared by PUs. */
    d = "pack:2 l3:2 pu:4";
    topo = synthetic(d);
    check_set(topo, d, "5", 0, 1);
    check_set(topo, d, "12-15", 1, 3);
    hwloc_topology_destroy(topo);
}
END_TEST

START_TEST(test_hw_local)
{
    /* This machine: whatever it is, the call answers and is stable. */
    int p1, c1, p2, c2;
    int rc = ic_topo_hw_local(&p1, &c1);
    CHECK(rc == 0 || (p1 == -1 && c1 == -1));
    CHECK_EQ(ic_topo_hw_local(&p2, &c2), rc);
    CHECK_EQ(p1, p2);
    CHECK_EQ(c1, c2);
}
END_TEST
#endif /* IC_HAVE_HWLOC */

static void add_case(Suite *s, const char *name, const TTest *t, int timeout)
{
    TCase *tc = tcase_create(name);
    tcase_set_timeout(tc, timeout);
    tcase_add_test(tc, t);
    suite_add_tcase(s, tc);
}

Suite *suite_placement(void)
{
    Suite *s = suite_create("placement");
    add_case(s, "identity", test_identity, 10);
    add_case(s, "round_robin", test_round_robin, 10);
    add_case(s, "uneven", test_uneven, 10);
    add_case(s, "key_values", test_key_values, 10);
    add_case(s, "bad_args", test_bad_args, 10);
    add_case(s, "random", test_random_properties, 60);
#ifdef IC_HAVE_HWLOC
    add_case(s, "hw_l3", test_hw_l3, 10);
    add_case(s, "hw_other_shapes", test_hw_other_shapes, 10);
    add_case(s, "hw_local", test_hw_local, 10);
#endif
    return s;
}
