/*
 * table.c -- tuning tables (table.h; the format is specified in
 * README.md, "Tuning tables").
 *
 * The parser works on spans of the caller's bytes: a line is cut at '\n',
 * its comment at the first '#', and only the text before the comment is
 * bounded (IC_TABLE_LINE_MAX) and copied, NUL-terminated, to be split into
 * fields.  Every check reports the first thing wrong with a line and
 * skips that line, so a line costs at most one message; nothing it reads
 * is trusted further than the check that read it (numbers saturate before
 * they overflow, names are looked up, plans go through ic_plan_parse and
 * text quoted in messages is cut short and shown printable).
 */
#include "table.h"

#include <ctype.h>
#include <errno.h>
#include <limits.h>
#include <locale.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define VERSION_WORD "intercom-tuning"
#define QUOTE_MAX 40 /* bytes of a line's text quoted in a message */
#define MSG_MAX 512

typedef struct ic_table_kv {
    char *key, *value;
    int line;
} ic_table_kv_t;

struct ic_table {
    char *name;
    ic_table_header_t hdr; /* parsed from kv (header_refresh) */
    ic_table_kv_t *kv;
    size_t nkv, kvcap;
    ic_table_rule_t *rules;
    size_t nrules, cap;
    size_t problems, skipped;
    int last_line;      /* the source's last line; added rules come after it */
    unsigned long hash; /* of the parsed text (ic_table_hash) */
};

/* ------------------------------------------------------------ helpers */

static int is_blank(int c)
{
    return c == ' ' || c == '\t' || c == '\r' || c == '\v' || c == '\f';
}

static int is_key_char(int c)
{
    return isalnum(c) || c == '-' || c == '_' || c == '.';
}

static char *dup_text(const char *s)
{
    size_t n = strlen(s) + 1;
    char *d = malloc(n);
    if (d)
        memcpy(d, s, n);
    return d;
}

/* s as it may appear in a message: at most QUOTE_MAX bytes, anything not
 * printable ASCII shown as '?', "..." when cut. */
static const char *quote(char buf[QUOTE_MAX + 4], const char *s)
{
    size_t n = 0;
    for (; s[n] && n < QUOTE_MAX; n++)
        buf[n] = s[n] >= ' ' && s[n] < 0x7f ? s[n] : '?';
    if (s[n])
        memcpy(buf + n, "...", 3), n += 3;
    buf[n] = 0;
    return buf;
}

/* A decimal number of digits only at s (advanced past them), saturating
 * at limit + 1: -1 when there is no digit. */
static int64_t digits(const char **s, int64_t limit)
{
    const char *q = *s;
    int64_t v = 0;
    if (!isdigit((unsigned char)*q))
        return -1;
    for (; isdigit((unsigned char)*q); q++) {
        int d = *q - '0';
        v = v > (limit - d) / 10 ? limit + 1 : v * 10 + d;
    }
    *s = q;
    return v;
}

/* One end of a BYTES range, N with an optional K, M or G (binary):
 * 0, -1 (syntax) or -2 (more than IC_TABLE_BYTES_LIMIT). */
static int byte_count(const char **s, uint64_t *v)
{
    int64_t n = digits(s, (int64_t)IC_TABLE_BYTES_LIMIT);
    if (n < 0)
        return -1;
    int shift = **s == 'K' ? 10 : **s == 'M' ? 20 : **s == 'G' ? 30 : 0;
    if (shift)
        (*s)++;
    if ((uint64_t)n > IC_TABLE_BYTES_LIMIT >> shift)
        return -2;
    *v = (uint64_t)n << shift;
    return 0;
}

/* RANKS or BYTES: "any", N, N-M or N-*.  0, -1 (syntax), -2 (too
 * large) or -3 (empty range). */
static int parse_range(const char *s, int bytes, uint64_t *lo, uint64_t *hi)
{
    uint64_t open = bytes ? IC_TABLE_OPEN : (uint64_t)INT_MAX;
    if (!strcmp(s, "any")) {
        *lo = bytes ? 0 : 1;
        *hi = open;
        return 0;
    }
    const char *q = s;
    int rc;
    if (bytes) {
        rc = byte_count(&q, lo);
    } else {
        int64_t n = digits(&q, IC_TABLE_RANKS_LIMIT);
        rc = n < 0 ? -1 : n > IC_TABLE_RANKS_LIMIT ? -2 : 0;
        *lo = (uint64_t)n;
    }
    if (rc)
        return rc;
    *hi = *lo;
    if (*q == '-') {
        q++;
        if (*q == '*') {
            q++;
            *hi = open;
        } else if (bytes) {
            if ((rc = byte_count(&q, hi)) != 0)
                return rc;
        } else {
            int64_t n = digits(&q, IC_TABLE_RANKS_LIMIT);
            if (n < 0)
                return -1;
            if (n > IC_TABLE_RANKS_LIMIT)
                return -2;
            *hi = (uint64_t)n;
        }
    }
    if (*q)
        return -1;
    return *lo > *hi ? -3 : 0;
}

/* A number >= 0 in C's notation, whatever LC_NUMERIC the program set
 * (tables are written with '.'): 0, or -1. */
static int parse_double(const char *s, double *v)
{
    char buf[64];
    size_t n = strlen(s);
    if (n == 0 || n >= sizeof(buf) || strspn(s, "0123456789.eE+-") != n)
        return -1; /* also keeps out strtod's "nan", "inf" and hex */
    memcpy(buf, s, n + 1);
    const char *point = localeconv()->decimal_point;
    char *dot = strchr(buf, '.');
    if (dot && point && point[0] && !point[1])
        *dot = point[0];
    char *end;
    errno = 0;
    double d = strtod(buf, &end);
    if (*end || errno == ERANGE || !isfinite(d) || d < 0)
        return -1;
    *v = d;
    return 0;
}

/* -------------------------------------------------------------- header */

enum { KEY_TEXT, KEY_NUMBER, KEY_BYTES, KEY_COUNT };

static const struct {
    const char *key;
    int kind;
    size_t off; /* in ic_table_header_t */
} known_keys[] = {
    {"made-by", KEY_TEXT, offsetof(ic_table_header_t, made_by)},
    {"date", KEY_TEXT, offsetof(ic_table_header_t, date)},
    {"mpi", KEY_TEXT, offsetof(ic_table_header_t, mpi)},
    {"machine", KEY_TEXT, offsetof(ic_table_header_t, machine)},
    {"nodes", KEY_COUNT, offsetof(ic_table_header_t, nodes)},
    {"ranks-per-node", KEY_COUNT, offsetof(ic_table_header_t, ranks_per_node)},
    {"alpha", KEY_NUMBER, offsetof(ic_table_header_t, alpha)},
    {"beta", KEY_NUMBER, offsetof(ic_table_header_t, beta)},
    {"gamma", KEY_NUMBER, offsetof(ic_table_header_t, gamma)},
    {"overhead", KEY_NUMBER, offsetof(ic_table_header_t, overhead)},
    {"beta-x", KEY_NUMBER, offsetof(ic_table_header_t, beta_x)},
    {"x-min", KEY_BYTES, offsetof(ic_table_header_t, x_min)},
    {"node-alpha", KEY_NUMBER, offsetof(ic_table_header_t, node_alpha)},
    {"node-beta", KEY_NUMBER, offsetof(ic_table_header_t, node_beta)},
    {"links", KEY_COUNT, offsetof(ic_table_header_t, links)},
};
#define NKEYS ((int)(sizeof(known_keys) / sizeof(known_keys[0])))

/* Read value as key's field of h (unknown keys: nothing to read).  0, or
 * -1 with *why. */
static int header_value(ic_table_header_t *h, const char *key, const char *value, const char **why)
{
    for (int i = 0; i < NKEYS; i++) {
        if (strcmp(known_keys[i].key, key) != 0)
            continue;
        char *field = (char *)h + known_keys[i].off;
        switch (known_keys[i].kind) {
        case KEY_TEXT:
            memcpy(field, &value, sizeof(value));
            return 0;
        case KEY_NUMBER: {
            double d;
            if (parse_double(value, &d) != 0) {
                *why = "expected a number >= 0 (seconds, or seconds per byte)";
                return -1;
            }
            memcpy(field, &d, sizeof(d));
            return 0;
        }
        case KEY_BYTES: {
            const char *q = value;
            uint64_t b;
            if (byte_count(&q, &b) != 0 || *q) {
                *why = "expected a number of bytes (suffix K, M or G)";
                return -1;
            }
            double d = (double)b;
            memcpy(field, &d, sizeof(d));
            return 0;
        }
        default: {
            const char *q = value;
            int64_t n = digits(&q, IC_TABLE_RANKS_LIMIT);
            if (n < 1 || n > IC_TABLE_RANKS_LIMIT || *q) {
                *why = "expected a positive integer";
                return -1;
            }
            int c = (int)n;
            memcpy(field, &c, sizeof(c));
            return 0;
        }
        }
    }
    return 0;
}

static void header_clear(ic_table_header_t *h)
{
    memset(h, 0, sizeof(*h));
    h->alpha = h->beta = h->gamma = h->overhead = h->beta_x = h->x_min = NAN;
    h->node_alpha = h->node_beta = NAN;
}

/* The parsed header from the entries (which were checked going in). */
static void header_refresh(ic_table_t *t)
{
    const char *why;
    header_clear(&t->hdr);
    for (size_t i = 0; i < t->nkv; i++)
        header_value(&t->hdr, t->kv[i].key, t->kv[i].value, &why);
}

static ic_table_kv_t *header_find(const ic_table_t *t, const char *key)
{
    for (size_t i = 0; i < t->nkv; i++)
        if (!strcmp(t->kv[i].key, key))
            return &t->kv[i];
    return NULL;
}

/* Room for one more of the n items of `size` bytes at *items (capacity
 * *cap, doubled when full): 0, or -1 out of memory. */
static int room(void **items, size_t *cap, size_t n, size_t size)
{
    if (n < *cap)
        return 0;
    size_t c = *cap ? 2 * *cap : 16;
    void *p = realloc(*items, c * size);
    if (!p)
        return -1;
    *items = p;
    *cap = c;
    return 0;
}

/* Append an entry (key and value are copied): 0, or -1 out of memory. */
static int header_append(ic_table_t *t, const char *key, const char *value, int line)
{
    void *kv = t->kv;
    if (room(&kv, &t->kvcap, t->nkv, sizeof(*t->kv)) != 0)
        return -1;
    t->kv = kv;
    ic_table_kv_t *e = &t->kv[t->nkv];
    e->key = dup_text(key);
    e->value = dup_text(value);
    e->line = line;
    if (!e->key || !e->value) {
        free(e->key);
        free(e->value);
        return -1;
    }
    t->nkv++;
    header_refresh(t);
    return 0;
}

/* --------------------------------------------------------------- rules */

/* What makes a well-formed rule one that can never apply: NULL, or why. */
static const char *rule_never(const ic_table_rule_t *r)
{
    if (r->ranks_per_node > r->ranks_hi)
        return "the rule never applies: RPN is more than its largest RANKS";
    int mesh = ic_plan_ranks(&r->plan);
    if (mesh != 0 && (mesh < r->ranks_lo || mesh > r->ranks_hi))
        return "the rule never applies: its plan is a mesh of a size outside its RANKS";
    if (r->op == IC_TABLE_OP_NONCOMMUTATIVE) {
        int n = r->plan.ndims ? r->plan.ndims : 1;
        for (int i = 0; i < n; i++) {
            const ic_algorithm_t *alg = r->plan.ndims ? r->plan.step[i].alg : r->plan.alg;
            if (!(alg->flags & IC_ALG_KEEPS_ORDER))
                return "the rule never applies: its plan needs a commutative op and its OP is "
                       "noncommutative";
        }
    }
    return NULL;
}

static int append_rule(ic_table_t *t, const ic_table_rule_t *r)
{
    void *rules = t->rules;
    if (room(&rules, &t->cap, t->nrules, sizeof(*t->rules)) != 0)
        return -1;
    t->rules = rules;
    t->rules[t->nrules++] = *r;
    return 0;
}

static const char *const op_names[] = {"any", "commutative", "noncommutative"};

static void format_ranks(int lo, int hi, char *buf, size_t len)
{
    if (lo == 1 && hi == INT_MAX)
        snprintf(buf, len, "any");
    else if (hi == INT_MAX)
        snprintf(buf, len, "%d-*", lo);
    else if (lo == hi)
        snprintf(buf, len, "%d", lo);
    else
        snprintf(buf, len, "%d-%d", lo, hi);
}

static int format_size(uint64_t v, char *buf, size_t len)
{
    static const char suffix[] = "GMK";
    for (int i = 0; i < 3 && v; i++) {
        int shift = 30 - 10 * i;
        if (v % ((uint64_t)1 << shift) == 0)
            return snprintf(buf, len, "%llu%c", (unsigned long long)(v >> shift), suffix[i]);
    }
    return snprintf(buf, len, "%llu", (unsigned long long)v);
}

static void format_bytes(uint64_t lo, uint64_t hi, char *buf, size_t len)
{
    if (lo == 0 && hi == IC_TABLE_OPEN) {
        snprintf(buf, len, "any");
        return;
    }
    int n = format_size(lo, buf, len);
    if (hi == lo || n < 0 || (size_t)n >= len)
        return;
    if (hi == IC_TABLE_OPEN)
        snprintf(buf + n, len - (size_t)n, "-*");
    else {
        buf[n] = '-';
        format_size(hi, buf + n + 1, len - (size_t)n - 1);
    }
}

/* The fields of r as text (the plan's fits IC_PLAN_TEXT_MAX). */
typedef struct {
    char ranks[32], rpn[16], bytes[64], plan[IC_PLAN_TEXT_MAX];
} fields_t;

static void rule_fields(const ic_table_rule_t *r, fields_t *f)
{
    format_ranks(r->ranks_lo, r->ranks_hi, f->ranks, sizeof(f->ranks));
    if (r->ranks_per_node)
        snprintf(f->rpn, sizeof(f->rpn), "%d", r->ranks_per_node);
    else
        snprintf(f->rpn, sizeof(f->rpn), "any");
    format_bytes(r->bytes_lo, r->bytes_hi, f->bytes, sizeof(f->bytes));
    ic_plan_format(&r->plan, f->plan, sizeof(f->plan));
}

int ic_table_format_rule(const ic_table_rule_t *r, char *buf, size_t len)
{
    fields_t f;
    rule_fields(r, &f);
    return snprintf(buf, len, "%s %s %s %s %s %s", ic_coll_name(r->coll), f.ranks, f.rpn, f.bytes,
                    op_names[r->op], f.plan);
}

/* -------------------------------------------------------------- parser */

typedef struct parser {
    ic_table_t *t;
    const char *name;
    ic_table_diag_fn diag;
    void *ctx;
    int line;
    int version; /* 0 until the version line */
    int refused; /* the file is not a table this code reads */
    int oom;
    int rules_seen; /* a rule line was met: headers are over */
    int rules_full, header_full;
} parser_t;

/* One problem: "NAME:LINE: " and the message, to the callback. */
static void report(parser_t *ps, const char *fmt, ...)
#if defined(__GNUC__)
    __attribute__((format(printf, 2, 3)))
#endif
    ;
static void report(parser_t *ps, const char *fmt, ...)
{
    char msg[MSG_MAX];
    int n = snprintf(msg, sizeof(msg), "%s:%d: ", ps->name, ps->line);
    va_list ap;
    va_start(ap, fmt);
    if (n > 0 && (size_t)n < sizeof(msg))
        vsnprintf(msg + n, sizeof(msg) - (size_t)n, fmt, ap);
    va_end(ap);
    if (ps->t)
        ps->t->problems++;
    if (ps->diag)
        ps->diag(ps->ctx, msg);
}

/* Split s in place into at most max fields (more are counted, not kept). */
static int split(char *s, char **field, int max)
{
    int n = 0;
    while (*s) {
        while (is_blank((unsigned char)*s))
            s++;
        if (!*s)
            break;
        if (n < max)
            field[n] = s;
        n++;
        while (*s && !is_blank((unsigned char)*s))
            s++;
        if (*s)
            *s++ = 0;
    }
    return n;
}

static void version_line(parser_t *ps, char *s)
{
    char *f[3], q[QUOTE_MAX + 4];
    int n = split(s, f, 3);
    ps->refused = 1;
    if (strcmp(f[0], VERSION_WORD) != 0) {
        report(ps,
               "expected '" VERSION_WORD " %d' first, found '%s' (not a tuning table?); the "
               "file is ignored",
               IC_TABLE_VERSION, quote(q, f[0]));
        return;
    }
    const char *d = n == 2 ? f[1] : "";
    int64_t v = digits(&d, INT_MAX);
    if (n != 2 || v < 1 || *d) {
        report(ps,
               "expected '" VERSION_WORD " %d': a version number after the word; the file is "
               "ignored",
               IC_TABLE_VERSION);
        return;
    }
    if (v > IC_TABLE_VERSION) {
        report(ps,
               "tuning table version %s is newer than this library reads (%d); the file is "
               "ignored",
               quote(q, f[1]), IC_TABLE_VERSION);
        return;
    }
    ps->version = (int)v;
    ps->refused = 0;
}

/* "KEY: value" (s starts with the key, colon at s[klen]). */
static void header_line(parser_t *ps, char *s, size_t klen)
{
    char q[QUOTE_MAX + 4];
    ic_table_t *t = ps->t;
    s[klen] = 0;
    char *value = s + klen + 1;
    while (is_blank((unsigned char)*value))
        value++;
    if (ps->rules_seen) {
        report(ps, "header line '%s:' after the first rule (the header comes first); ignored",
               quote(q, s));
        t->skipped++;
        return;
    }
    const ic_table_kv_t *prev = header_find(t, s);
    if (prev) {
        report(ps, "header key '%s' repeats line %d; the first is kept", quote(q, s), prev->line);
        t->skipped++;
        return;
    }
    ic_table_header_t h;
    const char *why = NULL;
    if (header_value(&h, s, value, &why) != 0) {
        char qv[QUOTE_MAX + 4];
        report(ps, "%s: '%s': %s; ignored", quote(q, s), quote(qv, value), why);
        t->skipped++;
        return;
    }
    if (t->nkv >= IC_TABLE_HEADER_MAX) {
        if (!ps->header_full)
            report(ps, "more than %d header entries: this and later ones are ignored",
                   IC_TABLE_HEADER_MAX);
        ps->header_full = 1;
        t->skipped++;
        return;
    }
    if (header_append(t, s, value, ps->line) != 0)
        ps->oom = 1;
}

static void rule_line(parser_t *ps, char *s)
{
    ic_table_t *t = ps->t;
    char *f[6], q[QUOTE_MAX + 4];
    ic_table_rule_t r;
    memset(&r, 0, sizeof(r));
    r.line = ps->line;
    ps->rules_seen = 1;
    t->skipped++; /* until it is kept */
    int n = split(s, f, 6);
    if (n != 6) {
        report(ps, "expected 6 fields, COLL RANKS RPN BYTES OP PLAN, found %d", n);
        return;
    }
    if (ic_coll_find(f[0], &r.coll) != 0) {
        report(ps, "unknown collective '%s'", quote(q, f[0]));
        return;
    }
    uint64_t lo, hi;
    switch (parse_range(f[1], 0, &lo, &hi)) {
    case -1:
        report(ps, "ranks '%s': expected N, N-M, N-* or any", quote(q, f[1]));
        return;
    case -2:
        report(ps, "ranks '%s': more than %d ranks", quote(q, f[1]), IC_TABLE_RANKS_LIMIT);
        return;
    case -3:
        report(ps, "ranks range %s is empty", quote(q, f[1]));
        return;
    }
    if (lo < 1) {
        report(ps, "ranks '%s': a communicator has at least 1 rank", quote(q, f[1]));
        return;
    }
    r.ranks_lo = (int)lo;
    r.ranks_hi = (int)hi;
    if (strcmp(f[2], "any") != 0) {
        const char *d = f[2];
        int64_t v = digits(&d, IC_TABLE_RANKS_LIMIT);
        if (v < 1 || v > IC_TABLE_RANKS_LIMIT || *d) {
            report(ps, "ranks per node '%s': expected any or a positive number", quote(q, f[2]));
            return;
        }
        r.ranks_per_node = (int)v;
    }
    switch (parse_range(f[3], 1, &r.bytes_lo, &r.bytes_hi)) {
    case -1:
        report(ps, "bytes '%s': expected N, N-M, N-* or any (bytes; suffix K, M or G: 1K = 1024)",
               quote(q, f[3]));
        return;
    case -2:
        report(ps, "bytes '%s': more than 2^60 bytes", quote(q, f[3]));
        return;
    case -3:
        report(ps, "bytes range %s is empty", quote(q, f[3]));
        return;
    }
    int op = -1;
    for (int i = 0; i < 3; i++)
        if (!strcmp(f[4], op_names[i]))
            op = i;
    if (op < 0) {
        report(ps, "op '%s': expected any, commutative or noncommutative", quote(q, f[4]));
        return;
    }
    if (op != IC_TABLE_OP_ANY && !ic_coll_reduces(r.coll)) {
        report(ps, "op '%s' for %s: only reductions have an op (write any)", f[4],
               ic_coll_name(r.coll));
        return;
    }
    r.op = (ic_table_op_t)op;
    const char *why = NULL;
    if (ic_plan_parse(r.coll, f[5], &r.plan, &why) != 0) {
        report(ps, "plan '%s' for %s: %s", quote(q, f[5]), ic_coll_name(r.coll),
               why ? why : "not a plan");
        return;
    }
    if ((why = rule_never(&r)) != NULL) {
        report(ps, "%s", why);
        return;
    }
    if (t->nrules >= IC_TABLE_RULES_MAX) {
        if (!ps->rules_full)
            report(ps, "more than %d rules: this and later rules are ignored", IC_TABLE_RULES_MAX);
        ps->rules_full = 1;
        return;
    }
    if (append_rule(t, &r) != 0) {
        ps->oom = 1;
        return;
    }
    t->skipped--;
}

/* One line of len bytes at s (no '\n'). */
static void parse_line(parser_t *ps, const char *s, size_t len)
{
    const char *hash = memchr(s, '#', len);
    if (hash)
        len = (size_t)(hash - s);
    while (len && is_blank((unsigned char)s[len - 1]))
        len--;
    while (len && is_blank((unsigned char)*s))
        s++, len--;
    if (len == 0)
        return; /* blank, or a comment */
    const char *bad = NULL;
    char what[48];
    if (len > IC_TABLE_LINE_MAX) {
        snprintf(what, sizeof(what), "is longer than %d bytes before its comment",
                 IC_TABLE_LINE_MAX);
        bad = what;
    } else {
        for (size_t i = 0; i < len && !bad; i++) {
            unsigned char c = (unsigned char)s[i];
            if ((c < ' ' && !is_blank(c)) || c == 0x7f) {
                snprintf(what, sizeof(what), "holds the control byte 0x%02x", c);
                bad = what;
            }
        }
    }
    if (!ps->version) {
        if (bad) {
            report(ps,
                   "expected '" VERSION_WORD " %d' first, found a line that %s (not a tuning "
                   "table?); the file is ignored",
                   IC_TABLE_VERSION, bad);
            ps->refused = 1;
            return;
        }
    } else if (bad) {
        report(ps, "the line %s; ignored", bad);
        ps->t->skipped++;
        return;
    }
    char buf[IC_TABLE_LINE_MAX + 1];
    memcpy(buf, s, len);
    buf[len] = 0;
    if (!ps->version) {
        version_line(ps, buf);
        return;
    }
    size_t k = 0;
    while (is_key_char((unsigned char)buf[k]))
        k++;
    if (k > 0 && buf[k] == ':') {
        header_line(ps, buf, k);
        return;
    }
    if (k == strlen(VERSION_WORD) && !strncmp(buf, VERSION_WORD, k) &&
        is_blank((unsigned char)buf[k])) {
        report(ps, "a second version line; ignored");
        ps->t->skipped++;
        return;
    }
    rule_line(ps, buf);
}

ic_table_t *ic_table_new(const char *name)
{
    ic_table_t *t = calloc(1, sizeof(*t));
    if (!t)
        return NULL;
    t->name = dup_text(name ? name : "(table)");
    if (!t->name) {
        free(t);
        return NULL;
    }
    header_clear(&t->hdr);
    return t;
}

ic_table_t *ic_table_parse(const char *text, size_t len, const char *name, ic_table_diag_fn diag,
                           void *ctx)
{
    parser_t ps;
    memset(&ps, 0, sizeof(ps));
    ps.name = name ? name : "(table)";
    ps.diag = diag;
    ps.ctx = ctx;
    ps.t = ic_table_new(name);
    if (!ps.t) {
        ps.line = 1;
        report(&ps, "out of memory; the table is ignored");
        return NULL;
    }
    const char *s = text ? text : "", *end = s + (text ? len : 0);
    if (end - s >= 3 && !memcmp(s, "\xef\xbb\xbf", 3))
        s += 3; /* a UTF-8 byte order mark, as some editors write */
    while (s < end && !ps.refused && !ps.oom && ps.line < INT_MAX) {
        const char *nl = memchr(s, '\n', (size_t)(end - s));
        const char *e = nl ? nl : end;
        ps.line++;
        parse_line(&ps, s, (size_t)(e - s));
        s = nl ? nl + 1 : end;
    }
    if (!ps.version && !ps.refused && !ps.oom) {
        if (ps.line == 0)
            ps.line = 1;
        report(&ps, "no '" VERSION_WORD " %d' line (not a tuning table?); the file is ignored",
               IC_TABLE_VERSION);
        ps.refused = 1;
    }
    if (ps.oom) {
        report(&ps, "out of memory; the table is ignored");
        ps.refused = 1;
    }
    if (ps.refused) {
        ic_table_free(ps.t);
        return NULL;
    }
    ps.t->last_line = ps.line;
    unsigned long h = 1469598103UL; /* FNV-1a over the text */
    for (size_t i = 0; text && i < len; i++)
        h = (h ^ (unsigned char)text[i]) * 1099511628211UL;
    ps.t->hash = h ? h : 1;
    return ps.t;
}

unsigned long ic_table_hash(const ic_table_t *t)
{
    return t ? t->hash : 0;
}

int ic_table_read_file(const char *path, char **text, size_t *len, ic_table_diag_fn diag, void *ctx)
{
    char msg[MSG_MAX];
    *text = NULL;
    *len = 0;
    FILE *f = path ? fopen(path, "rb") : NULL;
    const char *why = NULL;
    char *buf = NULL;
    size_t n = 0, cap = 0;
    if (!f)
        why = strerror(path ? errno : EINVAL);
    while (f && !why) {
        if (n == cap) {
            cap = cap ? 2 * cap : 65536;
            if (cap > IC_TABLE_FILE_MAX + 1)
                cap = IC_TABLE_FILE_MAX + 1;
            char *b = realloc(buf, cap + 1);
            if (!b) {
                why = "out of memory";
                break;
            }
            buf = b;
        }
        size_t got = fread(buf + n, 1, cap - n, f);
        n += got;
        if (n > IC_TABLE_FILE_MAX) {
            snprintf(msg, sizeof(msg), "%s: larger than %zu bytes: not a tuning table; ignored",
                     path, IC_TABLE_FILE_MAX);
            why = msg;
        } else if (got == 0) {
            if (ferror(f))
                why = strerror(errno ? errno : EIO);
            break;
        }
    }
    if (f)
        fclose(f);
    if (why) {
        free(buf);
        if (why != msg) {
            char w[200];
            snprintf(w, sizeof(w), "%s", why);
            snprintf(msg, sizeof(msg), "%s: cannot read: %s", path ? path : "(null)", w);
        }
        if (diag)
            diag(ctx, msg);
        return -1;
    }
    if (!buf) {
        buf = malloc(1);
        if (!buf) {
            snprintf(msg, sizeof(msg), "%s: cannot read: out of memory", path);
            if (diag)
                diag(ctx, msg);
            return -1;
        }
    }
    buf[n] = 0;
    *text = buf;
    *len = n;
    return 0;
}

ic_table_t *ic_table_load(const char *path, ic_table_diag_fn diag, void *ctx)
{
    char *text;
    size_t len;
    if (ic_table_read_file(path, &text, &len, diag, ctx) != 0)
        return NULL;
    ic_table_t *t = ic_table_parse(text, len, path, diag, ctx);
    free(text);
    return t;
}

void ic_table_free(ic_table_t *t)
{
    if (!t)
        return;
    for (size_t i = 0; i < t->nkv; i++) {
        free(t->kv[i].key);
        free(t->kv[i].value);
    }
    free(t->kv);
    free(t->rules);
    free(t->name);
    free(t);
}

/* -------------------------------------------------------------- lookup */

int ic_table_lookup(const ic_table_t *t, const ic_coll_args_t *a, size_t bytes, int ranks_per_node,
                    ic_plan_t *plan)
{
    if (!t || !a)
        return 0;
    uint64_t b = (uint64_t)bytes;
    int reduces = ic_coll_reduces(a->coll);
    for (size_t i = 0; i < t->nrules; i++) {
        const ic_table_rule_t *r = &t->rules[i];
        if (r->coll != a->coll || a->size < r->ranks_lo || a->size > r->ranks_hi ||
            (r->ranks_per_node && r->ranks_per_node != ranks_per_node) || b < r->bytes_lo ||
            b > r->bytes_hi)
            continue;
        if (reduces && r->op != IC_TABLE_OP_ANY &&
            (r->op == IC_TABLE_OP_COMMUTATIVE) != (a->commutative != 0))
            continue;
        if (!ic_plan_usable(&r->plan, a, NULL))
            continue;
        *plan = r->plan;
        return r->line;
    }
    return 0;
}

/* ------------------------------------------------------- building one */

int ic_table_add_rule(ic_table_t *t, const ic_table_rule_t *r, const char **why)
{
    const char *dummy, *no = NULL;
    if (!why)
        why = &dummy;
    char text[IC_PLAN_TEXT_MAX];
    ic_plan_t back;
    if ((int)r->coll < 0 || r->coll >= IC_COLL_COUNT)
        no = "no such collective";
    else if (r->ranks_lo < 1 || r->ranks_lo > r->ranks_hi ||
             (r->ranks_hi > IC_TABLE_RANKS_LIMIT && r->ranks_hi != INT_MAX))
        no = "RANKS must be 1 <= lo <= hi <= 2^30 (or INT_MAX: no upper bound)";
    else if (r->ranks_per_node < 0 || r->ranks_per_node > IC_TABLE_RANKS_LIMIT)
        no = "RPN must be 0 (any) or a positive number of ranks";
    else if (r->bytes_lo > r->bytes_hi || r->bytes_lo > IC_TABLE_BYTES_LIMIT ||
             (r->bytes_hi > IC_TABLE_BYTES_LIMIT && r->bytes_hi != IC_TABLE_OPEN))
        no = "BYTES must be lo <= hi <= 2^60 (or IC_TABLE_OPEN)";
    else if ((int)r->op < 0 || r->op > IC_TABLE_OP_NONCOMMUTATIVE)
        no = "no such OP";
    else if (r->op != IC_TABLE_OP_ANY && !ic_coll_reduces(r->coll))
        no = "only reductions have an OP";
    else if (r->plan.coll != r->coll)
        no = "a plan of another collective";
    else if (r->plan.ndims < 0 || r->plan.ndims == 1 || r->plan.ndims > IC_PLAN_MAXDIMS)
        no = "not a plan (ndims)";
    /* the plan must be one its text gives back (what the writer relies on) */
    else if ((size_t)ic_plan_format(&r->plan, text, sizeof(text)) >= sizeof(text) ||
             ic_plan_parse(r->coll, text, &back, why) != 0 || !ic_plan_equal(&back, &r->plan))
        no = "the plan is not one its canonical text gives back";
    else
        no = rule_never(r);
    if (!no && t->nrules >= IC_TABLE_RULES_MAX)
        no = "the table has IC_TABLE_RULES_MAX rules";
    if (no) {
        *why = no;
        return -1;
    }
    ic_table_rule_t c = *r;
    c.plan = back;
    c.line = ++t->last_line;
    if (append_rule(t, &c) != 0) {
        t->last_line--;
        *why = "out of memory";
        return -1;
    }
    return 0;
}

int ic_table_set(ic_table_t *t, const char *key, const char *value, const char **why)
{
    const char *dummy;
    if (!why)
        why = &dummy;
    size_t k = 0;
    while (key && is_key_char((unsigned char)key[k]))
        k++;
    if (!key || k == 0 || key[k]) {
        *why = "a key is letters, digits, '-', '_' and '.'";
        return -1;
    }
    for (const char *v = value; v && *v; v++)
        if ((unsigned char)*v < ' ' || *v == 0x7f || *v == '#') {
            *why = "a value is one line of text without '#'";
            return -1;
        }
    if (!value || strlen(value) + k + 2 > IC_TABLE_LINE_MAX) {
        *why = value ? "the value is too long" : "no value";
        return -1;
    }
    /* blanks around the value would not survive writing and reading */
    if (*value &&
        (is_blank((unsigned char)value[0]) || is_blank((unsigned char)value[strlen(value) - 1]))) {
        *why = "a value does not start or end with a blank";
        return -1;
    }
    ic_table_header_t h;
    if (header_value(&h, key, value, why) != 0)
        return -1;
    ic_table_kv_t *e = header_find(t, key);
    if (e) {
        char *v = dup_text(value);
        if (!v) {
            *why = "out of memory";
            return -1;
        }
        free(e->value);
        e->value = v;
        header_refresh(t);
        return 0;
    }
    if (t->nkv >= IC_TABLE_HEADER_MAX) {
        *why = "the header has IC_TABLE_HEADER_MAX entries";
        return -1;
    }
    if (header_append(t, key, value, 0) != 0) {
        *why = "out of memory";
        return -1;
    }
    return 0;
}

/* ------------------------------------------------------------- writing */

int ic_table_write(const ic_table_t *t, FILE *f)
{
    int bad = fprintf(f, VERSION_WORD " %d\n", IC_TABLE_VERSION) < 0;
    for (size_t i = 0; i < t->nkv; i++)
        bad |=
            fprintf(f, "%s:%s%s\n", t->kv[i].key, *t->kv[i].value ? " " : "", t->kv[i].value) < 0;
    /* columns as wide as their widest entry */
    int w[5] = {6, 5, 3, 5, 2}; /* "# COLL" */
    fields_t fl;
    for (size_t i = 0; i < t->nrules; i++) {
        const ic_table_rule_t *r = &t->rules[i];
        rule_fields(r, &fl);
        int len[5] = {(int)strlen(ic_coll_name(r->coll)), (int)strlen(fl.ranks),
                      (int)strlen(fl.rpn), (int)strlen(fl.bytes), (int)strlen(op_names[r->op])};
        for (int k = 0; k < 5; k++)
            w[k] = len[k] > w[k] ? len[k] : w[k];
    }
    if (t->nrules)
        bad |= fprintf(f, "\n# %-*s %-*s %-*s %-*s %-*s %s\n", w[0] - 2, "COLL", w[1], "RANKS",
                       w[2], "RPN", w[3], "BYTES", w[4], "OP", "PLAN") < 0;
    for (size_t i = 0; i < t->nrules; i++) {
        const ic_table_rule_t *r = &t->rules[i];
        rule_fields(r, &fl);
        bad |= fprintf(f, "%-*s %-*s %-*s %-*s %-*s %s\n", w[0], ic_coll_name(r->coll), w[1],
                       fl.ranks, w[2], fl.rpn, w[3], fl.bytes, w[4], op_names[r->op], fl.plan) < 0;
    }
    bad |= fflush(f) != 0;
    return bad ? -1 : 0;
}

/* ----------------------------------------------------------- accessors */

const char *ic_table_name(const ic_table_t *t)
{
    return t->name;
}

size_t ic_table_rule_count(const ic_table_t *t)
{
    return t->nrules;
}

const ic_table_rule_t *ic_table_rule(const ic_table_t *t, size_t i)
{
    return i < t->nrules ? &t->rules[i] : NULL;
}

const ic_table_header_t *ic_table_header(const ic_table_t *t)
{
    return &t->hdr;
}

int ic_table_level(const ic_table_t *t)
{
    const ic_table_header_t *h = ic_table_header(t);
    if (isnan(h->alpha) && isnan(h->beta))
        return -1;
    return h->nodes == 1;
}

/* c takes measured terms (NaN: not measured), the rest derived for its
 * level as without a table; keep: the user's terms. */
void ic_cost_take(ic_cost_params_t *c, unsigned keep, int level, double alpha, double beta,
                  double gamma, double overhead, double beta_x, double x_min)
{
    if (!isnan(alpha) && !(keep & IC_KEEP_ALPHA))
        c->alpha = alpha;
    if (!isnan(beta) && !(keep & IC_KEEP_BETA))
        c->beta = beta;
    if (!isnan(gamma) && !(keep & IC_KEEP_GAMMA))
        c->gamma = gamma;
    ic_cost_params_t d = *c; /* the terms that follow from alpha and beta */
    ic_cost_derive(&d, level);
    if (!(keep & IC_KEEP_OVERHEAD))
        c->overhead = !isnan(overhead) ? overhead : d.overhead;
    if (!(keep & IC_KEEP_BETA_X))
        c->beta_x = !isnan(beta_x) ? beta_x : d.beta_x;
    if (!(keep & IC_KEEP_X_MIN))
        c->x_min = !isnan(x_min) ? (size_t)x_min : d.x_min;
}

void ic_table_model(const ic_table_t *t, unsigned keep, ic_cost_params_t *c)
{
    const ic_table_header_t *h = ic_table_header(t);
    int level = ic_table_level(t);
    if (level >= 0) {
        ic_cost_take(c, keep, level, h->alpha, h->beta, h->gamma, h->overhead, h->beta_x, h->x_min);
        c->links = h->links;
    }
}

int ic_table_node_model(const ic_table_t *t, unsigned keep, ic_cost_params_t *c)
{
    const ic_table_header_t *h = ic_table_header(t);
    if (ic_table_level(t) != 0 || (isnan(h->node_alpha) && isnan(h->node_beta)))
        return -1;
    ic_cost_take(c, keep, 1, h->node_alpha, h->node_beta, h->gamma, NAN, NAN, NAN);
    return 0;
}

size_t ic_table_header_count(const ic_table_t *t)
{
    return t->nkv;
}

int ic_table_header_entry(const ic_table_t *t, size_t i, const char **key, const char **value)
{
    if (i >= t->nkv)
        return -1;
    *key = t->kv[i].key;
    *value = t->kv[i].value;
    return 0;
}

const char *ic_table_get(const ic_table_t *t, const char *key)
{
    const ic_table_kv_t *e = header_find(t, key);
    return e ? e->value : NULL;
}

size_t ic_table_problems(const ic_table_t *t)
{
    return t->problems;
}

size_t ic_table_skipped(const ic_table_t *t)
{
    return t->skipped;
}

/* ------------------------------------------------------- where it is */

#ifndef IC_PKGDATADIR
#define IC_PKGDATADIR "/usr/local/share/intercom"
#endif

const char *ic_tuning_default_path(void)
{
    return IC_PKGDATADIR "/tuning.tbl";
}

const char *ic_tuning_path(char *buf, size_t len)
{
    const char *v = getenv("INTERCOM_TUNING_FILE");
    if (v) {
        if (!*v || strcmp(v, "none") == 0)
            return NULL;
        snprintf(buf, len, "%s", v);
        return buf;
    }
    FILE *f = fopen(ic_tuning_default_path(), "r");
    if (!f)
        return NULL;
    fclose(f);
    snprintf(buf, len, "%s", ic_tuning_default_path());
    return buf;
}
