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
 * Into a table without a key, outside a transaction, rows are not kept but
 * encoded as they are read into their workers' sections of the Write
 * (df_write_shards_row). In text format, when the columns' input needs
 * neither the catalog nor the session beyond its settings (built-in scalar
 * types, no DEFAULT to evaluate, no CHECK), the input is cut into chunks
 * of whole lines that threads of the COPY's own parse while more arrives
 * (srv_copy_chunks.c); each chunk knows its first line's number, so errors
 * carry the lines they would have sequentially, and the first one in line
 * order is the answer (looked for as chunks finish, and at the end).
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
#define SRV_COPY_CHUNK (256 * 1024)   /* input bytes a chunk parsed on a thread holds, about */
#define SRV_COPY_THREADS_MAX 4

/* What turns lines into rows: the COPY's own, on the loop, or one per chunk, on its threads. */
typedef struct srv__parse {
    srv_copy_lines_t lines;
    srv_copy_fields_t fields;
    cm_arena_t line;             /* one line's values while streaming */
    bool *given;                 /* per table column: the input has it */
    df_write_shards_t *shards;   /* streaming: the rows so far, in their workers' sections */
    int n;                       /* rows */
    bool header_done;
} srv__parse_t;

/* A chunk of whole lines parsed on a thread: its rows, or the first error in it. */
typedef struct srv__chunk {
    srv__parse_t ps;
    bool failed, ended;          /* an error (err); the "\." line was in it */
    cm_err_t err;
} srv__chunk_t;

struct srv_copy_in {
    const plan_write_t *w;
    srv_wtxn_t *tx;
    srv__parse_t ps;             /* lines read on the loop (all of them unless chunks are) */
    cm_arena_t arena;            /* the rows */
    ty_datum_t **rows;
    int64_t *linenos;
    int cap;
    size_t bytes;
    int64_t rows_max;            /* --txn-write-rows-max */
    ty_ctx_t ctx;                /* for every line: the session's settings as the COPY began */
    /* Streaming (a table without a key, outside a transaction: nothing to check against the
     * rows later): each row goes into its worker's section of the Write as it is read, not kept
     * as datums. */
    bool stream;
    ty_oid_t *types;
    int nworkers;
    /* Chunks: with parallel, input is cut into chunks parsed by chunks' threads, once a chunk's
     * worth has come (a smaller COPY is parsed on the loop at its end). */
    bool parallel;
    int threads;
    srv_copy_chunks_t *chunks;
    int64_t cut_lines;           /* whole lines given to chunks */
    int eol;                     /* as the first line ends (srv_copy_lines_t.eol), for every chunk */
    int checked;                 /* chunks known done and without error, from the first */
    bool failed;                 /* err is the answer, unless an earlier row broke a key */
    cm_err_t err;
};

static void srv__parse_init(srv__parse_t *ps, const struct srv_copy_in *cp)
{
    srv_copy_lines_init(&ps->lines, cp->w->copy);
    cm_buf_init(&ps->fields.text, 0);
    cm_arena_init(&ps->line, 0);
    ps->given = cm_calloc((size_t)(cp->w->ncols ? cp->w->ncols : 1), sizeof *ps->given);
    if (cp->stream)
        ps->shards = df_write_shards_new(cp->w->item, cp->types, cp->w->ncols, cp->nworkers);
}

/* What reading the lines needed; the rows (shards) stay. */
static void srv__parse_done(srv__parse_t *ps)
{
    srv_copy_lines_free(&ps->lines);
    srv_copy_fields_free(&ps->fields);
    cm_arena_free(&ps->line);
    free(ps->given);
    ps->given = NULL;
}

static void srv__parse_free(srv__parse_t *ps)
{
    srv__parse_done(ps);
    df_write_shards_free(ps->shards);
    ps->shards = NULL;
}

static void srv__copy_free(struct srv_copy_in *cp)
{
    if (cp == NULL)
        return;
    if (cp->chunks != NULL) {
        srv_copy_chunks_stop(cp->chunks);
        int n = srv_copy_chunks_count(cp->chunks);
        for (int i = 0; i < n; i++) {
            bool done;
            srv__chunk_t *ch = srv_copy_chunks_get(cp->chunks, i, &done);
            srv__parse_free(&ch->ps);
            cm_err_clear(&ch->err);
            free(ch);
        }
        srv_copy_chunks_free(cp->chunks);
    }
    srv__parse_free(&cp->ps);
    cm_arena_free(&cp->arena);
    free(cp->rows);
    free(cp->linenos);
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

/* One input line: a row, converted and checked, kept in ps or cp (false: err set, with its CONTEXT). */
static bool srv__copy_line(struct srv_copy_in *cp, srv__parse_t *ps, const uint8_t *line, size_t len, cm_err_t *err)
{
    const plan_write_t *w = cp->w;
    const plan_copy_t *o = w->copy;
    int64_t lineno = ps->lines.lineno;
    const char *text = (const char *)line;
    if (!srv_copy_fields(o, line, len, &ps->fields, err))
        return srv__context(err, w, lineno, NULL, text, len), false;
    srv_copy_fields_t *f = &ps->fields;
    if (!ps->header_done && o->header != PLAN_COPY_HEADER_NONE) {
        ps->header_done = true;
        if (o->header == PLAN_COPY_HEADER_MATCH && !srv__header(w, f, err))
            return srv__context(err, w, lineno, NULL, text, len), false;
        return true;
    }
    ps->header_done = true;
    /* An empty line is one empty field, as PostgreSQL reads it (so a table of one column gets ""). */
    if (f->n > o->ncols)
        return cm_err_set(err, "22P04", "extra data after last expected column"),
               srv__context(err, w, lineno, NULL, text, len), false;
    if (f->n < o->ncols)
        return cm_err_set(err, "22P04", "missing data for column \"%s\"", w->cols[o->cols[f->n]].name),
               srv__context(err, w, lineno, NULL, text, len), false;
    /* Every line before this one was a row, but the header: the rows before it, in whichever chunk. */
    if (lineno - 1 - (o->header != PLAN_COPY_HEADER_NONE) >= cp->rows_max)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a COPY may write at most %lld rows",
                          (long long)cp->rows_max),
               srv__context(err, w, lineno, NULL, NULL, 0), false;
    ty_ctx_t ctx = cp->ctx;
    ctx.err = err;
    if (cp->stream) {
        cm_arena_reset(&ps->line);
        ctx.arena = &ps->line;
    }
    /* Streaming, a line's row lives while the line does; otherwise it is kept until CopyDone. */
    ty_datum_t *row = cm_arena_zalloc(cp->stream ? &ps->line : &cp->arena, sizeof *row * (size_t)(w->ncols ? w->ncols : 1));
    bool *given = ps->given;
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
        if (!df_write_shards_row(ps->shards, row, &ctx))
            return srv__context(err, w, lineno, NULL, text, len), false;
        ps->n++;
        return true;
    }
    if (ps->n == cp->cap) {
        cp->cap = cp->cap ? 2 * cp->cap : 256;
        cp->rows = cm_realloc(cp->rows, sizeof *cp->rows * (size_t)cp->cap);
        cp->linenos = cm_realloc(cp->linenos, sizeof *cp->linenos * (size_t)cp->cap);
    }
    cp->rows[ps->n] = row;
    cp->linenos[ps->n++] = lineno;
    return true;
}

/* Every whole line ps has (final: the input is over, what is left is a line too). */
static bool srv__parse_lines(struct srv_copy_in *cp, srv__parse_t *ps, bool final, cm_err_t *err)
{
    const uint8_t *line;
    size_t len;
    while (srv_copy_lines_next(&ps->lines, final, &line, &len, err))
        if (!srv__copy_line(cp, ps, line, len, err))
            return false;
    if (err->set)
        srv__context(err, cp->w, ps->lines.lineno, NULL, NULL, 0);
    return !err->set;
}

/* ------------------------------------------------------------ chunks */

/* Whether the input can be parsed in chunks on other threads: text (a line ends at every newline),
 * streamed, and nothing but built-in types' input, NOT NULL and NULL for missing columns per row
 * (no expression that might need the catalog, which only the loop may read). */
static bool srv__can_chunk(const struct srv_copy_in *cp)
{
    const plan_write_t *w = cp->w;
    if (!cp->stream || w->copy->format != PLAN_COPY_TEXT || w->nchecks > 0)
        return false;
    bool *given = cm_calloc((size_t)(w->ncols ? w->ncols : 1), sizeof *given);
    for (int i = 0; i < w->copy->ncols; i++)
        given[w->copy->cols[i]] = true;
    bool ok = true;
    for (int col = 0; col < w->ncols && ok; col++) {
        if (!given[col]) {
            ok = w->defaults == NULL || w->defaults[col] == NULL;
            continue;
        }
        switch (w->cols[col].type) {
        case TY_BOOL: case TY_INT2: case TY_INT4: case TY_INT8: case TY_FLOAT4: case TY_FLOAT8: case TY_NUMERIC:
        case TY_TEXT: case TY_VARCHAR: case TY_BPCHAR: case TY_NAME: case TY_CHAR: case TY_BYTEA: case TY_DATE:
        case TY_TIME: case TY_TIMESTAMP: case TY_TIMESTAMPTZ: case TY_INTERVAL: case TY_UUID: case TY_JSON:
        case TY_JSONB: break;
        default: ok = false;
        }
    }
    free(given);
    return ok;
}

/* On a chunk's thread: its lines into rows, up to the first error. */
static void srv__chunk_parse(void *arg, void *chunk)
{
    struct srv_copy_in *cp = arg;
    srv__chunk_t *ch = chunk;
    ch->failed = !srv__parse_lines(cp, &ch->ps, true, &ch->err);
    ch->ended = ch->ps.lines.ended;
    srv__parse_done(&ch->ps);
}

/* The input received so far, up to its last whole line (all of it when final), as a chunk. */
static void srv__chunk_cut(struct srv_copy_in *cp, bool final)
{
    srv_copy_lines_t *l = &cp->ps.lines;
    const uint8_t *p = l->pending.data + l->at;
    size_t n = l->pending.len - l->at;
    if (!final) {
        const uint8_t *nl = memrchr(p, '\n', n);
        n = nl != NULL ? (size_t)(nl - p) + 1 : 0;
    }
    if (n == 0)
        return;
    if (cp->eol == 0) {
        /* The first line decides how every line ends, as srv_copy_lines_next decides sequentially. */
        const uint8_t *nl = memchr(p, '\n', n);
        if (nl != NULL)
            cp->eol = nl > p && nl[-1] == '\r' ? 2 : 1;
    }
    srv__chunk_t *ch = cm_calloc(1, sizeof *ch);
    srv__parse_init(&ch->ps, cp);
    cm_buf_put(&ch->ps.lines.pending, p, n);
    ch->ps.lines.lineno = cp->cut_lines;
    ch->ps.lines.eol = cp->eol;
    ch->ps.header_done = cp->cut_lines > 0;
    int64_t lines = 0;
    for (size_t i = 0; i < n; i++)
        lines += p[i] == '\n';
    cp->cut_lines += lines + (final && p[n - 1] != '\n');
    l->at += n;
    if (cp->chunks == NULL)
        cp->chunks = srv_copy_chunks_new(cp->threads, srv__chunk_parse, cp);
    srv_copy_chunks_push(cp->chunks, ch);
}

/*
 * The first error of the chunks in line order (false with it in err), looking at those done
 * (wait: at all of them, waiting for them). *rows: the rows of the chunks up to the end of the
 * input ("\." ends it: later chunks do not count); *lineno: the last line read.
 */
static bool srv__chunks_check(struct srv_copy_in *cp, bool wait, cm_err_t *err, int *nparts, int64_t *lineno)
{
    if (cp->chunks == NULL)
        return true;
    if (wait)
        srv_copy_chunks_wait(cp->chunks);
    int n = srv_copy_chunks_count(cp->chunks);
    if (lineno)
        *lineno = cp->cut_lines;
    for (int i = cp->checked; i < n; i++) {
        bool done;
        srv__chunk_t *ch = srv_copy_chunks_get(cp->chunks, i, &done);
        if (!done)
            break;
        if (ch->failed) {
            cm_err_move(err, &ch->err);
            ch->failed = false;
            return false;
        }
        cp->checked = i + 1;
        if (ch->ended) {
            if (lineno)
                *lineno = ch->ps.lines.lineno;
            break;
        }
    }
    if (nparts)
        *nparts = cp->checked;
    return true;
}

/* Before an error of the COPY as a whole (CopyFail, a message out of place, too much input): an
 * error of the lines received before it comes first, as it would have sequentially. */
static bool srv__lines_so_far(struct srv_copy_in *cp, cm_err_t *err, int64_t *lineno)
{
    if (cp->chunks == NULL) {
        bool ok = srv__parse_lines(cp, &cp->ps, false, err);
        *lineno = cp->ps.lines.lineno;
        return ok;
    }
    srv__chunk_cut(cp, false);
    return srv__chunks_check(cp, true, err, NULL, lineno);
}

/* ------------------------------------------------------------ the sub-protocol */

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
    srv_server_t *srv = c->lp->srv;
    cp->w = w;
    cp->tx = tx;
    cm_arena_init(&cp->arena, 0);
    cp->rows_max = srv->cfg.txn_write_rows_max;
    /* Made once: a line's conversion must not look the session's user and settings up again. */
    srv__ctx_init(c, &cp->ctx, &cp->arena, NULL);
    cp->stream = tx == NULL && w->nkeys == 0;
    if (cp->stream) {
        cp->types = srv_write_types(w, &cp->arena);
        cp->nworkers = srv->workers != NULL ? df_workers_count(srv->workers) : 1;
    }
    cp->parallel = srv__can_chunk(cp);
    if (cp->parallel) {
        /* As many threads as workers: as many cores as they are meant to have. */
        cp->threads = srv->cfg.workers < 1 ? 1 : srv->cfg.workers > SRV_COPY_THREADS_MAX ? SRV_COPY_THREADS_MAX
                                                                                          : srv->cfg.workers;
        /* Off the loop: what only the loop may read is not there. */
        cp->ctx.catalog_fn = NULL;
    }
    srv__parse_init(&cp->ps, cp);
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

/* CopyData: the lines read now, or (parallel) a chunk cut once a chunk's worth has come. */
static bool srv__copy_data(struct srv_copy_in *cp, cm_err_t *err)
{
    if (!cp->parallel)
        return srv__parse_lines(cp, &cp->ps, false, err);
    if (cp->ps.lines.pending.len - cp->ps.lines.at >= SRV_COPY_CHUNK)
        srv__chunk_cut(cp, false);
    return srv__chunks_check(cp, false, err, NULL, NULL);
}

/* CopyDone: the last lines, read now when there were few, else as the last chunk. */
static bool srv__copy_done(struct srv_copy_in *cp, cm_err_t *err)
{
    if (cp->chunks == NULL)
        return srv__parse_lines(cp, &cp->ps, true, err);
    srv__chunk_cut(cp, true);
    return true;
}

/* An error of the COPY as a whole, after the error of a line received before it if there is one. */
static void srv__copy_whole_error(srv_conn_t *c, struct srv_copy_in *cp, cm_err_t *err)
{
    cm_err_t line = {0};
    int64_t lineno = 0;
    if (!srv__lines_so_far(cp, &line, &lineno)) {
        cm_err_clear(err);
        cm_err_move(err, &line);
        return;
    }
    srv__context(err, cp->w, lineno + 1, NULL, NULL, 0);   /* the line it was reading */
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
            srv__copy_whole_error(c, cp, &err);
            srv__copy_fail(c, cp, &err);
            return;
        }
        srv_copy_lines_feed(&cp->ps.lines, f->body, f->body_len);
        if (!srv__copy_data(cp, &err))
            srv__copy_fail(c, cp, &err);
        return;
    case 'c':
        if (!srv__copy_done(cp, &err)) {
            srv__copy_fail(c, cp, &err);
            return;
        }
        srv__copy_end(c, cp);
        return;
    case 'f': {
        size_t n = strnlen((const char *)f->body, f->body_len);
        cm_err_set(&err, CM_ERRCODE_QUERY_CANCELED, "COPY from stdin failed: %.*s", (int)n, (const char *)f->body);
        srv__copy_whole_error(c, cp, &err);
        srv__copy_fail(c, cp, &err);
        return;
    }
    case 'H':
    case 'S':
        return;   /* ignored during COPY FROM STDIN, as PostgreSQL does */
    default:
        cm_err_set(&err, CM_ERRCODE_PROTOCOL_VIOLATION, "unexpected message type 0x%02X during COPY from stdin",
                   (unsigned)(uint8_t)f->type);
        srv__copy_whole_error(c, cp, &err);
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

/* The streamed rows as one Write: the loop's, or the chunks' up to the end of the input. */
static bool srv__copy_write(srv_server_t *srv, struct srv_copy_in *cp, ty_ctx_t *ctx, int64_t *rows)
{
    int nparts = 1;
    df_write_shards_t **parts = &cp->ps.shards;
    if (cp->chunks != NULL) {
        if (!srv__chunks_check(cp, true, ctx->err, &nparts, NULL))
            return false;
        parts = cm_arena_alloc(ctx->arena, sizeof *parts * (size_t)(nparts ? nparts : 1));
        for (int i = 0; i < nparts; i++) {
            bool done;
            parts[i] = ((srv__chunk_t *)srv_copy_chunks_get(cp->chunks, i, &done))->ps.shards;
        }
    }
    *rows = 0;
    for (int i = 0; i < nparts; i++)
        *rows += df_write_shards_count(parts[i]);
    if (*rows > cp->rows_max)   /* a chunk counts its own rows; the limit is for them all */
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a COPY may write at most %lld rows",
                          (long long)cp->rows_max);
    if (*rows == 0 || nparts == 0)
        return true;
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, 1);
    if (!df_write_shards_end(parts, nparts, &body, ctx->err)) {
        cm_buf_free(&body);
        return false;
    }
    return srv_write_submit(srv, cp->w, &body, ctx);   /* frees body */
}

bool srv_copy_in_run(srv_server_t *srv, struct srv_copy_in *cp, ty_ctx_t *ctx, char *tag, size_t tagsz)
{
    if (cp->failed) {
        if (cp->chunks != NULL)
            srv_copy_chunks_stop(cp->chunks);   /* off the loop: what they parse now is not needed */
        /* A row failed: unless a row of a batch PostgreSQL would have flushed before broke a key. */
        int flushed = cp->ps.n / SRV_COPY_BATCH * SRV_COPY_BATCH;
        if (flushed > 0 && cp->w->nkeys > 0 && !srv__prefix_ok(srv, cp, flushed, ctx)) {
            if (strcmp(ctx->err->sqlstate, "23505") == 0)
                srv__first_duplicate(srv, cp, flushed, ctx);
            return false;
        }
        cm_err_move(ctx->err, &cp->err);
        return false;
    }
    if (cp->stream) {
        int64_t rows = 0;
        bool ok = srv__copy_write(srv, cp, ctx, &rows);
        if (cp->chunks != NULL)
            srv_copy_chunks_stop(cp->chunks);
        if (!ok)
            return false;
        snprintf(tag, tagsz, "COPY %lld", (long long)rows);
        return true;
    }
    if (!srv_write_insert_rows(srv, cp->w, cp->tx, cp->rows, cp->ps.n, ctx)) {
        if (strcmp(ctx->err->sqlstate, "23505") == 0)
            srv__first_duplicate(srv, cp, cp->ps.n, ctx);
        return false;
    }
    snprintf(tag, tagsz, "COPY %d", cp->ps.n);
    return true;
}

void srv_copy_in_done(srv_conn_t *c, struct srv_copy_in *cp)
{
    if (c->copy == cp)
        c->copy = NULL;
    srv__copy_free(cp);
}
