/*
 * srv_zk_loop.c: the thread that owns the ZooKeeper session (cluster mode).
 *
 * libzookeeper_st does no I/O of its own: the store says which fd to watch,
 * for what, and how long to wait at most (its interest hook), and does the
 * reads, writes and callbacks when told (its process hook). This thread
 * runs a libuv loop that turns those into one uv_poll on the fd and one
 * uv_timer (zk.md §3.3). The library may close and replace its socket inside
 * any call, even one that only queues a request, so after every call the
 * poll is stopped first, the interest asked again, and the poll handle
 * recreated whenever the fd or the store's socket generation changed (a new
 * socket can get the old number).
 *
 * Other threads reach the store only through jobs: a bounded queue plus
 * uv_async_send, drained whole (DESIGN §10 rule 7). The answers go back
 * through each job's handle (srv_zk_handle.c).
 *
 * Log reads go through srv_zk_logs.c: recent entries kept, reads parked
 * and merged, so the loops follow the log with one ZooKeeper read instead
 * of one each, and a loop that must catch up with a DDL acknowledged on
 * another loop does not need ZooKeeper to be reachable for it.
 */
#include "server/srv_zk.h"

#include <sched.h>
#include <stdatomic.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <uv.h>

/* A poll handle per socket: libuv forbids re-initialising a live one. */
typedef struct srv_zk_poll {
    uv_poll_t uv;
    srv_zk_t *zk;
} srv_zk_poll_t;

struct srv_zk {
    char *hosts;
    cat_store_t *store;
    uv_loop_t loop;
    uv_thread_t thread;
    uv_async_t async;
    uv_timer_t timer;
    uv_idle_t linger;             /* active: the loop polls instead of sleeping (spin_us) */
    int64_t linger_until_us;
    int spin_us;
    srv_zk_poll_t *poll;          /* NULL while the store has no socket */
    int poll_fd;
    uint64_t poll_gen;
    bool dead_logged;
    bool was_ready;
    bool notify_deferred;         /* a head-watch event waits for our commit's answer */
    uint64_t announced;           /* every handle has been told of the head up to here */
    int64_t deferred_us;          /* ... since then (at most SRV_ZK_NOTIFY_HOLD_MS) */
    bool stopping;                /* this thread began closing everything */
    _Atomic bool ready;           /* the store takes calls (read by srv_zk_start) */
    _Atomic bool failed;          /* the store gave up for good: fail_err (under mu) says why */
    cm_err_t fail_err;
    pthread_mutex_t mu;           /* guards the queue, `stop` and the handles */
    srv_zk_job_t *q_head, *q_tail;
    size_t q_len;
    bool stop;
    srv_zk_handle_t **handles;
    size_t nhandles, handles_cap;
    srv_zk_logs_t *logs;          /* recent entries, log reads */
    srv_zk_cluster_t *cluster;    /* --cluster: ownership */
};

/* ------------------------------------------------------------ driving the socket */

static void srv__zk_rearm(srv_zk_t *zk);

static void srv__poll_close_cb(uv_handle_t *h)
{
    free(h->data);
}

static void srv__poll_drop(srv_zk_t *zk)
{
    if (zk->poll == NULL)
        return;
    uv_poll_stop(&zk->poll->uv);
    zk->poll->uv.data = zk->poll;
    uv_close((uv_handle_t *)&zk->poll->uv, srv__poll_close_cb);
    zk->poll = NULL;
}

static void srv__zk_poll_cb(uv_poll_t *p, int status, int events)
{
    srv_zk_poll_t *zp = (srv_zk_poll_t *)p;
    srv_zk_t *zk = zp->zk;
    int ev = 0;
    if (status < 0)
        ev = CAT_ZK_READ | CAT_ZK_WRITE;   /* let the library find the socket's error */
    else
        ev = ((events & UV_READABLE) ? CAT_ZK_READ : 0) | ((events & UV_WRITABLE) ? CAT_ZK_WRITE : 0);
    cat_store_zk_process(zk->store, ev);
    srv__zk_rearm(zk);
}

static void srv__zk_timer_cb(uv_timer_t *t)
{
    srv_zk_t *zk = t->data;
    cat_store_zk_process(zk->store, 0);
    srv__zk_rearm(zk);
}

/* Every handle but `except` (NULL: every handle). */
static void srv__zk_notify_all(srv_zk_t *zk, const srv_zk_handle_t *except)
{
    pthread_mutex_lock(&zk->mu);
    for (size_t i = 0; i < zk->nhandles; i++)
        if (zk->handles[i] != except)
            srv_zk_handle_notify(zk->handles[i]);
    pthread_mutex_unlock(&zk->mu);
}

/* After every call into the store: watch what it wants watched now. */
static void srv__zk_rearm(srv_zk_t *zk)
{
    if (zk->stopping || zk->store == NULL)
        return;
    srv_zk_cluster_turn(zk->cluster, zk->store);
    /* A commit whose answer is slow (ZooKeeper unreachable, an ambiguous
     * outcome being resolved) does not hold other processes' news back. */
    if (zk->notify_deferred && cm_now_mono_us() - zk->deferred_us >= SRV_ZK_NOTIFY_HOLD_MS * 1000) {
        zk->notify_deferred = false;
        srv__zk_notify_all(zk, NULL);
    }
    /* Stop first: the fd may already be closed, and the next interest call
     * may open a new socket under the same number. */
    if (zk->poll)
        uv_poll_stop(&zk->poll->uv);
    int fd = -1, events = 0, timeout_ms = 1000;
    uint64_t gen = 0;
    if (cat_store_zk_interest(zk->store, &fd, &events, &timeout_ms, &gen) != 0) {
        if (!zk->dead_logged) {
            cm_err_t why = {0};
            cat_store_zk_failed(zk->store, &why);
            cm_log_error("%s (%s) DDL is refused until eddy restarts.",
                         why.message ? why.message : "catalog store \"zookeeper\" failed for good",
                         why.detail ? why.detail : why.hint ? why.hint : "");
            cm_err_clear(&why);
        }
        zk->dead_logged = true;
        srv__poll_drop(zk);
        atomic_store(&zk->ready, false);
        if (!atomic_load(&zk->failed) && cat_store_zk_failed(zk->store, NULL)) {
            /* Start-up waits for this too: a refusal is reported at once, not as a timeout. */
            pthread_mutex_lock(&zk->mu);
            cat_store_zk_failed(zk->store, &zk->fail_err);
            pthread_mutex_unlock(&zk->mu);
            atomic_store(&zk->failed, true);
        }
        return;
    }
    if (zk->poll && (fd != zk->poll_fd || gen != zk->poll_gen))
        srv__poll_drop(zk);
    if (fd >= 0 && zk->poll == NULL) {
        srv_zk_poll_t *zp = cm_calloc(1, sizeof *zp);
        zp->zk = zk;
        if (uv_poll_init_socket(&zk->loop, &zp->uv, fd) != 0) {
            free(zp);
        } else {
            zk->poll = zp;
            zk->poll_fd = fd;
            zk->poll_gen = gen;
        }
    }
    if (zk->poll && events)
        uv_poll_start(&zk->poll->uv,
                      ((events & CAT_ZK_READ) ? UV_READABLE : 0) | ((events & CAT_ZK_WRITE) ? UV_WRITABLE : 0),
                      srv__zk_poll_cb);
    if (zk->notify_deferred && timeout_ms > SRV_ZK_NOTIFY_HOLD_MS)
        timeout_ms = SRV_ZK_NOTIFY_HOLD_MS;
    uv_timer_start(&zk->timer, srv__zk_timer_cb, (uint64_t)(timeout_ms > 0 ? timeout_ms : 1), 0);
    srv_zk_cluster_next_turn(zk->cluster, cm_now_mono_us() / 1000 + (timeout_ms > 0 ? timeout_ms : 1));
    bool ready = cat_store_zk_ready(zk->store);
    atomic_store(&zk->ready, ready);
    /* Back after an outage or a new session: whatever was committed in
     * between is news to every loop. */
    if (ready && !zk->was_ready) {
        srv_zk_logs_news(zk->logs, false, 0);
        srv__zk_notify_all(zk, NULL);
    }
    zk->was_ready = ready;
}

/* ------------------------------------------------------------ lingering */

/* While it lingers the thread polls its socket and queue without blocking,
 * yielding the CPU each turn: a commit's answer, and the next DDL's job,
 * then cost no wake-up, which on a VM is tens of microseconds for both
 * sides (DDL after DDL from one client follow each other that closely). */
static void srv__zk_linger_cb(uv_idle_t *h)
{
    srv_zk_t *zk = h->data;
    if (zk->stopping || cm_now_mono_us() >= zk->linger_until_us)
        uv_idle_stop(h);
    else
        sched_yield();
}

static void srv__zk_linger(srv_zk_t *zk)
{
    if (zk->spin_us <= 0 || zk->stopping)
        return;
    zk->linger_until_us = cm_now_mono_us() + zk->spin_us;
    uv_idle_start(&zk->linger, srv__zk_linger_cb);
}

/* ------------------------------------------------------------ running jobs */

void srv_zk_job_status(srv_zk_job_t *j, cat_store_status_t st, const cm_err_t *err)
{
    j->st = st;
    if (st == CAT_STORE_OK || st == CAT_STORE_DUPLICATE || st == CAT_STORE_NOT_FOUND || err == NULL ||
        !err->set)
        return;
    /* A store that failed for good (its catalog was wiped or replaced, an unknown
     * format, authentication) answers XX000: not an outage to wait out. */
    srv_zk_t *zk = j->zk;
    bool final = zk->store != NULL && cat_store_zk_failed(zk->store, NULL);
    cm_err_set(&j->err, final ? CM_ERRCODE_INTERNAL_ERROR : err->sqlstate, "%s",
               err->message ? err->message : "catalog store error");
    if (err->detail)
        cm_err_set_detail(&j->err, "%s", err->detail);
    if (err->hint)
        cm_err_set_hint(&j->err, "%s", err->hint);
}

static void srv__head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    srv_zk_job_t *j = arg;
    /* A fresh head is news for the log reads too: a loop that read it (a
     * missing name's recheck) reads the log next, and must not be told
     * "nothing new" from an older head while the watch's event is on its way. */
    if (st == CAT_STORE_OK && head && !j->zk->stopping)
        srv_zk_logs_news(j->zk->logs, true, head->index);
    srv_zk_job_status(j, st, err);
    if (head)
        j->head = *head;
    srv_zk_handle_answer(j);
}

static void srv__snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects,
                             size_t n, const cm_err_t *err)
{
    srv_zk_job_t *j = arg;
    srv_zk_job_status(j, st, err);
    if (head)
        j->head = *head;
    j->objects = cm_arena_alloc(&j->arena, (n ? n : 1) * sizeof *j->objects);
    for (size_t i = 0; i < n; i++) {
        uint8_t *copy = cm_arena_alloc(&j->arena, objects[i].len ? objects[i].len : 1);
        memcpy(copy, objects[i].data, objects[i].len);
        j->objects[i] = (cat_kv_t){.key = cm_arena_strdup(&j->arena, objects[i].key), .data = copy,
                                   .len = objects[i].len};
    }
    j->n = n;
    srv_zk_handle_answer(j);
}

typedef struct srv_zk_commit_ctx {
    srv_zk_t *zk;
    srv_zk_job_t *j;
} srv_zk_commit_ctx_t;

static void srv__commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                           const cm_err_t *err)
{
    srv_zk_commit_ctx_t *ctx = arg;
    srv_zk_job_t *j = ctx->j;
    srv_zk_t *zk = ctx->zk;
    bool ours = st == CAT_STORE_OK && !zk->stopping;
    /* Our own entry, committed: every loop (and the sequencer) reads it next,
     * from the ring, without waiting for the head watch to come round. */
    if (ours)
        srv_zk_logs_committed(zk->logs, index, j->commit.entry, j->commit.entry_len);
    free(ctx);
    srv_zk_job_status(j, st, err);
    j->index = index;
    if (name_key)
        j->name_key = cm_arena_strdup(&j->arena, name_key);
    /* Every loop and the sequencer hear of it now, once, and of whatever
     * the head watch said while the answer was on its way; the sequencer
     * first, as its way to the workers is the longer one (each wake-up
     * costs this thread tens of microseconds on a VM). The committing
     * handle applies its own entry and needs no notice of it, unless the
     * watch said more meanwhile. */
    if (ours || zk->notify_deferred) {
        uint64_t seen = 0;
        bool known = cat_store_zk_head_seen(zk->store, &seen);
        bool more = zk->notify_deferred && (!ours || !known || seen > index);
        srv__zk_notify_all(zk, more ? NULL : j->h);
        zk->notify_deferred = false;
        if (ours && index > zk->announced)
            zk->announced = index;
    }
    srv_zk_handle_answer(j);
    /* After the commit's own answer: the reads parked behind it come second. */
    srv_zk_logs_commit_answered(zk->logs);
    srv__zk_linger(zk);
}

static void srv__request_cb(void *arg, cat_store_status_t st, uint64_t index, const cm_err_t *err)
{
    srv_zk_job_t *j = arg;
    srv_zk_job_status(j, st, err);
    j->index = index;
    srv_zk_handle_answer(j);
}

static void srv__job_run(srv_zk_t *zk, srv_zk_job_t *j)
{
    cm_err_t err = {0};
    int rc = 0;
    switch (j->kind) {
    case SRV_ZK_HEAD:
        rc = cat_store_head(zk->store, srv__head_cb, j, &err);
        break;
    case SRV_ZK_LOG:
        srv_zk_logs_read(zk->logs, j);
        return;
    case SRV_ZK_SNAPSHOT:
        rc = cat_store_snapshot(zk->store, srv__snapshot_cb, j, &err);
        break;
    case SRV_ZK_COMMIT: {
        srv_zk_commit_ctx_t *ctx = cm_calloc(1, sizeof *ctx);
        *ctx = (srv_zk_commit_ctx_t){zk, j};
        rc = cat_store_commit(zk->store, &j->commit, srv__commit_cb, ctx, &err);
        if (rc != 0)
            free(ctx);
        else
            srv_zk_logs_commit_sent(zk->logs);
        break;
    }
    case SRV_ZK_REQUEST:
        rc = cat_store_request_lookup(zk->store, j->uuid, srv__request_cb, j, &err);
        break;
    case SRV_ZK_TRIM:
        rc = cat_store_log_trim(zk->store, j->from, &err);
        if (rc == 0) {
            j->st = CAT_STORE_OK;
            srv_zk_handle_answer(j);
        }
        break;
    }
    if (rc != 0) {
        srv_zk_job_status(j, CAT_STORE_ERROR, &err);
        srv_zk_handle_answer(j);
    }
    cm_err_clear(&err);
}

void srv_zk_job_refuse(srv_zk_job_t *j)
{
    cm_err_set(&j->err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"zookeeper\" is closing");
    j->st = CAT_STORE_ERROR;
    srv_zk_handle_answer(j);
}

static void srv__zk_shutdown(srv_zk_t *zk)
{
    zk->stopping = true;
    srv_zk_logs_close(zk->logs);
    /* Closing answers every pending call with an error (inside this call). */
    cat_store_close(zk->store);
    zk->store = NULL;
    srv__poll_drop(zk);
    uv_timer_stop(&zk->timer);
    uv_close((uv_handle_t *)&zk->timer, NULL);
    uv_close((uv_handle_t *)&zk->linger, NULL);
    pthread_mutex_lock(&zk->mu);
    uv_close((uv_handle_t *)&zk->async, NULL);
    pthread_mutex_unlock(&zk->mu);
}

static void srv__zk_async_cb(uv_async_t *a)
{
    srv_zk_t *zk = a->data;
    pthread_mutex_lock(&zk->mu);
    srv_zk_job_t *jobs = zk->q_head;
    zk->q_head = zk->q_tail = NULL;
    zk->q_len = 0;
    bool stop = zk->stop;
    pthread_mutex_unlock(&zk->mu);
    if (zk->stopping)
        return;
    while (jobs) {
        srv_zk_job_t *j = jobs;
        jobs = j->next;
        j->next = NULL;
        if (stop)
            srv_zk_job_refuse(j);
        else
            srv__job_run(zk, j);
        srv__zk_linger(zk);
    }
    if (stop) {
        srv__zk_shutdown(zk);
        return;
    }
    srv__zk_rearm(zk);
}

void srv_zk_kick(srv_zk_t *zk)
{
    pthread_mutex_lock(&zk->mu);
    if (!zk->stop)
        uv_async_send(&zk->async);
    pthread_mutex_unlock(&zk->mu);
}

srv_zk_logs_t *srv_zk_logs(srv_zk_t *zk)
{
    return zk->logs;
}

srv_zk_cluster_t *srv_zk_cluster(srv_zk_t *zk)
{
    return zk->cluster;
}

srv_zk_state_t srv_zk_state(srv_zk_t *zk)
{
    if (atomic_load(&zk->failed))
        return SRV_ZK_FAILED;
    return atomic_load(&zk->ready) ? SRV_ZK_CONNECTED : SRV_ZK_CONNECTING;
}

/* ------------------------------------------------------------ the thread */

bool srv_zk_post(srv_zk_t *zk, srv_zk_job_t *j, cm_err_t *err)
{
    pthread_mutex_lock(&zk->mu);
    if (zk->stop) {
        pthread_mutex_unlock(&zk->mu);
        return cm_err_set(err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"zookeeper\" is closing");
    }
    if (zk->q_len >= SRV_ZK_JOBS_MAX) {
        pthread_mutex_unlock(&zk->mu);
        return cm_err_set(err, "53000", "too many catalog requests are waiting for ZooKeeper");
    }
    j->next = NULL;
    j->zk = zk;
    j->posted_us = cm_now_mono_us();
    if (zk->q_tail)
        zk->q_tail->next = j;
    else
        zk->q_head = j;
    zk->q_tail = j;
    zk->q_len++;
    /* Under the lock: the thread closes the async handle only with it held. */
    uv_async_send(&zk->async);
    pthread_mutex_unlock(&zk->mu);
    return true;
}

void srv_zk_register(srv_zk_t *zk, srv_zk_handle_t *h)
{
    pthread_mutex_lock(&zk->mu);
    if (zk->nhandles == zk->handles_cap) {
        zk->handles_cap = zk->handles_cap ? 2 * zk->handles_cap : 8;
        zk->handles = cm_realloc(zk->handles, zk->handles_cap * sizeof *zk->handles);
    }
    zk->handles[zk->nhandles++] = h;
    pthread_mutex_unlock(&zk->mu);
}

void srv_zk_unregister(srv_zk_t *zk, srv_zk_handle_t *h)
{
    pthread_mutex_lock(&zk->mu);
    for (size_t i = 0; i < zk->nhandles; i++) {
        if (zk->handles[i] == h) {
            zk->handles[i] = zk->handles[--zk->nhandles];
            break;
        }
    }
    pthread_mutex_unlock(&zk->mu);
}

/* The store's "the head may have moved" (its head watch, a new session). */
static void srv__zk_notify_cb(void *arg)
{
    srv_zk_t *zk = arg;
    uint64_t head = 0;
    bool known = cat_store_zk_head_seen(zk->store, &head);
    srv_zk_logs_news(zk->logs, known, head);
    /* The watch of a commit of ours whose answer told everyone already:
     * ZooKeeper answers in order, so that answer came before the watch's
     * re-arming read, which is what calls this. */
    if (known && head <= zk->announced)
        return;
    /* The watch of our own commit fires just before its answer arrives
     * (ZooKeeper sends the event first). Waking every loop and the
     * sequencer now would only have them park reads behind that answer,
     * and their wake-ups take the CPU ZooKeeper needs to send it: the
     * commit's answer tells them instead. */
    if (srv_zk_logs_commits_out(zk->logs)) {
        if (!zk->notify_deferred)
            zk->deferred_us = cm_now_mono_us();
        zk->notify_deferred = true;
        return;
    }
    srv__zk_notify_all(zk, NULL);
    if (known && head > zk->announced)
        zk->announced = head;
}

static void srv__zk_thread(void *arg)
{
    srv_zk_t *zk = arg;
    srv__zk_rearm(zk);
    uv_run(&zk->loop, UV_RUN_DEFAULT);
}

static void srv__zk_free(srv_zk_t *zk)
{
    pthread_mutex_destroy(&zk->mu);
    cm_err_clear(&zk->fail_err);
    free(zk->handles);
    free(zk->hosts);
    srv_zk_cluster_free(zk->cluster);
    srv_zk_logs_free(zk->logs);
    free(zk);
}

srv_zk_t *srv_zk_start(const srv_zk_options_t *opt, cm_err_t *err)
{
    cat_zk_options_t zo;
    cat_zk_options_default(&zo);
    zo.hosts = opt->hosts;
    zo.session_timeout_ms = opt->session_timeout_ms;
    zo.op_timeout_ms = opt->op_timeout_ms;
    zo.auth = opt->auth;
    zo.read_id = opt->read_id;
    cat_store_t *store = cat_store_zk_open(&zo, NULL, err);
    if (store == NULL)
        return NULL;
    srv_zk_t *zk = cm_calloc(1, sizeof *zk);
    zk->hosts = cm_strdup(opt->hosts);
    zk->store = store;
    zk->logs = srv_zk_logs_new(store);
    zk->poll_fd = -1;
    pthread_mutex_init(&zk->mu, NULL);
    uv_loop_init(&zk->loop);
    uv_async_init(&zk->loop, &zk->async, srv__zk_async_cb);
    zk->async.data = zk;
    uv_timer_init(&zk->loop, &zk->timer);
    zk->timer.data = zk;
    uv_idle_init(&zk->loop, &zk->linger);
    zk->linger.data = zk;
    zk->spin_us = opt->spin_us;
    cat_store_set_notify(store, srv__zk_notify_cb, zk);
    zk->cluster = srv_zk_cluster_new(opt->cluster ? opt->cluster : "default");
    /* Before the thread runs: the store contends once it is ready. */
    if (!srv_zk_cluster_join(zk->cluster, store, opt->instance, err)) {
        cat_store_close(store);
        uv_close((uv_handle_t *)&zk->async, NULL);
        uv_close((uv_handle_t *)&zk->timer, NULL);
        uv_close((uv_handle_t *)&zk->linger, NULL);
        uv_run(&zk->loop, UV_RUN_DEFAULT);
        uv_loop_close(&zk->loop);
        srv__zk_free(zk);
        return NULL;
    }
    uv_thread_create(&zk->thread, srv__zk_thread, zk);
    /* The first session: wait here, start-up has nothing else to do. */
    int64_t end = cm_now_mono_us() + (int64_t)opt->connect_timeout_ms * 1000;
    while (!atomic_load(&zk->ready) && !atomic_load(&zk->failed) && cm_now_mono_us() < end) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    /* And until it knows whether it owns its cluster, so that the first DDL
     * is not refused as a standby's while the claim is still on its way. */
    while (atomic_load(&zk->ready) && srv_zk_cluster_role(zk->cluster, NULL) == CAT_ZK_ROLE_NONE &&
           cm_now_mono_us() < end) {
        struct timespec ts = {0, 5 * 1000 * 1000};
        nanosleep(&ts, NULL);
    }
    if (atomic_load(&zk->failed)) {
        /* Refused for good (credentials, another catalog): say why, not "unreachable". */
        pthread_mutex_lock(&zk->mu);
        cm_err_set(err, zk->fail_err.sqlstate, "%s", zk->fail_err.message);
        if (zk->fail_err.hint)
            cm_err_set_hint(err, "%s", zk->fail_err.hint);
        pthread_mutex_unlock(&zk->mu);
        srv_zk_stop(zk);
        return NULL;
    }
    if (!atomic_load(&zk->ready)) {
        cm_err_set(err, "57P03", "could not reach the catalog store \"zookeeper\" at %s within %d ms", opt->hosts,
                   opt->connect_timeout_ms);
        cm_err_set_hint(err, "Check that ZooKeeper runs there, or raise --zookeeper-connect-timeout-ms.");
        srv_zk_stop(zk);
        return NULL;
    }
    return zk;
}

void srv_zk_stop(srv_zk_t *zk)
{
    if (zk == NULL)
        return;
    pthread_mutex_lock(&zk->mu);
    zk->stop = true;
    uv_async_send(&zk->async);
    pthread_mutex_unlock(&zk->mu);
    uv_thread_join(&zk->thread);
    uv_loop_close(&zk->loop);
    srv__zk_free(zk);
}
