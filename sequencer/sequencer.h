/*
 * sequencer.h: the public header of the sequencer module (prefix seq_).
 *
 * Worker 0's role (DESIGN §5, reference/zk.md §6.4): follow the catalog
 * store's log in index order (the store's notification is only a wake-up;
 * one read in flight), plan each entry into self-contained dataflow
 * changes, number the commands and broadcast them to every worker through a
 * transport: Bootstrap{epoch, index, plans} when it starts (or when the log
 * was trimmed past it), Apply{epoch, index, plan} per entry. It collects
 * the workers' acknowledgements and publishes the lowest catalog index
 * every worker has applied, which synchronous DDL and queries wait on.
 *
 * The sequencer lives on one libuv loop (a thread of its own in the server) and talks to the store
 * only through cat_store_t, so store_mem and store_zk both work. It
 * includes dataflow.h for the command type the workers execute (a departure
 * from DESIGN §3's table, explained in docs/architecture.md).
 */
#ifndef EDDY_SEQUENCER_H
#define EDDY_SEQUENCER_H

#include "catalog/catalog.h"
#include "common/common.h"
#include "dataflow/dataflow.h"

#include <uv.h>

typedef struct seq seq_t;

/* ====================================================================
 * Transport: how commands reach the workers
 * ==================================================================== */

/*
 * A transport delivers commands to workers 0..N-1 in the order they are
 * sent, and hands the workers' acknowledgements to seq_ack. The in-process
 * one pushes into the workers' bounded queues; a TCP one (multi-process
 * clusters) would encode the command and do the same on the far side.
 */
typedef struct seq_transport seq_transport_t;
typedef struct seq_transport_ops {
    int (*workers)(seq_transport_t *t);
    /* Takes its own reference to c when it accepts it; false: the worker's
     * queue is full, send again after its next acknowledgement. Any thread. */
    bool (*send)(seq_transport_t *t, int worker, df_cmd_t *c);
    void (*free)(seq_transport_t *t);
} seq_transport_ops_t;

struct seq_transport {
    const seq_transport_ops_t *ops;
    _Atomic(seq_t *) seq;   /* where acknowledgements go; set by seq_start */
};

/* The in-process transport over the workers' queues (it installs the workers'
 * ack hook: call before df_workers_start). */
seq_transport_t *seq_transport_local_new(df_workers_t *ws);

/* ====================================================================
 * Planning: a catalog item into plan bytes
 * ==================================================================== */

/*
 * The planning step. Given the catalog at an index (the entry already
 * applied), produce the self-contained plan bytes of one item, using only
 * IDs recorded in the catalog (never counters of its own), so that every
 * incarnation of worker 0 produces the same bytes for the same log.
 */
typedef struct seq_planner {
    bool (*plan_item)(void *arg, const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err);
    void *arg;
} seq_planner_t;

/*
 * The planner: a view's or materialized view's query bound against `snap`
 * and encoded with plan_encode (decode with plan_decode, plan/plan.h); other
 * items have no plan bytes yet.
 */
bool seq_plan_item_default(void *arg, const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err);

/* ====================================================================
 * Ownership (cluster mode)
 * ==================================================================== */

/*
 * Who may be worker 0 of a cluster, and with which epoch. Cluster mode
 * implements it over ZooKeeper (server/srv_zk_owner.c: the ephemeral owner
 * node and the CAS-incremented epoch of catalog.h's cluster calls); without
 * one (laptop mode) the sequencer runs at seq_config_t.epoch. With one, the
 * sequencer is a standby until `granted`: it reads nothing and sends
 * nothing; once granted it bootstraps the workers at that epoch from a
 * consistent snapshot and follows the log; on `lost` it sends nothing more
 * under the old epoch (checked before every send) and waits for the next
 * grant. granted and lost may be called from any thread, also from inside
 * acquire.
 */
typedef struct seq_owner seq_owner_t;
typedef struct seq_owner_ops {
    /* Registers the callbacks: granted(arg, epoch) each time ownership is
     * won, lost(arg) each time it ends. 0, or -1 with err (no calls then). */
    int (*acquire)(seq_owner_t *o, void (*granted)(void *arg, uint64_t epoch), void (*lost)(void *arg), void *arg,
                   cm_err_t *err);
    /* No calls after it returns. */
    void (*release)(seq_owner_t *o);
} seq_owner_ops_t;
struct seq_owner {
    const seq_owner_ops_t *ops;
};

/* ====================================================================
 * The sequencer
 * ==================================================================== */

/* Opens a store handle for `loop`'s thread; wake(wake_arg) must make the
 * loop run cat_store_dispatch (store_mem); store_zk polls on the loop. */
typedef cat_store_t *(*seq_store_open_fn)(void *arg, uv_loop_t *loop, void (*wake)(void *), void *wake_arg,
                                          cm_err_t *err);

typedef struct seq_config {
    seq_store_open_fn store_open;
    void *store_arg;
    seq_transport_t *transport;    /* owned by the caller; outlives the sequencer */
    uint64_t epoch;                /* this incarnation's epoch (>= 1) when owner is NULL */
    seq_owner_t *owner;            /* cluster mode: the epoch comes from its grants; owned by the caller */
    seq_planner_t planner;         /* plan_item NULL: seq_plan_item_default */
    size_t outbox_max;             /* commands sequenced but not yet accepted by every worker; default 256 */
    size_t history_max;            /* commands kept for eddy_internal.commands; default 10000 */
    size_t read_batch;             /* log entries per read; default 64 */
    size_t submit_max;             /* writes and reads waiting to be sequenced (seq_submit); default 1024 */
    int tick_interval_ms;          /* a Tick{timestamp} this often (logical time for later issues); 0: none */
    int spin_us;                   /* after work the loop polls this long before it sleeps; 0: never */
    /* Called on the sequencer's loop whenever seq_applied_index grew. */
    void (*on_progress)(void *arg);
    /* Called on the acknowledging worker's thread, at once, whenever it raised
     * seq_applied_index: must be thread-safe and short (it delays that worker). */
    void (*on_applied)(void *arg);
    void *progress_arg;
} seq_config_t;

void seq_config_default(seq_config_t *cfg);

/* Starts on `loop` (call before the loop runs, or on its thread). NULL with err. */
seq_t *seq_start(const seq_config_t *cfg, uv_loop_t *loop, cm_err_t *err);
/* From another thread while the loop runs: closes everything on the loop and
 * waits until it is done. Then the loop may stop; free after that. */
void seq_stop(seq_t *s);
void seq_free(seq_t *s);

/* A worker's acknowledgement (any thread): it has applied epoch/seq, reaching catalog index. */
void seq_ack(seq_t *s, int worker, uint64_t epoch, uint64_t seq, uint64_t index);

/*
 * Any thread: hands a Write or Peek command to the sequencer, which numbers
 * it after everything it has sequenced so far and broadcasts it; its reply
 * (df_reply_t) hears every worker's answer. Takes over the caller's
 * reference when it returns true. false (the caller keeps the command): the
 * submit queue is full (back-pressure: try again later), the sequencer is
 * stopping, or this process does not own the cluster (a standby).
 */
bool seq_submit(seq_t *s, df_cmd_t *c);

/*
 * Any thread: the step a read must see at least (*seq, in *epoch): every write
 * acknowledged so far was numbered at or before it. false when no such step is
 * known (an accepted write not numbered yet, not the owner, stopping): the
 * read is then sequenced as a Peek.
 */
bool seq_read_fence(seq_t *s, uint64_t *epoch, uint64_t *seq);

/* Any thread: the lowest catalog index that every worker has applied in the
 * current epoch (0 before the first Bootstrap was applied everywhere). */
uint64_t seq_applied_index(const seq_t *s);

/* Any thread, lock-free: writes and reads submitted and not yet numbered, and commands numbered
 * that some worker has not taken yet (the sequencer's queues). */
void seq_queue_depth(const seq_t *s, size_t *submitted, size_t *undelivered);

/* One sequenced command as eddy_internal.commands shows it. */
typedef struct seq_record {
    uint64_t seq, epoch, index;
    df_cmd_kind_t kind;
    uint64_t object_id;
    const char *object_name;   /* valid during the visit */
    const char *tag;           /* the catalog entry's command ("CREATE VIEW"); "" for Bootstrap */
    int64_t time_us;           /* wall clock, Unix microseconds */
} seq_record_t;

/* Any thread: the remembered commands, oldest first, under the history lock. */
void seq_visit_commands(seq_t *s, void (*cb)(void *arg, const seq_record_t *r), void *arg);

#endif
