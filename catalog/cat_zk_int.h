/*
 * cat_zk_int.h: what the files of store_zk share (nothing outside catalog/
 * includes it).
 *
 *   cat_zk_session.c  open, close, the session watcher, replacing an expired
 *                     session, the loop hooks
 *   cat_zk_call.c     the life of a call: send or park, restart, answer, timeouts
 *   cat_zk_meta.c     the layout, the /meta identity check and its watch
 *   cat_zk_read.c     head, log reads, snapshots, request lookups, head watch
 *   cat_zk_commit.c   the commit transaction and resolving ambiguous ones
 *   cat_zk_trim.c     fenced log trimming
 *   cat_zk_cluster.c  cluster ownership: owner node, epoch CAS, fenced applied
 *
 * A user call is a request (cat__zk_req_t). It is sent when the store is
 * ready, or parked until it is. Every zoo_a* call made for it counts in
 * `outstanding`; the library calls every completion exactly once (with
 * ZCONNECTIONLOSS or ZCLOSING if need be), so a request decides what to do
 * only once all of a step's completions are back: answer, or, when the
 * connection or session failed under it, park and start again (a commit
 * then resolves through its /requests marker). A request answered early (a
 * timeout, the store failing for good) stays allocated until its last
 * completion arrives.
 */
#ifndef EDDY_CAT_ZK_INT_H
#define EDDY_CAT_ZK_INT_H

#include "catalog/cat_int.h"

#include <zookeeper/zookeeper.h>

/* PostgreSQL's system_error: the store is unreachable or failed. */
#define CAT__ZK_ERRCODE_SYSTEM_ERROR "58000"
#define CAT__ZK_ERRCODE_INTERNAL_ERROR "XX000"
#define CAT__ZK_PATH_MAX 1024

typedef struct cat__zk_store cat__zk_store_t;
typedef struct cat__zk_req cat__zk_req_t;
typedef struct cat__zk_cluster cat__zk_cluster_t;

struct cat__zk_store {
    cat_store_t base;
    zhandle_t *zh;
    char *hosts;                /* the connect string without the chroot */
    char *root;                 /* "" or "/a/b": prefix of every path */
    cat_zk_options_t opt;       /* opt.hosts points to the caller's string: unused after open */
    uint64_t generation;        /* bumped whenever the socket may have been replaced */
    uint64_t sessions;          /* sessions opened so far */
    bool closing;
    bool replacing;             /* inside zookeeper_close of an expired session */
    bool expired;               /* the session expired: replace it at the next turn */
    bool failed;                /* for good: fail_err says why */
    cm_err_t fail_err;
    bool connected;
    int64_t cut_off_ms;         /* when the connection was lost (cat__zk_now_ms); 0 while connected */
    bool ever_ready;            /* calls are accepted from the first ready on */
    bool ready;                 /* connected and /meta checked in this session */
    bool layout_done;           /* the layout exists (created or found once) */
    bool meta_sent;             /* a layout creation or /meta check is in flight */
    bool meta_again;            /* /meta changed during the check: check again */
    int meta_tries;             /* checks that found no /meta before the identity was known */
    char uuid[33];              /* the catalog_uuid this handle serves, "" before the first check */
    int32_t meta_version;       /* /meta's stat.version: every commit checks it */
    int64_t head_version_seen;  /* /catalog/head's version at the last watch (re-)arm, -1 before */
    int64_t head_index_seen;    /* ... and its index; -1: unknown (before, and on a new connection
                                   until the watch is armed again) */
    size_t pending;             /* completions the library still owes */
    cat__zk_req_t *live;        /* user requests not answered yet (timeouts) */
    cat__zk_req_t *parked;      /* user requests waiting for the store to be ready */
    /* fenced trimming */
    cat_zk_trim_state_t trim_state;
    int32_t trim_version;       /* /trim's version our claim produced: the epoch */
    uint64_t trim_below;        /* a trim asked for while the claim runs (0: none) */
    uint64_t trimmed;
    cat__zk_cluster_t *cluster; /* cat_store_zk_cluster_join; NULL: none */
    /* The ACL of every znode the store creates (cat_zk_acl.c): CREATOR_ALL for opt.auth (plus
     * READ for opt.read_id), or open without credentials. */
    struct ACL acl_items[2];
    struct ACL_vector acl;
    bool acl_checked;           /* the chroot's own ACL was looked at (open ones are warned of) */
};

typedef enum cat__zk_kind {
    CAT__ZK_HEAD,
    CAT__ZK_LOG,
    CAT__ZK_SNAPSHOT,
    CAT__ZK_COMMIT,
    CAT__ZK_REQUEST,
    CAT__ZK_INTERNAL,           /* the store's own: never parked, never answered */
} cat__zk_kind_t;

/* One pipelined read of a multi-read request. */
typedef struct cat__zk_slot {
    cat__zk_req_t *r;
    size_t i;
} cat__zk_slot_t;

struct cat__zk_req {
    cat__zk_store_t *s;
    cat__zk_kind_t kind;
    void (*fn)(void);           /* the user's callback, cast back by kind */
    void *arg;
    cat__zk_req_t *next_live;
    cat__zk_req_t *next_parked;
    bool answered;
    bool parked;
    int64_t deadline_ms;        /* answered with 58000 when still open then */
    size_t outstanding;         /* completions still to come for the current step */
    int rc;                     /* the first error of the current step */
    /* log and snapshot reads */
    uint64_t from;
    size_t max, n;
    cat__zk_slot_t *slots;
    uint8_t **data;
    size_t *len;
    char **keys;
    int64_t *ctime;             /* trim: each candidate's creation time */
    cat_head_t h1, h2;
    int tries;
    /* commits */
    zoo_op_t *ops;
    zoo_op_result_t *results;
    char **paths;
    size_t nops;
    const char **op_keys;       /* the catalog key each op touches, for messages */
    uint64_t index;
    char ukey[33];
    char index_buf[24];
    uint8_t *buf;               /* copies of the keys and values the ops point to */
    bool multi_sent;            /* the transaction went out at least once: an unanswered one is ambiguous */
    bool resolving;             /* the next step looks the marker up */
};

/* ---- cat_zk_session.c (helpers) and cat_zk_call.c (calls) ---- */

void cat__zk_path(const cat__zk_store_t *s, char *out, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void cat__zk_uuid_key(const uint8_t uuid[16], char out[33]);
bool cat__zk_parse_u64(const char *p, int len, uint64_t *out);
int64_t cat__zk_now_ms(void);
/* 58000 naming ZooKeeper's error; the lost-answer ones say so. */
void cat__zk_err_rc(cm_err_t *err, int rc);
/* True for the return codes after which the call may be repeated on a
 * reconnected or new session. */
bool cat__zk_rc_transient(const cat__zk_store_t *s, int rc);

cat__zk_req_t *cat__zk_req_new(cat__zk_store_t *s, cat__zk_kind_t kind, void (*fn)(void), void *arg);
void cat__zk_req_free(cat__zk_req_t *r);
void cat__zk_req_free_reads(cat__zk_req_t *r);
void cat__zk_req_alloc_reads(cat__zk_req_t *r, size_t n);
/* A zoo_a* call was made for r: counts it when the library took it. */
int cat__zk_sent(cat__zk_req_t *r, int rc);
/* A completion for r ran; true when it was the last of the current step. */
bool cat__zk_arrived(cat__zk_req_t *r, int rc);
/*
 * For a step that is complete: true when the request was dealt with here
 * (it had been answered: freed; the session failed under it: parked for a
 * fresh start), false when the caller should look at r->rc.
 */
bool cat__zk_settled(cat__zk_req_t *r);
/* Answers a user request with an error from a return code, or frees an internal one. */
void cat__zk_fail(cat__zk_req_t *r, int rc);
void cat__zk_fail_err(cat__zk_req_t *r, const cm_err_t *err);
/* Marks a user request answered (its callback is about to run) and frees it
 * unless completions are still owed. */
void cat__zk_answered(cat__zk_req_t *r);
/* Entry point of a user call: -1 with err when the store takes no calls;
 * otherwise sends the request now or parks it. */
int cat__zk_submit(cat__zk_req_t *r, cm_err_t *err);
/* The store became ready (again): start every parked request. */
void cat__zk_unpark_all(cat__zk_store_t *s);
/* Answers every call whose deadline passed; the wait until the next one (INT32_MAX: none). */
void cat__zk_expire_calls(cat__zk_store_t *s);
int cat__zk_next_deadline_ms(const cat__zk_store_t *s, int64_t now);
/* The catalog this handle serves is gone: every call fails from now on. */
void cat__zk_fail_for_good(cat__zk_store_t *s, cm_err_t *why);
void cat__zk_notify(cat__zk_store_t *s);

/* ---- cat_zk_meta.c ---- */

/*
 * Creates the layout (the first time) and checks /meta, re-arming its
 * watch. `gate`: the session just connected, so nothing is sent until the
 * check passes; otherwise (the watch fired) calls go on meanwhile.
 */
/* cat_zk_acl.c */
void cat__zk_acl_init(cat__zk_store_t *s);
void cat__zk_acl_free(cat__zk_store_t *s);
/* Once per handle, after the first good /meta: warns if anyone may change the chroot. */
void cat__zk_acl_check(cat__zk_store_t *s);
void cat__zk_meta_check(cat__zk_store_t *s, bool gate);

/* ---- cat_zk_read.c ---- */

void cat__zk_arm_head_watch(cat__zk_store_t *s);
int cat__zk_head_send(cat__zk_req_t *r);
int cat__zk_log_send(cat__zk_req_t *r);
int cat__zk_snapshot_send(cat__zk_req_t *r);
int cat__zk_request_send(cat__zk_req_t *r);
void cat__zk_finish_head(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err);
void cat__zk_finish_log(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err);
void cat__zk_finish_snapshot(cat__zk_req_t *r, cat_store_status_t st, const cm_err_t *err);
void cat__zk_finish_request(cat__zk_req_t *r, cat_store_status_t st, uint64_t index, const cm_err_t *err);
int cat__zk_head(cat_store_t *base, cat_store_head_cb cb, void *arg, cm_err_t *err);
int cat__zk_log_read(cat_store_t *base, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err);
int cat__zk_snapshot(cat_store_t *base, cat_store_snapshot_cb cb, void *arg, cm_err_t *err);
int cat__zk_request_lookup(cat_store_t *base, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                           cm_err_t *err);

/* ---- cat_zk_commit.c ---- */

int cat__zk_commit_send(cat__zk_req_t *r);
void cat__zk_finish_commit(cat__zk_req_t *r, cat_store_status_t st, uint64_t index, const char *key,
                           const cm_err_t *err);
int cat__zk_commit(cat_store_t *base, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                   cm_err_t *err);

/* ---- cat_zk_trim.c ---- */

int cat__zk_log_trim(cat_store_t *base, uint64_t below, cm_err_t *err);

/* ---- cat_zk_cluster.c ---- */

/* Between library turns: sends the next ownership step when one is due. */
void cat__zk_cluster_step(cat__zk_store_t *s);
/* When (cat__zk_now_ms) a step that waits for time is due; INT64_MAX: none. */
int64_t cat__zk_cluster_due_ms(const cat__zk_store_t *s);
/* The session expired: an owner loses (its ephemeral node is gone). */
void cat__zk_cluster_expired(cat__zk_store_t *s);
void cat__zk_cluster_free(cat__zk_store_t *s);

#endif
