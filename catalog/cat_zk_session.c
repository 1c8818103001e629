/*
 * cat_zk_session.c: store_zk's handle and session: open and close, the
 * session watcher, replacing an expired session by a new one, the loop
 * hooks, and the life of a user call (sent, parked while the store is not
 * ready, started again after a reconnect, answered with 58000 at its
 * deadline).
 *
 * The library is libzookeeper_st: nothing runs unless the owner's loop
 * calls cat_store_zk_process, and every completion and watcher runs inside
 * it. A session that expired cannot be closed from its own watcher, so the
 * watcher only marks it and the next process or interest call replaces it.
 */
#include "catalog/cat_zk_int.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

/* ------------------------------------------------------------- helpers */

void cat__zk_path(const cat__zk_store_t *s, char *out, const char *fmt, ...)
{
    int n = snprintf(out, CAT__ZK_PATH_MAX, "%s", s->root);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, CAT__ZK_PATH_MAX - (size_t)n, fmt, ap);
    va_end(ap);
}

void cat__zk_uuid_key(const uint8_t uuid[16], char out[33])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = hex[uuid[i] >> 4];
        out[2 * i + 1] = hex[uuid[i] & 15];
    }
    out[32] = 0;
}

/* Parses a decimal u64 stored as znode data (not NUL-terminated). */
bool cat__zk_parse_u64(const char *p, int len, uint64_t *out)
{
    if (!p || len <= 0 || len > 20)
        return false;
    uint64_t v = 0;
    for (int i = 0; i < len; i++) {
        if (p[i] == 0 && i > 0)
            break;
        if (p[i] < '0' || p[i] > '9' || v > (UINT64_MAX - 9) / 10)
            return false;
        v = v * 10 + (uint64_t)(p[i] - '0');
    }
    *out = v;
    return true;
}

int64_t cat__zk_now_ms(void)
{
    return cm_now_mono_us() / 1000;
}

void cat__zk_err_rc(cm_err_t *err, int rc)
{
    cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" failed: %s", zerror(rc));
}

bool cat__zk_rc_transient(const cat__zk_store_t *s, int rc)
{
    if (s->failed)
        return false;
    switch (rc) {
    case ZCONNECTIONLOSS:
    case ZOPERATIONTIMEOUT:
    case ZSESSIONEXPIRED:
    case ZSESSIONMOVED:
    case ZINVALIDSTATE:
        return !s->closing;
    case ZCLOSING:
        /* Closing an expired session to replace it, not the user closing. */
        return s->replacing && !s->closing;
    default:
        return false;
    }
}

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
static void zk_expire_calls(cat__zk_store_t *s)
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

static int zk_next_deadline_ms(const cat__zk_store_t *s, int64_t now)
{
    int64_t best = INT64_MAX;
    for (const cat__zk_req_t *r = s->live; r; r = r->next_live)
        if (r->deadline_ms < best)
            best = r->deadline_ms;
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

/* ------------------------------------------------------------- the session */

static void zk_session_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    cat__zk_store_t *s = ctx;
    if (type != ZOO_SESSION_EVENT || s->closing || s->replacing || zh != s->zh)
        return;
    s->generation++;   /* any session event may come with a new socket */
    if (state == ZOO_CONNECTED_STATE) {
        s->connected = true;
        if (!s->failed)
            cat__zk_meta_check(s, true);
    } else if (state == ZOO_EXPIRED_SESSION_STATE) {
        s->connected = false;
        s->ready = false;
        s->expired = true;
        cm_log_warn("catalog store \"zookeeper\": session 0x%llx expired; opening a new one",
                    (unsigned long long)zoo_client_id(zh)->client_id);
    } else if (state == ZOO_AUTH_FAILED_STATE) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\": authentication with %s failed",
                   s->hosts);
        cat__zk_fail_for_good(s, &why);
    } else {
        s->connected = false;
        s->ready = false;
    }
}

/* The library's own messages (mostly socket errors the store handles) go to
 * our log at info level; the store logs what it decides at warn and error. */
static void zk_library_log(const char *message)
{
    cm_log_info("zookeeper client: %s", message);
}

static bool zk_session_start(cat__zk_store_t *s)
{
    s->zh = zookeeper_init2(s->hosts, zk_session_watch, s->opt.session_timeout_ms, NULL, s, 0, zk_library_log);
    if (!s->zh)
        return false;
    s->sessions++;
    s->generation++;
    return true;
}

/*
 * The session expired: close it (its requests complete with ZCLOSING and
 * park, being transient while `replacing`) and open a new one. The new
 * session checks /meta before anything is sent again.
 */
static void zk_session_replace(cat__zk_store_t *s)
{
    s->expired = false;
    s->replacing = true;
    zookeeper_close(s->zh);
    s->zh = NULL;
    s->replacing = false;
    s->connected = false;
    s->ready = false;
    s->meta_sent = false;
    if (s->trim_state == CAT_ZK_TRIM_CLAIMING)
        s->trim_state = CAT_ZK_TRIM_NONE;
    if (!zk_session_start(s)) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" cannot start a new session with %s: %s",
                   s->hosts, strerror(errno));
        cat__zk_fail_for_good(s, &why);
    }
}

/* What must happen between library turns: replacing, timeouts. */
static void zk_housekeeping(cat__zk_store_t *s)
{
    if (s->closing || s->failed)
        return;
    if (s->expired || is_unrecoverable(s->zh) == ZINVALIDSTATE)
        zk_session_replace(s);
    zk_expire_calls(s);
}

/* ------------------------------------------------------------- loop hooks */

int cat_store_zk_interest(cat_store_t *base, int *fd, int *events, int *timeout_ms, uint64_t *generation)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    *fd = -1;
    *events = 0;
    *timeout_ms = 1000;
    zk_housekeeping(s);
    if (s->failed || s->closing || !s->zh) {
        *generation = s->generation;
        return -1;
    }
    /* A zoo_a* call may have closed the socket silently (nonblocking_send):
     * a state other than connected means the fd may be a new one. */
    int zs = zoo_state(s->zh);
    if (zs != ZOO_CONNECTED_STATE && s->connected && zs != ZOO_CONNECTING_STATE)
        s->generation++;
    struct timeval tv = {0};
    int interest = 0;
    int rc = zookeeper_interest(s->zh, fd, &interest, &tv);
    if (rc == ZINVALIDSTATE) {
        /* Expired under us: replaced at the next turn, which comes at once. */
        s->expired = true;
        *fd = -1;
        *timeout_ms = 1;
        *generation = ++s->generation;
        return 0;
    }
    if (interest & ZOOKEEPER_READ)
        *events |= CAT_ZK_READ;
    if (interest & ZOOKEEPER_WRITE)
        *events |= CAT_ZK_WRITE;
    long ms = (long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    int dl = zk_next_deadline_ms(s, cat__zk_now_ms());
    if (dl < ms)
        ms = dl;
    *timeout_ms = ms < 1 ? 1 : ms > 60000 ? 60000 : (int)ms;
    *generation = s->generation;
    return 0;
}

void cat_store_zk_process(cat_store_t *base, int events)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (s->failed || s->closing)
        return;
    if (!s->expired) {
        int ev = (events & CAT_ZK_READ ? ZOOKEEPER_READ : 0) | (events & CAT_ZK_WRITE ? ZOOKEEPER_WRITE : 0);
        zookeeper_process(s->zh, ev);
    }
    zk_housekeeping(s);
}

bool cat_store_zk_idle(cat_store_t *base)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    return s->pending == 0 && s->live == NULL;
}

bool cat_store_zk_connected(cat_store_t *base)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    return !s->failed && !s->expired && s->zh && zoo_state(s->zh) == ZOO_CONNECTED_STATE;
}

bool cat_store_zk_ready(cat_store_t *base)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    return s->ready && !s->failed;
}

bool cat_store_zk_failed(cat_store_t *base, cm_err_t *err)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (s->failed && err) {
        cm_err_set(err, s->fail_err.sqlstate, "%s", s->fail_err.message);
        if (s->fail_err.detail)
            cm_err_set_detail(err, "%s", s->fail_err.detail);
        if (s->fail_err.hint)
            cm_err_set_hint(err, "%s", s->fail_err.hint);
    }
    return s->failed;
}

const char *cat_store_zk_catalog_uuid(cat_store_t *base)
{
    return ((cat__zk_store_t *)base)->uuid;
}

uint64_t cat_store_zk_sessions(cat_store_t *base)
{
    return ((cat__zk_store_t *)base)->sessions;
}

int64_t cat_store_zk_session_id(cat_store_t *base, char passwd[16])
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (!s->zh) {
        memset(passwd, 0, 16);
        return 0;
    }
    const clientid_t *id = zoo_client_id(s->zh);
    memcpy(passwd, id->passwd, 16);
    return id->client_id;
}

int cat_store_zk_run(cat_store_t *base, int timeout_ms, bool (*done)(void *arg), void *arg)
{
    int64_t end = cat__zk_now_ms() + timeout_ms;
    for (;;) {
        if (done ? done(arg) : cat_store_zk_idle(base))
            return 0;
        int64_t left = end - cat__zk_now_ms();
        if (left <= 0)
            return -1;
        int fd, events, wait_ms;
        uint64_t gen;
        if (cat_store_zk_interest(base, &fd, &events, &wait_ms, &gen) != 0)
            return -1;
        struct pollfd pfd = {.fd = fd,
                             .events = (short)((events & CAT_ZK_READ ? POLLIN : 0) | (events & CAT_ZK_WRITE ? POLLOUT : 0))};
        int n = poll(fd >= 0 ? &pfd : NULL, fd >= 0 ? 1 : 0, wait_ms < left ? wait_ms : (int)left);
        if (n < 0 && errno != EINTR)
            return -1;
        int ev = 0;
        if (n > 0) {
            if (pfd.revents & (POLLIN | POLLERR | POLLHUP))
                ev |= CAT_ZK_READ;
            if (pfd.revents & (POLLOUT | POLLERR | POLLHUP))
                ev |= CAT_ZK_WRITE;
        }
        cat_store_zk_process(base, ev);
    }
}

/* ------------------------------------------------------------- open and close */

static void zk_dispatch(cat_store_t *base)
{
    /* ZooKeeper delivers from zookeeper_process: one non-blocking turn. */
    int fd, events, wait_ms;
    uint64_t gen;
    if (cat_store_zk_interest(base, &fd, &events, &wait_ms, &gen) != 0)
        return;
    struct pollfd pfd = {.fd = fd, .events = (short)((events & CAT_ZK_READ ? POLLIN : 0) | (events & CAT_ZK_WRITE ? POLLOUT : 0))};
    int ev = 0;
    if (fd >= 0 && poll(&pfd, 1, 0) > 0)
        ev = (pfd.revents & (POLLIN | POLLERR | POLLHUP) ? CAT_ZK_READ : 0) |
             (pfd.revents & (POLLOUT | POLLERR | POLLHUP) ? CAT_ZK_WRITE : 0);
    cat_store_zk_process(base, ev);
}

static void zk_close(cat_store_t *base)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    s->closing = true;
    /* Parked calls owe no completions: answer them here. */
    while (s->parked) {
        cat__zk_req_t *r = s->parked;
        cat__zk_fail(r, ZCLOSING);
    }
    /* zookeeper_close completes every pending request with ZCLOSING (inside
     * this call), so each request frees itself and its caller hears once. */
    if (s->zh)
        zookeeper_close(s->zh);
    while (s->live)
        cat__zk_fail(s->live, ZCLOSING);
    cm_err_clear(&s->fail_err);
    free(s->hosts);
    free(s->root);
    free(s);
}

static const cat_store_ops_t zk_ops = {
    .name = "zookeeper",
    .head = cat__zk_head,
    .log_read = cat__zk_log_read,
    .snapshot = cat__zk_snapshot,
    .commit = cat__zk_commit,
    .request_lookup = cat__zk_request_lookup,
    .log_trim = cat__zk_log_trim,
    .dispatch = zk_dispatch,
    .close = zk_close,
};

void cat_zk_options_default(cat_zk_options_t *o)
{
    memset(o, 0, sizeof(*o));
    o->session_timeout_ms = 10000;
    o->op_timeout_ms = 10000;
    o->log_keep = 1000;
    o->log_keep_ms = 3600 * 1000;
}

cat_store_t *cat_store_zk_open(const cat_zk_options_t *o, const cat_limits_t *limits, cm_err_t *err)
{
    const char *hosts = o->hosts ? o->hosts : "";
    const char *slash = strchr(hosts, '/');
    size_t hl = slash ? (size_t)(slash - hosts) : strlen(hosts);
    if (hl == 0 || (slash && (strlen(slash) >= 512 || slash[strlen(slash) - 1] == '/' || strstr(slash, "//")))) {
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid ZooKeeper address \"%s\"", hosts);
        cm_err_set_hint(err, "Use HOST:PORT[,HOST:PORT...][/CHROOT].");
        return NULL;
    }
    if (o->session_timeout_ms <= 0 || o->op_timeout_ms <= 0 || o->log_keep_ms < 0) {
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "ZooKeeper timeouts must be positive");
        return NULL;
    }
    cat__zk_store_t *s = cm_calloc(1, sizeof(*s));
    s->base.ops = &zk_ops;
    if (limits)
        s->base.limits = *limits;
    else
        cat_limits_default(&s->base.limits);
    s->opt = *o;
    s->opt.hosts = NULL;
    s->root = cm_strdup(slash ? slash : "");
    s->hosts = cm_malloc(hl + 1);
    memcpy(s->hosts, hosts, hl);
    s->hosts[hl] = 0;
    zoo_set_debug_level(ZOO_LOG_LEVEL_WARN);
    if (!zk_session_start(s)) {
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" cannot start a session with %s: %s",
                   hosts, strerror(errno));
        free(s->hosts);
        free(s->root);
        free(s);
        return NULL;
    }
    return &s->base;
}
