/*
 * planner.h: the public header of the planner module (prefix pln_).
 *
 * Turns SQL text into typed, self-contained statements: it parses (through
 * parser/), binds names and types, infers parameter types and, for queries
 * that read no relation, builds rows of typed expressions that the server can
 * evaluate at once without touching the workers (DESIGN §2, "constant
 * queries"). Later issues add relational plans for the dataflow workers.
 */
#ifndef EDDY_PLANNER_H
#define EDDY_PLANNER_H

#include "catalog/catalog.h"
#include "common/common.h"
#include "plan/plan.h"
#include "types/types.h"

typedef enum pln_kind {
    PLN_EMPTY,            /* only whitespace/comments: EmptyQueryResponse */
    PLN_QUERY,            /* SELECT / VALUES: returns rows */
    PLN_SET,              /* SET [SESSION|LOCAL] name {TO|=} value[, ...] | DEFAULT; SET TIME ZONE ... */
    PLN_RESET,            /* RESET name | RESET ALL (var_name NULL) */
    PLN_SHOW,             /* SHOW name | SHOW ALL (var_name "all") */
    PLN_BEGIN,            /* BEGIN / START TRANSACTION [modes] */
    PLN_COMMIT,           /* COMMIT / END */
    PLN_ROLLBACK,         /* ROLLBACK / ABORT */
    PLN_SET_TRANSACTION,  /* SET [SESSION CHARACTERISTICS AS] TRANSACTION ... */
    PLN_DISCARD,          /* DISCARD ALL | PLANS | SEQUENCES | TEMP */
    PLN_PREPARE,          /* PREPARE name [(types)] AS statement: bound when it runs (pln_prepare_bind) */
    PLN_EXECUTE,          /* EXECUTE name [(args)]: arguments evaluated when it runs (pln_execute_params) */
    PLN_DEALLOCATE,       /* DEALLOCATE [PREPARE] name | ALL (prep_name NULL) */
    PLN_DDL,              /* CREATE / DROP / ALTER of catalog objects: planned into a change by pln_ddl_plan */
    PLN_WRITE,            /* INSERT / UPDATE / DELETE / COPY FROM STDIN / TRUNCATE: write (plan.h's plan_write_t) */
    PLN_DECLARE,          /* DECLARE c CURSOR FOR SUBSCRIBE ...: the subscription, held by the session */
    PLN_FETCH,            /* FETCH [n | ALL] c [WITH (timeout = ...)]: rows of the cursor, columns its own */
    PLN_CLOSE,            /* CLOSE c | CLOSE ALL (cursor_name NULL) */
} pln_kind_t;

/* One parsed statement, before binding: opaque to callers. */
typedef struct pln_raw pln_raw_t;

typedef struct pln_raw_list {
    int count;
    pln_raw_t **items;
} pln_raw_list_t;

/* What SUBSCRIBE follows and how its changes are read (pln_subscribe.c). */
typedef enum pln_subscribe_kind {
    PLN_SUBSCRIBE_VIEW = 1,       /* a materialized view: its result's changes */
    PLN_SUBSCRIBE_TABLE,          /* a table: its writes */
    PLN_SUBSCRIBE_QUERY,          /* a query or plain view: the statement's query, maintained for it */
} pln_subscribe_kind_t;

typedef struct pln_subscribe {
    pln_subscribe_kind_t kind;
    uint64_t object;              /* the view's or table's catalog ID (a query: 0) */
    bool snapshot;                /* its current rows first */
    bool progress;                /* WITH (PROGRESS): mz_progressed, and a row each time the frontier moves */
    bool finite;                  /* a query reading no relation: it ends once its rows are out */
    int ncols;                    /* the rows' columns, after mz_timestamp, [mz_progressed,] mz_diff */
    ty_oid_t *types;
} pln_subscribe_t;

/*
 * A bound statement. Everything lives in the arena it was planned in, so a
 * prepared statement keeps its arena for as long as it lives.
 */
typedef struct pln_stmt {
    pln_kind_t kind;
    const char *tag;              /* CommandComplete tag: "SELECT", "SET", "BEGIN", ... */
    int ncols;                    /* result columns; 0 for commands */
    plan_column_t *cols;
    int nparams;                  /* $1..$n, with types declared or inferred */
    ty_oid_t *param_types;
    bool blocking;                /* contains a call that may sleep (pg_sleep): run off the loop */

    /* PLN_QUERY: a small executor over constant rows (see planner/pln_exec.c). */
    plan_t *query;
    /* PLN_QUERY of COPY ... TO STDOUT: the rows go out as COPY data in this format (tag "COPY"). */
    const plan_copy_t *copy_to;
    /* PLN_QUERY of SUBSCRIBE: the server streams the view's changes instead of running query. */
    const pln_subscribe_t *subscribe;

    /* PLN_SET / PLN_RESET / PLN_SHOW */
    const char *var_name;         /* lower-case; NULL for RESET ALL */
    const char *var_value;        /* SET: the value as text, list items joined with ", "; NULL = DEFAULT */
    bool set_local;

    /*
     * An error PostgreSQL raises while planning rather than analysing (a
     * constant expression that fails when folded, e.g. 1/0), kept by
     * pln_bind_prepare so that Parse succeeds and Bind reports it, as in
     * PostgreSQL. NULL when the statement planned cleanly.
     */
    const plan_error_t *plan_error;

    /* PLN_BEGIN / PLN_SET_TRANSACTION: accepted modes (informational) */
    const char *isolation;        /* "read committed", "serializable", ...; NULL if not given */
    bool read_only;

    /*
     * PLN_PREPARE / PLN_EXECUTE / PLN_DEALLOCATE: the prepared statement's
     * name (NULL: DEALLOCATE ALL) and the statement's syntax, which the
     * functions below read when it runs: PostgreSQL analyses the statement
     * a PREPARE names, and EXECUTE's arguments, only then.
     */
    const char *prep_name;
    const struct sql_stmt *prep_src;

    /*
     * PLN_WRITE: the bound write. tag is PostgreSQL's command tag without
     * its count ("INSERT", "UPDATE", "DELETE", "COPY", "TRUNCATE TABLE";
     * CommandComplete says "INSERT 0 n", "UPDATE n", ...); ncols and cols
     * are RETURNING's columns (0: no rows, Describe answers NoData).
     */
    plan_write_t *write;

    /*
     * PLN_DECLARE / PLN_FETCH / PLN_CLOSE (pln_cursor.c): the cursor's name
     * (CLOSE ALL: NULL). DECLARE's SUBSCRIBE is bound as that statement is
     * (subscribe, query), its rows' columns in cursor_cols (the statement
     * itself returns none). FETCH's row count (-1: ALL) and its timeout in
     * milliseconds (-1: none, it waits for a row).
     */
    const char *cursor_name;
    int ncursor_cols;
    plan_column_t *cursor_cols;
    int64_t fetch_count;
    int64_t fetch_timeout_ms;

    /* PLN_DDL: the statement, planned against the catalog only when it runs (pln_ddl_plan). */
    const struct pln_ddl *ddl;
    /* The catalog index the statement was bound at; 0 when binding read no catalog. */
    uint64_t catalog_index;
    /* Prepared (Parse, PREPARE): the privileges it needs on each relation, checked when it runs. */
    const struct pln_perm *perms;
    int nperms;
} pln_stmt_t;

/*
 * Splits and parses a whole query string. On a syntax error nothing of the
 * string runs (as in PostgreSQL): err gets 42601 with a 1-based character
 * position into sql.
 */
bool pln_parse(cm_arena_t *arena, const char *sql, size_t len, pln_raw_list_t *out, cm_err_t *err);

/* Byte range of a raw statement in the original text (for logging). */
void pln_raw_span(const pln_raw_t *raw, int *offset, int *length);

/*
 * Binds one raw statement. `declared` gives parameter types from Parse
 * (0 = infer); `ndeclared` may be less than the number used. Unsupported
 * statements fail with 0A000; name and type errors carry positions.
 */
bool pln_bind(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
              int ndeclared, pln_stmt_t **out, cm_err_t *err);

/*
 * pln_bind with the session's settings: literals whose input reads
 * DateStyle, TimeZone or IntervalStyle (date '...', '...'::timestamptz) are
 * then converted at bind time as PostgreSQL does at parse time; pln_bind
 * leaves those to pln_query_run. Everything else constant is folded by both.
 */
bool pln_bind_session(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, pln_stmt_t **out, cm_err_t *err);

/*
 * pln_bind_session for the extended protocol's Parse: an error raised while
 * folding constants does not fail the call but is kept in stmt->plan_error
 * for the caller to raise at Bind (pln_plan_error_raise).
 */
bool pln_bind_prepare(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, pln_stmt_t **out, cm_err_t *err);

/*
 * The catalog a statement binds against: a snapshot (owned by the caller's
 * thread, stable during the call) and the session's view of names. Without
 * one, every relation name is missing (42P01) and SHOW of objects fails.
 */
typedef struct pln_catalog {
    const cat_snap_t *snap;
    cat_search_t search;
} pln_catalog_t;

/*
 * ty_ctx_t.catalog_fn over a catalog; arg is a pln_catalog_t that outlives
 * the statement (pln_catfn.c).
 */
bool pln_catalog_fn(void *arg, int fn, const ty_datum_t *args, int nargs, ty_ctx_t *ctx, ty_datum_t *out);

/*
 * pln_bind_session (defer_plan_errors false) or pln_bind_prepare (true)
 * with a catalog: FROM names resolve to tables, views and sources (reading
 * one is 0A000 until the dataflow engine exists, raised at Bind when
 * deferred), SHOW of objects reads the snapshot, and DDL becomes PLN_DDL.
 */
bool pln_bind_catalog(cm_arena_t *arena, const pln_raw_t *raw, const char *sql, const ty_oid_t *declared,
                      int ndeclared, const ty_settings_t *settings, const pln_catalog_t *cat,
                      bool defer_plan_errors, pln_stmt_t **out, cm_err_t *err);

/*
 * The query of a view or materialized view, bound as pln_bind_catalog binds
 * a query (against cat, with settings; defer_plan_errors keeps planning
 * errors, and the 0A000 of reading a relation, in the statement): the
 * SELECT of its stored create_sql (every relation qualified), its columns
 * renamed by the names the view declares as SELECT * FROM (query) AS
 * v(names) renames them. This is the plan a dataflow of the view runs and
 * what EXPLAIN VIEW prints; error positions count in that query's text.
 */
bool pln_bind_view(cm_arena_t *arena, const pln_catalog_t *cat, const cat_item_t *view, const ty_settings_t *settings,
                   bool defer_plan_errors, pln_stmt_t **out, cm_err_t *err);

/*
 * Validates a PLN_DDL statement against the catalog and appends its effect
 * (ops and notices) to `out`, as PostgreSQL words its errors. Called again
 * with a newer snapshot when a commit lost a race. Scratch goes to arena.
 */
bool pln_ddl_plan(cm_arena_t *arena, const pln_stmt_t *st, const char *sql, const ty_settings_t *settings,
                  const pln_catalog_t *cat, cat_change_t *out, cm_err_t *err);

/* Copies a kept planning error into err; returns false like cm_err_set. */
bool pln_plan_error_raise(const pln_stmt_t *stmt, cm_err_t *err);
/* A prepared statement's privileges (ExecCheckRTPerms), checked as cat's current user each time
 * it runs (Bind, EXECUTE): 42501 "permission denied for table t". */
bool pln_check_privileges(const pln_stmt_t *stmt, const pln_catalog_t *cat, cm_err_t *err);

/*
 * Runs the analysis half of a PLN_PREPARE `prepare` bound from `sql`: its
 * text is copied into `arena` and the statement it names is parsed and
 * bound there (declared parameter types from its list, the others
 * inferred; folding errors kept as pln_bind_prepare keeps them), so that
 * what *out and *text hold lives as long as the arena. Names resolve in
 * `cat` (NULL: none), as Parse's do. Error positions count in `sql`, as
 * PostgreSQL's do.
 */
bool pln_prepare_bind(cm_arena_t *arena, const pln_stmt_t *prepare, const char *sql, const ty_settings_t *settings,
                      const pln_catalog_t *cat, pln_stmt_t **out, const char **text, size_t *text_len, cm_err_t *err);
/* The byte offset of a PLN_PREPARE's own text in the query string it was bound from. */
int pln_prepare_offset(const pln_stmt_t *prepare);

/*
 * The parameter values of a PLN_EXECUTE `execute` bound from `sql`, as
 * PostgreSQL's EvaluateParams computes them for a prepared statement with
 * parameters of `types`: their number must match (42601), each is bound
 * (no columns, $n, subqueries or aggregates), coerced by assignment rules
 * (42804) and evaluated in ctx. *out gets ntypes values in ctx->arena.
 * PostgreSQL 15 skips all of this for a statement without parameters, so
 * arguments given to one are ignored.
 */
bool pln_execute_params(const pln_stmt_t *execute, const char *sql, const ty_oid_t *types, int ntypes,
                        ty_ctx_t *ctx, ty_datum_t **out);

/*
 * Session relations: relations of pg_catalog whose rows the session holds,
 * not the catalog. A query that reads one asks ty_ctx_t.session_rows for
 * them by name each time it runs, as PostgreSQL's views over set-returning
 * functions read session state when executed, not when planned. The rows
 * have the columns PostgreSQL 15 gives the view, in this order:
 *   pg_prepared_statements: name text, statement text, prepare_time
 *   timestamptz, parameter_types regtype[], from_sql bool, generic_plans
 *   int8, custom_plans int8.
 */
#define PLN_PREPARED_STATEMENTS "pg_prepared_statements"

/*
 * pg_settings: the session's parameters as SHOW ALL lists them, with PostgreSQL
 * 15's columns: name, setting, unit, category, short_desc, extra_desc, context,
 * vartype, source, min_val, max_val text, enumvals text[], boot_val, reset_val,
 * sourcefile text, sourceline int4, pending_restart bool. category and
 * extra_desc are NULL (eddy does not group its parameters), context is
 * internal for read-only ones and user for the rest, and there is no
 * configuration file. pgJDBC reads max_index_keys from it.
 */
#define PLN_SETTINGS "pg_settings"

/*
 * pg_stat_ssl: one row per client session of the process, PostgreSQL 15's
 * columns: pid int4, ssl bool, version text, cipher text, bits int4,
 * client_dn text, client_serial numeric, issuer_dn text (NULL where there
 * is no TLS or no client certificate).
 */
#define PLN_STAT_SSL "pg_stat_ssl"

/*
 * The session relations of eddy_internal: the sequencer and the workers as
 * they are when the query runs (found when qualified, or through a
 * search_path that lists eddy_internal):
 *   commands: seq int8, epoch int8, catalog_index int8, kind text,
 *     statement text, object_id int8, object_name text, sequenced_at timestamptz
 *   workers: worker int4, epoch int8, applied_seq int8, applied_index int8,
 *     dataflows int8, duplicates int8, refused int8
 *   worker_commands: worker int4, seq int8, epoch int8, catalog_index int8,
 *     kind text, object_id int8
 *   dataflows: worker int4, id int8, name text, catalog_index int8, plan_bytes int4,
 *     operators int4 (of the plan the worker decoded; NULL: no plan)
 */
/*
 * eddy_catalog.constraints: every table's PRIMARY KEY, UNIQUE and CHECK
 * constraints (pln_constraint.c), which the catalog keeps only in the
 * CREATE TABLE text, so the planner reads them: relation_id int8, position
 * int4, name text, type "char", keys int2[], definition text, oid oid,
 * index_oid oid. pln_constraint_rows gives its rows at a snapshot.
 */
#define PLN_CATALOG_CONSTRAINTS "eddy_catalog.constraints"
bool pln_constraint_rows(const cat_snap_t *s, int ncols, cm_arena_t *arena, ty_datum_t ***rows, int *nrows,
                         cm_err_t *err);

#define PLN_INTERNAL_COMMANDS "eddy_internal.commands"
#define PLN_INTERNAL_WORKERS "eddy_internal.workers"
#define PLN_INTERNAL_WORKER_COMMANDS "eddy_internal.worker_commands"
#define PLN_INTERNAL_DATAFLOWS "eddy_internal.dataflows"
#define PLN_INTERNAL_CLUSTER "eddy_internal.cluster"
/* The engine (dataflow/df_introspect.c): each materialized view's operators, the arrangements
 * they keep per worker, which operators read each arrangement, each worker's frontier. */
#define PLN_INTERNAL_OPERATORS "eddy_internal.dataflow_operators"
#define PLN_INTERNAL_ARRANGEMENTS "eddy_internal.arrangements"
#define PLN_INTERNAL_SHARING "eddy_internal.arrangement_sharing"
#define PLN_INTERNAL_FRONTIERS "eddy_internal.frontiers"
/* Sessions per catalog role, as CONNECTION LIMIT counts them: role_id int8, sessions int8. */
#define PLN_INTERNAL_ROLE_SESSIONS "eddy_internal.role_sessions"
/* The figures /metrics shows (server/srv_metrics.c): name text, labels text (Prometheus'
 * k="v",... syntax; '' for none), value float8. */
#define PLN_INTERNAL_METRICS "eddy_internal.metrics"

/*
 * CREATE TABLE AS of a constant query runs it to learn whether it yields a
 * row (tables hold no rows before the dataflow engine). The planner does not
 * run plans itself: the server installs the executor's entry point here
 * (exec.h's ex_run has this shape). Without one, such a query is refused as
 * if it yielded a row.
 */
typedef bool (*pln_row_cb)(void *arg, const ty_datum_t *row, int ncols);
typedef bool (*pln_runner_fn)(const plan_t *p, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx,
                              pln_row_cb cb, void *arg);
void pln_set_runner(pln_runner_fn run);

/*
 * EXPLAIN PHYSICAL PLAN asks the dataflow engine which operators it would
 * build for a plan and which arrangements they would keep; the planner may
 * not include dataflow/, so the server installs an adapter over
 * df_plan_operators here (srv_physical_operators, server.h). Operators come
 * in build order (inputs first, the last one writes the result). Without an
 * adapter EXPLAIN PHYSICAL PLAN of a dataflow is refused.
 */
#define PLN_PHYSICAL_ARRANGED_MAX 4
typedef struct pln_physical_op {
    int id;
    const char *kind, *detail;    /* "Reduce", "recomputing group_by=1 aggregates=2"; detail may be NULL */
    uint64_t reads;               /* a Get: the catalog item whose arrangement it reads; else 0 */
    int inputs[2], ninputs;
    const char *arranged[PLN_PHYSICAL_ARRANGED_MAX];   /* the arrangements it keeps ("join left", ...) */
    int narranged;
} pln_physical_op_t;
typedef bool (*pln_physical_fn)(const plan_t *p, cm_arena_t *arena, pln_physical_op_t **ops, int *nops,
                                cm_err_t *err);
void pln_set_physical(pln_physical_fn fn);

/* A password in CREATE / ALTER ROLE becomes a SCRAM-SHA-256 verifier through
 * this hasher, which the server installs (malloc'd result; NULL on failure). */
typedef char *(*pln_password_hasher_fn)(const char *password);
void pln_set_password_hasher(pln_password_hasher_fn fn);
/* ALTER ROLE r SET name = value checks the parameter and value (value NULL:
 * RESET) through this checker, which the server installs from its settings
 * table; it gives the parameter's canonical spelling in *name. */
typedef bool (*pln_setting_check_fn)(const char **name, const char *value, cm_err_t *err);
void pln_set_setting_checker(pln_setting_check_fn fn);

/*
 * A PLN_QUERY statement over a plan decoded from bytes (plan_decode), for a
 * session to describe and run (ex_run of st->query): its columns,
 * parameters, catalog index, kept error and blocking flag are the plan's,
 * its tag "SELECT". The plan module does not know the session relations, so
 * their reads are checked here against the ones the planner binds (name,
 * width and column types): XX001, as for a corrupt plan.
 */
bool pln_stmt_of_plan(cm_arena_t *arena, plan_t *plan, pln_stmt_t **out, cm_err_t *err);

/*
 * CREATE TABLE AS (and SELECT INTO) with its rows, for a caller that copies
 * them outside a transaction block: false when st is not one (another
 * statement, or WITH NO DATA). Otherwise, when arena is not NULL: *create is
 * the same statement WITH NO DATA (tag "CREATE TABLE AS"), to commit first;
 * *insert an INSERT INTO the table of the query, to bind (pln_bind_catalog,
 * against the snapshot that holds the table) and run once it exists, whose
 * nodes keep their positions in the original text, so errors point there;
 * *table the table's name as written, quoted, for a DROP that undoes it.
 */
bool pln_ctas_split(cm_arena_t *arena, const pln_stmt_t *st, pln_stmt_t **create, pln_raw_t **insert,
                    const char **table);

/*
 * A table's definition for the workers: a plan whose root is one GET of the
 * table with its columns (item_cols) and key columns (item_keys: its
 * PRIMARY KEY, else its first UNIQUE key; none: the whole row is the key).
 */
bool pln_plan_table(cm_arena_t *arena, const cat_item_t *table, plan_t **out, cm_err_t *err);

#endif
