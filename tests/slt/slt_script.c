/*
 * slt_script.c: reads a sqllogictest script into records, with the reference
 * runner's reading rules: a trailing \r is dropped, a line of spaces is blank,
 * a line starting with '#' is invisible (it neither ends nor belongs to a
 * record), records are separated by blank lines, and a record may start with
 * any number of `skipif ENGINE` / `onlyif ENGINE` lines. The engine names
 * compare case-insensitively. Nothing runs here; slt_main.c runs the records.
 */
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

#include "slt.h"

typedef struct {
    char *s;              /* the line, NUL-terminated in place */
    int no;               /* 1-based line number */
} slt__line_t;

static void *slt__xrealloc(void *p, size_t n)
{
    void *q = realloc(p, n ? n : 1);
    if (!q) {
        fprintf(stderr, "slt: out of memory\n");
        exit(2);
    }
    return q;
}

static char *slt__xstrdup(const char *s)
{
    size_t n = strlen(s);
    char *d = slt__xrealloc(NULL, n + 1);
    memcpy(d, s, n + 1);
    return d;
}

/* Splits LINE into at most 4 whitespace-separated tokens (the reference reads
 * no more than that from a header line), each cut to TOKMAX-1 bytes. */
enum { SLT__TOKMAX = 200 };
static int slt__tokens(const char *line, char tok[4][SLT__TOKMAX])
{
    int n = 0;
    const char *p = line;
    for (int i = 0; i < 4; i++)
        tok[i][0] = 0;
    while (n < 4) {
        while (*p && isspace((unsigned char)*p))
            p++;
        if (!*p)
            break;
        const char *b = p;
        while (*p && !isspace((unsigned char)*p))
            p++;
        size_t len = (size_t)(p - b);
        if (len >= SLT__TOKMAX)
            len = SLT__TOKMAX - 1;
        memcpy(tok[n], b, len);
        tok[n][len] = 0;
        n++;
    }
    return n;
}

static char *slt__join(slt__line_t *lines, int from, int to)
{
    size_t len = 0;
    for (int i = from; i < to; i++)
        len += strlen(lines[i].s) + 1;
    char *out = slt__xrealloc(NULL, len + 1), *p = out;
    for (int i = from; i < to; i++) {
        if (i > from)
            *p++ = '\n';
        size_t n = strlen(lines[i].s);
        memcpy(p, lines[i].s, n);
        p += n;
    }
    *p = 0;
    return out;
}

static bool slt__parse_hash_line(const char *s, int *n, char md5[33])
{
    int count, used = 0;
    char h[33];
    if (sscanf(s, "%d values hashing to %32s%n", &count, h, &used) != 2)
        return false;
    if (s[used] != 0 || strlen(h) != 32)
        return false;
    *n = count;
    memcpy(md5, h, 33);
    return true;
}

/* Builds one record from the block of visible lines B[0..n). */
static void slt__record(slt__line_t *b, int n, const char *engine, slt_rec_t *r)
{
    char tok[4][SLT__TOKMAX];
    int i = 0;
    memset(r, 0, sizeof *r);
    for (; i < n; i++) {
        slt__tokens(b[i].s, tok);
        bool cond_skip = strcmp(tok[0], "skipif") == 0, cond_only = strcmp(tok[0], "onlyif") == 0;
        if (!cond_skip && !cond_only)
            break;
        bool match = strcasecmp(tok[1], engine) == 0;
        if ((cond_skip && match) || (cond_only && !match))
            r->skip = true;
    }
    if (i == n) {           /* only conditions: nothing to run */
        r->kind = SLT_REC_UNKNOWN;
        r->line = b[n - 1].no;
        r->sql = slt__xstrdup("");
        return;
    }
    r->line = b[i].no;
    slt__tokens(b[i].s, tok);
    if (strcmp(tok[0], "statement") == 0) {
        r->kind = SLT_REC_STATEMENT;
        if (strcmp(tok[1], "error") == 0)
            r->expect_error = true;
        else if (strcmp(tok[1], "ok") != 0)
            r->bad_header = true;
        r->sql = slt__join(b, i + 1, n);
    } else if (strcmp(tok[0], "query") == 0) {
        r->kind = SLT_REC_QUERY;
        r->types = slt__xstrdup(tok[1]);
        if (!tok[1][0] || strspn(tok[1], "ITR") != strlen(tok[1]))
            r->bad_header = true;
        if (!tok[2][0] || strcmp(tok[2], "nosort") == 0)
            r->sort = SLT_SORT_NONE;
        else if (strcmp(tok[2], "rowsort") == 0)
            r->sort = SLT_SORT_ROW;
        else if (strcmp(tok[2], "valuesort") == 0)
            r->sort = SLT_SORT_VALUE;
        else
            r->bad_header = true;
        snprintf(r->label, sizeof r->label, "%.20s", tok[3]);
        int sep = i + 1;
        while (sep < n && strcmp(b[sep].s, "----") != 0)
            sep++;
        r->sql = slt__join(b, i + 1, sep);
        if (sep < n) {
            r->has_expect = true;
            int nv = n - sep - 1;
            if (nv == 1 && slt__parse_hash_line(b[sep + 1].s, &r->expect_n, r->expect_md5)) {
                r->expect_hashed = true;
            } else {
                r->expect_n = nv;
                r->expect_vals = slt__xrealloc(NULL, sizeof(char *) * (size_t)(nv ? nv : 1));
                for (int k = 0; k < nv; k++)
                    r->expect_vals[k] = b[sep + 1 + k].s;
            }
        }
    } else if (strcmp(tok[0], "hash-threshold") == 0) {
        r->kind = SLT_REC_THRESHOLD;
        r->threshold = atoi(tok[1]);
        r->sql = slt__xstrdup("");
    } else if (strcmp(tok[0], "halt") == 0) {
        r->kind = SLT_REC_HALT;
        r->sql = slt__xstrdup("");
    } else {
        r->kind = SLT_REC_UNKNOWN;
        r->sql = slt__xstrdup(b[i].s);
    }
}

bool slt_script_read(const char *path, const char *engine, slt_script_t *out, char *err, size_t errlen)
{
    memset(out, 0, sizeof *out);
    FILE *f = fopen(path, "rb");
    if (!f) {
        snprintf(err, errlen, "%s: %s", path, strerror(errno));
        return false;
    }
    size_t cap = 1 << 16, len = 0;
    char *text = slt__xrealloc(NULL, cap);
    size_t got;
    while ((got = fread(text + len, 1, cap - len - 1, f)) > 0) {
        len += got;
        if (cap - len - 1 == 0) {
            cap *= 2;
            text = slt__xrealloc(text, cap);
        }
    }
    bool ioerr = ferror(f);
    fclose(f);
    if (ioerr) {
        free(text);
        snprintf(err, errlen, "%s: read error", path);
        return false;
    }
    text[len] = 0;
    out->text = text;

    /* Lines, with comments dropped and blank lines kept as separators (s = NULL). */
    int nlines = 0, lcap = 1024;
    slt__line_t *lines = slt__xrealloc(NULL, sizeof *lines * (size_t)lcap);
    char *p = text;
    int no = 0;
    while (p < text + len) {
        char *e = memchr(p, '\n', (size_t)(text + len - p));
        char *next = e ? e + 1 : text + len;
        if (!e)
            e = text + len;
        *e = 0;
        if (e > p && e[-1] == '\r')
            e[-1] = 0;
        no++;
        char *q = p;
        while (*q && isspace((unsigned char)*q))
            q++;
        if (*p != '#') {
            if (nlines == lcap) {
                lcap *= 2;
                lines = slt__xrealloc(lines, sizeof *lines * (size_t)lcap);
            }
            lines[nlines].s = *q ? p : NULL;
            lines[nlines].no = no;
            nlines++;
        }
        p = next;
    }

    int rcap = 256;
    out->recs = slt__xrealloc(NULL, sizeof *out->recs * (size_t)rcap);
    for (int i = 0; i < nlines;) {
        if (!lines[i].s) {
            i++;
            continue;
        }
        int j = i;
        while (j < nlines && lines[j].s)
            j++;
        if (out->nrecs == rcap) {
            rcap *= 2;
            out->recs = slt__xrealloc(out->recs, sizeof *out->recs * (size_t)rcap);
        }
        slt__record(lines + i, j - i, engine, &out->recs[out->nrecs++]);
        i = j;
    }
    free(lines);
    return true;
}

void slt_script_free(slt_script_t *s)
{
    for (int i = 0; i < s->nrecs; i++) {
        free(s->recs[i].sql);
        free(s->recs[i].types);
        free(s->recs[i].expect_vals);
    }
    free(s->recs);
    free(s->text);
    memset(s, 0, sizeof *s);
}
