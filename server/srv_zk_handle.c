/*
 * srv_zk_handle.c: a pgwire loop's store handle in cluster mode: a
 * cat_store_t whose calls become jobs for the ZooKeeper thread
 * (srv_zk_loop.c) and whose answers come back to the loop's thread.
 *
 * The contract is the store interface's (catalog.h): an asynchronous call
 * returns 0 and its callback runs exactly once, later, from
 * cat_store_dispatch on the handle's thread (the wake hook, an
 * uv_async_send, says when), or it returns -1 and the callback never runs.
 * Closing the handle answers every call still out with an error at once;
 * the ZooKeeper thread frees those jobs when their answers arrive, and the
 * handle itself goes with its last job.
 */
#include "server/srv_zk.h"

#include "server/srv_metrics.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

struct srv_zk_handle {
    cat_store_t base;             /* first: the handle is a cat_store_t */
    srv_zk_t *zk;
    void (*wake)(void *arg);
    void *wake_arg;
    pthread_mutex_t mu;           /* guards everything below */
    pthread_cond_t cv;            /* an answer or a notification arrived (srv_zk_handle_wait) */
    srv_zk_job_t *done_head, *done_tail;
    srv_zk_job_t *live;           /* jobs whose caller has not been answered */
    bool notify_pending;
    bool closed;
    int refs;                     /* the owner's plus one per job not freed */
};

static void srv__handle_unref_locked(srv_zk_handle_t *h, bool *free_it)
{
    *free_it = --h->refs == 0;
}

static void srv__handle_free(srv_zk_handle_t *h)
{
    pthread_mutex_destroy(&h->mu);
    pthread_cond_destroy(&h->cv);
    free(h);
}

void srv_zk_job_free(srv_zk_job_t *j)
{
    cm_err_clear(&j->err);
    cm_arena_free(&j->arena);
    free(j);
}

static void srv__live_remove(srv_zk_handle_t *h, srv_zk_job_t *j)
{
    if (j->prev_live)
        j->prev_live->next_live = j->next_live;
    else
        h->live = j->next_live;
    if (j->next_live)
        j->next_live->prev_live = j->prev_live;
    j->prev_live = j->next_live = NULL;
}

/* ------------------------------------------------------------ on the ZooKeeper thread */

void srv_zk_handle_answer(srv_zk_job_t *j)
{
    srv_zk_handle_t *h = j->h;
    bool free_h = false;
    if (j->posted_us != 0)
        srv_metrics_observe((srv_hist_id_t)(SRV_HIST_ZK_HEAD + (int)j->kind), cm_now_mono_us() - j->posted_us);
    pthread_mutex_lock(&h->mu);
    if (j->orphan) {
        srv__handle_unref_locked(h, &free_h);
        pthread_mutex_unlock(&h->mu);
        srv_zk_job_free(j);
        if (free_h)
            srv__handle_free(h);
        return;
    }
    j->next = NULL;
    if (h->done_tail)
        h->done_tail->next = j;
    else
        h->done_head = j;
    h->done_tail = j;
    pthread_cond_broadcast(&h->cv);
    /* With the lock held: a closing owner cannot tear its wake hook down in between. */
    if (h->wake)
        h->wake(h->wake_arg);
    pthread_mutex_unlock(&h->mu);
}

void srv_zk_handle_notify(srv_zk_handle_t *h)
{
    pthread_mutex_lock(&h->mu);
    if (!h->closed) {
        h->notify_pending = true;
        pthread_cond_broadcast(&h->cv);
        if (h->wake && !atomic_load(&h->base.quiet))
            h->wake(h->wake_arg);
    }
    pthread_mutex_unlock(&h->mu);
}

/* ------------------------------------------------------------ on the owner's thread */

static void srv__answer_caller(srv_zk_job_t *j)
{
    const cm_err_t *err = j->err.set ? &j->err : NULL;
    if (j->fn == NULL)
        return;
    switch (j->kind) {
    case SRV_ZK_HEAD:
        ((cat_store_head_cb)(void *)j->fn)(j->arg, j->st, &j->head, err);
        break;
    case SRV_ZK_LOG:
        ((cat_store_log_cb)(void *)j->fn)(j->arg, j->st, j->entries, j->st == CAT_STORE_OK ? j->n : 0, err);
        break;
    case SRV_ZK_SNAPSHOT:
        ((cat_store_snapshot_cb)(void *)j->fn)(j->arg, j->st, &j->head, j->objects,
                                               j->st == CAT_STORE_OK ? j->n : 0, err);
        break;
    case SRV_ZK_COMMIT:
        ((cat_store_commit_cb)(void *)j->fn)(j->arg, j->st, j->index, j->name_key, err);
        break;
    case SRV_ZK_REQUEST:
        ((cat_store_request_cb)(void *)j->fn)(j->arg, j->st, j->index, err);
        break;
    case SRV_ZK_TRIM:
        break;
    }
}

static void srv__dispatch(cat_store_t *s)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    pthread_mutex_lock(&h->mu);
    srv_zk_job_t *jobs = h->done_head;
    h->done_head = h->done_tail = NULL;
    bool notify = h->notify_pending && !h->closed;
    h->notify_pending = false;
    for (srv_zk_job_t *j = jobs; j; j = j->next)
        srv__live_remove(h, j);
    pthread_mutex_unlock(&h->mu);
    while (jobs) {
        srv_zk_job_t *j = jobs;
        jobs = j->next;
        srv__answer_caller(j);
        bool free_h = false;
        pthread_mutex_lock(&h->mu);
        srv__handle_unref_locked(h, &free_h);
        pthread_mutex_unlock(&h->mu);
        srv_zk_job_free(j);
        CM_ASSERT(!free_h);   /* the owner's reference is held until close */
    }
    if (notify && s->notify)
        s->notify(s->notify_arg);
}

static srv_zk_job_t *srv__job_new(srv_zk_handle_t *h, srv_zk_job_kind_t kind, void (*fn)(void), void *arg)
{
    srv_zk_job_t *j = cm_calloc(1, sizeof *j);
    j->h = h;
    j->kind = kind;
    j->fn = fn;
    j->arg = arg;
    cm_arena_init(&j->arena, 0);
    return j;
}

/* Counts a call as out (its answer is owed); false (job freed) when closed. */
static bool srv__track(srv_zk_handle_t *h, srv_zk_job_t *j, cm_err_t *err)
{
    pthread_mutex_lock(&h->mu);
    if (h->closed) {
        pthread_mutex_unlock(&h->mu);
        srv_zk_job_free(j);
        return cm_err_set(err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"zookeeper\" is closing");
    }
    h->refs++;
    j->next_live = h->live;
    if (h->live)
        h->live->prev_live = j;
    h->live = j;
    pthread_mutex_unlock(&h->mu);
    return true;
}

/* Hands a job to the ZooKeeper thread; -1 (job freed) when it is refused. */
static int srv__submit(srv_zk_handle_t *h, srv_zk_job_t *j, cm_err_t *err)
{
    if (!srv__track(h, j, err))
        return -1;
    if (srv_zk_post(h->zk, j, err))
        return 0;
    pthread_mutex_lock(&h->mu);
    srv__live_remove(h, j);
    h->refs--;
    pthread_mutex_unlock(&h->mu);
    srv_zk_job_free(j);
    return -1;
}

static int srv__head(cat_store_t *s, cat_store_head_cb cb, void *arg, cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    return srv__submit(h, srv__job_new(h, SRV_ZK_HEAD, (void (*)(void))(void *)cb, arg), err);
}

static int srv__log_read(cat_store_t *s, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    srv_zk_job_t *j = srv__job_new(h, SRV_ZK_LOG, (void (*)(void))(void *)cb, arg);
    j->from = from;
    j->max = max;
    /* Entries the thread already holds are copied here: no trip to it and
     * back (two thread wake-ups) on the way from a commit to the workers.
     * The answer still comes through dispatch, as every answer does. */
    if (srv_zk_logs_copy(srv_zk_logs(h->zk), j)) {
        if (!srv__track(h, j, err))
            return -1;
        srv_zk_handle_answer(j);
        return 0;
    }
    return srv__submit(h, j, err);
}

static int srv__snapshot(cat_store_t *s, cat_store_snapshot_cb cb, void *arg, cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    return srv__submit(h, srv__job_new(h, SRV_ZK_SNAPSHOT, (void (*)(void))(void *)cb, arg), err);
}

static cat_kv_t *srv__copy_kvs(cm_arena_t *a, const cat_kv_t *in, size_t n)
{
    cat_kv_t *out = cm_arena_alloc(a, (n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = cm_arena_alloc(a, in[i].len ? in[i].len : 1);
        if (in[i].len)
            memcpy(d, in[i].data, in[i].len);
        out[i] = (cat_kv_t){.key = cm_arena_strdup(a, in[i].key), .data = d, .len = in[i].len};
    }
    return out;
}

static const char *const *srv__copy_keys(cm_arena_t *a, const char *const *in, size_t n)
{
    const char **out = cm_arena_alloc(a, (n ? n : 1) * sizeof *out);
    for (size_t i = 0; i < n; i++)
        out[i] = cm_arena_strdup(a, in[i]);
    return out;
}

static int srv__commit(cat_store_t *s, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                       cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    srv_zk_job_t *j = srv__job_new(h, SRV_ZK_COMMIT, (void (*)(void))(void *)cb, arg);
    /* A deep copy: the caller's commit need not outlive the call. */
    cm_arena_t *a = &j->arena;
    j->commit = *c;
    uint8_t *entry = cm_arena_alloc(a, c->entry_len ? c->entry_len : 1);
    if (c->entry_len)
        memcpy(entry, c->entry, c->entry_len);
    j->commit.entry = entry;
    j->commit.obj_creates = srv__copy_kvs(a, c->obj_creates, c->n_obj_creates);
    j->commit.name_creates = srv__copy_kvs(a, c->name_creates, c->n_name_creates);
    j->commit.obj_deletes = srv__copy_keys(a, c->obj_deletes, c->n_obj_deletes);
    j->commit.name_deletes = srv__copy_keys(a, c->name_deletes, c->n_name_deletes);
    return srv__submit(h, j, err);
}

static int srv__request_lookup(cat_store_t *s, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                               cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    srv_zk_job_t *j = srv__job_new(h, SRV_ZK_REQUEST, (void (*)(void))(void *)cb, arg);
    memcpy(j->uuid, uuid, 16);
    return srv__submit(h, j, err);
}

static int srv__log_trim(cat_store_t *s, uint64_t below, cm_err_t *err)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    srv_zk_job_t *j = srv__job_new(h, SRV_ZK_TRIM, NULL, NULL);
    j->from = below;
    return srv__submit(h, j, err);
}

static void srv__close(cat_store_t *s)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    srv_zk_unregister(h->zk, h);
    pthread_mutex_lock(&h->mu);
    h->closed = true;
    /* Answers that arrived and were not dispatched are freed here; jobs still
     * out become orphans, freed by the ZooKeeper thread when they come back. */
    srv_zk_job_t *done = h->done_head;
    h->done_head = h->done_tail = NULL;
    for (srv_zk_job_t *j = done; j; j = j->next)
        srv__live_remove(h, j);
    srv_zk_job_t *out = h->live;
    h->live = NULL;
    /* Copies of what the callers need, taken under the lock. */
    size_t nout = 0;
    for (srv_zk_job_t *j = out; j; j = j->next_live)
        nout++;
    srv_zk_job_t *calls = cm_calloc(nout ? nout : 1, sizeof *calls);
    size_t k = 0;
    for (srv_zk_job_t *j = out, *next; j; j = next) {
        next = j->next_live;
        calls[k].kind = j->kind;
        calls[k].fn = j->fn;
        calls[k].arg = j->arg;
        k++;
        j->orphan = true;
        j->prev_live = j->next_live = NULL;
    }
    pthread_mutex_unlock(&h->mu);
    /* Every caller hears once: the done ones and the orphans, with an error. */
    for (srv_zk_job_t *j = done; j; j = j->next) {
        calls = cm_realloc(calls, (nout + 1) * sizeof *calls);
        memset(&calls[nout], 0, sizeof calls[nout]);
        calls[nout].kind = j->kind;
        calls[nout].fn = j->fn;
        calls[nout].arg = j->arg;
        nout++;
    }
    while (done) {
        srv_zk_job_t *j = done;
        done = j->next;
        pthread_mutex_lock(&h->mu);
        h->refs--;
        pthread_mutex_unlock(&h->mu);
        srv_zk_job_free(j);
    }
    for (size_t i = 0; i < nout; i++) {
        srv_zk_job_t *c = &calls[i];
        cm_arena_init(&c->arena, 0);
        c->st = CAT_STORE_ERROR;
        cm_err_set(&c->err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"zookeeper\" is closing");
        srv__answer_caller(c);
        cm_err_clear(&c->err);
        cm_arena_free(&c->arena);
    }
    free(calls);
    bool free_h = false;
    pthread_mutex_lock(&h->mu);
    srv__handle_unref_locked(h, &free_h);
    pthread_mutex_unlock(&h->mu);
    if (free_h)
        srv__handle_free(h);
}

static const cat_store_ops_t srv__zk_handle_ops = {
    .name = "zookeeper",
    .head = srv__head,
    .log_read = srv__log_read,
    .snapshot = srv__snapshot,
    .commit = srv__commit,
    .request_lookup = srv__request_lookup,
    .log_trim = srv__log_trim,
    .dispatch = srv__dispatch,
    .close = srv__close,
};

cat_store_t *srv_zk_handle_open(srv_zk_t *zk, void (*wake)(void *arg), void *wake_arg)
{
    srv_zk_handle_t *h = cm_calloc(1, sizeof *h);
    h->base.ops = &srv__zk_handle_ops;
    cat_limits_default(&h->base.limits);
    h->zk = zk;
    h->wake = wake;
    h->wake_arg = wake_arg;
    h->refs = 1;
    pthread_mutex_init(&h->mu, NULL);
    pthread_cond_init(&h->cv, NULL);
    srv_zk_register(zk, h);
    return &h->base;
}

bool srv_zk_handle_wait(cat_store_t *s, int timeout_ms, bool (*done)(void *arg), void *arg)
{
    srv_zk_handle_t *h = (srv_zk_handle_t *)s;
    struct timespec end;
    clock_gettime(CLOCK_REALTIME, &end);
    end.tv_sec += timeout_ms / 1000;
    end.tv_nsec += (long)(timeout_ms % 1000) * 1000000;
    if (end.tv_nsec >= 1000000000) {
        end.tv_sec++;
        end.tv_nsec -= 1000000000;
    }
    for (;;) {
        srv__dispatch(s);
        if (done(arg))
            return true;
        pthread_mutex_lock(&h->mu);
        int rc = 0;
        while (h->done_head == NULL && !h->notify_pending && rc != ETIMEDOUT)
            rc = pthread_cond_timedwait(&h->cv, &h->mu, &end);
        pthread_mutex_unlock(&h->mu);
        if (rc == ETIMEDOUT) {
            srv__dispatch(s);
            return done(arg);
        }
    }
}
