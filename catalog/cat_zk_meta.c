/*
 * cat_zk_meta.c: store_zk's layout and catalog identity.
 *
 * /meta holds {"catalog_uuid": "<32 hex>", "format": N}, written once by
 * whichever process creates the catalog. A handle learns the uuid from its
 * first check and from then on serves that catalog only: every new
 * connection and every change of /meta (a watch) checks it again, and a
 * /meta that is gone or names another catalog (ZooKeeper wiped, the chroot
 * replaced) fails the handle for good rather than mixing two catalogs'
 * logs. The layout is created only before the identity is known: a handle
 * never recreates a catalog that disappeared under it.
 */
#include "catalog/cat_zk_int.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/random.h>

/* Checks without an answer (the layout raced with another creator) before giving up. */
#define ZK__META_TRIES_MAX 10

static void zk_meta_internal_done(int rc, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    if (cat__zk_arrived(r, rc))
        cat__zk_req_free(r);
}

static void zk_meta_string_done(int rc, const char *value, const void *data)
{
    zk_meta_internal_done(rc, data);
}

/* Queues the creation of the chroot's parents and the layout; "exists" is fine. */
static void zk_create_layout(cat__zk_store_t *s)
{
    size_t rl = strlen(s->root);
    for (size_t i = 1; i <= rl; i++) {
        if (i < rl && s->root[i] != '/')
            continue;
        char p[CAT__ZK_PATH_MAX];
        snprintf(p, sizeof(p), "%.*s", (int)i, s->root);
        cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
        /* The chroot is the catalog's own; the parents above it may be shared. */
        const struct ACL_vector *acl = i == rl ? &s->acl : &ZOO_OPEN_ACL_UNSAFE;
        if (cat__zk_sent(r, zoo_acreate(s->zh, p, NULL, -1, (struct ACL_vector *)acl, 0, zk_meta_string_done, r)) != ZOK)
            cat__zk_req_free(r);
    }
    /* One multi, so that a catalog exists whole or not at all; /meta first:
     * if it exists the multi fails there and changes nothing. */
    static const char *const nodes[] = {"/meta", "/catalog", "/catalog/head", "/catalog/objects",
                                        "/catalog/names", "/log", "/requests", "/trim"};
    enum { N = 8 };
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    r->ops = cm_calloc(N, sizeof(zoo_op_t));
    r->results = cm_calloc(N, sizeof(zoo_op_result_t));
    r->paths = cm_calloc(N, sizeof(char *));
    r->nops = N;
    uint8_t uuid[16];
    if (getrandom(uuid, sizeof(uuid), 0) != (ssize_t)sizeof(uuid)) {
        /* No entropy: the clock and the handle's address still differ per creator. */
        int64_t t = cm_now_wall_us() ^ cm_now_mono_us();
        memcpy(uuid, &t, 8);
        memcpy(uuid + 8, &s, sizeof(void *) < 8 ? sizeof(void *) : 8);
    }
    char hex[33];
    cat__zk_uuid_key(uuid, hex);
    r->buf = cm_malloc(96);
    snprintf((char *)r->buf, 96, "{\"catalog_uuid\": \"%s\", \"format\": %d}", hex, CAT_FORMAT);
    for (size_t i = 0; i < N; i++) {
        char p[CAT__ZK_PATH_MAX];
        cat__zk_path(s, p, "%s", nodes[i]);
        r->paths[i] = cm_strdup(p);
        const char *v = NULL;
        int vl = -1;
        if (i == 0)
            v = (const char *)r->buf, vl = (int)strlen(v);
        else if (i == 2 || i == 7)
            v = "0", vl = 1;
        zoo_create_op_init(&r->ops[i], r->paths[i], v, vl, &s->acl, 0, NULL, 0);
    }
    if (cat__zk_sent(r, zoo_amulti(s->zh, N, r->ops, r->results, zk_meta_internal_done, r)) != ZOK)
        cat__zk_req_free(r);
}

/* Reads {"catalog_uuid": "...", "format": N}; tolerant of spacing and of fields it does not know. */
static bool zk_meta_parse(const char *p, int len, char uuid[33], long *format)
{
    char buf[1024];
    if (!p || len <= 0 || len >= (int)sizeof(buf))
        return false;
    memcpy(buf, p, (size_t)len);
    buf[len] = 0;
    const char *u = strstr(buf, "\"catalog_uuid\"");
    const char *f = strstr(buf, "\"format\"");
    if (!u || !f)
        return false;
    u = strchr(u + 14, ':');
    if (!u || !(u = strchr(u, '"')))
        return false;
    u++;
    size_t n = strcspn(u, "\"");
    if (n == 0 || n > 32 || u[n] != '"')
        return false;
    memcpy(uuid, u, n);
    uuid[n] = 0;
    f = strchr(f + 8, ':');
    if (!f)
        return false;
    char *end;
    *format = strtol(f + 1, &end, 10);
    return end != f + 1;
}

static void zk_meta_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx);

static void zk_meta_refuse(cat__zk_store_t *s, const char *what, const char *found)
{
    cm_err_t why = {0};
    const char *root = s->root[0] ? s->root : "/";
    cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR,
               "catalog store \"zookeeper\" refuses to continue: %s at chroot \"%s\" on %s", what, root, s->hosts);
    if (found)
        cm_err_set_detail(&why, "This process serves catalog %s; ZooKeeper now has %s.", s->uuid, found);
    else
        cm_err_set_detail(&why, "This process serves catalog %s.", s->uuid[0] ? s->uuid : "(none yet)");
    cm_err_set_hint(&why, "ZooKeeper was wiped or the chroot replaced. Restart eddy to serve the catalog "
                          "that is there now, or point it at the right chroot.");
    cat__zk_fail_for_good(s, &why);
}

static void zk_meta_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    cat__zk_req_free(r);
    if (s->closing || s->replacing || s->failed)
        return;
    s->meta_sent = false;
    bool again = s->meta_again;
    s->meta_again = false;
    if (cat__zk_rc_transient(s, rc)) {
        /* The next connection checks again. */
        if (zoo_state(s->zh) == ZOO_CONNECTED_STATE)
            cat__zk_meta_check(s, false);
        return;
    }
    if (rc == ZNONODE && !s->uuid[0]) {
        /* Our layout lost a race with a creator whose multi is not visible yet: look again. */
        if (++s->meta_tries < ZK__META_TRIES_MAX) {
            cat__zk_meta_check(s, false);
            return;
        }
    }
    if (rc == ZNONODE)
        return zk_meta_refuse(s, "the catalog's /meta is gone", NULL);
    if (rc == ZNOAUTH) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog store \"zookeeper\" is not allowed to read the catalog at chroot \"%s\" on %s",
                   s->root[0] ? s->root : "/", s->hosts);
        cm_err_set_hint(&why, s->opt.auth != NULL
                                  ? "The credentials of --zookeeper-auth-file are not the ones this catalog is locked to."
                                  : "The catalog is locked to credentials: start eddy with --zookeeper-auth-file.");
        cat__zk_fail_for_good(s, &why);
        return;
    }
    if (rc != ZOK) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" cannot read /meta: %s", zerror(rc));
        cat__zk_fail_for_good(s, &why);
        return;
    }
    char uuid[33];
    long format = 0;
    if (!zk_meta_parse(value, len, uuid, &format))
        return zk_meta_refuse(s, "/meta is not a catalog identity", "something else");
    if (format > CAT_FORMAT || format < 1) {
        cm_err_t why = {0};
        cm_err_set(&why, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog at chroot \"%s\" on %s has format %ld; this eddy understands format %d",
                   s->root[0] ? s->root : "/", s->hosts, format, CAT_FORMAT);
        cm_err_set_hint(&why, "Run a newer eddy against this catalog.");
        cat__zk_fail_for_good(s, &why);
        return;
    }
    if (s->uuid[0] && strcmp(uuid, s->uuid) != 0) {
        char found[64];
        snprintf(found, sizeof(found), "catalog %s", uuid);
        return zk_meta_refuse(s, "the catalog's /meta names another catalog", found);
    }
    memcpy(s->uuid, uuid, sizeof(uuid));
    s->meta_version = stat->version;
    s->layout_done = true;
    cat__zk_acl_check(s);
    if (again) {
        cat__zk_meta_check(s, false);
        return;
    }
    if (s->ready)
        return;
    bool was = s->ever_ready;
    s->ready = true;
    s->ever_ready = true;
    /* Watches do not survive a new session; on a reconnect this is harmless.
     * What the head was before is no longer news: unknown until it lands. */
    s->head_index_seen = -1;
    cat__zk_arm_head_watch(s);
    cat__zk_unpark_all(s);
    /* The head may have moved while we were away: a hint, like a watch. */
    if (was)
        cat__zk_notify(s);
}

static void zk_meta_read(cat__zk_store_t *s)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "/meta");
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    s->meta_sent = true;
    if (cat__zk_sent(r, zoo_awget(s->zh, p, zk_meta_watch, s, zk_meta_done, r)) != ZOK) {
        s->meta_sent = false;
        cat__zk_req_free(r);
    }
}

static void zk_meta_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    cat__zk_store_t *s = ctx;
    if (type == ZOO_SESSION_EVENT || s->closing || s->replacing || s->failed || zh != s->zh)
        return;
    /* Deleted, changed or recreated: which catalog is this now? */
    cat__zk_meta_check(s, false);
}

/* A new connection may have landed on a follower that lags the leader:
 * sync first, so the reads that follow (this session's requests are
 * answered in order) see at least every commit made before it connected. */
static void zk_sync(cat__zk_store_t *s)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "%s", s->root[0] ? "" : "/");
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    if (cat__zk_sent(r, zoo_async(s->zh, p, zk_meta_string_done, r)) != ZOK)
        cat__zk_req_free(r);
}

void cat__zk_meta_check(cat__zk_store_t *s, bool gate)
{
    if (gate)
        s->ready = false;
    if (s->meta_sent) {
        s->meta_again = true;
        return;
    }
    if (gate && s->layout_done)
        zk_sync(s);
    if (!s->layout_done)
        zk_create_layout(s);
    zk_meta_read(s);
}
