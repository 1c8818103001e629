/*
 * srv_zk_boot.c: start-up in cluster mode (--zookeeper): reach ZooKeeper,
 * make sure the catalog there has its first entry (database eddy, schema
 * public), and read one consistent snapshot of its objects, which every
 * loop loads before following the log from its index (DESIGN §4 "Tail").
 *
 * A catalog that cannot be loaded (objects this build cannot decode, a
 * snapshot that does not hold together) stops the start with an error
 * naming the store: serving half a catalog would be worse than not serving.
 */
#include "server/srv_int.h"
#include "server/srv_zk.h"

#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>
#include <string.h>

/* The snapshot every loop starts from; freed once the server stops. */
struct srv_zk_boot {
    cm_arena_t arena;
    uint64_t index;
    int64_t head_version;   /* the head's compare-and-swap token at index */
    cat_kv_t *objects;
    size_t n;
};

typedef struct srv_zk_wait {
    bool done;
    cat_store_status_t st;
    cat_head_t head;
    uint64_t index;
    cm_err_t err;
    srv_zk_boot_t *boot;
} srv_zk_wait_t;

static bool srv__wait_done(void *arg)
{
    return ((srv_zk_wait_t *)arg)->done;
}

static void srv__wait_err(srv_zk_wait_t *w, const cm_err_t *err)
{
    if (err && err->set)
        cm_err_set(&w->err, err->sqlstate, "%s", err->message ? err->message : "catalog store error");
}

static void srv__head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    srv_zk_wait_t *w = arg;
    w->done = true;
    w->st = st;
    if (st == CAT_STORE_OK)
        w->head = *head;
    srv__wait_err(w, err);
}

static void srv__commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                           const cm_err_t *err)
{
    srv_zk_wait_t *w = arg;
    w->done = true;
    w->st = st;
    w->index = index;
    srv__wait_err(w, err);
}

static void srv__snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects,
                             size_t n, const cm_err_t *err)
{
    srv_zk_wait_t *w = arg;
    w->done = true;
    w->st = st;
    srv__wait_err(w, err);
    if (st != CAT_STORE_OK)
        return;
    srv_zk_boot_t *b = w->boot;
    b->index = head->index;
    b->head_version = head->version;
    b->n = n;
    b->objects = cm_arena_alloc(&b->arena, (n ? n : 1) * sizeof *b->objects);
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = cm_arena_alloc(&b->arena, objects[i].len ? objects[i].len : 1);
        memcpy(d, objects[i].data, objects[i].len);
        b->objects[i] = (cat_kv_t){.key = cm_arena_strdup(&b->arena, objects[i].key), .data = d,
                                   .len = objects[i].len};
    }
}

/* Runs one call to its answer on this thread (the loops do not run yet). */
static bool srv__wait(cat_store_t *h, srv_zk_wait_t *w, int rc, int timeout_ms, const char *what, cm_err_t *err)
{
    if (rc != 0) {
        cm_err_move(err, &w->err);
        return false;
    }
    if (!srv_zk_handle_wait(h, timeout_ms, srv__wait_done, w))
        return cm_err_set(err, "57P03", "catalog store \"zookeeper\" did not answer %s within %d ms", what,
                          timeout_ms);
    if (w->st == CAT_STORE_ERROR) {
        cm_err_set(err, w->err.set ? w->err.sqlstate : "58000", "could not %s: %s", what,
                   w->err.message ? w->err.message : "catalog store error");
        return false;
    }
    return true;
}

static bool srv__boot(srv_server_t *srv, cat_store_t *h, srv_zk_boot_t *b, cm_err_t *err)
{
    int t = srv->cfg.zk_connect_timeout_ms;
    for (int tries = 0; tries < 20; tries++) {
        srv_zk_wait_t w = {0};
        int rc = cat_store_head(h, srv__head_cb, &w, &w.err);
        if (!srv__wait(h, &w, rc, t, "read the catalog head", err))
            return false;
        if (w.head.index > 0)
            break;
        /* An empty catalog: the first entry. Several servers starting at
         * once race for it; a lost race (the head moved) is fine. */
        cat_commit_t *boot = cat_commit_bootstrap(&w.head, &h->limits, err);
        if (boot == NULL)
            return false;
        srv_zk_wait_t wc = {0};
        rc = cat_store_commit(h, cat_commit_store(boot), srv__commit_cb, &wc, &wc.err);
        bool ok = srv__wait(h, &wc, rc, t, "create the catalog", err);
        cat_commit_free(boot);
        cm_err_clear(&w.err);
        cm_err_clear(&wc.err);
        if (!ok)
            return false;
        if (wc.st == CAT_STORE_OK || wc.st == CAT_STORE_DUPLICATE)
            cm_log_info("catalog: created a new catalog in zookeeper at %s", srv->cfg.zookeeper);
    }
    srv_zk_wait_t ws = {.boot = b};
    int rc = cat_store_snapshot(h, srv__snapshot_cb, &ws, &ws.err);
    bool ok = srv__wait(h, &ws, rc, t, "read the catalog snapshot", err);
    cm_err_clear(&ws.err);
    if (!ok)
        return false;
    if (b->index == 0)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the catalog in zookeeper at %s is empty",
                          srv->cfg.zookeeper);
    /* Every loop loads the same objects: check once that they make a catalog. */
    cat_snap_t *snap = cat_snap_new();
    cm_err_t e = {0};
    ok = cat_snap_load(snap, b->index, b->objects, b->n, &e);
    if (ok) {
        /* A catalog without roles gets the users file's as superusers; the loops read that
         * entry from the log. A lost race (another server seeded, or DDL) is fine. */
        cat_head_t head = {.index = b->index, .version = b->head_version};
        cat_commit_t *seed = srv_roles_seed(srv, snap, &head, &e);
        if (seed != NULL) {
            srv_zk_wait_t wc = {0};
            int rc2 = cat_store_commit(h, cat_commit_store(seed), srv__commit_cb, &wc, &wc.err);
            bool seeded = srv__wait(h, &wc, rc2, t, "create the users file's roles", err);
            cm_err_clear(&wc.err);
            cat_commit_free(seed);
            if (!seeded) {
                cat_snap_free(snap);
                return false;
            }
        }
        ok = !e.set;
    }
    cat_snap_free(snap);
    if (!ok) {
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "the catalog in zookeeper at %s cannot be loaded: %s",
                   srv->cfg.zookeeper, e.message ? e.message : "?");
        cm_err_set_hint(err, "Is this eddy's catalog, written by a compatible version?");
        cm_err_clear(&e);
        return false;
    }
    return true;
}

bool srv_zk_boot(srv_server_t *srv, cm_err_t *err)
{
    int64_t t0 = cm_now_mono_us();
    srv_zk_options_t opt = {.hosts = srv->cfg.zookeeper,
                            .session_timeout_ms = srv->cfg.zk_session_timeout_ms,
                            .connect_timeout_ms = srv->cfg.zk_connect_timeout_ms,
                            .op_timeout_ms = srv->cfg.ddl_timeout_ms,
                            .spin_us = srv->cfg.worker_spin_us,
                            .cluster = srv->cfg.cluster ? srv->cfg.cluster : "default"};
    /* Who owns a cluster, as its owner node shows it. */
    char instance[320];
    char host[256] = "";
    gethostname(host, sizeof host - 1);
    snprintf(instance, sizeof instance, "%s:%d pid %d", host, srv->cfg.listen_port, (int)getpid());
    opt.instance = instance;
    char *auth = NULL, *read_id = NULL;
    if (srv->cfg.zk_auth_file != NULL && !srv_zk_auth_load(srv->cfg.zk_auth_file, &auth, &read_id, err))
        return false;
    opt.auth = auth;
    opt.read_id = read_id;
    srv->zk = srv_zk_start(&opt, err);   /* the store keeps copies */
    free(auth);
    free(read_id);
    if (srv->zk == NULL)
        return false;
    srv->boot = cm_calloc(1, sizeof *srv->boot);
    cm_arena_init(&srv->boot->arena, 0);
    cat_store_t *h = srv_zk_handle_open(srv->zk, NULL, NULL);
    bool ok = srv__boot(srv, h, srv->boot, err);
    cat_store_close(h);
    if (ok)
        cm_log_info("catalog: %zu objects at index %llu from zookeeper at %s in %.1f ms", srv->boot->n,
                    (unsigned long long)srv->boot->index, srv->cfg.zookeeper,
                    (double)(cm_now_mono_us() - t0) / 1000.0);
    return ok;
}

void srv_zk_boot_load(srv_server_t *srv, cat_snap_t *snap)
{
    cm_err_t e = {0};
    /* srv_zk_boot checked that these objects load. */
    bool ok = cat_snap_load(snap, srv->boot->index, srv->boot->objects, srv->boot->n, &e);
    CM_ASSERT(ok);
    cm_err_clear(&e);
}

void srv_zk_boot_free(srv_server_t *srv)
{
    if (srv->zk)
        srv_zk_stop(srv->zk);
    srv->zk = NULL;
    if (srv->boot) {
        cm_arena_free(&srv->boot->arena);
        free(srv->boot);
    }
    srv->boot = NULL;
}
