/*
 * srv_stmt.c: prepared statements and portals of a connection: creation,
 * lookup by name, reference counting, recycling, and what a statement keeps
 * so that running it again is cheap: its result columns, built once when it
 * is parsed, and its encoded RowDescription for the result formats last
 * asked for (most clients ask for the same formats every time).
 *
 * The connection keeps one spare statement and one spare portal so that the
 * Parse/Bind/Execute/Sync cycle of a busy client does not call malloc.
 */
#include "server/srv_int.h"

#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ columns */

void srv_cols_build(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out)
{
    out->n = 0;
    out->fields = NULL;
    out->types = NULL;
    out->rows = false;
    if (st == NULL)
        return;
    if (st->kind == PLN_SHOW) {
        static const char *const all[] = {"name", "setting", "description"};
        bool is_all = st->var_name != NULL && cm_strcasecmp(st->var_name, "all") == 0;
        out->n = is_all ? 3 : 1;
        out->fields = cm_arena_zalloc(a, sizeof *out->fields * 3);
        out->types = cm_arena_zalloc(a, sizeof *out->types * 3);
        for (int i = 0; i < out->n; i++) {
            const char *name = is_all ? all[i] : st->var_name;
            const char *value, *canonical;
            cm_err_t err = {0};
            /* The column is named as the parameter is spelled, whatever the session's value. */
            if (!is_all && srv_session_show(&c->sess, st->var_name, &value, &canonical, &err))
                name = canonical;
            cm_err_clear(&err);
            out->fields[i] = (srv_field_t){.name = name, .type_oid = TY_TEXT, .typlen = -1, .typmod = -1};
            out->types[i] = TY_TEXT;
        }
        out->rows = true;
        return;
    }
    if (st->kind == PLN_EXECUTE) {
        srv_sqlprep_cols(c, st, a, out);
        return;
    }
    if (st->kind == PLN_FETCH) {
        srv_cursor_cols(c, st, a, out);
        return;
    }
    if (st->kind != PLN_QUERY && !(st->kind == PLN_WRITE && st->ncols > 0))   /* INSERT ... RETURNING */
        return;
    out->rows = st->copy_to == NULL;   /* COPY TO: Describe answers NoData, its rows go as COPY data */
    out->n = st->ncols;
    out->fields = cm_arena_zalloc(a, sizeof *out->fields * (size_t)(st->ncols + 1));
    out->types = cm_arena_zalloc(a, sizeof *out->types * (size_t)(st->ncols + 1));
    for (int i = 0; i < st->ncols; i++) {
        const ty_info_t *ti = ty_info(st->cols[i].type);
        out->fields[i] = (srv_field_t){.name = st->cols[i].name ? st->cols[i].name : "?column?",
                                       .table_oid = st->cols[i].table_oid,
                                       .attnum = st->cols[i].attnum,
                                       .type_oid = st->cols[i].type,
                                       .typlen = ti != NULL ? ti->typlen : -1,
                                       .typmod = st->cols[i].typmod};
        out->types[i] = st->cols[i].type;
    }
}

void srv_cols_put_row_description(cm_buf_t *out, const srv_cols_t *cols, const int16_t *formats)
{
    for (int i = 0; i < cols->n; i++)
        cols->fields[i].format = formats != NULL ? formats[i] : 0;
    srv_put_row_description(out, cols->n, cols->fields);
}

/* ------------------------------------------------------------ statements */

srv_stmt_t *srv_stmt_new(srv_conn_t *c)
{
    srv_stmt_t *st = c->spare_stmt;
    if (st != NULL) {
        c->spare_stmt = NULL;
    } else {
        st = cm_calloc(1, sizeof *st);
        cm_arena_init(&st->arena, 2048);
        cm_buf_init(&st->rowdesc, 0);
    }
    st->next = NULL;
    st->name = NULL;
    st->sql = NULL;
    st->sql_len = 0;
    st->ndeclared = 0;
    st->declared = NULL;
    st->settings_gen = 0;
    st->plan = NULL;
    st->cols = (srv_cols_t){0};
    st->rowdesc.len = 0;
    st->rowdesc_valid = false;
    st->rowdesc_formats = NULL;
    st->refs = 1;
    st->source = NULL;
    st->prepare_time = 0;
    st->from_sql = false;
    st->generic_plans = st->custom_plans = 0;
    return st;
}

static void srv__stmt_free(srv_stmt_t *st)
{
    cm_arena_free(&st->arena);
    cm_buf_free(&st->rowdesc);
    free(st->rowdesc_formats);
    free(st);
}

void srv_stmt_release(srv_conn_t *c, srv_stmt_t *st)
{
    if (st == NULL || --st->refs > 0)
        return;
    cm_arena_reset(&st->arena);
    if (c->spare_stmt == NULL) {
        free(st->rowdesc_formats);
        st->rowdesc_formats = NULL;
        st->rowdesc.len = 0;
        cm_buf_shrink(&st->rowdesc, SRV_BUF_KEEP);
        c->spare_stmt = st;
    } else {
        srv__stmt_free(st);
    }
}

void srv_stmt_ready(srv_conn_t *c, srv_stmt_t *st)
{
    srv_cols_build(c, st->plan, &st->arena, &st->cols);
}

srv_stmt_t *srv_stmt_find(srv_conn_t *c, const char *name)
{
    if (name[0] == 0)
        return c->unnamed_stmt;
    for (srv_stmt_t *s = c->stmts; s != NULL; s = s->next)
        if (strcmp(s->name, name) == 0)
            return s;
    return NULL;
}

void srv_stmt_drop(srv_conn_t *c, const char *name)
{
    if (name[0] == 0) {
        srv_stmt_release(c, c->unnamed_stmt);
        c->unnamed_stmt = NULL;
        return;
    }
    for (srv_stmt_t **p = &c->stmts; *p != NULL; p = &(*p)->next) {
        if (strcmp((*p)->name, name) == 0) {
            srv_stmt_t *st = *p;
            *p = st->next;
            srv_stmt_release(c, st);
            return;
        }
    }
}

static bool srv__formats_equal(const int16_t *a, const int16_t *b, int n)
{
    if (a == NULL || b == NULL) {
        /* NULL means all text. */
        const int16_t *x = a != NULL ? a : b;
        for (int i = 0; x != NULL && i < n; i++)
            if (x[i] != 0)
                return false;
        return true;
    }
    return memcmp(a, b, sizeof *a * (size_t)n) == 0;
}

void srv_stmt_put_row_description(srv_stmt_t *st, cm_buf_t *out, const int16_t *formats)
{
    int n = st->cols.n;
    if (!st->rowdesc_valid || !srv__formats_equal(st->rowdesc_formats, formats, n)) {
        st->rowdesc.len = 0;
        st->rowdesc.failed = false;
        srv_cols_put_row_description(&st->rowdesc, &st->cols, formats);
        free(st->rowdesc_formats);
        st->rowdesc_formats = NULL;
        if (formats != NULL && n > 0) {
            st->rowdesc_formats = cm_malloc(sizeof *formats * (size_t)n);
            memcpy(st->rowdesc_formats, formats, sizeof *formats * (size_t)n);
        }
        st->rowdesc_valid = !st->rowdesc.failed;
    }
    cm_buf_put(out, st->rowdesc.data, st->rowdesc.len);
}

void srv_stmt_free_all(srv_conn_t *c)
{
    srv_stmt_release(c, c->unnamed_stmt);
    c->unnamed_stmt = NULL;
    while (c->stmts != NULL) {
        srv_stmt_t *s = c->stmts;
        c->stmts = s->next;
        srv_stmt_release(c, s);
    }
    if (c->spare_stmt != NULL) {
        srv__stmt_free(c->spare_stmt);
        c->spare_stmt = NULL;
    }
}

/* ------------------------------------------------------------ portals */

static void srv__portal_destroy(srv_portal_t *p)
{
    cm_arena_free(&p->arena);
    cm_buf_free(&p->rows);
    free(p);
}

void srv_portal_free(srv_conn_t *c, srv_portal_t *p)
{
    if (p == NULL)
        return;
    if (p == c->current_portal)
        c->current_portal = NULL;
    srv_stmt_release(c, p->stmt);
    p->stmt = NULL;
    cm_arena_reset(&p->arena);
    p->rows.len = 0;
    cm_buf_shrink(&p->rows, 0);
    if (c->spare_portal == NULL)
        c->spare_portal = p;
    else
        srv__portal_destroy(p);
}

srv_portal_t *srv_portal_new(srv_conn_t *c)
{
    srv_portal_t *p = c->spare_portal;
    if (p != NULL) {
        c->spare_portal = NULL;
    } else {
        p = cm_calloc(1, sizeof *p);
        cm_arena_init(&p->arena, 1024);
        cm_buf_init(&p->rows, 0);
    }
    p->next = NULL;
    p->params = NULL;
    p->formats = NULL;
    p->nformats = 0;
    p->started = p->done = false;
    p->rows_off = 0;
    return p;
}

srv_portal_t *srv_portal_find(srv_conn_t *c, const char *name)
{
    if (name[0] == 0)
        return c->unnamed_portal;
    for (srv_portal_t *p = c->portals; p != NULL; p = p->next)
        if (strcmp(p->name, name) == 0)
            return p;
    return NULL;
}

void srv_portal_drop(srv_conn_t *c, const char *name)
{
    if (name[0] == 0) {
        srv_portal_free(c, c->unnamed_portal);
        c->unnamed_portal = NULL;
        return;
    }
    for (srv_portal_t **pp = &c->portals; *pp != NULL; pp = &(*pp)->next) {
        if (strcmp((*pp)->name, name) == 0) {
            srv_portal_t *p = *pp;
            *pp = p->next;
            srv_portal_free(c, p);
            return;
        }
    }
}

void srv_portal_drop_all(srv_conn_t *c)
{
    if (c->unnamed_portal != NULL && c->unnamed_portal != c->current_portal) {
        srv_portal_free(c, c->unnamed_portal);
        c->unnamed_portal = NULL;
    }
    for (srv_portal_t **pp = &c->portals; *pp != NULL;) {
        srv_portal_t *p = *pp;
        if (p == c->current_portal) {
            pp = &p->next;
            continue;
        }
        *pp = p->next;
        srv_portal_free(c, p);
    }
}

void srv_portal_free_all(srv_conn_t *c)
{
    c->current_portal = NULL;
    srv_portal_free(c, c->unnamed_portal);
    c->unnamed_portal = NULL;
    while (c->portals != NULL) {
        srv_portal_t *p = c->portals;
        c->portals = p->next;
        srv_portal_free(c, p);
    }
    if (c->spare_portal != NULL) {
        srv__portal_destroy(c->spare_portal);
        c->spare_portal = NULL;
    }
}
