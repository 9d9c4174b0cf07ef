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
/* The same in colour lc (1..12 of a fixed palette, 8 black; 0: gnuplot's
 * next) and dash type dt (gnuplot's `dt`; 0: solid), so that a measured
 * series and its model's lines can share a colour; key = 0 leaves the
 * series out of the key (its title still names its block in the .dat). */
void ic_plot_series_styled(ic_plot_t *pl, const char *title, ic_plot_style_t style, int lc, int dt,
                           int key, const double *x, const double *y, int n);
/* Where the key goes (gnuplot's `set key` arguments; default "left top"). */
void ic_plot_key(ic_plot_t *pl, const char *where);
/* The x axis of a figure: the base of its logarithmic scale (default 2)
 * and its tic format (default "%.0b%BB", lengths in bytes). */
void ic_plot_xaxis(ic_plot_t *pl, int log_base, const char *format);
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
