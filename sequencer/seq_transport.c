/*
 * seq_transport.c: the in-process transport (sequencer.h): a command for
 * worker i goes into worker i's bounded queue; a worker's acknowledgement,
 * made on its own thread, goes straight to seq_ack. A multi-process
 * cluster swaps this for a transport that encodes commands onto sockets;
 * neither the sequencer nor the workers change.
 */
#include "sequencer/sequencer.h"

#include <stdlib.h>

typedef struct seq__local {
    seq_transport_t base;
    df_workers_t *ws;
} seq__local_t;

static int seq__local_workers(seq_transport_t *t)
{
    return df_workers_count(((seq__local_t *)t)->ws);
}

static bool seq__local_send(seq_transport_t *t, int worker, df_cmd_t *c)
{
    return df_workers_push(((seq__local_t *)t)->ws, worker, c);
}

static void seq__local_free(seq_transport_t *t)
{
    free(t);
}

static const seq_transport_ops_t seq__local_ops = {
    .workers = seq__local_workers,
    .send = seq__local_send,
    .free = seq__local_free,
};

static void seq__local_ack(void *arg, int worker, uint64_t epoch, uint64_t seq, uint64_t index)
{
    seq__local_t *t = arg;
    seq_t *s = atomic_load(&t->base.seq);
    if (s != NULL)
        seq_ack(s, worker, epoch, seq, index);
}

seq_transport_t *seq_transport_local_new(df_workers_t *ws)
{
    seq__local_t *t = cm_calloc(1, sizeof *t);
    t->base.ops = &seq__local_ops;
    atomic_init(&t->base.seq, NULL);
    t->ws = ws;
    df_workers_set_ack(ws, seq__local_ack, t);
    return &t->base;
}
