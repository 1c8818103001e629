/*
 * df_worker.c: the worker threads (DESIGN §5, §10.7). Each worker owns a
 * libuv loop, a bounded command queue and an uv_async_t that the sender
 * signals after a push; the async callback takes the whole queue, applies
 * it in order and then acknowledges once for the batch. Acknowledging after
 * every drain (even of duplicates only) is also what tells a sender that
 * was refused by a full queue to try again.
 *
 * The worker's state is written only on its thread, under its lock, so
 * that eddy_internal can read it from a pgwire thread; applies are rare
 * and short, so the lock is never held for long.
 */
#include "dataflow/df_flow.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

typedef struct df_worker {
    df_workers_t *ws;
    int index;
    uv_loop_t loop;
    uv_async_t async;            /* "commands queued" and the stop order */
    uv_idle_t linger;            /* active: the loop polls instead of sleeping (cfg.spin_us) */
    atomic_bool polling;         /* lingering: it looks at its queue each turn, a push need not signal */
    int64_t linger_until_us;
    uv_timer_t quiet;            /* fires once the worker has had no command for cfg.idle_merge_ms */
    uv_idle_t compact;           /* active: slices of idle work between commands, until none is left */
    uv_thread_t thread;
    df_queue_t queue;
    df_cmd_t **batch;            /* room for one whole queue */
    atomic_bool stop;
    pthread_mutex_t mu;          /* guards state for readers on other threads */
    df_state_t state;
    /* Published after every batch for readers that must not wait for the lock (metrics). */
    _Atomic uint64_t pub_epoch, pub_seq, pub_index, pub_commands;
    _Atomic uint64_t snapshot_rows;   /* rows of its shards that reads took from what it published */
    _Atomic int64_t pub_records, pub_bytes;
} df_worker_t;

struct df_workers {
    df_config_t cfg;
    df_exchange_t *exchange;     /* shared by every worker's state */
    df_board_t *board;           /* the views' shards the workers publish for readers */
    df_worker_t *w;
    int n;
    bool started;
    df_ack_fn ack;
    void *ack_arg;
};

void df_config_default(df_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->workers = 1;
    cfg->queue_max = 1024;
    cfg->pending_max = 64;
    cfg->history_max = 10000;
    cfg->channel_max = 64;
    cfg->idle_merge_ms = 100;
    cfg->idle_slice = 20000;
    cfg->recursion_max = DF_RECURSION_MAX_DEFAULT;
}

static void df__async_cb(uv_async_t *a);

/* While the worker lingers its loop polls without blocking, yielding the CPU
 * each turn, and takes what its queue holds: a command sent then costs its
 * sender no wake-up (neither the eventfd write nor the sleeping thread's
 * wake-up, tens of microseconds for both threads on a VM), and the next
 * DDL's or write's commands follow the last one's within a client's round
 * trip. Whoever pushes signals only a worker that is not polling: polling
 * is cleared before the queue is looked at a last time, and a push is in
 * the queue before its sender looks at polling, so one of them sees the
 * other. */
static void df__linger_cb(uv_idle_t *h)
{
    df_worker_t *w = h->data;
    if (atomic_load(&w->stop)) {
        atomic_store(&w->polling, false);
        uv_idle_stop(h);
        return;
    }
    if (cm_now_mono_us() >= w->linger_until_us) {
        atomic_store(&w->polling, false);
        if (df_queue_pending(&w->queue))
            df__async_cb(&w->async);   /* lingers again if that was work */
        if (!atomic_load(&w->polling))
            uv_idle_stop(h);
        return;
    }
    if (df_queue_pending(&w->queue))
        df__async_cb(&w->async);
    else
        sched_yield();
}

static void df__linger(df_worker_t *w)
{
    if (w->ws->cfg.spin_us <= 0)
        return;
    w->linger_until_us = cm_now_mono_us() + w->ws->cfg.spin_us;
    atomic_store(&w->polling, true);
    uv_idle_start(&w->linger, df__linger_cb);
}

/*
 * Idle work (merging an arrangement's batches down to one, unmapping what
 * merges released) runs only after cfg.idle_merge_ms without a command,
 * never between the commands of a busy stream: there the inserts' own fuel
 * keeps merges on schedule, and folding a one-row batch into a big one
 * after each write would cost the size of the data per write. It runs in
 * slices of cfg.idle_slice units, so a command arriving meanwhile waits at
 * most one slice; a change stops it and restarts the quiet period, a read
 * (Peek) does neither.
 */
/* What threads freed inside the allocator goes back to the kernel once a
 * compaction is done, and once more a second later: the thread that ran the
 * last statement (a COPY's buffers) may free its part after the worker went
 * quiet. Any thread's release covers the whole process. */
#define DF__RELEASE_FREE_BYTES ((size_t)4 << 20)

static void df__release_cb(uv_timer_t *t)
{
    cm_alloc_release_free(DF__RELEASE_FREE_BYTES);
}

/* The records and bytes of this thread's arrangements, for df_workers_gauges. */
static void df__publish_arranged(df_worker_t *w)
{
    int64_t records, bytes;
    df__spine_arranged(&records, &bytes);
    atomic_store_explicit(&w->pub_records, records, memory_order_relaxed);
    atomic_store_explicit(&w->pub_bytes, bytes, memory_order_relaxed);
}

static void df__compact_cb(uv_idle_t *h)
{
    df_worker_t *w = h->data;
    pthread_mutex_lock(&w->mu);
    bool more = df_state_idle_work(&w->state, w->ws->cfg.idle_slice);
    df__pub_flush(&w->state);   /* merged batches: readers let go of the ones merged away */
    pthread_mutex_unlock(&w->mu);
    df__publish_arranged(w);
    if (!more || atomic_load(&w->stop)) {
        uv_idle_stop(h);
        cm_alloc_release_free(DF__RELEASE_FREE_BYTES);
        if (!atomic_load(&w->stop))
            uv_timer_start(&w->quiet, df__release_cb, 1000, 0);
    }
}

static void df__quiet_cb(uv_timer_t *t)
{
    df_worker_t *w = t->data;
    if (!atomic_load(&w->stop))
        uv_idle_start(&w->compact, df__compact_cb);
}

static void df__busy(df_worker_t *w)
{
    if (w->ws->cfg.idle_merge_ms <= 0)
        return;
    uv_idle_stop(&w->compact);
    uv_timer_start(&w->quiet, df__quiet_cb, (uint64_t)w->ws->cfg.idle_merge_ms, 0);
}

static void df__close_handles(df_worker_t *w)
{
    uv_close((uv_handle_t *)&w->async, NULL);
    uv_close((uv_handle_t *)&w->linger, NULL);
    uv_close((uv_handle_t *)&w->quiet, NULL);
    uv_close((uv_handle_t *)&w->compact, NULL);
}

static void df__async_cb(uv_async_t *a)
{
    df_worker_t *w = a->data;
    df_workers_t *ws = w->ws;
    size_t n = df_queue_drain(&w->queue, w->batch);
    /* A slow worker, for the timeout tests; not worker 0, whose loop the sequencer shares. */
    if (n > 0 && ws->cfg.fault_delay_ms > 0 && w->index > 0)
        uv_sleep((unsigned)ws->cfg.fault_delay_ms);
    if (n > 0) {
        bool work = false;   /* besides ticks: a heartbeat is no sign of more to come */
        /* Only what changes arrangements puts idle work off: a stream of reads adds no batch,
         * and its lookups need the batches merged (a read waits at most one slice). */
        bool changes = false;
        pthread_mutex_lock(&w->mu);
        for (size_t i = 0; i < n; i++) {
            work = work || w->batch[i]->kind != DF_CMD_TICK;
            changes = changes || (w->batch[i]->kind != DF_CMD_TICK && w->batch[i]->kind != DF_CMD_PEEK);
            df_apply_rc_t rc = df_state_offer(&w->state, w->batch[i]);
            if (rc == DF_APPLY_STALE_EPOCH || rc == DF_APPLY_OVERFLOW)
                cm_log_warn("worker %d: refused %s seq %llu of epoch %llu (at epoch %llu seq %llu)", w->index,
                            df_cmd_kind_name(w->batch[i]->kind), (unsigned long long)w->batch[i]->seq,
                            (unsigned long long)w->batch[i]->epoch, (unsigned long long)w->state.epoch,
                            (unsigned long long)w->state.seq);
            df_cmd_unref(w->batch[i]);
        }
        df__sub_progress(&w->state);
        df__pub_flush(&w->state);
        uint64_t epoch = w->state.epoch, seq = w->state.seq, index = w->state.index;
        pthread_mutex_unlock(&w->mu);
        /* Release: a reader that sees the step sees the shards published for it (df_publish.c). */
        atomic_store_explicit(&w->pub_epoch, epoch, memory_order_release);
        atomic_store_explicit(&w->pub_seq, seq, memory_order_release);
        atomic_store_explicit(&w->pub_index, index, memory_order_relaxed);
        atomic_fetch_add_explicit(&w->pub_commands, n, memory_order_relaxed);
        df__publish_arranged(w);
        if (ws->ack)
            ws->ack(ws->ack_arg, w->index, epoch, seq, index);
        if (work)
            df__linger(w);
        if (changes)
            df__busy(w);
    }
    if (atomic_load(&w->stop))
        df__close_handles(w);
}

static void df__thread(void *arg)
{
    df_worker_t *w = arg;
    uv_run(&w->loop, UV_RUN_DEFAULT);
}

df_workers_t *df_workers_new(const df_config_t *cfg, cm_err_t *err)
{
    if (cfg->workers < 1 || cfg->queue_max < 1) {
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "workers and queue size must be at least 1");
        return NULL;
    }
    df_workers_t *ws = cm_calloc(1, sizeof *ws);
    ws->cfg = *cfg;
    ws->n = cfg->workers;
    ws->w = cm_calloc((size_t)ws->n, sizeof *ws->w);
    ws->exchange = ws->n > 1 ? df__xchg_new(ws->n, cfg->channel_max ? cfg->channel_max : 64) : NULL;
    ws->board = df_board_new(ws->n);
    for (int i = 0; i < ws->n; i++) {
        df_worker_t *w = &ws->w[i];
        w->ws = ws;
        w->index = i;
        uv_loop_init(&w->loop);
        uv_async_init(&w->loop, &w->async, df__async_cb);
        w->async.data = w;
        uv_idle_init(&w->loop, &w->linger);
        w->linger.data = w;
        uv_timer_init(&w->loop, &w->quiet);
        w->quiet.data = w;
        uv_idle_init(&w->loop, &w->compact);
        w->compact.data = w;
        df_queue_init(&w->queue, cfg->queue_max);
        w->batch = cm_calloc(cfg->queue_max, sizeof *w->batch);
        atomic_init(&w->stop, false);
        atomic_init(&w->polling, false);
        pthread_mutex_init(&w->mu, NULL);
        df_state_init(&w->state, cfg->pending_max, cfg->history_max);
        w->state.worker = i;
        w->state.nworkers = cfg->workers;
        w->state.exchange = ws->exchange;
        w->state.board = ws->board;
        w->state.recursion_max = cfg->recursion_max > 0 ? cfg->recursion_max : DF_RECURSION_MAX_DEFAULT;
    }
    return ws;
}

void df_workers_set_ack(df_workers_t *ws, df_ack_fn fn, void *arg)
{
    CM_ASSERT(!ws->started);
    ws->ack = fn;
    ws->ack_arg = arg;
}

int df_workers_count(const df_workers_t *ws)
{
    return ws->n;
}

uv_loop_t *df_workers_loop(df_workers_t *ws, int i)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    return &ws->w[i].loop;
}

void df_workers_start(df_workers_t *ws)
{
    ws->started = true;
    for (int i = 0; i < ws->n; i++)
        uv_thread_create(&ws->w[i].thread, df__thread, &ws->w[i]);
}

bool df_workers_push(df_workers_t *ws, int i, df_cmd_t *c)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    df_cmd_ref(c);
    if (!df_queue_push(&w->queue, c)) {
        df_cmd_unref(c);
        return false;
    }
    if (!atomic_load(&w->polling))
        uv_async_send(&w->async);
    return true;
}

void df_workers_stop(df_workers_t *ws)
{
    if (!ws->started)
        return;
    for (int i = 0; i < ws->n; i++) {
        atomic_store(&ws->w[i].stop, true);
        uv_async_send(&ws->w[i].async);
    }
    /* A worker waiting for its peers inside a step gives up: the state is going away. */
    df__xchg_stop(ws->exchange);
    for (int i = 0; i < ws->n; i++)
        uv_thread_join(&ws->w[i].thread);
    ws->started = false;
}

void df_workers_free(df_workers_t *ws)
{
    if (ws == NULL)
        return;
    CM_ASSERT(!ws->started);
    for (int i = 0; i < ws->n; i++) {
        df_worker_t *w = &ws->w[i];
        if (!uv_is_closing((uv_handle_t *)&w->async)) {
            /* Never started: close the handles and let the loop finish them. */
            df__close_handles(w);
            uv_run(&w->loop, UV_RUN_DEFAULT);
        }
        uv_loop_close(&w->loop);
        df_queue_destroy(&w->queue);
        free(w->batch);
        pthread_mutex_destroy(&w->mu);
        df_state_destroy(&w->state);
    }
    free(ws->w);
    df_board_free(ws->board);
    df__xchg_free(ws->exchange);
    free(ws);
}

void df_workers_status(df_workers_t *ws, int i, df_worker_status_t *out)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    pthread_mutex_lock(&w->mu);
    *out = (df_worker_status_t){.worker = i, .epoch = w->state.epoch, .seq = w->state.seq,
                                .index = w->state.index, .ndataflows = w->state.nflows,
                                .duplicates = w->state.duplicates, .refused = w->state.refused,
                                .peek_rows = w->state.peek_rows +
                                             atomic_load_explicit(&w->snapshot_rows, memory_order_relaxed)};
    pthread_mutex_unlock(&w->mu);
}

void df_workers_gauges(const df_workers_t *ws, int i, df_worker_gauges_t *out)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    const df_worker_t *w = &ws->w[i];
    *out = (df_worker_gauges_t){
        .epoch = atomic_load_explicit(&w->pub_epoch, memory_order_relaxed),
        .seq = atomic_load_explicit(&w->pub_seq, memory_order_relaxed),
        .index = atomic_load_explicit(&w->pub_index, memory_order_relaxed),
        .commands = atomic_load_explicit(&w->pub_commands, memory_order_relaxed),
        .records = atomic_load_explicit(&w->pub_records, memory_order_relaxed),
        .bytes = atomic_load_explicit(&w->pub_bytes, memory_order_relaxed),
    };
}

bool df_workers_read_published(df_workers_t *ws, uint64_t epoch, uint64_t fence, const uint64_t *items, int n,
                               const uint8_t *lookups, size_t len, df_reply_t *rep)
{
    enum { MAX = 64 };
    uint64_t epochs[MAX], seqs[MAX];
    if (ws->n > MAX)
        return false;
    /* Each worker's step before its shards (df_publish.c says why that order). */
    for (int i = 0; i < ws->n; i++) {
        seqs[i] = atomic_load_explicit(&ws->w[i].pub_seq, memory_order_acquire);
        epochs[i] = atomic_load_explicit(&ws->w[i].pub_epoch, memory_order_acquire);
    }
    if (!df_board_read(ws->board, epochs, seqs, epoch, fence, items, n, lookups, len, rep))
        return false;
    for (int i = 0; i < ws->n; i++)
        atomic_fetch_add_explicit(&ws->w[i].snapshot_rows, (uint64_t)rep->parts[i].count, memory_order_relaxed);
    return true;
}

void df_workers_visit_applied(df_workers_t *ws, int i, void (*cb)(void *arg, const df_applied_t *a), void *arg)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    pthread_mutex_lock(&w->mu);
    for (size_t k = 0; k < w->state.hist_len; k++)
        cb(arg, df_state_applied_at(&w->state, k));
    pthread_mutex_unlock(&w->mu);
}

void df_workers_visit_dataflows(df_workers_t *ws, int i, void (*cb)(void *arg, const df_dataflow_t *d), void *arg)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    pthread_mutex_lock(&w->mu);
    for (size_t k = 0; k < w->state.nflows; k++)
        cb(arg, &w->state.flows[k]);
    pthread_mutex_unlock(&w->mu);
}

void df_workers_visit_operators(df_workers_t *ws, int i, df_operator_fn cb, void *arg)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    pthread_mutex_lock(&w->mu);
    df_state_visit_operators(&w->state, cb, arg);
    pthread_mutex_unlock(&w->mu);
}

void df_workers_visit_arrangements(df_workers_t *ws, int i, df_arrangement_fn cb, void *arg)
{
    CM_ASSERT(i >= 0 && i < ws->n);
    df_worker_t *w = &ws->w[i];
    pthread_mutex_lock(&w->mu);
    df_state_visit_arrangements(&w->state, cb, arg);
    pthread_mutex_unlock(&w->mu);
}
