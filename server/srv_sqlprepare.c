/*
 * srv_sqlprepare.c: SQL-level prepared statements (PREPARE, EXECUTE,
 * DEALLOCATE) as PostgreSQL 15 runs them. They live in the same list as
 * the named statements of the extended protocol because PostgreSQL keeps
 * both in one table: a Parse named "p" and PREPARE p collide, EXECUTE runs
 * either, and Close, DEALLOCATE and DISCARD ALL drop either.
 *
 * An EXECUTE statement describes with the columns of the statement it
 * names; PostgreSQL takes them when the EXECUTE is parsed and again when
 * it is bound, so a Bind picks up a PREPARE made again in between.
 */
#include "server/srv_int.h"

#include <string.h>

/* EXECUTE of a statement that is an EXECUTE: PostgreSQL recurses until its stack runs out. */
#define SRV_SQLPREP_DEPTH_MAX 100

bool srv_sqlprep_prepare(srv_conn_t *c, const pln_stmt_t *st, const char *sql, cm_err_t *err)
{
    srv_stmt_t *ps = srv_stmt_new(c);
    pln_stmt_t *plan;
    const char *text;
    size_t len;
    /* As PrepareQuery: the statement is analysed first, the name checked when it is stored. */
    if (!pln_prepare_bind(&ps->arena, st, sql, &c->sess.settings, srv_catalog_for(c), &plan, &text, &len, err)) {
        srv_stmt_release(c, ps);
        return false;
    }
    if (srv_stmt_find(c, st->prep_name) != NULL) {
        srv_stmt_release(c, ps);
        return cm_err_set(err, CM_ERRCODE_DUPLICATE_PREPARED_STATEMENT, "prepared statement \"%s\" already exists",
                          st->prep_name);
    }
    ps->name = cm_arena_strdup(&ps->arena, st->prep_name);
    ps->sql = text;
    ps->sql_len = len;
    ps->settings_gen = c->sess.settings_gen;
    ps->plan = plan;
    srv_stmt_ready(c, ps);
    /* PostgreSQL shows the whole query string the PREPARE came in. */
    srv_prepstmt_made(ps, sql, strlen(sql), true);
    ps->source_off = pln_prepare_offset(st);
    ps->next = c->stmts;
    c->stmts = ps;
    return true;
}

static bool srv__missing(const char *name, cm_err_t *err)
{
    return cm_err_set(err, CM_ERRCODE_INVALID_SQL_STATEMENT_NAME, "prepared statement \"%s\" does not exist", name);
}

bool srv_sqlprep_deallocate(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err)
{
    if (st->prep_name == NULL) {
        srv_sqlprep_drop_all(c);
        return true;
    }
    if (srv_stmt_find(c, st->prep_name) == NULL)
        return srv__missing(st->prep_name, err);
    srv_stmt_drop(c, st->prep_name);
    return true;
}

void srv_sqlprep_drop_all(srv_conn_t *c)
{
    /* A statement a portal still runs stays alive through the portal's reference. */
    while (c->stmts != NULL) {
        srv_stmt_t *s = c->stmts;
        c->stmts = s->next;
        srv_stmt_release(c, s);
    }
}

/* The named statement, unless the name is the unnamed statement's (SQL cannot spell it). */
static srv_stmt_t *srv__find(srv_conn_t *c, const char *name)
{
    return name != NULL && name[0] != 0 ? srv_stmt_find(c, name) : NULL;
}

void srv_sqlprep_cols(srv_conn_t *c, const pln_stmt_t *st, cm_arena_t *a, srv_cols_t *out)
{
    const srv_stmt_t *t = srv__find(c, st->prep_name);
    if (t == NULL || !t->cols.rows)
        return;
    /* A copy: the prepared statement may be dropped while this one lives. */
    const srv_cols_t *from = &t->cols;
    out->n = from->n;
    out->rows = true;
    out->fields = cm_arena_zalloc(a, sizeof *out->fields * (size_t)(from->n + 1));
    out->types = cm_arena_zalloc(a, sizeof *out->types * (size_t)(from->n + 1));
    for (int i = 0; i < from->n; i++) {
        out->fields[i] = from->fields[i];
        out->fields[i].name = cm_arena_strdup(a, from->fields[i].name);
        out->types[i] = from->types[i];
    }
}

static bool srv__cols_same(const srv_cols_t *x, const srv_cols_t *y)
{
    if (x->rows != y->rows || x->n != y->n)
        return false;
    for (int i = 0; i < x->n; i++)
        if (x->types[i] != y->types[i] || x->fields[i].typmod != y->fields[i].typmod ||
            strcmp(x->fields[i].name, y->fields[i].name) != 0)
            return false;
    return true;
}

void srv_sqlprep_bind(srv_conn_t *c, srv_stmt_t *st)
{
    if (st->plan != NULL && st->plan->kind == PLN_FETCH) {
        /* FETCH's columns are its cursor's, which may have been declared again since. */
        cm_arena_t a;
        cm_arena_init(&a, 0);
        srv_cols_t now = {0};
        srv_cols_build(c, st->plan, &a, &now);
        bool same = srv__cols_same(&st->cols, &now);
        cm_arena_free(&a);
        if (!same) {
            srv_cols_build(c, st->plan, &st->arena, &st->cols);
            st->rowdesc_valid = false;
        }
        return;
    }
    if (st->plan == NULL || st->plan->kind != PLN_EXECUTE)
        return;
    /* A statement that is gone leaves no columns: the portal has NoData and Execute fails. */
    const srv_stmt_t *t = srv__find(c, st->plan->prep_name);
    if (t != NULL ? srv__cols_same(&st->cols, &t->cols) : !st->cols.rows)
        return;
    /* Rare (a PREPARE made again), so the arena keeping the old columns does not matter. */
    srv_cols_build(c, st->plan, &st->arena, &st->cols);
    st->rowdesc_valid = false;
}

bool srv_sqlprep_describe(srv_conn_t *c, const srv_stmt_t *st, cm_err_t *err)
{
    if (st->plan == NULL || st->plan->kind != PLN_EXECUTE || !st->cols.rows)
        return true;
    /* PostgreSQL reads the columns from the prepared statement again, and fails if it is gone. */
    return srv__find(c, st->plan->prep_name) != NULL || srv__missing(st->plan->prep_name, err);
}

srv_stmt_t *srv_sqlprep_execute_begin(srv_conn_t *c, const pln_stmt_t *st, const char *sql,
                                      const srv_cols_t *described, ty_ctx_t *ctx, const ty_datum_t **params)
{
    srv_stmt_t *t = srv__find(c, st->prep_name);
    if (t == NULL)
        return srv__missing(st->prep_name, ctx->err), NULL;
    const srv_stmt_t *next = t;
    for (int depth = 0; next != NULL && next->plan != NULL && next->plan->kind == PLN_EXECUTE; depth++) {
        if (depth >= SRV_SQLPREP_DEPTH_MAX) {
            cm_err_set(ctx->err, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
            cm_err_set_hint(ctx->err, "Increase the configuration parameter \"max_stack_depth\" (currently 2048kB), "
                                      "after ensuring the platform's stack depth limit is adequate.");
            return NULL;
        }
        next = srv__find(c, next->plan->prep_name);
    }
    if (!srv_stmt_revalidate(c, t, ctx->err))
        return NULL;
    ty_datum_t *values = NULL;
    int n = t->plan != NULL ? t->plan->nparams : 0;
    if (!pln_execute_params(st, sql, n > 0 ? t->plan->param_types : NULL, n, ctx, &values))
        return NULL;
    /* Planning comes after the parameters, so a constant that failed to fold fails now. */
    if (t->plan != NULL && !pln_plan_error_raise(t->plan, ctx->err))
        return NULL;
    /* Then the executor checks the privileges of whoever runs it now (SET ROLE since PREPARE). */
    if (!pln_check_privileges(t->plan, srv_catalog_for(c), ctx->err))
        return NULL;
    if (described != NULL && !srv__cols_same(described, &t->cols))
        return cm_err_set(ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "cached plan must not change result type"),
               NULL;
    *params = values;
    srv_prepstmt_planned(t);
    t->refs++;
    return t;
}
