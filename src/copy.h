/*
 * copy.h -- the runtime's copies of contiguous bytes (copy.c): memmove,
 * except where the C library's memmove is measured slow for the two
 * addresses' relation (4K aliasing of `rep movsb`).  No MPI.
 */
#ifndef IC_COPY_H
#define IC_COPY_H

#include <stddef.h>

/* memmove(dst, src, n) in effect (overlap allowed), by the way measured
 * fastest for such a copy. */
void ic_copy_bytes(void *dst, const void *src, size_t n);

/* The same by a way forced (tests): 1 memmove, 2 the blocks from the end
 * where the addresses are in the slow relation (memmove otherwise). */
void ic_copy_bytes_way(void *dst, const void *src, size_t n, int way);

/* The way taken for copies of about n bytes in the slow relation: 0 not
 * measured yet, 1 memmove, 2 the blocks from the end. */
int ic_copy_way(size_t n);

#endif /* IC_COPY_H */
