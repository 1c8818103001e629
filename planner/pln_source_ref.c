/*
 * pln_source_ref.c: CREATE TABLE t FROM SOURCE src (REFERENCE ref), the
 * Materialize way of reading one relation of a source that produces
 * several (the TPCH and AUCTION load generators). The table's columns are
 * the referenced relation's, fixed by the generator; the table depends on
 * the source, so DROP SOURCE needs CASCADE as for a view on it.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define ERRCODE_WRONG_OBJECT_TYPE "42809"

typedef struct ref_col {
    const char *name;
    ty_oid_t type;
} ref_col_t;

typedef struct ref_rel {
    const char *name;
    const ref_col_t *cols;   /* ends at a NULL name */
} ref_rel_t;

/* TPC-H (specification 2.4.0, clause 1.4) with PostgreSQL types: identifiers
 * int8 (keys outgrow int4 at large scale factors), decimals numeric, fixed
 * and variable text text, dates date. */
static const ref_col_t region[] = {
    {"r_regionkey", TY_INT8}, {"r_name", TY_TEXT}, {"r_comment", TY_TEXT}, {NULL, 0}};
static const ref_col_t nation[] = {
    {"n_nationkey", TY_INT8}, {"n_name", TY_TEXT}, {"n_regionkey", TY_INT8}, {"n_comment", TY_TEXT}, {NULL, 0}};
static const ref_col_t supplier[] = {
    {"s_suppkey", TY_INT8}, {"s_name", TY_TEXT},       {"s_address", TY_TEXT}, {"s_nationkey", TY_INT8},
    {"s_phone", TY_TEXT},   {"s_acctbal", TY_NUMERIC}, {"s_comment", TY_TEXT}, {NULL, 0}};
static const ref_col_t customer[] = {
    {"c_custkey", TY_INT8}, {"c_name", TY_TEXT},       {"c_address", TY_TEXT},    {"c_nationkey", TY_INT8},
    {"c_phone", TY_TEXT},   {"c_acctbal", TY_NUMERIC}, {"c_mktsegment", TY_TEXT}, {"c_comment", TY_TEXT},
    {NULL, 0}};
static const ref_col_t part[] = {
    {"p_partkey", TY_INT8}, {"p_name", TY_TEXT}, {"p_mfgr", TY_TEXT},      {"p_brand", TY_TEXT},
    {"p_type", TY_TEXT},    {"p_size", TY_INT4}, {"p_container", TY_TEXT}, {"p_retailprice", TY_NUMERIC},
    {"p_comment", TY_TEXT}, {NULL, 0}};
static const ref_col_t partsupp[] = {
    {"ps_partkey", TY_INT8},      {"ps_suppkey", TY_INT8}, {"ps_availqty", TY_INT4},
    {"ps_supplycost", TY_NUMERIC}, {"ps_comment", TY_TEXT}, {NULL, 0}};
static const ref_col_t orders[] = {
    {"o_orderkey", TY_INT8},     {"o_custkey", TY_INT8},       {"o_orderstatus", TY_TEXT},
    {"o_totalprice", TY_NUMERIC}, {"o_orderdate", TY_DATE},     {"o_orderpriority", TY_TEXT},
    {"o_clerk", TY_TEXT},        {"o_shippriority", TY_INT4}, {"o_comment", TY_TEXT},
    {NULL, 0}};
static const ref_col_t lineitem[] = {
    {"l_orderkey", TY_INT8},       {"l_partkey", TY_INT8},      {"l_suppkey", TY_INT8},
    {"l_linenumber", TY_INT4},     {"l_quantity", TY_NUMERIC},  {"l_extendedprice", TY_NUMERIC},
    {"l_discount", TY_NUMERIC},    {"l_tax", TY_NUMERIC},       {"l_returnflag", TY_TEXT},
    {"l_linestatus", TY_TEXT},     {"l_shipdate", TY_DATE},     {"l_commitdate", TY_DATE},
    {"l_receiptdate", TY_DATE},    {"l_shipinstruct", TY_TEXT}, {"l_shipmode", TY_TEXT},
    {"l_comment", TY_TEXT},        {NULL, 0}};
static const ref_rel_t tpch[] = {
    {"region", region},     {"nation", nation}, {"supplier", supplier}, {"customer", customer},
    {"part", part},         {"partsupp", partsupp}, {"orders", orders}, {"lineitem", lineitem},
    {NULL, NULL}};

/* Materialize's auction generator; bids is also the source's own relation (pln_source.c). */
static const ref_col_t organizations[] = {{"id", TY_INT8}, {"name", TY_TEXT}, {NULL, 0}};
static const ref_col_t users[] = {{"id", TY_INT8}, {"org_id", TY_INT8}, {"name", TY_TEXT}, {NULL, 0}};
static const ref_col_t accounts[] = {{"id", TY_INT8}, {"org_id", TY_INT8}, {"balance", TY_INT8}, {NULL, 0}};
static const ref_col_t auctions[] = {
    {"id", TY_INT8}, {"seller", TY_INT8}, {"item", TY_TEXT}, {"end_time", TY_TIMESTAMPTZ}, {NULL, 0}};
static const ref_col_t bids[] = {{"id", TY_INT8},     {"buyer", TY_INT8},
                                 {"auction_id", TY_INT8}, {"amount", TY_INT4},
                                 {"bid_time", TY_TIMESTAMPTZ}, {NULL, 0}};
static const ref_rel_t auction[] = {{"accounts", accounts}, {"auctions", auctions}, {"bids", bids},
                                    {"organizations", organizations}, {"users", users}, {NULL, NULL}};

/* The relations a source offers to FROM SOURCE, or NULL when it has none. */
static const ref_rel_t *references_of(const sql_create_source_t *cs)
{
    if (cs->connector != SQL_CONNECTOR_LOAD_GENERATOR)
        return NULL;
    switch (cs->generator) {
    case SQL_GEN_TPCH: return tpch;
    case SQL_GEN_AUCTION: return auction;
    case SQL_GEN_COUNTER: return NULL;
    }
    return NULL;
}

static sql_qname_t *item_qname(pln_binder_t *b, const cat_item_t *it, int pos)
{
    const char *parts[3];
    int n = 0;
    if (it->schema && it->schema->database)
        parts[n++] = it->schema->database->name;
    if (it->schema)
        parts[n++] = it->schema->name;
    parts[n++] = it->name;
    sql_list_t *l = cm_arena_zalloc(b->arena, sizeof(*l));
    l->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)n);
    for (int i = 0; i < n; i++)
        l->items[i] = (void *)parts[i];
    l->count = n;
    sql_qname_t *q = cm_arena_zalloc(b->arena, sizeof(*q));
    q->pos = pos;
    q->names = l;
    return q;
}

bool pln__plan_table_from_source(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn,
                                 const sql_qname_t *qualified, cat_change_t *out)
{
    const sql_create_table_t *t = s->create_table;
    cat_qname_t sq;
    if (!pln__qname(b, t->source->names, t->source->pos, &sq))
        return false;
    const cat_item_t *src = cat_resolve_item(b->cat->snap, &b->cat->search, &sq, b->err);
    if (!src) {
        b->err->position = pln__char_pos(b->sql, t->source->pos);
        return false;
    }
    const char *src_name = src->name;
    if (src->kind != CAT_ITEM_SOURCE)
        return pln__error(b, t->source->pos, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is not a source", src_name);
    sql_stmt_list_t list;
    if (!sql_parse(b->arena, src->create_sql, strlen(src->create_sql), &list, b->err))
        return false;
    if (list.count != 1 || list.items[0]->kind != SQL_STMT_CREATE_SOURCE)
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "the definition of \"%s\" is not a source", src_name);
    const ref_rel_t *refs = references_of(list.items[0]->create_source);
    if (!refs) {
        pln__error(b, t->source->pos, ERRCODE_WRONG_OBJECT_TYPE, "source \"%s\" has no references", src_name);
        cm_err_set_hint(b->err, "Only LOAD GENERATOR AUCTION and TPCH sources have relations to create tables from.");
        return false;
    }
    const ref_rel_t *rel = refs;
    while (rel->name && strcmp(rel->name, t->reference) != 0)
        rel++;
    if (!rel->name)
        return pln__error(b, t->reference_pos, CM_ERRCODE_UNDEFINED_TABLE, "reference \"%s\" not found in source \"%s\"",
                          t->reference, src_name);
    uint32_t n = 0;
    while (rel->cols[n].name)
        n++;
    cat_column_t *cols = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * n);
    for (uint32_t i = 0; i < n; i++)   /* generated rows have every field */
        cols[i] = (cat_column_t){.name = rel->cols[i].name, .type = rel->cols[i].type, .typmod = -1, .not_null = true};
    sql_create_table_t norm = *t;
    norm.if_not_exists = false;
    norm.name = (sql_qname_t *)qualified;
    norm.source = item_qname(b, src, t->source->pos);
    sql_stmt_t ns = *s;
    ns.create_table = &norm;
    cm_buf_t sql;
    cm_buf_init(&sql, 0);
    sql_deparse_stmt(&ns, &sql);
    const char *create_sql = cm_arena_strndup(b->arena, (const char *)sql.data, sql.len);
    cm_buf_free(&sql);
    cat_id_t *dep = cm_arena_alloc(b->arena, sizeof(cat_id_t));
    *dep = src->id;
    cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = *qn, .create_sql = create_sql, .columns = cols,
                          .ncolumns = n, .deps = dep, .ndeps = 1};
    return cat_plan_create_item(b->cat->snap, &b->cat->search, &def, t->if_not_exists, out, b->err);
}
