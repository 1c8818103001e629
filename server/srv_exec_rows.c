/*
 * srv_exec_rows.c: result rows: the sink that writes a statement's rows as
 * DataRow messages in text or binary (and keeps those beyond an Execute's row
 * limit in the portal), the completion that follows them (CommandComplete or
 * PortalSuspended), and a suspended portal that goes on from its kept rows.
 */
#include "server/srv_exec_int.h"
#include "server/srv_metrics.h"

#include <stdio.h>
#include <string.h>

bool srv__row_cb(void *arg, const ty_datum_t *row, int ncols)
{
    srv_sink_t *k = arg;
    /* COPY TO has no row limit: Execute's applies to rows, and its rows are COPY data. */
    cm_buf_t *b = k->copy == NULL && k->limit > 0 && k->n >= (uint64_t)k->limit ? k->spill : k->out;
    if (k->copy != NULL) {
        if (!srv_copy_out_row(k, b, row, ncols))
            return false;
    } else {
        size_t at = srv_data_row_begin(b, ncols);
        for (int i = 0; i < ncols; i++) {
            if (row[i].isnull) {
                srv_data_row_null(b);
                continue;
            }
            size_t v = srv_data_row_value_begin(b);
            bool ok = k->formats != NULL && k->formats[i] == 1
                          ? ty_datum_to_binary(k->types[i], &row[i], k->ctx, b)
                          : ty_datum_to_text(k->types[i], &row[i], k->ctx, b);
            if (!ok)
                return false;
            srv_data_row_value_finish(b, v);
        }
        srv_msg_finish(b, at);
    }
    k->n++;
    size_t pending = b->len;
    if (k->c != NULL && b == &k->c->out) {
        if (b->len >= SRV_FLUSH_BYTES)
            srv_conn_flush(k->c);
        pending = k->c->out.len + k->c->wbuf.len;
    }
    if (pending > k->max || b->failed)
        return cm_err_set(k->ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "result exceeds the per-connection limit of %zu unsent bytes", k->max);
    return true;
}

/* The tag of a row-returning statement when it is not "SELECT n": "SHOW", "EXPLAIN" (NULL: SELECT n). */
const char *srv__rows_tag(const pln_stmt_t *st)
{
    if (st->kind == PLN_SHOW)
        return "SHOW";
    if (st->kind == PLN_QUERY && st->copy_to != NULL)
        return "COPY";
    /* Only a query's own tag: a portal over EXECUTE keeps the tag of the statement it ran. */
    return st->kind == PLN_QUERY && st->tag != NULL && strcmp(st->tag, "EXPLAIN") == 0 ? st->tag : NULL;
}

void srv__complete(srv_conn_t *c, const char *tag)
{
    srv_metrics_query(tag);
    srv_put_command_complete(&c->out, tag);
}

/*
 * The end of an Execute or Query that returned rows: PortalSuspended when the
 * row limit was reached (even if no row is left, as PostgreSQL cannot know
 * either), else CommandComplete: "SHOW", or "SELECT n".
 */
void srv__complete_rows(srv_conn_t *c, srv_portal_t *portal, int32_t max_rows, uint64_t emitted,
                        const char *fixed)
{
    bool copy = fixed != NULL && strcmp(fixed, "COPY") == 0;
    if (copy) {
        /* "COPY n" after CopyDone, whatever Execute's row limit said. */
        srv_copy_out_end(&c->out);
        if (portal != NULL)
            portal->done = true;
        char tag[32];
        snprintf(tag, sizeof tag, "COPY %llu", (unsigned long long)emitted);
        srv__complete(c, tag);
        return;
    }
    if (portal != NULL && max_rows > 0 && emitted >= (uint64_t)max_rows) {
        srv_put_empty_message(&c->out, 's');
        return;
    }
    if (portal != NULL)
        portal->done = true;
    if (fixed != NULL) {
        srv__complete(c, fixed);
        return;
    }
    /* "SELECT n", written by hand: snprintf costs more than the rest of a SELECT 1. */
    char tag[32] = "SELECT ";
    char digits[24];
    int nd = 0;
    do {
        digits[nd++] = (char)('0' + emitted % 10);
        emitted /= 10;
    } while (emitted > 0);
    int at = 7;
    while (nd > 0)
        tag[at++] = digits[--nd];
    tag[at] = 0;
    srv__complete(c, tag);
}

/* A suspended portal continues from the rows it kept. */
static void srv__portal_continue(srv_conn_t *c, srv_portal_t *p, int32_t max_rows)
{
    uint64_t n = 0;
    while (p->rows_off < p->rows.len && (max_rows == 0 || n < (uint64_t)max_rows)) {
        size_t len = 1 + srv_be32_at(p->rows.data + p->rows_off + 1, 0);
        cm_buf_put(&c->out, p->rows.data + p->rows_off, len);
        p->rows_off += len;
        n++;
    }
    if (p->rows_off >= p->rows.len) {
        p->rows.len = p->rows_off = 0;
        cm_buf_shrink(&p->rows, 0);
    }
    srv__complete_rows(c, p, max_rows, n, srv__rows_tag(p->stmt->plan));
}

/* A portal that ran before: the rows it kept, or an empty completion once it is done. */
bool srv__portal_resume(srv_conn_t *c, srv_portal_t *p, int32_t max_rows)
{
    if (p == NULL || !p->started)
        return false;
    if (p->done)
        srv__complete(c, srv__rows_tag(p->stmt->plan) ? srv__rows_tag(p->stmt->plan) : "SELECT 0");
    else
        srv__portal_continue(c, p, max_rows);
    return true;
}
