/*
 * pln_sysrel.c: the session relations (planner.h): pg_catalog's, with their
 * columns as PostgreSQL 15 declares the views, and eddy_internal's, which
 * show the sequencer and the workers; and which FROM names mean them. They
 * are not catalog items because their rows are the process's state when
 * the query runs, not the catalog's. The name lookup follows PostgreSQL's
 * rules: pg_catalog is searched first unless search_path lists it; any
 * other schema only where the path lists it; a relation of the same name
 * in a schema listed earlier wins.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define COL(n, t) {.name = n, .type = t, .typmod = -1}

static const cat_column_t cols_prepared_statements[] = {
    COL("name", TY_TEXT),
    COL("statement", TY_TEXT),
    COL("prepare_time", TY_TIMESTAMPTZ),
    COL("parameter_types", TY_REGTYPE_ARRAY),
    COL("from_sql", TY_BOOL),
    COL("generic_plans", TY_INT8),
    COL("custom_plans", TY_INT8),
};

static const cat_column_t cols_commands[] = {
    COL("seq", TY_INT8),
    COL("epoch", TY_INT8),
    COL("catalog_index", TY_INT8),
    COL("kind", TY_TEXT),
    COL("statement", TY_TEXT),
    COL("object_id", TY_INT8),
    COL("object_name", TY_TEXT),
    COL("sequenced_at", TY_TIMESTAMPTZ),
};

static const cat_column_t cols_workers[] = {
    COL("worker", TY_INT4),
    COL("epoch", TY_INT8),
    COL("applied_seq", TY_INT8),
    COL("applied_index", TY_INT8),
    COL("dataflows", TY_INT8),
    COL("duplicates", TY_INT8),
    COL("refused", TY_INT8),
    COL("peek_rows", TY_INT8),
};

static const cat_column_t cols_worker_commands[] = {
    COL("worker", TY_INT4),
    COL("seq", TY_INT8),
    COL("epoch", TY_INT8),
    COL("catalog_index", TY_INT8),
    COL("kind", TY_TEXT),
    COL("object_id", TY_INT8),
};

static const cat_column_t cols_dataflows[] = {
    COL("worker", TY_INT4),
    COL("id", TY_INT8),
    COL("name", TY_TEXT),
    COL("catalog_index", TY_INT8),
    COL("plan_bytes", TY_INT4),
    COL("operators", TY_INT4),
};

/* One row per operator of a materialized view's dataflow; workers: how many built it. */
static const cat_column_t cols_operators[] = {
    COL("dataflow_id", TY_INT8),
    COL("dataflow", TY_TEXT),
    COL("operator_id", TY_INT4),
    COL("kind", TY_TEXT),
    COL("detail", TY_TEXT),
    COL("inputs", TY_INT4_ARRAY),
    COL("workers", TY_INT4),
};

/* One row per arrangement and worker: a table's rows, a view's result, an operator's state. */
static const cat_column_t cols_arrangements[] = {
    COL("worker", TY_INT4),
    COL("dataflow_id", TY_INT8),
    COL("dataflow", TY_TEXT),
    COL("operator_id", TY_INT4),
    COL("arrangement", TY_TEXT),
    COL("records", TY_INT8),
    COL("batches", TY_INT8),
    COL("bytes", TY_INT8),
    COL("sharing", TY_INT4),
};

/* Which operators use each arrangement: the one keeping it, and the Gets of views reading it. */
static const cat_column_t cols_sharing[] = {
    COL("dataflow_id", TY_INT8),
    COL("operator_id", TY_INT4),
    COL("arrangement", TY_TEXT),
    COL("reader_dataflow_id", TY_INT8),
    COL("reader_dataflow", TY_TEXT),
    COL("reader_operator_id", TY_INT4),
};

/* Per worker, the last step complete on it and the catalog index it applied. */
static const cat_column_t cols_frontiers[] = {
    COL("worker", TY_INT4),
    COL("epoch", TY_INT8),
    COL("frontier", TY_INT8),
    COL("catalog_index", TY_INT8),
};

/* This process's cluster: role owner, standby, starting (cluster mode) or local (laptop). */
static const cat_column_t cols_cluster[] = {
    COL("name", TY_TEXT),
    COL("role", TY_TEXT),
    COL("epoch", TY_INT8),
    COL("applied_index", TY_INT8),
    COL("published_index", TY_INT8),
};

/* One row per sample of /metrics, histogram buckets included. */
static const cat_column_t cols_metrics[] = {
    COL("name", TY_TEXT),
    COL("labels", TY_TEXT),
    COL("value", TY_FLOAT8),
};

static const cat_column_t cols_constraints[] = {
    COL("relation_id", TY_INT8),
    COL("position", TY_INT4),
    COL("name", TY_TEXT),
    COL("type", TY_CHAR),
    COL("keys", TY_INT2_ARRAY),
    COL("definition", TY_TEXT),
    COL("oid", TY_OID),
    COL("index_oid", TY_OID),
};

static const cat_column_t cols_stat_ssl[] = {
    COL("pid", TY_INT4),
    COL("ssl", TY_BOOL),
    COL("version", TY_TEXT),
    COL("cipher", TY_TEXT),
    COL("bits", TY_INT4),
    COL("client_dn", TY_TEXT),
    COL("client_serial", TY_NUMERIC),
    COL("issuer_dn", TY_TEXT),
};

static const cat_column_t cols_settings[] = {
    COL("name", TY_TEXT),
    COL("setting", TY_TEXT),
    COL("unit", TY_TEXT),
    COL("category", TY_TEXT),
    COL("short_desc", TY_TEXT),
    COL("extra_desc", TY_TEXT),
    COL("context", TY_TEXT),
    COL("vartype", TY_TEXT),
    COL("source", TY_TEXT),
    COL("min_val", TY_TEXT),
    COL("max_val", TY_TEXT),
    COL("enumvals", TY_TEXT_ARRAY),
    COL("boot_val", TY_TEXT),
    COL("reset_val", TY_TEXT),
    COL("sourcefile", TY_TEXT),
    COL("sourceline", TY_INT4),
    COL("pending_restart", TY_BOOL),
};

#define REL(schema, name, session, cols) {schema, name, session, cols, CM_ARRAY_LEN(cols)}

static const pln_sysrel_t sysrels[] = {
    REL("pg_catalog", "pg_prepared_statements", PLN_PREPARED_STATEMENTS, cols_prepared_statements),
    REL("pg_catalog", "pg_settings", PLN_SETTINGS, cols_settings),
    REL("pg_catalog", "pg_stat_ssl", PLN_STAT_SSL, cols_stat_ssl),
    REL("eddy_internal", "commands", PLN_INTERNAL_COMMANDS, cols_commands),
    REL("eddy_internal", "workers", PLN_INTERNAL_WORKERS, cols_workers),
    REL("eddy_internal", "worker_commands", PLN_INTERNAL_WORKER_COMMANDS, cols_worker_commands),
    REL("eddy_internal", "dataflows", PLN_INTERNAL_DATAFLOWS, cols_dataflows),
    REL("eddy_internal", "cluster", PLN_INTERNAL_CLUSTER, cols_cluster),
    REL("eddy_internal", "dataflow_operators", PLN_INTERNAL_OPERATORS, cols_operators),
    REL("eddy_internal", "arrangements", PLN_INTERNAL_ARRANGEMENTS, cols_arrangements),
    REL("eddy_internal", "arrangement_sharing", PLN_INTERNAL_SHARING, cols_sharing),
    REL("eddy_internal", "frontiers", PLN_INTERNAL_FRONTIERS, cols_frontiers),
    REL("eddy_internal", "metrics", PLN_INTERNAL_METRICS, cols_metrics),
    REL("eddy_catalog", "constraints", PLN_CATALOG_CONSTRAINTS, cols_constraints),
};

static bool path_lists(const cat_search_t *search, const char *schema)
{
    for (size_t i = 0; i < search->npath; i++)
        if (strcmp(search->path[i], schema) == 0)
            return true;
    return false;
}

/* Whether the unqualified name finds the relation of `rel_schema`: it must be
 * searched (pg_catalog always is) and no schema searched before it may hold
 * a relation of this name. */
bool pln__sysrel_unqualified(const pln_binder_t *b, const char *rel_schema, const char *name)
{
    bool is_pg = strcmp(rel_schema, "pg_catalog") == 0;
    if (!b->cat || !b->cat->snap)
        return is_pg;   /* no catalog: nothing can shadow pg_catalog, nothing else is searched */
    const cat_search_t *search = &b->cat->search;
    if (!path_lists(search, rel_schema))
        return is_pg;   /* pg_catalog is then searched first; other schemas not at all */
    const cat_database_t *db = search->database ? cat_snap_database(b->cat->snap, search->database) : NULL;
    for (size_t i = 0; i < search->npath; i++) {
        const char *schema = search->path[i];
        if (strcmp(schema, rel_schema) == 0)
            return true;
        if (strcmp(schema, "$user") == 0) {
            if (!search->user)
                continue;
            schema = search->user;
        }
        const cat_schema_t *sc = cat_snap_schema(b->cat->snap, db, schema);
        if (sc && cat_snap_item(b->cat->snap, sc, name))
            return false;
    }
    return true;
}

const pln_sysrel_t *pln__sysrel_find(const pln_binder_t *b, const cat_qname_t *qn)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(sysrels); i++) {
        const pln_sysrel_t *rel = &sysrels[i];
        if (strcmp(rel->name, qn->name) != 0)
            continue;
        if (qn->schema ? strcmp(qn->schema, rel->schema) == 0 : pln__sysrel_unqualified(b, rel->schema, qn->name))
            return rel;
    }
    return NULL;
}

bool pln__session_columns(const char *session, const cat_column_t **cols, uint32_t *ncols)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(sysrels); i++)
        if (strcmp(sysrels[i].session, session) == 0) {
            *cols = sysrels[i].columns;
            *ncols = sysrels[i].ncolumns;
            return true;
        }
    static const char prefix[] = "eddy_catalog.";
    if (strncmp(session, prefix, sizeof prefix - 1) != 0)
        return false;
    const cat_builtin_t *bt;
    for (size_t i = 0; (bt = cat_builtin_at(i)); i++)
        if (strcmp(bt->name, session + sizeof prefix - 1) == 0) {
            *cols = bt->columns;
            *ncols = bt->ncolumns;
            return true;
        }
    return false;
}
