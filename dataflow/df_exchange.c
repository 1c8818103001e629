/*
 * df_exchange.c: the channels between the workers (DESIGN §6, "Exchange and
 * progress"). An N x N matrix of bounded single-producer rings, one per
 * ordered pair; a message is a chunk of updates (a batch) or the punctuation
 * "end of this round" (NULL). A round is one exchange point of one step:
 * every worker sends its chunks for each peer, then the end, and the round is
 * complete on a worker once it has consumed the end from every peer. Since
 * all workers run the same rounds in the same order, FIFO channels and the
 * end marks are the whole progress protocol.
 *
 * No deadlock: a worker whose outbound ring is full keeps draining its own
 * inbound rings while it waits (and stops reading a peer at that peer's end,
 * so a faster peer's next round waits in the ring). Waiting sleeps on the
 * worker's condition variable, woken by a peer's push or pop; nothing spins.
 * The pair (w, w) never goes through a ring.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <time.h>

#define DF_XCHG_END ((df_batch_t *)NULL)

typedef struct df__chan {
    pthread_mutex_t mu;
    df_batch_t **ring;
    size_t cap, head, len;
} df__chan_t;

typedef struct df__wake {
    pthread_mutex_t mu;
    pthread_cond_t cv;
    uint64_t events;             /* bumped on every push to or pop from a ring this worker waits on */
} df__wake_t;

struct df_exchange {
    int n;
    df__chan_t *chans;           /* [from * n + to] */
    df__wake_t *wakes;           /* per worker */
    atomic_bool stop;
};

df_exchange_t *df__xchg_new(int nworkers, size_t channel_cap)
{
    df_exchange_t *x = cm_calloc(1, sizeof *x);
    x->n = nworkers;
    x->chans = cm_calloc((size_t)nworkers * (size_t)nworkers, sizeof *x->chans);
    x->wakes = cm_calloc((size_t)nworkers, sizeof *x->wakes);
    for (int i = 0; i < nworkers * nworkers; i++) {
        pthread_mutex_init(&x->chans[i].mu, NULL);
        x->chans[i].cap = channel_cap ? channel_cap : 1;
        x->chans[i].ring = cm_calloc(x->chans[i].cap, sizeof(df_batch_t *));
    }
    for (int i = 0; i < nworkers; i++) {
        pthread_mutex_init(&x->wakes[i].mu, NULL);
        pthread_cond_init(&x->wakes[i].cv, NULL);
    }
    atomic_init(&x->stop, false);
    return x;
}

void df__xchg_free(df_exchange_t *x)
{
    if (!x)
        return;
    for (int i = 0; i < x->n * x->n; i++) {
        df__chan_t *c = &x->chans[i];
        for (size_t k = 0; k < c->len; k++)
            df__batch_unref(c->ring[(c->head + k) % c->cap]);
        free(c->ring);
        pthread_mutex_destroy(&c->mu);
    }
    for (int i = 0; i < x->n; i++) {
        pthread_mutex_destroy(&x->wakes[i].mu);
        pthread_cond_destroy(&x->wakes[i].cv);
    }
    free(x->chans);
    free(x->wakes);
    free(x);
}

static void df__wake(df_exchange_t *x, int w)
{
    df__wake_t *k = &x->wakes[w];
    pthread_mutex_lock(&k->mu);
    k->events++;
    pthread_cond_signal(&k->cv);
    pthread_mutex_unlock(&k->mu);
}

void df__xchg_stop(df_exchange_t *x)
{
    if (!x)
        return;
    atomic_store(&x->stop, true);
    for (int i = 0; i < x->n; i++)
        df__wake(x, i);
}

static uint64_t df__events(df_exchange_t *x, int w)
{
    pthread_mutex_lock(&x->wakes[w].mu);
    uint64_t e = x->wakes[w].events;
    pthread_mutex_unlock(&x->wakes[w].mu);
    return e;
}

/* Sleeps until something changed since `seen` (or a bounded while, to notice a stop). */
static void df__sleep(df_exchange_t *x, int w, uint64_t seen)
{
    df__wake_t *k = &x->wakes[w];
    struct timespec until;
    clock_gettime(CLOCK_REALTIME, &until);
    until.tv_nsec += 100 * 1000000L;
    until.tv_sec += until.tv_nsec / 1000000000L;
    until.tv_nsec %= 1000000000L;
    pthread_mutex_lock(&k->mu);
    while (k->events == seen && !atomic_load(&x->stop))
        if (pthread_cond_timedwait(&k->cv, &k->mu, &until) != 0)
            break;
    pthread_mutex_unlock(&k->mu);
}

static bool df__push(df_exchange_t *x, int from, int to, df_batch_t *b)
{
    df__chan_t *c = &x->chans[from * x->n + to];
    pthread_mutex_lock(&c->mu);
    bool ok = c->len < c->cap;
    if (ok)
        c->ring[(c->head + c->len++) % c->cap] = b;
    pthread_mutex_unlock(&c->mu);
    if (ok)
        df__wake(x, to);
    return ok;
}

static bool df__pop(df_exchange_t *x, int from, int to, df_batch_t **b)
{
    df__chan_t *c = &x->chans[from * x->n + to];
    pthread_mutex_lock(&c->mu);
    bool ok = c->len > 0;
    if (ok) {
        *b = c->ring[c->head];
        c->head = (c->head + 1) % c->cap;
        c->len--;
    }
    pthread_mutex_unlock(&c->mu);
    if (ok)
        df__wake(x, from);   /* room again for a sender that may be waiting */
    return ok;
}

/* Two chunks from one peer in one round become one (they are rare: one batch per peer is what is sent). */
static df_batch_t *df__concat(df_batch_t *a, df_batch_t *b)
{
    if (!a)
        return b;
    df_batch_t *m = df__batch_merge(a, b);
    df__batch_unref(a);
    df__batch_unref(b);
    return m;
}

bool df__xchg_round(df_exchange_t *x, int w, df_batch_t **out, df_batch_t **in)
{
    if (x == NULL || x->n == 1) {
        in[0] = out[0];
        out[0] = NULL;
        return true;
    }
    int n = x->n;
    /* What is left to send to each peer: its chunk (if any), then the end. */
    bool *sent_data = cm_calloc((size_t)n, sizeof(bool));
    bool *sent_end = cm_calloc((size_t)n, sizeof(bool));
    bool *got_end = cm_calloc((size_t)n, sizeof(bool));
    int left_send = n - 1, left_recv = n - 1;
    for (int i = 0; i < n; i++)
        in[i] = NULL;
    in[w] = out[w];
    out[w] = NULL;
    sent_end[w] = got_end[w] = true;
    bool ok = true;
    while (left_send > 0 || left_recv > 0) {
        if (atomic_load(&x->stop)) {
            ok = false;
            break;
        }
        uint64_t seen = df__events(x, w);
        bool progress = false;
        for (int j = 0; j < n; j++) {
            if (sent_end[j])
                continue;
            if (!sent_data[j] && out[j]) {
                if (!df__push(x, w, j, out[j]))
                    continue;
                out[j] = NULL;
                progress = true;
            }
            sent_data[j] = true;
            if (df__push(x, w, j, DF_XCHG_END)) {
                sent_end[j] = true;
                left_send--;
                progress = true;
            }
        }
        for (int i = 0; i < n; i++) {
            df_batch_t *b;
            while (!got_end[i] && df__pop(x, i, w, &b)) {
                progress = true;
                if (b == DF_XCHG_END) {
                    got_end[i] = true;
                    left_recv--;
                } else {
                    in[i] = df__concat(in[i], b);
                }
            }
        }
        if (!progress)
            df__sleep(x, w, seen);
    }
    if (!ok) {
        for (int i = 0; i < n; i++) {
            df__batch_unref(out[i]);
            out[i] = NULL;
            df__batch_unref(in[i]);
            in[i] = NULL;
        }
    }
    free(sent_data);
    free(sent_end);
    free(got_end);
    return ok;
}
