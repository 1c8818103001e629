/*
 * pln_table.c: a table's definition as a plan (planner.h, pln_plan_table):
 * one GET of the table with its columns and key, which is what a worker
 * needs to hold the table's shards: the arrangement's key (its PRIMARY
 * KEY, else its first UNIQUE key, else the whole row) and the row's types.
 */
#include "planner/pln_internal.h"

bool pln_plan_table(cm_arena_t *arena, const cat_item_t *table, plan_t **out, cm_err_t *err)
{
    *out = NULL;
    if (table->kind != CAT_ITEM_TABLE)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "item %llu is not a table", (unsigned long long)table->id);
    int n = (int)table->ncolumns;
    plan_rel_t *g = cm_arena_zalloc(arena, sizeof *g);
    g->kind = PLAN_REL_GET;
    g->ncols = n;
    g->types = cm_arena_zalloc(arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    plan_column_t *cols = cm_arena_zalloc(arena, sizeof(plan_column_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const cat_column_t *c = &table->columns[i];
        g->types[i] = c->type;
        cols[i] = (plan_column_t){.name = c->name, .type = c->type, .typmod = c->typmod};
    }
    g->relname = pln__item_qualified(arena, table);
    g->item = table->id;
    g->item_cols = cols;
    pln__item_keys(arena, table, &g->nitem_keys, &g->item_keys);
    plan_t *p = cm_arena_zalloc(arena, sizeof *p);
    p->root = g;
    p->ncols = n;
    p->cols = cols;
    *out = p;
    return true;
}
