/*
 * srv_zk.h: the server's ZooKeeper thread (srv_zk_loop.c) and the store
 * handles the event loops use to reach it (srv_zk_handle.c).
 *
 * libzookeeper_st is single-threaded: one thread, with a libuv loop of its
 * own, owns the store_zk handle and drives its socket. Every pgwire loop
 * gets a cat_store_t of its own that forwards each call as a job through a
 * bounded queue plus uv_async_send to that thread, and receives the answer
 * the same way (DESIGN §10 rule 7). So srv_catalog.c uses one interface for
 * the embedded store and for ZooKeeper.
 */
#ifndef EDDY_SRV_ZK_H
#define EDDY_SRV_ZK_H

#include "catalog/catalog.h"
#include "common/common.h"
#include "sequencer/sequencer.h"

#include <pthread.h>

#define SRV_ZK_JOBS_MAX 4096        /* jobs queued for the ZooKeeper thread; beyond: 53000 */
#define SRV_ZK_LOG_CACHE_MAX 1024   /* recent log entries kept to answer every loop's reads */
#define SRV_ZK_NOTIFY_HOLD_MS 50    /* a head-watch event waits this long at most for our commit */
#define SRV_ZK_APPLIED_LATE_MS 100  /* worker 0's progress waits this long at most for the thread's own next turn */

typedef struct srv_zk srv_zk_t;
typedef struct srv_zk_handle srv_zk_handle_t;

typedef struct srv_zk_options {
    const char *hosts;            /* "h:p,h:p/chroot" */
    int session_timeout_ms;
    int connect_timeout_ms;       /* start-up: how long to wait for the first session */
    int op_timeout_ms;            /* a store call unanswered this long fails (58000) */
    const char *cluster;          /* --cluster: the name this process contends for */
    const char *instance;         /* shown in the owner node: who owns it */
    int spin_us;                  /* after a job or a commit's answer the thread polls this long before it sleeps */
    const char *auth;             /* digest "user:password" (--zookeeper-auth-file); NULL: none */
    const char *read_id;          /* the read-only identity's digest id; NULL: none */
} srv_zk_options_t;

/* srv_zk_auth.c: --zookeeper-auth-file's credentials (malloc'd; read_id may stay NULL). */
bool srv_zk_auth_load(const char *path, char **auth, char **read_id, cm_err_t *err);

typedef enum srv_zk_job_kind {
    SRV_ZK_HEAD,
    SRV_ZK_LOG,
    SRV_ZK_SNAPSHOT,
    SRV_ZK_COMMIT,
    SRV_ZK_REQUEST,
    SRV_ZK_TRIM,
} srv_zk_job_kind_t;

/*
 * One forwarded store call: its inputs, copied when it was made, and its
 * answer, copied on the ZooKeeper thread (what the store hands a callback
 * is valid only during it). The handle's thread runs the caller's callback.
 */
typedef struct srv_zk_job {
    struct srv_zk_job *next;          /* in the thread's queue, then the handle's answers */
    struct srv_zk_job *prev_live, *next_live;   /* the handle's jobs not answered yet */
    srv_zk_handle_t *h;
    srv_zk_t *zk;                     /* set by srv_zk_post */
    srv_zk_job_kind_t kind;
    void (*fn)(void);                 /* the caller's callback, cast back by kind */
    void *arg;
    bool orphan;                      /* the handle closed: its caller heard already */
    int64_t posted_us;                /* when srv_zk_post queued it (its round trip, for metrics) */
    uint64_t stamp, behind;           /* a parked log read (srv_zk_logs.c) */
    /* inputs */
    uint64_t from;
    size_t max;
    uint8_t uuid[16];
    cat_store_commit_t commit;        /* pointers into `arena` */
    /* the answer */
    cm_arena_t arena;
    cat_store_status_t st;
    cm_err_t err;
    cat_head_t head;
    uint64_t index;
    const char *name_key;
    cat_log_entry_bytes_t *entries;
    cat_kv_t *objects;
    size_t n;
} srv_zk_job_t;

/* srv_zk_loop.c: the thread. */

/* Opens the session, starts the thread and waits until the store takes calls
 * (connect_timeout_ms); NULL with err when it cannot. */
srv_zk_t *srv_zk_start(const srv_zk_options_t *opt, cm_err_t *err);
/* Closes the store (pending jobs answer with an error) and joins the thread. */
void srv_zk_stop(srv_zk_t *zk);
/* Queues a job (any thread). false with 53000 when the queue is full. */
bool srv_zk_post(srv_zk_t *zk, srv_zk_job_t *j, cm_err_t *err);
/* Handles register to hear "the head may have moved". */
void srv_zk_register(srv_zk_t *zk, srv_zk_handle_t *h);
void srv_zk_unregister(srv_zk_t *zk, srv_zk_handle_t *h);

/* Wakes the thread for srv_zk_cluster_turn (any thread). */
void srv_zk_kick(srv_zk_t *zk);

/*
 * srv_zk_owner.c: ownership of the process's cluster (--cluster), on the
 * ZooKeeper thread through catalog.h's cluster calls, mirrored in atomics
 * for every other thread, and the sequencer's seq_owner_t over it.
 */
typedef struct srv_zk_cluster srv_zk_cluster_t;

srv_zk_cluster_t *srv_zk_cluster_new(const char *name);
void srv_zk_cluster_free(srv_zk_cluster_t *c);
/* On the ZooKeeper thread, once: joins (contends) with the store. */
bool srv_zk_cluster_join(srv_zk_cluster_t *c, cat_store_t *store, const char *instance, cm_err_t *err);
/* On the ZooKeeper thread after each wake: publishes what was asked for. */
void srv_zk_cluster_turn(srv_zk_cluster_t *c, cat_store_t *store);
/* On the ZooKeeper thread: its timer brings the next turn at `at_ms` (cm_now_mono_us() / 1000) at the latest. */
void srv_zk_cluster_next_turn(srv_zk_cluster_t *c, int64_t at_ms);
srv_zk_cluster_t *srv_zk_cluster(srv_zk_t *zk);
/* Any thread: the session as metrics and /readyz show it (connecting also covers a lost connection). */
typedef enum srv_zk_state {
    SRV_ZK_CONNECTING = 0,
    SRV_ZK_CONNECTED,
    SRV_ZK_FAILED,
} srv_zk_state_t;
srv_zk_state_t srv_zk_state(srv_zk_t *zk);
/* Any thread. */
const char *srv_zk_cluster_name(const srv_zk_cluster_t *c);
cat_zk_role_t srv_zk_cluster_role(const srv_zk_cluster_t *c, uint64_t *epoch);
uint64_t srv_zk_cluster_published(const srv_zk_cluster_t *c);
/* Worker 0's progress (any thread): publish `applied` as /clusters/<name>/applied while owner.
 * The thread is woken for it only when its own next turn is over SRV_ZK_APPLIED_LATE_MS away:
 * on a VM a wake-up costs the waker tens of microseconds, and DDL after DDL would pay it. */
void srv_zk_cluster_applied(srv_zk_t *zk, uint64_t applied);
/* The sequencer's owner (granted/lost come from the ZooKeeper thread). */
seq_owner_t *srv_zk_cluster_owner(srv_zk_cluster_t *c);

/* The answer's status and error; a store that failed for good makes it XX000. */
void srv_zk_job_status(srv_zk_job_t *j, cat_store_status_t st, const cm_err_t *err);
/* Answers a job the closing thread will not run (57P01). */
void srv_zk_job_refuse(srv_zk_job_t *j);

/*
 * srv_zk_logs.c: on the ZooKeeper thread, the recent log entries and the
 * log reads: answered from them, or parked behind our commits in flight and
 * the one store read in flight (see the file).
 */
typedef struct srv_zk_logs srv_zk_logs_t;

srv_zk_logs_t *srv_zk_logs_new(cat_store_t *store);
/* Closing: parked reads answer 57P01, later ones too; nothing is kept. */
void srv_zk_logs_close(srv_zk_logs_t *lg);
void srv_zk_logs_free(srv_zk_logs_t *lg);
/* Any thread: fills a log read's answer, without a trip to the thread,
 * from the ring when it holds the first entry asked for, or with nothing
 * when it asks past the known head and no commit of ours is out (then true). */
bool srv_zk_logs_copy(srv_zk_logs_t *lg, srv_zk_job_t *j);
/* The thread's logs (for srv_zk_logs_copy). */
srv_zk_logs_t *srv_zk_logs(srv_zk_t *zk);
/* Runs a SRV_ZK_LOG job. */
void srv_zk_logs_read(srv_zk_logs_t *lg, srv_zk_job_t *j);
/* Our commit of `index` succeeded: its entry, and the head it made. */
void srv_zk_logs_committed(srv_zk_logs_t *lg, uint64_t index, const uint8_t *data, size_t len);
/* The store's notification: the head the watch saw, or (known false) the
 * head may be anywhere (a new connection). */
void srv_zk_logs_news(srv_zk_logs_t *lg, bool known, uint64_t head);
/* A commit of ours went to the store; its answer came (after committed, if OK). */
void srv_zk_logs_commit_sent(srv_zk_logs_t *lg);
void srv_zk_logs_commit_answered(srv_zk_logs_t *lg);
/* Some commit of ours is still unanswered. */
bool srv_zk_logs_commits_out(const srv_zk_logs_t *lg);

/* srv_zk_handle.c: a loop's store handle. */

/* `wake` (any thread) says the handle has answers for cat_store_dispatch;
 * NULL: the owner waits with srv_zk_handle_wait. */
cat_store_t *srv_zk_handle_open(srv_zk_t *zk, void (*wake)(void *arg), void *wake_arg);
/* Start-up, before the loops run: dispatches answers until done(arg) or the
 * timeout; false on timeout. */
bool srv_zk_handle_wait(cat_store_t *s, int timeout_ms, bool (*done)(void *arg), void *arg);
/* Called on the ZooKeeper thread. */
void srv_zk_handle_answer(srv_zk_job_t *j);
void srv_zk_handle_notify(srv_zk_handle_t *h);
void srv_zk_job_free(srv_zk_job_t *j);

#endif
