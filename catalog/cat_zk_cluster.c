/*
 * cat_zk_cluster.c: cluster ownership on store_zk (DESIGN §5,
 * reference/zk.md §6.4): who is worker 0 of a cluster, with which epoch,
 * and the fenced /clusters/<name>/applied.
 *
 * One step is in flight at a time, driven from housekeeping (between
 * library turns): create the layout, then look at the owner node with an
 * exists-watch; absent: read the epoch node and send one multi that creates
 * the EPHEMERAL owner node and sets the epoch node to epoch+1 at the version
 * read. Only the creator of the owner node can bump the epoch, and the
 * bump and the creation happen together, so two contenders never both
 * think they own it. As owner, each publish is a multi whose first op
 * checks the epoch node at the version our bump produced: once another
 * process took over (after our session expired), it fails whole. A
 * completion from an earlier session, or one that finds the epoch moved,
 * ends ownership (`lost`), and the handle contends again as a standby.
 */
#include "catalog/cat_zk_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define ZK__CLUSTER_NAME_MAX 64
#define ZK__CLUSTER_DATA_MAX 512
#define ZK__CLUSTER_RETRY_MS 200   /* after a failed step: the next one no sooner */

struct cat__zk_cluster {
    char name[ZK__CLUSTER_NAME_MAX + 1];
    char *instance;
    cat_zk_cluster_events_t ev;
    cat_zk_role_t role;
    uint64_t epoch;             /* owned (OWNER), else the last one held */
    int32_t epoch_version;      /* the epoch node's version our bump produced */
    uint64_t session;           /* s->sessions when the step in flight or the ownership began */
    bool layout_done;
    bool busy;                  /* a step is in flight */
    bool watching;              /* standby: the exists-watch on the owner node is armed */
    bool look_again;            /* the watch fired, or a step asked for another look */
    int64_t not_before_ms;      /* back-off after a failed step */
    uint64_t want, published;   /* publishing /applied */
    int64_t next_publish_ms;    /* applied_publish_ms after the last one */
    /* the multi in flight */
    zoo_op_t ops[2];
    zoo_op_result_t results[2];
    char path_owner[CAT__ZK_PATH_MAX], path_epoch[CAT__ZK_PATH_MAX], path_applied[CAT__ZK_PATH_MAX];
    char created[CAT__ZK_PATH_MAX];
    char data[ZK__CLUSTER_DATA_MAX], data2[32];
    uint64_t sending;           /* the applied value in flight */
    uint64_t claiming;          /* the epoch the claim in flight would own */
};

bool cat_zk_cluster_name_valid(const char *name)
{
    size_t n = strlen(name);
    if (n == 0 || n > ZK__CLUSTER_NAME_MAX)
        return false;
    for (size_t i = 0; i < n; i++) {
        char ch = name[i];
        if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || (ch >= '0' && ch <= '9') || ch == '_' ||
              ch == '-'))
            return false;
    }
    return true;
}

static void zk_cluster_backoff(cat__zk_cluster_t *c)
{
    c->not_before_ms = cat__zk_now_ms() + ZK__CLUSTER_RETRY_MS;
}

static void zk_cluster_lose(cat__zk_store_t *s, const char *why)
{
    cat__zk_cluster_t *c = s->cluster;
    if (c->role != CAT_ZK_ROLE_OWNER)
        return;
    c->role = CAT_ZK_ROLE_STANDBY;
    c->watching = false;
    c->look_again = true;
    cm_log_warn("cluster \"%s\": no longer the owner (epoch %" PRIu64 "): %s", c->name, c->epoch, why);
    if (c->ev.lost)
        c->ev.lost(c->ev.arg, c->epoch);
}

void cat__zk_cluster_expired(cat__zk_store_t *s)
{
    if (s->cluster == NULL)
        return;
    s->cluster->watching = false;   /* watches die with the session */
    zk_cluster_lose(s, "the ZooKeeper session expired");
}

/* A completion: false when it belongs to a session that is gone (ignore it). */
static bool zk_cluster_current(cat__zk_store_t *s)
{
    cat__zk_cluster_t *c = s->cluster;
    c->busy = false;
    return !s->closing && !s->replacing && c->session == s->sessions;
}

/* A completion whose request is done with: frees it; the store, or NULL when
 * the answer belongs to a session that is gone (ignore it). */
static cat__zk_store_t *zk_cluster_answered(const void *data, int rc)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    cat__zk_req_free(r);
    return s->cluster != NULL && zk_cluster_current(s) ? s : NULL;
}

/* ------------------------------------------------------------ layout */

static void zk_cluster_layout_done(int rc, const char *value, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    bool last = cat__zk_arrived(r, rc == ZNODEEXISTS ? ZOK : rc);
    if (!last)
        return;
    int first = r->rc;
    cat__zk_req_free(r);
    if (s->cluster == NULL || !zk_cluster_current(s))
        return;
    if (first == ZOK)
        s->cluster->layout_done = true;
    else
        zk_cluster_backoff(s->cluster);
}

static void zk_cluster_layout(cat__zk_store_t *s)
{
    cat__zk_cluster_t *c = s->cluster;
    char p[4][CAT__ZK_PATH_MAX];
    cat__zk_path(s, p[0], "/clusters");
    cat__zk_path(s, p[1], "/clusters/%s", c->name);
    cat__zk_path(s, p[2], "/clusters/%s/epoch", c->name);
    cat__zk_path(s, p[3], "/clusters/%s/applied", c->name);
    const char *val[4] = {"", "", "0", ""};
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    c->busy = true;
    /* One session orders them: each parent is created before its child. */
    for (int i = 0; i < 4; i++)
        cat__zk_sent(r, zoo_acreate(s->zh, p[i], val[i], (int)strlen(val[i]), &s->acl, 0,
                                    zk_cluster_layout_done, r));
    if (r->outstanding == 0) {
        cat__zk_req_free(r);
        c->busy = false;
        zk_cluster_backoff(c);
    }
}

/* ------------------------------------------------------------ contending */

static void zk_cluster_owner_watch(zhandle_t *zh, int type, int state, const char *path, void *ctx)
{
    cat__zk_store_t *s = ctx;
    if (type == ZOO_SESSION_EVENT || s->closing || s->cluster == NULL || zh != s->zh)
        return;
    s->cluster->watching = false;
    s->cluster->look_again = true;
}

static void zk_cluster_claim_done(int rc, const void *data)
{
    cat__zk_store_t *s = zk_cluster_answered(data, rc);
    if (s == NULL)
        return;
    cat__zk_cluster_t *c = s->cluster;
    if (rc == ZOK && c->results[1].err == ZOK && c->results[1].stat != NULL) {
        c->role = CAT_ZK_ROLE_OWNER;
        c->epoch = c->claiming;
        c->epoch_version = c->results[1].stat->version;
        c->published = 0;
        c->want = 0;
        free(c->results[1].stat);
        c->results[1].stat = NULL;
        cm_log_info("cluster \"%s\": this process is the owner, epoch %" PRIu64, c->name, c->epoch);
        if (c->ev.granted)
            c->ev.granted(c->ev.arg, c->epoch);
        return;
    }
    free(c->results[1].stat);
    c->results[1].stat = NULL;
    /* Someone else created the owner node, or bumped the epoch: look again. */
    c->look_again = true;
    if (rc != ZNODEEXISTS && rc != ZBADVERSION)
        zk_cluster_backoff(c);
}

static void zk_cluster_epoch_read(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (s->cluster == NULL || !zk_cluster_current(s) || rc != ZOK) {
        if (s->cluster != NULL && !s->closing) {
            s->cluster->look_again = true;
            zk_cluster_backoff(s->cluster);
        }
        cat__zk_req_free(r);
        return;
    }
    cat__zk_cluster_t *c = s->cluster;
    uint64_t epoch = 0;
    if (len > 0 && !cat__zk_parse_u64(value, len, &epoch)) {
        cm_log_error("cluster \"%s\": %s holds no epoch; not contending", c->name, c->path_epoch);
        cat__zk_req_free(r);
        return;
    }
    c->claiming = epoch + 1;
    snprintf(c->data, sizeof c->data, "{\"epoch\":%" PRIu64 ",\"instance\":\"%s\"}", c->claiming, c->instance);
    snprintf(c->data2, sizeof c->data2, "%" PRIu64, c->claiming);
    zoo_create_op_init(&c->ops[0], c->path_owner, c->data, (int)strlen(c->data), &s->acl,
                       ZOO_EPHEMERAL, c->created, sizeof c->created);
    c->results[1].stat = cm_calloc(1, sizeof(struct Stat));
    zoo_set_op_init(&c->ops[1], c->path_epoch, c->data2, (int)strlen(c->data2), stat->version,
                    c->results[1].stat);
    c->busy = true;
    if (cat__zk_sent(r, zoo_amulti(s->zh, 2, c->ops, c->results, zk_cluster_claim_done, r)) != ZOK) {
        c->busy = false;
        free(c->results[1].stat);
        c->results[1].stat = NULL;
        c->look_again = true;
        zk_cluster_backoff(c);
        cat__zk_req_free(r);
    }
}

static void zk_cluster_removed(int rc, const void *data)
{
    cat__zk_store_t *s = zk_cluster_answered(data, rc);
    if (s == NULL)
        return;
    s->cluster->look_again = true;
    if (rc != ZOK && rc != ZNONODE)
        zk_cluster_backoff(s->cluster);
}

static void zk_cluster_exists_done(int rc, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (s->cluster == NULL || !zk_cluster_current(s)) {
        cat__zk_req_free(r);
        return;
    }
    cat__zk_cluster_t *c = s->cluster;
    if (rc == ZOK && stat->ephemeralOwner == zoo_client_id(s->zh)->client_id) {
        /* Ours, left when this process stepped down while cut off and its
         * session survived: removed, so that the cluster gets an owner again
         * (the watch just armed brings the next look). */
        cm_log_warn("cluster \"%s\": removing the owner node this process left when it stepped down", c->name);
        c->watching = true;
        c->busy = true;
        if (cat__zk_sent(r, zoo_adelete(s->zh, c->path_owner, stat->version, zk_cluster_removed, r)) != ZOK) {
            c->busy = false;
            c->look_again = true;
            zk_cluster_backoff(c);
            cat__zk_req_free(r);
        }
        return;
    }
    if (rc == ZOK) {
        if (c->role != CAT_ZK_ROLE_STANDBY)
            cm_log_info("cluster \"%s\": another process owns it; this one is a standby", c->name);
        c->role = CAT_ZK_ROLE_STANDBY;
        c->watching = true;   /* until the node changes */
        cat__zk_req_free(r);
        return;
    }
    if (rc != ZNONODE) {
        c->look_again = true;
        zk_cluster_backoff(c);
        cat__zk_req_free(r);
        return;
    }
    /* No owner: the watch stays armed for the node's creation; claim. */
    c->watching = true;
    c->busy = true;
    if (cat__zk_sent(r, zoo_aget(s->zh, c->path_epoch, 0, zk_cluster_epoch_read, r)) != ZOK) {
        c->busy = false;
        c->look_again = true;
        zk_cluster_backoff(c);
        cat__zk_req_free(r);
    }
}

static void zk_cluster_look(cat__zk_store_t *s)
{
    cat__zk_cluster_t *c = s->cluster;
    c->look_again = false;
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    c->busy = true;
    if (cat__zk_sent(r, zoo_awexists(s->zh, c->path_owner, zk_cluster_owner_watch, s, zk_cluster_exists_done, r)) !=
        ZOK) {
        c->busy = false;
        c->look_again = true;
        zk_cluster_backoff(c);
        cat__zk_req_free(r);
    }
}

/* ------------------------------------------------------------ publishing */

static void zk_cluster_publish_done(int rc, const void *data)
{
    cat__zk_store_t *s = zk_cluster_answered(data, rc);
    if (s == NULL)
        return;
    cat__zk_cluster_t *c = s->cluster;
    if (rc == ZOK) {
        c->published = c->sending;
        c->next_publish_ms = cat__zk_now_ms() + s->opt.applied_publish_ms;
        return;
    }
    if (c->results[0].err == ZBADVERSION || c->results[0].err == ZNONODE) {
        zk_cluster_lose(s, "the epoch moved on (another process took over)");
        return;
    }
    zk_cluster_backoff(c);   /* transient: published again later */
}

static void zk_cluster_publish_send(cat__zk_store_t *s)
{
    cat__zk_cluster_t *c = s->cluster;
    c->sending = c->want;
    snprintf(c->data, sizeof c->data, "{\"epoch\":%" PRIu64 ",\"applied\":%" PRIu64 "}", c->epoch, c->sending);
    zoo_check_op_init(&c->ops[0], c->path_epoch, c->epoch_version);
    zoo_set_op_init(&c->ops[1], c->path_applied, c->data, (int)strlen(c->data), -1, NULL);
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    c->busy = true;
    if (cat__zk_sent(r, zoo_amulti(s->zh, 2, c->ops, c->results, zk_cluster_publish_done, r)) != ZOK) {
        c->busy = false;
        zk_cluster_backoff(c);
        cat__zk_req_free(r);
    }
}

/* ------------------------------------------------------------ driving */

void cat__zk_cluster_step(cat__zk_store_t *s)
{
    cat__zk_cluster_t *c = s->cluster;
    /* Cut off for longer than the session timeout: by now ZooKeeper has
     * expired the session, unless no server could (the whole ensemble was
     * down), and another process may own the cluster. The owner steps down
     * on its own clock instead of learning it at the next reconnect; should
     * the session have survived after all, the owner node it left is
     * removed when it looks again (zk_cluster_exists_done). */
    if (c != NULL && c->role == CAT_ZK_ROLE_OWNER && !s->connected && s->cut_off_ms > 0 && s->zh != NULL &&
        cat__zk_now_ms() - s->cut_off_ms >= zoo_recv_timeout(s->zh))
        zk_cluster_lose(s, "cut off from ZooKeeper for longer than the session timeout");
    if (c == NULL || c->busy || !s->ready || s->closing || s->failed || s->expired || s->zh == NULL)
        return;
    if (cat__zk_now_ms() < c->not_before_ms)
        return;
    c->session = s->sessions;
    if (!c->layout_done)
        return zk_cluster_layout(s);
    if (c->role == CAT_ZK_ROLE_OWNER) {
        /* Progress is news for trimming and for operators, not for the
         * commits it would queue behind: coalesced to one write per interval. */
        if (c->want > c->published && cat__zk_now_ms() >= c->next_publish_ms)
            zk_cluster_publish_send(s);
        return;
    }
    if (!c->watching || c->look_again)
        zk_cluster_look(s);
}

int64_t cat__zk_cluster_due_ms(const cat__zk_store_t *s)
{
    const cat__zk_cluster_t *c = s->cluster;
    if (c != NULL && c->role == CAT_ZK_ROLE_OWNER && !s->connected && s->cut_off_ms > 0 && s->zh != NULL)
        return s->cut_off_ms + zoo_recv_timeout(s->zh);   /* stepping down, see cat__zk_cluster_step */
    if (c == NULL || c->busy)
        return INT64_MAX;
    if (c->role == CAT_ZK_ROLE_OWNER && c->want > c->published)
        return c->next_publish_ms > c->not_before_ms ? c->next_publish_ms : c->not_before_ms;
    if (c->role != CAT_ZK_ROLE_OWNER && (!c->watching || c->look_again))
        return c->not_before_ms;
    return INT64_MAX;
}

void cat__zk_cluster_free(cat__zk_store_t *s)
{
    if (s->cluster == NULL)
        return;
    free(s->cluster->results[1].stat);
    free(s->cluster->instance);
    free(s->cluster);
    s->cluster = NULL;
}

int cat_store_zk_cluster_join(cat_store_t *base, const char *name, const char *instance,
                              const cat_zk_cluster_events_t *ev, cm_err_t *err)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (!cat_zk_cluster_name_valid(name))
        return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "invalid cluster name \"%s\": use 1 to %d of A-Z, a-z, 0-9, _ and -", name,
                          ZK__CLUSTER_NAME_MAX),
               -1;
    if (s->cluster != NULL)
        return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "this store handle already joined a cluster"), -1;
    cat__zk_cluster_t *c = cm_calloc(1, sizeof *c);
    snprintf(c->name, sizeof c->name, "%s", name);
    /* The instance is shown inside JSON: keep it to characters that need no escaping. */
    c->instance = cm_strdup(instance ? instance : "");
    for (char *p = c->instance; *p; p++)
        if (*p == '"' || *p == '\\' || (unsigned char)*p < 0x20)
            *p = '_';
    if (strlen(c->instance) > 200)
        c->instance[200] = '\0';
    if (ev)
        c->ev = *ev;
    cat__zk_path(s, c->path_owner, "/clusters/%s/owner", name);
    cat__zk_path(s, c->path_epoch, "/clusters/%s/epoch", name);
    cat__zk_path(s, c->path_applied, "/clusters/%s/applied", name);
    s->cluster = c;
    cat__zk_cluster_step(s);
    return 0;
}

cat_zk_role_t cat_store_zk_cluster_role(cat_store_t *base, uint64_t *epoch)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (s->cluster == NULL)
        return CAT_ZK_ROLE_NONE;
    if (epoch)
        *epoch = s->cluster->epoch;
    return s->cluster->role;
}

void cat_store_zk_cluster_publish(cat_store_t *base, uint64_t applied)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (s->cluster == NULL || s->cluster->role != CAT_ZK_ROLE_OWNER)
        return;
    if (applied > s->cluster->want)
        s->cluster->want = applied;
    cat__zk_cluster_step(s);
}

uint64_t cat_store_zk_cluster_published(cat_store_t *base)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    return s->cluster ? s->cluster->published : 0;
}
