/*
 * srv_copy_format.c: COPY FROM's input formats, as PostgreSQL's
 * copyfromparse.c reads them. The client's bytes come in chunks of any
 * size; srv_copy_lines_feed cuts them into lines (a CSV line ends only
 * outside quotes; the first line decides whether lines end in "\n" or
 * "\r\n"; a line "\." ends the data), and srv_copy_fields splits one line
 * into its fields: text format with its backslash escapes, or CSV with its
 * quote and escape characters; NULL where the field is the null string
 * (before de-escaping in text; unquoted in CSV, unless FORCE_NOT_NULL, or
 * quoted too with FORCE_NULL). Errors are 22P04 in PostgreSQL's words.
 */
#include "server/srv_copy.h"

#include <stdlib.h>
#include <string.h>

void srv_copy_lines_init(srv_copy_lines_t *l, const plan_copy_t *opt)
{
    memset(l, 0, sizeof *l);
    l->opt = opt;
    cm_buf_init(&l->pending, 0);
}

void srv_copy_lines_free(srv_copy_lines_t *l)
{
    cm_buf_free(&l->pending);
}

/* Where the line starting at p ends (the index of its '\n'), or -1 when it has not ended yet. */
static long srv__line_end(const srv_copy_lines_t *l, const uint8_t *p, size_t n)
{
    if (l->opt->format != PLAN_COPY_CSV) {
        const uint8_t *nl = memchr(p, '\n', n);
        return nl ? (long)(nl - p) : -1;
    }
    bool quoted = false;
    char q = l->opt->quote, e = l->opt->escape;
    for (size_t i = 0; i < n; i++) {
        char ch = (char)p[i];
        if (quoted && ch == e && e != q && i + 1 < n && (p[i + 1] == (uint8_t)q || p[i + 1] == (uint8_t)e)) {
            i++;
            continue;
        }
        if (ch == q)
            quoted = !quoted;
        else if (ch == '\n' && !quoted)
            return (long)i;
    }
    return -1;
}

/*
 * The next whole line of the input given so far (final: no more comes, so
 * what is left is a line too): true with *line / *len (without its end of
 * line); false when there is none yet, or on error (err set).
 */
static bool srv__next_line(srv_copy_lines_t *l, bool final, const uint8_t **line, size_t *len, cm_err_t *err)
{
    const uint8_t *p = l->pending.data + l->at;
    size_t n = l->pending.len - l->at;
    if (n == 0 || l->ended)
        return false;
    long end = srv__line_end(l, p, n);
    if (end < 0 && !final)
        return false;
    size_t k = end < 0 ? n : (size_t)end;
    l->at += end < 0 ? n : k + 1;
    l->lineno++;
    if (end >= 0) {
        /* The first line decides how lines end, as PostgreSQL's CopyReadLineText. */
        bool cr = k > 0 && p[k - 1] == '\r';
        if (l->eol == 0)
            l->eol = cr ? 2 : 1;
        if (l->eol == 2 && !cr)
            return cm_err_set(err, "22P04", "literal newline found in data"),
                   cm_err_set_hint(err, "Use \"\\n\" to represent newline."), false;
        if (cr)
            k--;
    }
    /* A carriage return inside a line is an error whichever way lines end: PostgreSQL's "\r\n"
     * lines take one only right before their "\n". */
    if (l->opt->format != PLAN_COPY_CSV && l->eol != 0 && memchr(p, '\r', k) != NULL)
        return cm_err_set(err, "22P04", "literal carriage return found in data"),
               cm_err_set_hint(err, "Use \"\\r\" to represent carriage return."), false;
    if (k == 2 && p[0] == '\\' && p[1] == '.') {
        l->ended = true;   /* the end-of-data marker: anything after it is ignored */
        return false;
    }
    *line = p;
    *len = k;
    return true;
}

bool srv_copy_lines_next(srv_copy_lines_t *l, bool final, const uint8_t **line, size_t *len, cm_err_t *err)
{
    bool got = srv__next_line(l, final, line, len, err);
    if (!got && !err->set && l->at > 0 && l->at == l->pending.len) {
        l->pending.len = 0;   /* every byte consumed: the buffer starts again */
        l->at = 0;
    }
    return got;
}

void srv_copy_lines_feed(srv_copy_lines_t *l, const uint8_t *p, size_t n)
{
    /* Bytes of lines already handed out go first, so the buffer holds one partial line at most. */
    if (l->at > 0) {
        memmove(l->pending.data, l->pending.data + l->at, l->pending.len - l->at);
        l->pending.len -= l->at;
        l->at = 0;
    }
    if (!l->ended)
        cm_buf_put(&l->pending, p, n);
}

/* ------------------------------------------------------------ fields */

static int srv__hex(int ch)
{
    return ch >= '0' && ch <= '9' ? ch - '0' : ch >= 'a' && ch <= 'f' ? ch - 'a' + 10
                                             : ch >= 'A' && ch <= 'F' ? ch - 'A' + 10 : -1;
}

static void srv__field_grow(srv_copy_fields_t *f)
{
    f->cap = f->cap ? 2 * f->cap : 16;
    f->start = cm_realloc(f->start, sizeof *f->start * (size_t)f->cap);
    f->len = cm_realloc(f->len, sizeof *f->len * (size_t)f->cap);
    f->isnull = cm_realloc(f->isnull, sizeof *f->isnull * (size_t)f->cap);
    f->quoted = cm_realloc(f->quoted, sizeof *f->quoted * (size_t)f->cap);
}

static void srv__field_add(srv_copy_fields_t *f, size_t start, bool isnull)
{
    if (f->n == f->cap)
        srv__field_grow(f);
    f->start[f->n] = start;
    f->len[f->n] = f->text.len - start;
    f->isnull[f->n] = isnull;
    f->quoted[f->n] = false;
    f->n++;
    cm_buf_put_u8(&f->text, 0);   /* each field NUL-terminated for messages */
}

/* Text format (CopyReadAttributesText): the null string is matched before de-escaping. The
 * de-escaped text is never longer than the line, and each field adds its NUL: room for all of it
 * is made first, then the bytes go in directly. */
static void srv__fields_text(const plan_copy_t *o, const uint8_t *p, size_t n, srv_copy_fields_t *f)
{
    size_t i = 0, nlen = strlen(o->null_string);
    uint8_t delim = (uint8_t)o->delimiter;
    if (!cm_buf_reserve(&f->text, 2 * n + 1))
        return;
    uint8_t *t = f->text.data;
    size_t len = f->text.len;
    for (;;) {
        size_t raw = i, start = len;
        while (i < n && p[i] != delim) {
            uint8_t ch = p[i++];
            if (ch != '\\' || i >= n) {
                t[len++] = ch;
                continue;
            }
            ch = p[i++];
            switch (ch) {
            case 'b': ch = '\b'; break;
            case 'f': ch = '\f'; break;
            case 'n': ch = '\n'; break;
            case 'r': ch = '\r'; break;
            case 't': ch = '\t'; break;
            case 'v': ch = '\v'; break;
            case 'x':
                if (i < n && srv__hex(p[i]) >= 0) {
                    int v = srv__hex(p[i++]);
                    if (i < n && srv__hex(p[i]) >= 0)
                        v = v * 16 + srv__hex(p[i++]);
                    ch = (uint8_t)v;
                }
                break;
            default:
                if (ch >= '0' && ch <= '7') {
                    int v = ch - '0';
                    for (int k = 0; k < 2 && i < n && p[i] >= '0' && p[i] <= '7'; k++)
                        v = v * 8 + (p[i++] - '0');
                    ch = (uint8_t)v;
                }
                break;
            }
            t[len++] = ch;
        }
        if (f->n == f->cap)
            srv__field_grow(f);
        f->start[f->n] = start;
        f->len[f->n] = len - start;
        f->isnull[f->n] = i - raw == nlen && memcmp(p + raw, o->null_string, nlen) == 0;
        f->quoted[f->n] = false;
        f->n++;
        t[len++] = 0;   /* each field NUL-terminated for messages */
        f->text.len = len;
        if (i >= n)
            return;
        i++;   /* the delimiter */
    }
}

/* CSV (CopyReadAttributesCSV). */
static bool srv__fields_csv(const plan_copy_t *o, const uint8_t *p, size_t n, srv_copy_fields_t *f, cm_err_t *err)
{
    size_t i = 0, nlen = strlen(o->null_string);
    uint8_t q = (uint8_t)o->quote, e = (uint8_t)o->escape, d = (uint8_t)o->delimiter;
    for (;;) {
        size_t start = f->text.len;
        bool quoted = false, in_quote = false;
        while (i < n) {
            uint8_t ch = p[i];
            if (!in_quote && ch == d)
                break;
            i++;
            if (in_quote) {
                if (ch == e && i < n && (p[i] == q || p[i] == e) && !(e == q && p[i] != q)) {
                    cm_buf_put_u8(&f->text, p[i++]);
                    continue;
                }
                if (ch == q) {
                    in_quote = false;
                    continue;
                }
            } else if (ch == q) {
                in_quote = quoted = true;
                continue;
            }
            cm_buf_put_u8(&f->text, ch);
        }
        if (in_quote)
            return cm_err_set(err, "22P04", "unterminated CSV quoted field");
        size_t len = f->text.len - start;
        bool matches = len == nlen && memcmp(f->text.data + start, o->null_string, nlen) == 0;
        int k = f->n;
        bool isnull = matches && !quoted;
        if (o->force_not_null && k < o->ncols && o->force_not_null[k])
            isnull = false;
        if (o->force_null && k < o->ncols && o->force_null[k] && matches)
            isnull = true;
        srv__field_add(f, start, isnull);
        f->quoted[k] = quoted;
        if (i >= n)
            return true;
        i++;   /* the delimiter */
    }
}

bool srv_copy_fields(const plan_copy_t *o, const uint8_t *line, size_t len, srv_copy_fields_t *f, cm_err_t *err)
{
    f->n = 0;
    cm_buf_reset(&f->text);
    if (o->format == PLAN_COPY_CSV)
        return srv__fields_csv(o, line, len, f, err);
    srv__fields_text(o, line, len, f);
    return true;
}

void srv_copy_fields_free(srv_copy_fields_t *f)
{
    cm_buf_free(&f->text);
    free(f->start);
    free(f->len);
    free(f->isnull);
    free(f->quoted);
    memset(f, 0, sizeof *f);
}
