/*
 * pln_cursor.c: DECLARE c CURSOR FOR SUBSCRIBE ..., FETCH and CLOSE, as
 * Materialize has them for SUBSCRIBE (the way drivers read one): DECLARE
 * binds its SUBSCRIBE as that statement (pln_subscribe.c) and keeps its
 * columns for FETCH, whose own columns the server takes from the cursor
 * when it is described; FETCH's WITH (timeout = interval) is how long it
 * waits for a first row (none: until one comes; '0s': not at all). The
 * session holds the cursor (server/srv_cursor.c). A cursor over a query
 * and WITH HOLD are not supported yet.
 */
#include "planner/pln_internal.h"

#include <stdio.h>
#include <string.h>

/* FETCH's timeout option in milliseconds: an interval ('1s', '250ms') or a number of seconds. */
static bool bind_timeout(pln_binder_t *b, const sql_option_t *o, int64_t *ms)
{
    const sql_expr_t *v = o->value;
    if (v == NULL || v->kind != SQL_EXPR_CONST || v->const_kind == SQL_CONST_NULL || v->const_kind == SQL_CONST_BOOL)
        return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "timeout requires an interval value");
    const char *text = v->str ? v->str : "";
    char buf[64];
    if (v->const_kind == SQL_CONST_INTEGER || v->const_kind == SQL_CONST_NUMERIC) {
        snprintf(buf, sizeof buf, "%s seconds", text);
        text = buf;
    }
    ty_datum_t d;
    if (!ty_datum_from_text(TY_INTERVAL, -1, text, strlen(text), &b->ctx, &d))
        return false;
    double us = (double)d.v.iv.us + (double)d.v.iv.days * 86400e6 + (double)d.v.iv.months * 30 * 86400e6;
    if (us < 0)
        return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "timeout must be greater than or equal to 0");
    /* A day is a wait nobody means; it also keeps the milliseconds far from overflow. */
    *ms = us > 86400e6 ? 86400000 : (int64_t)(us / 1000);
    return true;
}

bool pln__bind_cursor(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    const sql_cursor_t *k = s->cursor;
    st->cursor_name = k->name;
    if (s->kind == SQL_STMT_CLOSE) {
        st->kind = PLN_CLOSE;
        st->tag = k->name ? "CLOSE CURSOR" : "CLOSE CURSOR ALL";
        return true;
    }
    if (s->kind == SQL_STMT_FETCH) {
        st->kind = PLN_FETCH;
        st->tag = "FETCH";
        st->fetch_count = k->count;
        st->fetch_timeout_ms = -1;
        for (int i = 0; i < sql_list_len(k->options); i++) {
            const sql_option_t *o = k->options->items[i];
            if (strcmp(o->name, "timeout") != 0)
                return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "FETCH option \"%s\" not recognized",
                                  o->name);
            if (!bind_timeout(b, o, &st->fetch_timeout_ms))
                return false;
        }
        return true;
    }
    if (k->hold)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "DECLARE CURSOR WITH HOLD is not supported yet");
    if (k->subscribe == NULL)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "DECLARE CURSOR is only supported for SUBSCRIBE yet");
    if (!pln__bind_subscribe(b, k->subscribe, st))
        return false;
    st->kind = PLN_DECLARE;
    st->tag = "DECLARE CURSOR";
    st->ncursor_cols = st->ncols;
    st->cursor_cols = st->cols;
    st->ncols = 0;
    st->cols = NULL;
    return true;
}
