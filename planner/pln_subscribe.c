/*
 * pln_subscribe.c: SUBSCRIBE [TO] v [WITH (SNAPSHOT [= bool])], as
 * Materialize has it: the changes of a materialized view as rows
 * (mz_timestamp, mz_diff, the view's columns...), its current rows first
 * unless SNAPSHOT = false. Bound as the query SELECT * FROM v (its columns,
 * the SELECT privilege) with subscribe set; the server streams it
 * (srv_subscribe.c). COPY (SUBSCRIBE ...) TO STDOUT is the same as COPY
 * data (pln_copy.c).
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__bind_subscribe(pln_binder_t *b, const sql_subscribe_t *s, pln_stmt_t *st)
{
    if (s->query != NULL || s->object == NULL)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SUBSCRIBE to a query is not supported yet");
    bool snapshot = true;
    for (int i = 0; i < sql_list_len(s->options); i++) {
        const sql_option_t *o = s->options->items[i];
        if (strcmp(o->name, "snapshot") == 0) {
            if (!pln__option_bool(b, o, &snapshot))
                return false;
        } else if (strcmp(o->name, "progress") == 0) {
            return pln__error(b, o->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "SUBSCRIBE with PROGRESS is not supported yet");
        } else {
            return pln__error(b, o->pos, CM_ERRCODE_SYNTAX_ERROR, "option \"%s\" not recognized", o->name);
        }
    }
    const cat_item_t *it;
    if (!pln__item_named(b, s->object->names, s->object->pos, &it))
        return false;
    if (it != NULL && it->kind != CAT_ITEM_MATVIEW)
        return pln__error(b, s->object->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "SUBSCRIBE to \"%s\" is not supported yet: only materialized views can be subscribed to",
                          it->name);
    const sql_select_t *q;
    if (!pln__select_from(b, s->object->names, NULL, &q) || !pln__bind_query_stmt(b, q, st)) {
        b->err->position = 0;   /* our query is not the statement's text: no position in it */
        return false;
    }
    /* (mz_timestamp, mz_diff, the view's columns...) */
    plan_column_t *cols = cm_arena_zalloc(b->arena, sizeof *cols * (size_t)(st->ncols + 2));
    cols[0] = (plan_column_t){.name = "mz_timestamp", .type = TY_INT8, .typmod = -1};
    cols[1] = (plan_column_t){.name = "mz_diff", .type = TY_INT8, .typmod = -1};
    memcpy(cols + 2, st->cols, sizeof *cols * (size_t)st->ncols);
    pln_subscribe_t *sub = cm_arena_zalloc(b->arena, sizeof *sub);
    sub->view = it != NULL ? it->id : 0;
    sub->snapshot = snapshot;
    sub->ncols = st->ncols;
    sub->types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)(st->ncols + 1));
    for (int i = 0; i < st->ncols; i++)
        sub->types[i] = st->cols[i].type;
    st->cols = cols;
    st->ncols += 2;
    st->subscribe = sub;
    st->tag = "SUBSCRIBE";
    return true;
}
