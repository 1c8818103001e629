/*
 * df_subscribe.c: SUBSCRIBE on the workers (DESIGN §6). A subscription
 * (df_sub_t) is shared by the session that reads it and every worker. To a
 * materialized view: at the Subscribe command's step each worker appends
 * its share of the view's rows (the snapshot), then registers the
 * subscription with the view's graph, which appends every later step's
 * delta (df__mview_apply); tables and queries are df_sub_flow.c's;
 * after each batch of commands a worker raises its progress (every step up
 * to it is in). The session polls it (srv_subscribe.c: a timer, so no
 * worker ever touches the session's loop), takes what the workers appended,
 * and emits the steps every worker has passed, in step order, consolidated. Records are
 * (u64 step, i64 diff, u32 length, row bytes) in one buffer per worker,
 * under the subscription's lock; past max_bytes of records not yet taken
 * the subscription fails (a slow reader cannot pin memory without bound).
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

struct df_sub {
    atomic_int refs;
    pthread_mutex_t mu;
    int nworkers;
    df_sub_kind_t kind;
    uint64_t object;             /* the view or table (a query: 0) */
    bool snapshot;
    size_t max_bytes;
    atomic_bool closed;          /* the session is gone: workers drop it */
    cm_buf_t *records;           /* per worker, not yet taken */
    uint64_t *progress;          /* per worker: every step up to it is in its records */
    size_t pending;              /* bytes of records not yet taken */
    uint64_t start;              /* the step it began at (its snapshot's); 0: not yet */
    uint64_t upper;              /* the lowest progress of the workers when it was last looked at */
    df_sub_notify_fn notify;     /* the session's wake-up (df_sub_set_notify); NULL: none */
    void *notify_arg;
    bool notify_progress;        /* a frontier moving is news even without records */
    bool notified;               /* woken since the last take */
    cm_err_t err;                /* the subscription ended on the workers' side */
};

df_sub_t *df_sub_new(int nworkers, df_sub_kind_t kind, uint64_t object, bool snapshot, size_t max_bytes)
{
    df_sub_t *s = cm_calloc(1, sizeof *s);
    atomic_init(&s->refs, 1);
    atomic_init(&s->closed, false);
    pthread_mutex_init(&s->mu, NULL);
    s->nworkers = nworkers;
    s->kind = kind;
    s->object = object;
    s->snapshot = snapshot;
    s->max_bytes = max_bytes;
    s->records = cm_calloc((size_t)nworkers, sizeof *s->records);
    s->progress = cm_calloc((size_t)nworkers, sizeof *s->progress);
    for (int i = 0; i < nworkers; i++)
        cm_buf_init(&s->records[i], 0);
    return s;
}

void df_sub_ref(df_sub_t *s)
{
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

void df_sub_unref(df_sub_t *s)
{
    if (s == NULL || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (int i = 0; i < s->nworkers; i++)
        cm_buf_free(&s->records[i]);
    free(s->records);
    free(s->progress);
    cm_err_clear(&s->err);
    pthread_mutex_destroy(&s->mu);
    free(s);
}

void df_sub_close(df_sub_t *s)
{
    atomic_store(&s->closed, true);
}

bool df_sub_take(df_sub_t *s, cm_buf_t *records, uint64_t *progress, cm_err_t *err)
{
    pthread_mutex_lock(&s->mu);
    for (int i = 0; i < s->nworkers; i++) {
        cm_buf_put(&records[i], s->records[i].data, s->records[i].len);
        s->records[i].len = 0;
        progress[i] = s->progress[i];
    }
    s->pending = 0;
    s->notified = false;
    bool ok = !s->err.set;
    if (!ok)
        cm_err_set(err, s->err.sqlstate, "%s", s->err.message ? s->err.message : "");
    pthread_mutex_unlock(&s->mu);
    return ok;
}

/* Under mu: the session hears of it, once until it takes what is there. */
static void df__sub_wake_locked(df_sub_t *s)
{
    if (s->notify != NULL && !s->notified) {
        s->notified = true;
        s->notify(s->notify_arg);
    }
}

void df_sub_set_notify(df_sub_t *s, df_sub_notify_fn fn, void *arg, bool progress)
{
    pthread_mutex_lock(&s->mu);
    s->notify = fn;
    s->notify_arg = arg;
    s->notify_progress = progress;
    s->notified = false;
    pthread_mutex_unlock(&s->mu);
}

/* Under mu: fails the subscription (the first failure stays). */
static void df__sub_fail_locked(df_sub_t *s, const char *sqlstate, const char *message)
{
    if (!s->err.set)
        cm_err_set(&s->err, sqlstate, "%s", message);
    df__sub_wake_locked(s);
}

void df__sub_fail(df_sub_t *s, const char *sqlstate, const char *message)
{
    pthread_mutex_lock(&s->mu);
    df__sub_fail_locked(s, sqlstate, message);
    pthread_mutex_unlock(&s->mu);
}

/* The rows of batch (rows in its keys, as a view's result holds them, or in its values, as a
 * view's delta) at step seq into worker w's records. */
void df__sub_append(df_sub_t *s, int w, const df_batch_t *b, bool rows_in_keys, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    cm_buf_t *out = &s->records[w];
    size_t before = out->len;
    for (uint64_t k = 0; k < b->nkeys && !s->err.set; k++) {
        uint64_t hi = k + 1 < b->nkeys ? df__batch_vals_lo(b, k + 1) : b->nvals;
        for (uint64_t j = df__batch_vals_lo(b, k); j < hi; j++) {
            size_t len;
            const uint8_t *row = rows_in_keys ? df__batch_key(b, k, &len) : df__batch_val(b, j, &len);
            int64_t diff = df__batch_diff(b, j);
            if (diff == 0)
                continue;
            cm_buf_put_be64(out, seq);
            cm_buf_put_be64(out, (uint64_t)diff);
            cm_buf_put_be32(out, (uint32_t)len);
            cm_buf_put(out, row, len);
        }
    }
    s->pending += out->len - before;
    if (s->pending > s->max_bytes)
        df__sub_fail_locked(s, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                            "SUBSCRIBE fell behind: more than the per-connection limit of unsent bytes waits for it");
    pthread_mutex_unlock(&s->mu);
}

df_sub_kind_t df__sub_kind(const df_sub_t *s)
{
    return s->kind;
}

uint64_t df__sub_object(const df_sub_t *s)
{
    return s->object;
}

bool df__sub_snapshot(const df_sub_t *s)
{
    return s->snapshot;
}

bool df__sub_closed(df_sub_t *s)
{
    return atomic_load(&s->closed);
}

void df__sub_progress_set(df_sub_t *s, int w, uint64_t seq)
{
    pthread_mutex_lock(&s->mu);
    s->progress[w] = seq;
    uint64_t upper = UINT64_MAX;
    for (int i = 0; i < s->nworkers; i++)
        if (s->progress[i] < upper)
            upper = s->progress[i];
    /* Only the last worker to pass a step wakes the session: before, it could emit nothing. */
    if (upper > s->upper) {
        s->upper = upper;
        if (s->pending > 0 || s->notify_progress)
            df__sub_wake_locked(s);
    }
    pthread_mutex_unlock(&s->mu);
}

uint64_t df_sub_started(df_sub_t *s)
{
    pthread_mutex_lock(&s->mu);
    uint64_t start = s->start;
    pthread_mutex_unlock(&s->mu);
    return start;
}

void df__sub_start(df_state_t *st, df_sub_t *s, uint64_t seq, const uint8_t *plan, size_t plan_len)
{
    pthread_mutex_lock(&s->mu);
    s->start = seq;
    pthread_mutex_unlock(&s->mu);
    if (s->kind != DF_SUB_VIEW) {
        df__sub_flow_start(st, s, seq, plan, plan_len);
        return;
    }
    df_graph_t *g = df__graph_find(st, s->object);
    if (g == NULL) {
        df__sub_fail(s, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SUBSCRIBE needs a maintained materialized view");
        return;
    }
    if (s->snapshot) {
        df_snap_t *snap = df__spine_snapshot(&g->result);
        for (uint32_t i = 0; i < snap->nbatches; i++)
            df__sub_append(s, st->worker, snap->batches[i], true, seq);
        df__snap_unref(snap);
    }
    g->subs = cm_realloc(g->subs, sizeof *g->subs * (size_t)(g->nsubs + 1));
    df_sub_ref(s);
    g->subs[g->nsubs++] = s;
    st->nsubs++;
}

void df__sub_delta(df_state_t *st, df_graph_t *g, const df_batch_t *delta, uint64_t seq)
{
    for (int i = 0; i < g->nsubs; i++)
        if (!atomic_load(&g->subs[i]->closed))
            df__sub_append(g->subs[i], st->worker, delta, false, seq);
}

/* The ending Subscribe command: the view's graph lets it go (its own dataflow: df_sub_flow.c). */
void df__sub_end(df_state_t *st, df_sub_t *s)
{
    if (s->kind != DF_SUB_VIEW) {
        df__sub_flow_end(st, s);
        return;
    }
    df_graph_t *g = df__graph_find(st, s->object);
    for (int i = 0; g != NULL && i < g->nsubs; i++)
        if (g->subs[i] == s) {
            g->subs[i] = g->subs[--g->nsubs];
            st->nsubs--;
            df_sub_unref(s);
            return;
        }
}

/* After a batch: every subscription hears how far this worker got; closed ones are let go. */
void df__sub_progress(df_state_t *st)
{
    df__sub_flows_progress(st);
    if (st->nsubs == 0)
        return;
    for (size_t f = 0; f < st->nflows; f++) {
        df_graph_t *g = st->flows[f].graph;
        for (int i = 0; g != NULL && i < g->nsubs;) {
            df_sub_t *s = g->subs[i];
            if (atomic_load(&s->closed)) {
                g->subs[i] = g->subs[--g->nsubs];
                st->nsubs--;
                df_sub_unref(s);
                continue;
            }
            df__sub_progress_set(s, st->worker, st->seq);
            i++;
        }
    }
}

bool df_sub_decode(const ty_oid_t *types, int ncols, const uint8_t *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out)
{
    return df__row_decode(types, ncols, p, len, DF_ROW_COPY, ctx, out);
}

void df__sub_detach_all(struct df_graph *g, df_sub_t ***subs, int *n)
{
    *subs = g->subs;
    *n = g->nsubs;
    g->subs = NULL;
    g->nsubs = 0;
}

void df__sub_attach_all(df_state_t *st, struct df_graph *g, df_sub_t **subs, int n)
{
    if (n == 0)
        return;
    if (g == NULL) {
        for (int i = 0; i < n; i++) {
            df__sub_fail(subs[i], CM_ERRCODE_UNDEFINED_TABLE, "the subscribed materialized view was dropped");
            df_sub_unref(subs[i]);
        }
        st->nsubs -= n;
        free(subs);
        return;
    }
    g->subs = subs;
    g->nsubs = n;
}

/* The view goes (DROP, or installed anew): its subscriptions end. */
void df__sub_drop_all(df_state_t *st, df_graph_t *g)
{
    for (int i = 0; i < g->nsubs; i++) {
        df__sub_fail(g->subs[i], CM_ERRCODE_UNDEFINED_TABLE, "the subscribed materialized view was dropped");
        df_sub_unref(g->subs[i]);
        st->nsubs--;
    }
    free(g->subs);
    g->subs = NULL;
    g->nsubs = 0;
}
