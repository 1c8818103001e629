/*
 * cat_zk_acl.c: who may touch the catalog's znodes. With digest
 * credentials every znode the store creates is CREATOR_ALL for them (plus
 * READ for an operators' identity), so a client without them can neither
 * read nor change the catalog; without credentials znodes are open, and the
 * first good /meta of a handle warns when the chroot lets anyone change it.
 * cat_zk_lock_acls walks an existing chroot and sets that ACL everywhere
 * (eddy --zookeeper-lock-acls), on a session of its own.
 */
#include "catalog/cat_zk_int.h"

#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ the store's ACL */

static void zk_acl_build(const char *read_id, struct ACL items[2], struct ACL_vector *v)
{
    items[0].perms = ZOO_PERM_ALL;
    items[0].id.scheme = cm_strdup("auth");
    items[0].id.id = cm_strdup("");
    v->count = 1;
    if (read_id != NULL) {
        items[1].perms = ZOO_PERM_READ;
        items[1].id.scheme = cm_strdup("digest");
        items[1].id.id = cm_strdup(read_id);
        v->count = 2;
    }
    v->data = items;
}

static void zk_acl_items_free(struct ACL *items, int n)
{
    for (int i = 0; i < n; i++) {
        free(items[i].id.scheme);
        free(items[i].id.id);
    }
}

void cat__zk_acl_init(cat__zk_store_t *s)
{
    if (s->opt.auth == NULL) {
        s->acl = ZOO_OPEN_ACL_UNSAFE;
        return;
    }
    zk_acl_build(s->opt.read_id, s->acl_items, &s->acl);
}

void cat__zk_acl_free(cat__zk_store_t *s)
{
    if (s->opt.auth != NULL)
        zk_acl_items_free(s->acl_items, s->acl.count);
    free((char *)s->opt.auth);
    free((char *)s->opt.read_id);
    s->opt.auth = s->opt.read_id = NULL;
}

/* World permissions beyond READ: anyone who reaches ZooKeeper may change it. */
static bool zk_acl_open(const struct ACL_vector *acl)
{
    for (int i = 0; acl != NULL && i < acl->count; i++)
        if (strcmp(acl->data[i].id.scheme, "world") == 0 && (acl->data[i].perms & ~ZOO_PERM_READ) != 0)
            return true;
    return false;
}

static void zk_acl_checked(int rc, struct ACL_vector *acl, struct Stat *stat, const void *data)
{
    (void)stat;
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    bool live = cat__zk_arrived(r, rc);
    cat__zk_req_free(r);
    if (!live || rc != ZOK || s->closing)
        return;
    if (zk_acl_open(acl))
        cm_log_warn("the catalog at chroot \"%s\" on %s has open ACLs: anyone who reaches ZooKeeper can change it; %s",
                    s->root[0] ? s->root : "/", s->hosts,
                    s->opt.auth != NULL ? "lock it with eddy --zookeeper-lock-acls (same --zookeeper-auth-file)"
                                        : "give eddy --zookeeper-auth-file and lock it with eddy --zookeeper-lock-acls");
}

void cat__zk_acl_check(cat__zk_store_t *s)
{
    if (s->acl_checked)
        return;
    s->acl_checked = true;
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "%s", s->root[0] ? "" : "/meta");
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    if (cat__zk_sent(r, zoo_aget_acl(s->zh, p, zk_acl_checked, r)) != ZOK)
        cat__zk_req_free(r);
}

/* ------------------------------------------------------------ locking a chroot */

typedef struct zk_lock {
    zhandle_t *zh;
    bool done;
    int rc;
    struct String_vector kids;
    int64_t deadline_ms;
} zk_lock_t;

static void zk_lock_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    (void)zh, (void)type, (void)state, (void)path, (void)ctx;
}

static void zk_lock_void_done(int rc, const void *data)
{
    zk_lock_t *l = (zk_lock_t *)data;
    l->rc = rc;
    l->done = true;
}

static void zk_lock_children_done(int rc, const struct String_vector *v, const void *data)
{
    zk_lock_t *l = (zk_lock_t *)data;
    l->rc = rc;
    l->done = true;
    l->kids.count = 0;
    l->kids.data = NULL;
    if (rc == ZOK && v != NULL && v->count > 0) {
        l->kids.count = v->count;
        l->kids.data = cm_calloc((size_t)v->count, sizeof(char *));
        for (int i = 0; i < v->count; i++)
            l->kids.data[i] = cm_strdup(v->data[i]);
    }
}

/* Drives the session until the call answered (false: the deadline passed first). */
static bool zk_lock_wait(zk_lock_t *l)
{
    while (!l->done) {
        int fd = -1, interest = 0;
        struct timeval tv = {0, 0};
        if (zookeeper_interest(l->zh, &fd, &interest, &tv) != ZOK && fd < 0)
            return false;
        struct pollfd p = {.fd = fd, .events = 0};
        if (interest & ZOOKEEPER_READ)
            p.events |= POLLIN;
        if (interest & ZOOKEEPER_WRITE)
            p.events |= POLLOUT;
        int wait = (int)(tv.tv_sec * 1000 + tv.tv_usec / 1000);
        int n = poll(&p, fd >= 0 ? 1 : 0, wait < 1 ? 1 : wait > 100 ? 100 : wait);
        int ev = 0;
        if (n > 0 && (p.revents & (POLLIN | POLLERR | POLLHUP)))
            ev |= ZOOKEEPER_READ;
        if (n > 0 && (p.revents & POLLOUT))
            ev |= ZOOKEEPER_WRITE;
        zookeeper_process(l->zh, ev);
        if (cat__zk_now_ms() > l->deadline_ms)
            return false;
    }
    return true;
}

static bool zk_lock_call(zk_lock_t *l, int sent)
{
    if (sent != ZOK) {
        l->rc = sent;
        return false;
    }
    return zk_lock_wait(l);
}

static bool zk_lock_tree(zk_lock_t *l, const char *path, struct ACL_vector *acl, size_t *count, cm_err_t *err)
{
    l->done = false;
    if (!zk_lock_call(l, zoo_aset_acl(l->zh, path, -1, acl, zk_lock_void_done, l)) || l->rc != ZOK) {
        if (l->rc == ZNONODE)
            return true;   /* gone meanwhile: nothing to lock */
        return cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "cannot set the ACL of znode \"%s\": %s", path,
                          l->done ? zerror(l->rc) : "no answer in time");
    }
    (*count)++;
    l->done = false;
    if (!zk_lock_call(l, zoo_aget_children(l->zh, path, 0, zk_lock_children_done, l)) || l->rc != ZOK) {
        if (l->rc == ZNONODE)
            return true;
        return cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "cannot list znode \"%s\": %s", path,
                          l->done ? zerror(l->rc) : "no answer in time");
    }
    struct String_vector kids = l->kids;
    bool ok = true;
    for (int i = 0; i < kids.count && ok; i++) {
        char p[CAT__ZK_PATH_MAX];
        snprintf(p, sizeof p, "%s/%s", strcmp(path, "/") == 0 ? "" : path, kids.data[i]);
        /* ZooKeeper's own quota and config nodes are not the catalog's. */
        if (strcmp(p, "/zookeeper") == 0)
            continue;
        ok = zk_lock_tree(l, p, acl, count, err);
    }
    for (int i = 0; i < kids.count; i++)
        free(kids.data[i]);
    free(kids.data);
    return ok;
}

bool cat_zk_lock_acls(const cat_zk_options_t *o, int timeout_ms, size_t *count, cm_err_t *err)
{
    *count = 0;
    if (o->auth == NULL)
        return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "locking the ACLs needs credentials");
    const char *hosts = o->hosts ? o->hosts : "";
    const char *slash = strchr(hosts, '/');
    char *h = cm_strndup(hosts, slash ? (size_t)(slash - hosts) : strlen(hosts));
    const char *root = slash ? slash : "/";
    zoo_set_debug_level(ZOO_LOG_LEVEL_ERROR);
    zk_lock_t l = {.deadline_ms = cat__zk_now_ms() + timeout_ms};
    l.zh = zookeeper_init(h, zk_lock_watch, o->session_timeout_ms > 0 ? o->session_timeout_ms : 10000, NULL, NULL, 0);
    bool ok = l.zh != NULL;
    if (!ok)
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "cannot start a ZooKeeper session with %s", h);
    if (ok) {
        l.done = false;
        ok = zk_lock_call(&l, zoo_add_auth(l.zh, "digest", o->auth, (int)strlen(o->auth), zk_lock_void_done, &l)) &&
             l.rc == ZOK;
        if (!ok)
            cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "cannot authenticate with ZooKeeper at %s: %s", h,
                       l.done ? zerror(l.rc) : "no answer in time");
    }
    struct ACL items[2];
    struct ACL_vector acl;
    zk_acl_build(o->read_id, items, &acl);
    if (ok)
        ok = zk_lock_tree(&l, root, &acl, count, err);
    if (!ok && err->message != NULL)
        cm_err_set_hint(err, "The chroot is \"%s\"; a znode locked to other credentials cannot be changed.", root);
    zk_acl_items_free(items, acl.count);
    if (l.zh != NULL)
        zookeeper_close(l.zh);
    free(h);
    return ok;
}
