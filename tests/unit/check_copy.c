/*
 * check_copy.c -- the runtime's byte copies (src/copy.c): whichever way
 * they take, the bytes of memmove, for every length around the block size
 * and every destination 0 to 63 bytes past the source modulo 4096, apart
 * or overlapping in either direction; the measured choice made; and the
 * choice itself (ic_way_pick, ic_way_done), which also serves shm.c's
 * direct reads: the probes alternate the ways, the faster way is kept.
 */
#include "suites.h"
#include "copy.h"

#include <stdint.h>
#include <stdlib.h>
#include <string.h>

enum { ARENA = 3 * 65536 };

static void fill(unsigned char *b, size_t n, unsigned seed)
{
    for (size_t i = 0; i < n; i++)
        b[i] = (unsigned char)(seed * 131u + i * 7u + (i >> 8));
}

/* Copy n bytes from offset s to offset d of an arena by `way` (0: the
 * library's choice) and compare the arena with memmove's. */
static void check_one(size_t s, size_t d, size_t n, int way)
{
    unsigned char *got = malloc(ARENA), *want = malloc(ARENA);
    ck_assert_ptr_nonnull(got);
    ck_assert_ptr_nonnull(want);
    fill(got, ARENA, (unsigned)(s + d + n));
    memcpy(want, got, ARENA);
    memmove(want + d, want + s, n);
    if (way)
        ic_copy_bytes_way(got + d, got + s, n, way);
    else
        ic_copy_bytes(got + d, got + s, n);
    ck_assert_msg(memcmp(got, want, ARENA) == 0, "copy of %zu B from %zu to %zu (way %d) differs",
                  n, s, d, way);
    free(got);
    free(want);
}

START_TEST(copy_matches_memmove)
{
    const size_t lens[] = {0, 1, 15, 127, 128, 129, 255, 2047, 2048, 2049, 4096, 4096 + 77, 20000};
    for (size_t li = 0; li < sizeof(lens) / sizeof(lens[0]); li++) {
        size_t n = lens[li];
        for (int way = 0; way <= 2; way++)
            for (size_t off = 0; off < 64; off += (off < 4 ? 1 : 9)) {
                /* apart: the destination off bytes past the source modulo 4096 */
                check_one(4096, 4096 + 40960 + off, n, way);
                check_one(4096 + 40960 + 4096 - off, 4096, n, way);
                /* overlapping, the destination above the source */
                check_one(8192, 8192 + off + 1, n, way);
                /* overlapping, the destination below: 4096 - off modulo 4096 */
                if (n > 4096 - off)
                    check_one(8192 + 4096 - off, 8192, n, way);
            }
    }
}
END_TEST

START_TEST(copy_way_measured)
{
    /* copies of 16 KiB, the destination 16 bytes past the source modulo
     * 4096 (two such malloc'ed buffers): after the probes the way is
     * decided, and every copy right */
    size_t n = 16384;
    unsigned char *a = malloc(4 * n + 8192);
    ck_assert_ptr_nonnull(a);
    unsigned char *src = (unsigned char *)(((uintptr_t)a + 4095) & ~(uintptr_t)4095);
    unsigned char *dst = src + n + 16;
    for (int i = 0; i < 20; i++) {
        fill(src, n, (unsigned)i);
        ic_copy_bytes(dst, src, n);
        ck_assert(memcmp(dst, src, n) == 0);
    }
    int way = ic_copy_way(n);
    ck_assert_msg(way == 1 || way == 2, "no way decided after 20 copies (%d)", way);
    free(a);
}
END_TEST

/* Eight probes, the ways alternating; those of way `slow` reported 10 ms
 * longer than they took: the other way is kept, and no later pick probes. */
static void way_kept(int slow)
{
    ic_way_class_t cl;
    memset(&cl, 0, sizeof(cl));
    for (int i = 0; i < IC_WAY_PROBES; i++) {
        int probe;
        uint64_t t0;
        int way = ic_way_pick(&cl, &probe, &t0);
        ck_assert_int_eq(probe, i);
        ck_assert_int_eq(way, 1 + (i & 1));
        ck_assert_int_eq(atomic_load(&cl.way), 0);
        ic_way_done(&cl, probe, way, 65536, way == slow ? t0 - 10000000u : t0);
    }
    ck_assert_int_eq(atomic_load(&cl.way), 3 - slow);
    int probe;
    uint64_t t0;
    ck_assert_int_eq(ic_way_pick(&cl, &probe, &t0), 3 - slow);
    ck_assert_int_eq(probe, -1);
}

START_TEST(way_choice)
{
    way_kept(1);
    way_kept(2);
    /* the classes: powers of two, the last one open-ended */
    ck_assert_int_eq(ic_way_class_of(1), 0);
    ck_assert_int_eq(ic_way_class_of(4096), 12);
    ck_assert_int_eq(ic_way_class_of(8191), 12);
    ck_assert_int_eq(ic_way_class_of(SIZE_MAX), IC_WAY_CLASSES - 1);
    /* the slow relation: 1 to IC_COPY_NEAR - 1 bytes past, modulo 4096 */
    ck_assert_uint_eq(ic_copy_distance(4096 + 8, 0), 8);
    ck_assert_uint_eq(ic_copy_distance(8, 16), 4088);
    ck_assert_uint_eq(ic_copy_distance(12288, 4096), 0);
}
END_TEST

Suite *suite_copy(void)
{
    Suite *s = suite_create("copy");
    TCase *tc = tcase_create("copy");
    tcase_set_timeout(tc, 60); /* about 1,500 copies of a 192 KiB arena: 0.5 s here */
    tcase_add_test(tc, copy_matches_memmove);
    tcase_add_test(tc, copy_way_measured);
    tcase_add_test(tc, way_choice);
    suite_add_tcase(s, tc);
    return s;
}
