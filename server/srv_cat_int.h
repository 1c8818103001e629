/*
 * srv_cat_int.h: what srv_catalog.c (a loop's store handle and snapshot,
 * following the log) and srv_ddl.c (a DDL statement's way through the
 * store) share. Internal to the server; everything here runs on the loop
 * that owns the srv_cat_loop_t.
 */
#ifndef EDDY_SRV_CAT_INT_H
#define EDDY_SRV_CAT_INT_H

#include "server/srv_int.h"

#define SRV_DDL_ATTEMPTS_MAX 16   /* commits lost to concurrent DDL before giving up, when the store sets no commit_attempts_max */
#define SRV_CAT_TICK_MS 50        /* deadline and retry resolution of the loop's timer */
#define SRV_CAT_BACKOFF_MIN_MS 50 /* first retry of a store call that failed; doubles */
#define SRV_CAT_BACKOFF_MAX_MS 1000
#define SRV_CAT_REREAD_MS 500     /* a failed log read is tried again this often */

typedef struct srv_ddl srv_ddl_t;

/* One loop's catalog: its store handle, its snapshot, and who waits for the log. */
struct srv_cat_loop {
    srv_loop_t *lp;
    uv_async_t wake;              /* the store handle's wake hook */
    cat_store_t *store;
    cat_snap_t *snap;
    bool reading;                 /* one log read in flight at most */
    bool again;                   /* the head may have moved during it */
    bool read_failed;             /* the last read failed: the timer tries again */
    bool need_snapshot;           /* ... and it must start over from the objects */
    int64_t reread_at_us;
    srv_ddl_t *waiters;           /* operations waiting for the snapshot to reach their index */
    srv_ddl_t *active;            /* every operation of this loop, for deadlines and retries */
    uv_timer_t timer;             /* runs while `active` or a failed read needs it */
    bool timer_on;
    /* The head as this loop last learned it (a head read, or its own commit, which
     * moves the store's version by one): a DDL planned at that index commits at once
     * instead of reading the head first; a wrong guess costs a CONFLICT and a retry. */
    cat_head_t known;
    bool known_ok;
};

/* A connection's view of names, rebuilt when its settings change. */
struct srv_ddl {
    srv_ddl_t *next;              /* in the loop's waiters */
    srv_ddl_t *prev_active, *next_active;
    srv_cat_loop_t *cl;
    srv_conn_t *c;                /* NULL once detached */
    const pln_stmt_t *st;         /* NULL for a transaction block's COMMIT */
    const char *sql;
    const char *tag;              /* the statement's, or COMMIT */
    srv_txn_t *txn;               /* COMMIT: the block's DDL, planned again at the head */
    cm_arena_t arena;             /* planning scratch */
    cat_change_t *change;         /* the last plan: its notices are sent on success */
    cat_commit_t *commit;
    cat_head_t head;
    uint8_t uuid[16];
    int attempts;
    uint64_t wait_index;
    bool committed;               /* the wait is for our own commit, not for a head */
    bool hold;                    /* not a DDL: a statement waiting for this loop to catch up */
    srv_recheck_cb recheck;       /* a hold for a missing name (srv_catalog_recheck): runs at its end */
    bool applied_asked;           /* committed: waiting (or waited) for every worker to apply it */
    bool waiting;                 /* in the loop's waiters */
    bool call_out;                /* a store call's callback is still to come */
    bool commit_out;              /* ... and it is a commit */
    bool ambiguous;               /* a commit's answer was lost: it may have been applied */
    int64_t deadline_us;          /* the client is answered 57P03 then, if not before */
    int64_t retry_at_us;          /* 0, or when to try again after a store failure */
    int backoff_ms;
    cm_err_t last_err;            /* the last store failure, for the timeout's detail */
};

/* srv_catalog.c */
/* Reads the log from the snapshot on (one read in flight; again when asked meanwhile). */
void srv_cat_catch_up(srv_cat_loop_t *cl);
/* Runs every operation whose wait index the snapshot has reached. */
void srv_cat_run_waiters(srv_cat_loop_t *cl);

/* srv_ddl.c */
/* The snapshot reached what the operation waited for. */
void srv_ddl_waited(srv_ddl_t *d);
/* Ends an operation: answers its connection, if it still has one, and frees it. */
void srv_ddl_finish(srv_ddl_t *d, cm_err_t *err);
/* Starts the loop's timer (deadlines, retries, re-reads) unless it runs. */
void srv_cat_timer_need(srv_cat_loop_t *cl);
void srv_cat_timer_cb(uv_timer_t *t);
void srv_cat_timer_soon(srv_cat_loop_t *cl, int ms);

#endif
