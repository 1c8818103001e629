/*
 * cat_zk_read.c: store_zk's reads: the head, the log, consistent snapshots
 * of /catalog/objects, request markers, and the head watch that is the
 * change notification.
 *
 * ZooKeeper answers a session's requests in order, which the pipelines rely
 * on: a log read learns the head and then fetches the entries; a snapshot
 * reads the head, the objects and the head again, and starts over when the
 * head moved in between (DESIGN §4: consistent without a transaction).
 * Every read may be started again from scratch on a new connection, so the
 * send functions only ever begin a read.
 */
#include "catalog/cat_zk_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Bounded retries of a snapshot whose head moved while it was read. */
#define ZK__SNAPSHOT_TRIES_MAX 100

/* ------------------------------------------------------------- head watch */

static void zk_head_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx);

/*
 * The re-arming read also tells what the head is now. Comparing it with
 * the version seen last closes the gap between a watch firing and the
 * new watch being in place: a commit in between is noticed here. So the
 * notification comes from this read, at most once per re-arm.
 */
static void zk_watch_armed(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    if (cat__zk_arrived(r, rc))
        cat__zk_req_free(r);
    if (rc != ZOK || s->closing || s->replacing || s->failed)
        return;
    bool moved = s->head_version_seen >= 0 && stat->version != s->head_version_seen;
    s->head_version_seen = stat->version;
    uint64_t index = 0;
    s->head_index_seen = cat__zk_parse_u64(value, len, &index) ? (int64_t)index : -1;
    if (moved)
        cat__zk_notify(s);
}

bool cat_store_zk_head_seen(cat_store_t *base, uint64_t *index)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (s->head_index_seen < 0)
        return false;
    *index = (uint64_t)s->head_index_seen;
    return true;
}

void cat__zk_arm_head_watch(cat__zk_store_t *s)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "/catalog/head");
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    if (cat__zk_sent(r, zoo_awget(s->zh, p, zk_head_watch, s, zk_watch_armed, r)) != ZOK)
        cat__zk_req_free(r);
}

static void zk_head_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    cat__zk_store_t *s = ctx;
    if (s->closing || s->replacing || s->failed || type == ZOO_SESSION_EVENT || zh != s->zh)
        return;
    /* One-shot: re-arm; the re-arming read notifies when the head moved. */
    cat__zk_arm_head_watch(s);
}

/* Reads /catalog/head for r, done getting the answer: the head, log and
 * snapshot reads all start (and a snapshot ends) with this one read. */
static int zk_read_head(cat__zk_req_t *r, data_completion_t done)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(r->s, p, "/catalog/head");
    return cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, done, r));
}

/* ------------------------------------------------------------- head */

static void zk_head_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    if (!cat__zk_parse_u64(value, len, &r->h1.index)) {
        cm_err_t err = {0};
        cm_err_set(&err, CAT__ZK_ERRCODE_INTERNAL_ERROR, "catalog store \"zookeeper\": /catalog/head is not a number");
        cat__zk_finish_head(r, CAT_STORE_ERROR, &err);
        cm_err_clear(&err);
        return;
    }
    r->h1.version = stat->version;
    cat__zk_finish_head(r, CAT_STORE_OK, NULL);
}

int cat__zk_head_send(cat__zk_req_t *r)
{
    return zk_read_head(r, zk_head_done);
}

int cat__zk_head(cat_store_t *base, cat_store_head_cb cb, void *arg, cm_err_t *err)
{
    cat__zk_req_t *r = cat__zk_req_new((cat__zk_store_t *)base, CAT__ZK_HEAD, (void (*)(void))(void *)cb, arg);
    return cat__zk_submit(r, err);
}

/* ------------------------------------------------------------- log */

static void zk_log_entry_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    const cat__zk_slot_t *sl = data;
    cat__zk_req_t *r = sl->r;
    if (rc == ZOK && r->data) {
        r->len[sl->i] = len > 0 ? (size_t)len : 0;
        r->data[sl->i] = cm_malloc(r->len[sl->i] ? r->len[sl->i] : 1);
        if (len > 0)
            memcpy(r->data[sl->i], value, (size_t)len);
    }
    /* An entry missing after the first was trimmed during the read: the
     * prefix before it is still a valid answer. */
    if (!cat__zk_arrived(r, rc == ZNONODE && sl->i > 0 ? ZOK : rc) || cat__zk_settled(r))
        return;
    if (r->rc == ZNONODE) {
        cm_err_t err = {0};
        cm_err_set(&err, CAT__ZK_ERRCODE_INTERNAL_ERROR, "catalog log entry %" PRIu64 " was trimmed", r->from);
        cat__zk_finish_log(r, CAT_STORE_TRIMMED, &err);
        cm_err_clear(&err);
        return;
    }
    if (r->rc != ZOK)
        return cat__zk_fail(r, r->rc);
    cat__zk_finish_log(r, CAT_STORE_OK, NULL);
}

static void zk_log_head_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    uint64_t head = 0;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    if (!cat__zk_parse_u64(value, len, &head))
        return cat__zk_fail(r, ZRUNTIMEINCONSISTENCY);
    if (r->from > head)
        return cat__zk_finish_log(r, CAT_STORE_OK, NULL);
    uint64_t n = head - r->from + 1;
    cat__zk_req_alloc_reads(r, n > r->max ? r->max : (size_t)n);
    for (size_t i = 0; i < r->n; i++) {
        char p[CAT__ZK_PATH_MAX];
        cat__zk_path(r->s, p, "/log/%020" PRIu64, r->from + i);
        int src = cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_log_entry_done, &r->slots[i]));
        if (src != ZOK) {
            if (r->rc == ZOK)
                r->rc = src;
            break;
        }
    }
    if (r->outstanding == 0 && !cat__zk_settled(r))
        cat__zk_fail(r, r->rc);
}

int cat__zk_log_send(cat__zk_req_t *r)
{
    return zk_read_head(r, zk_log_head_done);
}

int cat__zk_log_read(cat_store_t *base, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err)
{
    cat__zk_req_t *r = cat__zk_req_new((cat__zk_store_t *)base, CAT__ZK_LOG, (void (*)(void))(void *)cb, arg);
    r->from = from;
    r->max = max;
    return cat__zk_submit(r, err);
}

/* ------------------------------------------------------------- snapshot */

/* The objects and the closing head read have all arrived (in order). */
static void zk_snap_step_done(cat__zk_req_t *r)
{
    if (cat__zk_settled(r))
        return;
    /* An object that vanished means a commit came in between: so does a moved head. */
    bool moved = r->rc == ZNONODE || (r->rc == ZOK && r->h2.version != r->h1.version);
    if (moved && ++r->tries < ZK__SNAPSHOT_TRIES_MAX) {
        cat__zk_req_free_reads(r);
        r->rc = ZOK;
        int rc = cat__zk_snapshot_send(r);
        if (rc != ZOK) {
            r->rc = rc;
            if (!cat__zk_settled(r))
                cat__zk_fail(r, rc);
        }
        return;
    }
    if (moved) {
        cm_err_t err = {0};
        cm_err_set(&err, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\": no consistent snapshot after %d tries", r->tries);
        cat__zk_finish_snapshot(r, CAT_STORE_ERROR, &err);
        cm_err_clear(&err);
        return;
    }
    if (r->rc != ZOK)
        return cat__zk_fail(r, r->rc);
    cat__zk_finish_snapshot(r, CAT_STORE_OK, NULL);
}

static void zk_snap_head2_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (rc == ZOK) {
        r->h2.version = stat->version;
        if (!cat__zk_parse_u64(value, len, &r->h2.index))
            rc = ZRUNTIMEINCONSISTENCY;
    }
    if (cat__zk_arrived(r, rc))
        zk_snap_step_done(r);
}

static void zk_snap_obj_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    const cat__zk_slot_t *sl = data;
    cat__zk_req_t *r = sl->r;
    if (rc == ZOK && r->data) {
        r->len[sl->i] = len > 0 ? (size_t)len : 0;
        r->data[sl->i] = cm_malloc(r->len[sl->i] ? r->len[sl->i] : 1);
        if (len > 0)
            memcpy(r->data[sl->i], value, (size_t)len);
    }
    if (cat__zk_arrived(r, rc))
        zk_snap_step_done(r);
}

static void zk_snap_children_done(int rc, const struct String_vector *names, const struct Stat *stat,
                                  const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    cat__zk_req_alloc_reads(r, names ? (size_t)names->count : 0);
    int src = ZOK;
    for (size_t i = 0; i < r->n && src == ZOK; i++) {
        r->keys[i] = cm_strdup(names->data[i]);
        char p[CAT__ZK_PATH_MAX];
        cat__zk_path(r->s, p, "/catalog/objects/%s", names->data[i]);
        src = cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_snap_obj_done, &r->slots[i]));
    }
    if (src == ZOK)
        src = zk_read_head(r, zk_snap_head2_done);
    if (src != ZOK) {
        /* Whatever was sent still arrives and finishes the step with this error. */
        r->rc = src;
        r->tries = ZK__SNAPSHOT_TRIES_MAX;
        if (r->outstanding == 0 && !cat__zk_settled(r))
            cat__zk_fail(r, src);
    }
}

static void zk_snap_head1_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    if (rc == ZOK && !cat__zk_parse_u64(value, len, &r->h1.index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    r->h1.version = stat->version;
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(r->s, p, "/catalog/objects");
    int src = cat__zk_sent(r, zoo_aget_children2(r->s->zh, p, 0, zk_snap_children_done, r));
    if (src != ZOK) {
        r->rc = src;
        if (!cat__zk_settled(r))
            cat__zk_fail(r, src);
    }
}

int cat__zk_snapshot_send(cat__zk_req_t *r)
{
    return zk_read_head(r, zk_snap_head1_done);
}

int cat__zk_snapshot(cat_store_t *base, cat_store_snapshot_cb cb, void *arg, cm_err_t *err)
{
    cat__zk_req_t *r = cat__zk_req_new((cat__zk_store_t *)base, CAT__ZK_SNAPSHOT, (void (*)(void))(void *)cb, arg);
    return cat__zk_submit(r, err);
}

/* ------------------------------------------------------------- request markers */

static void zk_request_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    uint64_t index = 0;
    if (rc == ZNONODE)
        return cat__zk_finish_request(r, CAT_STORE_NOT_FOUND, 0, NULL);
    if (rc == ZOK && !cat__zk_parse_u64(value, len, &index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    cat__zk_finish_request(r, CAT_STORE_OK, index, NULL);
}

int cat__zk_request_send(cat__zk_req_t *r)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(r->s, p, "/requests/%s", r->ukey);
    return cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_request_done, r));
}

int cat__zk_request_lookup(cat_store_t *base, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                           cm_err_t *err)
{
    cat__zk_req_t *r = cat__zk_req_new((cat__zk_store_t *)base, CAT__ZK_REQUEST, (void (*)(void))(void *)cb, arg);
    cat__zk_uuid_key(uuid, r->ukey);
    return cat__zk_submit(r, err);
}
