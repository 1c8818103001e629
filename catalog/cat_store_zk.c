/*
 * cat_store_zk.c: the store interface on ZooKeeper (libzookeeper_st, async).
 *
 * The layout is DESIGN §4 under an optional chroot. The chroot is applied
 * here as a path prefix rather than by the client library, so that the store
 * can create its own root: ZooKeeper does not create a missing chroot.
 *
 * Every call queues requests on the one session; ZooKeeper answers a
 * session's requests in order, which is what makes the pipelines below
 * correct (layout creation before the first read, object reads before the
 * closing head read of a snapshot). Completions run inside
 * zookeeper_process, so never inside the call that started them. The
 * library calls every completion exactly once, with ZCLOSING or
 * ZCONNECTIONLOSS if need be, so each request frees itself there.
 */
#include "catalog/catalog.h"

#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <zookeeper/zookeeper.h>

/* PostgreSQL's system_error: the store is unreachable or failed. */
#define ZK__ERRCODE_SYSTEM_ERROR "58000"
#define ZK__ERRCODE_INTERNAL_ERROR "XX000"
/* Bounded retries of a snapshot whose head moved while it was read. */
#define ZK__SNAPSHOT_TRIES_MAX 20
#define ZK__PATH_MAX 1024

typedef struct zk_store {
    cat_store_t base;
    zhandle_t *zh;
    char *root;               /* "" or "/a/b": prefix of every path */
    uint64_t generation;      /* bumped whenever the socket may have been replaced */
    bool was_connected;
    bool closing;
    bool dead;                /* expired or auth failed: a new handle is needed */
    bool ready;               /* the layout exists: calls may be sent */
    bool layout_sent;         /* a layout creation is in flight */
    size_t pending;           /* requests whose completion has not run */
} zk_store_t;

typedef enum zk_kind {
    ZK_HEAD,
    ZK_LOG,
    ZK_SNAPSHOT,
    ZK_COMMIT,
    ZK_REQUEST,
    ZK_INTERNAL,
} zk_kind_t;

typedef struct zk_req zk_req_t;

/* One pipelined read of a multi-read request. */
typedef struct zk_slot {
    zk_req_t *r;
    size_t i;
} zk_slot_t;

struct zk_req {
    zk_store_t *s;
    zk_kind_t kind;
    void (*fn)(void);
    void *arg;
    size_t outstanding;       /* completions still to come for the current step */
    int rc;                   /* the first error of the current step */
    /* log and snapshot reads */
    uint64_t from;
    size_t max, n;
    zk_slot_t *slots;
    uint8_t **data;
    size_t *len;
    char **keys;
    cat_head_t h1, h2;
    int tries;
    /* commits */
    zoo_op_t *ops;
    zoo_op_result_t *results;
    char **paths;
    size_t nops;
    const char **op_keys;     /* the catalog key each op touches, for messages */
    uint64_t index;
    char ukey[33];
    char head_buf[24];
    char index_buf[24];
    uint8_t *entry;
};

/* ------------------------------------------------------------- helpers */

static void zk_path(const zk_store_t *s, char *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void zk_path(const zk_store_t *s, char *out, const char *fmt, ...)
{
    int n = snprintf(out, ZK__PATH_MAX, "%s", s->root);
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(out + n, ZK__PATH_MAX - (size_t)n, fmt, ap);
    va_end(ap);
}

static void zk_uuid_key(const uint8_t uuid[16], char out[33])
{
    static const char hex[] = "0123456789abcdef";
    for (int i = 0; i < 16; i++) {
        out[2 * i] = hex[uuid[i] >> 4];
        out[2 * i + 1] = hex[uuid[i] & 15];
    }
    out[32] = 0;
}

/* Parses a decimal u64 stored as znode data (not NUL-terminated). */
static bool zk_parse_u64(const char *p, int len, uint64_t *out)
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

static void zk_err_rc(cm_err_t *err, int rc)
{
    cm_err_set(err, ZK__ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" failed: %s", zerror(rc));
    if (rc == ZCONNECTIONLOSS || rc == ZOPERATIONTIMEOUT || rc == ZSESSIONEXPIRED || rc == ZCLOSING)
        cm_err_set_detail(err, "A change sent before the failure may or may not have been applied.");
}

static zk_req_t *zk_req_new(zk_store_t *s, zk_kind_t kind, void (*fn)(void), void *arg)
{
    zk_req_t *r = cm_calloc(1, sizeof(*r));
    r->s = s;
    r->kind = kind;
    r->fn = fn;
    r->arg = arg;
    return r;
}

static void zk_req_free_reads(zk_req_t *r)
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
    r->data = NULL;
    r->len = NULL;
    r->keys = NULL;
    r->slots = NULL;
    r->n = 0;
}

static void zk_req_free(zk_req_t *r)
{
    zk_req_free_reads(r);
    for (size_t i = 0; r->paths && i < r->nops; i++)
        free(r->paths[i]);
    free(r->paths);
    free(r->ops);
    free(r->results);
    free(r->op_keys);
    free(r->entry);
    free(r);
}

static void zk_req_alloc_reads(zk_req_t *r, size_t n)
{
    r->n = n;
    r->slots = cm_calloc(n ? n : 1, sizeof(zk_slot_t));
    r->data = cm_calloc(n ? n : 1, sizeof(uint8_t *));
    r->len = cm_calloc(n ? n : 1, sizeof(size_t));
    r->keys = cm_calloc(n ? n : 1, sizeof(char *));
    for (size_t i = 0; i < n; i++)
        r->slots[i] = (zk_slot_t){r, i};
}

/* A zoo_a* call was made for r: one more completion will come. */
static int zk_sent(zk_req_t *r, int rc)
{
    if (rc == ZOK) {
        r->outstanding++;
        r->s->pending++;
    }
    return rc;
}

/* A completion for r ran; true when it was the last of the current step. */
static bool zk_arrived(zk_req_t *r, int rc)
{
    CM_ASSERT(r->outstanding > 0);
    r->outstanding--;
    r->s->pending--;
    if (rc != ZOK && r->rc == ZOK)
        r->rc = rc;
    return r->outstanding == 0;
}

/* ------------------------------------------------------------- finishing */

static void zk_finish_head(zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    ((cat_store_head_cb)(void *)r->fn)(r->arg, st, &r->h1, err);
    zk_req_free(r);
}

static void zk_finish_log(zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    cat_log_entry_bytes_t *e = cm_calloc(r->n ? r->n : 1, sizeof(*e));
    size_t n = 0;
    if (st == CAT_STORE_OK)
        for (; n < r->n && r->data[n]; n++)
            e[n] = (cat_log_entry_bytes_t){.index = r->from + n, .data = r->data[n], .len = r->len[n]};
    ((cat_store_log_cb)(void *)r->fn)(r->arg, st, e, n, err);
    free(e);
    zk_req_free(r);
}

static void zk_finish_snapshot(zk_req_t *r, cat_store_status_t st, const cm_err_t *err)
{
    cat_kv_t *o = cm_calloc(r->n ? r->n : 1, sizeof(*o));
    size_t n = 0;
    if (st == CAT_STORE_OK)
        for (size_t i = 0; i < r->n; i++)
            o[n++] = (cat_kv_t){.key = r->keys[i], .data = r->data[i], .len = r->len[i]};
    ((cat_store_snapshot_cb)(void *)r->fn)(r->arg, st, &r->h1, o, n, err);
    free(o);
    zk_req_free(r);
}

static void zk_finish_commit(zk_req_t *r, cat_store_status_t st, uint64_t index, const char *key,
                             const cm_err_t *err)
{
    ((cat_store_commit_cb)(void *)r->fn)(r->arg, st, index, key, err);
    zk_req_free(r);
}

static void zk_finish_request(zk_req_t *r, cat_store_status_t st, uint64_t index, const cm_err_t *err)
{
    ((cat_store_request_cb)(void *)r->fn)(r->arg, st, index, err);
    zk_req_free(r);
}

/* Ends any request with an error from a ZooKeeper return code. */
static void zk_fail(zk_req_t *r, int rc)
{
    cm_err_t err = {0};
    zk_err_rc(&err, rc);
    switch (r->kind) {
    case ZK_HEAD: zk_finish_head(r, CAT_STORE_ERROR, &err); break;
    case ZK_LOG: zk_finish_log(r, CAT_STORE_ERROR, &err); break;
    case ZK_SNAPSHOT: zk_finish_snapshot(r, CAT_STORE_ERROR, &err); break;
    case ZK_COMMIT: zk_finish_commit(r, CAT_STORE_ERROR, 0, NULL, &err); break;
    case ZK_REQUEST: zk_finish_request(r, CAT_STORE_ERROR, 0, &err); break;
    case ZK_INTERNAL: zk_req_free(r); break;
    }
    cm_err_clear(&err);
}

static int zk_check_usable(zk_store_t *s, cm_err_t *err)
{
    if (s->dead || s->closing || is_unrecoverable(s->zh) == ZINVALIDSTATE) {
        s->dead = true;
        cm_err_set(err, ZK__ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" has lost its session");
        cm_err_set_hint(err, "The catalog store must be reopened.");
        return -1;
    }
    if (!s->ready) {
        cm_err_set(err, ZK__ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" is not connected yet");
        return -1;
    }
    return 0;
}

/* A zoo_a* call refused r's first request: nothing was queued; report it now. */
static int zk_refused(zk_req_t *r, int rc, cm_err_t *err)
{
    zk_err_rc(err, rc);
    zk_req_free(r);
    return -1;
}

/* ------------------------------------------------------------- watches */

static void zk_head_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx);

static void zk_internal_done(int rc, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    if (zk_arrived(r, rc))
        zk_req_free(r);
}

static void zk_internal_data_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_internal_done(rc, data);
}

static void zk_internal_string_done(int rc, const char *value, const void *data)
{
    zk_internal_done(rc, data);
}

/* (Re)arms the one-shot watch on /catalog/head: the change notification. */
static void zk_arm_head_watch(zk_store_t *s)
{
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/catalog/head");
    zk_req_t *r = zk_req_new(s, ZK_INTERNAL, NULL, NULL);
    if (zk_sent(r, zoo_awget(s->zh, p, zk_head_watch, s, zk_internal_data_done, r)) != ZOK)
        zk_req_free(r);
}

static void zk_notify(zk_store_t *s)
{
    if (s->base.notify && !s->closing)
        s->base.notify(s->base.notify_arg);
}

static void zk_head_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    zk_store_t *s = ctx;
    if (s->closing || type == ZOO_SESSION_EVENT)
        return;
    /* One-shot: re-arm before telling, so no change between the two is missed. */
    zk_arm_head_watch(s);
    zk_notify(s);
}

static void zk_create_layout(zk_store_t *s);

static void zk_session_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    zk_store_t *s = ctx;
    if (type != ZOO_SESSION_EVENT)
        return;
    if (state == ZOO_CONNECTED_STATE) {
        /* Requests sent before the session exists may be lost with the first
         * socket, so the layout (and with it readiness) waits for a session. */
        if (!s->ready && !s->layout_sent)
            zk_create_layout(s);
        /* The head may have moved while we were away: a hint, like a watch. */
        if (s->was_connected)
            zk_notify(s);
        s->was_connected = true;
    } else {
        s->generation++;
        if (state == ZOO_EXPIRED_SESSION_STATE || state == ZOO_AUTH_FAILED_STATE)
            s->dead = true;
    }
}

/* ------------------------------------------------------------- head */

static void zk_head_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    if (!zk_arrived(r, rc))
        return;
    if (rc != ZOK)
        return zk_fail(r, rc);
    if (!zk_parse_u64(value, len, &r->h1.index)) {
        cm_err_t err = {0};
        cm_err_set(&err, ZK__ERRCODE_INTERNAL_ERROR, "catalog store \"zookeeper\": /catalog/head is not a number");
        zk_finish_head(r, CAT_STORE_ERROR, &err);
        cm_err_clear(&err);
        return;
    }
    r->h1.version = stat->version;
    zk_finish_head(r, CAT_STORE_OK, NULL);
}

static int zk_head(cat_store_t *base, cat_store_head_cb cb, void *arg, cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/catalog/head");
    zk_req_t *r = zk_req_new(s, ZK_HEAD, (void (*)(void))(void *)cb, arg);
    int rc = zk_sent(r, zoo_aget(s->zh, p, 0, zk_head_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- log */

static void zk_log_entry_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    const zk_slot_t *sl = data;
    zk_req_t *r = sl->r;
    if (rc == ZOK) {
        r->len[sl->i] = len > 0 ? (size_t)len : 0;
        r->data[sl->i] = cm_malloc(r->len[sl->i] ? r->len[sl->i] : 1);
        if (len > 0)
            memcpy(r->data[sl->i], value, (size_t)len);
    }
    /* An entry missing after the first was trimmed during the read: the
     * prefix before it is still a valid answer. */
    if (!zk_arrived(r, rc == ZNONODE && sl->i > 0 ? ZOK : rc))
        return;
    if (r->rc == ZNONODE) {
        cm_err_t err = {0};
        cm_err_set(&err, ZK__ERRCODE_INTERNAL_ERROR, "catalog log entry %" PRIu64 " was trimmed", r->from);
        zk_finish_log(r, CAT_STORE_TRIMMED, &err);
        cm_err_clear(&err);
        return;
    }
    if (r->rc != ZOK)
        return zk_fail(r, r->rc);
    zk_finish_log(r, CAT_STORE_OK, NULL);
}

static void zk_log_head_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    uint64_t head = 0;
    if (rc != ZOK)
        return zk_fail(r, rc);
    if (!zk_parse_u64(value, len, &head))
        return zk_fail(r, ZRUNTIMEINCONSISTENCY);
    if (r->from > head)
        return zk_finish_log(r, CAT_STORE_OK, NULL);
    uint64_t n = head - r->from + 1;
    zk_req_alloc_reads(r, n > r->max ? r->max : (size_t)n);
    for (size_t i = 0; i < r->n; i++) {
        char p[ZK__PATH_MAX];
        zk_path(r->s, p, "/log/%020" PRIu64, r->from + i);
        int src = zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_log_entry_done, &r->slots[i]));
        if (src != ZOK) {
            if (r->rc == ZOK)
                r->rc = src;
            break;
        }
    }
    if (r->outstanding == 0)
        zk_fail(r, r->rc);
}

static int zk_log_read(cat_store_t *base, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/catalog/head");
    zk_req_t *r = zk_req_new(s, ZK_LOG, (void (*)(void))(void *)cb, arg);
    r->from = from;
    r->max = max;
    int rc = zk_sent(r, zoo_aget(s->zh, p, 0, zk_log_head_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- snapshot */

static void zk_snap_start(zk_req_t *r);

/* The objects and the closing head read have all arrived (in order). */
static void zk_snap_step_done(zk_req_t *r)
{
    /* An object that vanished means a commit came in between: so does a moved head. */
    bool moved = r->rc == ZNONODE || (r->rc == ZOK && r->h2.version != r->h1.version);
    if (moved && ++r->tries < ZK__SNAPSHOT_TRIES_MAX) {
        zk_req_free_reads(r);
        r->rc = ZOK;
        return zk_snap_start(r);
    }
    if (moved) {
        cm_err_t err = {0};
        cm_err_set(&err, ZK__ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\": no consistent snapshot after %d tries", r->tries);
        zk_finish_snapshot(r, CAT_STORE_ERROR, &err);
        cm_err_clear(&err);
        return;
    }
    if (r->rc != ZOK)
        return zk_fail(r, r->rc);
    zk_finish_snapshot(r, CAT_STORE_OK, NULL);
}

static void zk_snap_head2_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    if (rc == ZOK) {
        r->h2.version = stat->version;
        if (!zk_parse_u64(value, len, &r->h2.index))
            rc = ZRUNTIMEINCONSISTENCY;
    }
    if (zk_arrived(r, rc))
        zk_snap_step_done(r);
}

static void zk_snap_obj_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    const zk_slot_t *sl = data;
    zk_req_t *r = sl->r;
    if (rc == ZOK) {
        r->len[sl->i] = len > 0 ? (size_t)len : 0;
        r->data[sl->i] = cm_malloc(r->len[sl->i] ? r->len[sl->i] : 1);
        if (len > 0)
            memcpy(r->data[sl->i], value, (size_t)len);
    }
    if (zk_arrived(r, rc))
        zk_snap_step_done(r);
}

static void zk_snap_children_done(int rc, const struct String_vector *names, const struct Stat *stat,
                                  const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    if (rc != ZOK)
        return zk_fail(r, rc);
    zk_req_alloc_reads(r, names ? (size_t)names->count : 0);
    int src = ZOK;
    for (size_t i = 0; i < r->n && src == ZOK; i++) {
        r->keys[i] = cm_strdup(names->data[i]);
        char p[ZK__PATH_MAX];
        zk_path(r->s, p, "/catalog/objects/%s", names->data[i]);
        src = zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_snap_obj_done, &r->slots[i]));
    }
    char p[ZK__PATH_MAX];
    zk_path(r->s, p, "/catalog/head");
    if (src == ZOK)
        src = zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_snap_head2_done, r));
    if (src != ZOK) {
        /* Whatever was sent still arrives and finishes the step with this error. */
        r->rc = src;
        r->tries = ZK__SNAPSHOT_TRIES_MAX;
        if (r->outstanding == 0)
            zk_fail(r, src);
    }
}

static void zk_snap_head1_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    if (rc == ZOK && !zk_parse_u64(value, len, &r->h1.index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return zk_fail(r, rc);
    r->h1.version = stat->version;
    char p[ZK__PATH_MAX];
    zk_path(r->s, p, "/catalog/objects");
    int src = zk_sent(r, zoo_aget_children2(r->s->zh, p, 0, zk_snap_children_done, r));
    if (src != ZOK)
        zk_fail(r, src);
}

static void zk_snap_start(zk_req_t *r)
{
    char p[ZK__PATH_MAX];
    zk_path(r->s, p, "/catalog/head");
    int rc = zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_snap_head1_done, r));
    if (rc != ZOK)
        zk_fail(r, rc);
}

static int zk_snapshot(cat_store_t *base, cat_store_snapshot_cb cb, void *arg, cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/catalog/head");
    zk_req_t *r = zk_req_new(s, ZK_SNAPSHOT, (void (*)(void))(void *)cb, arg);
    int rc = zk_sent(r, zoo_aget(s->zh, p, 0, zk_snap_head1_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- request markers */

static void zk_request_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    uint64_t index = 0;
    if (rc == ZNONODE)
        return zk_finish_request(r, CAT_STORE_NOT_FOUND, 0, NULL);
    if (rc == ZOK && !zk_parse_u64(value, len, &index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return zk_fail(r, rc);
    zk_finish_request(r, CAT_STORE_OK, index, NULL);
}

static int zk_request_lookup(cat_store_t *base, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                             cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    char key[33], p[ZK__PATH_MAX];
    zk_uuid_key(uuid, key);
    zk_path(s, p, "/requests/%s", key);
    zk_req_t *r = zk_req_new(s, ZK_REQUEST, (void (*)(void))(void *)cb, arg);
    int rc = zk_sent(r, zoo_aget(s->zh, p, 0, zk_request_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- commit */

/* The marker existed: the statement committed before; its index is in the marker. */
static void zk_commit_marker_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    uint64_t index = 0;
    if (rc == ZOK && !zk_parse_u64(value, len, &index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return zk_fail(r, rc);
    zk_finish_commit(r, CAT_STORE_DUPLICATE, index, NULL, NULL);
}

static void zk_commit_done(int rc, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_arrived(r, rc);
    if (rc == ZOK)
        return zk_finish_commit(r, CAT_STORE_OK, r->index, NULL, NULL);
    /* A failed multi reports the failing op's error; the others say ZOK
     * (before it) or ZRUNTIMEINCONSISTENCY (after it). */
    size_t bad = r->nops;
    for (size_t i = 0; i < r->nops && r->results; i++) {
        if (r->results[i].err != ZOK && r->results[i].err != ZRUNTIMEINCONSISTENCY) {
            bad = i;
            break;
        }
    }
    if (bad == r->nops)
        return zk_fail(r, rc);
    int err_op = r->results[bad].err;
    if (bad == 0 && err_op == ZNODEEXISTS) {
        char p[ZK__PATH_MAX];
        zk_path(r->s, p, "/requests/%s", r->ukey);
        int src = zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_commit_marker_done, r));
        if (src != ZOK)
            zk_fail(r, src);
        return;
    }
    if (bad == 1 && err_op == ZBADVERSION)
        return zk_finish_commit(r, CAT_STORE_CONFLICT, 0, NULL, NULL);
    if (r->op_keys[bad] && r->op_keys[bad][0] == 'N' && err_op == ZNODEEXISTS)
        return zk_finish_commit(r, CAT_STORE_NAME_EXISTS, 0, r->op_keys[bad] + 1, NULL);
    cm_err_t err = {0};
    if (err_op == ZNODEEXISTS || err_op == ZNONODE) {
        const char *what = r->op_keys[bad] ? r->op_keys[bad] : "?";
        cm_err_set(&err, ZK__ERRCODE_INTERNAL_ERROR, "catalog store is inconsistent: %s %s %s",
                   what[0] == 'N' ? "name" : what[0] == 'O' ? "object" : "node", what + 1,
                   err_op == ZNONODE ? "does not exist" : "exists");
    } else {
        zk_err_rc(&err, err_op);
    }
    zk_finish_commit(r, CAT_STORE_ERROR, 0, NULL, &err);
    cm_err_clear(&err);
}

/* Copies "<tag><key>" into the request's buffer; returns the copy. */
static const char *zk_put_key(char **kp, char tag, const char *key)
{
    char *out = *kp;
    size_t n = strlen(key);
    out[0] = tag;
    memcpy(out + 1, key, n + 1);
    *kp += n + 2;
    return out;
}

static const char *zk_put_val(uint8_t **vp, const uint8_t *data, size_t len)
{
    const char *out = (const char *)*vp;
    if (len)
        memcpy(*vp, data, len);
    *vp += len;
    return out;
}

/* Adds one op; `key` is "N<name key>", "O<object key>" or "L<what>" for messages. */
static void zk_commit_op(zk_req_t *r, const char *key, char *path)
{
    r->paths[r->nops] = path;
    r->op_keys[r->nops] = key;
    r->nops++;
}

static int zk_commit(cat_store_t *base, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                     cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    size_t nops = 3 + c->n_obj_deletes + c->n_name_deletes + c->n_obj_creates + c->n_name_creates;
    zk_req_t *r = zk_req_new(s, ZK_COMMIT, (void (*)(void))(void *)cb, arg);
    r->ops = cm_calloc(nops, sizeof(zoo_op_t));
    r->results = cm_calloc(nops, sizeof(zoo_op_result_t));
    r->paths = cm_calloc(nops, sizeof(char *));
    r->op_keys = cm_calloc(nops, sizeof(char *));
    r->index = c->index;
    zk_uuid_key(c->request_uuid, r->ukey);
    snprintf(r->index_buf, sizeof(r->index_buf), "%" PRIu64, c->index);
    /* The op keys point into one buffer of "N<key>"/"O<key>" strings kept with the request. */
    size_t keybytes = 0;
    for (size_t i = 0; i < c->n_obj_deletes; i++)
        keybytes += strlen(c->obj_deletes[i]) + 2;
    for (size_t i = 0; i < c->n_name_deletes; i++)
        keybytes += strlen(c->name_deletes[i]) + 2;
    for (size_t i = 0; i < c->n_obj_creates; i++)
        keybytes += strlen(c->obj_creates[i].key) + 2;
    for (size_t i = 0; i < c->n_name_creates; i++)
        keybytes += strlen(c->name_creates[i].key) + 2;
    /* The entry and the values are copied: the caller's commit need not outlive the call. */
    size_t valbytes = c->entry_len;
    for (size_t i = 0; i < c->n_obj_creates; i++)
        valbytes += c->obj_creates[i].len;
    for (size_t i = 0; i < c->n_name_creates; i++)
        valbytes += c->name_creates[i].len;
    r->entry = cm_malloc(keybytes + valbytes + 1);
    char *kp = (char *)r->entry;
    uint8_t *vp = r->entry + keybytes;
#define ZK__KEY(tag, k) zk_put_key(&kp, tag, k)
#define ZK__VAL(d, l) zk_put_val(&vp, d, l)
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/requests/%s", r->ukey);
    zk_commit_op(r, "Lrequest marker", cm_strdup(p));
    zoo_create_op_init(&r->ops[0], r->paths[0], r->index_buf, (int)strlen(r->index_buf), &ZOO_OPEN_ACL_UNSAFE, 0,
                       NULL, 0);
    zk_path(s, p, "/catalog/head");
    zk_commit_op(r, "Lhead", cm_strdup(p));
    zoo_set_op_init(&r->ops[1], r->paths[1], r->index_buf, (int)strlen(r->index_buf), (int)c->expect.version, NULL);
    zk_path(s, p, "/log/%020" PRIu64, c->index);
    zk_commit_op(r, "Llog entry", cm_strdup(p));
    const char *ev = ZK__VAL(c->entry, c->entry_len);
    zoo_create_op_init(&r->ops[2], r->paths[2], ev, (int)c->entry_len, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
    for (size_t i = 0; i < c->n_obj_deletes; i++) {
        zk_path(s, p, "/catalog/objects/%s", c->obj_deletes[i]);
        zk_commit_op(r, ZK__KEY('O', c->obj_deletes[i]), cm_strdup(p));
        zoo_delete_op_init(&r->ops[r->nops - 1], r->paths[r->nops - 1], -1);
    }
    for (size_t i = 0; i < c->n_name_deletes; i++) {
        zk_path(s, p, "/catalog/names/%s", c->name_deletes[i]);
        zk_commit_op(r, ZK__KEY('N', c->name_deletes[i]), cm_strdup(p));
        zoo_delete_op_init(&r->ops[r->nops - 1], r->paths[r->nops - 1], -1);
    }
    for (size_t i = 0; i < c->n_obj_creates; i++) {
        const cat_kv_t *kv = &c->obj_creates[i];
        zk_path(s, p, "/catalog/objects/%s", kv->key);
        zk_commit_op(r, ZK__KEY('O', kv->key), cm_strdup(p));
        const char *v = ZK__VAL(kv->data, kv->len);
        zoo_create_op_init(&r->ops[r->nops - 1], r->paths[r->nops - 1], v, (int)kv->len, &ZOO_OPEN_ACL_UNSAFE, 0,
                           NULL, 0);
    }
    for (size_t i = 0; i < c->n_name_creates; i++) {
        const cat_kv_t *kv = &c->name_creates[i];
        zk_path(s, p, "/catalog/names/%s", kv->key);
        zk_commit_op(r, ZK__KEY('N', kv->key), cm_strdup(p));
        const char *v = ZK__VAL(kv->data, kv->len);
        zoo_create_op_init(&r->ops[r->nops - 1], r->paths[r->nops - 1], v, (int)kv->len, &ZOO_OPEN_ACL_UNSAFE, 0,
                           NULL, 0);
    }
#undef ZK__KEY
#undef ZK__VAL
    CM_ASSERT(r->nops == nops);
    int rc = zk_sent(r, zoo_amulti(s->zh, (int)nops, r->ops, r->results, zk_commit_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- trim */

static void zk_trim_children_done(int rc, const struct String_vector *names, const struct Stat *stat,
                                  const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    if (rc == ZOK && names) {
        /* The newest entry is the head's (head and entry move in one multi):
         * it always stays, so readers can still learn the head from the log. */
        uint64_t newest = 0, ix;
        for (int i = 0; i < names->count; i++)
            if (zk_parse_u64(names->data[i], (int)strlen(names->data[i]), &ix) && ix > newest)
                newest = ix;
        uint64_t limit = r->from < newest ? r->from : newest;
        for (int i = 0; i < names->count; i++) {
            if (!zk_parse_u64(names->data[i], (int)strlen(names->data[i]), &ix) || ix >= limit)
                continue;
            char p[ZK__PATH_MAX];
            zk_path(r->s, p, "/log/%s", names->data[i]);
            zk_sent(r, zoo_adelete(r->s->zh, p, -1, zk_internal_done, r));
        }
    }
    zk_internal_done(rc, r);
}

static int zk_log_trim(cat_store_t *base, uint64_t below, cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (zk_check_usable(s, err) != 0)
        return -1;
    char p[ZK__PATH_MAX];
    zk_path(s, p, "/log");
    zk_req_t *r = zk_req_new(s, ZK_INTERNAL, NULL, NULL);
    r->from = below;
    int rc = zk_sent(r, zoo_aget_children2(s->zh, p, 0, zk_trim_children_done, r));
    return rc == ZOK ? 0 : zk_refused(r, rc, err);
}

/* ------------------------------------------------------------- loop hooks */

int cat_store_zk_interest(cat_store_t *base, int *fd, int *events, int *timeout_ms, uint64_t *generation)
{
    zk_store_t *s = (zk_store_t *)base;
    *fd = -1;
    *events = 0;
    *timeout_ms = 1000;
    if (s->dead || s->closing) {
        *generation = s->generation;
        return -1;
    }
    /* A zoo_a* call may have closed the socket silently (nonblocking_send):
     * a state other than connected means the fd may be a new one. */
    if (zoo_state(s->zh) != ZOO_CONNECTED_STATE && s->was_connected && zoo_state(s->zh) != ZOO_CONNECTING_STATE)
        s->generation++;
    struct timeval tv = {0};
    int interest = 0;
    int rc = zookeeper_interest(s->zh, fd, &interest, &tv);
    if (rc == ZINVALIDSTATE) {
        s->dead = true;
        *fd = -1;
        *generation = s->generation;
        return -1;
    }
    if (interest & ZOOKEEPER_READ)
        *events |= CAT_ZK_READ;
    if (interest & ZOOKEEPER_WRITE)
        *events |= CAT_ZK_WRITE;
    long ms = (long)tv.tv_sec * 1000 + tv.tv_usec / 1000;
    *timeout_ms = ms < 1 ? 1 : ms > 60000 ? 60000 : (int)ms;
    *generation = s->generation;
    return 0;
}

void cat_store_zk_process(cat_store_t *base, int events)
{
    zk_store_t *s = (zk_store_t *)base;
    if (s->dead || s->closing)
        return;
    int ev = (events & CAT_ZK_READ ? ZOOKEEPER_READ : 0) | (events & CAT_ZK_WRITE ? ZOOKEEPER_WRITE : 0);
    zookeeper_process(s->zh, ev);
}

bool cat_store_zk_idle(cat_store_t *base)
{
    return ((zk_store_t *)base)->pending == 0;
}

bool cat_store_zk_connected(cat_store_t *base)
{
    zk_store_t *s = (zk_store_t *)base;
    return !s->dead && zoo_state(s->zh) == ZOO_CONNECTED_STATE;
}

bool cat_store_zk_ready(cat_store_t *base)
{
    zk_store_t *s = (zk_store_t *)base;
    return s->ready && !s->dead;
}

static int64_t zk_now_ms(void)
{
    struct timespec ts;
    clock_gettime(CLOCK_MONOTONIC, &ts);
    return (int64_t)ts.tv_sec * 1000 + ts.tv_nsec / 1000000;
}

int cat_store_zk_run(cat_store_t *base, int timeout_ms, bool (*done)(void *arg), void *arg)
{
    int64_t end = zk_now_ms() + timeout_ms;
    for (;;) {
        if (done ? done(arg) : cat_store_zk_idle(base))
            return 0;
        int64_t left = end - zk_now_ms();
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
    zk_store_t *s = (zk_store_t *)base;
    int fd, events, wait_ms;
    uint64_t gen;
    if (cat_store_zk_interest(base, &fd, &events, &wait_ms, &gen) != 0)
        return;
    struct pollfd pfd = {.fd = fd, .events = (short)((events & CAT_ZK_READ ? POLLIN : 0) | (events & CAT_ZK_WRITE ? POLLOUT : 0))};
    int ev = 0;
    if (fd >= 0 && poll(&pfd, 1, 0) > 0)
        ev = (pfd.revents & (POLLIN | POLLERR | POLLHUP) ? CAT_ZK_READ : 0) |
             (pfd.revents & (POLLOUT | POLLERR | POLLHUP) ? CAT_ZK_WRITE : 0);
    (void)s;
    cat_store_zk_process(base, ev);
}

static void zk_close(cat_store_t *base)
{
    zk_store_t *s = (zk_store_t *)base;
    s->closing = true;
    /* zookeeper_close completes every pending request with ZCLOSING (inside
     * this call), so each request frees itself and its caller hears once. */
    zookeeper_close(s->zh);
    free(s->root);
    free(s);
}

static const cat_store_ops_t zk_ops = {
    .name = "zookeeper",
    .head = zk_head,
    .log_read = zk_log_read,
    .snapshot = zk_snapshot,
    .commit = zk_commit,
    .request_lookup = zk_request_lookup,
    .log_trim = zk_log_trim,
    .dispatch = zk_dispatch,
    .close = zk_close,
};

static void zk_layout_done(int rc, const void *data)
{
    zk_req_t *r = (zk_req_t *)data;
    zk_store_t *s = r->s;
    zk_arrived(r, rc);
    s->layout_sent = false;
    /* ZNODEEXISTS at /meta: the catalog was there already. */
    if (rc == ZOK || (rc == ZNODEEXISTS && r->results[0].err == ZNODEEXISTS)) {
        if (!s->ready && !s->closing) {
            s->ready = true;
            zk_arm_head_watch(s);
        }
    } else if (!s->closing && zoo_state(s->zh) == ZOO_CONNECTED_STATE) {
        zk_create_layout(s);   /* e.g. a chroot parent raced: try again */
    }
    zk_req_free(r);
}

/* Queues the creation of the chroot's parents and the layout; "exists" is fine. */
static void zk_create_layout(zk_store_t *s)
{
    size_t rl = strlen(s->root);
    for (size_t i = 1; i <= rl; i++) {
        if (i < rl && s->root[i] != '/')
            continue;
        char p[ZK__PATH_MAX];
        snprintf(p, sizeof(p), "%.*s", (int)i, s->root);
        zk_req_t *r = zk_req_new(s, ZK_INTERNAL, NULL, NULL);
        if (zk_sent(r, zoo_acreate(s->zh, p, NULL, -1, &ZOO_OPEN_ACL_UNSAFE, 0, zk_internal_string_done, r)) != ZOK)
            zk_req_free(r);
    }
    /* One multi, so that a catalog exists whole or not at all; /meta first:
     * if it exists the multi fails there and changes nothing. */
    static const char *const nodes[] = {"/meta", "/catalog", "/catalog/head", "/catalog/objects",
                                        "/catalog/names", "/log", "/requests"};
    enum { N = 7 };
    zk_req_t *r = zk_req_new(s, ZK_INTERNAL, NULL, NULL);
    r->ops = cm_calloc(N, sizeof(zoo_op_t));
    r->results = cm_calloc(N, sizeof(zoo_op_result_t));
    r->paths = cm_calloc(N, sizeof(char *));
    r->nops = N;
    uint8_t uuid[16];
    FILE *f = fopen("/dev/urandom", "rb");
    if (!f || fread(uuid, 1, 16, f) != 16)
        for (int i = 0; i < 16; i++)
            uuid[i] = (uint8_t)(rand() ^ (int)zk_now_ms() >> i);
    if (f)
        fclose(f);
    char hex[33];
    zk_uuid_key(uuid, hex);
    r->entry = cm_malloc(96);
    snprintf((char *)r->entry, 96, "{\"catalog_uuid\": \"%s\", \"format\": %d}", hex, CAT_FORMAT);
    for (size_t i = 0; i < N; i++) {
        char p[ZK__PATH_MAX];
        zk_path(s, p, "%s", nodes[i]);
        r->paths[i] = cm_strdup(p);
        const char *v = NULL;
        int vl = -1;
        if (i == 0)
            v = (const char *)r->entry, vl = (int)strlen(v);
        else if (i == 2)
            v = "0", vl = 1;
        zoo_create_op_init(&r->ops[i], r->paths[i], v, vl, &ZOO_OPEN_ACL_UNSAFE, 0, NULL, 0);
    }
    s->layout_sent = true;
    if (zk_sent(r, zoo_amulti(s->zh, N, r->ops, r->results, zk_layout_done, r)) != ZOK) {
        s->layout_sent = false;
        zk_req_free(r);
    }
}

void cat_zk_options_default(cat_zk_options_t *o)
{
    memset(o, 0, sizeof(*o));
    o->session_timeout_ms = 10000;
    o->op_timeout_ms = 10000;
    o->log_keep = 1000;
    o->log_keep_ms = 3600 * 1000;
}

bool cat_store_zk_failed(cat_store_t *base, cm_err_t *err)
{
    zk_store_t *s = (zk_store_t *)base;
    if (s->dead && err)
        cm_err_set(err, ZK__ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" has lost its session");
    return s->dead;
}

const char *cat_store_zk_catalog_uuid(cat_store_t *base)
{
    return "";
}

uint64_t cat_store_zk_sessions(cat_store_t *base)
{
    return 1;
}

int64_t cat_store_zk_session_id(cat_store_t *base, char passwd[16])
{
    zk_store_t *s = (zk_store_t *)base;
    const clientid_t *id = zoo_client_id(s->zh);
    memcpy(passwd, id->passwd, 16);
    return id->client_id;
}

int cat_store_zk_trim_claim(cat_store_t *base, cm_err_t *err)
{
    cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "fenced log trimming is not implemented yet");
    return -1;
}

cat_zk_trim_state_t cat_store_zk_trim_state(cat_store_t *base)
{
    return CAT_ZK_TRIM_NONE;
}

uint64_t cat_store_zk_trimmed(cat_store_t *base)
{
    return 0;
}

cat_store_t *cat_store_zk_open(const cat_zk_options_t *o, const cat_limits_t *limits, cm_err_t *err)
{
    const char *hosts = o->hosts ? o->hosts : "";
    int session_timeout_ms = o->session_timeout_ms;

    const char *slash = strchr(hosts, '/');
    size_t hl = slash ? (size_t)(slash - hosts) : strlen(hosts);
    if (hl == 0 || (slash && (strlen(slash) >= 512 || slash[strlen(slash) - 1] == '/' || strstr(slash, "//")))) {
        cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid ZooKeeper address \"%s\"", hosts);
        cm_err_set_hint(err, "Use HOST:PORT[,HOST:PORT...][/CHROOT].");
        return NULL;
    }
    zk_store_t *s = cm_calloc(1, sizeof(*s));
    s->base.ops = &zk_ops;
    if (limits)
        s->base.limits = *limits;
    else
        cat_limits_default(&s->base.limits);
    s->root = cm_strdup(slash ? slash : "");
    char *h = cm_malloc(hl + 1);
    memcpy(h, hosts, hl);
    h[hl] = 0;
    /* The library logs to stderr; only what is worth a look. */
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    s->zh = zookeeper_init(h, zk_session_watch, session_timeout_ms, NULL, s, 0);
    free(h);
    if (!s->zh) {
        cm_err_set(err, ZK__ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" cannot start a session with %s: %s",
                   hosts, strerror(errno));
        free(s->root);
        free(s);
        return NULL;
    }
    return &s->base;
}
