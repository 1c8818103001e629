/*
 * srv_sync.c: sessions waiting for the workers (DESIGN §2, §5):
 *   - synchronous DDL: a DDL is answered only once every worker applied the
 *     catalog index it committed at (srv_ddl.c asks srv_sync_wait);
 *   - read your writes: a statement is held before it runs while the
 *     workers are behind the session's own last DDL or any DDL already
 *     acknowledged to a session (srv_sync_hold).
 * The sequencer publishes "applied by every worker" as an atomic and, when
 * it grows, srv_sync_progress signals each loop's uv_async_t; a loop then
 * releases the waits it has. Threads meet only there, under sync_mu, which
 * also keeps a loop that is closing from being signalled after its handle
 * is gone.
 */
#include "server/srv_int.h"

#include "sequencer/sequencer.h"

#include <sched.h>
#include <stdlib.h>
#include <string.h>

struct srv_sync_wait {
    srv_sync_wait_t *next;
    uint64_t index;
    int64_t deadline_us;       /* monotonic */
    int timeout_ms;
    srv_sync_cb cb;
    void *arg;
};

struct srv_sync_loop {
    srv_loop_t *lp;
    uv_async_t progress;       /* the workers applied more */
    uv_timer_t timer;          /* the nearest deadline */
    uv_idle_t linger;          /* active: the loop polls instead of sleeping (srv_sync_linger) */
    int64_t linger_until_us;
    bool closed;               /* under srv->sync_mu */
    srv_sync_wait_t *waits;
    _Atomic bool waiting;      /* waits is not empty: only then is the loop signalled */
};

/* ------------------------------------------------------------ progress */

uint64_t srv_sync_applied(srv_server_t *srv)
{
    return srv->seq ? seq_applied_index(srv->seq) : UINT64_MAX;
}

/* On the thread of the worker that raised the applied index (the
 * sequencer's on_applied hook, srv_workers.c): every loop that has waits
 * looks again. */
void srv_sync_progress(srv_server_t *srv)
{
    pthread_mutex_lock(&srv->sync_mu);
    for (int i = 0; i < srv->nloops; i++) {
        /* A loop that waits for nothing is not woken (a wake-up is tens of
         * microseconds of this thread's time on a VM, and most loops do not
         * wait); one that starts waiting looks at the progress itself. */
        srv_sync_loop_t *sl = srv->loops[i].sync;
        if (sl != NULL && !sl->closed && atomic_load(&sl->waiting))
            uv_async_send(&sl->progress);
    }
    pthread_mutex_unlock(&srv->sync_mu);
}

/* ------------------------------------------------------------ waits */

static void srv__sync_timer_cb(uv_timer_t *t);

static void srv__timer_arm(srv_sync_loop_t *sl)
{
    int64_t first = INT64_MAX;
    for (srv_sync_wait_t *w = sl->waits; w != NULL; w = w->next)
        if (w->deadline_us < first)
            first = w->deadline_us;
    if (first == INT64_MAX) {
        uv_timer_stop(&sl->timer);
        return;
    }
    int64_t ms = (first - cm_now_mono_us() + 999) / 1000;
    uv_timer_start(&sl->timer, srv__sync_timer_cb, ms > 0 ? (uint64_t)ms : 0, 0);
}

/* Takes out the waits `ready` says are done and runs them (they may add waits). */
static void srv__sync_run(srv_sync_loop_t *sl, bool (*ready)(const srv_sync_wait_t *w, void *arg), void *arg,
                          const cm_err_t *err_for)
{
    srv_sync_wait_t *done = NULL, **tail = &done;
    for (srv_sync_wait_t **pp = &sl->waits; *pp;) {
        srv_sync_wait_t *w = *pp;
        if (ready(w, arg)) {
            *pp = w->next;
            w->next = NULL;
            *tail = w;
            tail = &w->next;
        } else {
            pp = &w->next;
        }
    }
    while (done != NULL) {
        srv_sync_wait_t *w = done;
        done = w->next;
        cm_err_t e = {0};
        if (err_for != NULL) {
            if (strcmp(err_for->sqlstate, CM_ERRCODE_QUERY_CANCELED) == 0)
                cm_err_set(&e, CM_ERRCODE_QUERY_CANCELED,
                           "canceling statement: the workers have not applied catalog index %llu after %d ms",
                           (unsigned long long)w->index, w->timeout_ms);
            else
                cm_err_set(&e, err_for->sqlstate, "%s", err_for->message);
        }
        w->cb(w->arg, err_for ? &e : NULL);
        cm_err_clear(&e);
        free(w);
    }
    atomic_store(&sl->waiting, sl->waits != NULL);
}

static bool srv__applied_ready(const srv_sync_wait_t *w, void *arg)
{
    return w->index <= *(uint64_t *)arg;
}

static bool srv__expired(const srv_sync_wait_t *w, void *arg)
{
    return w->deadline_us <= *(int64_t *)arg;
}

static bool srv__all(const srv_sync_wait_t *w, void *arg)
{
    return true;
}

static void srv__progress_cb(uv_async_t *a)
{
    srv_sync_loop_t *sl = a->data;
    uint64_t applied = srv_sync_applied(sl->lp->srv);
    srv__sync_run(sl, srv__applied_ready, &applied, NULL);
    srv__timer_arm(sl);
}

static void srv__sync_timer_cb(uv_timer_t *t)
{
    srv_sync_loop_t *sl = t->data;
    int64_t now = cm_now_mono_us();
    cm_err_t e = {0};
    cm_err_set(&e, CM_ERRCODE_QUERY_CANCELED, "timed out");
    srv__sync_run(sl, srv__expired, &now, &e);
    cm_err_clear(&e);
    srv__timer_arm(sl);
}

/*
 * A DDL's way crosses threads: the ZooKeeper thread, worker 0, the other
 * workers, and back. On a VM each wake-up of a sleeping thread costs the
 * waker and the woken tens of microseconds, several times per DDL; so while
 * a DDL of its own is on its way the loop does not sleep. It polls (its
 * other connections are served as usual), looks at the workers' published
 * progress each turn and yields the CPU in between (2 CPUs: the workers may
 * need this one). The answers then find it awake, and so does the client's
 * next statement if it comes within --ddl-spin-us.
 */
static void srv__linger_cb(uv_idle_t *h)
{
    srv_sync_loop_t *sl = h->data;
    if (sl->waits != NULL) {
        uint64_t applied = srv_sync_applied(sl->lp->srv);
        srv__sync_run(sl, srv__applied_ready, &applied, NULL);
        srv__timer_arm(sl);
    }
    if (sl->closed || cm_now_mono_us() >= sl->linger_until_us)
        uv_idle_stop(h);
    else
        sched_yield();
}

void srv_sync_linger(srv_loop_t *lp)
{
    srv_sync_loop_t *sl = lp->sync;
    int us = lp->srv->cfg.ddl_spin_us;
    if (sl == NULL || sl->closed || us <= 0)
        return;
    sl->linger_until_us = cm_now_mono_us() + us;
    uv_idle_start(&sl->linger, srv__linger_cb);
}

bool srv_sync_wait(srv_loop_t *lp, uint64_t index, int timeout_ms, srv_sync_cb cb, void *arg)
{
    srv_sync_loop_t *sl = lp->sync;
    if (sl == NULL || sl->closed || srv_sync_applied(lp->srv) >= index)
        return true;
    srv_sync_wait_t *w = cm_calloc(1, sizeof *w);
    w->index = index;
    w->timeout_ms = timeout_ms;
    w->deadline_us = cm_now_mono_us() + (int64_t)timeout_ms * 1000;
    w->cb = cb;
    w->arg = arg;
    w->next = sl->waits;
    sl->waits = w;
    atomic_store(&sl->waiting, true);
    srv__timer_arm(sl);
    srv_sync_linger(lp);
    /* The workers may have got there between the check and the list (or
     * before `waiting` was set): look again on the loop. */
    uv_async_send(&sl->progress);
    return false;
}

void srv_sync_loop_init(srv_loop_t *lp)
{
    srv_sync_loop_t *sl = cm_calloc(1, sizeof *sl);
    sl->lp = lp;
    uv_async_init(&lp->uv, &sl->progress, srv__progress_cb);
    uv_timer_init(&lp->uv, &sl->timer);
    uv_idle_init(&lp->uv, &sl->linger);
    sl->progress.data = sl->timer.data = sl->linger.data = sl;
    pthread_mutex_lock(&lp->srv->sync_mu);
    lp->sync = sl;
    pthread_mutex_unlock(&lp->srv->sync_mu);
}

void srv_sync_loop_close(srv_loop_t *lp)
{
    srv_sync_loop_t *sl = lp->sync;
    if (sl == NULL || sl->closed)
        return;
    pthread_mutex_lock(&lp->srv->sync_mu);
    sl->closed = true;
    pthread_mutex_unlock(&lp->srv->sync_mu);
    cm_err_t e = {0};
    cm_err_set(&e, CM_ERRCODE_ADMIN_SHUTDOWN, "terminating connection due to administrator command");
    srv__sync_run(sl, srv__all, NULL, &e);
    cm_err_clear(&e);
    uv_close((uv_handle_t *)&sl->progress, NULL);
    uv_close((uv_handle_t *)&sl->timer, NULL);
    uv_close((uv_handle_t *)&sl->linger, NULL);
}

void srv_sync_loop_free(srv_loop_t *lp)
{
    srv_sync_loop_t *sl = lp->sync;
    if (sl == NULL)
        return;
    pthread_mutex_lock(&lp->srv->sync_mu);
    lp->sync = NULL;
    pthread_mutex_unlock(&lp->srv->sync_mu);
    free(sl);
}

/* ------------------------------------------------------------ holding a statement */

static void srv__hold_done(void *arg, const cm_err_t *err)
{
    srv_conn_t *c = arg;
    if (c == NULL)
        return;   /* the connection went away meanwhile */
    c->sync_wait = NULL;
    if (err != NULL) {
        /* The statement is answered with this instead of running before its DDL took effect. */
        cm_err_clear(&c->sync_err);
        cm_err_set(&c->sync_err, err->sqlstate, "%s", err->message);
        if (strcmp(err->sqlstate, CM_ERRCODE_QUERY_CANCELED) == 0)
            cm_err_set_hint(&c->sync_err, "A DDL committed before this statement is not yet applied by every "
                                          "worker; eddy_internal.workers shows how far each one is.");
    }
    if (c->state != SRV_CONN_BUSY)
        return;
    srv_conn_set_state(c, SRV_CONN_READY);
    srv_conn_resume(c);
}

bool srv_sync_hold(srv_conn_t *c)
{
    srv_server_t *srv = c->lp->srv;
    if (c->sync_err.set)
        return false;   /* timed out: the statement is answered with the error */
    uint64_t need = atomic_load(&srv->cat_acked);
    if (c->sync_index > need)
        need = c->sync_index;
    if (srv_sync_applied(srv) >= need)
        return false;
    /* The wait's argument is the connection; srv_sync_conn_free clears it. */
    srv_conn_set_state(c, SRV_CONN_BUSY);
    if (srv_sync_wait(c->lp, need, srv->cfg.ddl_apply_timeout_ms, srv__hold_done, c)) {
        srv_conn_set_state(c, SRV_CONN_READY);
        return false;
    }
    for (srv_sync_wait_t *w = c->lp->sync->waits; w != NULL; w = w->next)
        if (w->arg == c && w->cb == srv__hold_done)
            c->sync_wait = w;
    return true;
}

void srv_sync_conn_free(srv_conn_t *c)
{
    if (c->sync_wait != NULL) {
        c->sync_wait->arg = NULL;
        c->sync_wait = NULL;
    }
}
