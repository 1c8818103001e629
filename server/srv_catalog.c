/*
 * srv_catalog.c: the server's side of the catalog (DESIGN §2, §4): one
 * process-wide embedded store (store_mem), bootstrapped at start with
 * database eddy and schema public; per event loop a store handle of its own
 * and a snapshot kept current from the log (notification -> read the log ->
 * apply); and the path of a DDL statement: plan against the loop's
 * snapshot, commit one atomic change, retry a lost race after catching up
 * (bounded), and acknowledge only once the loop's snapshot holds the commit,
 * so the session reads its own writes.
 *
 * Everything here runs on the loop that owns the handle; store callbacks
 * arrive from cat_store_dispatch, which the handle's wake hook (an
 * uv_async_t) schedules. A DDL in flight belongs to a connection that is
 * BUSY; when the connection goes away first, the operation is detached and
 * finishes on its own (a commit, once sent, has its effect either way).
 */
#include "server/srv_int.h"

#include "parser/parser.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define SRV_DDL_ATTEMPTS_MAX 16   /* commits lost to concurrent DDL before giving up */

typedef struct srv_ddl srv_ddl_t;

/* One loop's catalog: its store handle, its snapshot, and who waits for the log. */
struct srv_cat_loop {
    srv_loop_t *lp;
    uv_async_t wake;              /* the store handle's wake hook */
    cat_store_t *store;
    cat_snap_t *snap;
    bool reading;                 /* one log read in flight at most */
    bool again;                   /* the head may have moved during it */
    srv_ddl_t *waiters;           /* operations waiting for the snapshot to reach their index */
};

/* A connection's view of names, rebuilt when its settings change. */
struct srv_cat_conn {
    uint64_t gen;
    char *path_text;
    char **path;
    size_t npath;
    pln_catalog_t cat;
};

struct srv_ddl {
    srv_ddl_t *next;              /* in the loop's waiters */
    srv_cat_loop_t *cl;
    srv_conn_t *c;                /* NULL once detached */
    const pln_stmt_t *st;
    const char *sql;
    cm_arena_t arena;             /* planning scratch */
    cat_change_t *change;         /* the last plan: its notices are sent on success */
    cat_commit_t *commit;
    cat_head_t head;
    uint8_t uuid[16];
    int attempts;
    uint64_t wait_index;
    bool committed;               /* the wait is for our own commit, not for a head */
    bool hold;                    /* not a DDL: a statement waiting for this loop to catch up */
    bool applied_asked;           /* committed: waiting (or waited) for every worker to apply it */
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

static void srv__boot_commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                                const cm_err_t *err)
{
    *(cat_store_status_t *)arg = st;
}

bool srv_catalog_start(srv_server_t *srv, cm_err_t *err)
{
    cat_set_quote_ident(sql_deparse_ident);
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
    }
    cat_store_close(s);
    return ok;
}

void srv_catalog_stop(srv_server_t *srv)
{
    if (srv->catdb)
        cat_mem_db_free(srv->catdb);
    srv->catdb = NULL;
}

/* ------------------------------------------------------------ following the log */

static void srv__ddl_waited(srv_ddl_t *d);
static void srv__catch_up(srv_cat_loop_t *cl);

static void srv__run_waiters(srv_cat_loop_t *cl)
{
    uint64_t at = cat_snap_index(cl->snap);
    srv_ddl_t *ready = NULL;
    for (srv_ddl_t **pp = &cl->waiters; *pp;) {
        srv_ddl_t *d = *pp;
        if (d->wait_index <= at) {
            *pp = d->next;
            d->next = ready;
            ready = d;
        } else {
            pp = &d->next;
        }
    }
    while (ready) {
        srv_ddl_t *next = ready->next;
        ready->next = NULL;
        srv__ddl_waited(ready);
        ready = next;
    }
}

static void srv__snapshot_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *objects,
                             size_t n, const cm_err_t *err)
{
    srv_cat_loop_t *cl = arg;
    cl->reading = false;
    cm_err_t e = {0};
    if (st != CAT_STORE_OK || !cat_snap_load(cl->snap, head->index, objects, n, &e))
        cm_log_error("catalog: could not load a snapshot: %s", e.set ? e.message : cat_store_status_name(st));
    cm_err_clear(&e);
    if (st == CAT_STORE_OK)
        srv__catch_up(cl);
    srv__run_waiters(cl);
}

static void srv__log_cb(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries, size_t n,
                        const cm_err_t *err)
{
    srv_cat_loop_t *cl = arg;
    cl->reading = false;
    if (st == CAT_STORE_TRIMMED) {
        /* The entries we need are gone: start over from the objects. */
        cm_err_t e = {0};
        cl->reading = cat_store_snapshot(cl->store, srv__snapshot_cb, cl, &e) == 0;
        cm_err_clear(&e);
        return;
    }
    if (st != CAT_STORE_OK) {
        if (err && strcmp(err->sqlstate, CM_ERRCODE_ADMIN_SHUTDOWN) != 0)
            cm_log_warn("catalog: log read failed: %s", err->message ? err->message : cat_store_status_name(st));
        return;
    }
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
        cm_err_t e = {0};
        cl->reading = cat_store_snapshot(cl->store, srv__snapshot_cb, cl, &e) == 0;
        cm_err_clear(&e);
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
    cm_err_t e = {0};
    cl->reading = cat_store_log_read(cl->store, cat_snap_index(cl->snap) + 1, 0, srv__log_cb, cl, &e) == 0;
    if (!cl->reading)
        cm_log_warn("catalog: could not read the log: %s", e.message ? e.message : "");
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
    cl->snap = cat_snap_new();
    cl->store = cat_store_mem_open(lp->srv->catdb, NULL, srv__wake, cl);
    cat_store_set_notify(cl->store, srv__notify_cb, cl);
    /* Caught up before the first client: the loop does not run yet, so this
     * thread delivers the read itself (the thread that runs the loop starts later). */
    srv__catch_up(cl);
    cat_store_dispatch(cl->store);
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
    while (cl->waiters) {
        srv_ddl_t *d = cl->waiters;
        cl->waiters = d->next;
        d->c = NULL;
        srv__ddl_waited(d);
    }
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
    cc->cat.snap = cl->snap;
    cc->cat.search = (cat_search_t){.database = c->sess.database, .path = (const char *const *)cc->path,
                                    .npath = cc->npath, .user = c->sess.user};
    return &cc->cat;
}

uint64_t srv_catalog_index(srv_conn_t *c)
{
    return c->lp->cat ? cat_snap_index(c->lp->cat->snap) : 0;
}

/* ------------------------------------------------------------ DDL */

static void srv__ddl_free(srv_ddl_t *d)
{
    if (d->c != NULL && d->c->ddl == d)
        d->c->ddl = NULL;
    if (d->commit)
        cat_commit_free(d->commit);
    if (d->change)
        cat_change_free(d->change);
    cm_arena_free(&d->arena);
    free(d);
}

static void srv__send_notices(srv_conn_t *c, const cat_change_t *ch)
{
    for (size_t i = 0; ch && i < cat_change_notice_count(ch); i++) {
        cm_err_t n = *cat_change_notice(ch, i);
        n.severity = CM_SEV_NOTICE;
        srv_put_error(&c->out, 'N', &n);
    }
}

/* The end of an operation: the answer goes to its connection if it still has one. */
static void srv__ddl_finish(srv_ddl_t *d, cm_err_t *err)
{
    srv_conn_t *c = d->c;
    if (c != NULL && c->state != SRV_CONN_BUSY)
        c = NULL;   /* closing: nobody reads the answer */
    if (d->committed) {
        /* From now on every session's next statement sees this commit (even
         * after an apply timeout: the change is committed all the same). */
        if (c != NULL && d->wait_index > c->sync_index)
            c->sync_index = d->wait_index;
        _Atomic uint64_t *acked = &d->cl->lp->srv->cat_acked;
        uint64_t at = cat_snap_index(d->cl->snap), was = atomic_load(acked);
        while (was < at && !atomic_compare_exchange_weak(acked, &was, at)) {
        }
    }
    if (c != NULL && d->hold) {
        c->ddl = NULL;
        d->c = NULL;
        srv__ddl_free(d);
        srv_conn_set_state(c, SRV_CONN_READY);
        srv_conn_resume(c);
        return;
    }
    if (c != NULL) {
        c->ddl = NULL;
        d->c = NULL;
        if (err == NULL)
            srv__send_notices(c, d->change);
        const char *tag = d->st->tag;
        srv__ddl_free(d);
        srv_exec_ddl_done(c, err, tag);
        return;
    }
    if (err)
        cm_err_clear(err);
    srv__ddl_free(d);
}

/* Plans the statement against the loop's snapshot into a fresh change. */
static bool srv__ddl_plan(srv_ddl_t *d, cm_err_t *err)
{
    if (d->change)
        cat_change_free(d->change);
    d->change = cat_change_new();
    cm_arena_reset(&d->arena);
    return pln_ddl_plan(&d->arena, d->st, d->sql, &d->c->sess.settings, srv_catalog_for(d->c), d->change, err);
}

static void srv__ddl_attempt(srv_ddl_t *d);

static void srv__ddl_wait(srv_ddl_t *d, uint64_t index)
{
    d->wait_index = index;
    d->next = d->cl->waiters;
    d->cl->waiters = d;
    if (cat_snap_index(d->cl->snap) >= index)
        srv__run_waiters(d->cl);
    else
        srv__catch_up(d->cl);
}

static void srv__commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                           const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    cat_commit_free(d->commit);
    d->commit = NULL;
    cm_err_t e = {0};
    switch (st) {
    case CAT_STORE_OK:
    case CAT_STORE_DUPLICATE:
        /* Acknowledged once this loop's snapshot holds it: read your writes. */
        d->committed = true;
        srv__ddl_wait(d, index);
        return;
    case CAT_STORE_CONFLICT:
    case CAT_STORE_NAME_EXISTS:
        /* Another DDL won the race: catch up, validate again, retry. */
        srv__ddl_attempt(d);
        return;
    default:
        cm_err_set(&e, err && err->set ? err->sqlstate : CM_ERRCODE_INTERNAL_ERROR, "%s",
                   err && err->message ? err->message : "catalog commit failed");
        srv__ddl_finish(d, &e);
        return;
    }
}

/* Every worker applied our commit, or they did not in time (DESIGN §2: synchronous DDL). */
static void srv__ddl_applied_cb(void *arg, const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    if (err == NULL) {
        srv__ddl_finish(d, NULL);
        return;
    }
    cm_err_t e = {0};
    if (strcmp(err->sqlstate, CM_ERRCODE_QUERY_CANCELED) == 0) {
        cm_err_set(&e, CM_ERRCODE_QUERY_CANCELED,
                   "%s is committed (catalog index %llu) but not yet applied by every worker after %d ms",
                   d->st->tag, (unsigned long long)d->wait_index, d->cl->lp->srv->cfg.ddl_apply_timeout_ms);
        cm_err_set_detail(&e, "The change is durable and the workers will apply it; it is not rolled back.");
        cm_err_set_hint(&e, "Later statements of this session wait until the workers have applied it.");
    } else {
        cm_err_set(&e, err->sqlstate, "%s", err->message);
    }
    srv__ddl_finish(d, &e);
}

/* The snapshot reached the index waited for: either a head to plan at, or our commit. */
static void srv__ddl_waited(srv_ddl_t *d)
{
    cm_err_t e = {0};
    if (d->c == NULL || d->c->state != SRV_CONN_BUSY) {
        srv__ddl_finish(d, NULL);
        return;
    }
    if (d->committed && !d->applied_asked) {
        /* Our commit is in this loop's snapshot; now the workers must apply it. */
        d->applied_asked = true;
        if (!srv_sync_wait(d->cl->lp, d->wait_index, d->cl->lp->srv->cfg.ddl_apply_timeout_ms,
                           srv__ddl_applied_cb, d))
            return;
    }
    if (d->committed || d->hold) {
        /* Waiting for our own commit, or for the loop to catch up: done. */
        srv__ddl_finish(d, NULL);
        return;
    }
    if (cat_snap_index(d->cl->snap) != d->head.index) {
        /* The log moved past the head we read: read it again. */
        srv__ddl_attempt(d);
        return;
    }
    if (!srv__ddl_plan(d, &e)) {
        srv__ddl_finish(d, &e);
        return;
    }
    if (cat_change_op_count(d->change) == 0) {
        srv__ddl_finish(d, NULL);
        return;
    }
    d->commit = cat_commit_build(d->change, d->cl->snap, &d->head, d->uuid, d->st->tag, d->sql,
                                 &d->cl->store->limits, &e);
    if (d->commit == NULL || cat_store_commit(d->cl->store, cat_commit_store(d->commit), srv__commit_cb, d, &e) != 0) {
        srv__ddl_finish(d, &e);
        return;
    }
}

static void srv__head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    if (st != CAT_STORE_OK) {
        cm_err_t e = {0};
        cm_err_set(&e, err && err->set ? err->sqlstate : CM_ERRCODE_INTERNAL_ERROR, "%s",
                   err && err->message ? err->message : "could not read the catalog head");
        srv__ddl_finish(d, &e);
        return;
    }
    d->head = *head;
    srv__ddl_wait(d, head->index);
}

static void srv__ddl_attempt(srv_ddl_t *d)
{
    cm_err_t e = {0};
    if (d->c == NULL || d->cl->store == NULL) {
        srv__ddl_finish(d, NULL);
        return;
    }
    if (++d->attempts > SRV_DDL_ATTEMPTS_MAX) {
        cm_err_set(&e, "40001", "could not commit %s: the catalog kept changing", d->st->tag);
        srv__ddl_finish(d, &e);
        return;
    }
    if (cat_store_head(d->cl->store, srv__head_cb, d, &e) != 0)
        srv__ddl_finish(d, &e);
}

srv_ddl_rc_t srv_catalog_ddl(srv_conn_t *c, const pln_stmt_t *st, const char *sql, cm_err_t *err)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL || cl->store == NULL)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s needs the catalog", st->tag), SRV_DDL_ERROR;
    srv_ddl_t *d = cm_calloc(1, sizeof *d);
    d->cl = cl;
    d->c = c;
    d->st = st;
    d->sql = sql;
    cm_arena_init(&d->arena, 0);
    /* Validation against what this loop knows answers errors and no-ops at
     * once; a change is validated again at the head it commits on. */
    if (!srv__ddl_plan(d, err)) {
        d->c = NULL;
        srv__ddl_free(d);
        return SRV_DDL_ERROR;
    }
    if (cat_change_op_count(d->change) == 0) {
        srv__send_notices(c, d->change);
        d->c = NULL;
        srv__ddl_free(d);
        return SRV_DDL_DONE;
    }
    if (getrandom(d->uuid, sizeof d->uuid, 0) != (ssize_t)sizeof d->uuid) {
        /* No entropy: a time-based marker is still unique enough per process. */
        int64_t t = cm_now_wall_us();
        memcpy(d->uuid, &t, sizeof t);
        memcpy(d->uuid + 8, &d, sizeof(void *) < 8 ? sizeof(void *) : 8);
    }
    d->attempts = 1;
    if (cat_store_head(cl->store, srv__head_cb, d, err) != 0) {
        d->c = NULL;
        srv__ddl_free(d);
        return SRV_DDL_ERROR;
    }
    c->ddl = d;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return SRV_DDL_BUSY;
}

bool srv_catalog_hold(srv_conn_t *c)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL || cl->store == NULL)
        return false;
    uint64_t acked = atomic_load(&c->lp->srv->cat_acked);
    if (cat_snap_index(cl->snap) >= acked)
        return false;
    srv_ddl_t *d = cm_calloc(1, sizeof *d);
    d->cl = cl;
    d->c = c;
    d->hold = true;
    cm_arena_init(&d->arena, 0);
    c->ddl = d;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    srv__ddl_wait(d, acked);
    return c->state == SRV_CONN_BUSY;
}

void srv_catalog_conn_free(srv_conn_t *c)
{
    if (c->ddl) {
        c->ddl->c = NULL;
        c->ddl = NULL;
    }
    if (c->catc) {
        srv__catconn_clear(c->catc);
        free(c->catc);
        c->catc = NULL;
    }
}
