/*
 * report.c -- tables and their text, CSV and JSON renderings (see
 * report.h).  No MPI.
 */
#include "report.h"

#include <math.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct cell {
    int set;
    double v;
    char *s;
} cell_t;

typedef struct col {
    char *key, *head, *fmt;
    ic_col_kind_t kind;
    int detail; /* not in the text table */
} col_t;

struct ic_rtable {
    char *name, *title;
    col_t *cols;
    int ncols;
    cell_t *cells; /* nrows x ncols */
    int nrows, cap, cur;
    ic_rtable_t *next;
};

typedef struct info {
    char *key, *text;
    double v;
    int is_num;
} info_t;

struct ic_report {
    char *command;
    info_t *info;
    int ninfo;
    char **notes;
    int nnotes;
    ic_rtable_t *tables, *last;
};

/* Out of memory in the benchmark's bookkeeping: nothing sensible remains. */
static void *xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "intercom-bench: out of memory\n");
        exit(1);
    }
    return q;
}

static char *xstrdup(const char *s)
{
    size_t n = strlen(s) + 1;
    return memcpy(xrealloc(NULL, n), s, n);
}

static char *vformat(const char *fmt, va_list ap)
{
    va_list aq;
    va_copy(aq, ap);
    int n = vsnprintf(NULL, 0, fmt, aq);
    va_end(aq);
    char *s = xrealloc(NULL, (size_t)(n > 0 ? n : 0) + 1);
    vsnprintf(s, (size_t)(n > 0 ? n : 0) + 1, fmt, ap);
    return s;
}

ic_report_t *ic_report_new(const char *command)
{
    ic_report_t *r = xrealloc(NULL, sizeof(*r));
    memset(r, 0, sizeof(*r));
    r->command = xstrdup(command);
    return r;
}

void ic_report_free(ic_report_t *r)
{
    if (!r)
        return;
    for (int i = 0; i < r->ninfo; i++) {
        free(r->info[i].key);
        free(r->info[i].text);
    }
    free(r->info);
    for (int i = 0; i < r->nnotes; i++)
        free(r->notes[i]);
    free(r->notes);
    for (ic_rtable_t *t = r->tables, *n; t; t = n) {
        n = t->next;
        for (int c = 0; c < t->ncols; c++) {
            free(t->cols[c].key);
            free(t->cols[c].head);
            free(t->cols[c].fmt);
        }
        for (int i = 0; i < t->nrows * t->ncols; i++)
            free(t->cells[i].s);
        free(t->cols);
        free(t->cells);
        free(t->name);
        free(t->title);
        free(t);
    }
    free(r->command);
    free(r);
}

static info_t *add_info(ic_report_t *r, const char *key)
{
    r->info = xrealloc(r->info, (size_t)(r->ninfo + 1) * sizeof(*r->info));
    info_t *i = &r->info[r->ninfo++];
    memset(i, 0, sizeof(*i));
    i->key = xstrdup(key);
    return i;
}

void ic_report_info(ic_report_t *r, const char *key, const char *fmt, ...)
{
    info_t *i = add_info(r, key);
    va_list ap;
    va_start(ap, fmt);
    i->text = vformat(fmt, ap);
    va_end(ap);
}

void ic_report_headline(ic_report_t *r, const char *key, const char *fmt, ...)
{
    info_t *i = add_info(r, key);
    va_list ap;
    va_start(ap, fmt);
    i->text = vformat(fmt, ap);
    va_end(ap);
    info_t head = *i; /* move it in front of the others */
    memmove(r->info + 1, r->info, (size_t)(r->ninfo - 1) * sizeof(*r->info));
    r->info[0] = head;
}

void ic_report_info_num(ic_report_t *r, const char *key, double v, const char *unit)
{
    info_t *i = add_info(r, key);
    char buf[64];
    snprintf(buf, sizeof(buf), "%.6g%s%s", v, unit && *unit ? " " : "", unit ? unit : "");
    i->text = xstrdup(buf);
    i->v = v;
    i->is_num = 1;
}

void ic_report_note(ic_report_t *r, const char *fmt, ...)
{
    r->notes = xrealloc(r->notes, (size_t)(r->nnotes + 1) * sizeof(*r->notes));
    va_list ap;
    va_start(ap, fmt);
    r->notes[r->nnotes++] = vformat(fmt, ap);
    va_end(ap);
}

ic_rtable_t *ic_report_table(ic_report_t *r, const char *name, const char *title)
{
    ic_rtable_t *t = xrealloc(NULL, sizeof(*t));
    memset(t, 0, sizeof(*t));
    t->name = xstrdup(name);
    t->title = xstrdup(title ? title : name);
    if (r->last)
        r->last->next = t;
    else
        r->tables = t;
    r->last = t;
    return t;
}

void ic_rtable_cols(ic_rtable_t *t, const ic_col_spec_t *cols, int n)
{
    for (int i = 0; i < n; i++)
        ic_rtable_col(t, cols[i].key, cols[i].head, cols[i].kind, cols[i].fmt);
}

void ic_rtable_col(ic_rtable_t *t, const char *key, const char *head, int kind, const char *fmt)
{
    t->cols = xrealloc(t->cols, (size_t)(t->ncols + 1) * sizeof(*t->cols));
    col_t *c = &t->cols[t->ncols++];
    c->key = xstrdup(key);
    c->head = xstrdup(head ? head : key);
    c->fmt = xstrdup(fmt ? fmt : "%.4g");
    c->kind = (ic_col_kind_t)(kind & ~IC_COL_DETAIL);
    c->detail = (kind & IC_COL_DETAIL) != 0;
}

void ic_rtable_row(ic_rtable_t *t)
{
    if (t->nrows == t->cap) {
        t->cap = t->cap ? 2 * t->cap : 16;
        t->cells = xrealloc(t->cells, (size_t)t->cap * (size_t)t->ncols * sizeof(*t->cells));
    }
    memset(&t->cells[(size_t)t->nrows * (size_t)t->ncols], 0, (size_t)t->ncols * sizeof(*t->cells));
    t->nrows++;
    t->cur = 0;
}

static cell_t *next_cell(ic_rtable_t *t)
{
    if (t->nrows == 0 || t->cur >= t->ncols)
        return NULL;
    return &t->cells[(size_t)(t->nrows - 1) * (size_t)t->ncols + (size_t)t->cur++];
}

void ic_rtable_str(ic_rtable_t *t, const char *s)
{
    cell_t *c = next_cell(t);
    if (!c)
        return;
    c->set = 1;
    c->s = xstrdup(s ? s : "");
    c->v = NAN;
}

void ic_rtable_num(ic_rtable_t *t, double v)
{
    cell_t *c = next_cell(t);
    if (!c)
        return;
    c->set = 1;
    c->v = v;
}

int ic_rtable_nrows(const ic_rtable_t *t)
{
    return t->nrows;
}

const char *ic_fmt_seconds(double s, char *buf, size_t size)
{
    if (isnan(s))
        snprintf(buf, size, "-");
    else if (isinf(s))
        snprintf(buf, size, "inf");
    else if (fabs(s) < 1e-6)
        snprintf(buf, size, "%.3g ns", s * 1e9);
    else if (fabs(s) < 1e-3)
        snprintf(buf, size, "%.3g us", s * 1e6);
    else if (fabs(s) < 1)
        snprintf(buf, size, "%.3g ms", s * 1e3);
    else
        snprintf(buf, size, "%.3g s", s);
    return buf;
}

const char *ic_fmt_ratio(double r, char *buf, size_t size)
{
    double a = fabs(r);
    int dec = a > 0 && a < 0.1 ? 1 - (int)floor(log10(a)) : 2;
    if (isnan(r))
        snprintf(buf, size, "-");
    else if (isinf(r))
        snprintf(buf, size, "inf");
    else
        snprintf(buf, size, "%.*f", dec > 15 ? 15 : dec, r);
    return buf;
}

/* Text of a cell for the text table. */
static void cell_text(const col_t *col, const cell_t *c, char *buf, size_t size)
{
    if (!c->set) {
        snprintf(buf, size, "-");
        return;
    }
    if (col->kind == IC_COL_STR) {
        snprintf(buf, size, "%s", c->s ? c->s : "");
        return;
    }
    if (isnan(c->v)) {
        snprintf(buf, size, "-");
        return;
    }
    switch (col->kind) {
    case IC_COL_INT:
        snprintf(buf, size, "%.0f", c->v);
        break;
    case IC_COL_SEC:
        ic_fmt_seconds(c->v, buf, size);
        break;
    case IC_COL_RATIO:
        ic_fmt_ratio(c->v, buf, size);
        break;
    default:
        snprintf(buf, size, col->fmt, c->v);
        break;
    }
}

/* Plain number for CSV/JSON: integers exactly, others with 17 digits. */
static void num_plain(const col_t *col, double v, char *buf, size_t size)
{
    if (col->kind == IC_COL_INT)
        snprintf(buf, size, "%.0f", v);
    else
        snprintf(buf, size, "%.9g", v);
}

/* A note as comment lines of at most about 100 columns, broken at blanks. */
static void write_wrapped(FILE *out, const char *s)
{
    const int width = 96;
    const char *lead = "# ";
    while (*s) {
        int n = (int)strlen(s);
        if (n > width) {
            n = width;
            while (n > 0 && s[n] != ' ')
                n--;
            if (n == 0)
                n = width;
        }
        fprintf(out, "%s%.*s\n", lead, n, s);
        s += n;
        while (*s == ' ')
            s++;
        lead = "#   ";
    }
}

static void write_text(const ic_report_t *r, FILE *out)
{
    fprintf(out, "# intercom-bench %s\n", r->command);
    for (int i = 0; i < r->ninfo; i++)
        fprintf(out, "# %s: %s\n", r->info[i].key, r->info[i].text);
    for (int i = 0; i < r->nnotes; i++)
        write_wrapped(out, r->notes[i]);
    char buf[256];
    for (const ic_rtable_t *t = r->tables; t; t = t->next) {
        int *w = calloc((size_t)t->ncols, sizeof(int));
        if (!w)
            return;
        for (int c = 0; c < t->ncols; c++) {
            w[c] = (int)strlen(t->cols[c].head);
            for (int i = 0; i < t->nrows; i++) {
                cell_text(&t->cols[c], &t->cells[(size_t)i * t->ncols + c], buf, sizeof(buf));
                if ((int)strlen(buf) > w[c])
                    w[c] = (int)strlen(buf);
            }
        }
        int lastc = -1;
        for (int c = 0; c < t->ncols; c++)
            if (!t->cols[c].detail)
                lastc = c;
        fprintf(out, "\n%s\n", t->title);
        for (int c = 0, sep = 0; c < t->ncols; c++) {
            if (t->cols[c].detail)
                continue;
            int left = t->cols[c].kind == IC_COL_STR;
            if (c == lastc && left)
                fprintf(out, "%s%s", sep++ ? "  " : "", t->cols[c].head);
            else
                fprintf(out, "%s%*s", sep++ ? "  " : "", left ? -w[c] : w[c], t->cols[c].head);
        }
        fputc('\n', out);
        for (int i = 0; i < t->nrows; i++) {
            for (int c = 0, sep = 0; c < t->ncols; c++) {
                if (t->cols[c].detail)
                    continue;
                int left = t->cols[c].kind == IC_COL_STR;
                cell_text(&t->cols[c], &t->cells[(size_t)i * t->ncols + c], buf, sizeof(buf));
                if (c == lastc && left)
                    fprintf(out, "%s%s", sep++ ? "  " : "", buf); /* no trailing blanks */
                else
                    fprintf(out, "%s%*s", sep++ ? "  " : "", left ? -w[c] : w[c], buf);
            }
            fputc('\n', out);
        }
        free(w);
    }
}

static void csv_str(FILE *out, const char *s)
{
    if (!strpbrk(s, ",\"\n")) {
        fputs(s, out);
        return;
    }
    fputc('"', out);
    for (; *s; s++) {
        if (*s == '"')
            fputc('"', out);
        fputc(*s, out);
    }
    fputc('"', out);
}

static void write_csv(const ic_report_t *r, FILE *out)
{
    char buf[64];
    fprintf(out, "# intercom-bench %s\n", r->command);
    for (int i = 0; i < r->ninfo; i++)
        fprintf(out, "# %s: %s\n", r->info[i].key, r->info[i].text);
    for (int i = 0; i < r->nnotes; i++)
        fprintf(out, "# %s\n", r->notes[i]);
    int first = 1;
    for (const ic_rtable_t *t = r->tables; t; t = t->next) {
        fprintf(out, "%s# table: %s\n", first ? "" : "\n", t->name);
        first = 0;
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputc(',', out);
            csv_str(out, t->cols[c].key);
        }
        fputc('\n', out);
        for (int i = 0; i < t->nrows; i++) {
            for (int c = 0; c < t->ncols; c++) {
                const cell_t *cl = &t->cells[(size_t)i * t->ncols + c];
                if (c)
                    fputc(',', out);
                if (!cl->set)
                    continue;
                if (t->cols[c].kind == IC_COL_STR) {
                    csv_str(out, cl->s ? cl->s : "");
                } else if (!isnan(cl->v)) {
                    num_plain(&t->cols[c], cl->v, buf, sizeof(buf));
                    fputs(buf, out);
                }
            }
            fputc('\n', out);
        }
    }
}

static void json_str(FILE *out, const char *s)
{
    fputc('"', out);
    for (const unsigned char *p = (const unsigned char *)s; *p; p++) {
        switch (*p) {
        case '"':
            fputs("\\\"", out);
            break;
        case '\\':
            fputs("\\\\", out);
            break;
        case '\n':
            fputs("\\n", out);
            break;
        case '\t':
            fputs("\\t", out);
            break;
        default:
            if (*p < 0x20)
                fprintf(out, "\\u%04x", *p);
            else
                fputc(*p, out);
        }
    }
    fputc('"', out);
}

static void json_num(FILE *out, const col_t *col, double v)
{
    char buf[64];
    if (isnan(v) || isinf(v)) {
        fputs("null", out);
        return;
    }
    if (col)
        num_plain(col, v, buf, sizeof(buf));
    else
        snprintf(buf, sizeof(buf), "%.9g", v);
    fputs(buf, out);
}

static void write_json(const ic_report_t *r, FILE *out)
{
    fprintf(out, "{\n  \"command\": ");
    json_str(out, r->command);
    fprintf(out, ",\n  \"info\": {");
    for (int i = 0; i < r->ninfo; i++) {
        fprintf(out, "%s\n    ", i ? "," : "");
        json_str(out, r->info[i].key);
        fputs(": ", out);
        if (r->info[i].is_num)
            json_num(out, NULL, r->info[i].v);
        else
            json_str(out, r->info[i].text);
    }
    fprintf(out, "%s},\n  \"notes\": [", r->ninfo ? "\n  " : "");
    for (int i = 0; i < r->nnotes; i++) {
        fprintf(out, "%s\n    ", i ? "," : "");
        json_str(out, r->notes[i]);
    }
    fprintf(out, "%s],\n  \"tables\": [", r->nnotes ? "\n  " : "");
    for (const ic_rtable_t *t = r->tables; t; t = t->next) {
        fprintf(out, "%s\n    {\"name\": ", t == r->tables ? "" : ",");
        json_str(out, t->name);
        fputs(", \"title\": ", out);
        json_str(out, t->title);
        fputs(", \"columns\": [", out);
        for (int c = 0; c < t->ncols; c++) {
            if (c)
                fputs(", ", out);
            json_str(out, t->cols[c].key);
        }
        fputs("], \"rows\": [", out);
        for (int i = 0; i < t->nrows; i++) {
            fprintf(out, "%s\n      {", i ? "," : "");
            for (int c = 0; c < t->ncols; c++) {
                const cell_t *cl = &t->cells[(size_t)i * t->ncols + c];
                if (c)
                    fputs(", ", out);
                json_str(out, t->cols[c].key);
                fputs(": ", out);
                if (!cl->set)
                    fputs("null", out);
                else if (t->cols[c].kind == IC_COL_STR)
                    json_str(out, cl->s ? cl->s : "");
                else
                    json_num(out, &t->cols[c], cl->v);
            }
            fputc('}', out);
        }
        fprintf(out, "%s]}", t->nrows ? "\n    " : "");
    }
    fprintf(out, "%s]\n}\n", r->tables ? "\n  " : "");
}

void ic_report_write(const ic_report_t *r, FILE *out, ic_format_t fmt)
{
    switch (fmt) {
    case IC_FMT_CSV:
        write_csv(r, out);
        break;
    case IC_FMT_JSON:
        write_json(r, out);
        break;
    default:
        write_text(r, out);
        break;
    }
    fflush(out);
}
