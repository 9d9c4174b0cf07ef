/*
 * copy.h -- the runtime's copies of contiguous bytes (copy.c): memmove,
 * except where the C library's memmove is measured slow for the two
 * addresses' relation (4K aliasing of `rep movsb`).  No MPI.
 */
#ifndef IC_COPY_H
#define IC_COPY_H

#include <stdatomic.h>
#include <stddef.h>
#include <stdint.h>

/* memmove(dst, src, n) in effect (overlap allowed), by the way measured
 * fastest for such a copy. */
void ic_copy_bytes(void *dst, const void *src, size_t n);

/* The same by a way forced (tests): 1 memmove, 2 the blocks from the end
 * where the addresses are in the slow relation (memmove otherwise). */
void ic_copy_bytes_way(void *dst, const void *src, size_t n, int way);

/* The way taken for copies of about n bytes in the slow relation: 0 not
 * measured yet, 1 memmove, 2 the blocks from the end. */
int ic_copy_way(size_t n);

/* Copies shorter than this never take `rep movsb` (copy.c). */
#define IC_COPY_MIN 2048

/* How far dst lies past src modulo 4096: `rep movsb` can be slow when
 * that is 1 to IC_COPY_NEAR - 1 bytes (copy.c).  Addresses as numbers:
 * src may be another process's (shm.c's direct reads). */
#define IC_COPY_NEAR 64
static inline unsigned ic_copy_distance(uintptr_t dst, uintptr_t src)
{
    return (unsigned)((dst - src) & 4095u);
}

/* A choice between two ways (1 and 2) of moving n bytes, measured rather
 * than assumed, per power-of-two length class: the first IC_WAY_PROBES
 * moves of a class alternate the ways and are timed, then the class keeps
 * the faster per byte (by the best time of each).  Process-wide; relaxed
 * atomics (threads racing on a probe at worst time one move twice).
 *
 *   ic_way_class_t *cl = &table[ic_way_class_of(n)];
 *   int probe;
 *   uint64_t t0;
 *   int way = ic_way_pick(cl, &probe, &t0);
 *   ... move the bytes that way ...
 *   if (probe >= 0)
 *       ic_way_done(cl, probe, way, n, t0);
 */
#define IC_WAY_CLASSES 48
#define IC_WAY_PROBES 8
typedef struct ic_way_class {
    _Atomic uint64_t best[2]; /* the best time per byte of each way (ps) */
    _Atomic int probes;       /* probes begun                            */
    _Atomic int way;          /* 0 while measuring, then 1 or 2          */
} ic_way_class_t;

int ic_way_class_of(size_t n);

/* The way for this move; *probe >= 0 when it is a probe, timed from *t0. */
int ic_way_pick(ic_way_class_t *cl, int *probe, uint64_t *t0);

/* A probe's move is over: record its time; the last probe decides. */
void ic_way_done(ic_way_class_t *cl, int probe, int way, size_t n, uint64_t t0);

#endif /* IC_COPY_H */
