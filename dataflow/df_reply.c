/*
 * df_reply.c: answers to Write and Peek commands (dataflow.h, df_reply_t).
 * Every worker answers on its own thread; an atomic count of answers still
 * missing decides which thread runs done, and a flag makes a refusal and
 * the last answer race harmlessly: done runs exactly once. Errors keep the
 * first one reported, under a mutex, since several workers may fail at once.
 */
#include "dataflow/dataflow.h"

#include <stdlib.h>
#include <time.h>

df_reply_t *df_reply_new(int nworkers, df_reply_fn done, void *arg)
{
    CM_ASSERT(nworkers >= 1);
    /* One allocation with its parts: a statement's reply is made on its loop and often freed on a
     * worker's thread, and every cross-thread free may wait for the allocating thread's arena. */
    df_reply_t *r = cm_calloc(1, sizeof *r + sizeof *r->parts * (size_t)nworkers);
    atomic_init(&r->refs, 1);
    atomic_init(&r->pending, nworkers);
    atomic_init(&r->finished, false);
    r->nworkers = nworkers;
    r->done = done;
    r->arg = arg;
    pthread_mutex_init(&r->mu, NULL);
    pthread_cond_init(&r->voted, NULL);
    pthread_cond_init(&r->finished_cv, NULL);
    r->parts = (df_reply_part_t *)(r + 1);
    for (int i = 0; i < nworkers; i++)
        cm_buf_init(&r->parts[i].bytes, 0);
    return r;
}

void df_reply_ref(df_reply_t *r)
{
    atomic_fetch_add_explicit(&r->refs, 1, memory_order_relaxed);
}

void df_reply_unref(df_reply_t *r)
{
    if (r == NULL || atomic_fetch_sub_explicit(&r->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (int i = 0; i < r->nworkers; i++)
        cm_buf_free(&r->parts[i].bytes);
    cm_err_clear(&r->err);
    pthread_mutex_destroy(&r->mu);
    pthread_cond_destroy(&r->voted);
    pthread_cond_destroy(&r->finished_cv);
    free(r);
}

static void df__reply_keep_error(df_reply_t *r, const cm_err_t *err)
{
    pthread_mutex_lock(&r->mu);
    if (!r->err.set) {
        cm_err_set(&r->err, err->sqlstate, "%s", err->message ? err->message : "");
        if (err->detail)
            cm_err_set_detail(&r->err, "%s", err->detail);
        if (err->hint)
            cm_err_set_hint(&r->err, "%s", err->hint);
    }
    pthread_mutex_unlock(&r->mu);
}

static void df__reply_finish(df_reply_t *r)
{
    bool expected = false;
    if (!atomic_compare_exchange_strong(&r->finished, &expected, true))
        return;
    if (r->done)
        r->done(r, r->arg);
    pthread_mutex_lock(&r->mu);
    pthread_cond_broadcast(&r->finished_cv);
    pthread_mutex_unlock(&r->mu);
}

void df_reply_answer(df_reply_t *r, int w, const cm_err_t *err)
{
    CM_ASSERT(w >= 0 && w < r->nworkers && !r->parts[w].answered);
    r->parts[w].answered = true;
    if (err && err->set)
        df__reply_keep_error(r, err);
    /* acq_rel: the thread that sees 0 sees every part the others filled. */
    if (atomic_fetch_sub_explicit(&r->pending, 1, memory_order_acq_rel) == 1)
        df__reply_finish(r);
}

void df_reply_fail(df_reply_t *r, const char *sqlstate, const char *message)
{
    if (atomic_load(&r->finished))
        return;
    cm_err_t e = {0};
    cm_err_set(&e, sqlstate, "%s", message);
    df__reply_keep_error(r, &e);
    cm_err_clear(&e);
    df__reply_finish(r);
}

bool df_reply_vote(df_reply_t *r, bool ok)
{
    pthread_mutex_lock(&r->mu);
    if (!ok)
        r->veto = true;
    if (++r->votes == r->nworkers)
        pthread_cond_broadcast(&r->voted);
    while (r->votes < r->nworkers)
        pthread_cond_wait(&r->voted, &r->mu);
    bool all = !r->veto;
    pthread_mutex_unlock(&r->mu);
    return all;
}

bool df_reply_wait(df_reply_t *r, int timeout_ms)
{
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += (long)(timeout_ms % 1000) * 1000000L;
    until.tv_sec += timeout_ms / 1000 + until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&r->mu);
    while (!atomic_load(&r->finished))
        if (pthread_cond_timedwait(&r->finished_cv, &r->mu, &until) != 0)
            break;
    pthread_mutex_unlock(&r->mu);
    return atomic_load(&r->finished);
}
