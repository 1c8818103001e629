/*
 * seq_plan.c: the planning step (sequencer.h): a catalog item at an index
 * becomes self-contained plan bytes for the workers. A view or
 * materialized view is its query (pln_bind_view: the SELECT of its
 * normalized create_sql, relations fully qualified, under the column
 * names it declares), bound by worker 0 against its catalog at that index
 * and encoded with the plan codec (plan_encode, plan/plan.h): relations
 * are carried by catalog ID, functions by name and signature, so a worker
 * decodes it without the catalog. A table is its definition (pln_plan_table:
 * a GET of it with its columns and key), from which every worker makes its
 * shards. An index of a materialized view is the view's ID and its key
 * columns (df_index.c arranges the view by them); other items (sources,
 * indexes of tables) install with no plan yet.
 * Everything comes from the snapshot, so two incarnations of worker 0
 * produce the same bytes.
 */
#include "sequencer/sequencer.h"

#include "plan/plan.h"
#include "planner/planner.h"

#include <string.h>

static bool seq__plan_view(const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    const char *db = item->schema && item->schema->database ? item->schema->database->name : "eddy";
    ty_settings_t settings;
    ty_settings_default(&settings);
    static const char *const path[] = {"public"};
    pln_catalog_t cat = {.snap = snap, .search = {.database = db, .path = path, .npath = 1, .user = NULL}};
    pln_stmt_t *st = NULL;
    /* Planning errors (reading a relation: 0A000 until the engine reads them) stay in the plan. */
    bool ok = pln_bind_view(&arena, &cat, item, &settings, true, &st, err);
    if (ok && st->kind != PLN_QUERY)
        ok = cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "only a query's plan can be encoded");
    ok = ok && plan_encode(st->query, NULL, out, err);
    cm_arena_free(&arena);
    return ok;
}

static bool seq__plan_table(const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    plan_t *p = NULL;
    bool ok = pln_plan_table(&arena, item, &p, err) && plan_encode(p, NULL, out, err);
    cm_arena_free(&arena);
    return ok;
}

/* An index of a materialized view on some of its columns: the view's ID and those columns'
 * positions and types (df_index_plan_encode). Other indexes (of tables, on expressions) install
 * with no plan: nothing arranges them. */
static void seq__plan_index(const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out)
{
    const cat_item_t *rel = item->ndeps > 0 ? cat_snap_item_by_id(snap, item->deps[0]) : NULL;
    if (rel == NULL || rel->kind != CAT_ITEM_MATVIEW || item->ncolumns == 0 || item->ncolumns > 64)
        return;
    uint32_t pos[64];
    ty_oid_t types[64];
    for (uint32_t i = 0; i < item->ncolumns; i++) {
        uint32_t at = 0;
        while (at < rel->ncolumns && strcmp(rel->columns[at].name, item->columns[i].name) != 0)
            at++;
        if (at == rel->ncolumns)
            return;
        pos[i] = at;
        types[i] = rel->columns[at].type;
    }
    df_index_plan_encode(rel->id, (int)item->ncolumns, pos, types, out);
}

bool seq_plan_item_default(void *arg, const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    if (item->kind == CAT_ITEM_VIEW || item->kind == CAT_ITEM_MATVIEW)
        return seq__plan_view(snap, item, out, err);
    if (item->kind == CAT_ITEM_TABLE)
        return seq__plan_table(item, out, err);
    if (item->kind == CAT_ITEM_INDEX)
        seq__plan_index(snap, item, out);
    return true;
}
