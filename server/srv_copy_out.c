/*
 * srv_copy_out.c: COPY ... TO STDOUT's output. The statement is a query
 * (pln_copy.c) whose rows, instead of DataRow messages, go out as one
 * CopyData message per line in PostgreSQL's text or CSV format
 * (CopyAttributeOutText / CopyAttributeOutCSV in its copyto.c): after a
 * CopyOutResponse (and the header line), before CopyDone and "COPY n".
 */
#include "server/srv_exec_int.h"

#include <string.h>

/* A text-format field: backslash escapes for the control characters, the backslash and the delimiter. */
static void srv__copy_text(cm_buf_t *b, const char *p, size_t n, char delim)
{
    size_t from = 0;   /* p[from..i) needs no escape: put in one go */
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        const char *esc = NULL;
        char two[2] = {'\\', c};
        switch (c) {
        case '\b': esc = "\\b"; break;
        case '\f': esc = "\\f"; break;
        case '\n': esc = "\\n"; break;
        case '\r': esc = "\\r"; break;
        case '\t': esc = "\\t"; break;
        case '\v': esc = "\\v"; break;
        case '\\': esc = "\\\\"; break;
        default: break;
        }
        if (esc == NULL && c != delim)
            continue;
        cm_buf_put(b, p + from, i - from);
        if (esc != NULL)
            cm_buf_put(b, esc, 2);
        else
            cm_buf_put(b, two, 2);
        from = i + 1;
    }
    cm_buf_put(b, p + from, n - from);
}

/* A CSV field: quoted when asked to, when it reads as the NULL string, holds the delimiter, the
 * quote or a line end, or is "\." alone on its line; inside quotes, quote and escape are escaped. */
static void srv__copy_csv(cm_buf_t *b, const char *p, size_t n, const plan_copy_t *cp, bool force, bool single)
{
    bool quote = force || (strlen(cp->null_string) == n && (n == 0 || memcmp(p, cp->null_string, n) == 0)) ||
                 (single && n == 2 && p[0] == '\\' && p[1] == '.');
    for (size_t i = 0; !quote && i < n; i++)
        quote = p[i] == cp->delimiter || p[i] == cp->quote || p[i] == '\n' || p[i] == '\r';
    if (!quote) {
        cm_buf_put(b, p, n);
        return;
    }
    cm_buf_put(b, &cp->quote, 1);
    size_t from = 0;
    for (size_t i = 0; i < n; i++)
        if (p[i] == cp->quote || p[i] == cp->escape) {
            cm_buf_put(b, p + from, i - from);
            cm_buf_put(b, &cp->escape, 1);
            from = i;
        }
    cm_buf_put(b, p + from, n - from);
    cm_buf_put(b, &cp->quote, 1);
}

static void srv__copy_field(cm_buf_t *b, const char *p, size_t n, const plan_copy_t *cp, int col, int ncols)
{
    if (cp->format == PLAN_COPY_CSV)
        srv__copy_csv(b, p, n, cp, cp->force_quote != NULL && cp->force_quote[col], ncols == 1);
    else
        srv__copy_text(b, p, n, cp->delimiter);
}

void srv_copy_out_begin(cm_buf_t *out, const pln_stmt_t *st)
{
    const plan_copy_t *cp = st->copy_to;
    size_t at = srv_msg_begin(out, 'H');
    cm_buf_put_u8(out, 0);   /* text, overall and per column */
    cm_buf_put_be16(out, (uint16_t)st->ncols);
    for (int i = 0; i < st->ncols; i++)
        cm_buf_put_be16(out, 0);
    srv_msg_finish(out, at);
    if (cp->header == PLAN_COPY_HEADER_NONE)
        return;
    at = srv_msg_begin(out, 'd');
    for (int i = 0; i < st->ncols; i++) {
        if (i > 0)
            cm_buf_put(out, &cp->delimiter, 1);
        const char *name = st->cols[i].name ? st->cols[i].name : "?column?";
        if (cp->format == PLAN_COPY_CSV)
            srv__copy_csv(out, name, strlen(name), cp, false, st->ncols == 1);
        else
            srv__copy_text(out, name, strlen(name), cp->delimiter);
    }
    cm_buf_put_u8(out, '\n');
    srv_msg_finish(out, at);
}

bool srv_copy_out_row(srv_sink_t *k, cm_buf_t *b, const ty_datum_t *row, int ncols)
{
    const plan_copy_t *cp = k->copy;
    cm_buf_t text;
    cm_buf_init(&text, 0);
    size_t at = srv_msg_begin(b, 'd');
    bool ok = true;
    for (int i = 0; ok && i < ncols; i++) {
        if (i > 0)
            cm_buf_put(b, &cp->delimiter, 1);
        if (row[i].isnull) {
            cm_buf_put_str(b, cp->null_string);
            continue;
        }
        cm_buf_reset(&text);
        ok = ty_datum_to_text(k->types[i], &row[i], k->ctx, &text);
        if (ok)
            srv__copy_field(b, (const char *)text.data, text.len, cp, i, ncols);
    }
    cm_buf_put_u8(b, '\n');
    srv_msg_finish(b, at);
    cm_buf_free(&text);
    return ok;
}

void srv_copy_out_end(cm_buf_t *out)
{
    srv_put_empty_message(out, 'c');
}
