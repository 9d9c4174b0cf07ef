/*
 * report.h -- the results of one intercom-bench run and their three
 * renderings: an aligned text table (default), CSV (--csv) and JSON
 * (--json).  No MPI: rank 0 fills a report and writes it.
 *
 * A report has
 *   - info: ordered key/value pairs about the run (MPI library, p, fitted
 *     parameters such as r_inf or alpha), text lines "# key: value" in text
 *     and CSV output, an object in JSON;
 *   - notes: free-text lines (warnings, how to read a table);
 *   - tables: named, with typed columns.  Numbers are kept as doubles
 *     (NaN renders as "-" in text, empty in CSV, null in JSON); seconds
 *     render with a unit in text (12.3 us, 4.56 ms) and as plain seconds in
 *     CSV and JSON.
 */
#ifndef IC_BENCH_REPORT_H
#define IC_BENCH_REPORT_H

#include <stdio.h>

#ifdef __cplusplus
extern "C" {
#endif

typedef enum ic_col_kind {
    IC_COL_STR = 0,       /* text                                         */
    IC_COL_INT,           /* integer (kept as a double)                   */
    IC_COL_SEC,           /* seconds                                      */
    IC_COL_NUM,           /* other number, printf format given per column */
    IC_COL_RATIO,         /* a ratio: ic_fmt_ratio                        */
    IC_COL_DETAIL = 0x100 /* flag: CSV and JSON only, not the text table */
} ic_col_kind_t;

typedef enum ic_format { IC_FMT_TEXT = 0, IC_FMT_CSV, IC_FMT_JSON } ic_format_t;

typedef struct ic_report ic_report_t;
typedef struct ic_rtable ic_rtable_t;

ic_report_t *ic_report_new(const char *command);
void ic_report_free(ic_report_t *r);

/* Info: a value shown as text; the _num form also keeps the number for
 * JSON (unit is appended in text output only). */
void ic_report_info(ic_report_t *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
/* The same, placed before every other info line: what a reader should
 * see first (coll's summary). */
void ic_report_headline(ic_report_t *r, const char *key, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 3, 4)))
#endif
    ;
void ic_report_info_num(ic_report_t *r, const char *key, double v, const char *unit);
void ic_report_note(ic_report_t *r, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;

/* A table: name (a key for JSON/CSV) and a title line for text output. */
ic_rtable_t *ic_report_table(ic_report_t *r, const char *name, const char *title);
/* Column: key (CSV/JSON), head (text header; NULL = key), kind (possibly
 * with IC_COL_DETAIL or'ed in), printf format for IC_COL_NUM (NULL =
 * "%.4g"). */
void ic_rtable_col(ic_rtable_t *t, const char *key, const char *head, int kind, const char *fmt);
/* Columns from a list (a table's columns as data). */
typedef struct ic_col_spec {
    const char *key, *head;
    int kind;
    const char *fmt;
} ic_col_spec_t;
void ic_rtable_cols(ic_rtable_t *t, const ic_col_spec_t *cols, int n);
/* Append a row; then set its cells in column order (missing cells stay
 * empty). */
void ic_rtable_row(ic_rtable_t *t);
void ic_rtable_str(ic_rtable_t *t, const char *s);
void ic_rtable_num(ic_rtable_t *t, double v);
int ic_rtable_nrows(const ic_rtable_t *t);

void ic_report_write(const ic_report_t *r, FILE *out, ic_format_t fmt);

/* "12.3 us" style rendering of seconds into buf (size >= 16). */
const char *ic_fmt_seconds(double s, char *buf, size_t size);
/* A ratio for the reader: two decimals, or two significant digits below 0.1
 * (0.0052, not 0.00: a positive ratio never reads as zero). */
const char *ic_fmt_ratio(double r, char *buf, size_t size);

#ifdef __cplusplus
}
#endif
#endif /* IC_BENCH_REPORT_H */
