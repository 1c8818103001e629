/*
 * pln_subscribe.c: SUBSCRIBE [TO] {obj | (query)} [WITH (SNAPSHOT [= bool],
 * PROGRESS [= bool])], as Materialize has it: the changes of a
 * materialized view, a table, a view or a query as rows (mz_timestamp,
 * [mz_progressed,] mz_diff, the columns...), the current rows first unless
 * SNAPSHOT = false. An object is bound as the query SELECT * FROM obj (its
 * columns, the SELECT privilege; a plain view expands into its query), a
 * query as itself, with subscribe set; the server streams it
 * (srv_subscribe.c). A materialized view's and a table's changes come from
 * what the workers keep; a query's from a dataflow built for the
 * subscription, so its plan must be one the engine maintains, as a
 * materialized view's; one that reads no relation ends once its rows are
 * out. COPY (SUBSCRIBE ...) TO STDOUT is the same as COPY data
 * (pln_copy.c).
 */
#include "planner/pln_internal.h"

#include <string.h>

static bool bind_options(pln_binder_t *b, const sql_subscribe_t *s, bool *snapshot, bool *progress)
{
    *snapshot = true;
    *progress = false;
    for (int i = 0; i < sql_list_len(s->options); i++) {
        const sql_option_t *o = s->options->items[i];
        if (strcmp(o->name, "snapshot") == 0) {
            if (!pln__option_bool(b, o, snapshot))
                return false;
        } else if (strcmp(o->name, "progress") == 0) {
            if (!pln__option_bool(b, o, progress))
                return false;
        } else {
            return pln__error(b, o->pos, CM_ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized", o->name);
        }
    }
    return true;
}

/* What the object is and the query that reads it; false with the error. */
static bool bind_object(pln_binder_t *b, const sql_subscribe_t *s, pln_stmt_t *st, pln_subscribe_kind_t *kind,
                        uint64_t *object)
{
    const cat_item_t *it;
    if (!pln__item_named(b, s->object->names, s->object->pos, &it))
        return false;
    *object = it != NULL ? it->id : 0;
    if (it != NULL && it->kind == CAT_ITEM_MATVIEW)
        *kind = PLN_SUBSCRIBE_VIEW;
    else if (it != NULL && it->kind == CAT_ITEM_TABLE)
        *kind = PLN_SUBSCRIBE_TABLE;
    else if (it != NULL && it->kind == CAT_ITEM_VIEW)
        *kind = PLN_SUBSCRIBE_QUERY;
    else if (it != NULL)
        return pln__error(b, s->object->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "SUBSCRIBE to %s \"%s\" is not supported yet", cat_item_kind_name(it->kind), it->name);
    const sql_select_t *q;
    b->join_sublinks = *kind == PLN_SUBSCRIBE_QUERY;
    if (!pln__select_from(b, s->object->names, NULL, &q) || !pln__bind_query_stmt(b, q, st)) {
        b->err->position = 0;   /* our query is not the statement's text: no position in it */
        return false;
    }
    return true;
}

bool pln__bind_subscribe(pln_binder_t *b, const sql_subscribe_t *s, pln_stmt_t *st)
{
    bool snapshot, progress;
    if (!bind_options(b, s, &snapshot, &progress))
        return false;
    pln_subscribe_kind_t kind = PLN_SUBSCRIBE_QUERY;
    uint64_t object = 0;
    if (s->object != NULL) {
        if (!bind_object(b, s, st, &kind, &object))
            return false;
    } else {
        b->join_sublinks = true;
        if (!pln__bind_query_stmt(b, s->query, st))
            return false;
    }
    if (b->nparams > 0)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SUBSCRIBE with parameters is not supported yet");
    /* A query's dataflow is built as a materialized view's: the engine must maintain its plan. */
    if (kind == PLN_SUBSCRIBE_QUERY && st->plan_error == NULL &&
        (!plan_maintainable(st->query, b->err) || st->query->ncols != st->ncols)) {
        if (!b->err->set)
            pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SUBSCRIBE cannot maintain this query");
        b->err->position = 0;
        return false;
    }
    /* (mz_timestamp, [mz_progressed,] mz_diff, the columns...) */
    int lead = progress ? 3 : 2;
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof *cols * (size_t)(st->ncols + lead));
    int at = 0;
    cols[at++] = (plan_column_t){.name = "mz_timestamp", .type = TY_INT8, .typmod = -1};
    if (progress)
        cols[at++] = (plan_column_t){.name = "mz_progressed", .type = TY_BOOL, .typmod = -1};
    cols[at++] = (plan_column_t){.name = "mz_diff", .type = TY_INT8, .typmod = -1};
    memcpy(cols + lead, st->cols, sizeof *cols * (size_t)st->ncols);
    pln_subscribe_t *sub = cm_arena_zalloc(b->arena, sizeof *sub);
    sub->kind = kind;
    sub->object = object;
    sub->snapshot = snapshot;
    sub->progress = progress;
    /* Nothing will ever change a constant query's rows: as Materialize's, it ends after them. */
    sub->finite = kind == PLN_SUBSCRIBE_QUERY && st->plan_error == NULL && !plan_reads_relations(st->query);
    sub->ncols = st->ncols;
    sub->types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)(st->ncols + 1));
    for (int i = 0; i < st->ncols; i++)
        sub->types[i] = st->cols[i].type;
    st->cols = cols;
    st->ncols += lead;
    st->subscribe = sub;
    st->tag = "SUBSCRIBE";
    return true;
}
