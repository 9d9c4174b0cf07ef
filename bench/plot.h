/*
 * plot.h -- figures through gnuplot (--plot PREFIX).  No MPI.
 *
 * A figure is a set of named series (x, y) on shared axes.  Finishing it
 * writes PREFIX-NAME.dat (one gnuplot data block per series) and
 * PREFIX-NAME.gp (a script that draws both PREFIX-NAME.png and
 * PREFIX-NAME.svg), then runs gnuplot on the script.  The data and script
 * stay, so a figure can be restyled and redrawn by hand.
 */
#ifndef IC_BENCH_PLOT_H
#define IC_BENCH_PLOT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef struct ic_plot ic_plot_t;

typedef enum ic_plot_style {
    IC_PLOT_POINTS = 0, /* measured points        */
    IC_PLOT_LINES,      /* model curves, bounds   */
    IC_PLOT_LINESPOINTS /* measured sweeps        */
} ic_plot_style_t;

ic_plot_t *ic_plot_new(const char *prefix, const char *name, const char *title, const char *xlabel,
                       const char *ylabel, int logx, int logy);
/* Add a series (copied); points with non-finite or, on a log axis,
 * non-positive coordinates are left out. */
void ic_plot_series(ic_plot_t *pl, const char *title, ic_plot_style_t style, const double *x,
                    const double *y, int n);
/* Write the files and run gnuplot.  Returns 0, or -1 (message on stderr)
 * if a file cannot be written or gnuplot fails.  Frees pl. */
int ic_plot_finish(ic_plot_t *pl);

/* s as a gnuplot single-quoted string (a quote doubled) into f. */
void ic_plot_quote(FILE *f, const char *s);
/* Run gnuplot on a script: 0, or -1 (message on stderr). */
int ic_plot_run(const char *script);

#ifdef __cplusplus
}
#endif
#endif /* IC_BENCH_PLOT_H */
