/*
 * cat_zk_trim.c: store_zk's log trimming, fenced so that a stale process
 * cannot trim.
 *
 * /trim is a persistent node whose version is the trimming epoch. A handle
 * claims trimming by a compare-and-swap on it (read, then set at the
 * version read) and remembers the version its set produced. Every trim
 * transaction starts with a check of /trim at that version, so once another
 * handle claims, this handle's next trim fails as a whole and the handle
 * stays FENCED. (A check on an ephemeral owner node would not do: a
 * recreated node starts again at version 0.)
 *
 * Retention: a trim never removes the newest log_keep entries (at least
 * the head's own entry, so a reader can always learn the head from the
 * log) nor an entry younger than log_keep_ms by its ZooKeeper ctime. A
 * reader that asks for a trimmed entry gets CAT_STORE_TRIMMED and
 * re-bootstraps from a snapshot. The same round removes request markers
 * older than request_keep_ms, in the same fenced transactions.
 */
#include "catalog/cat_zk_int.h"

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Deletes per transaction (each also carries the epoch check). */
#define ZK__TRIM_BATCH 100
/* Entries one trim call looks at: housekeeping comes back for the rest. */
#define ZK__TRIM_SCAN_MAX 2000
/* Claims that lost a race to another claimer before giving up this round. */
#define ZK__CLAIM_TRIES_MAX 5

static void zk_trim_run(cat__zk_store_t *s, uint64_t below);

/* ------------------------------------------------------------- claiming */

static void zk_claim_get(cat__zk_req_t *r);

static void zk_claim_after(cat__zk_store_t *s)
{
    uint64_t below = s->trim_below;
    s->trim_below = 0;
    if (below && s->trim_state == CAT_ZK_TRIM_OWNER)
        zk_trim_run(s, below);
}

static void zk_claim_set_done(int rc, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (s->closing || s->replacing) {
        cat__zk_req_free(r);
        return;
    }
    if (rc == ZOK) {
        s->trim_version = stat->version;
        s->trim_state = CAT_ZK_TRIM_OWNER;
        cat__zk_req_free(r);
        return zk_claim_after(s);
    }
    if (rc == ZBADVERSION && ++r->tries < ZK__CLAIM_TRIES_MAX) {
        r->rc = ZOK;
        return zk_claim_get(r);
    }
    cm_log_warn("catalog store \"zookeeper\": could not claim log trimming: %s", zerror(rc));
    s->trim_state = CAT_ZK_TRIM_NONE;
    s->trim_below = 0;
    cat__zk_req_free(r);
}

static void zk_claim_get_done(int rc, const char *value, int len, const struct Stat *stat, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (s->closing || s->replacing || rc != ZOK) {
        if (!s->closing && !s->replacing) {
            cm_log_warn("catalog store \"zookeeper\": could not claim log trimming: %s", zerror(rc));
            s->trim_state = CAT_ZK_TRIM_NONE;
            s->trim_below = 0;
        }
        cat__zk_req_free(r);
        return;
    }
    /* The data names the epoch the set produces, for people reading ZooKeeper. */
    snprintf(r->index_buf, sizeof(r->index_buf), "%d", stat->version + 1);
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "/trim");
    int src = cat__zk_sent(r, zoo_aset(s->zh, p, r->index_buf, (int)strlen(r->index_buf), stat->version,
                                       zk_claim_set_done, r));
    if (src != ZOK) {
        s->trim_state = CAT_ZK_TRIM_NONE;
        cat__zk_req_free(r);
    }
}

static void zk_claim_create_done(int rc, const char *value, const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_arrived(r, rc);
    /* Created or already there: claim it. */
    zk_claim_get(r);
}

static void zk_claim_get(cat__zk_req_t *r)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(r->s, p, "/trim");
    if (cat__zk_sent(r, zoo_aget(r->s->zh, p, 0, zk_claim_get_done, r)) != ZOK) {
        r->s->trim_state = CAT_ZK_TRIM_NONE;
        cat__zk_req_free(r);
    }
}

static int zk_usable(cat__zk_store_t *s, cm_err_t *err)
{
    if (s->failed) {
        cm_err_set(err, s->fail_err.sqlstate, "%s", s->fail_err.message);
        return -1;
    }
    if (!s->ready || s->closing || s->expired) {
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" is not connected");
        return -1;
    }
    return 0;
}

int cat_store_zk_trim_claim(cat_store_t *base, cm_err_t *err)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (zk_usable(s, err) != 0)
        return -1;
    if (s->trim_state == CAT_ZK_TRIM_CLAIMING)
        return 0;
    s->trim_state = CAT_ZK_TRIM_CLAIMING;
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "/trim");
    /* A catalog made before /trim existed gets it here; "exists" is the usual answer. */
    if (cat__zk_sent(r, zoo_acreate(s->zh, p, "0", 1, &s->acl, 0, zk_claim_create_done, r)) != ZOK) {
        s->trim_state = CAT_ZK_TRIM_NONE;
        cat__zk_req_free(r);
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR, "catalog store \"zookeeper\" is not connected");
        return -1;
    }
    return 0;
}

cat_zk_trim_state_t cat_store_zk_trim_state(cat_store_t *base)
{
    return ((cat__zk_store_t *)base)->trim_state;
}

uint64_t cat_store_zk_trimmed(cat_store_t *base)
{
    return ((cat__zk_store_t *)base)->trimmed;
}

/* ------------------------------------------------------------- trimming */

static void zk_trim_batch_done(int rc, const void *data)
{
    const cat__zk_slot_t *sl = data;
    cat__zk_req_t *r = sl->r;
    cat__zk_store_t *s = r->s;
    size_t first = sl->i * (ZK__TRIM_BATCH + 1);
    if (!s->closing && !s->replacing) {
        if (rc == ZOK) {
            size_t n = r->n - sl->i * ZK__TRIM_BATCH;
            if (strcmp(r->ukey, "log") == 0)
                s->trimmed += n > ZK__TRIM_BATCH ? ZK__TRIM_BATCH : n;
        } else if (r->results[first].err == ZBADVERSION || r->results[first].err == ZNONODE) {
            if (s->trim_state != CAT_ZK_TRIM_FENCED)
                cm_log_warn("catalog store \"zookeeper\": log trimming of chroot \"%s\" was claimed by another "
                            "process; this one no longer trims", s->root[0] ? s->root : "/");
            s->trim_state = CAT_ZK_TRIM_FENCED;
        }
    }
    if (cat__zk_arrived(r, rc))
        cat__zk_req_free(r);
}

static int zk_cmp_u64(const void *a, const void *b)
{
    uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;
    return x < y ? -1 : x > y;
}

/* Sends the deletes of r->from.. (the candidates in r->keys[0..n)) in fenced batches. */
static void zk_trim_send(cat__zk_req_t *r)
{
    cat__zk_store_t *s = r->s;
    size_t batches = (r->n + ZK__TRIM_BATCH - 1) / ZK__TRIM_BATCH;
    if (batches == 0) {
        cat__zk_req_free(r);
        return;
    }
    r->nops = r->n + batches;
    r->ops = cm_calloc(r->nops, sizeof(zoo_op_t));
    r->results = cm_calloc(r->nops, sizeof(zoo_op_result_t));
    r->paths = cm_calloc(r->nops, sizeof(char *));
    free(r->slots);
    r->slots = cm_calloc(batches, sizeof(cat__zk_slot_t));
    char p[CAT__ZK_PATH_MAX];
    size_t op = 0;
    for (size_t b = 0; b < batches; b++) {
        size_t first = op;
        r->slots[b] = (cat__zk_slot_t){r, b};
        cat__zk_path(s, p, "/trim");
        r->paths[op] = cm_strdup(p);
        zoo_check_op_init(&r->ops[op], r->paths[op], s->trim_version);
        op++;
        for (size_t i = b * ZK__TRIM_BATCH; i < r->n && i < (b + 1) * ZK__TRIM_BATCH; i++, op++) {
            cat__zk_path(s, p, "/%s/%s", r->ukey, r->keys[i]);
            r->paths[op] = cm_strdup(p);
            zoo_delete_op_init(&r->ops[op], r->paths[op], -1);
        }
        if (cat__zk_sent(r, zoo_amulti(s->zh, (int)(op - first), &r->ops[first], &r->results[first],
                                       zk_trim_batch_done, &r->slots[b])) != ZOK)
            break;
    }
    if (r->outstanding == 0)
        cat__zk_req_free(r);
}

/*
 * Keeps the candidates old enough to go: for the log the prefix (creation
 * order is index order, and the log must stay gap-free from its oldest
 * entry), for request markers every one past the window.
 */
static void zk_trim_age_done(int rc, const struct Stat *stat, const void *data)
{
    const cat__zk_slot_t *sl = data;
    cat__zk_req_t *r = sl->r;
    r->ctime[sl->i] = rc == ZOK ? stat->ctime : INT64_MAX;
    if (!cat__zk_arrived(r, rc))
        return;
    if (r->s->closing || r->s->replacing || r->s->trim_state != CAT_ZK_TRIM_OWNER) {
        cat__zk_req_free(r);
        return;
    }
    bool log = strcmp(r->ukey, "log") == 0;
    int64_t cutoff = cm_now_wall_us() / 1000 - (log ? r->s->opt.log_keep_ms : r->s->opt.request_keep_ms);
    size_t keep = 0;
    for (size_t i = 0; i < r->n; i++) {
        if (r->ctime[i] <= cutoff) {
            char *k = r->keys[i];
            r->keys[i] = NULL;
            r->keys[keep++] = k;
        } else if (log) {
            for (size_t j = i; j < r->n; j++) {
                free(r->keys[j]);
                r->keys[j] = NULL;
            }
            break;
        } else {
            free(r->keys[i]);
            r->keys[i] = NULL;
        }
    }
    r->n = keep;
    zk_trim_send(r);
}

/* Asks for the creation time of every candidate; zk_trim_age_done decides. */
static void zk_trim_ages(cat__zk_req_t *r)
{
    for (size_t i = 0; i < r->n; i++) {
        char p[CAT__ZK_PATH_MAX];
        cat__zk_path(r->s, p, "/%s/%s", r->ukey, r->keys[i]);
        if (cat__zk_sent(r, zoo_aexists(r->s->zh, p, 0, zk_trim_age_done, &r->slots[i])) != ZOK) {
            /* Unsent ones count as too young. */
            for (size_t j = i; j < r->n; j++)
                r->ctime[j] = INT64_MAX;
            break;
        }
    }
    if (r->outstanding == 0)
        cat__zk_req_free(r);
}

static void zk_markers_children_done(int rc, const struct String_vector *names, const struct Stat *stat,
                                     const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (rc != ZOK || !names || names->count == 0 || s->closing || s->replacing ||
        s->trim_state != CAT_ZK_TRIM_OWNER) {
        cat__zk_req_free(r);
        return;
    }
    size_t cand = (size_t)names->count < ZK__TRIM_SCAN_MAX ? (size_t)names->count : ZK__TRIM_SCAN_MAX;
    cat__zk_req_alloc_reads(r, cand);
    for (size_t i = 0; i < cand; i++)
        r->keys[i] = cm_strdup(names->data[i]);
    zk_trim_ages(r);
}

static void zk_trim_children_done(int rc, const struct String_vector *names, const struct Stat *stat,
                                  const void *data)
{
    cat__zk_req_t *r = (cat__zk_req_t *)data;
    cat__zk_store_t *s = r->s;
    cat__zk_arrived(r, rc);
    if (rc != ZOK || !names || s->closing || s->replacing || s->trim_state != CAT_ZK_TRIM_OWNER) {
        cat__zk_req_free(r);
        return;
    }
    uint64_t *ix = cm_calloc((size_t)names->count + 1, sizeof(uint64_t));
    size_t n = 0;
    for (int i = 0; i < names->count; i++)
        if (cat__zk_parse_u64(names->data[i], (int)strlen(names->data[i]), &ix[n]))
            n++;
    qsort(ix, n, sizeof(uint64_t), zk_cmp_u64);
    uint64_t newest = n ? ix[n - 1] : 0;
    uint64_t keep = s->opt.log_keep ? s->opt.log_keep : 1;
    uint64_t limit = newest + 1 > keep ? newest + 1 - keep : 0;
    if (r->from < limit)
        limit = r->from;
    size_t cand = 0;
    while (cand < n && ix[cand] < limit && cand < ZK__TRIM_SCAN_MAX)
        cand++;
    cat__zk_req_alloc_reads(r, cand);
    for (size_t i = 0; i < cand; i++) {
        char name[24];
        snprintf(name, sizeof(name), "%020" PRIu64, ix[i]);
        r->keys[i] = cm_strdup(name);
    }
    free(ix);
    if (s->opt.log_keep_ms <= 0 || cand == 0)
        return zk_trim_send(r);
    zk_trim_ages(r);
}

/* One round of housekeeping: log entries below `below`, and request markers
 * past their window (they only resolve ambiguous commits, which end within
 * a caller's timeout; markers of any age are kept when the window is 0). */
static void zk_trim_run(cat__zk_store_t *s, uint64_t below)
{
    char p[CAT__ZK_PATH_MAX];
    cat__zk_path(s, p, "/log");
    cat__zk_req_t *r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    r->from = below;
    snprintf(r->ukey, sizeof(r->ukey), "log");
    if (cat__zk_sent(r, zoo_aget_children2(s->zh, p, 0, zk_trim_children_done, r)) != ZOK)
        cat__zk_req_free(r);
    if (s->opt.request_keep_ms <= 0)
        return;
    cat__zk_path(s, p, "/requests");
    r = cat__zk_req_new(s, CAT__ZK_INTERNAL, NULL, NULL);
    snprintf(r->ukey, sizeof(r->ukey), "requests");
    if (cat__zk_sent(r, zoo_aget_children2(s->zh, p, 0, zk_markers_children_done, r)) != ZOK)
        cat__zk_req_free(r);
}

int cat__zk_log_trim(cat_store_t *base, uint64_t below, cm_err_t *err)
{
    cat__zk_store_t *s = (cat__zk_store_t *)base;
    if (zk_usable(s, err) != 0)
        return -1;
    switch (s->trim_state) {
    case CAT_ZK_TRIM_FENCED:
        cm_err_set(err, CAT__ZK_ERRCODE_SYSTEM_ERROR,
                   "catalog log trimming of chroot \"%s\" belongs to another process now", s->root[0] ? s->root : "/");
        cm_err_set_hint(err, "Claim it again (a new epoch) only if this process is the rightful owner.");
        return -1;
    case CAT_ZK_TRIM_NONE:
        s->trim_below = below;
        return cat_store_zk_trim_claim(base, err);
    case CAT_ZK_TRIM_CLAIMING:
        if (below > s->trim_below)
            s->trim_below = below;
        return 0;
    case CAT_ZK_TRIM_OWNER:
        zk_trim_run(s, below);
        return 0;
    }
    return 0;
}
