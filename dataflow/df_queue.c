/*
 * df_queue.c: the bounded command queue between the sequencer and a worker
 * (DESIGN §10.7). A fixed ring under a mutex: a full queue refuses the
 * command, so a slow worker pushes back on the sequencer instead of making
 * memory grow; the consumer takes the whole queue in one lock.
 */
#include "dataflow/dataflow.h"

#include <stdlib.h>

void df_queue_init(df_queue_t *q, size_t cap)
{
    CM_ASSERT(cap > 0);
    pthread_mutex_init(&q->mu, NULL);
    q->ring = cm_calloc(cap, sizeof *q->ring);
    q->cap = cap;
    q->head = q->len = 0;
}

void df_queue_destroy(df_queue_t *q)
{
    for (size_t i = 0; i < q->len; i++)
        df_cmd_unref(q->ring[(q->head + i) % q->cap]);
    free(q->ring);
    q->ring = NULL;
    q->len = 0;
    pthread_mutex_destroy(&q->mu);
}

bool df_queue_push(df_queue_t *q, df_cmd_t *c)
{
    pthread_mutex_lock(&q->mu);
    bool ok = q->len < q->cap;
    if (ok)
        q->ring[(q->head + q->len++) % q->cap] = c;
    pthread_mutex_unlock(&q->mu);
    return ok;
}

bool df_queue_pending(df_queue_t *q)
{
    pthread_mutex_lock(&q->mu);
    bool any = q->len > 0;
    pthread_mutex_unlock(&q->mu);
    return any;
}

size_t df_queue_drain(df_queue_t *q, df_cmd_t **out)
{
    pthread_mutex_lock(&q->mu);
    size_t n = q->len;
    for (size_t i = 0; i < n; i++)
        out[i] = q->ring[(q->head + i) % q->cap];
    q->head = (q->head + n) % q->cap;
    q->len = 0;
    pthread_mutex_unlock(&q->mu);
    return n;
}
