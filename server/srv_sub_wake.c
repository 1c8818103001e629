/*
 * srv_sub_wake.c: the workers wake a loop whose subscriptions have rows
 * ready, so a change reaches its subscriber as soon as every worker has
 * passed its step instead of at the session's next poll. Each loop has one
 * uv_async_t; a subscription that a connection streams (or a FETCH waits
 * on) is watched: its df_sub_t calls srv__sub_wake_cb on the worker that
 * moved it on (under the subscription's lock, df_sub_set_notify), which only
 * signals the loop, under srv->sync_mu so that a closing loop is never
 * signalled; the loop then polls every watch it has (a few per loop). The
 * sessions' poll timers stay, slower, for cancels and timeouts.
 */
#include "server/srv_subscribe.h"

#include <stdlib.h>

struct srv_sub_loop {
    srv_loop_t *lp;
    uv_async_t async;
    bool closed;                /* under srv->sync_mu: no more signals */
    srv_sub_watch_t *watches;   /* loop only */
};

static void srv__sub_wake_cb(void *arg)
{
    srv_sub_loop_t *sl = arg;
    srv_server_t *srv = sl->lp->srv;
    pthread_mutex_lock(&srv->sync_mu);
    if (!sl->closed)
        uv_async_send(&sl->async);
    pthread_mutex_unlock(&srv->sync_mu);
}

static void srv__sub_loop_async_cb(uv_async_t *a)
{
    srv_sub_loop_t *sl = a->data;
    /* A poll may end its own watch (and only its own): the next one is taken first. */
    for (srv_sub_watch_t *w = sl->watches, *next; w != NULL; w = next) {
        next = w->next;
        w->poll(w);
    }
}

void srv_sub_watch_start(srv_loop_t *lp, srv_sub_watch_t *w, df_sub_t *sub, bool progress,
                         void (*poll)(srv_sub_watch_t *w))
{
    srv_sub_loop_t *sl = lp->subl;
    w->sl = sl;
    w->sub = sub;
    w->poll = poll;
    w->prev = NULL;
    w->next = sl->watches;
    if (sl->watches != NULL)
        sl->watches->prev = w;
    sl->watches = w;
    df_sub_set_notify(sub, srv__sub_wake_cb, sl, progress);
}

void srv_sub_watch_stop(srv_sub_watch_t *w)
{
    if (w->sl == NULL)
        return;
    df_sub_set_notify(w->sub, NULL, NULL, false);
    if (w->prev != NULL)
        w->prev->next = w->next;
    else
        w->sl->watches = w->next;
    if (w->next != NULL)
        w->next->prev = w->prev;
    w->prev = w->next = NULL;
    w->sl = NULL;
}

void srv_sub_loop_init(srv_loop_t *lp)
{
    srv_sub_loop_t *sl = cm_calloc(1, sizeof *sl);
    sl->lp = lp;
    uv_async_init(&lp->uv, &sl->async, srv__sub_loop_async_cb);
    sl->async.data = sl;
    lp->subl = sl;
}

void srv_sub_loop_close(srv_loop_t *lp)
{
    srv_sub_loop_t *sl = lp->subl;
    if (sl == NULL || sl->closed)
        return;
    pthread_mutex_lock(&lp->srv->sync_mu);
    sl->closed = true;
    pthread_mutex_unlock(&lp->srv->sync_mu);
    uv_close((uv_handle_t *)&sl->async, NULL);
}

void srv_sub_loop_free(srv_loop_t *lp)
{
    free(lp->subl);
    lp->subl = NULL;
}
