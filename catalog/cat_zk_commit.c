/*
 * cat_zk_commit.c: store_zk's commit: one statement as one zoo_amulti
 * (DESIGN §4), and what happens when its answer is lost.
 *
 * The transaction's ops, in the order the contract of cat_store_commit_t
 * checks them:
 *   [0] create /requests/<uuid> = index   the idempotency marker
 *   [1] check  /meta at its version        the catalog is still the one we opened
 *   [2] set    /catalog/head = index at expect.version   the compare-and-swap
 *   [3] create /log/<index> = entry
 *   then object and name deletes, object and name creates.
 * ZooKeeper reports the first op that failed, which gives the status:
 * marker exists → DUPLICATE, head version → CONFLICT (the caller catches up
 * and validates again), a name create → NAME_EXISTS.
 *
 * Ambiguity: when the connection or session fails after the multi was
 * sent, nobody knows whether it was applied. The request is parked; on the
 * next ready session it first reads /requests/<uuid>: present, the commit
 * happened and is reported OK at the index the marker holds (once: the
 * request ends there); absent, the same multi is sent again, which is safe
 * because its first op is the marker create: if the lost attempt still
 * lands first, the resend fails on the marker and reads it.
 */
#include "catalog/cat_zk_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { ZK__OP_MARKER, ZK__OP_META, ZK__OP_HEAD, ZK__OP_LOG, ZK__OP_FIRST_EDIT };

static void zk_commit_done(int rc, const void *data);

/* The marker existed: the statement committed; its index is in the marker. */
static void zk_commit_marker_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    uint64_t index = 0;
    if (rc == ZOK && !cat__zk_parse_u64(value, len, &index))
        rc = ZRUNTIMEINCONSISTENCY;
    if (rc != ZOK)
        return cat__zk_fail(r, rc);
    /* Found after a send of our own that lost its answer: this call committed it. */
    cat__zk_finish_commit(r, r->tries > 1 ? CAT_STORE_OK : CAT_STORE_DUPLICATE, index, NULL, NULL);
}

/* Resolving an ambiguous commit: the marker says whether it happened. */
static void zk_commit_resolve_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    uint64_t index = 0;
    if (rc == ZOK) {
        if (!cat__zk_parse_u64(value, len, &index))
            return cat__zk_fail(r, ZRUNTIMEINCONSISTENCY);
        return cat__zk_finish_commit(r, CAT_STORE_OK, index, NULL, NULL);
    }
    if (rc != ZNONODE)
        return cat__zk_fail(r, rc);
    /* Not applied (yet): send it again; the marker op keeps it to once. */
    r->resolving = false;
    int src = cat__zk_commit_send(r);
    if (src != ZOK) {
        r->rc = src;
        if (!cat__zk_settled(r))
            cat__zk_fail(r, src);
    }
}

static void zk_commit_read_marker(cat__zk_req_t *r, void (*done)(int, const char *, int, const struct Stat *,
                                                                 const void *))
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(r->s, p, "/requests/%s", r->ukey);
    int src = cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, done, r));
    if (src != ZOK) {
        r->rc = src;
        if (!cat__zk_settled(r))
            cat__zk_fail(r, src);
    }
}

int cat__zk_commit_send(cat__zk_req_t *r)
{
    cat__zk_store_t *s = r->s;
    if (r->resolving) {
        char p[CAT__ZK_PATH_MAX];
        cat__zk_path(s, p, "/requests/%s", r->ukey);
        return cat__zk_sent(r, zoo_aget(s->zh, p, 0, zk_commit_resolve_done, r));
    }
    /* /meta's version as this session checked it. */
    zoo_check_op_init(&r->ops[ZK__OP_META], r->paths[ZK__OP_META], s->meta_version);
    int rc = cat__zk_sent(r, zoo_amulti(s->zh, (int)r->nops, r->ops, r->results, zk_commit_done, r));
    if (rc == ZOK) {
        r->multi_sent = true;
        r->tries++;
    }
    return rc;
}

static void zk_commit_done(int rc, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (!cat__zk_arrived(r, rc) || cat__zk_settled(r))
        return;
    if (rc == ZOK)
        return cat__zk_finish_commit(r, CAT_STORE_OK, r->index, NULL, NULL);
    /* A failed multi reports the failing op's error; the others say ZOK
     * (before it) or ZRUNTIMEINCONSISTENCY (after it). */
    size_t bad = r->nops;
    for (size_t i = 0; i < r->nops; i++) {
        if (r->results[i].err != ZOK && r->results[i].err != ZRUNTIMEINCONSISTENCY) {
            bad = i;
            break;
        }
    }
    if (bad == r->nops)
        return cat__zk_fail(r, rc);
    int err_op = r->results[bad].err;
    if (bad == ZK__OP_MARKER && err_op == ZNODEEXISTS)
        return zk_commit_read_marker(r, zk_commit_marker_done);
    if (bad == ZK__OP_HEAD && err_op == ZBADVERSION)
        return cat__zk_finish_commit(r, CAT_STORE_CONFLICT, 0, NULL, NULL);
    if (r->op_keys[bad] && r->op_keys[bad][0] == 'N' && err_op == ZNODEEXISTS)
        return cat__zk_finish_commit(r, CAT_STORE_NAME_EXISTS, 0, r->op_keys[bad] + 1, NULL);
    cm_err_t err = {0};
    if (bad == ZK__OP_META || (bad == ZK__OP_MARKER && err_op == ZNONODE)) {
        /* /meta or /requests changed under us: which catalog is this? */
        cm_err_set(&err, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\": the catalog at chroot \"%s\" changed identity; nothing was committed",
                   r->s->root[0] ? r->s->root : "/");
        cat__zk_meta_check(r->s, false);
    } else if (err_op == ZNODEEXISTS || err_op == ZNONODE) {
        const char *what = r->op_keys[bad] ? r->op_keys[bad] : "?";
        cm_err_set(&err, CAT__ZK_ERRCODE_INTERNAL_ERROR, "catalog store is inconsistent: %s %s %s",
                   what[0] == 'N' ? "name" : what[0] == 'O' ? "object" : "node", what + 1,
                   err_op == ZNONODE ? "does not exist" : "exists");
    } else {
        cat__zk_err_rc(&err, err_op);
    }
    cat__zk_finish_commit(r, CAT_STORE_ERROR, 0, NULL, &err);
    cm_err_clear(&err);
}

/* ------------------------------------------------------------- building the transaction */

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

/* Adds one op's path; `key` is "N<name key>", "O<object key>" or "L<what>" for messages. */
static size_t zk_commit_op(cat__zk_req_t *r, const char *key, const char *path)
{
    r->paths[r->nops] = cm_strdup(path);
    r->op_keys[r->nops] = key;
    return r->nops++;
}

int cat__zk_commit(cat_store_t *base, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                   cm_err_t *err)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    size_t nops = ZK__OP_FIRST_EDIT + c->n_obj_deletes + c->n_name_deletes + c->n_obj_creates + c->n_name_creates;
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_COMMIT, (void (*)(void))(void *)cb, arg);
    r->ops = cm_calloc(nops, sizeof(zoo_op_t));
    r->results = cm_calloc(nops, sizeof(zoo_op_result_t));
    r->paths = cm_calloc(nops, sizeof(char *));
    r->op_keys = cm_calloc(nops, sizeof(char *));
    r->index = c->index;
    cat__zk_uuid_key(c->request_uuid, r->ukey);
    snprintf(r->index_buf, sizeof(r->index_buf), "%" PRIu64, c->index);
    /* The keys and values are copied into one buffer kept with the request:
     * the caller's commit need not outlive the call, and a resend reuses them. */
    size_t keybytes = 0;
    for (size_t i = 0; i < c->n_obj_deletes; i++)
        keybytes += strlen(c->obj_deletes[i]) + 2;
    for (size_t i = 0; i < c->n_name_deletes; i++)
        keybytes += strlen(c->name_deletes[i]) + 2;
    for (size_t i = 0; i < c->n_obj_creates; i++)
        keybytes += strlen(c->obj_creates[i].key) + 2;
    for (size_t i = 0; i < c->n_name_creates; i++)
        keybytes += strlen(c->name_creates[i].key) + 2;
    size_t valbytes = c->entry_len;
    for (size_t i = 0; i < c->n_obj_creates; i++)
        valbytes += c->obj_creates[i].len;
    for (size_t i = 0; i < c->n_name_creates; i++)
        valbytes += c->name_creates[i].len;
    r->buf = cm_malloc(keybytes + valbytes + 1);
    char *kp = (char *)r->buf;
    uint8_t *vp = r->buf + keybytes;
    char p[CAT__ZK_PATH_MAX];
    size_t k;
    cat__zk_path(s, p, "/requests/%s", r->ukey);
    k = zk_commit_op(r, "Lrequest marker", p);
    zoo_create_op_init(&r->ops[k], r->paths[k], r->index_buf, (int)strlen(r->index_buf), &s->acl, 0,
                       NULL, 0);
    cat__zk_path(s, p, "/meta");
    k = zk_commit_op(r, "Lcatalog identity", p);
    zoo_check_op_init(&r->ops[k], r->paths[k], s->meta_version);
    cat__zk_path(s, p, "/catalog/head");
    k = zk_commit_op(r, "Lhead", p);
    zoo_set_op_init(&r->ops[k], r->paths[k], r->index_buf, (int)strlen(r->index_buf), (int)c->expect.version, NULL);
    cat__zk_path(s, p, "/log/%020" PRIu64, c->index);
    k = zk_commit_op(r, "Llog entry", p);
    const char *ev = zk_put_val(&vp, c->entry, c->entry_len);
    zoo_create_op_init(&r->ops[k], r->paths[k], ev, (int)c->entry_len, &s->acl, 0, NULL, 0);
    for (size_t i = 0; i < c->n_obj_deletes; i++) {
        cat__zk_path(s, p, "/catalog/objects/%s", c->obj_deletes[i]);
        k = zk_commit_op(r, zk_put_key(&kp, 'O', c->obj_deletes[i]), p);
        zoo_delete_op_init(&r->ops[k], r->paths[k], -1);
    }
    for (size_t i = 0; i < c->n_name_deletes; i++) {
        cat__zk_path(s, p, "/catalog/names/%s", c->name_deletes[i]);
        k = zk_commit_op(r, zk_put_key(&kp, 'N', c->name_deletes[i]), p);
        zoo_delete_op_init(&r->ops[k], r->paths[k], -1);
    }
    for (size_t i = 0; i < c->n_obj_creates; i++) {
        const cat_kv_t *kv = &c->obj_creates[i];
        cat__zk_path(s, p, "/catalog/objects/%s", kv->key);
        k = zk_commit_op(r, zk_put_key(&kp, 'O', kv->key), p);
        const char *v = zk_put_val(&vp, kv->data, kv->len);
        zoo_create_op_init(&r->ops[k], r->paths[k], v, (int)kv->len, &s->acl, 0, NULL, 0);
    }
    for (size_t i = 0; i < c->n_name_creates; i++) {
        const cat_kv_t *kv = &c->name_creates[i];
        cat__zk_path(s, p, "/catalog/names/%s", kv->key);
        k = zk_commit_op(r, zk_put_key(&kp, 'N', kv->key), p);
        const char *v = zk_put_val(&vp, kv->data, kv->len);
        zoo_create_op_init(&r->ops[k], r->paths[k], v, (int)kv->len, &s->acl, 0, NULL, 0);
    }
    CM_ASSERT(r->nops == nops);
    return cat__zk_submit(r, err);
}
