/*
 * plot.c -- gnuplot figures for intercom-bench (see plot.h).  No MPI.
 */
#include "plot.h"

#include <errno.h>
#include <math.h>
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/wait.h>

extern char **environ;

/* ic_plot_series_styled's colours: 12 that tell apart on white, black 8th. */
static const char *const palette[] = {"#9400d3", "#009e73", "#56b4e9", "#e69f00",
                                      "#0072b2", "#e51e10", "#8b4513", "#000000",
                                      "#ff69b4", "#808000", "#20b2aa", "#708090"};
#define NPALETTE ((int)(sizeof(palette) / sizeof(palette[0])))

typedef struct series {
    char *title;
    ic_plot_style_t style;
    int lc, dt; /* 0: gnuplot's choice, solid */
    int key;    /* an entry in the key */
    double *x, *y;
    int n;
} series_t;

struct ic_plot {
    char *base; /* PREFIX-NAME */
    char *title, *xlabel, *ylabel;
    int logx, logy;
    int xbase;     /* log base of x (default 2) */
    char *xformat; /* tic format of x, NULL: bytes */
    char *key;     /* set key ..., NULL: left top */
    series_t *s;
    int ns;
};

static char *dupstr(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    return d ? memcpy(d, s, n) : NULL;
}

static void plot_free(ic_plot_t *pl)
{
    if (!pl)
        return;
    for (int i = 0; i < pl->ns; i++) {
        free(pl->s[i].title);
        free(pl->s[i].x);
        free(pl->s[i].y);
    }
    free(pl->s);
    free(pl->xformat);
    free(pl->key);
    free(pl->base);
    free(pl->title);
    free(pl->xlabel);
    free(pl->ylabel);
    free(pl);
}

ic_plot_t *ic_plot_new(const char *prefix, const char *name, const char *title, const char *xlabel,
                       const char *ylabel, int logx, int logy)
{
    ic_plot_t *pl = calloc(1, sizeof(*pl));
    if (!pl)
        return NULL;
    size_t n = strlen(prefix) + strlen(name) + 2;
    pl->base = malloc(n);
    pl->title = dupstr(title);
    pl->xlabel = dupstr(xlabel);
    pl->ylabel = dupstr(ylabel);
    if (!pl->base || !pl->title || !pl->xlabel || !pl->ylabel) {
        plot_free(pl);
        return NULL;
    }
    snprintf(pl->base, n, "%s-%s", prefix, name);
    pl->logx = logx;
    pl->logy = logy;
    pl->xbase = 2;
    return pl;
}

void ic_plot_xaxis(ic_plot_t *pl, int log_base, const char *format)
{
    if (!pl)
        return;
    pl->xbase = log_base > 1 ? log_base : 2;
    free(pl->xformat);
    pl->xformat = format ? dupstr(format) : NULL;
}

void ic_plot_series(ic_plot_t *pl, const char *title, ic_plot_style_t style, const double *x,
                    const double *y, int n)
{
    ic_plot_series_styled(pl, title, style, 0, 0, 1, x, y, n);
}

void ic_plot_key(ic_plot_t *pl, const char *where)
{
    if (!pl)
        return;
    free(pl->key);
    pl->key = where ? dupstr(where) : NULL;
}

void ic_plot_series_styled(ic_plot_t *pl, const char *title, ic_plot_style_t style, int lc, int dt,
                           int key, const double *x, const double *y, int n)
{
    if (!pl)
        return;
    series_t *ns = realloc(pl->s, (size_t)(pl->ns + 1) * sizeof(*ns));
    if (!ns)
        return;
    pl->s = ns;
    series_t *s = &pl->s[pl->ns];
    memset(s, 0, sizeof(*s));
    s->title = dupstr(title);
    s->style = style;
    s->lc = lc > 0 ? lc : 0;
    s->dt = dt > 0 ? dt : 0;
    s->key = key;
    s->x = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    s->y = malloc((size_t)(n > 0 ? n : 1) * sizeof(double));
    if (!s->title || !s->x || !s->y) {
        free(s->title);
        free(s->x);
        free(s->y);
        return;
    }
    for (int i = 0; i < n; i++) {
        if (!isfinite(x[i]) || !isfinite(y[i]))
            continue;
        if ((pl->logx && x[i] <= 0) || (pl->logy && y[i] <= 0))
            continue;
        s->x[s->n] = x[i];
        s->y[s->n] = y[i];
        s->n++;
    }
    pl->ns++;
}

void ic_plot_quote(FILE *f, const char *s)
{
    fputc('\'', f);
    for (; *s; s++) {
        if (*s == '\'')
            fputc('\'', f);
        fputc(*s, f);
    }
    fputc('\'', f);
}

int ic_plot_run(const char *script)
{
    char *argv[] = {"gnuplot", (char *)script, NULL};
    pid_t pid;
    int rc = posix_spawnp(&pid, "gnuplot", NULL, NULL, argv, environ);
    if (rc != 0) {
        fprintf(stderr, "intercom-bench: cannot run gnuplot: %s\n", strerror(rc));
        return -1;
    }
    int st = 0;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR)
            return -1;
    }
    if (!WIFEXITED(st) || WEXITSTATUS(st) != 0) {
        fprintf(stderr, "intercom-bench: gnuplot failed on %s\n", script);
        return -1;
    }
    return 0;
}

int ic_plot_finish(ic_plot_t *pl)
{
    if (!pl)
        return -1;
    size_t n = strlen(pl->base) + 8;
    char *dat = malloc(n), *gp = malloc(n);
    int rc = -1;
    FILE *f = NULL;
    if (!dat || !gp)
        goto out;
    snprintf(dat, n, "%s.dat", pl->base);
    snprintf(gp, n, "%s.gp", pl->base);
    if (!(f = fopen(dat, "w"))) {
        fprintf(stderr, "intercom-bench: cannot write %s: %s\n", dat, strerror(errno));
        goto out;
    }
    int blocks = 0;
    for (int i = 0; i < pl->ns; i++) {
        if (pl->s[i].n == 0)
            continue;
        fprintf(f, "%s# %s\n", blocks ? "\n\n" : "", pl->s[i].title);
        for (int k = 0; k < pl->s[i].n; k++)
            fprintf(f, "%.9g %.9g\n", pl->s[i].x[k], pl->s[i].y[k]);
        blocks++;
    }
    fclose(f);
    if (!(f = fopen(gp, "w"))) {
        fprintf(stderr, "intercom-bench: cannot write %s: %s\n", gp, strerror(errno));
        goto out;
    }
    fprintf(f, "# intercom-bench figure: gnuplot %s\n", gp);
    fprintf(f, "set title ");
    ic_plot_quote(f, pl->title);
    fprintf(f, " noenhanced\nset xlabel ");
    ic_plot_quote(f, pl->xlabel);
    fprintf(f, " noenhanced\nset ylabel ");
    ic_plot_quote(f, pl->ylabel);
    fprintf(f, " noenhanced\nset key %s noenhanced\nset grid\n", pl->key ? pl->key : "left top");
    if (pl->logx)
        fprintf(f, "set logscale x %d\n", pl->xbase);
    if (pl->logx || pl->xformat) {
        fprintf(f, "set format x ");
        ic_plot_quote(f, pl->xformat ? pl->xformat : "%.0b%BB");
        fprintf(f, "\n");
    }
    if (pl->logy)
        fprintf(f, "set logscale y\n");
    if (strstr(pl->ylabel, "[s]"))
        fprintf(f, "set format y '%%.0s %%cs'\n");
    if (blocks == 0) {
        fprintf(f, "unset logscale\nset xrange [0:1]\nset yrange [0:1]\n"
                   "set label 1 'no data' at graph 0.5, 0.5 center\n"
                   "plot_cmd = '2 notitle'\n");
    } else {
        fprintf(f, "plot_cmd = \"");
        int b = 0;
        for (int i = 0; i < pl->ns; i++) {
            if (pl->s[i].n == 0)
                continue;
            const char *w = pl->s[i].style == IC_PLOT_POINTS  ? "points pt 7 ps 0.6"
                            : pl->s[i].style == IC_PLOT_LINES ? "lines lw 2"
                                                              : "linespoints pt 7 ps 0.6";
            char *esc = malloc(2 * strlen(pl->s[i].title) + 1), *e = esc;
            if (!esc)
                goto out;
            for (const char *s = pl->s[i].title; *s; s++) {
                if (*s == '"' || *s == '\\' || *s == '\'')
                    continue;
                *e++ = *s;
            }
            *e = '\0';
            fprintf(f, "%sDAT index %d using 1:2 with %s", b ? ", " : "", b, w);
            if (pl->s[i].lc)
                fprintf(f, " lc rgb '%s'", palette[(pl->s[i].lc - 1) % NPALETTE]);
            if (pl->s[i].dt)
                fprintf(f, " dt %d", pl->s[i].dt);
            if (pl->s[i].key)
                fprintf(f, " title '%s'", esc);
            else
                fprintf(f, " notitle");
            free(esc);
            b++;
        }
        fprintf(f, "\"\n");
    }
    fprintf(f, "DAT = ");
    ic_plot_quote(f, dat);
    fprintf(f, "\nif (strstrt(GPVAL_TERMINALS, 'pngcairo') > 0) {\n"
               "    set terminal pngcairo size 1000,650 noenhanced\n"
               "} else {\n"
               "    set terminal png size 1000,650\n"
               "}\nset output ");
    {
        char *png = malloc(n);
        if (!png)
            goto out;
        snprintf(png, n, "%s.png", pl->base);
        ic_plot_quote(f, png);
        snprintf(png, n, "%s.svg", pl->base);
        fprintf(f, "\neval 'plot ' . plot_cmd\nset output\n"
                   "set terminal svg size 1000,650 dynamic noenhanced\nset output ");
        ic_plot_quote(f, png);
        fprintf(f, "\neval 'plot ' . plot_cmd\nset output\n");
        free(png);
    }
    fclose(f);
    f = NULL;
    rc = ic_plot_run(gp);
out:
    if (f)
        fclose(f);
    free(dat);
    free(gp);
    plot_free(pl);
    return rc;
}
