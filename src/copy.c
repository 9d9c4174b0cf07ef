/*
 * copy.c -- the runtime's copies of contiguous bytes (ic_copy_bytes).
 *
 * glibc's memcpy and memmove move a few KiB up to about the last-level
 * cache's share with `rep movsb` on x86 CPUs that report fast string moves
 * (ERMS, FSRM).  On some of them (AMD EPYC ones among them, glibc 2.36)
 * such a copy runs 10 to 20 times slower when the destination lies 1 to 63
 * bytes past the source modulo 4096: each load meets an earlier store with
 * the same low 12 address bits (4K aliasing).  That is exactly the layout
 * of two buffers of a multiple of 4 KiB malloc'ed one after the other (16
 * bytes of heap header apart): a 16 KiB MPI_Reduce's root copying its send
 * buffer into its receive buffer took 9.7 us instead of 0.4.
 *
 * So a copy whose addresses are in that relation and whose length is at
 * least IC_COPY_MIN is made one of two ways: memmove, or blocks of 128
 * bytes from the end to the start (every load then follows stores to
 * higher addresses, never one with its low bits).  Which is faster is
 * measured, not assumed, per power-of-two length class (ic_way_pick: the
 * first IC_WAY_PROBES copies of a class alternate the two ways and time
 * them, a clock read before and after, then the class keeps the faster
 * per byte).  On a CPU or C library without the slow case memmove stays;
 * beyond the lengths where glibc switches to non-temporal stores the
 * blocks lose and memmove stays.  Every other copy is memmove.  The same
 * measured choice serves the shared-memory channels' direct reads, whose
 * copy the kernel makes with the same instruction (shm.c).
 */
#include "config.h"
#include "copy.h"

#include <string.h>
#include <time.h>

enum { IC_COPY_BLOCK = 128 };

static uint64_t now_ns(void)
{
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (uint64_t)t.tv_sec * 1000000000u + (uint64_t)t.tv_nsec;
}

int ic_way_class_of(size_t n)
{
    int k = 0;
    while (n > 1 && k < IC_WAY_CLASSES - 1) {
        n >>= 1;
        k++;
    }
    return k;
}

int ic_way_pick(ic_way_class_t *cl, int *probe, uint64_t *t0)
{
    *probe = -1;
    *t0 = 0;
    int way = atomic_load_explicit(&cl->way, memory_order_relaxed);
    if (way)
        return way;
    int k = atomic_fetch_add_explicit(&cl->probes, 1, memory_order_relaxed);
    if (k >= IC_WAY_PROBES) /* the last probe is still on its way */
        return 1;
    *probe = k;
    *t0 = now_ns();
    return 1 + (k & 1);
}

void ic_way_done(ic_way_class_t *cl, int probe, int way, size_t n, uint64_t t0)
{
    uint64_t ps = (now_ns() - t0) * 1000u / (n ? n : 1) + 1;
    uint64_t b = atomic_load_explicit(&cl->best[way - 1], memory_order_relaxed);
    if (b == 0 || ps < b)
        atomic_store_explicit(&cl->best[way - 1], ps, memory_order_relaxed);
    if (probe == IC_WAY_PROBES - 1) {
        uint64_t one = atomic_load_explicit(&cl->best[0], memory_order_relaxed);
        uint64_t two = atomic_load_explicit(&cl->best[1], memory_order_relaxed);
        atomic_store_explicit(&cl->way, two && two < one ? 2 : 1, memory_order_relaxed);
    }
}

/* The addresses in the slow relation, and dst not overlapping src from
 * below (copy_down's condition). */
static int aliasing(const void *dst, const void *src, size_t n)
{
    uintptr_t d = (uintptr_t)dst, s = (uintptr_t)src;
    unsigned far = ic_copy_distance(d, s);
    if (far == 0 || far >= IC_COPY_NEAR)
        return 0;
    return d >= s || d + n <= s;
}

#if defined(__GNUC__) || defined(__clang__)
typedef uint64_t ic_v16 __attribute__((vector_size(16), aligned(1), may_alias));
/* n bytes from src to dst, highest block first; correct whenever dst does
 * not overlap src from below (dst >= src or apart). */
static void copy_down(char *dst, const char *src, size_t n)
{
    size_t o = n;
    while (o >= IC_COPY_BLOCK) {
        o -= IC_COPY_BLOCK;
        const char *p = src + o;
        char *q = dst + o;
        ic_v16 a0 = *(const ic_v16 *)p, a1 = *(const ic_v16 *)(p + 16);
        ic_v16 a2 = *(const ic_v16 *)(p + 32), a3 = *(const ic_v16 *)(p + 48);
        ic_v16 a4 = *(const ic_v16 *)(p + 64), a5 = *(const ic_v16 *)(p + 80);
        ic_v16 a6 = *(const ic_v16 *)(p + 96), a7 = *(const ic_v16 *)(p + 112);
        *(ic_v16 *)q = a0;
        *(ic_v16 *)(q + 16) = a1;
        *(ic_v16 *)(q + 32) = a2;
        *(ic_v16 *)(q + 48) = a3;
        *(ic_v16 *)(q + 64) = a4;
        *(ic_v16 *)(q + 80) = a5;
        *(ic_v16 *)(q + 96) = a6;
        *(ic_v16 *)(q + 112) = a7;
    }
    memmove(dst, src, o);
}
#define IC_HAVE_COPY_DOWN 1
#endif

#ifdef IC_HAVE_COPY_DOWN
static ic_way_class_t classes[IC_WAY_CLASSES]; /* way 1 memmove, 2 copy_down */
#endif

int ic_copy_way(size_t n)
{
#ifdef IC_HAVE_COPY_DOWN
    return atomic_load_explicit(&classes[ic_way_class_of(n)].way, memory_order_relaxed);
#else
    (void)n;
    return 1;
#endif
}

void ic_copy_bytes_way(void *dst, const void *src, size_t n, int way)
{
#ifdef IC_HAVE_COPY_DOWN
    if (way == 2 && aliasing(dst, src, n)) {
        copy_down(dst, src, n);
        return;
    }
#else
    (void)way;
#endif
    memmove(dst, src, n);
}

void ic_copy_bytes(void *dst, const void *src, size_t n)
{
    if (dst == src || n == 0)
        return;
#ifdef IC_HAVE_COPY_DOWN
    if (n >= IC_COPY_MIN && aliasing(dst, src, n)) {
        ic_way_class_t *cl = &classes[ic_way_class_of(n)];
        int probe;
        uint64_t t0;
        int way = ic_way_pick(cl, &probe, &t0);
        if (way == 2)
            copy_down(dst, src, n);
        else
            memmove(dst, src, n);
        if (probe >= 0)
            ic_way_done(cl, probe, way, n, t0);
        return;
    }
#endif
    memmove(dst, src, n);
}
