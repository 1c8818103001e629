/*
 * srv_cat_int.h: a loop's catalog as srv_catalog.c keeps it (its store
 * handle and snapshot, following the log) and the one thing it offers the
 * DDL path in srv_ddl.c: a wait until the snapshot reaches an index, which
 * ends through the callback it was given. Internal to the server;
 * everything here runs on the loop that owns the srv_cat_loop_t.
 */
#ifndef EDDY_SRV_CAT_INT_H
#define EDDY_SRV_CAT_INT_H

#include "server/srv_int.h"

/*
 * A wait for the loop's snapshot to reach `index`: cb(arg, false) once it
 * did, or cb(arg, true) when the loop's catalog closes first; exactly once
 * per srv_catalog_wait, never after srv_catalog_wait_cancel. The caller owns
 * the memory (srv_ddl.c embeds it in an operation).
 */
typedef void (*srv_cat_wait_cb)(void *arg, bool closing);
typedef struct srv_cat_wait {
    struct srv_cat_wait *next;    /* in the loop's waiters */
    uint64_t index;
    srv_cat_wait_cb cb;
    void *arg;
    bool waiting;                 /* in the loop's waiters (set by srv_catalog.c) */
} srv_cat_wait_t;

/* One loop's catalog: its store handle, its snapshot, and who waits for the log. */
struct srv_cat_loop {
    srv_loop_t *lp;
    uv_async_t wake;              /* the store handle's wake hook */
    cat_store_t *store;           /* NULL once the loop closed it */
    cat_snap_t *snap;
    bool reading;                 /* one log read in flight at most */
    bool again;                   /* the head may have moved during it */
    bool read_failed;             /* the last read failed: the reread timer tries again */
    bool need_snapshot;           /* ... and it must start over from the objects */
    uv_timer_t reread;            /* runs while a failed read waits to be tried again */
    srv_cat_wait_t *waiters;
    /* DDL operations running on this loop (srv_ddl.c counts them): the
     * handle is not quiet while one runs, connection or not. */
    int ops;
};

/* Waits (see srv_cat_wait_t) until the loop's snapshot reaches index; the
 * callback may run before this returns when the snapshot is there already. */
void srv_catalog_wait(srv_cat_loop_t *cl, srv_cat_wait_t *w, uint64_t index, srv_cat_wait_cb cb, void *arg);
/* Takes a wait out of the loop's waiters; its callback is not called. */
void srv_catalog_wait_cancel(srv_cat_loop_t *cl, srv_cat_wait_t *w);

#endif
