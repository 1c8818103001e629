/*
 * cat_builtin_session.c: the built-in relations whose rows are not the
 * catalog's but the process's when a query reads them: eddy_internal's
 * (the sequencer, the workers and their engine, the cluster, /metrics;
 * server/srv_internal*.c answers them) and eddy_catalog.constraints (the
 * planner reads keys and CHECKs back from CREATE TABLE text). The catalog
 * describes them as tables of their schemas, so that, like PostgreSQL's
 * system relations, they are found by name and listed by pg_class,
 * pg_attribute, information_schema, psql's \d and SHOW; the binder turns a
 * read of one into a session relation named schema.name (planner.h), and
 * cat_builtin_rows has no rows for them. Every column may be NULL.
 */
#include "catalog/cat_int.h"

#define COLN(n, t) {.name = n, .type = t, .typmod = -1}

static const cat_column_t cols_commands[] = {
    COLN("seq", TY_INT8),
    COLN("epoch", TY_INT8),
    COLN("catalog_index", TY_INT8),
    COLN("kind", TY_TEXT),
    COLN("statement", TY_TEXT),
    COLN("object_id", TY_INT8),
    COLN("object_name", TY_TEXT),
    COLN("sequenced_at", TY_TIMESTAMPTZ),
};

static const cat_column_t cols_workers[] = {
    COLN("worker", TY_INT4),
    COLN("epoch", TY_INT8),
    COLN("applied_seq", TY_INT8),
    COLN("applied_index", TY_INT8),
    COLN("dataflows", TY_INT8),
    COLN("duplicates", TY_INT8),
    COLN("refused", TY_INT8),
    COLN("peek_rows", TY_INT8),
};

static const cat_column_t cols_worker_commands[] = {
    COLN("worker", TY_INT4),
    COLN("seq", TY_INT8),
    COLN("epoch", TY_INT8),
    COLN("catalog_index", TY_INT8),
    COLN("kind", TY_TEXT),
    COLN("object_id", TY_INT8),
};

static const cat_column_t cols_dataflows[] = {
    COLN("worker", TY_INT4),
    COLN("id", TY_INT8),
    COLN("name", TY_TEXT),
    COLN("catalog_index", TY_INT8),
    COLN("plan_bytes", TY_INT4),
    COLN("operators", TY_INT4),
};

/* One row per operator of a materialized view's dataflow; workers: how many built it. */
static const cat_column_t cols_operators[] = {
    COLN("dataflow_id", TY_INT8),
    COLN("dataflow", TY_TEXT),
    COLN("operator_id", TY_INT4),
    COLN("kind", TY_TEXT),
    COLN("detail", TY_TEXT),
    COLN("inputs", TY_INT4_ARRAY),
    COLN("workers", TY_INT4),
};

/* One row per arrangement and worker: a table's rows, a view's result, an operator's state. */
static const cat_column_t cols_arrangements[] = {
    COLN("worker", TY_INT4),
    COLN("dataflow_id", TY_INT8),
    COLN("dataflow", TY_TEXT),
    COLN("operator_id", TY_INT4),
    COLN("arrangement", TY_TEXT),
    COLN("records", TY_INT8),
    COLN("batches", TY_INT8),
    COLN("bytes", TY_INT8),
    COLN("sharing", TY_INT4),
};

/* Which operators use each arrangement: the one keeping it, and the Gets of views reading it. */
static const cat_column_t cols_sharing[] = {
    COLN("dataflow_id", TY_INT8),
    COLN("operator_id", TY_INT4),
    COLN("arrangement", TY_TEXT),
    COLN("reader_dataflow_id", TY_INT8),
    COLN("reader_dataflow", TY_TEXT),
    COLN("reader_operator_id", TY_INT4),
};

/* Per worker, the last step complete on it and the catalog index it applied. */
static const cat_column_t cols_frontiers[] = {
    COLN("worker", TY_INT4),
    COLN("epoch", TY_INT8),
    COLN("frontier", TY_INT8),
    COLN("catalog_index", TY_INT8),
};

/* This process's cluster: role owner, standby, starting (cluster mode) or local (laptop). */
static const cat_column_t cols_cluster[] = {
    COLN("name", TY_TEXT),
    COLN("role", TY_TEXT),
    COLN("epoch", TY_INT8),
    COLN("applied_index", TY_INT8),
    COLN("published_index", TY_INT8),
};

/* One row per sample of /metrics, histogram buckets included. */
static const cat_column_t cols_metrics[] = {
    COLN("name", TY_TEXT),
    COLN("labels", TY_TEXT),
    COLN("value", TY_FLOAT8),
};

/* The sessions each role has open on this process (CONNECTION LIMIT's count). */
static const cat_column_t cols_role_sessions[] = {
    COLN("role_id", TY_INT8),
    COLN("sessions", TY_INT8),
};

static const cat_column_t cols_constraints[] = {
    COLN("relation_id", TY_INT8),
    COLN("position", TY_INT4),
    COLN("name", TY_TEXT),
    COLN("type", TY_CHAR),
    COLN("keys", TY_INT2_ARRAY),
    COLN("definition", TY_TEXT),
    COLN("oid", TY_OID),
    COLN("index_oid", TY_OID),
};

#define REL(schema, name, cols) {name, cols, CM_ARRAY_LEN(cols), schema, true}

/* Appended after eddy_catalog's own relations: their IDs and OIDs follow, and never change. */
const cat_builtin_t cat__session_builtins[] = {
    REL("eddy_catalog", "constraints", cols_constraints),
    REL("eddy_internal", "commands", cols_commands),
    REL("eddy_internal", "workers", cols_workers),
    REL("eddy_internal", "worker_commands", cols_worker_commands),
    REL("eddy_internal", "dataflows", cols_dataflows),
    REL("eddy_internal", "cluster", cols_cluster),
    REL("eddy_internal", "metrics", cols_metrics),
    REL("eddy_internal", "dataflow_operators", cols_operators),
    REL("eddy_internal", "arrangements", cols_arrangements),
    REL("eddy_internal", "arrangement_sharing", cols_sharing),
    REL("eddy_internal", "frontiers", cols_frontiers),
    REL("eddy_internal", "role_sessions", cols_role_sessions),
};

const size_t cat__nsession_builtins = CM_ARRAY_LEN(cat__session_builtins);
