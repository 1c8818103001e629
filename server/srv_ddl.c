/*
 * srv_ddl.c: the path of a DDL statement (DESIGN §2, §4): plan against the
 * loop's snapshot, read the head (or use the one the loop knows), wait
 * until the snapshot reached it, plan again there, commit one atomic change
 * with one request UUID, retry a lost race after catching up (bounded), and
 * acknowledge only once the loop's snapshot holds the commit and every
 * worker applied it, so the session reads its own writes.
 *
 * When the store is unreachable (cluster mode), a failed store call is
 * retried with backoff until --ddl-timeout-ms; a commit whose answer was
 * lost is resolved through its request marker before anything is planned
 * again; at the deadline the client gets 57P03 naming the store. The loop's
 * timer runs deadlines, retries and failed log re-reads. A DDL in flight
 * belongs to a connection that is BUSY; when the connection goes away (or
 * the deadline answered it) first, the operation is detached and finishes
 * on its own (a commit, once sent, has its effect either way).
 *
 * The same operations hold a statement until this loop caught up with DDL
 * acknowledged elsewhere (srv_ddl_hold) and look for a missing name again
 * at the store's head (srv_ddl_recheck). Every operation ends through the
 * callback its caller gave (srv_ddl_done_cb, srv_recheck_cb), or resumes
 * the connection; it calls srv_catalog.c's waits, never the other way.
 */
#include "server/srv_cat_int.h"
#include "server/srv_metrics.h"
#include "server/srv_zk.h"

#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

#define SRV_DDL_ATTEMPTS_MAX 16   /* commits lost to concurrent DDL before giving up, when the store sets no commit_attempts_max */
#define SRV_DDL_TICK_MS 50        /* deadline and retry resolution of the loop's timer */
#define SRV_DDL_BACKOFF_MIN_MS 50 /* first retry of a store call that failed; doubles */
#define SRV_DDL_BACKOFF_MAX_MS 1000

typedef struct srv_ddl srv_ddl_t;

/* One loop's DDL operations, and what it knows of the store's head. */
struct srv_ddl_loop {
    srv_loop_t *lp;
    srv_ddl_t *active;            /* every operation of this loop, for deadlines and retries */
    uv_timer_t timer;             /* runs while `active` is not empty */
    bool timer_on;
    bool closed;
    /* The head as this loop last learned it (a head read, or its own commit, which
     * moves the store's version by one): a DDL planned at that index commits at once
     * instead of reading the head first; a wrong guess costs a CONFLICT and a retry. */
    cat_head_t known;
    bool known_ok;
};

/* One operation: a DDL statement, a transaction block's COMMIT, a hold or a recheck. */
struct srv_ddl {
    srv_ddl_t *prev_active, *next_active;
    srv_cat_loop_t *cl;
    srv_ddl_loop_t *dl;
    srv_conn_t *c;                /* NULL once detached */
    srv_ddl_done_cb done;         /* a DDL's or COMMIT's answer */
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
    srv_cat_wait_t wait;          /* for the loop's snapshot to reach wait_index */
    uint64_t wait_index;
    bool committed;               /* the wait is for our own commit, not for a head */
    bool hold;                    /* not a DDL: a statement waiting for this loop to catch up */
    srv_recheck_cb recheck;       /* a hold for a missing name (srv_ddl_recheck): runs at its end */
    bool applied_asked;           /* committed: waiting (or waited) for every worker to apply it */
    bool call_out;                /* a store call's callback is still to come */
    bool commit_out;              /* ... and it is a commit */
    bool ambiguous;               /* a commit's answer was lost: it may have been applied */
    int64_t deadline_us;          /* the client is answered 57P03 then, if not before */
    int64_t retry_at_us;          /* 0, or when to try again after a store failure */
    int backoff_ms;
    int64_t started_us;           /* for the latency histograms (srv_metrics.h) */
    int64_t commit_sent_us;
    cm_err_t last_err;            /* the last store failure, for the timeout's detail */
};

static void srv__timer_need(srv_ddl_loop_t *dl);
static void srv__timer_soon(srv_ddl_loop_t *dl, int ms);

/* ------------------------------------------------------------ DDL */

static void srv__ddl_free(srv_ddl_t *d)
{
    if (d->c != NULL && d->c->ddl == d)
        d->c->ddl = NULL;
    srv_cat_loop_t *cl = d->cl;
    srv_ddl_loop_t *dl = d->dl;
    if (d->prev_active)
        d->prev_active->next_active = d->next_active;
    else if (dl->active == d)
        dl->active = d->next_active;
    if (d->next_active)
        d->next_active->prev_active = d->prev_active;
    cl->ops--;
    if (d->commit)
        cat_commit_free(d->commit);
    srv_txn_free(d->txn);
    if (d->change)
        cat_change_free(d->change);
    cm_err_clear(&d->last_err);
    cm_arena_free(&d->arena);
    free(d);
    srv_catalog_loop_quiet(cl->lp);
}

static srv_ddl_t *srv__ddl_new(srv_cat_loop_t *cl, srv_conn_t *c)
{
    srv_ddl_loop_t *dl = cl->lp->ddl;
    srv_ddl_t *d = cm_calloc(1, sizeof *d);
    d->cl = cl;
    d->dl = dl;
    d->c = c;
    cm_arena_init(&d->arena, 0);
    d->started_us = cm_now_mono_us();
    d->deadline_us = d->started_us + (int64_t)cl->lp->srv->cfg.ddl_timeout_ms * 1000;
    d->backoff_ms = SRV_DDL_BACKOFF_MIN_MS;
    d->next_active = dl->active;
    if (dl->active)
        dl->active->prev_active = d;
    dl->active = d;
    cl->ops++;
    srv__timer_need(dl);
    return d;
}

static void srv__send_notices(srv_conn_t *c, const cat_change_t *ch)
{
    for (size_t i = 0; ch && i < cat_change_notice_count(ch); i++) {
        cm_err_t n = *cat_change_notice(ch, i);
        if (n.severity != CM_SEV_WARNING)
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
        srv_recheck_cb recheck = d->recheck;
        c->ddl = NULL;
        d->c = NULL;
        srv__ddl_free(d);
        if (err)
            cm_err_clear(err);   /* a recheck that waited in vain: the statement gives its own answer */
        srv_conn_set_state(c, SRV_CONN_READY);
        if (recheck != NULL)
            recheck(c);
        srv_conn_resume(c);
        return;
    }
    if (c != NULL) {
        c->ddl = NULL;
        d->c = NULL;
        srv_metrics_observe(SRV_HIST_DDL, cm_now_mono_us() - d->started_us);
        if (err == NULL)
            srv__send_notices(c, d->change);
        const char *tag = d->tag;
        srv_ddl_done_cb done = d->done;
        srv__ddl_free(d);
        srv_conn_set_state(c, SRV_CONN_READY);
        done(c, err, tag);
        return;
    }
    if (err)
        cm_err_clear(err);
    srv__ddl_free(d);
}

/* Errors after which the same step may work a little later: the store is
 * unreachable, busy or between sessions. Anything else is the answer. */
static bool srv__store_err_transient(const cm_err_t *err)
{
    if (err == NULL || !err->set)
        return true;
    return strncmp(err->sqlstate, "08", 2) == 0 || strncmp(err->sqlstate, "53", 2) == 0 ||
           strcmp(err->sqlstate, "57P03") == 0 || strcmp(err->sqlstate, "58000") == 0;
}

/* A store call failed for now: try again after a backoff, until the deadline. */
static void srv__ddl_backoff(srv_ddl_t *d, const cm_err_t *err)
{
    if (d->c == NULL || d->cl->store == NULL) {
        srv__ddl_finish(d, NULL);
        return;
    }
    cm_err_clear(&d->last_err);
    cm_err_set(&d->last_err, err && err->set ? err->sqlstate : "58000", "%s",
               err && err->message ? err->message : "the catalog store did not answer");
    d->retry_at_us = cm_now_mono_us() + (int64_t)d->backoff_ms * 1000;
    d->backoff_ms = d->backoff_ms * 2 > SRV_DDL_BACKOFF_MAX_MS ? SRV_DDL_BACKOFF_MAX_MS : d->backoff_ms * 2;
    srv__timer_need(d->dl);
}

/* A store error answers the statement, unless it is one to wait out. */
static void srv__ddl_store_failed(srv_ddl_t *d, const cm_err_t *err)
{
    if (srv__store_err_transient(err) && d->cl->store != NULL) {
        srv__ddl_backoff(d, err);
        return;
    }
    cm_err_t e = {0};
    cm_err_set(&e, err && err->set ? err->sqlstate : CM_ERRCODE_INTERNAL_ERROR, "%s",
               err && err->message ? err->message : "catalog store failed");
    if (err && err->detail)
        cm_err_set_detail(&e, "%s", err->detail);
    if (err && err->hint)
        cm_err_set_hint(&e, "%s", err->hint);
    srv__ddl_finish(d, &e);
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
static void srv__ddl_lost_race(srv_ddl_t *d);
static void srv__ddl_lookup(srv_ddl_t *d);
static void srv__ddl_waited(srv_ddl_t *d);

/* srv_cat_wait_cb: the snapshot reached the index, or the loop's catalog closed. */
static void srv__ddl_waited_cb(void *arg, bool closing)
{
    srv_ddl_t *d = arg;
    if (closing) {
        d->c = NULL;
        srv__ddl_finish(d, NULL);
        return;
    }
    srv__ddl_waited(d);
}

static void srv__ddl_wait(srv_ddl_t *d, uint64_t index)
{
    d->wait_index = index;
    srv_catalog_wait(d->cl, &d->wait, index, srv__ddl_waited_cb, d);
}

static void srv__commit_cb(void *arg, cat_store_status_t st, uint64_t index, const char *name_key,
                           const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    d->call_out = d->commit_out = false;
    srv_metrics_observe(SRV_HIST_CATALOG_COMMIT, cm_now_mono_us() - d->commit_sent_us);
    if (st == CAT_STORE_OK && d->commit != NULL && cat_snap_index(d->cl->snap) + 1 == index) {
        /* Our own entry, just committed at the next index: apply it here
         * instead of reading it back (a log read skips it later). */
        const cat_store_commit_t *sc = cat_commit_store(d->commit);
        cm_err_t e = {0};
        if (!cat_snap_apply(d->cl->snap, sc->entry, sc->entry_len, &e))
            cm_log_warn("catalog: own entry %llu does not apply here (%s); reading the log",
                        (unsigned long long)index, e.message ? e.message : "?");
        cm_err_clear(&e);
    }
    cat_commit_free(d->commit);
    d->commit = NULL;
    d->dl->known_ok = st == CAT_STORE_OK;
    if (st == CAT_STORE_OK)
        d->dl->known = (cat_head_t){.index = index, .version = d->head.version + 1};
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
        srv__ddl_lost_race(d);
        return;
    default:
        /* The answer may have been lost after the transaction was applied:
         * its request marker says, before anything is planned again. */
        if (srv__store_err_transient(err))
            d->ambiguous = true;
        srv__ddl_store_failed(d, err);
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
                   d->tag, (unsigned long long)d->wait_index, d->cl->lp->srv->cfg.ddl_apply_timeout_ms);
        cm_err_set_detail(&e, "The change is durable and the workers will apply it; it is not rolled back.");
        cm_err_set_hint(&e, "Later statements of this session wait until the workers have applied it.");
    } else {
        cm_err_set(&e, err->sqlstate, "%s", err->message);
    }
    srv__ddl_finish(d, &e);
}

static void srv__lookup_cb(void *arg, cat_store_status_t st, uint64_t index, const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    d->call_out = false;
    if (st == CAT_STORE_OK) {
        /* It was applied: exactly once, at `index`. */
        d->committed = true;
        srv__ddl_wait(d, index);
        return;
    }
    if (st == CAT_STORE_NOT_FOUND) {
        if (d->c == NULL) {
            srv__ddl_finish(d, NULL);
        } else if (d->last_err.set && !srv__store_err_transient(&d->last_err)) {
            /* Planning failed and our earlier commit is not the reason: that is the answer. */
            cm_err_t e = {0};
            cm_err_move(&e, &d->last_err);
            srv__ddl_finish(d, &e);
        } else {
            srv__ddl_attempt(d);
        }
        return;
    }
    srv__ddl_store_failed(d, err);
}

/* Asks the store whether our request marker exists (a commit was ambiguous). */
static void srv__ddl_lookup(srv_ddl_t *d)
{
    cm_err_t e = {0};
    d->call_out = true;
    if (cat_store_request_lookup(d->cl->store, d->uuid, srv__lookup_cb, d, &e) != 0) {
        d->call_out = false;
        srv__ddl_store_failed(d, &e);
    }
    cm_err_clear(&e);
}

/* The snapshot reached the index waited for: either a head to plan at, or our commit. */
/* Sends d's built commit; both kinds of run (statement, transaction) commit
 * so, and a send that fails is answered or backed off like any store failure. */
static void srv__ddl_send_commit(srv_ddl_t *d, cm_err_t *e)
{
    d->call_out = d->commit_out = true;
    d->commit_sent_us = cm_now_mono_us();
    srv_sync_linger(d->cl->lp);
    if (cat_store_commit(d->cl->store, cat_commit_store(d->commit), srv__commit_cb, d, e) != 0) {
        d->call_out = d->commit_out = false;
        srv__ddl_store_failed(d, e);
    }
    cm_err_clear(e);
}

/* The run failed (e) when built at a fresh head. After an ambiguous commit
 * our own lost commit may be why (the name exists, the object is gone), so
 * the request marker decides; otherwise e answers the statement. */
static void srv__ddl_failed_at_head(srv_ddl_t *d, cm_err_t *e)
{
    if (d->ambiguous) {
        cm_err_clear(&d->last_err);
        cm_err_move(&d->last_err, e);
        srv__ddl_lookup(d);
        return;
    }
    srv__ddl_finish(d, e);
}

static void srv__ddl_waited(srv_ddl_t *d)
{
    cm_err_t e = {0};
    if (d->c == NULL || d->c->state != SRV_CONN_BUSY) {
        srv__ddl_finish(d, NULL);
        return;
    }
    if ((d->committed || d->recheck) && !d->applied_asked) {
        /* Our commit (or the head a missing name waits for) is in this loop's
         * snapshot; now the workers must apply it. */
        d->applied_asked = true;
        int ms = d->cl->lp->srv->cfg.ddl_apply_timeout_ms;
        if (d->recheck) {
            /* What is left of the recheck's own bound. */
            int64_t left = (d->deadline_us - cm_now_mono_us()) / 1000;
            ms = left < 1 ? 1 : (int)left;
        }
        if (!srv_sync_wait(d->cl->lp, d->wait_index, ms, srv__ddl_applied_cb, d))
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
    if (d->txn) {
        d->commit = srv_txn_build(d->txn, d->c, d->cl->snap, &d->head, d->uuid, &d->cl->store->limits, &e);
        if (d->commit == NULL) {
            srv__ddl_failed_at_head(d, &e);
            return;
        }
        srv__ddl_send_commit(d, &e);
        return;
    }
    if (!srv__ddl_plan(d, &e)) {
        srv__ddl_failed_at_head(d, &e);
        return;
    }
    if (cat_change_op_count(d->change) == 0) {
        srv__ddl_finish(d, NULL);
        return;
    }
    d->commit = cat_commit_build(d->change, d->cl->snap, &d->head, d->uuid, d->tag, srv_roles_entry_sql(d->tag, d->sql),
                                 &d->cl->store->limits, &e);
    if (d->commit == NULL) {
        srv__ddl_finish(d, &e);
        return;
    }
    srv__ddl_send_commit(d, &e);
}

static void srv__head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    d->call_out = false;
    if (st != CAT_STORE_OK) {
        srv__ddl_store_failed(d, err);
        return;
    }
    if (head->index < cat_snap_index(d->cl->snap)) {
        /* Log indexes only grow: this is not the catalog this server follows. */
        cm_err_t e = {0};
        cm_log_error("catalog store \"%s\" is at index %llu, behind this server's catalog at %llu: it was wiped "
                     "or replaced; refusing DDL", d->cl->store->ops->name, (unsigned long long)head->index,
                     (unsigned long long)cat_snap_index(d->cl->snap));
        cm_err_set(&e, CM_ERRCODE_INTERNAL_ERROR,
                   "catalog store \"%s\" holds a different catalog (index %llu, this server has %llu)",
                   d->cl->store->ops->name, (unsigned long long)head->index,
                   (unsigned long long)cat_snap_index(d->cl->snap));
        cm_err_set_hint(&e, "The store was wiped or replaced; restart eddy to serve the catalog it holds now.");
        srv__ddl_finish(d, &e);
        return;
    }
    d->head = *head;
    d->dl->known = *head;
    d->dl->known_ok = true;
    srv__ddl_wait(d, head->index);
}

/* Reads the head to plan at (again). */
static void srv__ddl_attempt(srv_ddl_t *d)
{
    cm_err_t e = {0};
    if (d->c == NULL || d->cl->store == NULL) {
        srv__ddl_finish(d, NULL);
        return;
    }
    d->call_out = true;
    srv_sync_linger(d->cl->lp);
    if (cat_store_head(d->cl->store, srv__head_cb, d, &e) != 0) {
        d->call_out = false;
        srv__ddl_store_failed(d, &e);
    }
    cm_err_clear(&e);
}

/*
 * A concurrent commit won: retry after the store's jittered backoff (the
 * first retry at once), so that processes racing for the head spread out
 * instead of colliding again; give up after the store's commit_attempts_max
 * with 40001.
 */
static void srv__ddl_lost_race(srv_ddl_t *d)
{
    if (d->c == NULL || d->cl->store == NULL) {
        srv__ddl_finish(d, NULL);
        return;
    }
    int max = d->cl->store->limits.commit_attempts_max > 0 ? d->cl->store->limits.commit_attempts_max
                                                          : SRV_DDL_ATTEMPTS_MAX;
    if (++d->attempts > max) {
        cm_err_t e = {0};
        cm_err_set(&e, "40001", "could not commit %s: the catalog kept changing", d->tag);
        srv__ddl_finish(d, &e);
        cm_err_clear(&e);
        return;
    }
    int wait_ms = cat_store_commit_backoff_ms(d->cl->store, d->attempts);
    if (wait_ms <= 0) {
        srv__ddl_attempt(d);
        return;
    }
    d->retry_at_us = cm_now_mono_us() + (int64_t)wait_ms * 1000;
    srv__timer_soon(d->dl, wait_ms);
}

/* The loop's timer found the retry time of a DDL that waited out a failure. */
static void srv__ddl_retry(srv_ddl_t *d)
{
    d->retry_at_us = 0;
    if (d->c == NULL || d->cl->store == NULL)
        srv__ddl_finish(d, NULL);
    else if (d->ambiguous && !d->committed)
        srv__ddl_lookup(d);
    else
        srv__ddl_attempt(d);
}

/* The deadline passed with the client still waiting. */
static void srv__ddl_timeout(srv_ddl_t *d)
{
    srv_cat_loop_t *cl = d->cl;
    int ms = cl->lp->srv->cfg.ddl_timeout_ms;
    if (d->hold && d->call_out) {
        /* A recheck whose head read is still out: the statement goes on now,
         * the operation ends when the read comes back. */
        srv_conn_t *c = d->c;
        srv_recheck_cb recheck = d->recheck;
        d->c = NULL;
        c->ddl = NULL;
        srv_conn_set_state(c, SRV_CONN_READY);
        recheck(c);
        srv_conn_resume(c);
        return;
    }
    if (d->hold) {
        /* A statement waiting for this loop to catch up with DDL acknowledged
         * elsewhere: it runs against what the loop knows rather than not at all. */
        cm_log_warn("catalog: this loop could not catch up within %d ms; going on at index %llu", ms,
                    (unsigned long long)cat_snap_index(cl->snap));
        srv_catalog_wait_cancel(cl, &d->wait);
        srv__ddl_finish(d, NULL);
        return;
    }
    cm_err_t e = {0};
    const char *store = cl->store ? cl->store->ops->name : "catalog";
    cm_err_set(&e, "57P03", "catalog store \"%s\" is unavailable: %s was not committed within %d ms", store,
               d->tag, ms);
    const char *why = d->last_err.set && d->last_err.message ? d->last_err.message : "no answer";
    if (d->committed)
        cm_err_set_detail(&e, "The change was committed, but this server could not read it back in time (%s).", why);
    else if (d->commit_out || d->ambiguous)
        cm_err_set_detail(&e, "The change may or may not have been committed; it is never applied twice. Last "
                          "error: %s", why);
    else
        cm_err_set_detail(&e, "Nothing was committed. Last error: %s", why);
    cm_err_set_hint(&e, "Reading the catalog keeps working; DDL works again once the store is reachable.");
    if (!d->call_out && !d->wait.waiting) {
        srv__ddl_finish(d, &e);
        return;
    }
    /* A call or a wait is still out: the client hears now, the operation ends
     * when that comes back (a commit once sent has its effect either way). */
    srv_conn_t *c = d->c;
    d->c = NULL;
    c->ddl = NULL;
    srv_conn_set_state(c, SRV_CONN_READY);
    d->done(c, &e, d->tag);
}

/* The loop's DDL timer: deadlines and retries of its operations. */
static void srv__timer_cb(uv_timer_t *t)
{
    srv_ddl_loop_t *dl = t->data;
    int64_t now = cm_now_mono_us();
    /* One due operation at a time, from the top: acting on one may end others. */
    for (;;) {
        srv_ddl_t *due = NULL;
        bool timeout = false;
        for (srv_ddl_t *d = dl->active; d && !due; d = d->next_active) {
            /* Once committed and waiting for the workers, their own timeout applies. */
            if (d->c != NULL && !d->applied_asked && now >= d->deadline_us)
                due = d, timeout = true;
            else if (d->retry_at_us != 0 && now >= d->retry_at_us)
                due = d;
        }
        if (due == NULL)
            break;
        if (timeout)
            srv__ddl_timeout(due);
        else
            srv__ddl_retry(due);
    }
    if (dl->active == NULL) {
        uv_timer_stop(&dl->timer);
        dl->timer_on = false;
    }
}

/* Makes the loop's timer fire within ms (a retry due sooner than its tick). */
static void srv__timer_soon(srv_ddl_loop_t *dl, int ms)
{
    if (dl->closed || dl->lp->cat->store == NULL)
        return;
    dl->timer_on = true;
    uv_timer_start(&dl->timer, srv__timer_cb, (uint64_t)ms, SRV_DDL_TICK_MS);
}

/* Starts the loop's timer unless it runs. */
static void srv__timer_need(srv_ddl_loop_t *dl)
{
    if (dl->timer_on || dl->closed || dl->lp->cat->store == NULL)
        return;
    dl->timer_on = true;
    uv_timer_start(&dl->timer, srv__timer_cb, SRV_DDL_TICK_MS, SRV_DDL_TICK_MS);
}

/*
 * Cluster mode: a DDL is acknowledged only once this process's workers
 * applied it, and a standby's workers run nothing (its sequencer waits for
 * ownership), so it could only time out. Refused at once instead, before
 * anything is committed, naming the cluster: the client can go to the
 * owner, or retry here after a takeover.
 */
static bool srv__ddl_owner_check(srv_conn_t *c, const char *tag, cm_err_t *err)
{
    srv_zk_t *zk = c->lp->srv->zk;
    if (zk == NULL || c->lp->srv->seq == NULL)
        return true;
    srv_zk_cluster_t *cc = srv_zk_cluster(zk);
    if (srv_zk_cluster_role(cc, NULL) == CAT_ZK_ROLE_OWNER)
        return true;
    cm_err_set(err, "57P03", "this eddy process is a standby for cluster \"%s\"", srv_zk_cluster_name(cc));
    cm_err_set_detail(err, "Nothing was committed (%s): the cluster's workers run only on its owner.", tag);
    cm_err_set_hint(err, "Run it on the owning process, or here once this process has taken over.");
    return false;
}

/* Marks a DDL run for the commit log; both entry points that commit need one. */
static void srv__ddl_new_uuid(srv_ddl_t *d)
{
    if (getrandom(d->uuid, sizeof d->uuid, 0) != (ssize_t)sizeof d->uuid) {
        /* No entropy: a time-based marker is still unique enough per process. */
        int64_t t = cm_now_wall_us();
        memcpy(d->uuid, &t, sizeof t);
        memcpy(d->uuid + 8, &d, sizeof(void *) < 8 ? sizeof(void *) : 8);
    }
}

/*
 * What every entry point does after its first store call (rc its result):
 * on success or a failure to wait out, the connection waits busy for the
 * answer; any other failure answers the statement now.
 */
static srv_ddl_rc_t srv__ddl_started(srv_conn_t *c, srv_ddl_t *d, int rc, cm_err_t *err)
{
    if (rc != 0) {
        d->call_out = d->commit_out = false;
        if (!srv__store_err_transient(err)) {
            d->c = NULL;
            srv__ddl_free(d);
            return SRV_DDL_ERROR;
        }
        srv__ddl_backoff(d, err);
        cm_err_clear(err);
    }
    c->ddl = d;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    srv_sync_linger(c->lp);
    return SRV_DDL_BUSY;
}

/* Starts d, a statement's change or a transaction's DDL: at the head this
 * loop knows it is built and committed at once, without reading the head
 * (a wrong guess costs a CONFLICT and a retry from a head read); otherwise
 * the head is read first. */
static srv_ddl_rc_t srv__ddl_begin(srv_conn_t *c, srv_ddl_t *d, cm_err_t *err)
{
    srv_cat_loop_t *cl = d->cl;
    srv__ddl_new_uuid(d);
    d->attempts = 1;
    if (d->dl->known_ok && d->dl->known.index == cat_snap_index(cl->snap)) {
        d->head = d->dl->known;
        d->commit = d->txn ? srv_txn_build(d->txn, c, cl->snap, &d->head, d->uuid, &cl->store->limits, err)
                           : cat_commit_build(d->change, cl->snap, &d->head, d->uuid, d->tag, srv_roles_entry_sql(d->tag, d->sql),
                                              &cl->store->limits, err);
        if (d->commit == NULL) {
            d->c = NULL;
            srv__ddl_free(d);
            return SRV_DDL_ERROR;
        }
        d->call_out = d->commit_out = true;
        return srv__ddl_started(c, d, cat_store_commit(cl->store, cat_commit_store(d->commit), srv__commit_cb, d, err), err);
    }
    d->call_out = true;
    return srv__ddl_started(c, d, cat_store_head(cl->store, srv__head_cb, d, err), err);
}

srv_ddl_rc_t srv_ddl_run(srv_conn_t *c, const pln_stmt_t *st, const char *sql, srv_ddl_done_cb done, cm_err_t *err)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL || cl->store == NULL)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s needs the catalog", st->tag), SRV_DDL_ERROR;
    srv_ddl_t *d = srv__ddl_new(cl, c);
    d->done = done;
    d->st = st;
    d->sql = sql;
    d->tag = st->tag;
    /* Validation against what this loop knows answers errors and no-ops at
     * once; a change is validated again at the head it commits on. */
    if (!srv__ddl_plan(d, err)) {
        /* What the statement warned of before it failed is sent first, as PostgreSQL's are. */
        srv__send_notices(c, d->change);
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
    if (!srv__ddl_owner_check(c, st->tag, err)) {
        d->c = NULL;
        srv__ddl_free(d);
        return SRV_DDL_ERROR;
    }
    return srv__ddl_begin(c, d, err);
}

bool srv_ddl_hold(srv_conn_t *c)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL || cl->store == NULL)
        return false;
    uint64_t acked = atomic_load(&c->lp->srv->cat_acked);
    if (cat_snap_index(cl->snap) >= acked)
        return false;
    srv_ddl_t *d = srv__ddl_new(cl, c);
    d->hold = true;
    c->ddl = d;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    srv__ddl_wait(d, acked);
    return c->state == SRV_CONN_BUSY;
}

static void srv__recheck_head_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cm_err_t *err)
{
    srv_ddl_t *d = arg;
    d->call_out = false;
    /* Gone, unreadable or not ahead: the statement's own answer stands. */
    if (d->c == NULL || st != CAT_STORE_OK || head->index <= cat_snap_index(d->cl->snap)) {
        srv__ddl_finish(d, NULL);
        return;
    }
    srv__ddl_wait(d, head->index);
}

bool srv_ddl_recheck(srv_conn_t *c, srv_recheck_cb done)
{
    srv_cat_loop_t *cl = c->lp->cat;
    /* Laptop mode has one store that every loop applies before answering DDL. */
    if (cl == NULL || cl->store == NULL || c->lp->srv->zk == NULL)
        return false;
    srv_ddl_t *d = srv__ddl_new(cl, c);
    d->hold = true;
    d->recheck = done;
    d->deadline_us = cm_now_mono_us() + (int64_t)c->lp->srv->cfg.name_recheck_timeout_ms * 1000;
    cm_err_t e = {0};
    d->call_out = true;
    if (cat_store_head(cl->store, srv__recheck_head_cb, d, &e) != 0) {
        cm_err_clear(&e);
        d->c = NULL;
        srv__ddl_free(d);
        return false;
    }
    c->ddl = d;
    srv_conn_set_state(c, SRV_CONN_BUSY);
    return true;
}

srv_ddl_rc_t srv_ddl_commit_txn(srv_conn_t *c, srv_txn_t *t, srv_ddl_done_cb done, cm_err_t *err)
{
    srv_cat_loop_t *cl = c->lp->cat;
    if (cl == NULL || cl->store == NULL) {
        srv_txn_free(t);
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "COMMIT of DDL needs the catalog"), SRV_DDL_ERROR;
    }
    if (!srv__ddl_owner_check(c, "COMMIT", err)) {
        srv_txn_free(t);
        return SRV_DDL_ERROR;
    }
    srv_ddl_t *d = srv__ddl_new(cl, c);
    d->done = done;
    d->tag = "COMMIT";
    d->txn = t;
    return srv__ddl_begin(c, d, err);
}

/* A connection that goes away leaves its operation, if any, to finish on its own. */
void srv_ddl_conn_free(srv_conn_t *c)
{
    if (c->ddl) {
        c->ddl->c = NULL;
        c->ddl = NULL;
    }
}

/* ------------------------------------------------------------ a loop's operations */

void srv_ddl_loop_init(srv_loop_t *lp)
{
    srv_ddl_loop_t *dl = cm_calloc(1, sizeof *dl);
    dl->lp = lp;
    uv_timer_init(&lp->uv, &dl->timer);
    dl->timer.data = dl;
    lp->ddl = dl;
}

void srv_ddl_loop_close(srv_loop_t *lp)
{
    srv_ddl_loop_t *dl = lp->ddl;
    if (dl == NULL || dl->closed)
        return;
    /* What is left waits for a retry that will not come: the store is closed. */
    while (dl->active) {
        dl->active->c = NULL;
        srv__ddl_finish(dl->active, NULL);
    }
    dl->closed = true;
    uv_timer_stop(&dl->timer);
    uv_close((uv_handle_t *)&dl->timer, NULL);
}

void srv_ddl_loop_free(srv_loop_t *lp)
{
    free(lp->ddl);
    lp->ddl = NULL;
}
