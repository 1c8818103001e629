/*
 * cat_store_zk.h: the ZooKeeper store (store_zk) and its event-loop hooks.
 *
 * The catalog may not include uv.h, so the store does not own a loop: it
 * exposes what zookeeper_interest says (fd, events, timeout) and a process
 * call, and the caller's loop polls. The server binds them to uv_poll and
 * uv_timer; tests use cat_store_zk_run, a blocking poll() loop.
 *
 * These declarations belong in catalog.h once the server uses the store;
 * until then this header is the store's public face for tests.
 */
#ifndef EDDY_CAT_STORE_ZK_H
#define EDDY_CAT_STORE_ZK_H

#include "catalog/catalog.h"

#define CAT_ZK_READ 1
#define CAT_ZK_WRITE 2

/*
 * Opens a session to `hosts` ("h:p,h:p" with an optional "/chroot") and
 * once the session is up, creates the chroot and the DESIGN §4 layout
 * (/meta, /catalog/{head,objects,names}, /log, /requests) if missing. Calls
 * fail (-1, 58000) until cat_store_zk_ready is true.
 * NULL with err when the address cannot be used.
 */
cat_store_t *cat_store_zk_open(const char *hosts, int session_timeout_ms, const cat_limits_t *limits,
                               cm_err_t *err);

/*
 * What the loop must wait for: the fd (-1 while not connected), CAT_ZK_READ
 * and/or CAT_ZK_WRITE, and the longest wait before calling
 * cat_store_zk_process(s, 0) anyway. `generation` changes whenever the
 * library may have closed its socket, even if the new one has the same
 * number: a caller polling through libuv must then stop and recreate its
 * poll handle. Call it again after every process call and every store call.
 * -1 when the session is gone for good (expired or closed).
 */
int cat_store_zk_interest(cat_store_t *s, int *fd, int *events, int *timeout_ms, uint64_t *generation);
/* Does the socket I/O for `events` (0 on a timeout) and runs completions. */
void cat_store_zk_process(cat_store_t *s, int events);
/* True when no call (a user's or the store's own) waits for ZooKeeper. */
bool cat_store_zk_idle(cat_store_t *s);
/* True while the session is connected. */
bool cat_store_zk_connected(cat_store_t *s);
/* True once the layout exists and calls are accepted. */
bool cat_store_zk_ready(cat_store_t *s);

/*
 * For tests and tools: drives the handle with poll() until done(arg) is
 * true (done NULL: until idle) or timeout_ms passes. 0 when done.
 */
int cat_store_zk_run(cat_store_t *s, int timeout_ms, bool (*done)(void *arg), void *arg);

#endif
