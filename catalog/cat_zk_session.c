/*
 * cat_zk_session.c: store_zk's handle and session: open and close, the
 * session watcher, replacing an expired session by a new one, the loop
 * hooks (interest, process, and the housekeeping between library turns:
 * session replacement, call deadlines), and small shared helpers.
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

/* ------------------------------------------------------------- the session */

static void zk_session_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    cat__zk_store_t *s = ctx;
    if (type != ZOO_SESSION_EVENT || s->closing || s->replacing || zh != s->zh)
        return;
    s->generation++;   /* any session event may come with a new socket */
    if (state == ZOO_CONNECTED_STATE) {
        s->connected = true;
        s->cut_off_ms = 0;
        if (!s->failed)
            cat__zk_meta_check(s, true);
    } else if (state == ZOO_EXPIRED_SESSION_STATE) {
        s->connected = false;
        s->ready = false;
        s->expired = true;
        cat__zk_cluster_expired(s);
        cm_log_warn("catalog store \"zookeeper\": session 0x%llx expired; opening a new one",
                    (unsigned long long)zoo_client_id(zh)->client_id);
    } else if (state == ZOO_AUTH_FAILED_STATE) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\": authentication with %s failed for the catalog at chroot \"%s\"",
                   s->hosts, s->root[0] ? s->root : "/");
        cat__zk_fail_for_good(s, &why);
    } else {
        if (s->connected || s->cut_off_ms == 0)
            s->cut_off_ms = cat__zk_now_ms();
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
    /* Queued before any request, and sent again by the library on every reconnection. */
    if (s->opt.auth != NULL)
        zoo_add_auth(s->zh, "digest", s->opt.auth, (int)strlen(s->opt.auth), NULL, NULL);
    zoo_set_servers_resolution_delay(s->zh, s->opt.resolve_delay_ms);
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
    cat__zk_cluster_expired(s);   /* before anything runs on the new session */
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
    cat__zk_expire_calls(s);
    cat__zk_cluster_step(s);
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
    int dl = cat__zk_next_deadline_ms(s, cat__zk_now_ms());
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
    cat__zk_cluster_free(s);
    cm_err_clear(&s->fail_err);
    free(s->hosts);
    free(s->root);
    cat__zk_acl_free(s);
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
    o->request_keep_ms = 24 * 3600 * 1000;
    o->resolve_delay_ms = 30000;
    o->applied_publish_ms = 100;
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
    if (o->session_timeout_ms <= 0 || o->op_timeout_ms <= 0 || o->log_keep_ms < 0 || o->request_keep_ms < 0 ||
        o->resolve_delay_ms < -1 || o->applied_publish_ms < 0) {
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
    s->opt.auth = o->auth != NULL ? cm_strdup(o->auth) : NULL;
    s->opt.read_id = o->auth != NULL && o->read_id != NULL ? cm_strdup(o->read_id) : NULL;
    s->head_version_seen = -1;
    s->head_index_seen = -1;
    s->root = cm_strdup(slash ? slash : "");
    cat__zk_acl_init(s);
    s->hosts = cm_malloc(hl + 1);
    memcpy(s->hosts, hosts, hl);
    s->hosts[hl] = 0;
    zoo_set_debug_level(ZOO_LOG_LEVEL_WARN);
    if (!zk_session_start(s)) {
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" cannot start a session with %s: %s",
                   hosts, strerror(errno));
        free(s->hosts);
        free(s->root);
        cat__zk_acl_free(s);
        free(s);
        return NULL;
    }
    return &s->base;
}
