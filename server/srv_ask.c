/*
 * srv_ask.c: a statement's command to the workers, sent from its
 * connection's loop and answered on that loop, so no thread blocks waiting
 * for it: the worker that answers last puts the ask on its loop's list and
 * signals the loop's uv_async_t (one wake-up, where a thread-pool statement
 * costs one to start the pool thread, one to wake it with the answer and
 * one to wake the loop when it is done).
 *
 * A read's wait ends at cancel or statement_timeout: a timer looks at the
 * loop's interruptible asks every SRV_WORKERS_POLL_MS, and an interrupted
 * one is answered at once (its late answer is then dropped). A write, once
 * sent, runs to its end. A connection that goes away leaves its ask behind
 * (c NULL) and the answer frees it; a loop that closes no longer takes
 * answers (under srv->sync_mu, as srv_sync.c's wake-ups), and the
 * answering worker frees them instead.
 */
#include "server/srv_int.h"
#include "server/srv_metrics.h"

#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"

#include <sched.h>
#include <stdlib.h>

struct srv_ask {
    srv_ask_t *next;            /* the loop's answered list (under sync_mu) */
    srv_ask_t *prev_live, *next_live;   /* the loop's asks in flight (loop only) */
    srv_server_t *srv;
    int loop;
    srv_conn_t *c;              /* NULL: nobody waits for the answer any more */
    df_reply_t *rep;
    df_cmd_kind_t kind;
    ty_ctx_t *ctx;              /* interruptible: the statement's, checked by the timer */
    srv_ask_fn fn;
    void *arg;
    int64_t t0;
};

struct srv_ask_loop {
    srv_loop_t *lp;
    uv_async_t answered;
    uv_timer_t poll;            /* runs while an interruptible ask is in flight */
    uv_idle_t spin;             /* active: the loop polls for answers instead of sleeping */
    uv_idle_t here;             /* active: an answer came while its ask was being sent */
    int64_t spin_until_us;
    bool closed;                /* under sync_mu: answers are not taken any more */
    srv_ask_t *done;            /* answered, not yet handled (under sync_mu) */
    srv_ask_t *live;            /* in flight (loop only) */
    int interruptible;          /* how many of them */
};

static void srv__ask_free(srv_ask_t *a)
{
    df_reply_unref(a->rep);
    free(a);
}

/* The ask this thread is sending: the sequencer may answer a write as it takes it
 * (seq_submit), on the loop's own thread, which then needs no wake-up. */
static _Thread_local srv_ask_t *srv__ask_sending;
static _Thread_local bool srv__ask_answered_here;

/* On the worker that answered last, or wherever the command was refused or dropped. */
static void srv__ask_done(df_reply_t *r, void *arg)
{
    srv_ask_t *a = arg;
    srv_server_t *srv = a->srv;
    pthread_mutex_lock(&srv->sync_mu);
    srv_ask_loop_t *al = srv->loops[a->loop].ask;
    bool taken = al != NULL && !al->closed;
    if (taken) {
        a->next = al->done;
        al->done = a;
        if (srv__ask_sending == a)
            srv__ask_answered_here = true;
        else
            uv_async_send(&al->answered);
    }
    pthread_mutex_unlock(&srv->sync_mu);
    /* The loop is gone: nobody waits. The command still holds the reply, so this is not its last
     * reference and the reply outlives this callback. */
    if (!taken)
        srv__ask_free(a);
}

static void srv__ask_unlink(srv_ask_loop_t *al, srv_ask_t *a)
{
    if (a->prev_live != NULL)
        a->prev_live->next_live = a->next_live;
    else if (al->live == a)
        al->live = a->next_live;
    if (a->next_live != NULL)
        a->next_live->prev_live = a->prev_live;
    a->prev_live = a->next_live = NULL;
    if (a->ctx != NULL && --al->interruptible == 0)
        uv_timer_stop(&al->poll);
    a->ctx = NULL;
}

/* Whoever waits for a (if anyone still does) hears rep (NULL: interrupted), once. */
static void srv__ask_finish(srv_ask_loop_t *al, srv_ask_t *a, df_reply_t *rep)
{
    srv__ask_unlink(al, a);
    srv_conn_t *c = a->c;
    a->c = NULL;
    if (c == NULL)
        return;
    c->ask = NULL;
    srv_metrics_observe(a->kind == DF_CMD_WRITE ? SRV_HIST_WRITE : SRV_HIST_READ, cm_now_mono_us() - a->t0);
    a->fn(c, rep, a->arg);
}

static void srv__ask_drain(srv_ask_loop_t *al)
{
    pthread_mutex_lock(&al->lp->srv->sync_mu);
    srv_ask_t *list = al->done;
    al->done = NULL;
    pthread_mutex_unlock(&al->lp->srv->sync_mu);
    /* Answers came newest first: the oldest is handled first. */
    srv_ask_t *rev = NULL;
    while (list != NULL) {
        srv_ask_t *n = list->next;
        list->next = rev;
        rev = list;
        list = n;
    }
    while (rev != NULL) {
        srv_ask_t *a = rev;
        rev = a->next;
        srv__ask_finish(al, a, a->rep);
        srv__ask_free(a);
    }
}

static void srv__ask_answered_cb(uv_async_t *h)
{
    srv__ask_drain(h->data);
}

static void srv__ask_here_cb(uv_idle_t *h)
{
    uv_idle_stop(h);
    srv__ask_drain(h->data);
}

/*
 * An answer usually comes within tens of microseconds, and waking a loop
 * that sleeps costs the worker and the loop tens of microseconds each on a
 * VM: while asks are in flight the loop polls, yielding the CPU each turn,
 * for at most --ddl-spin-us after the last one went out.
 */
static void srv__ask_spin_cb(uv_idle_t *h)
{
    srv_ask_loop_t *al = h->data;
    if (al->live == NULL || cm_now_mono_us() >= al->spin_until_us)
        uv_idle_stop(h);
    else
        sched_yield();
}

/* Cancel and statement_timeout end a read's wait; its answer, when it comes, is dropped. */
static void srv__ask_poll_cb(uv_timer_t *t)
{
    srv_ask_loop_t *al = t->data;
    for (srv_ask_t *a = al->live, *next; a != NULL; a = next) {
        next = a->next_live;
        if (a->ctx != NULL && a->c != NULL && !ty_ctx_check_interrupt(a->ctx))
            srv__ask_finish(al, a, NULL);
    }
}

/* a joins its loop's asks in flight as c's statement's (interruptible: checked by the timer). */
static void srv__ask_link(srv_ask_loop_t *al, srv_ask_t *a, srv_conn_t *c, int flags, ty_ctx_t *ctx)
{
    a->next_live = al->live;
    if (al->live != NULL)
        al->live->prev_live = a;
    al->live = a;
    if (flags & SRV_ASK_INTERRUPTIBLE) {
        a->ctx = ctx;
        if (al->interruptible++ == 0)
            uv_timer_start(&al->poll, srv__ask_poll_cb, SRV_WORKERS_POLL_MS, SRV_WORKERS_POLL_MS);
    }
    c->ask = a;
}

/* read: a Peek of this plan whose body holds its lookups alone (srv_ask_send_read); NULL: body is whole. */
static bool srv__ask_send(srv_conn_t *c, df_cmd_kind_t kind, cm_buf_t *body, const plan_t *read, int flags,
                          uint64_t accept_index, ty_ctx_t *ctx, const char *refused, srv_ask_fn fn, void *arg)
{
    srv_loop_t *lp = c->lp;
    srv_ask_loop_t *al = lp->ask;
    srv_server_t *srv = lp->srv;
    srv_ask_t *a = cm_calloc(1, sizeof *a);
    a->srv = srv;
    a->loop = lp->index;
    a->c = c;
    a->kind = kind;
    a->fn = fn;
    a->arg = arg;
    a->t0 = cm_now_mono_us();
    a->rep = df_reply_new(df_workers_count(srv->workers), srv__ask_done, a);
    /* Answered from the published shards (on the next turn, as an answer that comes while sent),
     * or the plan's bytes join the body and the Peek goes out. */
    if (read != NULL) {
        srv__ask_sending = a;
        srv__ask_answered_here = false;
        bool answered = srv_workers_read_published(srv, read, body, a->rep);
        srv__ask_sending = NULL;
        if (answered) {
            srv__ask_link(al, a, c, flags, ctx);
            if (srv__ask_answered_here)
                uv_idle_start(&al->here, srv__ask_here_cb);
            return true;
        }
        if (!srv_read_plan_bytes(read, body, ctx)) {
            df_reply_unref(a->rep);
            free(a);
            return false;
        }
    }
    df_cmd_t *cmd = df_cmd_new(kind);
    df_cmd_set_payload(cmd, body->data, body->len, a->rep);
    cmd->groupable = (flags & SRV_ASK_GROUPABLE) != 0;
    cmd->accept_index = cmd->groupable ? accept_index : 0;
    /* In the loop's list before it is sent: the answer may come before seq_submit returns. */
    srv__ask_link(al, a, c, flags, ctx);
    if (srv->cfg.ddl_spin_us > 0) {
        al->spin_until_us = a->t0 + srv->cfg.ddl_spin_us;
        uv_idle_start(&al->spin, srv__ask_spin_cb);
    }
    srv__ask_sending = a;
    srv__ask_answered_here = false;
    bool sent = seq_submit(srv->seq, cmd);
    srv__ask_sending = NULL;
    if (srv__ask_answered_here)
        uv_idle_start(&al->here, srv__ask_here_cb);   /* handled on the next turn */
    if (!sent) {
        /* Refused: the command's unanswered reply is not ours to wait for. */
        srv__ask_unlink(al, a);
        a->c = NULL;
        c->ask = NULL;
        df_cmd_unref(cmd);   /* fails the reply: srv__ask_done queues the ask, the loop frees it */
        cm_err_set(ctx->err, "57P03", "%s: this process does not run its cluster's workers now "
                   "(a standby, too many statements waiting, or shutting down)", refused);
        return false;
    }
    return true;
}

bool srv_ask_send(srv_conn_t *c, df_cmd_kind_t kind, const cm_buf_t *body, int flags, uint64_t accept_index,
                  ty_ctx_t *ctx, const char *refused, srv_ask_fn fn, void *arg)
{
    return srv__ask_send(c, kind, (cm_buf_t *)body, NULL, flags, accept_index, ctx, refused, fn, arg);
}

bool srv_ask_send_read(srv_conn_t *c, cm_buf_t *body, const plan_t *p, ty_ctx_t *ctx, const char *refused,
                       srv_ask_fn fn, void *arg)
{
    return srv__ask_send(c, DF_CMD_PEEK, body, p, SRV_ASK_INTERRUPTIBLE, 0, ctx, refused, fn, arg);
}

void srv_ask_conn_free(srv_conn_t *c)
{
    srv_ask_t *a = c->ask;
    if (a == NULL)
        return;
    c->ask = NULL;
    a->c = NULL;
    srv__ask_unlink(c->lp->ask, a);
}

void srv_ask_loop_init(srv_loop_t *lp)
{
    srv_ask_loop_t *al = cm_calloc(1, sizeof *al);
    al->lp = lp;
    uv_async_init(&lp->uv, &al->answered, srv__ask_answered_cb);
    uv_timer_init(&lp->uv, &al->poll);
    uv_idle_init(&lp->uv, &al->spin);
    uv_idle_init(&lp->uv, &al->here);
    al->answered.data = al->poll.data = al->spin.data = al->here.data = al;
    pthread_mutex_lock(&lp->srv->sync_mu);
    lp->ask = al;
    pthread_mutex_unlock(&lp->srv->sync_mu);
}

void srv_ask_loop_close(srv_loop_t *lp)
{
    srv_ask_loop_t *al = lp->ask;
    if (al == NULL || al->closed)
        return;
    pthread_mutex_lock(&lp->srv->sync_mu);
    al->closed = true;
    srv_ask_t *list = al->done;
    al->done = NULL;
    pthread_mutex_unlock(&lp->srv->sync_mu);
    while (list != NULL) {
        srv_ask_t *n = list->next;
        srv__ask_unlink(al, list);
        srv__ask_free(list);
        list = n;
    }
    /* What is still in flight is freed by its answer (srv__ask_done sees the loop closed). */
    while (al->live != NULL) {
        srv_ask_t *a = al->live;
        if (a->c != NULL)
            a->c->ask = NULL;
        a->c = NULL;
        srv__ask_unlink(al, a);
    }
    uv_close((uv_handle_t *)&al->answered, NULL);
    uv_close((uv_handle_t *)&al->poll, NULL);
    uv_close((uv_handle_t *)&al->spin, NULL);
    uv_close((uv_handle_t *)&al->here, NULL);
}

void srv_ask_loop_free(srv_loop_t *lp)
{
    srv_ask_loop_t *al = lp->ask;
    if (al == NULL)
        return;
    pthread_mutex_lock(&lp->srv->sync_mu);
    lp->ask = NULL;
    pthread_mutex_unlock(&lp->srv->sync_mu);
    free(al);
}
