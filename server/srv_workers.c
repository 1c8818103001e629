/*
 * srv_workers.c: the server's side of the workers (DESIGN §2, §5): it
 * starts the dataflow worker threads and the sequencer (on a thread of its
 * own) over the process's catalog store, stops them, and hands sessions'
 * writes and reads to them (srv_workers_ask). Their progress (the catalog
 * index every worker applied) goes to the cluster in cluster mode and to
 * the sessions that wait for it (srv_sync.c).
 */
#include "server/srv_int.h"
#include "server/srv_metrics.h"
#include "server/srv_zk.h"

#include "dataflow/dataflow.h"
#include "sequencer/sequencer.h"

/* ------------------------------------------------------------ start and stop */

static cat_store_t *srv__seq_store_open(void *arg, uv_loop_t *loop, void (*wake)(void *), void *wake_arg,
                                        cm_err_t *err)
{
    srv_server_t *srv = arg;
    /* Cluster mode: a handle of the thread that owns the ZooKeeper session. */
    if (srv->zk != NULL)
        return srv_zk_handle_open(srv->zk, wake, wake_arg);
    return cat_store_mem_open(srv->catdb, NULL, wake, wake_arg);
}

/* On the sequencer's loop (cluster mode): the cluster learns how far the workers got. */
static void srv__progress(void *arg)
{
    srv_server_t *srv = arg;
    srv_zk_cluster_applied(srv->zk, seq_applied_index(srv->seq));
}

/* On the thread of the worker whose acknowledgement raised the applied index:
 * the loops that wait for it look again at once (srv_sync.c), one wake-up
 * instead of two through the sequencer's loop. */
static void srv__applied(void *arg)
{
    srv_sync_progress(arg);
}

/* The sequencer's thread: its loop runs until seq_stop has closed every handle on it. */
static void srv__seq_thread(void *arg)
{
    srv_server_t *srv = arg;
    uv_run(&srv->seq_loop, UV_RUN_DEFAULT);
}

bool srv_workers_start(srv_server_t *srv, cm_err_t *err)
{
    df_config_t dc;
    df_config_default(&dc);
    dc.workers = srv->cfg.workers > 0 ? srv->cfg.workers : 1;
    dc.queue_max = srv->cfg.worker_queue_max;
    dc.recursion_max = srv->cfg.view_recursion_limit;
    dc.history_max = srv->cfg.command_history_max;
    dc.fault_delay_ms = srv->cfg.fault_worker_delay_ms;
    dc.spin_us = srv->cfg.worker_spin_us;
    dc.idle_merge_ms = srv->cfg.worker_idle_merge_ms;
    srv->workers = df_workers_new(&dc, err);
    if (srv->workers == NULL)
        return false;
    srv->transport = seq_transport_local_new(srv->workers);
    seq_config_t sc;
    seq_config_default(&sc);
    sc.store_open = srv__seq_store_open;
    sc.store_arg = srv;
    sc.transport = srv->transport;
    sc.history_max = srv->cfg.command_history_max;
    sc.tick_interval_ms = srv->cfg.tick_interval_ms;
    if (srv->zk != NULL)
        sc.on_progress = srv__progress;
    sc.on_applied = srv__applied;
    sc.spin_us = srv->cfg.worker_spin_us;
    sc.progress_arg = srv;
    /* Cluster mode: a standby until this process owns its cluster. */
    if (srv->zk != NULL)
        sc.owner = srv_zk_cluster_owner(srv_zk_cluster(srv->zk));
    uv_loop_init(&srv->seq_loop);
    srv->seq = seq_start(&sc, &srv->seq_loop, err);
    if (srv->seq == NULL) {
        uv_loop_close(&srv->seq_loop);
        srv->transport->ops->free(srv->transport);
        df_workers_free(srv->workers);
        srv->transport = NULL;
        srv->workers = NULL;
        return false;
    }
    df_workers_start(srv->workers);
    uv_thread_create(&srv->seq_thread, srv__seq_thread, srv);
    return true;
}

void srv_workers_stop(srv_server_t *srv)
{
    if (srv->seq == NULL)
        return;
    seq_stop(srv->seq);             /* first: it closes its handles, then its loop's run returns */
    uv_thread_join(&srv->seq_thread);
    uv_loop_close(&srv->seq_loop);
    df_workers_stop(srv->workers);
    seq_free(srv->seq);
    srv->transport->ops->free(srv->transport);
    df_workers_free(srv->workers);
    srv->seq = NULL;
    srv->transport = NULL;
    srv->workers = NULL;
}

bool srv_workers_answer_ok(const df_reply_t *rep, ty_ctx_t *ctx)
{
    if (!rep->err.set)
        return true;
    cm_err_set(ctx->err, rep->err.sqlstate, "%s", rep->err.message ? rep->err.message : "");
    if (rep->err.detail)
        cm_err_set_detail(ctx->err, "%s", rep->err.detail);
    return false;
}

/*
 * A Write or Peek to every worker, waited for: the reply when every worker
 * answered without an error, else NULL with the first error in ctx->err
 * (refused: the message when the sequencer does not take it). A read's
 * wait ends at cancel or statement_timeout (SRV_ASK_INTERRUPTIBLE); a
 * write, once sent, is applied whatever the session does, so its wait runs
 * to the end. A SRV_ASK_GROUPABLE write may share its step with others
 * (df_cmd_t.groupable). With SRV_ASK_TAKE the command takes body's bytes
 * instead of a copy of them (a COPY's Write of a million rows).
 */
bool srv_workers_read_published(srv_server_t *srv, const plan_t *p, const cm_buf_t *lookups, df_reply_t *rep)
{
    uint64_t epoch, fence, items[16];
    int n;
    if (!srv->cfg.snapshot_reads || srv->seq == NULL || srv->workers == NULL ||
        (n = plan_read_items(p, items, 16)) <= 0 || !seq_read_fence(srv->seq, &epoch, &fence) ||
        !df_workers_read_published(srv->workers, epoch, fence, items, n, lookups->data, lookups->len, rep))
        return false;
    srv_metrics_snapshot_read();
    return true;
}

df_reply_t *srv_workers_ask(srv_server_t *srv, df_cmd_kind_t kind, cm_buf_t *body, int flags,
                            const char *refused, ty_ctx_t *ctx)
{
    bool interruptible = (flags & SRV_ASK_INTERRUPTIBLE) != 0;
    int64_t t0 = cm_now_mono_us();
    df_reply_t *rep = df_reply_new(df_workers_count(srv->workers), NULL, NULL);
    df_cmd_t *c = df_cmd_new(kind);
    if (flags & SRV_ASK_TAKE)
        df_cmd_take_payload(c, body, rep);
    else
        df_cmd_set_payload(c, body->data, body->len, rep);
    c->groupable = (flags & SRV_ASK_GROUPABLE) != 0;
    if (!seq_submit(srv->seq, c)) {
        df_cmd_unref(c);
        df_reply_unref(rep);
        cm_err_set(ctx->err, "57P03", "%s: this process does not run its cluster's workers now "
                   "(a standby, too many statements waiting, or shutting down)", refused);
        return NULL;
    }
    bool ok = true;
    while (ok && !df_reply_wait(rep, SRV_WORKERS_POLL_MS))
        ok = !interruptible || ty_ctx_check_interrupt(ctx);
    ok = ok && srv_workers_answer_ok(rep, ctx);
    srv_metrics_observe(kind == DF_CMD_WRITE ? SRV_HIST_WRITE : SRV_HIST_READ, cm_now_mono_us() - t0);
    if (!ok) {
        df_reply_unref(rep);
        return NULL;
    }
    return rep;
}
