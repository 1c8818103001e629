/*
 * df_table.c: a worker's shards of the tables (DESIGN §6: a table is its
 * arrangement). Each table is installed with its definition (a plan whose
 * root is one GET of it: columns and key columns); the worker keeps shard
 * `hash(key) % nworkers == worker` of it as a spine keyed by the table's
 * key (PRIMARY KEY, else first UNIQUE key, else the whole row) with the
 * whole row as the value.
 *
 * A Write (dataflow.h: df_write_begin) carries parts, each one table's
 * rows with diffs (and perhaps a TRUNCATE first); every worker takes the
 * rows of its shard. A key constraint is checked by the worker owning the
 * key: an insert whose key is there already, or twice in one write, is
 * 23505; a removed row that is not there (changed by another session since
 * it was read) is 40001. Since a write's rows may fall on several shards,
 * every worker votes before anything is applied and applies only if all
 * agreed (df_reply_vote), so a failing write changes nothing. A Peek gathers, for every table its plan reads, this
 * worker's rows into its reply part: all of them, or for a table the Peek
 * looks up by key, the rows of the keys this worker owns (one seek each).
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

typedef struct df_table {
    uint64_t id;
    int ncols;
    ty_oid_t *types;
    const char **names;
    int nkeys;
    df_keycol_t *keys;           /* the arrangement's key (the whole row when the table has none) */
    bool has_key;                /* a PRIMARY KEY or UNIQUE key: inserts are checked */
    df_spine_t spine;
    bool seen;                   /* bootstrap: still in the catalog */
    cm_arena_t arena;            /* types, names */
} df_table_t;

struct df_engine {
    df_table_t **tables;
    size_t n, cap;
    cm_arena_t scratch;          /* reset per command */
    ty_settings_t settings;
};

static df_engine_t *df__engine(df_state_t *st)
{
    if (st->engine == NULL) {
        st->engine = cm_calloc(1, sizeof *st->engine);
        cm_arena_init(&st->engine->scratch, 0);
        ty_settings_default(&st->engine->settings);
    }
    return st->engine;
}

static void df__table_free(df_table_t *t)
{
    df__spine_free(&t->spine);
    cm_arena_free(&t->arena);
    free(t);
}

static df_table_t *df__table_find(df_engine_t *e, uint64_t id, size_t *at)
{
    for (size_t i = 0; e && i < e->n; i++)
        if (e->tables[i]->id == id) {
            if (at)
                *at = i;
            return e->tables[i];
        }
    return NULL;
}

static bool df__same_schema(const df_table_t *t, const plan_rel_t *g)
{
    if (t->ncols != g->ncols || t->nkeys != (g->nitem_keys ? g->nitem_keys : g->ncols))
        return false;
    for (int i = 0; i < t->ncols; i++)
        if (t->types[i] != g->types[i])
            return false;
    for (int i = 0; i < g->nitem_keys; i++)
        if (t->keys[i].col != g->item_keys[i])
            return false;
    return true;
}

void df__engine_install(df_state_t *st, const df_dataflow_t *f)
{
    const plan_rel_t *g = f->query ? f->query->root : NULL;
    if (!g || g->kind != PLAN_REL_GET || g->item != f->id)
        return;   /* not a table's definition */
    df_engine_t *e = df__engine(st);
    size_t at;
    df_table_t *old = df__table_find(e, f->id, &at);
    if (old && df__same_schema(old, g)) {
        old->seen = true;   /* a rename or a new bootstrap: its rows stay */
        return;
    }
    df_table_t *t = cm_calloc(1, sizeof *t);
    cm_arena_init(&t->arena, 0);
    t->id = f->id;
    t->ncols = g->ncols;
    t->types = cm_arena_alloc(&t->arena, sizeof(ty_oid_t) * (size_t)(g->ncols ? g->ncols : 1));
    t->names = cm_arena_alloc(&t->arena, sizeof(char *) * (size_t)(g->ncols ? g->ncols : 1));
    for (int i = 0; i < g->ncols; i++) {
        t->types[i] = g->types[i];
        t->names[i] = cm_arena_strdup(&t->arena, g->item_cols ? g->item_cols[i].name : "?");
    }
    t->has_key = g->nitem_keys > 0;
    t->nkeys = t->has_key ? g->nitem_keys : g->ncols;
    t->keys = cm_arena_zalloc(&t->arena, sizeof(df_keycol_t) * (size_t)(t->nkeys ? t->nkeys : 1));
    for (int i = 0; i < t->nkeys; i++) {
        int c = t->has_key ? g->item_keys[i] : i;
        t->keys[i] = (df_keycol_t){.col = c, .type = g->types[c]};
    }
    df__spine_init(&t->spine);
    t->seen = true;
    df__pub_mark(st, t->id);
    if (old) {
        df__table_free(old);   /* redefined: a different table under the same ID */
        e->tables[at] = t;
        return;
    }
    if (e->n == e->cap) {
        e->cap = e->cap ? 2 * e->cap : 8;
        e->tables = cm_realloc(e->tables, sizeof *e->tables * e->cap);
    }
    e->tables[e->n++] = t;
}

void df__engine_drop(df_state_t *st, uint64_t id)
{
    size_t at;
    df_table_t *t = df__table_find(st->engine, id, &at);
    if (!t)
        return;
    df__pub_gone(st, id);
    df__table_free(t);
    memmove(&st->engine->tables[at], &st->engine->tables[at + 1], sizeof(df_table_t *) * (st->engine->n - at - 1));
    st->engine->n--;
}

void df__engine_bootstrap(df_state_t *st, bool begin)
{
    df_engine_t *e = st->engine;
    for (size_t i = 0; e && i < e->n;) {
        if (begin) {
            e->tables[i++]->seen = false;
        } else if (!e->tables[i]->seen) {
            df__engine_drop(st, e->tables[i]->id);
        } else {
            i++;
        }
    }
}

void df__engine_free(df_state_t *st)
{
    df_engine_t *e = st->engine;
    if (!e)
        return;
    for (size_t i = 0; i < e->n; i++)
        df__table_free(e->tables[i]);
    free(e->tables);
    cm_arena_free(&e->scratch);
    free(e);
    st->engine = NULL;
}

bool df__engine_idle_work(df_state_t *st, int64_t *fuel)
{
    df_engine_t *e = st->engine;
    bool more = false;
    for (size_t i = 0; e != NULL && i < e->n; i++) {
        int64_t before = *fuel;
        more |= df__spine_idle_spend(&e->tables[i]->spine, fuel);
        if (*fuel != before)
            df__pub_mark(st, e->tables[i]->id);   /* merged: its readers move to the new batches */
    }
    return more;
}

df_spine_t *df__table_spine(df_state_t *st, uint64_t id)
{
    df_table_t *t = df__table_find(st->engine, id, NULL);
    return t ? &t->spine : NULL;
}

/* ------------------------------------------------------------ writes */

typedef struct df__wrow {
    const uint8_t *key, *row;
    size_t klen, rlen;
    int64_t diff;
    bool null_key;               /* a key column is NULL: never equal to another key (SQL's UNIQUE) */
} df__wrow_t;

static int df__wrow_cmp(const void *a, const void *b)
{
    const df__wrow_t *x = a, *y = b;
    return df__bytes_cmp(x->key, x->klen, y->key, y->klen);
}

/* "Key (a, b)=(1, x) already exists.": PostgreSQL's detail for 23505. */
static void df__key_detail(df_table_t *t, const uint8_t *row, size_t len, ty_ctx_t *ctx, cm_buf_t *out)
{
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(t->ncols ? t->ncols : 1));
    cm_buf_put_str(out, "Key (");
    for (int i = 0; i < t->nkeys; i++)
        cm_buf_printf(out, "%s%s", i ? ", " : "", t->names[t->keys[i].col]);
    cm_buf_put_str(out, ")=(");
    if (df__row_decode(t->types, t->ncols, row, len, DF_ROW_BORROW, ctx, vals))
        for (int i = 0; i < t->nkeys; i++) {
            if (i)
                cm_buf_put_str(out, ", ");
            const ty_datum_t *d = &vals[t->keys[i].col];
            if (d->isnull || !ty_datum_to_text(t->types[t->keys[i].col], d, ctx, out))
                cm_buf_put_str(out, "null");
        }
    cm_buf_put_str(out, ") already exists.");
}

typedef struct df__wrows {
    df__wrow_t *rows;            /* the rows to check; NULL when they go straight into direct */
    size_t n;
    df_builder_t *direct;
    ty_datum_t *vals;
    cm_buf_t key;
} df__wrows_t;

/* One row of a part: kept (in w->rows or w->direct) when its key is this worker's shard. */
static bool df__write_row(df_state_t *st, df_table_t *t, df__wrows_t *w, const uint8_t *p, size_t len, int64_t diff,
                          ty_ctx_t *ctx)
{
    cm_buf_reset(&w->key);
    if (!df__row_decode(t->types, t->ncols, p, len, DF_ROW_BORROW, ctx, w->vals) ||
        !df__key_encode(t->keys, t->nkeys, w->vals, ctx, &w->key))
        return false;
    if (df__hash(w->key.data, w->key.len) % (uint64_t)st->nworkers != (uint64_t)st->worker)
        return true;
    if (w->direct) {
        df__builder_add(w->direct, w->key.data, w->key.len, p, len, diff);
        w->n++;
        return true;
    }
    uint8_t *kc = cm_arena_alloc(ctx->arena, w->key.len ? w->key.len : 1);
    memcpy(kc, w->key.data, w->key.len);
    bool null_key = false;
    for (int c = 0; c < t->nkeys; c++)
        null_key |= w->vals[t->keys[c].col].isnull;
    w->rows[w->n++] = (df__wrow_t){.key = kc, .klen = w->key.len, .row = p, .rlen = len, .diff = diff,
                                   .null_key = null_key};
    return true;
}

/* Whether a sharded part's sections are the ones this worker keeps: its table keys the whole row
 * as the encoder did (no key of its own, the same column types) over as many workers. */
static bool df__own_shard(const df_state_t *st, const df_table_t *t, const df_write_part_t *w)
{
    if (w->nshards != (uint32_t)st->nworkers || t->has_key || (int)w->ncols != t->ncols)
        return false;
    for (int i = 0; i < t->ncols; i++)
        if (w->types[i] != t->types[i])
            return false;
    return true;
}

/* This worker's rows of a write's part, sorted by key when they need checking (*check: a key to
 * keep unique, or rows to remove); false (err set) for a malformed write. With direct (nothing to
 * check: no key, no removal) they go straight into that builder, and *out is left empty. A
 * sharded part's own section is read as it is (keys and rows, nothing decoded); otherwise every
 * row is decoded to find its key and shard. */
static bool df__write_rows(df_state_t *st, df_table_t *t, const df_write_part_t *w, ty_ctx_t *ctx, df__wrow_t **out,
                           size_t *n, bool *check, df_builder_t *direct)
{
    df__wrows_t r = {.direct = direct};
    r.rows = direct ? NULL : cm_arena_alloc(ctx->arena, sizeof *r.rows * (w->nrows ? w->nrows : 1));
    r.vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(t->ncols ? t->ncols : 1));
    cm_buf_init(&r.key, 0);
    bool ok = true;
    if (w->shards != NULL && df__own_shard(st, t, w)) {
        const df_write_shard_t *sh = &w->shards[st->worker];
        size_t at = 0;
        if (direct)
            df__builder_reserve(direct, sh->nrows);
        for (uint32_t i = 0; i < sh->nrows && ok; i++) {
            const uint8_t *key, *row;
            size_t klen, rlen;
            ok = df_write_shard_record(sh, &at, &key, &klen, &row, &rlen, ctx->err);
            if (!ok)
                break;
            if (direct)   /* the command's bytes outlive the batch's building */
                df__builder_add_ref(direct, key, klen, row, rlen, 1);
            else
                r.rows[r.n] = (df__wrow_t){.key = key, .klen = klen, .row = row, .rlen = rlen, .diff = 1};
            r.n++;
        }
    } else if (w->shards != NULL) {
        for (uint32_t s = 0; s < w->nshards && ok; s++) {
            size_t at = 0;
            for (uint32_t i = 0; i < w->shards[s].nrows && ok; i++) {
                const uint8_t *key, *row;
                size_t klen, rlen;
                ok = df_write_shard_record(&w->shards[s], &at, &key, &klen, &row, &rlen, ctx->err) &&
                     df__write_row(st, t, &r, row, rlen, 1, ctx);
            }
        }
    } else {
        for (uint32_t i = 0; i < w->nrows && ok; i++)
            ok = df__write_row(st, t, &r, w->rows[i], w->lens[i], w->diffs[i], ctx);
    }
    cm_buf_free(&r.key);
    *check = t->has_key;
    for (size_t i = 0; r.rows && i < r.n && !*check; i++)
        *check = r.rows[i].diff < 0;
    if (*check)
        qsort(r.rows, r.n, sizeof *r.rows, df__wrow_cmp);
    *out = r.rows;
    *n = r.n;
    return ok;
}

/*
 * Whether the rows keep the table's key unique (no insert of a key that is
 * there or comes twice) and, unless only checking, whether every row they
 * remove is there: a row read at an earlier step may have been changed by
 * another session since (40001, as PostgreSQL's repeatable read answers).
 * After a TRUNCATE in the same part the table counts as empty.
 */
static bool df__write_check(df_table_t *t, df__wrow_t *rows, size_t n, bool truncate, bool removals, ty_ctx_t *ctx,
                            const char *constraint)
{
    df_snap_t *snap = df__spine_snapshot(&t->spine);
    df_scur_t cur;
    df__scur_init(&cur, snap);
    bool ok = true;
    for (size_t i = 0; i < n && ok; i++) {
        size_t lo = i, hi = i;   /* the write's rows of this key: [lo, hi) */
        while (lo > 0 && df__wrow_cmp(&rows[lo - 1], &rows[i]) == 0)
            lo--;
        while (hi < n && df__wrow_cmp(&rows[hi], &rows[i]) == 0)
            hi++;
        bool there = !truncate && df__scur_seek(&cur, rows[i].key, rows[i].klen);
        if (rows[i].diff < 0 && removals) {
            /* This exact row: the write's net change to it against what the shard holds. */
            int64_t net = 0, held = 0;
            for (size_t j = lo; j < hi; j++)
                if (rows[j].rlen == rows[i].rlen && memcmp(rows[j].row, rows[i].row, rows[i].rlen) == 0)
                    net += rows[j].diff;
            if (there)
                for (df__scur_val_rewind(&cur); df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
                    size_t len;
                    const uint8_t *v = df__scur_val(&cur, &len);
                    if (len == rows[i].rlen && memcmp(v, rows[i].row, len) == 0)
                        held += df__scur_diff(&cur);
                }
            if (held + net < 0)
                ok = cm_err_set(ctx->err, "40001", "could not serialize access due to concurrent update");
            continue;
        }
        if (!t->has_key || rows[i].diff <= 0 || rows[i].null_key)
            continue;
        /* What the key holds after this write: its current rows plus the write's changes to it. */
        int64_t count = 0;
        if (there)
            for (df__scur_val_rewind(&cur); df__scur_val_valid(&cur); df__scur_val_next(&cur))
                count += df__scur_diff(&cur);
        for (size_t j = lo; j < hi; j++)
            count += rows[j].diff;
        if (count > 1) {
            cm_buf_t detail;
            cm_buf_init(&detail, 0);
            df__key_detail(t, rows[i].row, rows[i].rlen, ctx, &detail);
            cm_err_set(ctx->err, "23505", "duplicate key value violates unique constraint \"%s\"", constraint);
            cm_err_set_detail(ctx->err, "%.*s", (int)detail.len, (const char *)detail.data);
            cm_buf_free(&detail);
            ok = false;
        }
    }
    df__scur_free(&cur);
    df__snap_unref(snap);
    return ok;
}

/* A part's TRUNCATE: every row of the shard, removed. */
static void df__write_truncate(df_table_t *t, df_builder_t *bl)
{
    df_snap_t *snap = df__spine_snapshot(&t->spine);
    df_scur_t cur;
    df__scur_init(&cur, snap);
    for (; df__scur_key_valid(&cur); df__scur_key_next(&cur)) {
        size_t klen;
        const uint8_t *k = df__scur_key(&cur, &klen);
        for (; df__scur_val_valid(&cur); df__scur_val_next(&cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(&cur, &len);
            df__builder_add(bl, k, klen, v, len, -df__scur_diff(&cur));
        }
    }
    df__scur_free(&cur);
    df__snap_unref(snap);
}

/*
 * A sharded part's own section, its records in order (a COPY of rows sorted by their first
 * column gives them so), as its batch straight away: no builder, no copy of each record into it,
 * no sort; equal records are one record counted that many times. NULL when they are not in order
 * or not well formed (the builder's way sorts them, or finds what is wrong).
 */
static df_batch_t *df__section_batch(const df_write_shard_t *sh, uint64_t lower, uint64_t upper)
{
    enum { DF__SAME = 1, DF__NEW_KEY = 2 };   /* per record: equal to the one before; a new key */
    if (sh->nrows == 0)
        return NULL;
    uint8_t *flags = cm_malloc(sh->nrows);
    const uint8_t *pk = NULL, *pv = NULL;
    size_t pkl = 0, pvl = 0, at = 0;
    cm_err_t err = {0};
    bool ok = true;
    for (uint32_t i = 0; i < sh->nrows && ok; i++) {
        const uint8_t *k, *v;
        size_t kl, vl;
        if (!(ok = df_write_shard_record(sh, &at, &k, &kl, &v, &vl, &err)))
            break;
        int ck = i > 0 ? df__bytes_cmp(pk, pkl, k, kl) : -1;
        int cv = ck == 0 ? df__bytes_cmp(pv, pvl, v, vl) : -1;
        ok = ck < 0 || (ck == 0 && cv <= 0);
        flags[i] = (uint8_t)((ck == 0 && cv == 0 ? DF__SAME : 0) | (ck != 0 ? DF__NEW_KEY : 0));
        pk = k, pkl = kl, pv = v, pvl = vl;
    }
    cm_err_clear(&err);
    if (!ok || at != sh->len) {
        free(flags);
        return NULL;
    }
    df_bw_t w;
    df__bw_init(&w);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            df__bw_alloc(&w, lower, upper);
        at = 0;
        int64_t count = 0;
        bool new_key = false;
        for (uint32_t i = 0; i <= sh->nrows; i++) {
            const uint8_t *k = NULL, *v = NULL;
            size_t kl = 0, vl = 0;
            if (i < sh->nrows) {
                df_write_shard_record(sh, &at, &k, &kl, &v, &vl, &err);   /* read well above */
                if (flags[i] & DF__SAME) {
                    count++;
                    continue;
                }
            }
            if (count > 0)
                df__bw_put(&w, new_key, pk, pkl, pv, pvl, count);
            if (i < sh->nrows) {
                pk = k, pkl = kl, pv = v, pvl = vl;
                new_key = (flags[i] & DF__NEW_KEY) != 0;
                count = 1;
            }
        }
    }
    free(flags);
    return df__bw_done(&w);
}

typedef struct df__wpart {
    df_table_t *t;
    const df_write_part_t *p;
    df__wrow_t *rows;
    size_t n;
    bool direct;                 /* nothing to check: the rows went into bl as they were read */
    df_builder_t bl;
    df_batch_t *sorted;          /* a lone sharded part's section in order: its batch, made from it */
    /* A direct part right after a direct part of the same table (a group commit's statements)
     * adds its rows to that run's first part's builder: the table's dataflows run once. */
    struct df__wpart *into;
} df__wpart_t;

/* Whether a part has anything a worker must check: a key to keep unique, a row to remove. */
static bool df__part_checks(const df_table_t *t, const df_write_part_t *p)
{
    if (t->has_key)
        return true;
    for (uint32_t j = 0; p->diffs != NULL && j < p->nrows; j++)
        if (p->diffs[j] < 0)
            return true;
    return false;
}

/*
 * A write: each part's rows of this shard are checked, then every worker
 * votes (a part may fail on any shard), and the write applies everywhere at
 * this step or nowhere.
 */
static void df__write(df_state_t *st, const df_cmd_t *c, ty_ctx_t *ctx)
{
    df_write_t w;
    bool ok = df_write_decode(c->payload, c->payload_len, ctx->arena, &w, ctx->err);
    df__wpart_t *parts = cm_arena_zalloc(ctx->arena, sizeof *parts * (ok && w.nparts ? w.nparts : 1));
    for (uint32_t i = 0; ok && i < w.nparts; i++) {
        df__wpart_t *q = &parts[i];
        q->p = &w.parts[i];
        if (!(q->t = df__table_find(st->engine, q->p->table, NULL)))
            ok = cm_err_set(ctx->err, "42P01", "the table with ID %llu does not exist on worker %d",
                            (unsigned long long)q->p->table, st->worker);
        else if ((int)q->p->ncols != q->t->ncols)
            ok = cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a write of %u columns into a table of %d",
                            q->p->ncols, q->t->ncols);
        bool check = false;
        q->direct = ok && !df__part_checks(q->t, q->p);
        df__wpart_t *prev = i > 0 ? &parts[i - 1] : NULL;
        if (q->direct && w.nparts == 1 && !w.check_only && !q->p->truncate && q->p->shards != NULL &&
            df__own_shard(st, q->t, q->p) && (q->sorted = df__section_batch(&q->p->shards[st->worker], c->seq,
                                                                             c->seq + 1)) != NULL) {
            q->n = q->p->shards[st->worker].nrows;
            continue;
        }
        if (q->direct && prev != NULL && prev->direct && prev->t == q->t && !prev->p->truncate && !q->p->truncate)
            q->into = prev->into ? prev->into : prev;
        else if (q->direct)
            df__builder_init(&q->bl);
        ok = ok && df__write_rows(st, q->t, q->p, ctx, &q->rows, &q->n, &check,
                                  q->direct ? &(q->into ? q->into : q)->bl : NULL) &&
             (!check || df__write_check(q->t, q->rows, q->n, q->p->truncate, !w.check_only, ctx,
                                        q->p->constraint ? q->p->constraint : ""));
    }
    /* Applies only where every worker found it valid: all vote first. A write that can fail only
     * the same way on every worker (no key to check, no row to remove: what is left are malformed
     * bytes, which every worker decodes alike) needs no vote, so plain INSERTs and COPYs into a
     * table without a key do not wait for the slowest worker. */
    bool may_differ = w.check_only;
    for (uint32_t i = 0; !may_differ && i < w.nparts && parts[i].p != NULL; i++)
        may_differ = parts[i].t != NULL && df__part_checks(parts[i].t, parts[i].p);
    if (st->nworkers > 1 && c->reply && may_differ)
        ok = df_reply_vote(c->reply, ok);
    if (!ok || w.check_only) {
        for (uint32_t i = 0; i < w.nparts && parts[i].p != NULL; i++) {
            if (parts[i].sorted != NULL)
                df__batch_unref(parts[i].sorted);
            else if (parts[i].direct && parts[i].into == NULL)
                df__builder_free(&parts[i].bl);
        }
        return;
    }
    int64_t changed = 0;
    for (uint32_t i = 0; i < w.nparts; i++) {
        df__wpart_t *q = &parts[i];
        changed += (int64_t)q->n;
        if (q->into != NULL)
            continue;   /* its rows went with its run's first part */
        df_builder_t bl;
        df_batch_t *delta = q->sorted;
        if (delta != NULL) {
            df__builder_init(&bl);   /* nothing in it: freed below like a used one */
        } else if (q->direct) {
            bl = q->bl;
        } else {
            df__builder_init(&bl);
            for (size_t j = 0; j < q->n; j++)
                df__builder_add(&bl, q->rows[j].key, q->rows[j].klen, q->rows[j].row, q->rows[j].rlen,
                                q->rows[j].diff);
        }
        if (q->p->truncate)
            df__write_truncate(q->t, &bl);
        if (delta == NULL)
            delta = df__builder_finish(&bl, c->seq, c->seq + 1);
        df__batch_ref(delta);
        df__spine_insert(&q->t->spine, delta);
        df__builder_free(&bl);
        df__pub_mark(st, q->t->id);
        df__flows_written(st, q->t->id, delta->nvals ? delta : NULL, c->seq);
        df__batch_unref(delta);
    }
    if (c->reply)
        c->reply->parts[st->worker].count = changed;
}

/* ------------------------------------------------------------ reads */

#define DF_PEEK_RELATIONS_MAX 256

/* t as a reader needs it: a snapshot of its shard (a new reference) and its columns and key (borrowed). */
static void df__table_readable(df_table_t *t, df_readtable_t *out)
{
    *out = (df_readtable_t){.ncols = t->ncols, .types = t->types, .has_key = t->has_key, .nkeys = t->nkeys,
                            .keys = t->keys, .snap = df__spine_snapshot(&t->spine)};
}

bool df__table_readable_of(df_state_t *st, uint64_t id, df_readtable_t *out)
{
    df_table_t *t = df__table_find(st->engine, id, NULL);
    if (t != NULL)
        df__table_readable(t, out);
    return t != NULL;
}

static void df__peek(df_state_t *st, const df_cmd_t *c, ty_ctx_t *ctx)
{
    df_peek_t pk;
    plan_t *p = NULL;
    if (!df_peek_decode(c->payload, c->payload_len, ctx->arena, &pk, ctx->err) ||
        !plan_decode(ctx->arena, pk.plan, pk.plan_len, NULL, &p, ctx->err))
        return;
    if (pk.computed) {
        int64_t rows = 0;
        df__graph_computed(st, p, c->seq, &c->reply->parts[st->worker].bytes, &rows, ctx);
        c->reply->parts[st->worker].count = rows;
        st->peek_rows += (uint64_t)rows;
        return;
    }
    uint64_t items[DF_PEEK_RELATIONS_MAX];
    int n = plan_read_items(p, items, DF_PEEK_RELATIONS_MAX);
    if (n < 0) {
        cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a read of more than %d relations",
                   DF_PEEK_RELATIONS_MAX);
        return;
    }
    cm_buf_t *out = &c->reply->parts[st->worker].bytes;
    int64_t total = 0;
    for (int i = 0; i < n; i++) {
        const df_peek_lookup_t *l = df_peek_lookup_of(&pk, items[i]);
        df_table_t *t = df__table_find(st->engine, items[i], NULL);
        if (!t) {
            int64_t rows = 0;
            if (!df__mview_peek(st, items[i], l, out, ctx, &rows))
                return;
            total += rows;
            st->peek_rows += (uint64_t)rows;
            continue;
        }
        df_readtable_t rt;
        df__table_readable(t, &rt);
        uint32_t rows = 0;
        bool ok = df__readtable_peek(&rt, t->id, st->worker, st->nworkers, l, out, ctx, &rows);
        df__snap_unref(rt.snap);
        if (!ok)
            return;
        total += rows;
        st->peek_rows += rows;
    }
    c->reply->parts[st->worker].count = total;
}

void df__engine_command(df_state_t *st, const df_cmd_t *c)
{
    if (c->reply == NULL)
        return;
    df_engine_t *e = df__engine(st);
    cm_err_t err = {0};
    ty_ctx_t ctx = {.arena = &e->scratch, .settings = &e->settings, .err = &err};
    if (c->kind == DF_CMD_WRITE)
        df__write(st, c, &ctx);
    else
        df__peek(st, c, &ctx);
    df_reply_answer(c->reply, st->worker, &err);
    cm_err_clear(&err);
    cm_arena_reset(&e->scratch);
}
