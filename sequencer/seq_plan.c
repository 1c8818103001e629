/*
 * seq_plan.c: the planning step until the plan codec lands: a catalog item
 * at an index becomes self-contained plan bytes. The record is
 *   "EDPL", u8 format (1), be64 id, u8 item kind,
 *   be32 length + create_sql, be32 length + plan text
 * where the plan text is, for a view or materialized view, its query bound
 * against the catalog at that index as EXPLAIN prints it (the binder's
 * operator tree), and empty for other items. Everything comes from the
 * catalog snapshot, so two incarnations of worker 0 produce the same bytes.
 */
#include "sequencer/sequencer.h"

#include "planner/planner.h"

#include <string.h>

#define SEQ_PLAN_FORMAT 1

typedef struct seq__explain {
    cm_buf_t *out;
} seq__explain_t;

static bool seq__explain_row(void *arg, const ty_datum_t *row, int ncols)
{
    seq__explain_t *x = arg;
    if (ncols >= 1 && !row[0].isnull) {
        cm_buf_put(x->out, row[0].v.s.p, row[0].v.s.len);
        cm_buf_put_u8(x->out, '\n');
    }
    return true;
}

/* The view's plan as EXPLAIN [MATERIALIZED] VIEW prints it, bound against snap. */
static bool seq__explain_view(const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *text, cm_err_t *err)
{
    const char *db = item->schema && item->schema->database ? item->schema->database->name : "eddy";
    cm_buf_t sql;
    cm_buf_init(&sql, 0);
    cm_buf_put_str(&sql, item->kind == CAT_ITEM_MATVIEW ? "EXPLAIN MATERIALIZED VIEW " : "EXPLAIN VIEW ");
    cat_quote_ident(db, &sql);
    cm_buf_put_u8(&sql, '.');
    cat_quote_ident(item->schema ? item->schema->name : "public", &sql);
    cm_buf_put_u8(&sql, '.');
    cat_quote_ident(item->name, &sql);
    cm_buf_put_u8(&sql, 0);
    cm_arena_t arena;
    cm_arena_init(&arena, 0);
    ty_settings_t settings;
    ty_settings_default(&settings);
    static const char *const path[] = {"public"};
    pln_catalog_t cat = {.snap = snap, .search = {.database = db, .path = path, .npath = 1, .user = NULL}};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    const char *q = (const char *)sql.data;
    bool ok = pln_parse(&arena, q, strlen(q), &raws, err) && raws.count == 1 &&
              pln_bind_catalog(&arena, raws.items[0], q, NULL, 0, &settings, &cat, false, &st, err);
    if (ok) {
        ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = err};
        seq__explain_t x = {.out = text};
        ok = pln_query_run(st, q, NULL, &ctx, seq__explain_row, &x);
    }
    cm_arena_free(&arena);
    cm_buf_free(&sql);
    return ok;
}

static void seq__put_str(cm_buf_t *out, const char *s, size_t n)
{
    cm_buf_put_be32(out, (uint32_t)n);
    cm_buf_put(out, s, n);
}

bool seq_plan_item_default(void *arg, const cat_snap_t *snap, const cat_item_t *item, cm_buf_t *out, cm_err_t *err)
{
    cm_buf_t text;
    cm_buf_init(&text, 0);
    bool ok = true;
    if (item->kind == CAT_ITEM_VIEW || item->kind == CAT_ITEM_MATVIEW)
        ok = seq__explain_view(snap, item, &text, err);
    cm_buf_put(out, "EDPL", 4);
    cm_buf_put_u8(out, SEQ_PLAN_FORMAT);
    cm_buf_put_be64(out, item->id);
    cm_buf_put_u8(out, (uint8_t)item->kind);
    const char *sql = item->create_sql ? item->create_sql : "";
    seq__put_str(out, sql, strlen(sql));
    seq__put_str(out, (const char *)text.data, text.len);
    cm_buf_free(&text);
    return ok;
}
