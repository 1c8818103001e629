/*
 * srv_int.h: the internal header of the server module: the loop, the
 * connection with its one state enum, sessions, prepared statements and
 * portals, and the functions the srv_*.c files call on one another.
 */
#ifndef EDDY_SRV_INT_H
#define EDDY_SRV_INT_H

#include "common/common.h"
#include "dataflow/dataflow.h"
#include "exec/exec.h"
#include "planner/planner.h"
#include "server/server.h"
#include "server/srv_codec.h"
#include "server/srv_scram.h"
#include "types/types.h"

#include <pthread.h>
#include <stdatomic.h>
#include <uv.h>

#define SRV_READ_CHUNK (64 * 1024)          /* one shared read buffer per loop */
#define SRV_FLUSH_BYTES (64 * 1024)         /* write early when this much output waits */
#define SRV_BUF_KEEP (16 * 1024)            /* idle buffers above this go back to malloc */
#define SRV_PG_EPOCH_US 946684800000000LL   /* 2000-01-01 (PostgreSQL's epoch) in Unix microseconds */
#define SRV_HANDOFF_MAX 4096                /* accepted sockets waiting for a loop */

typedef struct srv_conn srv_conn_t;
typedef struct srv_loop srv_loop_t;
typedef struct srv_cat_loop srv_cat_loop_t;   /* srv_catalog.c: a loop's store handle and snapshot */
typedef struct srv_cat_conn srv_cat_conn_t;   /* srv_catalog.c: a connection's view of names */
typedef struct srv_ddl_loop srv_ddl_loop_t;   /* srv_ddl.c: a loop's DDL operations */
typedef struct srv_sync_loop srv_sync_loop_t; /* srv_sync.c: a loop's waits for the workers */
typedef struct srv_ask_loop srv_ask_loop_t;   /* srv_ask.c: a loop's commands to the workers */
typedef struct srv_sub_loop srv_sub_loop_t;   /* srv_sub_wake.c: a loop's subscriptions' wake-ups */
typedef struct srv_ask srv_ask_t;             /* srv_ask.c: one of them */
typedef struct srv_sync_wait srv_sync_wait_t; /* srv_sync.c: one wait */
typedef struct srv_zk srv_zk_t;               /* srv_zk_loop.c: the thread that owns the ZooKeeper session */
typedef struct srv_zk_boot srv_zk_boot_t;
typedef struct srv_tls_stat srv_tls_stat_t;   /* srv_tls_stat.c: a session's pg_stat_ssl row */     /* srv_zk_boot.c: the snapshot the loops start from */

/* ------------------------------------------------------------ server */

typedef struct srv_user {
    char *name;
    srv_scram_secret_t secret;
} srv_user_t;

typedef struct srv_server {
    srv_config_t cfg;
    srv_user_t *users;              /* srv_users.c, guarded by users_mu (SIGHUP replaces it) */
    int nusers;
    pthread_mutex_t users_mu;
    atomic_int nconns;
    srv_loop_t *loops;
    int nloops;
    atomic_uint next_loop;
    /* The listener has a thread of its own, so that a new connection (a CancelRequest
     * above all) is taken while every loop may be running a statement. */
    int listen_fd;
    int accept_stop[2];             /* a pipe: a byte written stops the acceptor */
    uv_thread_t acceptor;
    cat_mem_db_t *catdb;            /* the embedded catalog store (laptop mode) */
    srv_zk_t *zk;                   /* the ZooKeeper store (cluster mode, --zookeeper) */
    srv_zk_boot_t *boot;
    _Atomic uint64_t cat_acked;     /* the highest catalog index acknowledged to any session */
    struct df_workers *workers;     /* the dataflow workers */
    /* The sequencer's own loop and thread: workers may wait for one another inside a step
     * (a write's key check on every shard), so the thread that numbers and delivers the
     * commands must never be one of them. */
    uv_loop_t seq_loop;
    uv_thread_t seq_thread;
    struct seq_transport *transport;
    struct seq *seq;
    pthread_mutex_t sync_mu;        /* guards loops' sync handles against the sequencer's wake-ups */
    struct srv_tls_server *tls;     /* srv_tls.c: the TLS context; NULL without --tls-cert */
    struct srv_http *http;          /* srv_http.c: /metrics, /healthz, /readyz; NULL without --http-listen */
    /* Set (release) once the catalog is loaded and the workers and the sequencer run: the
     * HTTP thread reads zk, seq and workers only after it has seen this (acquire). */
    atomic_bool ready;
} srv_server_t;

struct srv_loop {
    uv_loop_t uv;
    srv_server_t *srv;
    int index;
    uv_thread_t thread;
    uv_async_t async;               /* handed-off sockets and the shutdown order */
    uv_timer_t tick;                /* housekeeping: authentication timeouts */
    pthread_mutex_t mu;             /* guards the hand-off queue and `stop` */
    int handoff[SRV_HANDOFF_MAX];
    int nhandoff;
    bool stop;
    bool stopping;                  /* this loop has begun closing everything */
    int64_t stop_deadline_us;       /* stopping: statements still running then get 57P01 */
    srv_conn_t *conns;              /* every open connection of this loop */
    /* When the loop began the callback it is in (cm_now_mono_us), 0 between callbacks:
     * the acceptor hands new connections to loops that are not stuck in a statement.
     * Read and written only through the __atomic builtins, which clang refuses on an
     * _Atomic object. */
    int64_t busy_since_us;
    uint8_t rbuf[SRV_READ_CHUNK];
    /* Loop 0 only: the listener and the signals. */
    uv_signal_t sigint, sigterm, sighup;
    srv_cat_loop_t *cat;            /* this loop's catalog handle and snapshot */
    srv_ddl_loop_t *ddl;            /* this loop's DDL operations */
    srv_sync_loop_t *sync;          /* this loop's waits for the workers */
    srv_ask_loop_t *ask;            /* this loop's statements' commands to the workers */
    srv_sub_loop_t *subl;           /* the workers' wake-ups of this loop's subscriptions */
};

/* ------------------------------------------------------------ fatal signals (srv_crash.c) */

/* What this thread runs now (what, then the SQL text), for the log line a fatal signal writes. */
void srv_crash_note(const char *what, const char *sql, size_t len);
void srv_crash_note_clear(void);

/* ------------------------------------------------------------ cancel */

typedef struct srv_cancel_slot {
    struct srv_cancel_slot *next;   /* hash chain, guarded by the registry lock */
    int32_t pid;
    int32_t secret;
    pthread_mutex_t mu;             /* orders "statement begins/ends" against a cancel */
    bool running;
    volatile int cancel;            /* ty_ctx_t.cancel points here */
} srv_cancel_slot_t;

void srv_cancel_register(srv_cancel_slot_t *slot);
void srv_cancel_unregister(srv_cancel_slot_t *slot);
void srv_cancel_request(int32_t pid, int32_t secret);
void srv_cancel_stmt_begin(srv_cancel_slot_t *slot);
void srv_cancel_stmt_end(srv_cancel_slot_t *slot);

/* ------------------------------------------------------------ session */

enum {
    SRV_GUC_REPORT = 1 << 0,     /* sent as ParameterStatus at start and on change */
    SRV_GUC_READONLY = 1 << 1,   /* SET fails with 55P02 */
};

#define SRV_GUC_MAX 64

typedef struct srv_session {
    char *val[SRV_GUC_MAX];        /* current values, canonical spelling */
    char *reported[SRV_GUC_MAX];   /* last value sent as ParameterStatus */
    char *xact_orig[SRV_GUC_MAX];  /* value when the transaction first touched it */
    char *xact_sess[SRV_GUC_MAX];  /* last plain SET in the transaction (kept by COMMIT) */
    bool xact_saved[SRV_GUC_MAX];
    char *reset_val[SRV_GUC_MAX];  /* what RESET returns to when not the default: startup or role value */
    bool from_client[SRV_GUC_MAX]; /* set by the startup packet, which a role's setting does not override */
    bool xact_touched;
    ty_settings_t settings;
    int64_t statement_timeout_ms;
    uint64_t settings_gen;         /* bumped by every change of any value */
    bool report_pending;           /* a reported parameter may have changed since the last report */
    char *user;
    char *database;
} srv_session_t;

void srv_session_init(srv_session_t *s, const char *user);
void srv_session_free(srv_session_t *s);
/* A read-only parameter's value for this server (ssl), set before the session starts. */
void srv_session_boot(srv_session_t *s, const char *name, const char *value);
/* SET name = value (NULL: DEFAULT). `in_xact` says whether undo must be kept. */
bool srv_session_set(srv_session_t *s, const char *name, const char *value, bool local, cm_err_t *err);
/* Startup parameters: unknown names and invalid values are ignored, as documented. */
void srv_session_set_startup(srv_session_t *s, const char *name, const char *value);
void srv_session_reset_all(srv_session_t *s);
/* A role's default (ALTER ROLE SET), applied at login unless the startup packet set
 * the parameter; an invalid value is logged and ignored. */
void srv_session_set_role_default(srv_session_t *s, const char *name, const char *value);
/* ALTER ROLE SET's check (pln_setting_check_fn): the parameter exists and may be set,
 * and the value is valid; *name becomes the canonical spelling. */
bool srv_session_check_setting(const char **name, const char *value, cm_err_t *err);
/* SHOW name: the value and the parameter's canonical name (the column name). */
bool srv_session_show(srv_session_t *s, const char *name, const char **value, const char **canonical,
                      cm_err_t *err);
/* The hooks of ty_ctx_t for current_setting() and set_config(); arg is the session. */
bool srv_session_setting_get(void *arg, const char *name, bool missing_ok, cm_buf_t *out, cm_err_t *err);
bool srv_session_setting_set(void *arg, const char *name, const char *value, bool is_local, cm_err_t *err);
/* SHOW ALL: calls cb for every parameter in name order. */
typedef void (*srv_guc_visit_cb)(void *arg, const char *name, const char *value, const char *desc);
void srv_session_show_all(srv_session_t *s, srv_guc_visit_cb cb, void *arg);
/* pg_settings' rows (planner.h), in SHOW ALL's order, in the statement's arena. */
bool srv_session_settings_rows(srv_session_t *s, cm_arena_t *arena, int ncols, ty_datum_t ***rows, int *nrows,
                               cm_err_t *err);
/* The current value of a parameter that exists (programmer error otherwise). */
const char *srv_session_get(srv_session_t *s, const char *name);
/* End of a transaction (explicit or implicit): keep or undo its SETs. */
void srv_session_xact_end(srv_session_t *s, bool commit);
/* ParameterStatus for every reported parameter whose value changed (all: every one). */
void srv_session_report(srv_session_t *s, cm_buf_t *out, bool all);

/* ------------------------------------------------------ statements, portals */

/* Result columns of a statement: the RowDescription fields and the types rows are written in. */
typedef struct srv_cols {
    int n;
    srv_field_t *fields;
    ty_oid_t *types;
    bool rows;                  /* it returns rows: Describe answers RowDescription, not NoData */
} srv_cols_t;

typedef struct srv_stmt {
    struct srv_stmt *next;
    char *name;                 /* in arena */
    cm_arena_t arena;           /* the text, the raw parse, the bound plan and the columns */
    const char *sql;
    size_t sql_len;
    int ndeclared;              /* parameter types given by Parse (0 = infer) */
    ty_oid_t *declared;
    uint64_t settings_gen;      /* srv_session_t.settings_gen when it was bound */
    pln_stmt_t *plan;           /* NULL for an empty query string */
    srv_cols_t cols;            /* built once, when it is parsed */
    cm_buf_t rowdesc;           /* encoded RowDescription for rowdesc_formats */
    bool rowdesc_valid;
    int16_t *rowdesc_formats;   /* malloc'd; NULL: all text */
    int refs;                   /* the table's reference plus one per portal */
    /* What pg_prepared_statements shows of a named statement (srv_prepstmts.c). */
    const char *source;         /* the query string it came in: Parse's, or the whole one around a PREPARE */
    int64_t prepare_time;       /* microseconds since 2000-01-01 UTC */
    bool from_sql;              /* made by PREPARE, not by Parse */
    int source_off;             /* PREPARE: byte offset of its text (sql) in source, for error positions */
    int64_t generic_plans;      /* executions PostgreSQL's plan cache would run generically */
    int64_t custom_plans;       /* ... and with a plan made for the parameter values */
} srv_stmt_t;

typedef struct srv_portal {
    struct srv_portal *next;
    char *name;
    srv_stmt_t *stmt;
    cm_arena_t arena;           /* parameters and result formats */
    ty_datum_t *params;
    int nformats;
    int16_t *formats;           /* result format per column; NULL: all text */
    bool started;               /* ran once; further rows wait in `rows` */
    bool done;
    cm_buf_t rows;              /* DataRow messages beyond an Execute's row limit */
    size_t rows_off;
} srv_portal_t;

/* ------------------------------------------------------------ connection */

/* DESIGN §10.4: the one state enum; srv_conn_set_state is the only writer. */
typedef enum srv_conn_state {
    SRV_CONN_STARTUP = 0,   /* waiting for the startup packet (SSL/GSS refusals loop here) */
    SRV_CONN_AUTH,          /* waiting for a password or SASL message */
    SRV_CONN_READY,         /* processing frontend messages */
    SRV_CONN_BUSY,          /* a blocking statement runs off the loop; input waits */
    SRV_CONN_CLOSING,       /* flushing a last message, then close */
    SRV_CONN_CLOSED,        /* uv_close issued; freed in the close callback */
} srv_conn_state_t;

typedef enum srv_auth_step {
    SRV_AUTH_STEP_PASSWORD,
    SRV_AUTH_STEP_SASL_INITIAL,
    SRV_AUTH_STEP_SASL_FINAL,
} srv_auth_step_t;

/* A simple-query string being worked through (it may pause for blocking work). */
typedef struct srv_query_run {
    bool active;
    const char *sql;
    pln_raw_list_t raws;
    int next;
    bool failed;
    bool rechecked;             /* statement `next - 1` waited once for a missing name */
} srv_query_run_t;

typedef struct srv_wtxn srv_wtxn_t;   /* srv_write_txn.c */

/* What a statement running off the loop needs and produces. */
typedef struct srv_work {
    uv_work_t req;
    bool inflight;
    const pln_stmt_t *stmt;
    const char *sql;
    const ty_datum_t *params;
    const int16_t *formats;
    int nformats;
    const ty_oid_t *types;      /* result column types */
    int32_t max_rows;
    ty_ctx_t ctx;
    cm_err_t err;
    cm_buf_t out;
    uint64_t nrows;
    bool ok;
    srv_portal_t *portal;       /* extended: the portal run; NULL for simple */
    bool reads;                 /* it reads tables: its rows come from the workers (srv_read.c) */
    bool writes;                /* a write (srv_write.c): nrows counts its rows changed, sent counts RETURNING's */
    uint64_t written;
    char tag[32];               /* a write's CommandComplete ("INSERT 0 3") */
    srv_wtxn_t *tx;             /* the open transaction's writes, which the statement sees and adds to */
    df_reply_t *answered;       /* a read the workers answered already (srv_exec_ask.c): rest runs over it */
    const plan_t *rest;
    srv_wtxn_t *commit;         /* not a statement: the COMMIT of these writes (freed when done) */
    struct srv_copy_in *copy_in; /* not a statement: the end of a COPY FROM STDIN (srv_copy_in.c) */
    const pln_stmt_t *ctas_copy; /* not a statement: the INSERT of a CREATE TABLE AS's rows (srv_ctas.c) */
    void (*commit_done)(srv_conn_t *c, cm_err_t *err, const char *tag);
    const char *commit_tag;
} srv_work_t;

/* srv_workers.c: a Write or Peek to every worker, waited for (the reply, or NULL with ctx->err). */
#define SRV_WORKERS_POLL_MS 10   /* how often a waiting read looks at cancel and statement_timeout */
enum {
    SRV_ASK_INTERRUPTIBLE = 1 << 0,   /* cancel and statement_timeout end the wait (reads) */
    SRV_ASK_GROUPABLE = 1 << 1,       /* a write that cannot fail on a worker: group commit */
    SRV_ASK_TAKE = 1 << 2,            /* the command takes body's bytes, left empty (a big Write: no copy) */
};
/* A read of plan p with the lookups of its Peek's body (no plan bytes) answered into rep from the
 * workers' published shards (df_publish.c), on this thread; false: not now (--snapshot-reads off,
 * a worker behind, a computed read): send the Peek. */
bool srv_workers_read_published(srv_server_t *srv, const plan_t *p, const cm_buf_t *lookups, df_reply_t *rep);
df_reply_t *srv_workers_ask(srv_server_t *srv, df_cmd_kind_t kind, cm_buf_t *body, int flags,
                            const char *refused, ty_ctx_t *ctx);
/* srv_ask.c: a statement's command to the workers, sent from its loop and answered there: fn(c,
 * rep, arg) runs on the loop once, with the reply (rep->err set when a worker failed it) or, for
 * SRV_ASK_INTERRUPTIBLE once ctx says the statement was interrupted, with NULL; never when the
 * connection went away first. false: refused (ctx->err set; fn never runs). A SRV_ASK_GROUPABLE
 * write planned at catalog index accept_index (0: none) may be answered as soon as it is
 * numbered (df_cmd_t.accept_index). */
typedef void (*srv_ask_fn)(srv_conn_t *c, df_reply_t *rep, void *arg);
bool srv_ask_send(srv_conn_t *c, df_cmd_kind_t kind, const cm_buf_t *body, int flags, uint64_t accept_index,
                  ty_ctx_t *ctx, const char *refused, srv_ask_fn fn, void *arg);
/* A Peek of plan p whose body holds only its lookups (srv_read_prepare's plan_left): answered
 * from the published shards when they are current, else sent with p's bytes added. */
bool srv_ask_send_read(srv_conn_t *c, cm_buf_t *body, const plan_t *p, ty_ctx_t *ctx, const char *refused,
                       srv_ask_fn fn, void *arg);
void srv_ask_conn_free(srv_conn_t *c);
/* srv_subscribe.c: a connection that goes away ends its SUBSCRIBE. */
void srv_subscribe_conn_free(srv_conn_t *c);
/* srv_cursor.c: cursors over SUBSCRIBE. FETCH's columns are its cursor's (none: no such cursor);
 * the end of a transaction closes them all; a connection that goes away ends a FETCH's wait. */
typedef struct srv_cursor srv_cursor_t;
void srv_cursor_cols(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out);
void srv_cursor_close_all(srv_conn_t *c);
void srv_cursor_conn_free(srv_conn_t *c);
void srv_ask_loop_init(srv_loop_t *lp);
void srv_ask_loop_close(srv_loop_t *lp);
void srv_ask_loop_free(srv_loop_t *lp);
/* srv_sub_wake.c: a loop's wake-up for its subscriptions (closed before the loop, freed after). */
void srv_sub_loop_init(srv_loop_t *lp);
void srv_sub_loop_close(srv_loop_t *lp);
void srv_sub_loop_free(srv_loop_t *lp);
/* The first error of a reply into ctx->err (false), else true. */
bool srv_workers_answer_ok(const df_reply_t *rep, ty_ctx_t *ctx);
/* srv_write_txn.c: the writes of an open transaction, applied at its COMMIT as one Write. */
srv_wtxn_t *srv_wtxn_new(int64_t rows_max);
void srv_wtxn_free(srv_wtxn_t *t);
bool srv_wtxn_empty(const srv_wtxn_t *t);
/* Keeps a statement's changes to w's table (copied); 54000 beyond rows_max. */
bool srv_wtxn_add(srv_wtxn_t *t, const plan_write_t *w, ty_datum_t *const *rows, const int64_t *diffs, int n,
                  cm_err_t *err);
/* A TRUNCATE of w's table: what the workers hold and what was kept for it are gone. */
void srv_wtxn_truncate(srv_wtxn_t *t, const plan_write_t *w);
/* The rows of table `item` the workers answered, with the transaction's changes applied (t may be NULL). */
bool srv_wtxn_overlay(const srv_wtxn_t *t, uint64_t item, ty_ctx_t *ctx, ty_datum_t ***rows, int *nrows);
/* A check-only Write of w's table: its kept changes and then the statement's (n rows). */
bool srv_wtxn_encode_check(const srv_wtxn_t *t, const plan_write_t *w, const ty_oid_t *types, ty_datum_t *const *rows,
                           const int64_t *diffs, int n, ty_ctx_t *ctx, cm_buf_t *out);
/* COMMIT: every kept change as one Write, waited for (on the thread pool). */
bool srv_wtxn_commit(srv_server_t *srv, const srv_wtxn_t *t, ty_ctx_t *ctx);

/* srv_write.c: runs INSERT, UPDATE, DELETE or TRUNCATE (on the thread pool); *written: the rows it
 * changed. tx: the open transaction's writes, where the statement's changes go (NULL: applied now). */
bool srv_write_run(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, const char *sql,
                   const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, uint64_t *written);
/* NOT NULL and CHECK of one new row, with PostgreSQL's errors (23502, 23514). */
bool srv_write_check_row(const plan_write_t *w, const ty_datum_t *row, const ty_datum_t *params, ty_ctx_t *ctx);
/* A check-only Write of new rows' keys (with tx's changes to the table); true without keys. */
bool srv_write_check_keys(srv_server_t *srv, const plan_write_t *w, const srv_wtxn_t *tx, ty_datum_t **rows, int n,
                          ty_ctx_t *ctx);
/* A Write body built by the caller (df_write_begin ...) to every worker, waited for until each
 * applied it; body is freed. srv_write_types: the table's column types, for its parts. */
bool srv_write_submit(srv_server_t *srv, const plan_write_t *w, cm_buf_t *body, ty_ctx_t *ctx);
ty_oid_t *srv_write_types(const plan_write_t *w, cm_arena_t *a);
/* New rows, checked already: written now, or their keys checked and kept by tx. */
bool srv_write_insert_rows(srv_server_t *srv, const plan_write_t *w, srv_wtxn_t *tx, ty_datum_t **rows, int n,
                           ty_ctx_t *ctx);
/* srv_read_lookup.c: the lookups by key p's reads allow, into a Peek's body (nothing when none). */
bool srv_read_lookups(const plan_t *p, const ty_datum_t *params, ty_ctx_t *ctx, cm_buf_t *body);
/* srv_read.c: runs a plan that reads tables (on the thread pool: it waits for the workers);
 * tx: the open transaction's writes, which it sees (NULL: none). */
bool srv_read_run(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const char *sql,
                  const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg);
/* srv_read_run, also keeping the rows of one table it read (in ctx's arena). */
typedef struct srv_read_keep {
    uint64_t item;
    bool found;
    ty_datum_t **rows;
    int nrows;
} srv_read_keep_t;
bool srv_read_run_keep(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const char *sql,
                       const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, srv_read_keep_t *keep);
/* srv_read_run in two halves, for a read answered on the loop (srv_exec_ask.c): the Peek's body
 * and the part of the plan that runs over the answer (*rest); then that part over the reply.
 * plan_left (NULL: never): a Peek of p itself leaves p out of body (its lookups alone) and says
 * so, for a read that may be answered from the published shards (srv_read_plan_bytes adds it). */
bool srv_read_prepare(srv_server_t *srv, const plan_t *p, const srv_wtxn_t *tx, const ty_datum_t *params,
                      ty_ctx_t *ctx, bool keep, cm_buf_t *body, const plan_t **rest, bool *plan_left);
bool srv_read_plan_bytes(const plan_t *p, cm_buf_t *body, ty_ctx_t *ctx);
bool srv_read_finish(df_reply_t *rep, const plan_t *rest, const srv_wtxn_t *tx, const char *sql,
                     const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg, srv_read_keep_t *keep);
/* srv_write.c: an INSERT that reads no table, outside a transaction, in two halves for the loop:
 * its rows computed and checked and its Write encoded (SRV_WRITE_READY), or its error
 * (SRV_WRITE_FAILED), or SRV_WRITE_OFF_LOOP when it must ask the workers before its error (a row
 * failing after rows whose keys PostgreSQL checks first): then it runs with srv_write_run. */
typedef enum { SRV_WRITE_READY, SRV_WRITE_FAILED, SRV_WRITE_OFF_LOOP } srv_write_prep_rc_t;
typedef struct srv_write_prep {
    ty_datum_t **rows;          /* the plan's rows (RETURNING's values at their end), in ctx's arena */
    int n;
    cm_buf_t body;              /* the Write */
    int flags;                  /* SRV_ASK_GROUPABLE when it may share a step */
    const char *refused;
} srv_write_prep_t;
srv_write_prep_rc_t srv_write_prepare_insert(const plan_write_t *w, const char *sql, const ty_datum_t *params,
                                             ty_ctx_t *ctx, srv_write_prep_t *out);
/* RETURNING's rows of a prepared INSERT that applied. */
bool srv_write_returning(const plan_write_t *w, const srv_write_prep_t *p, ex_row_cb cb, void *arg);

struct srv_conn {
    uv_tcp_t tcp;               /* first, so the handle's memory is the connection's */
    srv_loop_t *lp;
    srv_conn_t *prev, *next;    /* the loop's list */
    srv_conn_state_t state;
    bool reading;
    bool paused_output;         /* stopped reading because output is not drained */
    bool out_ready;             /* out holds a ReadyForQuery not flushed yet */
    bool over_limit;            /* beyond max_connections: refuse at startup */
    bool counted;
    bool handle_closed;         /* the close callback ran */
    bool lingering;             /* stopping: FATAL sent and write side shut, reading until the client closes */
    int64_t auth_deadline_us;
    int64_t stmt_start_us;      /* --log-slow-statements-ms: when the Query or Parse..Sync began; 0: none */
    char stmt_text[256];        /* its first bytes, for the log line */
    cm_buf_t in;                /* an incomplete message carried to the next read */
    cm_buf_t out;               /* output being built */
    cm_buf_t wbuf;              /* output being written */
    uv_write_t wreq;
    bool writing;
    struct srv_tls *tls;        /* srv_tls.c: TLS once the client asked for it; NULL in clear */
    struct srv_tls_stat *tls_stat; /* srv_tls_stat.c: its pg_stat_ssl row once started */
    bool tls_pending;           /* 'S' was answered: TLS begins after this packet */
    bool any_input;             /* a byte arrived (a ClientHello first means direct TLS) */
    /* Authentication. */
    srv_auth_step_t auth_step;
    srv_scram_t *scram;
    char *user;
    char peer[64];              /* the client's address as pg_hba messages show it (set at startup) */
    struct srv_auth_wait *auth_wait; /* srv_auth.c: the failed-login delay before authentication; NULL: none */
    cat_id_t role_counted;      /* srv_role_conns.c: the role this session counts against; 0: none */
    bool sess_database_asked;   /* the client named a database other than eddy */
    char *database_asked;
    /* Session and transaction. */
    srv_session_t sess;
    char xact;                  /* 'I', 'T' or 'E' as ReadyForQuery reports it */
    bool ignore_till_sync;
    bool frame_rechecked;       /* the Parse, Bind or Describe being handled waited once for a missing name */
    bool frame_again;           /* leave the frame just handled unread: it runs again on resume */
    bool implicit_failed;       /* an error in the current implicit transaction */
    bool xact_open;             /* a transaction (implicit or explicit) has begun */
    int64_t xact_ts;            /* its start, microseconds since 2000-01-01 */
    srv_cancel_slot_t cancel;
    /* Execution. */
    cm_arena_t arena;           /* per Query / Execute scratch */
    srv_query_run_t q;
    srv_stmt_t *stmts;          /* named statements */
    srv_stmt_t *unnamed_stmt;
    srv_portal_t *portals;      /* named portals */
    srv_portal_t *unnamed_portal;
    srv_portal_t *spare_portal; /* recycled so Bind does not malloc on the hot path */
    srv_stmt_t *spare_stmt;
    srv_portal_t *current_portal; /* the portal an Execute is running */
    srv_work_t *work;           /* allocated on first blocking statement */
    srv_ask_t *ask;             /* the statement's command to the workers, answered on the loop */
    struct srv_subscribe *subscription; /* SUBSCRIBE streaming (srv_subscribe.c) */
    struct srv_cursor *cursors; /* DECLARE ... CURSOR FOR SUBSCRIBE (srv_cursor.c) */
    struct srv_fetch *fetch;    /* a FETCH waiting for a row (the connection is BUSY) */
    struct srv_ddl *ddl;        /* a DDL statement in flight (the connection is BUSY) */
    struct srv_ctas *ctas;      /* a CREATE TABLE AS copying its rows (srv_ctas.c); NULL if none */
    srv_cat_conn_t *catc;       /* search_path as the catalog reads it; NULL until needed */
    struct srv_txn *txn;        /* DDL of the open transaction block (srv_txn.c); NULL if none */
    srv_wtxn_t *wtxn;           /* writes of the open transaction (srv_write_txn.c); NULL if none */
    struct srv_copy_in *copy;   /* a COPY FROM STDIN taking CopyData (srv_copy_in.c); NULL if none */
    uint64_t sync_index;        /* the session's catalog index: its last DDL's */
    srv_sync_wait_t *sync_wait; /* a statement held until the workers reach sync_index */
    cm_err_t sync_err;          /* the held statement timed out: the next Query or Parse answers this */
};

/* srv_conn.c */
void srv_conn_set_state(srv_conn_t *c, srv_conn_state_t to);
void srv_conn_accept(srv_loop_t *lp, int fd);
void srv_conn_flush(srv_conn_t *c);
/* Sends a FATAL error and closes once it is written. */
void srv_conn_fatal(srv_conn_t *c, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
void srv_conn_fatal_err(srv_conn_t *c, cm_err_t *err);
void srv_conn_close(srv_conn_t *c);
/* Closes once what is queued (a TLS alert, say) is written. */
void srv_conn_close_after_write(srv_conn_t *c);
/* Client bytes in clear (decrypted under TLS): framed and handled. */
void srv_conn_input(srv_conn_t *c, const uint8_t *p, size_t n);
/* Closes at once, dropping unsent output (shutdown of a client that does not read). */
void srv_conn_abort(srv_conn_t *c);
/* Frees a connection whose handle closed while its work ran (from the work's completion). */
void srv_conn_free_orphan(srv_conn_t *c);
/* After blocking work: continue with buffered input. */
void srv_conn_resume(srv_conn_t *c);
void srv_conn_send_error(srv_conn_t *c, cm_err_t *err);
void srv_conn_send_notice(srv_conn_t *c, const char *sqlstate, cm_severity_t sev, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));

/* srv_users.c: the --users table; replaced whole, so a lookup copies the verifier out. */
bool srv_users_load(srv_server_t *srv, const char *path, cm_err_t *err);
/* SIGHUP: reads the file again; a broken one is logged and the old users stay. */
void srv_users_reload(srv_server_t *srv);
bool srv_users_secret(srv_server_t *srv, const char *name, srv_scram_secret_t *out);
void srv_users_free(srv_server_t *srv);

/* Roles (srv_roles.c). */
const char *srv_session_user(srv_session_t *s);
const char *srv_current_user(srv_session_t *s);
/* SET ROLE / SET SESSION AUTHORIZATION: PostgreSQL's checks (22023, 42501). */
bool srv_roles_check_set(srv_conn_t *c, const char *name, const char *value, cm_err_t *err);
/* After authentication: false (the connection ended with 28000) for a NOLOGIN role. */
bool srv_roles_login_ok(srv_conn_t *c);
/* The verifier c->user's password is checked against: 1 found, 0 none (fail as a wrong password). */
int srv_roles_secret(srv_conn_t *c, srv_scram_secret_t *out);
void srv_roles_install(void);
/* The text a catalog entry records for a statement: a role statement's may hold a
 * password, so only its tag is kept (its ops have the definition). */
const char *srv_roles_entry_sql(const char *tag, const char *sql);
/* The commit that creates the users file's names as superusers in a catalog without roles; NULL if none. */
cat_commit_t *srv_roles_seed(srv_server_t *srv, const cat_snap_t *snap, const cat_head_t *head, cm_err_t *err);

/* srv_http.c: --http-listen's thread (nothing without it); stopped before the rest is freed. */
bool srv_http_start(srv_server_t *srv, cm_err_t *err);
void srv_http_stop(srv_server_t *srv);

/* srv_auth.c */
void srv_auth_begin(srv_conn_t *c);
void srv_auth_message(srv_conn_t *c, const srv_frame_t *f);
void srv_auth_tick(srv_conn_t *c, int64_t now_us);
/* The connection closes: stops its failed-login delay, if one runs. */
void srv_auth_conn_closed(srv_conn_t *c);

/* srv_auth_delay.c: failed-login throttling per address (--auth-fail-delay-ms).
 * delay_ms: how long a new attempt from addr must still wait (0: none). */
int srv_auth_delay_ms(const char *addr);
void srv_auth_delay_failed(const srv_config_t *cfg, const char *addr);
void srv_auth_delay_succeeded(const char *addr);

/* srv_role_conns.c: sessions per catalog role (CONNECTION LIMIT). take: false when the
 * role already has `limit` sessions (limit < 0: none), else counts one more. */
bool srv_role_conns_take(cat_id_t role, int32_t limit);
void srv_role_conns_release(cat_id_t role);
/* Calls fn for each role with sessions (under the table's lock: fn must not call back). */
void srv_role_conns_visit(void (*fn)(void *arg, cat_id_t role, int n), void *arg);

/* srv_exec.c: one function per frontend message once the connection is READY. */
void srv_exec_message(srv_conn_t *c, const srv_frame_t *f);
void srv_exec_conn_free(srv_conn_t *c);

/* srv_listen.c: a stopping loop finishes once its last connection is gone. */
void srv_loop_conn_gone(srv_loop_t *lp);
/* A connection whose statement ended goes on: true if the loop is stopping and it got its 57P01. */
bool srv_loop_conn_resumed(srv_conn_t *c);

/* srv_conn.c: a Query or extended-protocol group ended (ReadyForQuery): logged if it was slow. */
void srv_conn_stmt_end(srv_conn_t *c);

/* srv_notify.c: a state line ("READY=1") for the service manager, if one listens. */
void srv_notify(const char *state);

/* srv_stmt.c: statements and portals (see there). */
void srv_cols_build(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out);
void srv_cols_put_row_description(cm_buf_t *out, const srv_cols_t *cols, const int16_t *formats);
srv_stmt_t *srv_stmt_new(srv_conn_t *c);
/* After the plan is set: builds what running it again needs. */
void srv_stmt_ready(srv_conn_t *c, srv_stmt_t *st);
/* srv_revalidate.c: binds a statement again if the catalog moved since it was bound (PostgreSQL's
 * plan cache revalidation): false with 42P01 etc., or 0A000 when its result type would change. */
bool srv_stmt_revalidate(srv_conn_t *c, srv_stmt_t *st, cm_err_t *err);
void srv_stmt_release(srv_conn_t *c, srv_stmt_t *st);
srv_stmt_t *srv_stmt_find(srv_conn_t *c, const char *name);
void srv_stmt_drop(srv_conn_t *c, const char *name);
/* The statement's RowDescription for these result formats (NULL: all text), cached. */
void srv_stmt_put_row_description(srv_stmt_t *st, cm_buf_t *out, const int16_t *formats);
void srv_stmt_free_all(srv_conn_t *c);
srv_portal_t *srv_portal_new(srv_conn_t *c);
void srv_portal_free(srv_conn_t *c, srv_portal_t *p);
srv_portal_t *srv_portal_find(srv_conn_t *c, const char *name);
void srv_portal_drop(srv_conn_t *c, const char *name);
/* At the end of a transaction: every portal but the one running. */
void srv_portal_drop_all(srv_conn_t *c);
void srv_portal_free_all(srv_conn_t *c);

/* srv_sqlprepare.c: PREPARE, EXECUTE and DEALLOCATE, in the namespace of protocol-level statements. */
bool srv_sqlprep_prepare(srv_conn_t *c, const pln_stmt_t *st, const char *sql, cm_err_t *err);
bool srv_sqlprep_deallocate(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err);
/* DEALLOCATE ALL and DISCARD ALL: every named statement, whichever way it was made. */
void srv_sqlprep_drop_all(srv_conn_t *c);
/* srv_cols_build of an EXECUTE: the columns of the statement it names, as it is now. */
void srv_sqlprep_cols(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out);
/* Bind of a statement that is an EXECUTE: its columns follow the prepared statement's changes. */
void srv_sqlprep_bind(srv_conn_t *c, srv_stmt_t *st);
/* Describe of a statement that is an EXECUTE with columns: 26000 if what it names is gone. */
bool srv_sqlprep_describe(srv_conn_t *c, const srv_stmt_t *st, cm_err_t *err);
/*
 * EXECUTE: the prepared statement, with a reference the caller releases,
 * and its parameter values evaluated in ctx; NULL with ctx->err set. A
 * portal passes the columns it described, which the statement must still have.
 */
srv_stmt_t *srv_sqlprep_execute_begin(srv_conn_t *c, const pln_stmt_t *st, const char *sql,
                                      const srv_cols_t *described, ty_ctx_t *ctx, const ty_datum_t **params);

/* srv_prepstmts.c: the rows of pg_prepared_statements, and the plan counts they show. */
/* Marks a statement made now, by Parse or (from_sql) PREPARE, from the query string `source`. */
void srv_prepstmt_made(srv_stmt_t *st, const char *source, size_t len, bool from_sql);
/* A Bind or EXECUTE got a plan for it: counted as PostgreSQL's choose_custom_plan decides. */
void srv_prepstmt_planned(srv_stmt_t *st);
/* ty_ctx_t.session_rows; arg is the connection. */
bool srv_prepstmt_session_rows(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                               int *nrows, cm_err_t *err);

/* srv_paramref.c: the first $n outside literals, quoted names and comments
 * (its number and byte offset); false when the text has none. */
bool srv_paramref_first(const char *sql, size_t len, int *number, size_t *offset);

/* srv_catalog.c: the catalog store, each loop's snapshot, each connection's view of names. */
bool srv_catalog_start(srv_server_t *srv, cm_err_t *err);
void srv_catalog_stop(srv_server_t *srv);
void srv_catalog_loop_init(srv_loop_t *lp);
/* The loop's store handle is quiet while it has no connections and no DDL (after either changes). */
void srv_catalog_loop_quiet(srv_loop_t *lp);
/* Closes the store handle (its pending calls complete with errors) and ends every wait. */
void srv_catalog_loop_close(srv_loop_t *lp);
void srv_catalog_loop_free(srv_loop_t *lp);
/* The catalog a statement of this connection binds against (NULL: none). */
const pln_catalog_t *srv_catalog_for(srv_conn_t *c);
uint64_t srv_catalog_index(srv_conn_t *c);
/* The loop's own snapshot (not the session's transaction overlay). */
const cat_snap_t *srv_catalog_loop_snap(srv_conn_t *c);
void srv_catalog_conn_free(srv_conn_t *c);

/* srv_ddl.c: a DDL statement's way through the store, and the waits for this
 * loop's catalog that use the same machinery (see there). */
typedef enum srv_ddl_rc {
    SRV_DDL_DONE,    /* nothing to commit (IF [NOT] EXISTS): notices sent, the tag is the caller's */
    SRV_DDL_ERROR,   /* err is set */
    SRV_DDL_BUSY,    /* committing: done answers later */
} srv_ddl_rc_t;
/*
 * How a DDL that went BUSY ends: on the loop, exactly once, with the
 * connection READY again; err NULL (its notices are sent, tag is its
 * CommandComplete tag) or the error to answer. Not called when the
 * connection went away first.
 */
typedef void (*srv_ddl_done_cb)(srv_conn_t *c, cm_err_t *err, const char *tag);
srv_ddl_rc_t srv_ddl_run(srv_conn_t *c, const pln_stmt_t *st, const char *sql, srv_ddl_done_cb done, cm_err_t *err);
/* COMMIT of a transaction block with DDL: its statements as one catalog commit (tag COMMIT). Takes t. */
srv_ddl_rc_t srv_ddl_commit_txn(srv_conn_t *c, struct srv_txn *t, srv_ddl_done_cb done, cm_err_t *err);
void srv_ddl_loop_init(srv_loop_t *lp);
/* Ends the loop's operations; after srv_catalog_loop_close, whose store calls end some of them. */
void srv_ddl_loop_close(srv_loop_t *lp);
void srv_ddl_loop_free(srv_loop_t *lp);
void srv_ddl_conn_free(srv_conn_t *c);
/* True (the connection is now BUSY until its loop caught up) when this loop's
 * snapshot is behind a DDL some session was already told about. */
bool srv_ddl_hold(srv_conn_t *c);
/*
 * Cluster mode: a statement found a name missing at this loop's snapshot,
 * which may be behind DDL another process committed a moment ago. Reads
 * the store's head; when it is ahead, waits (the connection BUSY) until
 * this loop's snapshot and the workers reach it, at most
 * --name-recheck-timeout-ms. Returns false (nothing to wait for: not
 * cluster mode) or true, and then done(c) runs later on the loop, exactly
 * once, with the connection READY, unless the connection went away.
 */
typedef void (*srv_recheck_cb)(srv_conn_t *c);
bool srv_ddl_recheck(srv_conn_t *c, srv_recheck_cb done);

/* srv_txn.c: DDL inside an explicit transaction block. */
typedef struct srv_txn srv_txn_t;
/* Plans a DDL statement (at byte off of sql) against the session's overlay and keeps it for COMMIT. */
bool srv_txn_ddl(srv_conn_t *c, const pln_stmt_t *st, const char *sql, int off, cm_err_t *err);
/* The session's overlay, or NULL outside a block with DDL. */
const cat_snap_t *srv_txn_snap(const srv_conn_t *c);
/* Detaches the block's DDL for COMMIT (NULL if there is none). */
srv_txn_t *srv_txn_take(srv_conn_t *c);
void srv_txn_discard(srv_conn_t *c);
void srv_txn_free(srv_txn_t *t);
/* The block's statements planned again at `snap` (== head) into one commit. */
cat_commit_t *srv_txn_build(const srv_txn_t *t, srv_conn_t *c, const cat_snap_t *snap, const cat_head_t *head,
                            const uint8_t uuid[16], const cat_limits_t *limits, cm_err_t *err);

/* srv_zk_boot.c: cluster mode's start-up (see there). */
bool srv_zk_boot(srv_server_t *srv, cm_err_t *err);
/* Loads the start-up snapshot into a loop's snapshot. */
void srv_zk_boot_load(srv_server_t *srv, cat_snap_t *snap);
/* Stops the ZooKeeper thread (after the loops) and frees the snapshot. */
void srv_zk_boot_free(srv_server_t *srv);

/* srv_workers.c: the dataflow workers and the sequencer. */
bool srv_workers_start(srv_server_t *srv, cm_err_t *err);
void srv_workers_stop(srv_server_t *srv);

/* srv_sync.c: waiting for the workers. */
/* The lowest catalog index every worker has applied. */
uint64_t srv_sync_applied(srv_server_t *srv);
/* On worker 0's loop, when that index grew: the loops that wait look again. */
void srv_sync_progress(srv_server_t *srv);
void srv_sync_loop_init(srv_loop_t *lp);
/* Completes every wait with 57P01 and closes the loop's handles. */
void srv_sync_loop_close(srv_loop_t *lp);
void srv_sync_loop_free(srv_loop_t *lp);
/*
 * Waits on lp until every worker applied `index`: true when that is so
 * already (cb is not called); false, and cb(arg, err) runs later on the
 * loop exactly once: err NULL when applied, 57014 after timeout_ms, 57P01
 * when the loop closes.
 */
typedef void (*srv_sync_cb)(void *arg, const cm_err_t *err);
bool srv_sync_wait(srv_loop_t *lp, uint64_t index, int timeout_ms, srv_sync_cb cb, void *arg);
/* A DDL of this loop is on its way (a store call, or a wait above): the loop
 * polls instead of sleeping for --ddl-spin-us (srv_sync.c says why). */
void srv_sync_linger(srv_loop_t *lp);
/* True (the connection is BUSY until then) when the workers are behind the
 * session's catalog index or a DDL acknowledged to anyone. After
 * --ddl-apply-timeout-ms the statement is answered with 57014 (sync_err). */
bool srv_sync_hold(srv_conn_t *c);
void srv_sync_conn_free(srv_conn_t *c);

/* srv_internal.c: ty_ctx_t.session_rows for every session relation; arg is the connection. */
bool srv_sysrel_rows(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                     int *nrows, cm_err_t *err);

/* srv_internal_engine.c: the rows of eddy_internal's relations about the engine (dataflow_operators,
 * arrangements, arrangement_sharing, frontiers) in arena; *found false for any other relation. */
bool srv_engine_rows(df_workers_t *ws, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                     int *nrows, bool *found, cm_err_t *err);

/* srv_startup.c */
void srv_startup_packet(srv_conn_t *c, const srv_frame_t *f);
void srv_startup_finish(srv_conn_t *c);

#endif
