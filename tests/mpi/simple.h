/*
 * simple.h -- the failure report of the small MPI test programs that do
 * not use mpitest.h's cases (grid.c, placement.c): define SIMPLE_TEST to
 * the program's name, then include this once.  Every rank counts its
 * failures (the first 30 printed with the rank and `where`, the case at
 * hand) and its cases; main() sums the failures for the exit status.
 */
#ifndef IC_SIMPLE_H
#define IC_SIMPLE_H

#include <stdarg.h>
#include <stdio.h>

static int wrank, p, failures, ncases;
static const char *where = "";

static void fail(const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 1, 2)))
#endif
    ;

static void fail(const char *fmt, ...)
{
    failures++;
    if (failures <= 30) {
        va_list ap;
        va_start(ap, fmt);
        fprintf(stderr, "FAIL %s: p=%d rank %d: %s: ", SIMPLE_TEST, p, wrank, where);
        vfprintf(stderr, fmt, ap);
        fprintf(stderr, "\n");
        va_end(ap);
    }
}

#endif
