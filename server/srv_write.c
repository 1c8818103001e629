/*
 * srv_write.c: INSERT, UPDATE and DELETE on tables. The write plan
 * (plan_write_t) gives the rows: run like a query (its reads of tables are
 * a Peek, srv_read.c), then each new row is checked in PostgreSQL's order,
 * NOT NULL columns first (23502), then CHECK constraints (23514), and the
 * changes go to the workers as one Write command: +1 for a new row, -1 for
 * an old one. The workers check the table's key where it lives (23505) and
 * apply the write at one step on every shard, or nowhere. RETURNING's
 * values, the plan's trailing columns, are sent once the write applied.
 *
 * UPDATE and DELETE read at one step and write at a later one: the Write
 * carries the old rows it removes, and the workers refuse it (40001) if
 * another session removed one in between; the statement then runs again,
 * at most write_retries times. Inside a transaction the changes are kept
 * (srv_write_txn.c) after a check-only Write of the table's keys against
 * what the workers hold plus the transaction's own changes, and the reads
 * see them; COMMIT applies them all at one step. TRUNCATE removes every
 * row of each of its tables at one step.
 */
#include "server/srv_int.h"

#include <stdlib.h>
#include <string.h>
#include <unistd.h>

typedef struct srv__rows {
    cm_arena_t *arena;
    int n, cap;
    ty_datum_t **rows;
} srv__rows_t;

static bool srv__collect_cb(void *arg, const ty_datum_t *row, int ncols)
{
    srv__rows_t *c = arg;
    if (c->n == c->cap) {
        int cap = c->cap ? 2 * c->cap : 16;
        ty_datum_t **g = cm_arena_alloc(c->arena, sizeof *g * (size_t)cap);
        if (c->n)
            memcpy(g, c->rows, sizeof *g * (size_t)c->n);
        c->rows = g;
        c->cap = cap;
    }
    ty_datum_t *copy = cm_arena_alloc(c->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
    memcpy(copy, row, sizeof(ty_datum_t) * (size_t)ncols);
    c->rows[c->n++] = copy;
    return true;
}

/* "Failing row contains (1, null)." */
static void srv__failing_row(const plan_write_t *w, const ty_datum_t *row, ty_ctx_t *ctx)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_str(&b, "Failing row contains (");
    for (int i = 0; i < w->ncols; i++) {
        if (i)
            cm_buf_put_str(&b, ", ");
        if (row[i].isnull || !ty_datum_to_text(w->cols[i].type, &row[i], ctx, &b))
            cm_buf_put_str(&b, "null");
    }
    cm_buf_put_str(&b, ").");
    cm_err_set_detail(ctx->err, "%.*s", (int)b.len, (const char *)b.data);
    cm_buf_free(&b);
}

bool srv_write_check_row(const plan_write_t *w, const ty_datum_t *row, const ty_datum_t *params, ty_ctx_t *ctx)
{
    for (int i = 0; i < w->ncols; i++)
        if (w->not_null && w->not_null[i] && row[i].isnull) {
            cm_err_set(ctx->err, "23502", "null value in column \"%s\" of relation \"%s\" violates not-null constraint",
                       w->cols[i].name, w->name);
            srv__failing_row(w, row, ctx);
            return false;
        }
    for (int i = 0; i < w->nchecks; i++) {
        ty_datum_t ok;
        memset(&ok, 0, sizeof ok);
        if (!ty_expr_eval(w->checks[i].expr, ctx, row, params, &ok))
            return false;
        if (!ok.isnull && !ok.v.b) {
            cm_err_set(ctx->err, "23514", "new row for relation \"%s\" violates check constraint \"%s\"", w->name,
                       w->checks[i].name);
            srv__failing_row(w, row, ctx);
            return false;
        }
    }
    return true;
}

static ty_oid_t *srv__types(const plan_write_t *w, cm_arena_t *a)
{
    ty_oid_t *types = cm_arena_alloc(a, sizeof(ty_oid_t) * (size_t)(w->ncols ? w->ncols : 1));
    for (int i = 0; i < w->ncols; i++)
        types[i] = w->cols[i].type;
    return types;
}

/* A Write body to every worker, waited for until each applied it (or refused it). */
static bool srv__ask(srv_server_t *srv, const plan_write_t *w, cm_buf_t *body, bool encoded, int flags, ty_ctx_t *ctx)
{
    df_reply_t *rep = NULL;
    if (encoded) {
        const char *refused = cm_arena_printf(ctx->arena, "cannot write to table \"%s\" here", w->name);
        rep = srv_workers_ask(srv, DF_CMD_WRITE, body, flags, refused, ctx);
    }
    cm_buf_free(body);
    df_reply_unref(rep);
    return rep != NULL;
}

bool srv_write_submit(srv_server_t *srv, const plan_write_t *w, cm_buf_t *body, ty_ctx_t *ctx)
{
    return srv__ask(srv, w, body, true, SRV_ASK_TAKE, ctx);
}

ty_oid_t *srv_write_types(const plan_write_t *w, cm_arena_t *a)
{
    return srv__types(w, a);
}

/* The rows' changes to the workers: applied now, or (check_only) their keys checked, with the
 * transaction's earlier changes to the table when there is one. */
static bool srv__submit_write(srv_server_t *srv, const plan_write_t *w, const srv_wtxn_t *tx, bool check_only,
                              ty_datum_t **rows, const int64_t *diffs, int n, ty_ctx_t *ctx)
{
    ty_oid_t *types = srv__types(w, ctx->arena);
    cm_buf_t body;
    cm_buf_init(&body, 0);
    const char *constraint = w->nkeys > 0 ? w->keys[0].name : NULL;
    bool ok = tx != NULL && check_only ? srv_wtxn_encode_check(tx, w, types, rows, diffs, n, ctx, &body)
                                       : df_write_encode(w->item, constraint, check_only, types, w->ncols, rows, diffs,
                                                         n, ctx, &body);
    /* Rows added to a table without a key cannot fail on the workers (NOT NULL and CHECK were
     * checked here): such a write may share its step with other sessions' (group commit). */
    bool groupable = !check_only && w->nkeys == 0;
    for (int i = 0; i < n && groupable; i++)
        groupable = diffs[i] > 0;
    return srv__ask(srv, w, &body, ok, groupable ? SRV_ASK_GROUPABLE : 0, ctx);
}

/* TRUNCATE a, b, ...: one Write emptying each table, or kept by the transaction. */
static bool srv__truncate(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, ty_ctx_t *ctx)
{
    uint32_t n = 0;
    for (const plan_write_t *p = w; p != NULL; p = p->next) {
        if (!plan_error_raise(p->error, ctx->err))
            return false;
        n++;
    }
    if (tx != NULL) {
        for (const plan_write_t *p = w; p != NULL; p = p->next)
            srv_wtxn_truncate(tx, p);
        return true;
    }
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, n);
    bool ok = true;
    for (const plan_write_t *p = w; p != NULL && ok; p = p->next)
        ok = df_write_add_part(&body, p->item, p->nkeys > 0 ? p->keys[0].name : NULL, true, srv__types(p, ctx->arena),
                               p->ncols, NULL, NULL, 0, ctx);
    return srv__ask(srv, w, &body, ok, 0, ctx);
}

static int64_t *srv__ones(int n, cm_arena_t *a)
{
    int64_t *d = cm_arena_alloc(a, sizeof *d * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        d[i] = 1;
    return d;
}

bool srv_write_check_keys(srv_server_t *srv, const plan_write_t *w, const srv_wtxn_t *tx, ty_datum_t **rows, int n,
                          ty_ctx_t *ctx)
{
    return w->nkeys == 0 || srv__submit_write(srv, w, tx, true, rows, srv__ones(n, ctx->arena), n, ctx);
}

bool srv_write_insert_rows(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, ty_datum_t **rows, int n,
                           ty_ctx_t *ctx)
{
    int64_t *diffs = srv__ones(n, ctx->arena);
    if (n == 0)
        return true;
    if (tx == NULL)
        return srv__submit_write(srv, w, NULL, false, rows, diffs, n, ctx);
    return srv_write_check_keys(srv, w, tx, rows, n, ctx) && srv_wtxn_add(tx, w, rows, diffs, n, ctx->err);
}

static uint64_t srv__row_hash(const plan_write_t *w, const ty_datum_t *r)
{
    uint64_t h = 1469598103934665603ull;
    for (int i = 0; i < w->ncols; i++)
        h = (h ^ ty_datum_hash(w->cols[i].type, &r[i])) * 1099511628211ull;
    return h;
}

static bool srv__row_same(const plan_write_t *w, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int i = 0; i < w->ncols; i++) {
        if (a[i].isnull != b[i].isnull)
            return false;
        if (!a[i].isnull && ty_datum_compare(w->cols[i].type, &a[i], &b[i]) != 0)
            return false;
    }
    return true;
}

/* Each of the plan's distinct old rows, repeated once per copy of it in the table as read. */
static void srv__each_copy(const plan_write_t *w, const srv_read_keep_t *keep, srv__rows_t *got, ty_ctx_t *ctx)
{
    size_t cap = 16;
    while (cap < 2 * (size_t)keep->nrows)
        cap *= 2;
    int *slot = cm_arena_alloc(ctx->arena, sizeof *slot * cap);   /* index into keep->rows, -1: empty */
    int *count = cm_arena_zalloc(ctx->arena, sizeof *count * cap);
    memset(slot, 0xff, sizeof *slot * cap);
    for (int i = 0; i < keep->nrows; i++) {
        size_t h = srv__row_hash(w, keep->rows[i]) & (cap - 1);
        while (slot[h] >= 0 && !srv__row_same(w, keep->rows[slot[h]], keep->rows[i]))
            h = (h + 1) & (cap - 1);
        slot[h] = slot[h] >= 0 ? slot[h] : i;
        count[h]++;
    }
    srv__rows_t out = {.arena = ctx->arena};
    for (int i = 0; i < got->n; i++) {
        size_t h = srv__row_hash(w, got->rows[i]) & (cap - 1);
        while (slot[h] >= 0 && !srv__row_same(w, keep->rows[slot[h]], got->rows[i]))
            h = (h + 1) & (cap - 1);
        int k = slot[h] >= 0 ? count[h] : 1;
        for (int j = 0; j < k; j++) {
            if (out.n == out.cap) {
                out.cap = out.cap ? 2 * out.cap : 16;
                ty_datum_t **g = cm_arena_alloc(ctx->arena, sizeof *g * (size_t)out.cap);
                if (out.n)
                    memcpy(g, out.rows, sizeof *g * (size_t)out.n);
                out.rows = g;
            }
            out.rows[out.n++] = got->rows[i];
        }
    }
    *got = out;
}

/* One run of an INSERT, UPDATE or DELETE: its rows in got, applied or kept by tx. */
static bool srv__write_once(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, const char *sql,
                            const ty_datum_t *params, ty_ctx_t *ctx, srv__rows_t *got)
{
    /* UPDATE ... FROM / DELETE ... USING give each distinct old row once; in a table without a key
     * equal rows may be there several times, and each copy changes. */
    bool copies = w->each_value && w->kind != PLAN_WRITE_INSERT && w->nkeys == 0;
    srv_read_keep_t keep = {.item = w->item};
    bool ok = w->plan->reads ? srv_read_run_keep(srv, w->plan, tx, sql, params, ctx, srv__collect_cb, got,
                                                 copies ? &keep : NULL)
                             : ex_run(w->plan, sql, params, ctx, srv__collect_cb, got);
    if (!ok)
        return false;
    if (copies && keep.found)
        srv__each_copy(w, &keep, got, ctx);
    int per = w->kind == PLAN_WRITE_UPDATE ? 2 : 1;   /* changes per plan row */
    int n = got->n * per;
    ty_datum_t **rows = cm_arena_alloc(ctx->arena, sizeof *rows * (size_t)(n ? n : 1));
    int64_t *diffs = cm_arena_alloc(ctx->arena, sizeof *diffs * (size_t)(n ? n : 1));
    for (int i = 0; i < got->n; i++) {
        ty_datum_t *r = got->rows[i];
        if (w->kind == PLAN_WRITE_INSERT) {
            rows[i] = r;
            diffs[i] = 1;
        } else if (w->kind == PLAN_WRITE_DELETE) {
            rows[i] = r;
            diffs[i] = -1;
        } else {
            rows[2 * i] = r;
            diffs[2 * i] = -1;
            rows[2 * i + 1] = r + w->ncols;
            diffs[2 * i + 1] = 1;
        }
        ty_datum_t *fresh = w->kind == PLAN_WRITE_INSERT ? r : w->kind == PLAN_WRITE_UPDATE ? r + w->ncols : NULL;
        if (fresh && !srv_write_check_row(w, fresh, params, ctx)) {
            /* PostgreSQL checks each row's constraints, then its keys, row by row: a key broken by
             * an earlier row is the error, if there is one. The workers check those rows' keys. */
            if (i > 0 && w->nkeys > 0) {
                cm_err_t row_err = *ctx->err;
                memset(ctx->err, 0, sizeof *ctx->err);
                if (!srv__submit_write(srv, w, tx, true, rows, diffs, i * per, ctx)) {
                    cm_err_clear(&row_err);
                    return false;
                }
                *ctx->err = row_err;
            }
            return false;
        }
    }
    if (n == 0)
        return true;
    if (tx == NULL)
        return srv__submit_write(srv, w, NULL, false, rows, diffs, n, ctx);
    /* In a transaction: the keys checked now, against the workers' rows and its own changes. */
    if (w->nkeys > 0 && !srv__submit_write(srv, w, tx, true, rows, diffs, n, ctx))
        return false;
    return srv_wtxn_add(tx, w, rows, diffs, n, ctx->err);
}

srv_write_prep_rc_t srv_write_prepare_insert(const plan_write_t *w, const char *sql, const ty_datum_t *params,
                                             ty_ctx_t *ctx, srv_write_prep_t *out)
{
    memset(out, 0, sizeof *out);
    cm_buf_init(&out->body, 0);
    srv__rows_t got = {.arena = ctx->arena};
    if (!plan_error_raise(w->error, ctx->err) || !ex_run(w->plan, sql, params, ctx, srv__collect_cb, &got))
        return SRV_WRITE_FAILED;
    for (int i = 0; i < got.n; i++)
        if (!srv_write_check_row(w, got.rows[i], params, ctx)) {
            if (i == 0 || w->nkeys == 0)
                return SRV_WRITE_FAILED;
            cm_err_clear(ctx->err);   /* an earlier row may break a key first: the workers say */
            return SRV_WRITE_OFF_LOOP;
        }
    out->rows = got.rows;
    out->n = got.n;
    out->refused = cm_arena_printf(ctx->arena, "cannot write to table \"%s\" here", w->name);
    out->flags = w->nkeys == 0 ? SRV_ASK_GROUPABLE : 0;
    if (got.n > 0 && !df_write_encode(w->item, w->nkeys > 0 ? w->keys[0].name : NULL, false, srv__types(w, ctx->arena),
                                      w->ncols, got.rows, srv__ones(got.n, ctx->arena), got.n, ctx, &out->body))
        return cm_buf_free(&out->body), SRV_WRITE_FAILED;
    return SRV_WRITE_READY;
}

bool srv_write_returning(const plan_write_t *w, const srv_write_prep_t *p, ex_row_cb cb, void *arg)
{
    for (int i = 0; w->nreturning > 0 && i < p->n; i++)
        if (!cb(arg, p->rows[i] + w->ncols, w->nreturning))
            return false;
    return true;
}

bool srv_write_run(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, const char *sql,
                   const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, uint64_t *written)
{
    *written = 0;
    if (!plan_error_raise(w->error, ctx->err))
        return false;
    if (srv->seq == NULL || srv->workers == NULL)
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "writing tables needs the workers");
    if (w->kind == PLAN_WRITE_TRUNCATE)
        return srv__truncate(srv, w, tx, ctx);
    if (w->kind != PLAN_WRITE_INSERT && w->kind != PLAN_WRITE_UPDATE && w->kind != PLAN_WRITE_DELETE)
        return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "COPY runs through the CopyIn protocol");
    srv__rows_t got;
    for (int attempt = 0;; attempt++) {
        got = (srv__rows_t){.arena = ctx->arena};
        if (srv__write_once(srv, w, tx, sql, params, ctx, &got))
            break;
        /* Another session changed a row this one read: read again, unless inside a transaction
         * (whose reads cannot be taken back) or out of tries. */
        if (tx != NULL || attempt >= srv->cfg.write_retries || strcmp(ctx->err->sqlstate, "40001") != 0)
            return false;
        cm_err_clear(ctx->err);
        /* Sessions that keep changing the same rows would otherwise read in step and the same one
         * would lose every time: a random pause, longer after each try, spreads them. Nothing was
         * written yet, so cancel and statement_timeout still end the statement. */
        uint32_t seed = (uint32_t)cm_now_mono_us() ^ (uint32_t)(uintptr_t)&got;
        usleep((useconds_t)(rand_r(&seed) % (1000 * (attempt < 10 ? attempt + 1 : 10))));
        if (!ty_ctx_check_interrupt(ctx))
            return false;
    }
    *written = (uint64_t)got.n;
    if (w->nreturning > 0) {
        int width = w->ncols * (w->kind == PLAN_WRITE_UPDATE ? 2 : 1) + w->nreturning;
        for (int i = 0; i < got.n; i++)
            if (!cb(arg, got.rows[i] + width - w->nreturning, w->nreturning))
                return false;
    }
    return true;
}
