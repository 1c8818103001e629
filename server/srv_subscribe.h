/*
 * srv_subscribe.h: a subscription as a session holds it (srv_subscribe.c),
 * shared by SUBSCRIBE streaming and by cursors declared for SUBSCRIBE
 * (srv_cursor.c): open sends the Subscribe command, collect moves what the
 * workers finished into rows ready to send, emit sends some of them, close
 * sends the command that tears its dataflow down on every worker.
 */
#ifndef EDDY_SRV_SUBSCRIBE_H
#define EDDY_SRV_SUBSCRIBE_H

#include "server/srv_exec_int.h"

#include "dataflow/dataflow.h"

typedef struct srv_sub {
    df_sub_t *sub;
    int nworkers;
    bool progress;              /* WITH (PROGRESS) */
    bool end_sent;              /* the ending command is sequenced */
    bool finite;                /* a constant query: complete once its start step is out */
    bool complete;              /* every row it will ever have is in ready (or sent) */
    int ncols;                  /* the rows' columns (after mz_timestamp, [mz_progressed,] mz_diff) */
    ty_oid_t *types;
    cm_buf_t *got;              /* per worker: records taken from sub, not yet consolidated */
    uint64_t *progress_at;      /* per worker: every step up to it is in */
    uint64_t progressed;        /* the last progress row's timestamp */
    cm_buf_t ready;             /* consolidated rows not yet sent, in step order */
    uint64_t nready;
    uint64_t emitted;
    cm_arena_t scratch;
} srv_sub_t;

/* A subscription a loop polls when the workers wake it (srv_sub_wake.c): it has rows ready. */
typedef struct srv_sub_watch {
    struct srv_sub_watch *prev, *next;
    srv_sub_loop_t *sl;         /* NULL: not watched */
    df_sub_t *sub;
    void (*poll)(struct srv_sub_watch *w);
} srv_sub_watch_t;
/* From now on the workers' wake-ups of sub (progress: also when only its frontier moved) make lp
 * call poll(w); stop: no more (no worker calls into it after this returns). */
void srv_sub_watch_start(srv_loop_t *lp, srv_sub_watch_t *w, df_sub_t *sub, bool progress,
                         void (*poll)(srv_sub_watch_t *w));
void srv_sub_watch_stop(srv_sub_watch_t *w);

/* Sends st's Subscribe command (st->subscribe set); false with err, s left empty. */
bool srv_sub_open(srv_sub_t *s, srv_server_t *srv, const pln_stmt_t *st, cm_err_t *err);
/* Takes what the workers appended: every step all of them passed, consolidated, into the ready
 * rows (and a progress row when the frontier moved, with PROGRESS). False: it failed (err). */
bool srv_sub_collect(srv_sub_t *s, cm_err_t *err);
/* At most max_rows ready rows out through sink (decoded in ctx->arena); *emitted counts them. */
bool srv_sub_emit(srv_sub_t *s, srv_sink_t *sink, ty_ctx_t *ctx, uint64_t max_rows, uint64_t *emitted);
/* The workers stop appending, and the ending command goes out; false: the sequencer refused it
 * now (offer it again later). */
bool srv_sub_close(srv_sub_t *s, srv_server_t *srv);
/* Frees what the session holds (the workers' reference is theirs). */
void srv_sub_free(srv_sub_t *s);
/* Closes and frees s; a refused ending command is offered again on lp until taken or the loop
 * stops (s is left empty either way). */
void srv_sub_dispose(srv_sub_t *s, srv_loop_t *lp);

#endif
