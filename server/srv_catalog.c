/*
 * srv_catalog.c: the server's side of the catalog (DESIGN §2, §4): one
 * process-wide embedded store (store_mem), bootstrapped at start with
 * database eddy and schema public, or in cluster mode (--zookeeper) the
 * ZooKeeper store, reached through the thread that owns its session
 * (srv_zk_loop.c) and started from the objects snapshot read at start-up
 * (srv_zk_boot.c); per event loop a store handle of its own and a snapshot
 * kept current from the log (notification -> read the log -> apply; a
 * failed read is retried by a timer); waits until the snapshot reached an
 * index, which end through the callback they were given; and each
 * connection's view of names. DDL statements go through srv_ddl.c, which
 * calls in here and is called back only through those waits.
 */
#include "server/srv_cat_int.h"
#include "server/srv_zk.h"

#include "parser/parser.h"

#include <stdlib.h>
#include <string.h>

#define SRV_CAT_REREAD_MS 500     /* a failed log read is tried again this often */

/* A connection's view of names, rebuilt when its settings change. */
struct srv_cat_conn {
    uint64_t gen;
    char *path_text;
    char **path;
    size_t npath;
    pln_catalog_t cat;
};


/* ------------------------------------------------------------ start and stop */

static void srv__boot_head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    cat_head_t *out = arg;
    if (st == CAT_STORE_OK)
        *out = *head;
    else
        out->version = -1;
}

typedef struct srv__boot_log {
    cat_snap_t *snap;
    cm_err_t *err;
    bool ok;
} srv__boot_log_t;

static void srv__boot_log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                             const cm_err_t *err)
{
    srv__boot_log_t *l = arg;
    l->ok = st == CAT_STORE_OK;
    for (size_t i = 0; l->ok && i < n; i++)
        l->ok = cat_snap_apply(l->snap, entries[i].data, entries[i].len, l->err);
}

static void srv__boot_commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                                const cm_err_t *err)
{
    *(cat_store_status_t *)arg = st;
}

/* The users file's names become superuser roles of a new catalog (srv_roles.c). */
static bool srv__seed_roles(srv_server_t *srv, cat_store_t *s, cm_err_t *err)
{
    cat_head_t head = {0};
    bool ok = cat_store_head(s, srv__boot_head_cb, &head, err) == 0;
    cat_store_dispatch(s);
    cat_snap_t *snap = cat_snap_new();
    srv__boot_log_t log = {.snap = snap, .err = err};
    ok = ok && head.version >= 0 && cat_store_log_read(s, 1, 0, srv__boot_log_cb, &log, err) == 0;
    cat_store_dispatch(s);
    ok = ok && log.ok && cat_snap_index(snap) == head.index;
    cat_commit_t *seed = ok ? srv_roles_seed(srv, snap, &head, err) : NULL;
    if (ok && seed == NULL && err->set)
        ok = false;
    if (seed != NULL) {
        cat_store_status_t st = CAT_STORE_ERROR;
        ok = cat_store_commit(s, cat_commit_store(seed), srv__boot_commit_cb, &st, err) == 0;
        cat_store_dispatch(s);
        if (ok && st != CAT_STORE_OK && st != CAT_STORE_DUPLICATE)
            ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not create the users file's roles: %s",
                            cat_store_status_name(st));
        cat_commit_free(seed);
    }
    cat_snap_free(snap);
    if (!ok && !err->set)
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not create the users file's roles");
    return ok;
}

bool srv_catalog_start(srv_server_t *srv, cm_err_t *err)
{
    cat_set_quote_ident(sql_deparse_ident);
    pln_set_runner(ex_run);   /* CREATE TABLE AS runs its constant query (planner.h) */
    pln_set_physical(srv_physical_operators);   /* EXPLAIN PHYSICAL PLAN asks the engine */
    srv_roles_install();
    if (srv->cfg.zookeeper != NULL)
        return srv_zk_boot(srv, err);
    srv->catdb = cat_mem_db_new();
    /* A private handle that this thread polls: the loops do not run yet. */
    cat_store_t *s = cat_store_mem_open(srv->catdb, NULL, NULL, NULL);
    cat_head_t head = {0};
    bool ok = cat_store_head(s, srv__boot_head_cb, &head, err) == 0;
    cat_store_dispatch(s);
    if (ok && head.version < 0)
        ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not read the catalog head");
    if (ok && head.index == 0) {
        cat_commit_t *boot = cat_commit_bootstrap(&head, &s->limits, err);
        cat_store_status_t st = CAT_STORE_ERROR;
        ok = boot != NULL && cat_store_commit(s, cat_commit_store(boot), srv__boot_commit_cb, &st, err) == 0;
        cat_store_dispatch(s);
        if (ok && st != CAT_STORE_OK && st != CAT_STORE_DUPLICATE)
            ok = cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not bootstrap the catalog: %s",
                            cat_store_status_name(st));
        if (boot)
            cat_commit_free(boot);
        if (ok)
            ok = srv__seed_roles(srv, s, err);
    }
    cat_store_close(s);
    return ok;
}

void srv_catalog_stop(srv_server_t *srv)
{
    if (srv->catdb)
        cat_mem_db_free(srv->catdb);
    srv->catdb = NULL;
    srv_zk_boot_free(srv);
}

/* ------------------------------------------------------------ following the log */

static void srv__catch_up(srv_cat_loop_t *cl);

/* Runs every wait whose index the snapshot has reached (a callback may wait again). */
static void srv__run_waiters(srv_cat_loop_t *cl)
{
    uint64_t at = cat_snap_index(cl->snap);
    srv_cat_wait_t *ready = NULL;
    for (srv_cat_wait_t **pp = &cl->waiters; *pp;) {
        srv_cat_wait_t *w = *pp;
        if (w->index <= at) {
            *pp = w->next;
            w->waiting = false;
            w->next = ready;
            ready = w;
        } else {
            pp = &w->next;
        }
    }
    while (ready) {
        srv_cat_wait_t *next = ready->next;
        ready->next = NULL;
        ready->cb(ready->arg, false);
        ready = next;
    }
}

void srv_catalog_wait(srv_cat_loop_t *cl, srv_cat_wait_t *w, uint64_t index, srv_cat_wait_cb cb, void *arg)
{
    w->index = index;
    w->cb = cb;
    w->arg = arg;
    w->next = cl->waiters;
    cl->waiters = w;
    w->waiting = true;
    if (cat_snap_index(cl->snap) >= index)
        srv__run_waiters(cl);
    else
        srv__catch_up(cl);
}

void srv_catalog_wait_cancel(srv_cat_loop_t *cl, srv_cat_wait_t *w)
{
    for (srv_cat_wait_t **pp = &cl->waiters; *pp; pp = &(*pp)->next) {
        if (*pp == w) {
            *pp = w->next;
            break;
        }
    }
    w->next = NULL;
    w->waiting = false;
}

/* While the last read failed: try again every SRV_CAT_REREAD_MS. */
static void srv__reread_cb(uv_timer_t *t)
{
    srv_cat_loop_t *cl = t->data;
    if (!cl->read_failed || cl->store == NULL) {
        uv_timer_stop(t);
        return;
    }
    srv__catch_up(cl);
}

/* A read failed while the store is unreachable: a timer tries again, first
 * SRV_CAT_REREAD_MS after this failure (a notification may also come first,
 * when the store is back). */
static void srv__read_failed(srv_cat_loop_t *cl, bool snapshot, const cm_err_t *err)
{
    if (cl->store == NULL || (err && strcmp(err->sqlstate, CM_ERRCODE_ADMIN_SHUTDOWN) == 0))
        return;
    if (!cl->read_failed)
        cm_log_warn("catalog: %s failed, retrying: %s", snapshot ? "snapshot read" : "log read",
                    err && err->message ? err->message : "unknown error");
    cl->read_failed = true;
    cl->need_snapshot = cl->need_snapshot || snapshot;
    uv_timer_start(&cl->reread, srv__reread_cb, SRV_CAT_REREAD_MS, SRV_CAT_REREAD_MS);
}

static void srv__snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects,
                             size_t n, const cm_err_t *err)
{
    srv_cat_loop_t *cl = arg;
    cl->reading = false;
    cm_err_t e = {0};
    if (st != CAT_STORE_OK) {
        srv__read_failed(cl, true, err);
    } else if (!cat_snap_load(cl->snap, head->index, objects, n, &e)) {
        cm_log_error("catalog: could not load a snapshot: %s", e.message);
    } else {
        cl->read_failed = cl->need_snapshot = false;
        srv__catch_up(cl);
    }
    cm_err_clear(&e);
    srv__run_waiters(cl);
}

static void srv__snapshot_read(srv_cat_loop_t *cl)
{
    cm_err_t e = {0};
    cl->reading = cat_store_snapshot(cl->store, srv__snapshot_cb, cl, &e) == 0;
    if (!cl->reading)
        srv__read_failed(cl, true, &e);
    cm_err_clear(&e);
}

static void srv__log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                        const cm_err_t *err)
{
    srv_cat_loop_t *cl = arg;
    cl->reading = false;
    if (st == CAT_STORE_TRIMMED) {
        /* The entries we need are gone: start over from the objects. */
        srv__snapshot_read(cl);
        return;
    }
    if (st != CAT_STORE_OK) {
        srv__read_failed(cl, false, err);
        return;
    }
    cl->read_failed = false;
    bool broken = false;
    for (size_t i = 0; i < n && !broken; i++) {
        if (entries[i].index != cat_snap_index(cl->snap) + 1)
            continue;
        cm_err_t e = {0};
        if (!cat_snap_apply(cl->snap, entries[i].data, entries[i].len, &e)) {
            cm_log_error("catalog: entry %llu does not apply: %s", (unsigned long long)entries[i].index, e.message);
            broken = true;
        }
        cm_err_clear(&e);
    }
    if (broken) {
        srv__snapshot_read(cl);
        return;
    }
    if (n > 0 || cl->again) {
        cl->again = false;
        srv__catch_up(cl);
    }
    srv__run_waiters(cl);
}

static void srv__catch_up(srv_cat_loop_t *cl)
{
    if (cl->reading) {
        cl->again = true;
        return;
    }
    if (cl->store == NULL)
        return;
    if (cl->need_snapshot) {
        srv__snapshot_read(cl);
        return;
    }
    cm_err_t e = {0};
    cl->reading = cat_store_log_read(cl->store, cat_snap_index(cl->snap) + 1, 0, srv__log_cb, cl, &e) == 0;
    if (!cl->reading)
        srv__read_failed(cl, false, &e);
    cm_err_clear(&e);
}

static void srv__notify_cb(void *arg)
{
    srv__catch_up(arg);
}

static void srv__wake(void *arg)
{
    srv_cat_loop_t *cl = arg;
    uv_async_send(&cl->wake);
}

static void srv__wake_cb(uv_async_t *a)
{
    srv_cat_loop_t *cl = a->data;
    if (cl->store)
        cat_store_dispatch(cl->store);
}

void srv_catalog_loop_init(srv_loop_t *lp)
{
    srv_cat_loop_t *cl = cm_calloc(1, sizeof *cl);
    cl->lp = lp;
    lp->cat = cl;
    uv_async_init(&lp->uv, &cl->wake, srv__wake_cb);
    cl->wake.data = cl;
    uv_timer_init(&lp->uv, &cl->reread);
    cl->reread.data = cl;
    cl->snap = cat_snap_new();
    if (lp->srv->zk != NULL) {
        /* The snapshot read at start-up, then the log from there on; the
         * first read is answered once the loop runs. */
        cl->store = srv_zk_handle_open(lp->srv->zk, srv__wake, cl);
        srv_zk_boot_load(lp->srv, cl->snap);
        cat_store_set_notify(cl->store, srv__notify_cb, cl);
        srv__catch_up(cl);
        srv_catalog_loop_quiet(lp);
        return;
    }
    cl->store = cat_store_mem_open(lp->srv->catdb, NULL, srv__wake, cl);
    cat_store_set_notify(cl->store, srv__notify_cb, cl);
    /* Caught up before the first client: the loop does not run yet, so this
     * thread delivers the read itself (the thread that runs the loop starts later). */
    srv__catch_up(cl);
    cat_store_dispatch(cl->store);
    srv_catalog_loop_quiet(lp);
}

/* A loop without connections has no use for the catalog's news until one
 * comes: its handle is quiet meanwhile (cat_store_set_quiet), so a DDL on
 * another loop does not wake it, and it catches up when a client arrives
 * (a statement that comes before that read is in is held, srv_ddl_hold). */
void srv_catalog_loop_quiet(srv_loop_t *lp)
{
    srv_cat_loop_t *cl = lp->cat;
    if (cl == NULL || cl->store == NULL)
        return;
    cat_store_set_quiet(cl->store, lp->conns == NULL && cl->ops == 0 && cl->waiters == NULL);
}

void srv_catalog_loop_close(srv_loop_t *lp)
{
    srv_cat_loop_t *cl = lp->cat;
    if (cl == NULL || cl->store == NULL)
        return;
    cat_store_t *s = cl->store;
    cl->store = NULL;
    /* Pending calls complete now, with an error; their operations are detached by then. */
    cat_store_close(s);
    /* The snapshot moves no more: every wait ends now, told so. */
    while (cl->waiters) {
        srv_cat_wait_t *w = cl->waiters;
        cl->waiters = w->next;
        w->next = NULL;
        w->waiting = false;
        w->cb(w->arg, true);
    }
    uv_timer_stop(&cl->reread);
    uv_close((uv_handle_t *)&cl->reread, NULL);
    uv_close((uv_handle_t *)&cl->wake, NULL);
}

void srv_catalog_loop_free(srv_loop_t *lp)
{
    srv_cat_loop_t *cl = lp->cat;
    if (cl == NULL)
        return;
    cat_snap_free(cl->snap);
    free(cl);
    lp->cat = NULL;
}

/* ------------------------------------------------------------ a connection's view */

static void srv__catconn_clear(srv_cat_conn_t *cc)
{
    free(cc->path_text);
    free(cc->path);
    cc->path_text = NULL;
    cc->path = NULL;
    cc->npath = 0;
}

/* search_path as PostgreSQL splits it: comma-separated, double quotes kept off. */
static void srv__path_parse(srv_cat_conn_t *cc, const char *text)
{
    srv__catconn_clear(cc);
    size_t len = strlen(text);
    cc->path_text = cm_malloc(len + 1);
    cc->path = cm_calloc(len / 2 + 2, sizeof(char *));
    char *w = cc->path_text;
    const char *p = text;
    while (*p) {
        while (*p == ' ' || *p == '\t' || *p == ',')
            p++;
        if (!*p)
            break;
        char *start = w;
        if (*p == '"') {
            for (p++; *p && !(*p == '"' && p[1] != '"'); p++) {
                if (*p == '"')
                    p++;
                *w++ = *p;
            }
            if (*p == '"')
                p++;
        } else {
            while (*p && *p != ',' && *p != ' ' && *p != '\t')
                *w++ = *p++;
        }
        while (*p && *p != ',')
            p++;
        *w++ = 0;
        cc->path[cc->npath++] = start;
    }
}

const pln_catalog_t *srv_catalog_for(srv_conn_t *c)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL)
        return NULL;
    srv_cat_conn_t *cc = c->catc;
    if (cc == NULL) {
        cc = c->catc = cm_calloc(1, sizeof *cc);
        cc->gen = UINT64_MAX;
    }
    if (cc->gen != c->sess.settings_gen) {
        srv__path_parse(cc, srv_session_get(&c->sess, "search_path"));
        cc->gen = c->sess.settings_gen;
    }
    /* Inside a transaction block with DDL, the session sees its own overlay. */
    cc->cat.snap = srv_txn_snap(c) ? srv_txn_snap(c) : cl->snap;
    cc->cat.search = (cat_search_t){.database = c->sess.database, .path = (const char *const *)cc->path,
                                    .npath = cc->npath, .user = srv_current_user(&c->sess),
                                    .session_user = srv_session_user(&c->sess)};
    return &cc->cat;
}

uint64_t srv_catalog_index(srv_conn_t *c)
{
    /* In a block with DDL, the session's overlay: each of its statements moves the index on. */
    if (srv_txn_snap(c))
        return cat_snap_index(srv_txn_snap(c));
    return c->lp->cat ? cat_snap_index(c->lp->cat->snap) : 0;
}

const cat_snap_t *srv_catalog_loop_snap(srv_conn_t *c)
{
    return c->lp->cat ? c->lp->cat->snap : NULL;
}

void srv_catalog_conn_free(srv_conn_t *c)
{
    srv_txn_discard(c);
    if (c->catc) {
        srv__catconn_clear(c->catc);
        free(c->catc);
        c->catc = NULL;
    }
}
