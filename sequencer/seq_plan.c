/*
 * seq_plan.c: the planning step (sequencer.h): a catalog item at an index
 * becomes self-contained plan bytes for the workers. A view or
 * materialized view is its query, taken from the normalized create_sql
 * (relations fully qualified), bound by worker 0 against its catalog at
 * that index and encoded with the plan codec (plan_encode, plan/plan.h):
 * relations are carried by catalog ID, functions by name and signature,
 * so a worker decodes it without the catalog. Other items (tables,
 * sources, indexes) install with no plan yet: their dataflows (storage,
 * ingestion, arrangements) come with later issues. Everything comes from
 * the snapshot, so two incarnations of worker 0 produce the same bytes.
 */
#include "sequencer/sequencer.h"

#include "parser/parser.h"
#include "plan/plan.h"
#include "planner/planner.h"

#include <string.h>

/* The view's query as SQL text: the select of its CREATE, under the column names it declares. */
static bool seq__view_query(const cat_item_t *item, cm_arena_t *arena, cm_buf_t *out, cm_err_t *err)
{
    sql_stmt_list_t stmts;
    const char *sql = item->create_sql ? item->create_sql : "";
    if (!sql_parse(arena, sql, strlen(sql), &stmts, err))
        return false;
    if (stmts.count != 1 || stmts.items[0]->kind != SQL_STMT_CREATE_VIEW)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "item %llu: its create_sql is not a CREATE VIEW",
                          (unsigned long long)item->id);
    const sql_create_view_t *cv = stmts.items[0]->create_view;
    if (cv->columns == NULL) {
        sql_deparse_select(cv->query, out);
    } else {
        /* The declared names rename the query's columns, as PostgreSQL's view does. */
        cm_buf_put_str(out, "SELECT * FROM (");
        sql_deparse_select(cv->query, out);
        cm_buf_put_str(out, ") AS v(");
        for (int i = 0; i < cv->columns->count; i++) {
            if (i > 0)
                cm_buf_put_str(out, ", ");
            sql_deparse_ident(cv->columns->items[i], out);
        }
        cm_buf_put_u8(out, ')');
    }
    cm_buf_put_u8(out, 0);
    return true;
}

static bool seq__plan_view(const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    cm_buf_t q;
    cm_buf_init(&q, 0);
    const char *db = item->schema && item->schema->database ? item->schema->database->name : "eddy";
    ty_settings_t settings;
    ty_settings_default(&settings);
    static const char *const path[] = {"public"};
    pln_catalog_t cat = {.snap = snap, .search = {.database = db, .path = path, .npath = 1, .user = NULL}};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    bool ok = seq__view_query(item, &arena, &q, err);
    const char *text = (const char *)q.data;
    /* Planning errors (reading a relation: 0A000 until the engine reads them) stay in the plan. */
    ok = ok && pln_parse(&arena, text, strlen(text), &raws, err) && raws.count == 1 &&
         pln_bind_catalog(&arena, raws.items[0], text, NULL, 0, &settings, &cat, true, &st, err);
    if (ok && st->kind != PLN_QUERY)
        ok = cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "only a query's plan can be encoded");
    ok = ok && plan_encode(st->query, NULL, out, err);
    cm_buf_free(&q);
    cm_arena_free(&arena);
    return ok;
}

bool seq_plan_item_default(void *arg, const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    if (item->kind == CAT_ITEM_VIEW || item->kind == CAT_ITEM_MATVIEW)
        return seq__plan_view(snap, item, out, err);
    return true;
}
