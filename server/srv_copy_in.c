/*
 * srv_copy_in.c: COPY t [(cols)] FROM STDIN over the CopyIn sub-protocol.
 * The statement answers CopyInResponse; the connection keeps reading, and
 * each CopyData's bytes are cut into lines (srv_copy_format.c) and turned
 * into rows as they come, on the loop: each field through its column's type
 * input, DEFAULT for the columns the input lacks, then NOT NULL and CHECK,
 * with PostgreSQL's messages and CONTEXT ("COPY t, line 3, column b: ...").
 * The rows are held until CopyDone (the write is one step: all or nothing),
 * within --copy-max-bytes of input and --txn-write-rows-max rows; then,
 * off the loop, one Write (or, inside a transaction, a check of their keys
 * and the transaction keeps them). CopyFail ends it with 57014. Flush and
 * Sync are ignored meanwhile; any other message is an 08P01 error and then
 * the connection ends (FATAL 08P01), as in PostgreSQL.
 *
 * PostgreSQL checks NOT NULL and CHECK row by row but the keys of its rows
 * in batches of 1000 (its multi-insert buffer; also flushed at 64 kB, which
 * eddy does not copy); here the keys are checked at the end, so when a row
 * fails, the rows of the batches before it are checked first, and when a
 * key is broken, the first row that broke it is found by checking prefixes
 * (a binary search of check-only Writes): that error is the answer, with
 * its line, as PostgreSQL reports it.
 */
#include "server/srv_copy.h"
#include "server/srv_exec_int.h"

#include <stdlib.h>
#include <string.h>

#define SRV_COPY_SHOW_MAX 100   /* PostgreSQL's MAX_COPY_DATA_DISPLAY: longer text in a CONTEXT is cut */
#define SRV_COPY_BATCH 1000     /* PostgreSQL's MAX_BUFFERED_TUPLES: rows it inserts (checking keys) at once */

struct srv_copy_in {
    const plan_write_t *w;
    srv_wtxn_t *tx;
    srv_copy_lines_t lines;
    srv_copy_fields_t fields;
    cm_arena_t arena;            /* the rows */
    ty_datum_t **rows;
    int64_t *linenos;
    int n, cap;
    size_t bytes;
    bool *given;                 /* per table column: the input has it */
    ty_ctx_t ctx;                /* for every line: the session's settings as the COPY began */
    /* Streaming (a table without a key, outside a transaction: nothing to check against the
     * rows later): each row goes into its worker's section of the Write as it is read, not kept
     * as datums. */
    bool stream;
    df_write_shards_t *shards;
    cm_arena_t line;             /* one line's values while streaming */
    bool header_done;
    bool failed;                 /* err is the answer, unless an earlier row broke a key */
    cm_err_t err;
};

static void srv__copy_free(struct srv_copy_in *cp)
{
    if (cp == NULL)
        return;
    srv_copy_lines_free(&cp->lines);
    srv_copy_fields_free(&cp->fields);
    cm_arena_free(&cp->arena);
    cm_arena_free(&cp->line);
    df_write_shards_free(cp->shards);
    free(cp->rows);
    free(cp->linenos);
    free(cp->given);
    cm_err_clear(&cp->err);
    free(cp);
}

void srv_copy_in_conn_free(srv_conn_t *c)
{
    srv__copy_free(c->copy);
    c->copy = NULL;
}

/* "COPY t, line 3: "..."" (text NULL: no text), the text cut as PostgreSQL cuts it. */
static void srv__context(cm_err_t *err, const plan_write_t *w, int64_t line, const char *column, const char *text,
                         size_t len)
{
    if (!err->set || err->context != NULL)
        return;
    int show = len > SRV_COPY_SHOW_MAX ? SRV_COPY_SHOW_MAX : (int)len;
    const char *more = len > SRV_COPY_SHOW_MAX ? "..." : "";
    if (column != NULL)
        cm_err_set_context(err, "COPY %s, line %lld, column %s: \"%.*s%s\"", w->name, (long long)line, column, show,
                           text, more);
    else if (text != NULL)
        cm_err_set_context(err, "COPY %s, line %lld: \"%.*s%s\"", w->name, (long long)line, show, text, more);
    else
        cm_err_set_context(err, "COPY %s, line %lld", w->name, (long long)line);
}

/* HEADER MATCH: the first line's fields must be the copied columns' names. */
static bool srv__header(const plan_write_t *w, const srv_copy_fields_t *f, cm_err_t *err)
{
    const plan_copy_t *o = w->copy;
    if (f->n != o->ncols)
        return cm_err_set(err, "22P04", "wrong number of fields in header line: got %d, expected %d", f->n,
                          o->ncols);
    for (int i = 0; i < f->n; i++) {
        const char *want = w->cols[o->cols[i]].name;
        const char *got = (const char *)f->text.data + f->start[i];
        if (f->isnull[i])
            return cm_err_set(err, "22P04",
                              "column name mismatch in header line field %d: got null value (\"%s\"), expected \"%s\"",
                              i + 1, o->null_string, want);
        if (strcmp(got, want) != 0)
            return cm_err_set(err, "22P04", "column name mismatch in header line field %d: got \"%s\", expected \"%s\"",
                              i + 1, got, want);
    }
    return true;
}

/* One input line: a row, converted and checked, kept in cp (false: err set, with its CONTEXT). */
static bool srv__copy_line(srv_conn_t *c, struct srv_copy_in *cp, const uint8_t *line, size_t len, cm_err_t *err)
{
    const plan_write_t *w = cp->w;
    const plan_copy_t *o = w->copy;
    int64_t lineno = cp->lines.lineno;
    const char *text = (const char *)line;
    if (!srv_copy_fields(o, line, len, &cp->fields, err))
        return srv__context(err, w, lineno, NULL, text, len), false;
    srv_copy_fields_t *f = &cp->fields;
    if (!cp->header_done && o->header != PLAN_COPY_HEADER_NONE) {
        cp->header_done = true;
        if (o->header == PLAN_COPY_HEADER_MATCH && !srv__header(w, f, err))
            return srv__context(err, w, lineno, NULL, text, len), false;
        return true;
    }
    cp->header_done = true;
    /* An empty line is one empty field, as PostgreSQL reads it (so a table of one column gets ""). */
    if (f->n > o->ncols)
        return cm_err_set(err, "22P04", "extra data after last expected column"),
               srv__context(err, w, lineno, NULL, text, len), false;
    if (f->n < o->ncols)
        return cm_err_set(err, "22P04", "missing data for column \"%s\"", w->cols[o->cols[f->n]].name),
               srv__context(err, w, lineno, NULL, text, len), false;
    if ((int64_t)cp->n >= c->lp->srv->cfg.txn_write_rows_max)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a COPY may write at most %lld rows",
                          (long long)c->lp->srv->cfg.txn_write_rows_max),
               srv__context(err, w, lineno, NULL, NULL, 0), false;
    ty_ctx_t ctx = cp->ctx;
    ctx.err = err;
    if (cp->stream) {
        cm_arena_reset(&cp->line);
        ctx.arena = &cp->line;
    }
    /* Streaming, a line's row lives while the line does; otherwise it is kept until CopyDone. */
    ty_datum_t *row = cm_arena_zalloc(cp->stream ? &cp->line : &cp->arena, sizeof *row * (size_t)(w->ncols ? w->ncols : 1));
    bool *given = cp->given;
    memset(given, 0, sizeof *given * (size_t)w->ncols);
    for (int i = 0; i < o->ncols; i++) {
        int col = o->cols[i];
        given[col] = true;
        if (f->isnull[i]) {
            row[col].isnull = true;
            continue;
        }
        const char *v = (const char *)f->text.data + f->start[i];
        if (!ty_datum_from_text(w->cols[col].type, w->cols[col].typmod, v, f->len[i], &ctx, &row[col]))
            return srv__context(err, w, lineno, w->cols[col].name, v, f->len[i]), false;
    }
    for (int col = 0; col < w->ncols; col++) {
        if (given[col])
            continue;
        if (w->defaults == NULL || w->defaults[col] == NULL) {
            row[col].isnull = true;
        } else if (!ty_expr_eval(w->defaults[col], &ctx, row, NULL, &row[col])) {
            return srv__context(err, w, lineno, NULL, text, len), false;
        }
    }
    if (!srv_write_check_row(w, row, NULL, &ctx))
        return srv__context(err, w, lineno, NULL, text, len), false;
    if (cp->stream) {
        if (!df_write_shards_row(cp->shards, row, &ctx))
            return srv__context(err, w, lineno, NULL, text, len), false;
        cp->n++;
        return true;
    }
    if (cp->n == cp->cap) {
        cp->cap = cp->cap ? 2 * cp->cap : 256;
        cp->rows = cm_realloc(cp->rows, sizeof *cp->rows * (size_t)cp->cap);
        cp->linenos = cm_realloc(cp->linenos, sizeof *cp->linenos * (size_t)cp->cap);
    }
    cp->rows[cp->n] = row;
    cp->linenos[cp->n++] = lineno;
    return true;
}

/* Every whole line received so far (final: the input is over). */
static bool srv__copy_lines(srv_conn_t *c, struct srv_copy_in *cp, bool final, cm_err_t *err)
{
    const uint8_t *line;
    size_t len;
    while (srv_copy_lines_next(&cp->lines, final, &line, &len, err))
        if (!srv__copy_line(c, cp, line, len, err))
            return false;
    if (err->set)
        srv__context(err, cp->w, cp->lines.lineno, NULL, NULL, 0);
    return !err->set;
}

/* The COPY is over (with an error in cp->err, or not): its end runs off the loop (srv_copy_in_run). */
static void srv__copy_end(srv_conn_t *c, struct srv_copy_in *cp)
{
    cm_err_t err = {0};
    if (srv__run_copy(c, cp, &err) != SRV_RUN_BUSY) {
        c->copy = NULL;
        srv__copy_free(cp);
        srv__stmt_done(c, &err, NULL);
        cm_err_clear(&err);
    }
}

static void srv__copy_fail(srv_conn_t *c, struct srv_copy_in *cp, cm_err_t *err)
{
    cp->failed = true;
    cm_err_move(&cp->err, err);
    srv__copy_end(c, cp);
}

int srv_copy_in_start(srv_conn_t *c, const plan_write_t *w, srv_wtxn_t *tx, cm_err_t *err)
{
    struct srv_copy_in *cp = cm_calloc(1, sizeof *cp);
    cp->w = w;
    cp->tx = tx;
    srv_copy_lines_init(&cp->lines, w->copy);
    cm_buf_init(&cp->fields.text, 0);
    cm_arena_init(&cp->arena, 0);
    cp->given = cm_calloc((size_t)(w->ncols ? w->ncols : 1), sizeof *cp->given);
    /* Made once: a line's conversion must not look the session's user and settings up again. */
    srv__ctx_init(c, &cp->ctx, &cp->arena, NULL);
    cm_arena_init(&cp->line, 0);
    cp->stream = tx == NULL && w->nkeys == 0;
    if (cp->stream) {
        srv_server_t *srv = c->lp->srv;
        int nworkers = srv->workers != NULL ? df_workers_count(srv->workers) : 1;
        cp->shards = df_write_shards_new(w->item, srv_write_types(w, &cp->arena), w->ncols, nworkers);
    }
    c->copy = cp;
    /* CopyInResponse: text, one format code per copied column. */
    size_t at = srv_msg_begin(&c->out, 'G');
    cm_buf_put_u8(&c->out, 0);
    cm_buf_put_be16(&c->out, (uint16_t)w->copy->ncols);
    for (int i = 0; i < w->copy->ncols; i++)
        cm_buf_put_be16(&c->out, 0);
    srv_msg_finish(&c->out, at);
    srv_conn_flush(c);
    return SRV_RUN_BUSY;
}

void srv_copy_in_message(srv_conn_t *c, const srv_frame_t *f)
{
    struct srv_copy_in *cp = c->copy;
    cm_err_t err = {0};
    switch (f->type) {
    case 'd':
        cp->bytes += f->body_len;
        if (cp->bytes > c->lp->srv->cfg.copy_max_bytes) {
            cm_err_set(&err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "COPY input larger than %zu bytes",
                       c->lp->srv->cfg.copy_max_bytes);
            cm_err_set_hint(&err, "The server's --copy-max-bytes sets the limit.");
            srv__copy_fail(c, cp, &err);
            return;
        }
        srv_copy_lines_feed(&cp->lines, f->body, f->body_len);
        if (!srv__copy_lines(c, cp, false, &err))
            srv__copy_fail(c, cp, &err);
        return;
    case 'c':
        if (!srv__copy_lines(c, cp, true, &err)) {
            srv__copy_fail(c, cp, &err);
            return;
        }
        srv__copy_end(c, cp);
        return;
    case 'f': {
        size_t n = strnlen((const char *)f->body, f->body_len);
        cm_err_set(&err, CM_ERRCODE_QUERY_CANCELED, "COPY from stdin failed: %.*s", (int)n, (const char *)f->body);
        srv__context(&err, cp->w, cp->lines.lineno + 1, NULL, NULL, 0);   /* the line it was reading */
        srv__copy_fail(c, cp, &err);
        return;
    }
    case 'H':
    case 'S':
        return;   /* ignored during COPY FROM STDIN, as PostgreSQL does */
    default:
        cm_err_set(&err, CM_ERRCODE_PROTOCOL_VIOLATION, "unexpected message type 0x%02X during COPY from stdin",
                   (unsigned)(uint8_t)f->type);
        srv__context(&err, cp->w, cp->lines.lineno + 1, NULL, NULL, 0);
        /* The client is not where the protocol says it is: the error, then the connection ends. */
        err.severity = CM_SEV_ERROR;
        srv_conn_send_error(c, &err);
        cm_err_clear(&err);
        srv_copy_in_conn_free(c);
        srv_conn_fatal(c, CM_ERRCODE_PROTOCOL_VIOLATION, "terminating connection because protocol synchronization was lost");
        return;
    }
}

/* Whether the first k rows keep the keys (false with the error otherwise). */
static bool srv__prefix_ok(srv_server_t *srv, struct srv_copy_in *cp, int k, ty_ctx_t *ctx)
{
    return srv_write_check_keys(srv, cp->w, cp->tx, cp->rows, k, ctx);
}

/* A 23505 for the rows: the first row that broke the key gives the error and its line. */
static void srv__first_duplicate(srv_server_t *srv, struct srv_copy_in *cp, int n, ty_ctx_t *ctx)
{
    int lo = 1, hi = n;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        cm_err_t keep = {0};
        cm_err_move(&keep, ctx->err);
        if (srv__prefix_ok(srv, cp, mid, ctx)) {
            cm_err_move(ctx->err, &keep);
            lo = mid + 1;
        } else {
            cm_err_clear(&keep);
            hi = mid;
        }
    }
    srv__context(ctx->err, cp->w, cp->linenos[hi - 1], NULL, NULL, 0);
}

bool srv_copy_in_run(srv_server_t *srv, struct srv_copy_in *cp, ty_ctx_t *ctx, char *tag, size_t tagsz)
{
    if (cp->failed) {
        /* A row failed: unless a row of a batch PostgreSQL would have flushed before broke a key. */
        int flushed = cp->n / SRV_COPY_BATCH * SRV_COPY_BATCH;
        if (flushed > 0 && cp->w->nkeys > 0 && !srv__prefix_ok(srv, cp, flushed, ctx)) {
            if (strcmp(ctx->err->sqlstate, "23505") == 0)
                srv__first_duplicate(srv, cp, flushed, ctx);
            return false;
        }
        cm_err_move(ctx->err, &cp->err);
        return false;
    }
    if (cp->stream) {
        cm_buf_t body;
        cm_buf_init(&body, 0);
        df_write_begin(&body, false, 1);
        bool ok = df_write_shards_end(cp->shards, &body, ctx->err);
        if (!ok || cp->n == 0)
            cm_buf_free(&body);   /* srv_write_submit frees it otherwise */
        if (!ok || (cp->n > 0 && !srv_write_submit(srv, cp->w, &body, ctx)))
            return false;
        snprintf(tag, tagsz, "COPY %d", cp->n);
        return true;
    }
    if (!srv_write_insert_rows(srv, cp->w, cp->tx, cp->rows, cp->n, ctx)) {
        if (strcmp(ctx->err->sqlstate, "23505") == 0)
            srv__first_duplicate(srv, cp, cp->n, ctx);
        return false;
    }
    snprintf(tag, tagsz, "COPY %d", cp->n);
    return true;
}

void srv_copy_in_done(srv_conn_t *c, struct srv_copy_in *cp)
{
    if (c->copy == cp)
        c->copy = NULL;
    srv__copy_free(cp);
}
