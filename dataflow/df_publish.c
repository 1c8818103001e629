/*
 * df_publish.c: reads of materialized views and tables served on the
 * reader's own thread. After each batch of commands (and after idle merging)
 * a worker publishes, for every view whose rows, indexes or errors changed
 * and every table written, a version of its shard: snapshots of the view's
 * result and indexes, or of the table's rows (immutable batches, readable
 * on any thread while referenced), and the step from which they hold. A version is valid from that step up to the step the
 * worker has reached since (df_workers_t publishes it, after the versions),
 * because a later change makes a new version first.
 *
 * A read that must see every write acknowledged before it began needs a
 * step s no earlier than the last one numbered (the sequencer's fence); if
 * every worker's version of every view the read names is valid at one step
 * T >= s, the rows are one consistent snapshot at T, as a Peek sequenced at
 * T would have answered them, and the read is answered here without waking
 * a worker: a point lookup costs a seek on the caller's thread. Otherwise
 * (a worker still applying, a computed read, a relation not yet published
 * everywhere, another epoch) the caller sends the Peek as before.
 */
#include "dataflow/df_flow.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

/* One worker's shard of one view or table as of a step. */
typedef struct df__pubver {
    atomic_int refs;
    uint64_t epoch, from;        /* the rows hold from step `from` of epoch */
    bool table;                  /* t, else v */
    df_readview_t v;             /* snapshots referenced, columns and types owned */
    df_readtable_t t;
    bool failed;                 /* the view (or one it reads) is in error: a read answers it */
    char sqlstate[6];
    char *message;
} df__pubver_t;

typedef struct df__pubent {
    uint64_t id;
    df__pubver_t **slots;        /* per worker; NULL: not published there */
} df__pubent_t;

struct df_board {
    pthread_mutex_t mu;          /* ents and every slot */
    int nworkers;
    df__pubent_t *ents;          /* sorted by id */
    size_t n, cap;
};

df_board_t *df_board_new(int nworkers)
{
    df_board_t *b = cm_calloc(1, sizeof *b);
    pthread_mutex_init(&b->mu, NULL);
    b->nworkers = nworkers;
    return b;
}

static void df__pubver_unref(df__pubver_t *p)
{
    if (p == NULL || atomic_fetch_sub_explicit(&p->refs, 1, memory_order_acq_rel) != 1)
        return;
    df__snap_unref(p->v.result);
    df__snap_unref(p->t.snap);
    free((void *)p->t.types);
    free((void *)p->t.keys);
    for (int i = 0; i < p->v.nindexes; i++) {
        df__snap_unref(p->v.indexes[i].snap);
        free((void *)p->v.indexes[i].cols);
    }
    free(p->v.indexes);
    free((void *)p->v.types);
    free(p->message);
    free(p);
}

void df_board_free(df_board_t *b)
{
    if (b == NULL)
        return;
    for (size_t i = 0; i < b->n; i++) {
        for (int w = 0; w < b->nworkers; w++)
            df__pubver_unref(b->ents[i].slots[w]);
        free(b->ents[i].slots);
    }
    free(b->ents);
    pthread_mutex_destroy(&b->mu);
    free(b);
}

/* The entry of id (under mu), or where it would go. */
static size_t df__board_at(const df_board_t *b, uint64_t id, bool *found)
{
    size_t lo = 0, hi = b->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (b->ents[mid].id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    *found = lo < b->n && b->ents[lo].id == id;
    return lo;
}

/* Worker w's version of id becomes v (NULL: none); the old one is released after the lock. */
static void df__board_set(df_board_t *b, uint64_t id, int w, df__pubver_t *v)
{
    df__pubver_t *old = NULL;
    pthread_mutex_lock(&b->mu);
    bool found;
    size_t at = df__board_at(b, id, &found);
    if (!found && v != NULL) {
        if (b->n == b->cap) {
            b->cap = b->cap ? 2 * b->cap : 16;
            b->ents = cm_realloc(b->ents, sizeof *b->ents * b->cap);
        }
        memmove(&b->ents[at + 1], &b->ents[at], sizeof *b->ents * (b->n - at));
        b->ents[at] = (df__pubent_t){.id = id, .slots = cm_calloc((size_t)b->nworkers, sizeof(df__pubver_t *))};
        b->n++;
        found = true;
    }
    if (found) {
        df__pubent_t *e = &b->ents[at];
        old = e->slots[w];
        e->slots[w] = v;
        bool empty = true;
        for (int i = 0; i < b->nworkers && empty; i++)
            empty = e->slots[i] == NULL;
        if (empty) {
            free(e->slots);
            memmove(&b->ents[at], &b->ents[at + 1], sizeof *b->ents * (b->n - at - 1));
            b->n--;
        }
    }
    pthread_mutex_unlock(&b->mu);
    df__pubver_unref(old);
}

/* ------------------------------------------------------------ the worker's side */

/* More views out of date than this in one batch: every view publishes (one pass over them,
 * rather than a search of the list per mark). */
#define DF__PUB_DIRTY_MAX 64

void df__pub_mark(df_state_t *st, uint64_t id)
{
    if (st->board == NULL || st->pub_all)
        return;
    for (size_t i = 0; i < st->npub_dirty; i++)
        if (st->pub_dirty[i] == id)
            return;
    if (st->npub_dirty == DF__PUB_DIRTY_MAX) {
        st->pub_all = true;
        return;
    }
    if (st->npub_dirty == st->pub_dirty_cap) {
        st->pub_dirty_cap = st->pub_dirty_cap ? 2 * st->pub_dirty_cap : 8;
        st->pub_dirty = cm_realloc(st->pub_dirty, sizeof *st->pub_dirty * st->pub_dirty_cap);
    }
    st->pub_dirty[st->npub_dirty++] = id;
}

void df__pub_gone(df_state_t *st, uint64_t id)
{
    if (st->board != NULL)
        df__board_set(st->board, id, st->worker, NULL);
}

static df__pubver_t *df__pubver_new(df_state_t *st, df_graph_t *g)
{
    df__pubver_t *p = cm_calloc(1, sizeof *p);
    atomic_init(&p->refs, 1);
    p->epoch = st->epoch;
    p->from = st->seq;
    const df_verr_t *e = df__mview_error(st, g, 0);
    if (e != NULL) {
        p->failed = true;
        snprintf(p->sqlstate, sizeof p->sqlstate, "%s", e->sqlstate);
        p->message = cm_strdup(e->message ? e->message : "");
    }
    p->v.ncols = g->plan->ncols;
    ty_oid_t *types = cm_malloc(sizeof *types * (size_t)(p->v.ncols ? p->v.ncols : 1));
    memcpy(types, g->plan->root->types, sizeof *types * (size_t)p->v.ncols);
    p->v.types = types;
    p->v.result = df__spine_snapshot(&g->result);
    int nix = g->nindexes < DF_READ_INDEXES_MAX ? g->nindexes : DF_READ_INDEXES_MAX;
    p->v.indexes = cm_calloc((size_t)(nix ? nix : 1), sizeof *p->v.indexes);
    for (int i = 0; i < nix; i++) {
        const df_index_t *ix = &g->indexes[i];
        df_keycol_t *cols = cm_malloc(sizeof *cols * (size_t)(ix->ncols ? ix->ncols : 1));
        memcpy(cols, ix->cols, sizeof *cols * (size_t)ix->ncols);
        p->v.indexes[i] = (df_readix_t){.ncols = ix->ncols, .cols = cols, .snap = df__spine_snapshot(&g->indexes[i].spine)};
    }
    p->v.nindexes = nix;
    return p;
}

/* A table's version: its shard's snapshot, its columns and key copied (the table may go first). */
static df__pubver_t *df__pubver_table(df_state_t *st, const df_readtable_t *rt)
{
    df__pubver_t *p = cm_calloc(1, sizeof *p);
    atomic_init(&p->refs, 1);
    p->epoch = st->epoch;
    p->from = st->seq;
    p->table = true;
    p->t = *rt;
    ty_oid_t *types = cm_malloc(sizeof *types * (size_t)(rt->ncols ? rt->ncols : 1));
    memcpy(types, rt->types, sizeof *types * (size_t)rt->ncols);
    df_keycol_t *keys = cm_malloc(sizeof *keys * (size_t)(rt->nkeys ? rt->nkeys : 1));
    memcpy(keys, rt->keys, sizeof *keys * (size_t)rt->nkeys);
    p->t.types = types;
    p->t.keys = keys;
    return p;
}

static void df__pub_one(df_state_t *st, uint64_t id)
{
    df_graph_t *g = df__graph_find(st, id);
    df_readtable_t rt;
    df__pubver_t *v = NULL;
    if (g != NULL && g->plan != NULL)
        v = df__pubver_new(st, g);
    else if (g == NULL && df__table_readable_of(st, id, &rt))
        v = df__pubver_table(st, &rt);
    df__board_set(st->board, id, st->worker, v);
}

void df__pub_flush(df_state_t *st)
{
    if (st->board == NULL)
        return;
    if (st->pub_all) {
        for (size_t i = 0; i < st->nflows; i++)
            df__pub_one(st, st->flows[i].id);
    } else {
        for (size_t i = 0; i < st->npub_dirty; i++)
            df__pub_one(st, st->pub_dirty[i]);
    }
    st->npub_dirty = 0;
    st->pub_all = false;
}

void df__pub_state_free(df_state_t *st)
{
    free(st->pub_dirty);
    st->pub_dirty = NULL;
    st->npub_dirty = st->pub_dirty_cap = 0;
}

/* ------------------------------------------------------------ the reader's side */

#define DF__READ_ITEMS_MAX 16

/* A read that would visit more records than this goes to the workers instead: they scan their
 * shards side by side (a scan of 1,000 rows was as fast there as here), and the session's loop,
 * which serves other connections, is not held up. */
#define DF__READ_HERE_RECORDS 256

/* The records a read of v (under lookup l) visits, about: a seek per lookup row by a table's key or
 * (when the view has one) an index, else every record of the shard. */
static uint64_t df__pubver_cost(const df__pubver_t *v, const df_peek_lookup_t *l)
{
    if (v->table)
        return l != NULL && v->t.has_key ? l->nrows : v->t.snap->records;
    return l != NULL && v->v.nindexes > 0 ? l->nrows : v->v.result->records;
}

bool df_board_read(df_board_t *b, const uint64_t *epochs, const uint64_t *seqs, uint64_t epoch, uint64_t fence,
                   const uint64_t *items, int n, const uint8_t *lookups, size_t len, df_reply_t *rep)
{
    if (b == NULL || rep->nworkers != b->nworkers)
        return false;
    int nw = b->nworkers;
    uint64_t reached = UINT64_MAX;
    for (int w = 0; w < nw; w++) {
        if (epochs[w] != epoch)
            return false;
        reached = seqs[w] < reached ? seqs[w] : reached;
    }
    if (reached < fence)
        return false;   /* a worker is still applying what the read must see */
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_err_t err = {0};
    df_peek_t pk;
    bool ok = n > 0 && n <= DF__READ_ITEMS_MAX && df_peek_decode(lookups, len, &arena, &pk, &err) && !pk.computed &&
              pk.plan_len == 0;
    df__pubver_t *vers[DF__READ_ITEMS_MAX * 8];
    if (ok && (size_t)n * (size_t)nw > sizeof vers / sizeof vers[0])
        ok = false;
    int held = 0;
    if (ok) {
        pthread_mutex_lock(&b->mu);
        for (int i = 0; ok && i < n; i++) {
            bool found;
            size_t at = df__board_at(b, items[i], &found);
            for (int w = 0; ok && w < nw; w++) {
                df__pubver_t *v = found ? b->ents[at].slots[w] : NULL;
                ok = v != NULL;
                if (ok) {
                    atomic_fetch_add_explicit(&v->refs, 1, memory_order_relaxed);
                    vers[held++] = v;
                }
            }
        }
        pthread_mutex_unlock(&b->mu);
    }
    /* One step T at which every version holds: T >= the fence and every version's start,
     * T <= the step every worker has reached. */
    uint64_t t = fence;
    for (int k = 0; ok && k < held; k++) {
        ok = vers[k]->epoch == epoch;
        t = vers[k]->from > t ? vers[k]->from : t;
    }
    ok = ok && t <= reached;
    uint64_t cost = 0;
    for (int i = 0; ok && i < n; i++) {
        const df_peek_lookup_t *l = df_peek_lookup_of(&pk, items[i]);
        for (int w = 0; w < nw; w++)
            cost += df__pubver_cost(vers[i * nw + w], l);
    }
    ok = ok && cost <= DF__READ_HERE_RECORDS;
    if (ok) {
        ty_settings_t settings;
        ty_settings_default(&settings);
        for (int w = 0; w < nw; w++) {
            cm_err_t werr = {0};
            ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &werr};
            int64_t total = 0;
            for (int i = 0; i < n && !werr.set; i++) {
                const df__pubver_t *v = vers[i * nw + w];
                const df_peek_lookup_t *l = df_peek_lookup_of(&pk, items[i]);
                int64_t rows = 0;
                uint32_t trows = 0;
                if (v->failed)
                    cm_err_set(&werr, v->sqlstate, "%s", v->message);
                else if (v->table ? df__readtable_peek(&v->t, items[i], w, nw, l, &rep->parts[w].bytes, &ctx, &trows)
                                  : df__readview_peek(&v->v, items[i], l, &rep->parts[w].bytes, &ctx, &rows))
                    total += rows + trows;
            }
            rep->parts[w].count = total;
            df_reply_answer(rep, w, &werr);
            cm_err_clear(&werr);
        }
    }
    for (int k = 0; k < held; k++)
        df__pubver_unref(vers[k]);
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return ok;
}
