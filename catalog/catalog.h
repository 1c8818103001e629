/*
 * catalog.h: the public header of the catalog module (prefix cat_).
 *
 * Three layers, bottom up:
 *   1. The store interface (cat_store_t): a head, an ordered gap-free log of
 *      entries, the current objects, unique names, request markers and a
 *      "head may have moved" notification, all as bytes. store_mem and
 *      store_zk implement it with identical semantics.
 *   2. The catalog model: databases, schemas and items (sources, tables,
 *      views, materialized views, indexes) with stable IDs and OIDs, kept in
 *      an in-memory snapshot (cat_snap_t) that is built by applying log
 *      entries in order; lookups; validation of proposed changes with
 *      PostgreSQL's error codes and wording; the entry and object encoding.
 *   3. The built-in relations of eddy_catalog, produced from a snapshot.
 *
 * docs/architecture.md ("Catalog and store") explains the design and why.
 */
#ifndef EDDY_CATALOG_H
#define EDDY_CATALOG_H

#include "common/common.h"
#include "types/types.h"

#include <stdatomic.h>

/* ====================================================================
 * Identifiers
 * ==================================================================== */

/*
 * A stable object ID. A user object's ID is the log index of the entry that
 * created it; an entry creates at most one object of each class (database,
 * schema, item), so (class, id) is unique. Built-in objects (system schemas,
 * eddy_catalog relations) have IDs from CAT_ID_SYSTEM up and never reach the
 * store.
 */
typedef uint64_t cat_id_t;
#define CAT_ID_SYSTEM (UINT64_C(1) << 62)

/*
 * OIDs are derived from the creating index, so they are assigned at commit
 * (under the head compare-and-swap), known before the commit is sent, equal
 * on every process that replays the log, and never reused:
 *   oid = CAT_OID_FIRST_USER + 4 * (index - 1) + slot
 * with slot 0 for an item, 1 kept for an item's row type, 2 for a schema and
 * 3 for a database.
 */
#define CAT_OID_FIRST_USER 16384u

typedef enum cat_class {
    CAT_CLASS_DATABASE = 'd',
    CAT_CLASS_SCHEMA = 's',
    CAT_CLASS_ITEM = 'i',
    CAT_CLASS_ROLE = 'a',   /* pg_authid's letter: 'r' already starts relation name keys */
} cat_class_t;

typedef enum cat_item_kind {
    CAT_ITEM_TABLE = 1,
    CAT_ITEM_SOURCE,
    CAT_ITEM_VIEW,
    CAT_ITEM_MATVIEW,
    CAT_ITEM_INDEX,
} cat_item_kind_t;

/* "table", "source", "view", "materialized view", "index": PostgreSQL's nouns. */
const char *cat_item_kind_name(cat_item_kind_t kind);
/* pg_class.relkind: 'r', 'f' (a source is PostgreSQL's closest: foreign), 'v', 'm', 'i'. */
char cat_item_kind_relkind(cat_item_kind_t kind);

/* ====================================================================
 * Limits (configuration knobs; DESIGN §4)
 * ==================================================================== */

typedef struct cat_limits {
    size_t entry_max_bytes;    /* one log entry; default 512 KiB */
    size_t object_max_bytes;   /* one object definition; default 512 KiB */
    size_t commit_max_bytes;   /* a whole commit (ZooKeeper multi); default 900 KiB - 1 */
    /* A caller whose commit lost the head race (CAT_STORE_CONFLICT) catches
     * up, validates again and retries, at most commit_attempts_max times in
     * all, waiting cat_store_commit_backoff_ms between attempts. */
    int commit_attempts_max;   /* default 16 */
    int commit_backoff_ms;     /* first backoff; doubles per attempt; default 2 */
    int commit_backoff_max_ms; /* cap of one backoff; default 200 */
} cat_limits_t;

void cat_limits_default(cat_limits_t *l);

/* ====================================================================
 * 1. The store interface
 * ==================================================================== */

/*
 * Threading. A cat_store_t handle belongs to one thread (one libuv loop):
 * every call on it, and every callback it makes, happens on that thread.
 * Several threads share one catalog by opening one handle each (store_mem:
 * several handles on one cat_mem_db_t, which is thread-safe; store_zk: one
 * ZooKeeper session per handle). The sequencer (worker 0's loop) and every
 * pgwire loop each own a handle.
 *
 * Completion. Every asynchronous call returns 0 and later calls its callback
 * exactly once, or returns -1 with `err` set and never calls it (DESIGN
 * §10.6). A callback never runs inside the call that started it: store_mem
 * queues completions and delivers them from cat_store_dispatch(), which the
 * owner runs when the handle's wake hook fires (the server binds the hook to
 * uv_async_send). ZooKeeper delivers from zookeeper_process() on the loop, so
 * callers written against store_mem cannot depend on synchronous completion.
 * Bytes handed to a callback are valid only during the callback.
 */
typedef struct cat_store cat_store_t;

typedef enum cat_store_status {
    CAT_STORE_OK = 0,
    CAT_STORE_CONFLICT,      /* commit: the head moved (ZBADVERSION); re-validate and retry */
    CAT_STORE_NAME_EXISTS,   /* commit: a name create collided (42P07 style); nothing applied */
    CAT_STORE_DUPLICATE,     /* commit: the request marker exists: committed before at `index` */
    CAT_STORE_TRIMMED,       /* log read: an entry at or after `from` was trimmed; bootstrap */
    CAT_STORE_NOT_FOUND,     /* request lookup: no marker */
    CAT_STORE_ERROR,         /* store unavailable or inconsistent: err says why */
} cat_store_status_t;

const char *cat_store_status_name(cat_store_status_t s);

/* The head: the last committed index and the store's compare-and-swap token
 * (ZooKeeper's stat.version of /catalog/head; store_mem: equal to index). */
typedef struct cat_head {
    uint64_t index;
    int64_t version;
} cat_head_t;

typedef struct cat_log_entry_bytes {
    uint64_t index;
    const uint8_t *data;
    size_t len;
} cat_log_entry_bytes_t;

/* One keyed value: an object (key "i17", "s5", "d1": class letter and ID) or
 * a name (key from cat_name_key, value the object key). */
typedef struct cat_kv {
    const char *key;
    const uint8_t *data;
    size_t len;
} cat_kv_t;

/*
 * One statement's whole effect, committed all or nothing. Checked in this
 * order, the first failure wins (the order of the ZooKeeper multi):
 *   request marker absent (else DUPLICATE with the index it recorded),
 *   head == expect (else CONFLICT), log entry `index` absent,
 *   object deletes exist, name deletes exist, object creates absent,
 *   name creates absent (else NAME_EXISTS naming the key).
 * `index` must be expect.index + 1.
 */
typedef struct cat_store_commit {
    cat_head_t expect;
    uint64_t index;
    uint8_t request_uuid[16];
    const uint8_t *entry;
    size_t entry_len;
    const cat_kv_t *obj_creates;
    size_t n_obj_creates;
    const char *const *obj_deletes;
    size_t n_obj_deletes;
    const cat_kv_t *name_creates;      /* data: the object key it names */
    size_t n_name_creates;
    const char *const *name_deletes;
    size_t n_name_deletes;
} cat_store_commit_t;

/* Checks a commit against the limits: 54000 "catalog entry is too large" etc. */
bool cat_store_commit_check_size(const cat_store_commit_t *c, const cat_limits_t *limits, cm_err_t *err);

typedef void (*cat_store_head_cb)(void *arg, cat_store_status_t st, const cat_head_t *head,
                                  const cm_err_t *err);
/* entries[0].index == from; n may be less than asked (then read on from the last). */
typedef void (*cat_store_log_cb)(void *arg, cat_store_status_t st, const cat_log_entry_bytes_t *entries,
                                 size_t n, const cm_err_t *err);
/* Every object, consistent with `head` (the objects are the effect of entries 1..head). */
typedef void (*cat_store_snapshot_cb)(void *arg, cat_store_status_t st, const cat_head_t *head,
                                      const cat_kv_t *objects, size_t n, const cm_err_t *err);
/* OK: committed at `index`. DUPLICATE: committed earlier at `index`. NAME_EXISTS:
 * `name_key` collided. CONFLICT: nothing happened. ERROR: see err (store_zk resolves
 * a lost answer itself through the request marker; only a commit it could not
 * resolve within op_timeout_ms is ambiguous, which err's detail says: look it up
 * later with cat_store_request_lookup). */
typedef void (*cat_store_commit_cb)(void *arg, cat_store_status_t st, uint64_t index,
                                    const char *name_key, const cm_err_t *err);
/* OK with the index a marker recorded, or NOT_FOUND. */
typedef void (*cat_store_request_cb)(void *arg, cat_store_status_t st, uint64_t index, const cm_err_t *err);
/* A hint that the head may have moved; several commits may collapse into one call.
 * Read the head and the log for the order. */
typedef void (*cat_store_notify_cb)(void *arg);

/* The operations a backend provides; callers use the cat_store_* wrappers. */
typedef struct cat_store_ops {
    const char *name;   /* "mem", "zookeeper": named in errors */
    int (*head)(cat_store_t *s, cat_store_head_cb cb, void *arg, cm_err_t *err);
    int (*log_read)(cat_store_t *s, uint64_t from, size_t max, cat_store_log_cb cb, void *arg, cm_err_t *err);
    int (*snapshot)(cat_store_t *s, cat_store_snapshot_cb cb, void *arg, cm_err_t *err);
    int (*commit)(cat_store_t *s, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                  cm_err_t *err);
    int (*request_lookup)(cat_store_t *s, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                          cm_err_t *err);
    int (*log_trim)(cat_store_t *s, uint64_t below, cm_err_t *err);
    void (*dispatch)(cat_store_t *s);
    void (*close)(cat_store_t *s);
} cat_store_ops_t;

/* What every backend's handle starts with. */
struct cat_store {
    const cat_store_ops_t *ops;
    cat_limits_t limits;
    cat_store_notify_cb notify;   /* may be NULL */
    void *notify_arg;
    _Atomic bool quiet;           /* cat_store_set_quiet */
};

int cat_store_head(cat_store_t *s, cat_store_head_cb cb, void *arg, cm_err_t *err);
/* Reads up to `max` entries from index `from` on, in order (max 0: a default batch). */
int cat_store_log_read(cat_store_t *s, uint64_t from, size_t max, cat_store_log_cb cb, void *arg,
                       cm_err_t *err);
int cat_store_snapshot(cat_store_t *s, cat_store_snapshot_cb cb, void *arg, cm_err_t *err);
/* Over-size commits return -1 with 54000 before anything is sent. */
int cat_store_commit(cat_store_t *s, const cat_store_commit_t *c, cat_store_commit_cb cb, void *arg,
                     cm_err_t *err);
int cat_store_request_lookup(cat_store_t *s, const uint8_t uuid[16], cat_store_request_cb cb, void *arg,
                             cm_err_t *err);
/* Removes log entries with index < below (never the head). No callback: a trim is
 * housekeeping whose result nobody waits for (store_mem removes them in the call,
 * store_zk later, fenced by cat_store_zk_trim_claim and bounded by its retention
 * options). */
int cat_store_log_trim(cat_store_t *s, uint64_t below, cm_err_t *err);
/* Sets the change notification (replaces any earlier one). */
void cat_store_set_notify(cat_store_t *s, cat_store_notify_cb cb, void *arg);
/*
 * A quiet handle is not woken for a notification, only marked: its owner has
 * no use for the news now, and on a VM waking a sleeping thread costs both
 * sides tens of microseconds, on the path of the DDL that caused it. Answers
 * to its own calls still wake it. Turning quiet off delivers a notification
 * that came meanwhile (on the handle's thread, like cat_store_dispatch).
 */
void cat_store_set_quiet(cat_store_t *s, bool quiet);
/* Runs queued completions and notifications (on the handle's thread). */
void cat_store_dispatch(cat_store_t *s);
/* Pending calls complete with an ERROR status first (so their memory is freed). */
void cat_store_close(cat_store_t *s);
/*
 * How long to wait before commit attempt `attempt` (2 = the first retry):
 * a random delay in [0, min(backoff_max, backoff << (attempt - 2))] from the
 * handle's limits, so processes that lost one race do not collide again in
 * lockstep. 0 for attempt <= 1.
 */
int cat_store_commit_backoff_ms(const cat_store_t *s, int attempt);

/* --------------------------------------------------------- store_mem */

/*
 * The embedded store's shared state: one per process, thread-safe (one mutex;
 * DDL rates are tiny). Handles opened on it may live on different threads.
 * `wake` is called (from any thread, possibly with the store's mutex held, so
 * it must only signal, e.g. uv_async_send) when the handle has something for
 * cat_store_dispatch; NULL means the owner polls.
 */
typedef struct cat_mem_db cat_mem_db_t;

cat_mem_db_t *cat_mem_db_new(void);
/* All handles must be closed first. */
void cat_mem_db_free(cat_mem_db_t *db);
cat_store_t *cat_store_mem_open(cat_mem_db_t *db, const cat_limits_t *limits, void (*wake)(void *arg),
                                void *wake_arg);

/* --------------------------------------------------------- store_zk */

/*
 * The ZooKeeper store (DESIGN §4, docs/architecture.md "The ZooKeeper
 * store"). The catalog may not include uv.h, so the store owns no loop: it
 * says what it waits for (cat_store_zk_interest: fd, events, timeout) and
 * the caller's loop calls cat_store_zk_process. The server binds them to
 * uv_poll and uv_timer; tests use cat_store_zk_run, a blocking poll() loop.
 * Completions and notifications run inside cat_store_zk_process (and
 * cat_store_dispatch, which is one non-blocking turn of it).
 *
 * Failures are handled inside the handle: a connection loss reconnects; an
 * expired session is replaced by a new one (the head watch re-armed, the
 * catalog identity checked again); reads in flight are sent again; a commit
 * whose answer was lost is resolved through its /requests marker, so it
 * reports OK exactly once or, if it did not happen, is sent again. A call
 * that cannot be answered within op_timeout_ms fails with 58000. The handle
 * gives up for good (every call fails, cat_store_zk_failed says why) only
 * when the catalog it serves is no longer the one it opened (/meta deleted
 * or replaced), its format is unknown, or authentication fails.
 */
#define CAT_ZK_READ 1
#define CAT_ZK_WRITE 2

typedef struct cat_zk_options {
    const char *hosts;         /* "HOST:PORT[,HOST:PORT...][/CHROOT]" (copied) */
    int session_timeout_ms;    /* ZooKeeper session timeout; default 10000 */
    int op_timeout_ms;         /* a call unanswered this long fails with 58000; default 10000 */
    uint64_t log_keep;         /* log trimming keeps at least the newest log_keep entries; default 1000 */
    int64_t log_keep_ms;       /* ... and every entry younger than this; default 3600000 (1 h) */
    int64_t request_keep_ms;   /* trimming also removes request markers older than this; 0 keeps
                                  them all; default 86400000 (1 day) */
    int resolve_delay_ms;      /* the library resolves the host names again at most this often
                                  (and on every reconnection); by default it would on every
                                  turn, a netlink round trip each; default 30000, -1: only on
                                  reconnection */
    int applied_publish_ms;    /* as owner, /clusters/<name>/applied is written at most this
                                  often: each write is a multi in the commits' queue; default 100 */
    /* Digest credentials "user:password" (copied): every session authenticates with them and
     * every znode the store creates gets CREATOR_ALL for them. NULL: no authentication, and
     * znodes are open to anyone (a warning says so). */
    const char *auth;
    /* An identity that may read every znode, "user:base64(sha1(user:password))" (copied);
     * NULL: none. Only with auth. */
    const char *read_id;
} cat_zk_options_t;

void cat_zk_options_default(cat_zk_options_t *o);

/*
 * Opens a session and, once it is up, creates the chroot and the DESIGN §4
 * layout (/meta with a new catalog_uuid, /catalog/{head,objects,names},
 * /log, /requests, /trim) if /meta is missing, then reads /meta: a format
 * newer than CAT_FORMAT is refused. Calls fail (-1, 58000) until
 * cat_store_zk_ready. NULL with err when the address cannot be used.
 */
cat_store_t *cat_store_zk_open(const cat_zk_options_t *o, const cat_limits_t *limits, cm_err_t *err);

/*
 * What the loop must wait for: the fd (-1 while not connected), CAT_ZK_READ
 * and/or CAT_ZK_WRITE, and the longest wait before calling
 * cat_store_zk_process(s, 0) anyway. `generation` changes whenever the
 * library may have closed its socket, even if the new one has the same
 * number (and whenever the session is replaced): a caller polling through
 * libuv must then stop and recreate its poll handle. Call it again after
 * every process call and every store call. -1 when the handle has failed
 * for good (cat_store_zk_failed) or is closing.
 */
int cat_store_zk_interest(cat_store_t *s, int *fd, int *events, int *timeout_ms, uint64_t *generation);
/* Does the socket I/O for `events` (0 on a timeout), runs completions, and
 * handles session replacement and call timeouts. */
void cat_store_zk_process(cat_store_t *s, int events);
/* True when no call (a user's or the store's own) waits for ZooKeeper. */
bool cat_store_zk_idle(cat_store_t *s);
/* True while the session is connected. */
bool cat_store_zk_connected(cat_store_t *s);
/* True once the layout exists, /meta was checked and calls are accepted. */
bool cat_store_zk_ready(cat_store_t *s);
/*
 * --zookeeper-lock-acls: sets the ACL that o's credentials give (CREATOR_ALL
 * plus the read-only identity) on the chroot and every znode below it, on a
 * session of its own; false with err when it cannot (no credentials, ZooKeeper
 * unreachable within timeout_ms, a znode it may not change). *count: znodes set.
 */
bool cat_zk_lock_acls(const cat_zk_options_t *o, int timeout_ms, size_t *count, cm_err_t *err);
/* The head index the head watch's last (re-)arming read saw, which is what a
 * notification is about; false while unknown (before the first, and after a
 * reconnection until the watch is armed again). */
bool cat_store_zk_head_seen(cat_store_t *s, uint64_t *index);
/* True when the handle has failed for good; err (may be NULL) gets why. */
bool cat_store_zk_failed(cat_store_t *s, cm_err_t *err);
/* The catalog_uuid of /meta (32 hex digits), "" before the first check. */
const char *cat_store_zk_catalog_uuid(cat_store_t *s);
/* How many sessions the handle has opened (1 + replacements after expiry). */
uint64_t cat_store_zk_sessions(cat_store_t *s);
/* The current session's id and password (for diagnostics and fault tests). */
int64_t cat_store_zk_session_id(cat_store_t *s, char passwd[16]);

/*
 * Log trimming is fenced: a handle trims only as the owner of /trim, whose
 * version is the epoch. cat_store_zk_trim_claim (and the first
 * cat_store_log_trim of a handle that never claimed) takes ownership by a
 * compare-and-swap on /trim; every trim transaction checks that version, so
 * once another handle claims, this one's trims fail and it stays FENCED.
 */
typedef enum cat_zk_trim_state {
    CAT_ZK_TRIM_NONE = 0,
    CAT_ZK_TRIM_CLAIMING,
    CAT_ZK_TRIM_OWNER,
    CAT_ZK_TRIM_FENCED,
} cat_zk_trim_state_t;

int cat_store_zk_trim_claim(cat_store_t *s, cm_err_t *err);
cat_zk_trim_state_t cat_store_zk_trim_state(cat_store_t *s);
/* Log entries removed by this handle's trims so far. */
uint64_t cat_store_zk_trimmed(cat_store_t *s);

/*
 * Cluster ownership (DESIGN §5, reference/zk.md §6.4; cat_zk_cluster.c):
 * one owner per cluster name. Joining creates /clusters/<name>/{epoch,
 * applied} if missing, then contends: while /clusters/<name>/owner exists
 * the handle is a STANDBY with an exists-watch on it; when it is gone, one
 * multi creates the EPHEMERAL owner node {epoch, instance} and sets
 * /clusters/<name>/epoch to epoch+1 at the version read (a compare-and-swap),
 * and `granted` runs. `lost` runs when the session expired (the ephemeral
 * node went with it) or a fenced write failed; the handle then contends
 * again. Both run on the handle's thread, inside process/interest.
 * cat_store_zk_cluster_publish asks for /clusters/<name>/applied to become
 * {epoch, applied}, written by a multi that checks the epoch node at the
 * version our CAS produced, so a stale owner can never write it.
 */
typedef enum cat_zk_role {
    CAT_ZK_ROLE_NONE = 0,      /* not joined, or not yet contended in this session */
    CAT_ZK_ROLE_STANDBY,
    CAT_ZK_ROLE_OWNER,
} cat_zk_role_t;

typedef struct cat_zk_cluster_events {
    void (*granted)(void *arg, uint64_t epoch);
    void (*lost)(void *arg, uint64_t epoch);
    void *arg;
} cat_zk_cluster_events_t;

/* name: [A-Za-z0-9_-]{1,64}; instance: any text (shown in the owner node). */
int cat_store_zk_cluster_join(cat_store_t *s, const char *name, const char *instance,
                              const cat_zk_cluster_events_t *ev, cm_err_t *err);
cat_zk_role_t cat_store_zk_cluster_role(cat_store_t *s, uint64_t *epoch);
/* As owner: publish `applied` (a later, larger value replaces one not yet written). */
void cat_store_zk_cluster_publish(cat_store_t *s, uint64_t applied);
/* The last value this handle wrote to /clusters/<name>/applied (0: none). */
uint64_t cat_store_zk_cluster_published(cat_store_t *s);
/* True for a valid cluster name. */
bool cat_zk_cluster_name_valid(const char *name);

/*
 * For tests and tools: drives the handle with poll() until done(arg) is
 * true (done NULL: until idle) or timeout_ms passes. 0 when done.
 */
int cat_store_zk_run(cat_store_t *s, int timeout_ms, bool (*done)(void *arg), void *arg);

/* ------------------------------------------------------------- keys */

/* "i17", "s5", "d1". */
void cat_object_key(cat_class_t cls, cat_id_t id, char out[24]);
bool cat_object_key_parse(const char *key, cat_class_t *cls, cat_id_t *id);
/*
 * The unique-name key: class letter and the percent-encoded parts joined by
 * '.', e.g. "r.eddy.public.my%20view" (relations share one namespace per
 * schema as in PostgreSQL), "s.eddy.public", "d.eddy". Only [A-Za-z0-9_-]
 * stay as they are, so a key is a valid ZooKeeper node name. Appends the
 * key and a NUL.
 */
void cat_name_key(cat_class_t cls, const char *database, const char *schema, const char *name, cm_buf_t *out);

/* ====================================================================
 * 2. The catalog model
 * ==================================================================== */

/*
 * Privileges (PostgreSQL's AclMode bits, in aclitem's letter order
 * "arwdDxtXUCTc"). An object's owner is a role ID, CAT_ROLE_BOOTSTRAP for
 * what the bootstrap superuser owns (OID 10: built-ins, and what a session
 * whose user is no catalog role creates); an ACL entry's grantee may be
 * CAT_ROLE_PUBLIC. An object whose ACL was never set (`set` false) has
 * PostgreSQL's acldefault for its kind, as a NULL relacl has.
 */
#define CAT_PRIV_INSERT 0x001u
#define CAT_PRIV_SELECT 0x002u
#define CAT_PRIV_UPDATE 0x004u
#define CAT_PRIV_DELETE 0x008u
#define CAT_PRIV_TRUNCATE 0x010u
#define CAT_PRIV_REFERENCES 0x020u
#define CAT_PRIV_TRIGGER 0x040u
#define CAT_PRIV_EXECUTE 0x080u
#define CAT_PRIV_USAGE 0x100u
#define CAT_PRIV_CREATE 0x200u
#define CAT_PRIV_TEMPORARY 0x400u
#define CAT_PRIV_CONNECT 0x800u
#define CAT_PRIVS_RELATION 0x07fu   /* arwdDxt */
#define CAT_PRIVS_SCHEMA 0x300u     /* UC */
#define CAT_PRIVS_DATABASE 0xe00u   /* CTc */
#define CAT_PRIV_LETTERS "arwdDxtXUCTc"

/* pg_database_owner (OID 6171), as PostgreSQL 15's: whoever has the privileges of a database's
 * owner is implicitly a member in it, and it owns the public schema of each new database. A
 * built-in role that role lookups find (cat_snap_role and friends) but that the role list and
 * count leave out. */
#define CAT_ROLE_DATABASE_OWNER (CAT_ID_SYSTEM + 6171)
#define CAT_DATABASE_OWNER_OID 6171u
#define CAT_ROLE_BOOTSTRAP ((cat_id_t)0)
#define CAT_ROLE_PUBLIC (~(cat_id_t)0)
#define CAT_BOOTSTRAP_OID 10u

typedef struct cat_aclitem {
    cat_id_t grantee;   /* a role ID, CAT_ROLE_PUBLIC or CAT_ROLE_BOOTSTRAP */
    cat_id_t grantor;
    uint32_t privs;     /* CAT_PRIV_* */
    uint32_t grant;     /* those of privs it may grant on */
} cat_aclitem_t;

/* ALTER DEFAULT PRIVILEGES FOR ROLE role: what it creates gets these
 * (pg_default_acl for relations; kept on the schema named, or on the
 * database for an entry of no schema, as PostgreSQL's are per database). */
typedef struct cat_defacl {
    cat_id_t role;
    char objtype;                  /* pg_default_acl.defaclobjtype: 'r' relations, 'S' sequences,
                                    * 'f' functions, 'T' types, 'n' schemas (of a database only) */
    const cat_aclitem_t *items;
    uint32_t n;
    uint64_t created;              /* the entry index that made it: orders it among objects as its OID would */
} cat_defacl_t;

typedef struct cat_acl {
    cat_id_t owner;
    bool set;                      /* false: the kind's default (items NULL) */
    const struct cat_database *in_db;   /* the database pg_database_owner stands for here (the snapshot's
                                         * objects set it; NULL: none) */
    const cat_aclitem_t *items;
    uint32_t n;
    const cat_defacl_t *defacls;   /* a schema's or database's default privileges */
    uint32_t ndefacls;
} cat_acl_t;

typedef struct cat_database {
    cat_id_t id;
    uint32_t oid;
    const char *name;
    cat_acl_t acl;
} cat_database_t;

typedef struct cat_schema {
    cat_id_t id;
    uint32_t oid;
    const cat_database_t *database;   /* NULL for the system schemas, present in every database */
    const char *name;
    cat_acl_t acl;
} cat_schema_t;

typedef struct cat_column {
    const char *name;
    ty_oid_t type;
    int32_t typmod;            /* -1: none */
    bool not_null;
    const char *default_sql;   /* normalized default expression text, NULL if none */
    const cat_aclitem_t *acl;  /* column privileges (pg_attribute.attacl); n 0: none, as a NULL attacl */
    uint32_t nacl;
} cat_column_t;

typedef struct cat_item {
    cat_id_t id;
    uint32_t oid;
    cat_item_kind_t kind;
    const cat_schema_t *schema;
    const char *name;
    const char *create_sql;        /* normalized CREATE statement */
    const cat_column_t *columns;   /* an index: its key columns */
    uint32_t ncolumns;
    const cat_id_t *deps;          /* items it reads; an index: deps[0] is its relation */
    uint32_t ndeps;
    cat_acl_t acl;                 /* an index: its relation's owner, no ACL of its own */
} cat_item_t;

/*
 * A role (pg_authid): cluster-wide, like PostgreSQL's, so it has no parent.
 * Its OID takes slot 1 of its creating index, which a statement creating a
 * role never uses for an item's row type. member_of lists the roles whose
 * privileges it has (pg_auth_members rows with it as member); an ID there
 * whose role was dropped is ignored.
 */
#define CAT_ROLE_SUPERUSER 0x01u
#define CAT_ROLE_INHERIT 0x02u
#define CAT_ROLE_CREATEROLE 0x04u
#define CAT_ROLE_CREATEDB 0x08u
#define CAT_ROLE_LOGIN 0x10u
#define CAT_ROLE_REPLICATION 0x20u
#define CAT_ROLE_BYPASSRLS 0x40u

typedef struct cat_role {
    cat_id_t id;
    uint32_t oid;
    const char *name;
    uint32_t flags;              /* CAT_ROLE_* */
    int32_t conn_limit;          /* -1: no limit */
    const char *password;        /* a SCRAM-SHA-256 verifier, NULL: none */
    bool has_valid_until;
    int64_t valid_until;         /* a timestamptz datum (microseconds since 2000-01-01 UTC) */
    const cat_id_t *member_of;
    uint32_t nmember_of;
    const char *const *settings; /* ALTER ROLE SET: "name=value" as written (pg_db_role_setting) */
    uint32_t nsettings;
} cat_role_t;

/* True for built-in objects (IDs from CAT_ID_SYSTEM). */
static inline bool cat_id_is_system(cat_id_t id) { return id >= CAT_ID_SYSTEM; }

/* ------------------------------------------------------------ snapshot */

/*
 * An in-memory catalog at one log index. Owned and mutated by one thread;
 * readers on that thread (the binder) see a stable state between applies.
 * A new snapshot is at index 0 and holds the built-in objects only; the
 * store's first entry creates database `eddy` and schema `public`.
 */
typedef struct cat_snap cat_snap_t;

cat_snap_t *cat_snap_new(void);
void cat_snap_free(cat_snap_t *s);
uint64_t cat_snap_index(const cat_snap_t *s);
/* Applies entry index+1 (decoded from bytes). On error nothing changed; 
 * XX000 means the entry does not fit this snapshot (re-bootstrap). */
bool cat_snap_apply(cat_snap_t *s, const uint8_t *entry, size_t len, cm_err_t *err);
/* Replaces the contents by the objects of a store snapshot at `index`. */
bool cat_snap_load(cat_snap_t *s, uint64_t index, const cat_kv_t *objects, size_t n, cm_err_t *err);
/* Textual dump of everything (sorted), for tests: replay and bootstrap must agree. */
void cat_snap_dump(const cat_snap_t *s, cm_buf_t *out);

const cat_database_t *cat_snap_database(const cat_snap_t *s, const char *name);
const cat_database_t *cat_snap_database_by_id(const cat_snap_t *s, cat_id_t id);
/* A schema of a database, or a system schema (any database). */
const cat_schema_t *cat_snap_schema(const cat_snap_t *s, const cat_database_t *db, const char *name);
const cat_schema_t *cat_snap_schema_by_id(const cat_snap_t *s, cat_id_t id);
const cat_item_t *cat_snap_item(const cat_snap_t *s, const cat_schema_t *schema, const char *name);
const cat_item_t *cat_snap_item_by_id(const cat_snap_t *s, cat_id_t id);
const cat_item_t *cat_snap_item_by_oid(const cat_snap_t *s, uint32_t oid);
const cat_role_t *cat_snap_role(const cat_snap_t *s, const char *name);
const cat_role_t *cat_snap_role_by_id(const cat_snap_t *s, cat_id_t id);
const cat_role_t *cat_snap_role_by_oid(const cat_snap_t *s, uint32_t oid);
/* Roles in ID order: i from 0 until NULL. */
const cat_role_t *cat_snap_role_at(const cat_snap_t *s, size_t i);
size_t cat_snap_role_count(const cat_snap_t *s);
/* True if `role` is `of` or a member of it, directly or through other roles
 * (PostgreSQL's is_member_of_role, which ignores INHERIT). */
bool cat_role_is_member(const cat_snap_t *s, const cat_role_t *role, const cat_role_t *of);
/* Items reading `id` directly (not indexes on it), ascending by ID. */
size_t cat_snap_dependents(const cat_snap_t *s, cat_id_t id, const cat_item_t **out, size_t max);

/* Iteration in ID order (system objects last): i from 0 until NULL. */
const cat_database_t *cat_snap_database_at(const cat_snap_t *s, size_t i);
const cat_schema_t *cat_snap_schema_at(const cat_snap_t *s, size_t i);
const cat_item_t *cat_snap_item_at(const cat_snap_t *s, size_t i);
size_t cat_snap_item_count(const cat_snap_t *s);

/* ------------------------------------------------------------ names */

/* A name as written: database and schema may be NULL. */
typedef struct cat_qname {
    const char *database;
    const char *schema;
    const char *name;
} cat_qname_t;

/* A session's view: current database, search_path (schema names as set;
 * "$user" means the user's name), and the user. pg_catalog is searched
 * first unless the path names it, as in PostgreSQL. */
typedef struct cat_search {
    const char *database;
    const char *const *path;
    size_t npath;
    const char *user;            /* the current user (SET ROLE) */
    const char *session_user;    /* NULL: user */
} cat_search_t;

/*
 * Resolves a relation name as a query does: NULL with 42501 for a schema
 * named without USAGE, else 42P01 relation "x" does not exist (the name as
 * written, also when the schema or database it names is missing).
 */
const cat_item_t *cat_resolve_item(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                   cm_err_t *err);
/* The same, as a utility statement looks a relation up (RangeVarGetRelid without missing_ok):
 * a schema named that does not exist is 3F000 "schema \"s\" does not exist". */
const cat_item_t *cat_resolve_relation(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                       cm_err_t *err);
/* The schema a name refers to or (unqualified) the one CREATE puts it in:
 * the first existing schema of the path, else 3F000 "no schema has been
 * selected to create in". */
const cat_schema_t *cat_resolve_schema(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *qn,
                                       cm_err_t *err);
/* The schemas searched, in order, that exist (current_schemas): with `implicit`,
 * pg_catalog first unless the path lists it. Returns how many (at most max). */
size_t cat_search_schemas(const cat_snap_t *s, const cat_search_t *search, bool implicit, const cat_schema_t **out,
                          size_t max);
/* True if the unqualified name finds this very item through the search path. */
bool cat_item_visible(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *item);

/*
 * Identifier quoting for messages (PostgreSQL's quote_identifier). The
 * default quotes anything but [a-z_][a-z0-9_$]*; the server installs the
 * parser's keyword-aware quoter once at start-up, before threads run (the
 * catalog may not depend on the parser).
 */
typedef void (*cat_quote_fn)(const char *ident, cm_buf_t *out);
void cat_set_quote_ident(cat_quote_fn fn);
void cat_quote_ident(const char *ident, cm_buf_t *out);
/* "view v", "table s.x", "schema s": getObjectDescription's wording, the
 * relation qualified when it is not visible. */
void cat_describe_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *item, cm_buf_t *out);

/* ------------------------------------------------------------ privileges (cat_acl.c) */

/* The role a session acts as (its current user); NULL when that user is no
 * catalog role, which acts as a superuser (trust before any role existed). */
const cat_role_t *cat_search_role(const cat_snap_t *s, const cat_search_t *search);
/* OID 10's name for a session: its session user when that is no catalog role
 * (it acts as that superuser), else "eddy". */
const char *cat_bootstrap_name(const cat_snap_t *s, const cat_search_t *search);
/* NULL (no catalog role) counts as a superuser. */
bool cat_role_is_superuser(const cat_role_t *r);
/* A role ID's OID (10 for CAT_ROLE_BOOTSTRAP, 0 for PUBLIC) and name ("public"; a
 * dropped role's ID in digits, written to buf). */
uint32_t cat_role_id_oid(const cat_snap_t *s, cat_id_t id);
const char *cat_role_id_name(const cat_snap_t *s, const cat_search_t *search, cat_id_t id, char buf[32]);
/* has_privs_of_role: `role` is `of` or inherits its privileges (INHERIT followed). */
bool cat_role_has_privs_of(const cat_snap_t *s, const cat_role_t *role, cat_id_t of);
/* The same where `of` may be pg_database_owner, standing for db's owner (db NULL: nobody's). */
bool cat_role_has_privs_of_in(const cat_snap_t *s, const cat_role_t *role, cat_id_t of, const cat_database_t *db);
/* pg_database_owner itself (for pg_authid's row). */
const cat_role_t *cat_role_database_owner(void);
/* acldefault for objkind 'r' (relation), 'S' (sequence), 'f' (function), 'T' (type), 'n' (schema),
 * 'd' (database): its entries, PUBLIC's first; 'c' (column) has none. */
uint32_t cat_acl_default(char objkind, cat_id_t owner, cat_aclitem_t out[2]);
/* An ACL's entries, or its kind's default (written to def). */
uint32_t cat_acl_items(const cat_acl_t *acl, char objkind, cat_aclitem_t def[2], const cat_aclitem_t **items);
/* aclmask: the privileges (grant: the grant options) `role` holds; all for a superuser. */
uint32_t cat_acl_privs(const cat_snap_t *s, const cat_acl_t *acl, char objkind, const cat_role_t *role, bool grant);
/* pg_*_ownercheck for the session's current user. */
bool cat_is_owner(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl);
/* 42501 "must be owner of <noun> <name>" unless cat_is_owner. */
bool cat_check_owner(const cat_snap_t *s, const cat_search_t *search, const cat_acl_t *acl, const char *noun,
                     const char *name, cm_err_t *err);
/* The session may look names up in the schema (USAGE; LookupExplicitNamespace). */
bool cat_schema_usable(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *sc);
/* The item whose owner owns `it`: an index's relation, else itself. */
const cat_item_t *cat_item_owner_acl(const cat_snap_t *s, const cat_item_t *it);
/* "table", "view", "materialized view", "index", "foreign table" (a source). */
const char *cat_item_owner_noun(const cat_item_t *it);
/* aclitem's text: "alice=arwdDxt/bob", "=r/bob" for PUBLIC, '*' after a grantable letter. */
void cat_aclitem_text(const cat_snap_t *s, const cat_search_t *search, const cat_aclitem_t *it, cm_buf_t *out);
void cat_acl_copy(cm_arena_t *a, cat_acl_t *dst, const cat_acl_t *src);

/* ------------------------------------------------------------ changes */

/*
 * A validated change: the ops one statement commits, planned against a
 * snapshot at index N for commit at N+1, plus the notices PostgreSQL would
 * send (IF [NOT] EXISTS skips, "drop cascades to ..."). A change with no ops
 * needs no commit.
 */
typedef struct cat_change cat_change_t;

cat_change_t *cat_change_new(void);
void cat_change_free(cat_change_t *c);
size_t cat_change_op_count(const cat_change_t *c);
size_t cat_change_notice_count(const cat_change_t *c);
const cm_err_t *cat_change_notice(const cat_change_t *c, size_t i);
/* Adds a notice (severity NOTICE; set it for a warning) to a change planned against s. */
cm_err_t *cat_plan_notice(const cat_snap_t *s, cat_change_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
/* IDs that the change drops (items, schemas, databases), in drop order. */
size_t cat_change_dropped(const cat_change_t *c, cat_class_t cls, cat_id_t *out, size_t max);

/* What a CREATE for an item says. Strings and arrays are copied. */
typedef struct cat_item_def {
    cat_item_kind_t kind;
    cat_qname_t name;
    const char *create_sql;
    const cat_column_t *columns;
    uint32_t ncolumns;
    const cat_id_t *deps;
    uint32_t ndeps;
} cat_item_def_t;

/*
 * Planners of DDL. Each validates against the snapshot and appends ops and
 * notices to `out` (a statement naming several objects calls one planner
 * once, with all of them). false: err says why, in PostgreSQL's words.
 */
bool cat_plan_create_database(const cat_snap_t *s, const cat_search_t *search, const char *name, bool if_not_exists,
                              cat_change_t *out, cm_err_t *err);
bool cat_plan_drop_databases(const cat_snap_t *s, const cat_search_t *search, const char *const *names,
                             size_t n, bool if_exists, cat_change_t *out, cm_err_t *err);
bool cat_plan_create_schema(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *name,
                            bool if_not_exists, cat_change_t *out, cm_err_t *err);
/* qname.name unused: database (optional) and schema. */
bool cat_plan_drop_schemas(const cat_snap_t *s, const cat_search_t *search, const cat_qname_t *names,
                           size_t n, bool if_exists, bool cascade, cat_change_t *out, cm_err_t *err);
bool cat_plan_create_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_def_t *def,
                          bool if_not_exists, cat_change_t *out, cm_err_t *err);
/* ALTER ... RENAME TO: 42P07 when the schema has new_name; create_sql is
 * the definition rewritten under the new name. */
bool cat_plan_rename_item(const cat_snap_t *s, const cat_item_t *item, const char *new_name, const char *create_sql,
                          cat_change_t *out, cm_err_t *err);
/* Redefines an item in place (same ID, OID, kind and schema): def->name.name
 * (NULL: kept), def->create_sql (NULL: kept), and, when def->columns is set,
 * the columns and deps. 42P07 when the new name is taken. A second call for
 * the same item in one change replaces the first. */
bool cat_plan_alter_item(const cat_snap_t *s, const cat_item_t *item, const cat_item_def_t *def, cat_change_t *out,
                         cm_err_t *err);
/* ALTER SCHEMA s RENAME TO n: 42P06, 42939 as PostgreSQL. The stored SQL of the
 * items that name the schema is the planner's to rewrite (cat_plan_alter_item). */
bool cat_plan_rename_schema(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *schema,
                            const char *new_name, cat_change_t *out, cm_err_t *err);
/* ALTER DATABASE d RENAME TO n: 3D000, 42P04, and 0A000 for the session's own database. */
bool cat_plan_rename_database(const cat_snap_t *s, const cat_search_t *search, const char *name,
                              const char *new_name, cat_change_t *out, cm_err_t *err);
/*
 * Roles (cat_plan_role.c). `actor` is the role running the statement, NULL
 * for a session whose user is not a catalog role (trust authentication
 * before any role existed), which acts as a superuser. Privileges and
 * messages are PostgreSQL 15's CreateRole / AlterRole / DropRole /
 * AddRoleMems / DelRoleMems.
 */
typedef struct cat_role_def {
    const char *name;
    uint32_t flags;
    int32_t conn_limit;
    const char *password;        /* a verifier, NULL: none */
    bool has_valid_until;
    int64_t valid_until;
    const cat_id_t *member_of;   /* copied */
    uint32_t nmember_of;
    const char *const *settings; /* copied: "name=value" */
    uint32_t nsettings;
} cat_role_def_t;

/* Which attributes an ALTER ROLE gives (the others are kept). */
#define CAT_ROLE_SET_PASSWORD 0x100u
#define CAT_ROLE_SET_CONN_LIMIT 0x200u
#define CAT_ROLE_SET_VALID_UNTIL 0x400u

bool cat_plan_create_role(const cat_snap_t *s, const cat_role_t *actor, const cat_role_def_t *def,
                          cat_change_t *out, cm_err_t *err);
/* set: the CAT_ROLE_* flags named (their values in def->flags) and CAT_ROLE_SET_*. */
bool cat_plan_alter_role(const cat_snap_t *s, const cat_role_t *actor, const cat_role_t *role, uint32_t set,
                         const cat_role_def_t *def, cat_change_t *out, cm_err_t *err);
/*
 * ALTER ROLE r SET name = value (value NULL: RESET name; name NULL: RESET
 * ALL), with AlterRoleSet's privilege rules. The value, already checked by
 * the caller, is kept as written, replacing an earlier one in place.
 */
bool cat_plan_alter_role_setting(const cat_snap_t *s, const cat_role_t *actor, const cat_role_t *role,
                                 const char *name, const char *value, cat_change_t *out, cm_err_t *err);
/* session: the session user's role (NULL as for actor). */
bool cat_plan_drop_roles(const cat_snap_t *s, const cat_search_t *search, const cat_role_t *actor,
                         const cat_role_t *session, const char *const *names, size_t n, bool if_exists,
                         cat_change_t *out, cm_err_t *err);
/* GRANT roles TO members / REVOKE roles FROM members. */
bool cat_plan_grant_roles(const cat_snap_t *s, const cat_role_t *actor, const char *const *roles, size_t nroles,
                          const char *const *members, size_t nmembers, bool revoke, cat_change_t *out,
                          cm_err_t *err);

/* ALTER ... OWNER TO (cat_plan_owner.c): `to` is a role ID or CAT_ROLE_BOOTSTRAP. */
bool cat_plan_owner_item(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *it, cat_id_t to,
                         cat_change_t *out, cm_err_t *err);
bool cat_plan_owner_schema(const cat_snap_t *s, const cat_search_t *search, const cat_schema_t *sc, cat_id_t to,
                           cat_change_t *out, cm_err_t *err);
bool cat_plan_owner_database(const cat_snap_t *s, const cat_search_t *search, const cat_database_t *db, cat_id_t to,
                             cat_change_t *out, cm_err_t *err);
/*
 * REASSIGN OWNED BY roles TO `to` / DROP OWNED BY roles (cat_plan_owned.c),
 * once the planner checked that the user has every role's privileges.
 */
bool cat_plan_reassign_owned(const cat_snap_t *s, const cat_search_t *search, const cat_id_t *roles, size_t nroles,
                             cat_id_t to, cat_change_t *out, cm_err_t *err);
bool cat_plan_drop_owned(const cat_snap_t *s, const cat_search_t *search, const cat_id_t *roles, size_t nroles,
                         bool cascade, cat_change_t *out, cm_err_t *err);

/*
 * GRANT / REVOKE privileges ON one object (cat_plan_grant.c), PostgreSQL
 * 15's ExecGrant_*: the planner found the objects and grantees and checked
 * the privilege words for the target, in PostgreSQL's order.
 */
/* `priv (a, b)` of GRANT / REVOKE ON a relation: checked per relation, as ExecGrant_Relation does. */
typedef struct cat_col_grant {
    uint32_t privs;         /* CAT_PRIV_*; ALL (columns): every column privilege */
    const char *unknown;    /* a word that names no privilege: 42601 once reached */
    const char *const *cols;
    uint32_t ncols;
} cat_col_grant_t;

typedef struct cat_grant {
    bool is_grant;
    bool grant_option;      /* WITH GRANT OPTION; REVOKE GRANT OPTION FOR */
    bool all_privs;         /* ALL [PRIVILEGES]: privs unused */
    bool cascade;           /* REVOKE ... CASCADE */
    uint32_t privs;         /* CAT_PRIV_* */
    const cat_id_t *grantees;   /* role IDs, CAT_ROLE_PUBLIC, CAT_ROLE_BOOTSTRAP */
    uint32_t ngrantees;
    const cat_col_grant_t *col_grants;   /* column privileges, in the order written */
    uint32_t ncol_grants;
} cat_grant_t;

/* The privileges a relation's columns take (ACL_ALL_RIGHTS_COLUMN). */
#define CAT_PRIVS_COLUMN (CAT_PRIV_SELECT | CAT_PRIV_INSERT | CAT_PRIV_UPDATE | CAT_PRIV_REFERENCES)

bool cat_plan_grant_item(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, const cat_item_t *it,
                         cat_change_t *out, cm_err_t *err);
bool cat_plan_grant_schema(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g,
                           const cat_schema_t *sc, cat_change_t *out, cm_err_t *err);
bool cat_plan_grant_database(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g,
                             const cat_database_t *db, cat_change_t *out, cm_err_t *err);
/* ALTER DEFAULT PRIVILEGES FOR ROLE role [IN SCHEMA sc] ... ON objtype's objects (sc NULL: db's own
 * entry; objtype as cat_defacl_t's): SetDefaultACL, an entry equal to the default removed. */
bool cat_plan_default_privileges(const cat_snap_t *s, const cat_search_t *search, const cat_grant_t *g, cat_id_t role,
                                 char objtype, const cat_schema_t *sc, const cat_database_t *db, cat_change_t *out,
                                 cm_err_t *err);
/* The privileges an object of objtype takes ('r': CAT_PRIVS_RELATION ...). */
uint32_t cat_defacl_privs(char objtype);
/* get_user_default_acl: the ACL a relation `owner` creates in sc starts with (set false: the default). */
cat_acl_t cat_acl_for_new(const cat_snap_t *s, const cat_schema_t *sc, cat_id_t owner, cm_arena_t *a);
/* ... and a schema `owner` creates in db (its database-wide entry for schemas). */
cat_acl_t cat_acl_for_new_schema(const cat_snap_t *s, const cat_database_t *db, cat_id_t owner, cm_arena_t *a);

/* ALTER ... IF EXISTS of a missing relation: only the notice PostgreSQL sends. */
void cat_plan_rename_missing(const cat_snap_t *s, const char *name, cat_change_t *out);
bool cat_plan_drop_items(const cat_snap_t *s, const cat_search_t *search, cat_item_kind_t kind,
                         const cat_qname_t *names, size_t n, bool if_exists, bool cascade, cat_change_t *out,
                         cm_err_t *err);

/*
 * Turns a change planned at snapshot index N into a store commit for index
 * N+1 (expect = head with head.index == N): the encoded entry, the objects
 * and names to create and delete. `tag` is the command ("CREATE VIEW").
 * 54000 when over the limits. Free with cat_commit_free.
 */
typedef struct cat_commit cat_commit_t;
cat_commit_t *cat_commit_build(const cat_change_t *c, const cat_snap_t *s, const cat_head_t *head,
                               const uint8_t request_uuid[16], const char *tag, const char *sql,
                               const cat_limits_t *limits, cm_err_t *err);
const cat_store_commit_t *cat_commit_store(const cat_commit_t *c);
void cat_commit_free(cat_commit_t *c);

/* ------------------------------------------------------------ transactions */

/* A copy of a snapshot: same index, same objects. */
cat_snap_t *cat_snap_clone(const cat_snap_t *s);

/*
 * The DDL of one transaction block, committed as one entry (cat_txn.c).
 * cat_txn_snap is the base with every added statement applied, to plan the
 * next statement against; cat_txn_add applies one statement's change (planned
 * against cat_txn_snap) to it; cat_txn_commit builds the store commit of all
 * of them for head == the base's index (0A000 when the statements cannot be
 * folded into one entry, 54000 past the limits). `base` must not change
 * while the transaction lives.
 */
typedef struct cat_txn cat_txn_t;
cat_txn_t *cat_txn_new(const cat_snap_t *base);
void cat_txn_free(cat_txn_t *t);
const cat_snap_t *cat_txn_snap(const cat_txn_t *t);
size_t cat_txn_count(const cat_txn_t *t);
bool cat_txn_add(cat_txn_t *t, const cat_change_t *ch, const char *tag, const char *sql, cm_err_t *err);
cat_commit_t *cat_txn_commit(const cat_txn_t *t, const cat_head_t *head, const uint8_t request_uuid[16],
                             const cat_limits_t *limits, cm_err_t *err);

/* ------------------------------------------------------------ encoding */

/*
 * Entries and objects are records of the self-describing binary format of
 * cat_codec.c: "EDDY" magic, format version, record type, then fields
 * (u16 tag, u8 wire type, u32 length, payload) where unknown tags are
 * skipped. Decoders check every length and never read past the input.
 */
#define CAT_FORMAT 1

typedef enum cat_op_kind {
    CAT_OP_CREATE = 1,   /* object: a full definition */
    CAT_OP_DROP = 2,     /* class and id */
    CAT_OP_RENAME = 3,   /* item: its full new definition (name, SQL, columns, deps), same ID, OID, kind and
                            schema; schema or database: its new name (what lives in it moves along) */
} cat_op_kind_t;

/* A decoded object; strings point into `arena`. */
typedef struct cat_object {
    cat_class_t cls;
    cat_id_t id;
    uint32_t oid;
    cat_id_t parent;         /* schema: its database; item: its schema (system schema IDs allowed) */
    const char *name;
    cat_item_kind_t kind;    /* items */
    const char *create_sql;
    cat_column_t *columns;
    uint32_t ncolumns;
    cat_id_t *deps;          /* a role: the roles it is a member of */
    uint32_t ndeps;
    /* roles */
    uint32_t role_flags;
    int32_t conn_limit;
    const char *password;
    bool has_valid_until;
    int64_t valid_until;
    const char **settings;
    uint32_t nsettings;
    /* databases, schemas, items: owner and ACL */
    cat_acl_t acl;
} cat_object_t;

typedef struct cat_op {
    cat_op_kind_t kind;
    cat_object_t obj;        /* DROP: cls and id only */
} cat_op_t;

typedef struct cat_entry {
    uint32_t format;
    uint64_t index;
    const char *kind;        /* the command tag */
    uint8_t request_uuid[16];
    const char *sql;
    cat_op_t *ops;
    uint32_t nops;
    cat_id_t *deps;          /* union of the created items' deps */
    uint32_t ndeps;
} cat_entry_t;

void cat_object_encode(const cat_object_t *o, cm_buf_t *out);
bool cat_object_decode(const uint8_t *p, size_t len, cm_arena_t *arena, cat_object_t *out, cm_err_t *err);
void cat_entry_encode(const cat_entry_t *e, cm_buf_t *out);
bool cat_entry_decode(const uint8_t *p, size_t len, cm_arena_t *arena, cat_entry_t *out, cm_err_t *err);
/* A readable rendering of any record, for inspection and tools. */
bool cat_record_dump(const uint8_t *p, size_t len, cm_buf_t *out);

/* The first entry of every store: database `eddy` with schema `public`. */
cat_commit_t *cat_commit_bootstrap(const cat_head_t *head, const cat_limits_t *limits, cm_err_t *err);

/* ====================================================================
 * 3. Built-in relations (schemas eddy_catalog and eddy_internal)
 * ==================================================================== */

typedef struct cat_builtin {
    const char *name;              /* "items" */
    const cat_column_t *columns;
    uint32_t ncolumns;
    const char *schema;            /* NULL: eddy_catalog */
    bool session;                  /* its rows are the process's, read as session relation schema.name
                                      (cat_builtin_session.c), not cat_builtin_rows' */
} cat_builtin_t;

/* Every built-in relation: eddy_catalog's own, then those whose rows a session answers. */
size_t cat_builtin_count(void);
const cat_builtin_t *cat_builtin_at(size_t i);
/* The built-in relation schema.name; NULL: none. */
const cat_builtin_t *cat_builtin_find(const char *schema, const char *name);
/* Appends every row of a built-in relation, as datums of its column types
 * (strings in `arena`), row after row: nrows * ncolumns datums. */
typedef struct cat_rows {
    ty_datum_t *datums;
    size_t nrows;
    size_t cap;
} cat_rows_t;
/* search: the session (names the bootstrap superuser in ACLs; may be NULL). */
bool cat_builtin_rows(const cat_snap_t *s, const cat_search_t *search, const cat_item_t *relation, cm_arena_t *arena,
                      cat_rows_t *out, cm_err_t *err);
/* The rows of eddy_catalog.<name> (which must have ncols columns) as row pointers, all in arena. */
bool cat_builtin_read(const cat_snap_t *s, const cat_search_t *search, const char *name, int ncols, cm_arena_t *arena,
                      ty_datum_t ***rows, int *nrows, cm_err_t *err);

#endif
