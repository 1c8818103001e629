/*
 * seq_core.c: the sequencer (sequencer.h; reference/zk.md §6.4 steps 2-4).
 *
 * On its own loop: load a consistent snapshot of the store and broadcast
 * it as Bootstrap; then follow the log from the snapshot's index, one read
 * in flight (a notification during a read marks it dirty and the read runs
 * again); every entry is applied to the sequencer's own catalog, planned,
 * numbered and broadcast as Apply. Commands wait in a bounded outbox until
 * every worker's queue took them: a full outbox stops the log reads, so a
 * slow worker pushes back all the way to the store, never onto memory.
 *
 * Sessions' writes and reads (seq_submit) are numbered and sent from the
 * session's own thread while the workers have taken everything before them,
 * under the same lock as the loop's own sends, so they do not wait for this
 * loop to wake up; several writes into one table may share a step (group
 * commit, seq_group.c).
 *
 * Acknowledgements arrive from worker threads through seq_ack: the acking
 * thread itself moves the published "applied by every worker" index and
 * tells those waiting for it (on_applied), so a session does not wait for
 * this loop to wake up as well; then an uv_async_t brings the loop round to
 * tell the owner (on_progress) and refill the queues. After work the loop
 * lingers (cfg.spin_us) so that the next DDL's notification finds it awake.
 */
#include "sequencer/seq_int.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

#define SEQ_RETRY_MS 100        /* after a store error: try again this much later, */
#define SEQ_RETRY_MAX_MS 5000   /* doubling up to this while the store keeps failing */

typedef struct seq__worker {
    _Atomic uint64_t epoch, seq, index;   /* its last acknowledgement */
    uint64_t sent;                        /* loop only: highest seq its transport accepted */
} seq__worker_t;

typedef struct seq__hist {
    seq_record_t r;
    char *name;
    char *tag;
} seq__hist_t;

struct seq {
    seq_config_t cfg;
    uv_loop_t *loop;
    uv_async_t wake;           /* the store has completions for us */
    uv_async_t ackev;          /* workers acknowledged */
    uv_async_t stopev;         /* seq_stop */
    uv_async_t ownerev;        /* cluster mode: ownership was granted or lost */
    uv_timer_t retry;          /* a store call failed: again later */
    uv_timer_t tick;           /* Tick commands, when configured */
    uv_idle_t linger;          /* active: the loop polls instead of sleeping (cfg.spin_us) */
    int64_t linger_until_us;
    int open_handles;
    uv_sem_t stopped;
    pthread_mutex_t ack_mu;    /* orders uv_async_send(ackev) against its close, and
                                  orders raising `applied` against an epoch change */
    uint64_t ack_epoch;        /* under ack_mu: the epoch acknowledgements count for */
    uint64_t told;             /* loop only: `applied` as last passed to on_progress */
    bool closed;
    bool stopping;             /* loop only */
    bool running;              /* seq_start succeeded */

    cat_store_t *store;
    cat_snap_t *snap;          /* the catalog at the last index sequenced */
    /* Numbering and sending (next_seq, group_seq, sub_index, booted, the outbox and each
     * worker's `sent`) happen under sub_mu, on this loop or on the thread that submits a write
     * or read (seq_submit) or acknowledges (seq_ack): a statement's command reaches the workers
     * without waking this loop. */
    uint64_t next_seq;
    uint64_t group_seq;        /* the step of the last groupable write sent (0: none this epoch) */
    uint64_t sub_index;        /* the catalog index of the last Bootstrap or Apply sent */
    bool booted;
    /* Writes answered on entry to the inbox (seq_group.c) wait there only behind a group still
     * being applied; no catalog change is numbered before them: the loop holds acceptance
     * while it numbers one (accept_held), and waits while any are in the inbox. */
    size_t in_accepted;
    bool accept_held;
    bool reading, dirty, boot_pending, paused;
    _Atomic bool ack_wanted;   /* the loop waits for an acknowledgement (the outbox was full) */
    int retry_ms;              /* 0 while the store answers; else the current back-off */

    df_cmd_t **outbox;         /* ring: sequenced, not yet accepted by every worker */
    size_t ob_cap, ob_head, ob_len;
    uint64_t ob_first;         /* seq of outbox[ob_head] */

    int nworkers;
    seq__worker_t *w;
    _Atomic uint64_t applied;  /* min index applied by all workers (current epoch) */
    /* Cluster mode: the epoch owned now (0: none), set by the owner's
     * callbacks on any thread and checked before every send, so nothing
     * leaves under an epoch that was lost; `serving` is the loop's view. */
    _Atomic uint64_t owned;
    uint64_t serving;

    pthread_mutex_t hist_mu;
    seq__hist_t *hist;
    size_t hist_len, hist_next;

    /* Writes and reads submitted by other threads (seq_submit), in arrival order. */
    uv_async_t submitev;
    pthread_mutex_t sub_mu;    /* guards the inbox, numbering and sending, and orders
                                  uv_async_send(submitev) against its close */
    df_cmd_t **inbox;
    size_t in_cap, in_head, in_len;
    bool sub_closed;
    /* in_len and ob_len as other threads may read them without a lock (seq_queue_depth). */
    _Atomic size_t in_depth, ob_depth;
};

void seq_config_default(seq_config_t *cfg)
{
    memset(cfg, 0, sizeof *cfg);
    cfg->epoch = 1;
    cfg->outbox_max = 256;
    cfg->history_max = 10000;
    cfg->read_batch = 64;
}

static void seq__tail(seq_t *s);
static void seq__boot(seq_t *s);
static void seq__stop_cb(uv_async_t *a);
static void seq__install_all(seq_t *s, df_cmd_t *c);

/* False in cluster mode while this process does not own the epoch it would send under. */
static bool seq__sendable(seq_t *s)
{
    return s->cfg.owner == NULL || atomic_load(&s->owned) == s->cfg.epoch;
}

/* ------------------------------------------------------------ history */

static void seq__remember(seq_t *s, const df_cmd_t *c, const char *tag)
{
    pthread_mutex_lock(&s->hist_mu);
    seq__hist_t *h = &s->hist[s->hist_next];
    free(h->name);
    free(h->tag);
    h->name = cm_strdup(c->object_name ? c->object_name : "");
    h->tag = cm_strdup(tag ? tag : "");
    h->r = (seq_record_t){.seq = c->seq, .epoch = c->epoch, .index = c->index, .kind = c->kind,
                          .object_id = c->object_id, .time_us = c->time_us};
    s->hist_next = (s->hist_next + 1) % s->cfg.history_max;
    if (s->hist_len < s->cfg.history_max)
        s->hist_len++;
    pthread_mutex_unlock(&s->hist_mu);
}

void seq_visit_commands(seq_t *s, void (*cb)(void *arg, const seq_record_t *r), void *arg)
{
    pthread_mutex_lock(&s->hist_mu);
    size_t first = (s->hist_next + s->cfg.history_max - s->hist_len) % s->cfg.history_max;
    for (size_t i = 0; i < s->hist_len; i++) {
        const seq__hist_t *h = &s->hist[(first + i) % s->cfg.history_max];
        seq_record_t r = h->r;
        r.object_name = h->name;
        r.tag = h->tag;
        cb(arg, &r);
    }
    pthread_mutex_unlock(&s->hist_mu);
}

/* ------------------------------------------------------------ outbox */

/* Whether the outbox has room (read on the loop; other threads add to it only when it is
 * empty, see seq_submit, and take from it, so a true answer stays true for the loop). */
static bool seq__room(seq_t *s)
{
    return atomic_load(&s->ob_depth) < s->ob_cap;
}

/* seq__room for the loop, which then waits for an acknowledgement when there is none: the flag
 * is raised before looking again, so the worker that makes room either sees it or was seen. */
static bool seq__room_or_wait(seq_t *s)
{
    if (seq__room(s))
        return true;
    atomic_store(&s->ack_wanted, true);
    return seq__room(s);
}

static void seq__emit(seq_t *s, df_cmd_t *c, const char *tag);
static void seq__emit_locked(seq_t *s, df_cmd_t *c, const char *tag);
static void seq__pump_locked(seq_t *s);

/* ------------------------------------------------------------ lingering */

/*
 * A DDL crosses this loop twice (the store's notification in, the workers'
 * acknowledgements back), and the client's next DDL follows within a round
 * trip. Waking a sleeping thread costs the waker and the woken tens of
 * microseconds each on a VM, so after work the loop polls for cfg.spin_us,
 * yielding the CPU each turn (the workers and sessions may need it), before
 * it sleeps again.
 */
static void seq__linger_cb(uv_idle_t *h)
{
    seq_t *s = h->data;
    if (s->stopping || cm_now_mono_us() >= s->linger_until_us)
        uv_idle_stop(h);
    else
        sched_yield();
}

static void seq__linger(seq_t *s)
{
    if (s->cfg.spin_us <= 0 || s->stopping)
        return;
    s->linger_until_us = cm_now_mono_us() + s->cfg.spin_us;
    uv_idle_start(&s->linger, seq__linger_cb);
}

/* ------------------------------------------------------------ submitted commands */

/* Whether a groupable write sent earlier is still being applied by some worker. */
static bool seq__group_busy(seq_t *s)
{
    for (int i = 0; s->group_seq != 0 && i < s->nworkers; i++)
        if (atomic_load(&s->w[i].seq) < s->group_seq)
            return true;
    return false;
}

/* Under sub_mu: a submitted command (or group) numbered and sent after everything before it. */
static void seq__emit_submitted(seq_t *s, df_cmd_t *c, bool grouped)
{
    c->index = s->sub_index;
    if (c->reply)
        c->reply->seq = s->next_seq;   /* before any worker can answer */
    if (grouped)
        s->group_seq = s->next_seq;
    seq__emit_locked(s, c, c->kind == DF_CMD_WRITE ? "WRITE" : "PEEK");
}

/* Under sub_mu: the next submitted command, NULL: none; a groupable write waits (NULL) while the last one
 * is being applied, and then goes with the groupable writes queued behind it. */
static df_cmd_t *seq__next_submit(seq_t *s, bool *grouped)
{
    df_cmd_t *run[SEQ_GROUP_MAX];
    size_t n = 0, bytes = 0;
    if (s->in_len > 0 && seq_group_member(s->inbox[s->in_head]) && seq__group_busy(s))
        return NULL;   /* the acknowledgement that ends the group sends it */
    while (s->in_len > 0 && n < SEQ_GROUP_MAX) {
        df_cmd_t *c = s->inbox[s->in_head];
        if (n > 0 && (!seq_group_joins(run[0], c) || bytes + c->payload_len > SEQ_GROUP_BYTES))
            break;
        s->in_head = (s->in_head + 1) % s->in_cap;
        s->in_len--;
        if (c->accepted)
            s->in_accepted--;
        run[n++] = c;
        bytes += c->payload_len;
        if (!seq_group_member(c))
            break;
    }
    atomic_store(&s->in_depth, s->in_len);
    if (n == 0)
        return NULL;
    *grouped = seq_group_member(run[0]);
    return n == 1 ? run[0] : seq_group_merge(run, n, s->nworkers);
}

/*
 * Numbers what was submitted, after everything sequenced so far: a write
 * or read follows every catalog entry the sequencer has read, and a session
 * submits only after its own DDL was applied, so it never overtakes it.
 * Stops while the outbox is full; an acknowledgement brings it back.
 */
static void seq__take_submits_locked(seq_t *s, size_t outbox_max)
{
    for (;;) {
        if (!s->booted || s->ob_len >= outbox_max)
            return;
        bool grouped = false;
        df_cmd_t *c = seq__next_submit(s, &grouped);
        if (c == NULL)
            return;
        seq__emit_submitted(s, c, grouped);
    }
}

static void seq__take_submits(seq_t *s)
{
    pthread_mutex_lock(&s->sub_mu);
    seq__take_submits_locked(s, s->ob_cap);
    pthread_mutex_unlock(&s->sub_mu);
}

/*
 * Under sub_mu, on a session's or a worker's thread: what waits in the inbox
 * is sent from here while every worker took everything before it (the usual
 * case; the loop's room checks count on other threads adding only to an
 * empty outbox), so the sequencer's loop is not woken for it. The loop takes
 * what is left, unless that is a group of writes waiting for the
 * acknowledgement that ends the group before it (seq_ack sends it).
 */
static void seq__take_submits_here(seq_t *s)
{
    if (s->ob_cap >= 2)
        seq__take_submits_locked(s, 1);
    if (s->in_len > 0 && !(seq_group_member(s->inbox[s->in_head]) && seq__group_busy(s)))
        uv_async_send(&s->submitev);
}

/*
 * Under sub_mu: whether the groupable write c can be answered now, before it
 * is numbered (seq_group.c): no catalog change was sequenced since it was
 * planned nor is one being numbered, whatever waits in the inbox are
 * accepted writes it will be grouped with, the outbox is empty and no worker
 * lags far behind (the wait of the writes not accepted is the back-pressure).
 */
static bool seq__acceptable(seq_t *s, const df_cmd_t *c)
{
    if (!c->groupable || c->accept_index == 0 || c->accept_index != s->sub_index || !s->booted ||
        s->accept_held || s->ob_len > 0 || s->in_len != s->in_accepted || s->in_len >= SEQ_GROUP_MAX ||
        !seq_group_member(c) || (s->in_len > 0 && !seq_group_joins(s->inbox[s->in_head], c)))
        return false;
    for (int i = 0; i < s->nworkers; i++)
        if (atomic_load(&s->w[i].epoch) != s->cfg.epoch || s->next_seq > atomic_load(&s->w[i].seq) + SEQ_ACCEPT_LAG)
            return false;
    return true;
}

bool seq_submit(seq_t *s, df_cmd_t *c)
{
    CM_ASSERT(c->kind == DF_CMD_WRITE || c->kind == DF_CMD_PEEK || c->kind == DF_CMD_SUBSCRIBE);
    df_reply_t *accepted = NULL;
    pthread_mutex_lock(&s->sub_mu);
    bool ok = !s->sub_closed && s->in_len < s->in_cap && seq__sendable(s);
    if (ok) {
        if (seq__acceptable(s, c)) {
            /* The workers answer a reply of the sequencer's; the session's is answered below,
             * once the write holds its place (its step is at least next_seq). */
            accepted = c->reply;
            accepted->seq = s->next_seq;
            c->reply = seq_group_accepted_reply(s->nworkers);
            c->accepted = true;
            s->in_accepted++;
        }
        s->inbox[(s->in_head + s->in_len++) % s->in_cap] = c;
        /* Sequentially consistent, as the worker's acknowledgement (its seq stored, then
         * in_depth read in seq_ack): either it sees this write waiting, or this sees the
         * group before it applied. */
        atomic_store(&s->in_depth, s->in_len);
        seq__take_submits_here(s);
    }
    pthread_mutex_unlock(&s->sub_mu);
    if (accepted != NULL) {
        for (int w = 0; w < accepted->nworkers; w++)
            df_reply_answer(accepted, w, NULL);
        df_reply_unref(accepted);   /* the command's reference, which it gave up */
    }
    return ok;
}

bool seq_read_fence(seq_t *s, uint64_t *epoch, uint64_t *seq)
{
    pthread_mutex_lock(&s->sub_mu);
    /* An accepted write waiting in the inbox was acknowledged but has no step yet. */
    bool ok = !s->sub_closed && seq__sendable(s) && s->in_accepted == 0 && s->next_seq > 1;
    *epoch = s->cfg.epoch;
    *seq = s->next_seq - 1;
    pthread_mutex_unlock(&s->sub_mu);
    return ok;
}

/*
 * On the loop, before it numbers a catalog change: false while accepted
 * writes wait in the inbox (numbered first, they end with an
 * acknowledgement, which brings the loop back); else no write is accepted
 * until the change is numbered (seq__emit_locked ends the hold).
 */
static bool seq__hold_accepting(seq_t *s)
{
    pthread_mutex_lock(&s->sub_mu);
    bool held = s->in_accepted == 0;
    s->accept_held = held;
    pthread_mutex_unlock(&s->sub_mu);
    if (!held)
        atomic_store(&s->ack_wanted, true);
    return held;
}

static void seq__submit_cb(uv_async_t *a)
{
    seq_t *s = a->data;
    if (s->stopping)
        return;
    seq__take_submits(s);
    seq__linger(s);
}

/* Refuses what is still waiting (stopping, or ownership lost): their replies fail now. */
static void seq__drop_submits(seq_t *s, bool close)
{
    pthread_mutex_lock(&s->sub_mu);
    size_t n = s->in_len;
    df_cmd_t **taken = cm_calloc(n ? n : 1, sizeof *taken);
    for (size_t i = 0; i < n; i++)
        taken[i] = s->inbox[(s->in_head + i) % s->in_cap];
    s->in_len = 0;
    if (s->in_accepted > 0)
        cm_log_warn("sequencer: %zu acknowledged writes dropped (stopping, or ownership lost)", s->in_accepted);
    s->in_accepted = 0;
    atomic_store_explicit(&s->in_depth, 0, memory_order_relaxed);
    if (close)
        s->sub_closed = true;
    pthread_mutex_unlock(&s->sub_mu);
    for (size_t i = 0; i < n; i++)
        df_cmd_unref(taken[i]);   /* unanswered: the reply fails */
    free(taken);
}

/* Offers every worker what it has not taken yet; frees what all have taken. Under sub_mu. */
static void seq__pump_locked(seq_t *s)
{
    if (!seq__sendable(s))
        return;
    uint64_t last = s->ob_first + s->ob_len;   /* one past the newest */
    uint64_t low = UINT64_MAX;
    for (int i = 0; i < s->nworkers; i++) {
        seq__worker_t *w = &s->w[i];
        while (w->sent + 1 < last) {
            df_cmd_t *c = s->outbox[(s->ob_head + (w->sent + 1 - s->ob_first)) % s->ob_cap];
            if (!s->cfg.transport->ops->send(s->cfg.transport, i, c))
                break;   /* full: its next acknowledgement brings us back */
            w->sent++;
        }
        if (w->sent < low)
            low = w->sent;
    }
    while (s->ob_len > 0 && s->ob_first <= low) {
        df_cmd_unref(s->outbox[s->ob_head]);
        s->outbox[s->ob_head] = NULL;
        s->ob_head = (s->ob_head + 1) % s->ob_cap;
        s->ob_len--;
        s->ob_first++;
    }
    atomic_store(&s->ob_depth, s->ob_len);
}

static void seq__pump(seq_t *s)
{
    pthread_mutex_lock(&s->sub_mu);
    seq__pump_locked(s);
    pthread_mutex_unlock(&s->sub_mu);
}

/* Numbers a command and broadcasts it (the caller checked for room). Under sub_mu. */
static void seq__emit_locked(seq_t *s, df_cmd_t *c, const char *tag)
{
    CM_ASSERT(s->ob_len < s->ob_cap);
    if (!seq__sendable(s)) {
        df_cmd_unref(c);   /* ownership ended while this was planned */
        return;
    }
    c->seq = s->next_seq++;
    c->epoch = s->cfg.epoch;
    if (c->kind == DF_CMD_BOOTSTRAP || c->kind == DF_CMD_APPLY) {
        s->sub_index = c->index;
        s->accept_held = false;
    }
    c->time_us = cm_now_wall_us();
    seq__remember(s, c, tag);
    if (s->ob_len == 0)
        s->ob_first = c->seq;
    s->outbox[(s->ob_head + s->ob_len++) % s->ob_cap] = c;
    seq__pump_locked(s);
}

static void seq__emit(seq_t *s, df_cmd_t *c, const char *tag)
{
    pthread_mutex_lock(&s->sub_mu);
    seq__emit_locked(s, c, tag);
    pthread_mutex_unlock(&s->sub_mu);
}

/* ------------------------------------------------------------ planning */

static const char *seq__qualified(const cat_item_t *it, cm_arena_t *a)
{
    const char *db = it->schema && it->schema->database ? it->schema->database->name : "";
    return cm_arena_printf(a, "%s.%s.%s", db, it->schema ? it->schema->name : "", it->name);
}

static void seq__install(seq_t *s, df_cmd_t *c, const cat_item_t *it)
{
    cm_buf_t plan;
    cm_buf_init(&plan, 0);
    cm_err_t err = {0};
    seq_planner_t *p = &s->cfg.planner;
    if (!p->plan_item(p->arg, s->snap, it, &plan, &err))
        /* The catalog accepted it, so the workers get it; its plan says what failed. */
        cm_log_warn("sequencer: planning item %llu (%s): %s", (unsigned long long)it->id, it->name,
                    err.message ? err.message : "failed");
    cm_err_clear(&err);
    cm_arena_t a;
    cm_arena_init(&a, 0);
    df_cmd_add_op(c, DF_OP_INSTALL, it->id, seq__qualified(it, &a), plan.data, plan.len);
    c->ops[c->nops - 1].maintained = it->kind == CAT_ITEM_MATVIEW;
    cm_arena_free(&a);
    cm_buf_free(&plan);
}

/* ------------------------------------------------------------ bootstrap */

static void seq__retry_cb(uv_timer_t *t)
{
    seq_t *s = t->data;
    if (!s->booted)
        seq__boot(s);
    else
        seq__tail(s);
}

/* A store call failed: log the first failure of a run, then retry with a doubling back-off. */
static void seq__store_failed(seq_t *s, const char *what, const char *why)
{
    if (s->stopping)
        return;
    if (s->retry_ms == 0) {
        cm_log_warn("sequencer: %s: %s; retrying", what, why ? why : "");
        s->retry_ms = SEQ_RETRY_MS;
    } else {
        cm_log_debug("sequencer: %s: %s; retrying in %d ms", what, why ? why : "", s->retry_ms);
        s->retry_ms = s->retry_ms * 2 > SEQ_RETRY_MAX_MS ? SEQ_RETRY_MAX_MS : s->retry_ms * 2;
    }
    uv_timer_start(&s->retry, seq__retry_cb, (uint64_t)s->retry_ms, 0);
}

static void seq__store_answered(seq_t *s)
{
    if (s->retry_ms != 0)
        cm_log_info("sequencer: the catalog store answers again");
    s->retry_ms = 0;
}

static void seq__snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects,
                             size_t n, const cm_err_t *err)
{
    seq_t *s = arg;
    s->reading = false;
    if (s->stopping || (s->cfg.owner && s->serving == 0))
        return;
    if (s->boot_pending) {
        seq__boot(s);   /* ownership changed during the read: a snapshot read as the new owner */
        return;
    }
    cm_err_t e = {0};
    if (st != CAT_STORE_OK || !cat_snap_load(s->snap, head->index, objects, n, &e)) {
        seq__store_failed(s, "could not load a catalog snapshot",
                          e.set ? e.message : (err && err->message ? err->message : cat_store_status_name(st)));
        cm_err_clear(&e);
        return;
    }
    seq__store_answered(s);
    df_cmd_t *c = df_cmd_new(DF_CMD_BOOTSTRAP);
    c->index = head->index;
    seq__install_all(s, c);
    pthread_mutex_lock(&s->sub_mu);
    s->booted = true;
    seq__emit_locked(s, c, "");
    pthread_mutex_unlock(&s->sub_mu);
    seq__tail(s);
    seq__take_submits(s);
}

typedef struct seq__order {
    const cat_item_t **items;   /* user items in ID order */
    uint8_t *state;             /* 0 new, 1 being visited, 2 installed */
    size_t n;
} seq__order_t;

static size_t seq__order_find(const seq__order_t *o, cat_id_t id)
{
    size_t lo = 0, hi = o->n;
    while (lo < hi) {
        size_t mid = lo + (hi - lo) / 2;
        if (o->items[mid]->id < id)
            lo = mid + 1;
        else
            hi = mid;
    }
    return lo < o->n && o->items[lo]->id == id ? lo : SIZE_MAX;
}

/* Installs item k after everything it reads (iteratively: a long chain of views is no deep recursion). */
static void seq__install_after_deps(seq_t *s, df_cmd_t *c, seq__order_t *o, size_t k, size_t *stack)
{
    size_t top = 0;
    stack[top++] = k;
    o->state[k] = 1;
    while (top > 0) {
        size_t cur = stack[top - 1];
        const cat_item_t *it = o->items[cur];
        bool pushed = false;
        for (uint32_t d = 0; d < it->ndeps && !pushed; d++) {
            size_t j = seq__order_find(o, it->deps[d]);
            if (j != SIZE_MAX && o->state[j] == 0) {
                o->state[j] = 1;
                stack[top++] = j;
                pushed = true;
            }
        }
        if (!pushed) {
            top--;
            o->state[cur] = 2;
            seq__install(s, c, it);
        }
    }
}

/* Every user item, each after what it reads: ID order is not enough, since
 * CREATE OR REPLACE may make a view read an item newer than itself. */
static void seq__install_all(seq_t *s, df_cmd_t *c)
{
    seq__order_t o = {0};
    size_t total = cat_snap_item_count(s->snap);
    o.items = cm_calloc(total + 1, sizeof *o.items);
    for (size_t i = 0;; i++) {
        const cat_item_t *it = cat_snap_item_at(s->snap, i);
        if (it == NULL)
            break;
        if (!cat_id_is_system(it->id) && o.n < total)
            o.items[o.n++] = it;
    }
    o.state = cm_calloc(o.n + 1, 1);
    size_t *stack = cm_calloc(o.n + 1, sizeof *stack);
    for (size_t k = 0; k < o.n; k++)
        if (o.state[k] == 0)
            seq__install_after_deps(s, c, &o, k, stack);
    free(stack);
    free(o.state);
    free(o.items);
}

/* Loads a consistent snapshot and broadcasts it (at start, or when the log was trimmed past us). */
static void seq__boot(seq_t *s)
{
    if (s->stopping || (s->cfg.owner && s->serving == 0))
        return;
    if (s->reading) {
        s->boot_pending = true;
        return;
    }
    if (!seq__room_or_wait(s)) {
        s->boot_pending = true;   /* after the workers took some of the outbox */
        return;
    }
    pthread_mutex_lock(&s->sub_mu);
    bool accepted_wait = s->in_accepted > 0;   /* numbered before the Bootstrap, as before an Apply */
    if (!accepted_wait)
        s->booted = false;
    pthread_mutex_unlock(&s->sub_mu);
    if (accepted_wait) {
        atomic_store(&s->ack_wanted, true);
        s->boot_pending = true;
        return;
    }
    s->boot_pending = false;
    cm_err_t e = {0};
    if (cat_store_snapshot(s->store, seq__snapshot_cb, s, &e) != 0) {
        seq__store_failed(s, "could not read a catalog snapshot", e.message);
        cm_err_clear(&e);
        return;
    }
    s->reading = true;
}

/* ------------------------------------------------------------ the log */

/* One entry into one Apply. false: it does not fit our catalog (bootstrap again). */
static bool seq__entry(seq_t *s, const cat_log_entry_bytes_t *eb)
{
    cm_arena_t a;
    cm_arena_init(&a, 0);
    cm_err_t e = {0};
    cat_entry_t entry;
    df_cmd_t *c = NULL;
    bool ok = cat_entry_decode(eb->data, eb->len, &a, &entry, &e);
    if (ok) {
        c = df_cmd_new(DF_CMD_APPLY);
        c->index = eb->index;
        /* Names of what is dropped, while the catalog still has them. */
        for (uint32_t i = 0; i < entry.nops; i++) {
            const cat_op_t *op = &entry.ops[i];
            if (op->kind == CAT_OP_DROP && op->obj.cls == CAT_CLASS_ITEM) {
                const cat_item_t *it = cat_snap_item_by_id(s->snap, op->obj.id);
                df_cmd_add_op(c, DF_OP_DROP, op->obj.id, it ? seq__qualified(it, &a) : "", NULL, 0);
            }
        }
        ok = cat_snap_apply(s->snap, eb->data, eb->len, &e);
    }
    if (ok) {
        for (uint32_t i = 0; i < entry.nops; i++) {
            const cat_op_t *op = &entry.ops[i];
            if (op->kind != CAT_OP_DROP && op->obj.cls == CAT_CLASS_ITEM) {
                const cat_item_t *it = cat_snap_item_by_id(s->snap, op->obj.id);
                if (it)
                    seq__install(s, c, it);
            }
        }
        if (entry.nops > 0) {
            const cat_op_t *op = &entry.ops[0];
            c->object_id = op->obj.id;
            /* The qualified name its dataflow op has; a database or schema has only its own name. */
            for (uint32_t k = 0; k < c->nops && !c->object_name; k++)
                if (c->ops[k].id == op->obj.id)
                    c->object_name = c->ops[k].name;
            if (!c->object_name && op->obj.name)
                c->object_name = cm_arena_strdup(&c->arena, op->obj.name);
        }
        seq__emit(s, c, entry.kind);
    } else {
        cm_log_error("sequencer: log entry %llu does not apply: %s", (unsigned long long)eb->index,
                     e.message ? e.message : "");
        df_cmd_unref(c);
    }
    cm_err_clear(&e);
    cm_arena_free(&a);
    return ok;
}

static void seq__log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                        const cm_err_t *err)
{
    seq_t *s = arg;
    s->reading = false;
    if (s->stopping || (s->cfg.owner && s->serving == 0))
        return;
    if (s->boot_pending) {
        seq__boot(s);   /* a new epoch starts with its Bootstrap, before any Apply */
        return;
    }
    if (st == CAT_STORE_TRIMMED) {
        seq__boot(s);
        return;
    }
    if (st != CAT_STORE_OK) {
        seq__store_failed(s, "log read failed", err && err->message ? err->message : cat_store_status_name(st));
        return;
    }
    seq__store_answered(s);
    size_t done = 0;
    bool waiting = false;
    for (size_t i = 0; i < n; i++) {
        if (entries[i].index <= cat_snap_index(s->snap))
            continue;   /* already sequenced */
        if (entries[i].index != cat_snap_index(s->snap) + 1 || !seq__room(s))
            break;      /* the rest is read again once the outbox has room */
        if (!seq__hold_accepting(s)) {
            waiting = true;   /* and once the accepted writes went */
            break;
        }
        if (!seq__entry(s, &entries[i])) {
            seq__boot(s);
            return;
        }
        done++;
    }
    if (s->boot_pending) {
        seq__boot(s);
        return;
    }
    if (waiting || !seq__room_or_wait(s)) {
        s->paused = true;   /* resumed by an acknowledgement */
        return;
    }
    if (done > 0 || s->dirty) {
        s->dirty = false;
        seq__tail(s);
    }
}

static void seq__tail(seq_t *s)
{
    if (s->stopping || !s->booted)
        return;
    if (s->reading) {
        s->dirty = true;
        return;
    }
    if (!seq__room_or_wait(s)) {
        s->paused = true;
        return;
    }
    s->paused = false;
    cm_err_t e = {0};
    if (cat_store_log_read(s->store, cat_snap_index(s->snap) + 1, s->cfg.read_batch, seq__log_cb, s, &e) != 0) {
        seq__store_failed(s, "could not read the log", e.message);
        cm_err_clear(&e);
        return;
    }
    s->reading = true;
}

/* ------------------------------------------------------------ acknowledgements */

/* Under ack_mu, on any thread: `applied` becomes the lowest index every
 * worker acknowledged in the current epoch, if that is higher. */
static bool seq__raise_applied_locked(seq_t *s)
{
    uint64_t low = UINT64_MAX;
    for (int i = 0; i < s->nworkers; i++) {
        /* The epoch first: a worker stores it after its index, so an index
         * read after the epoch matched is one of that epoch. */
        uint64_t idx = atomic_load(&s->w[i].epoch) == s->ack_epoch ? atomic_load(&s->w[i].index) : 0;
        if (idx < low)
            low = idx;
    }
    if (low == UINT64_MAX || low <= atomic_load(&s->applied))
        return false;
    atomic_store(&s->applied, low);
    return true;
}

void seq_ack(seq_t *s, int worker, uint64_t epoch, uint64_t seq, uint64_t index)
{
    CM_ASSERT(worker >= 0 && worker < s->nworkers);
    seq__worker_t *w = &s->w[worker];
    /* One writer per worker (its own thread): plain stores in order suffice. */
    atomic_store(&w->index, index);
    atomic_store(&w->seq, seq);
    atomic_store(&w->epoch, epoch);
    /* What waits for this acknowledgement is sent from here: commands a full queue refused,
     * and the groupable writes queued while the last group was applied. */
    if (atomic_load(&s->in_depth) > 0 || atomic_load(&s->ob_depth) > 0) {
        pthread_mutex_lock(&s->sub_mu);
        if (!s->sub_closed) {
            seq__pump_locked(s);
            seq__take_submits_here(s);
        }
        pthread_mutex_unlock(&s->sub_mu);
    }
    bool rose = false;
    pthread_mutex_lock(&s->ack_mu);
    if (!s->closed) {
        rose = seq__raise_applied_locked(s);
        /* The loop only when it has something to do with it: a DDL was applied (the owner
         * hears, the loop lingers for the next one), or it waits for room in the outbox. */
        if (rose || atomic_load(&s->ack_wanted))
            uv_async_send(&s->ackev);
    }
    pthread_mutex_unlock(&s->ack_mu);
    /* Those waiting for this index hear it from here, not one more thread later. */
    if (rose && s->cfg.on_applied)
        s->cfg.on_applied(s->cfg.progress_arg);
}

void seq_queue_depth(const seq_t *s, size_t *submitted, size_t *undelivered)
{
    *submitted = atomic_load_explicit(&s->in_depth, memory_order_relaxed);
    *undelivered = atomic_load_explicit(&s->ob_depth, memory_order_relaxed);
}

uint64_t seq_applied_index(const seq_t *s)
{
    return atomic_load(&((seq_t *)s)->applied);
}

static void seq__ack_cb(uv_async_t *a)
{
    seq_t *s = a->data;
    if (s->stopping)
        return;
    atomic_store(&s->ack_wanted, false);   /* raised again below if the outbox is still full */
    pthread_mutex_lock(&s->ack_mu);
    bool rose = seq__raise_applied_locked(s);
    pthread_mutex_unlock(&s->ack_mu);
    /* Whoever raises it tells the waiters: with several workers this loop may
     * see the last acknowledgement before the worker that stored it does. */
    if (rose && s->cfg.on_applied)
        s->cfg.on_applied(s->cfg.progress_arg);
    /* The acking threads raised it already; the owner hears of it from here. */
    uint64_t applied = atomic_load(&s->applied);
    if (applied > s->told) {
        s->told = applied;
        if (s->cfg.on_progress)
            s->cfg.on_progress(s->cfg.progress_arg);
    }
    seq__pump(s);
    if (s->boot_pending)
        seq__boot(s);
    else if (s->paused)
        seq__tail(s);
    seq__take_submits(s);
    if (rose)
        seq__linger(s);   /* a DDL was applied: the client's next one follows soon (not after ticks) */
}

/* ------------------------------------------------------------ ticks */

/*
 * Logical time advances through the same order as everything else: a Tick
 * carries its wall-clock timestamp and the catalog index it follows. Skipped
 * while the workers are behind (a full outbox) or before the Bootstrap:
 * ticks are a heartbeat, not data, so dropping one loses nothing.
 */
static void seq__tick_cb(uv_timer_t *t)
{
    seq_t *s = t->data;
    if (s->stopping || !s->booted || !seq__room(s))
        return;
    df_cmd_t *c = df_cmd_new(DF_CMD_TICK);
    pthread_mutex_lock(&s->sub_mu);
    c->index = s->sub_index;
    seq__emit_locked(s, c, "");
    pthread_mutex_unlock(&s->sub_mu);
}

/* ------------------------------------------------------------ store wake-ups */

static void seq__wake(void *arg)
{
    seq_t *s = arg;
    uv_async_send(&s->wake);
}

static void seq__wake_cb(uv_async_t *a)
{
    seq_t *s = a->data;
    if (s->store == NULL)
        return;
    cat_store_dispatch(s->store);
    seq__linger(s);
}

static void seq__notify_cb(void *arg)
{
    seq__tail(arg);   /* a hint only: the log says what changed */
}

/* ------------------------------------------------------------ ownership */

static void seq__owner_signal(seq_t *s)
{
    pthread_mutex_lock(&s->ack_mu);
    if (!s->closed)
        uv_async_send(&s->ownerev);
    pthread_mutex_unlock(&s->ack_mu);
}

static void seq__granted(void *arg, uint64_t epoch)
{
    seq_t *s = arg;
    atomic_store(&s->owned, epoch);
    seq__owner_signal(s);
}

static void seq__lost(void *arg)
{
    seq_t *s = arg;
    atomic_store(&s->owned, 0);   /* before anything else: pump and emit check it */
    seq__owner_signal(s);
}

/* On the loop: start serving a granted epoch, or stop serving a lost one. */
static void seq__owner_cb(uv_async_t *a)
{
    seq_t *s = a->data;
    uint64_t e = atomic_load(&s->owned);
    if (s->stopping || e == s->serving)
        return;
    seq__drop_submits(s, false);   /* submitted under the old epoch: their sessions hear it failed */
    pthread_mutex_lock(&s->sub_mu);
    /* What the old epoch had not delivered is never sent. */
    for (size_t i = 0; i < s->ob_len; i++) {
        size_t k = (s->ob_head + i) % s->ob_cap;
        df_cmd_unref(s->outbox[k]);
        s->outbox[k] = NULL;
    }
    s->ob_head = s->ob_len = 0;
    atomic_store(&s->ob_depth, 0);
    s->booted = false;
    if (e != 0) {
        s->cfg.epoch = e;
        s->next_seq = 1;
        s->group_seq = 0;
        s->ob_first = 1;
        for (int i = 0; i < s->nworkers; i++)
            s->w[i].sent = 0;
    }
    pthread_mutex_unlock(&s->sub_mu);
    s->paused = s->boot_pending = s->dirty = false;
    uv_timer_stop(&s->retry);
    s->retry_ms = 0;
    s->serving = e;
    if (e == 0) {
        cm_log_warn("sequencer: ownership of epoch %llu lost; standing by", (unsigned long long)s->cfg.epoch);
        return;
    }
    cm_log_info("sequencer: serving epoch %llu", (unsigned long long)e);
    pthread_mutex_lock(&s->ack_mu);
    s->ack_epoch = e;
    atomic_store(&s->applied, 0);   /* nothing is applied in the new epoch yet */
    pthread_mutex_unlock(&s->ack_mu);
    s->told = 0;
    seq__boot(s);
}

/* ------------------------------------------------------------ start and stop */

seq_t *seq_start(const seq_config_t *cfg, uv_loop_t *loop, cm_err_t *err)
{
    if (cfg->transport == NULL || cfg->store_open == NULL || (cfg->epoch == 0 && cfg->owner == NULL) || cfg->outbox_max == 0 ||
        cfg->history_max == 0) {
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "sequencer: incomplete configuration");
        return NULL;
    }
    seq_t *s = cm_calloc(1, sizeof *s);
    s->cfg = *cfg;
    if (s->cfg.planner.plan_item == NULL)
        s->cfg.planner.plan_item = seq_plan_item_default;
    if (s->cfg.read_batch == 0)
        s->cfg.read_batch = 64;
    s->loop = loop;
    s->next_seq = 1;
    s->group_seq = 0;
    s->nworkers = cfg->transport->ops->workers(cfg->transport);
    s->w = cm_calloc((size_t)s->nworkers, sizeof *s->w);
    s->ob_cap = cfg->outbox_max;
    s->outbox = cm_calloc(s->ob_cap, sizeof *s->outbox);
    s->ob_first = 1;
    s->hist = cm_calloc(cfg->history_max, sizeof *s->hist);
    pthread_mutex_init(&s->ack_mu, NULL);
    pthread_mutex_init(&s->hist_mu, NULL);
    uv_sem_init(&s->stopped, 0);
    atomic_init(&s->applied, 0);
    s->ack_epoch = s->cfg.epoch;
    s->snap = cat_snap_new();
    uv_async_init(loop, &s->wake, seq__wake_cb);
    uv_async_init(loop, &s->ackev, seq__ack_cb);
    uv_async_init(loop, &s->stopev, seq__stop_cb);
    uv_async_init(loop, &s->ownerev, seq__owner_cb);
    pthread_mutex_init(&s->sub_mu, NULL);
    s->in_cap = cfg->submit_max ? cfg->submit_max : 1024;
    s->inbox = cm_calloc(s->in_cap, sizeof *s->inbox);
    uv_async_init(loop, &s->submitev, seq__submit_cb);
    s->submitev.data = s;
    uv_timer_init(loop, &s->retry);
    s->wake.data = s->ackev.data = s->stopev.data = s->retry.data = s->ownerev.data = s;
    uv_timer_init(loop, &s->tick);
    s->tick.data = s;
    uv_idle_init(loop, &s->linger);
    s->linger.data = s;
    s->open_handles = 8;
    s->store = cfg->store_open(cfg->store_arg, loop, seq__wake, s, err);
    if (s->store == NULL) {
        /* Nothing ran yet: seq_stop closes the handles on this thread. */
        seq_stop(s);
        seq_free(s);
        return NULL;
    }
    cat_store_set_notify(s->store, seq__notify_cb, s);
    atomic_store(&cfg->transport->seq, s);
    s->running = true;
    if (cfg->tick_interval_ms > 0)
        uv_timer_start(&s->tick, seq__tick_cb, (uint64_t)cfg->tick_interval_ms, (uint64_t)cfg->tick_interval_ms);
    if (s->cfg.owner == NULL) {
        seq__boot(s);
        return s;
    }
    /* A standby until granted (the callback may come at once, from any thread). */
    if (s->cfg.owner->ops->acquire(s->cfg.owner, seq__granted, seq__lost, s, err) != 0) {
        s->running = false;
        atomic_store(&cfg->transport->seq, NULL);
        seq_stop(s);
        seq_free(s);
        return NULL;
    }
    return s;
}

static void seq__closed_cb(uv_handle_t *h)
{
    seq_t *s = h->data;
    if (--s->open_handles == 0)
        uv_sem_post(&s->stopped);
}

static void seq__stop_cb(uv_async_t *a)
{
    seq_t *s = a->data;
    s->stopping = true;
    if (s->cfg.owner && s->running)
        s->cfg.owner->ops->release(s->cfg.owner);   /* no grants after this */
    atomic_store(&s->owned, 0);
    pthread_mutex_lock(&s->ack_mu);
    s->closed = true;
    pthread_mutex_unlock(&s->ack_mu);
    if (s->store) {
        cat_store_t *st = s->store;
        s->store = NULL;
        cat_store_close(st);   /* pending reads complete now, with an error */
    }
    uv_close((uv_handle_t *)&s->wake, seq__closed_cb);
    uv_close((uv_handle_t *)&s->ackev, seq__closed_cb);
    uv_close((uv_handle_t *)&s->retry, seq__closed_cb);
    uv_close((uv_handle_t *)&s->tick, seq__closed_cb);
    uv_close((uv_handle_t *)&s->linger, seq__closed_cb);
    uv_close((uv_handle_t *)&s->stopev, seq__closed_cb);
    uv_close((uv_handle_t *)&s->ownerev, seq__closed_cb);
    seq__drop_submits(s, true);
    uv_close((uv_handle_t *)&s->submitev, seq__closed_cb);
}

void seq_stop(seq_t *s)
{
    if (!s->running) {
        /* seq_start failed before the loop ran: close the handles here. */
        seq__stop_cb(&s->stopev);
        while (s->open_handles > 0)
            uv_run(s->loop, UV_RUN_ONCE);
        return;
    }
    uv_async_send(&s->stopev);
    uv_sem_wait(&s->stopped);
}

void seq_free(seq_t *s)
{
    if (s == NULL)
        return;
    atomic_store(&s->cfg.transport->seq, NULL);
    for (size_t i = 0; i < s->ob_len; i++)
        df_cmd_unref(s->outbox[(s->ob_head + i) % s->ob_cap]);
    free(s->outbox);
    free(s->inbox);
    pthread_mutex_destroy(&s->sub_mu);
    for (size_t i = 0; i < s->cfg.history_max; i++) {
        free(s->hist[i].name);
        free(s->hist[i].tag);
    }
    free(s->hist);
    free(s->w);
    cat_snap_free(s->snap);
    pthread_mutex_destroy(&s->ack_mu);
    pthread_mutex_destroy(&s->hist_mu);
    uv_sem_destroy(&s->stopped);
    free(s);
}
