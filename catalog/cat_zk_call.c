/*
 * cat_zk_call.c: the life of a store_zk call (see cat_zk_int.h): a request
 * is sent when the handle is ready or parked until it is; once all of a
 * step's completions are back it is answered, or, when the connection or
 * session failed under it, started again (a commit first resolves through
 * its marker); at its deadline it is answered with 58000. A request is
 * taken out of the handle's lists before its callback runs, so nothing
 * answers it twice, and freed by whoever sees it last: the answer or the
 * last completion the library owes.
 */
#include "catalog/cat_zk_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------- requests */

cat__zk_req_t *cat__zk_req_new(cat__zk_store_t *s, cat__zk_kind_t kind, void (*fn)(void), void *arg)
{
    cat__zk_req_t *r = cm_calloc(1, sizeof(*r));
    r->s = s;
    r->kind = kind;
    r->fn = fn;
    r->arg = arg;
    return r;
}

void cat__zk_req_free_reads(cat__zk_req_t *r)
{
    for (size_t i = 0; i < r->n; i++) {
        if (r->data)
            free(r->data[i]);
        if (r->keys)
            free(r->keys[i]);
    }
    free(r->data);
    free(r->len);
    free(r->keys);
    free(r->slots);
    free(r->ctime);
    r->data = NULL;
    r->len = NULL;
    r->keys = NULL;
    r->slots = NULL;
    r->ctime = NULL;
    r->n = 0;
}

void cat__zk_req_free(cat__zk_req_t *r)
{
    cat__zk_req_free_reads(r);
    for (size_t i = 0; r->paths && i < r->nops; i++)
        free(r->paths[i]);
    free(r->paths);
    free(r->ops);
    free(r->results);
    free(r->op_keys);
    free(r->buf);
    free(r);
}

void cat__zk_req_alloc_reads(cat__zk_req_t *r, size_t n)
{
    r->n = n;
    r->slots = cm_calloc(n ? n : 1, sizeof(cat__zk_slot_t));
    r->data = cm_calloc(n ? n : 1, sizeof(uint8_t *));
    r->len = cm_calloc(n ? n : 1, sizeof(size_t));
    r->keys = cm_calloc(n ? n : 1, sizeof(char *));
    r->ctime = cm_calloc(n ? n : 1, sizeof(int64_t));
    for (size_t i = 0; i < n; i++)
        r->slots[i] = (cat__zk_slot_t){r, i};
}

int cat__zk_sent(cat__zk_req_t *r, int rc)
{
    if (rc == ZOK) {
        r->outstanding++;
        r->s->pending++;
    }
    return rc;
}

bool cat__zk_arrived(cat__zk_req_t *r, int rc)
{
    CM_ASSERT(r->outstanding > 0);
    r->outstanding--;
    r->s->pending--;
    if (rc != ZOK && r->rc == ZOK)
        r->rc = rc;
    return r->outstanding == 0;
}

static void zk_unlink(cat__zk_req_t **head, cat__zk_req_t *r, bool parked)
{
    for (cat__zk_req_t **pp = head; *pp; pp = parked ? &(*pp)->next_parked : &(*pp)->next_live) {
        if (*pp == r) {
            *pp = parked ? r->next_parked : r->next_live;
            return;
        }
    }
}

/*
 * Takes r out of the store's lists before its callback runs, so nothing
 * answers it twice. True when completions are still owed: the last of them
 * frees r, which may happen during the callback (the callback closed the
 * handle), so the caller must not touch r after calling back.
 */
static bool zk_answer(cat__zk_req_t *r)
{
    CM_ASSERT(!r->answered);
    r->answered = true;
    zk_unlink(&r->s->live, r, false);
    if (r->parked) {
        zk_unlink(&r->s->parked, r, true);
        r->parked = false;
    }
    return r->outstanding > 0;
}

void cat__zk_answered(cat__zk_req_t *r)
{
    if (!r->answered)
        (void)zk_answer(r);
    if (r->outstanding == 0)
        cat__zk_req_free(r);
}

void cat__zk_finish_head(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    cat_head_t h = r->h1;
    bool owed = zk_answer(r);
    ((cat_store_head_cb)(void *)r->fn)(r->arg, st, &h, err);
    if (!owed)
        cat__zk_req_free(r);
}

void cat__zk_finish_log(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    /* Only an error is answered while reads are still owed; an OK answer
     * comes once every read is back. */
    cat_log_entry_bytes_t *e = cm_calloc(r->n ? r->n : 1, sizeof(*e));
    size_t n = 0;
    if (st == CAT_STORE_OK) {
        CM_ASSERT(r->outstanding == 0);
        for (; n < r->n && r->data[n]; n++)
            e[n] = (cat_log_entry_bytes_t){.index = r->from + n, .data = r->data[n], .len = r->len[n]};
    }
    bool owed = zk_answer(r);
    ((cat_store_log_cb)(void *)r->fn)(r->arg, st, e, n, err);
    if (!owed)
        cat__zk_req_free(r);
    free(e);
}

void cat__zk_finish_snapshot(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    cat_kv_t *o = cm_calloc(r->n ? r->n : 1, sizeof(*o));
    size_t n = 0;
    if (st == CAT_STORE_OK)
        for (size_t i = 0; i < r->n; i++)
            o[n++] = (cat_kv_t){.key = r->keys[i], .data = r->data[i], .len = r->len[i]};
    cat_head_t h = r->h1;
    /* A snapshot is only answered OK once all its reads are back. */
    CM_ASSERT(st != CAT_STORE_OK || r->outstanding == 0);
    bool owed = zk_answer(r);
    if (owed)
        n = 0;   /* an early error answer: the reads stay with r */
    ((cat_store_snapshot_cb)(void *)r->fn)(r->arg, st, &h, o, n, err);
    if (!owed)
        cat__zk_req_free(r);
    free(o);
}

void cat__zk_finish_request(cat__zk_req_t *r, cat_store_status_t st, uint64_t index, const cm_err_t *err)
{
    bool owed = zk_answer(r);
    ((cat_store_request_cb)(void *)r->fn)(r->arg, st, index, err);
    if (!owed)
        cat__zk_req_free(r);
}

void cat__zk_finish_commit(cat__zk_req_t *r, cat_store_status_t st, uint64_t index, const char *key,
                           const cm_err_t *err)
{
    char keycopy[CAT__ZK_PATH_MAX];
    snprintf(keycopy, sizeof(keycopy), "%s", key ? key : "");
    bool owed = zk_answer(r);
    ((cat_store_commit_cb)(void *)r->fn)(r->arg, st, index, key ? keycopy : NULL, err);
    if (!owed)
        cat__zk_req_free(r);
}

void cat__zk_fail_err(cat__zk_req_t *r, const cm_err_t *err)
{
    switch (r->kind) {
    case CAT__ZK_HEAD: cat__zk_finish_head(r, CAT_STORE_ERROR, err); break;
    case CAT__ZK_LOG: cat__zk_finish_log(r, CAT_STORE_ERROR, err); break;
    case CAT__ZK_SNAPSHOT: cat__zk_finish_snapshot(r, CAT_STORE_ERROR, err); break;
    case CAT__ZK_COMMIT: cat__zk_finish_commit(r, CAT_STORE_ERROR, 0, NULL, err); break;
    case CAT__ZK_REQUEST: cat__zk_finish_request(r, CAT_STORE_ERROR, 0, err); break;
    case CAT__ZK_INTERNAL:
        if (r->outstanding == 0)
            cat__zk_req_free(r);
        break;
    }
}

void cat__zk_fail(cat__zk_req_t *r, int rc)
{
    cm_err_t err = {0};
    if (r->s->failed) {
        cm_err_set(&err, r->s->fail_err.sqlstate, "%s", r->s->fail_err.message);
    } else if (rc == ZCLOSING && r->s->closing) {
        cm_err_set(&err, CM_ERRCODE_ADMIN_SHUTDOWN, "catalog store \"zookeeper\" is closing");
    } else {
        cat__zk_err_rc(&err, rc);
        if (r->kind == CAT__ZK_COMMIT && r->multi_sent && cat__zk_rc_transient(r->s, rc))
            cm_err_set_detail(&err, "The change may or may not have been applied.");
    }
    cat__zk_fail_err(r, &err);
    cm_err_clear(&err);
}

/* ------------------------------------------------------------- sending, parking */

static int zk_start(cat__zk_req_t *r)
{
    r->rc = ZOK;
    switch (r->kind) {
    case CAT__ZK_HEAD: return cat__zk_head_send(r);
    case CAT__ZK_LOG: return cat__zk_log_send(r);
    case CAT__ZK_SNAPSHOT: return cat__zk_snapshot_send(r);
    case CAT__ZK_COMMIT: return cat__zk_commit_send(r);
    case CAT__ZK_REQUEST: return cat__zk_request_send(r);
    case CAT__ZK_INTERNAL: break;
    }
    CM_ASSERT(!"internal requests are never started here");
    return ZSYSTEMERROR;
}

static bool zk_sendable(const cat__zk_store_t *s)
{
    return s->ready && !s->failed && !s->closing && !s->expired && zoo_state(s->zh) == ZOO_CONNECTED_STATE;
}

static void zk_park(cat__zk_req_t *r)
{
    if (!r->parked) {
        r->parked = true;
        r->next_parked = r->s->parked;
        r->s->parked = r;
    }
}

/* Sends r now if the store is ready, else parks it; answers it when sending is refused for good. */
static void zk_start_or_park(cat__zk_req_t *r)
{
    if (!zk_sendable(r->s)) {
        zk_park(r);
        return;
    }
    int rc = zk_start(r);
    if (rc == ZOK || r->outstanding > 0)
        return;   /* sent (a failure after the first call finishes with the step) */
    if (cat__zk_rc_transient(r->s, rc))
        zk_park(r);
    else
        cat__zk_fail(r, rc);
}

bool cat__zk_settled(cat__zk_req_t *r)
{
    CM_ASSERT(r->outstanding == 0);
    if (r->answered) {
        cat__zk_req_free(r);
        return true;
    }
    if (r->kind == CAT__ZK_INTERNAL || !cat__zk_rc_transient(r->s, r->rc))
        return false;
    /* The connection or session failed under the step: start it again on
     * the next session; a commit first looks for its marker. */
    cat__zk_req_free_reads(r);
    if (r->kind == CAT__ZK_COMMIT && r->multi_sent)
        r->resolving = true;
    zk_start_or_park(r);
    return true;
}

void cat__zk_unpark_all(cat__zk_store_t *s)
{
    /* Oldest first: the list is newest first. */
    size_t n = 0;
    for (cat__zk_req_t *r = s->parked; r; r = r->next_parked)
        n++;
    if (n == 0)
        return;
    cat__zk_req_t **all = cm_calloc(n, sizeof(*all));
    size_t i = n;
    for (cat__zk_req_t *r = s->parked; r; r = r->next_parked)
        all[--i] = r;
    s->parked = NULL;
    for (i = 0; i < n; i++) {
        all[i]->parked = false;
        zk_start_or_park(all[i]);
    }
    free(all);
}

int cat__zk_submit(cat__zk_req_t *r, cm_err_t *err)
{
    cat__zk_store_t *s = r->s;
    if (s->failed) {
        cm_err_set(err, s->fail_err.sqlstate, "%s", s->fail_err.message);
        if (s->fail_err.hint)
            cm_err_set_hint(err, "%s", s->fail_err.hint);
        cat__zk_req_free(r);
        return -1;
    }
    if (s->closing || !s->ever_ready) {
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" is not connected yet");
        cat__zk_req_free(r);
        return -1;
    }
    r->deadline_ms = cat__zk_now_ms() + s->opt.op_timeout_ms;
    r->next_live = s->live;
    s->live = r;
    if (!zk_sendable(s)) {
        zk_park(r);
        return 0;
    }
    int rc = zk_start(r);
    if (rc == ZOK || r->outstanding > 0)
        return 0;
    if (cat__zk_rc_transient(s, rc)) {
        zk_park(r);
        return 0;
    }
    zk_unlink(&s->live, r, false);
    cat__zk_err_rc(err, rc);
    cat__zk_req_free(r);
    return -1;
}

/* Answers every user call whose deadline passed. */
void cat__zk_expire_calls(cat__zk_store_t *s)
{
    int64_t now = cat__zk_now_ms();
    for (;;) {
        cat__zk_req_t *due = NULL;
        for (cat__zk_req_t *r = s->live; r && !due; r = r->next_live)
            if (r->deadline_ms <= now)
                due = r;
        if (!due)
            return;
        cm_err_t err = {0};
        cm_err_set(&err, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\" did not answer within %d ms", s->opt.op_timeout_ms);
        if (due->kind == CAT__ZK_COMMIT && due->multi_sent) {
            cm_err_set_detail(&err, "The change may or may not have been applied.");
            cm_err_set_hint(&err, "Check whether the change is in the catalog before repeating it.");
        } else {
            cm_err_set_hint(&err, "Is ZooKeeper at %s reachable?", s->hosts);
        }
        cat__zk_fail_err(due, &err);
        cm_err_clear(&err);
    }
}

int cat__zk_next_deadline_ms(const cat__zk_store_t *s, int64_t now)
{
    int64_t best = INT64_MAX;
    for (const cat__zk_req_t *r = s->live; r; r = r->next_live)
        if (r->deadline_ms < best)
            best = r->deadline_ms;
    int64_t cluster = cat__zk_cluster_due_ms(s);
    if (cluster < best)
        best = cluster;
    if (best == INT64_MAX)
        return INT32_MAX;
    return best - now < 1 ? 1 : best - now > INT32_MAX ? INT32_MAX : (int)(best - now);
}

void cat__zk_fail_for_good(cat__zk_store_t *s, cm_err_t *why)
{
    if (s->failed) {
        cm_err_clear(why);
        return;
    }
    s->failed = true;
    s->ready = false;
    cm_err_move(&s->fail_err, why);
    cm_log_error("%s", s->fail_err.message);
    /* Every open call hears now; completions still owed free their requests. */
    while (s->live)
        cat__zk_fail_err(s->live, &s->fail_err);
}

void cat__zk_notify(cat__zk_store_t *s)
{
    if (s->base.notify && !s->closing && !s->failed)
        s->base.notify(s->base.notify_arg);
}

