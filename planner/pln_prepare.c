/*
 * pln_prepare.c: SQL-level prepared statements, PREPARE, EXECUTE and
 * DEALLOCATE, on the planner's side. Binding one of them only records its
 * name and syntax, because PostgreSQL analyses the statement a PREPARE
 * names, and the arguments of an EXECUTE, when the command runs (a PREPARE
 * sent through Parse describes as a command without parameters; its errors
 * surface at Execute). The server then calls pln_prepare_bind or
 * pln_execute_params, which follow PostgreSQL's PrepareQuery and
 * EvaluateParams.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__bind_sqlprep(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st)
{
    (void)b;
    st->prep_name = s->prepare->name;
    st->prep_src = s;
    switch (s->kind) {
    case SQL_STMT_PREPARE:
        st->kind = PLN_PREPARE;
        st->tag = "PREPARE";
        return true;
    case SQL_STMT_EXECUTE:
        st->kind = PLN_EXECUTE;
        /* The tag when the prepared statement leaves none (an empty one), as in PostgreSQL. */
        st->tag = "EXECUTE";
        return true;
    case SQL_STMT_DEALLOCATE:
        st->kind = PLN_DEALLOCATE;
        st->tag = st->prep_name != NULL ? "DEALLOCATE" : "DEALLOCATE ALL";
        return true;
    default:
        return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "not a prepared-statement command: %d", (int)s->kind);
    }
}

int pln_prepare_offset(const pln_stmt_t *prepare)
{
    CM_ASSERT(prepare->kind == PLN_PREPARE && prepare->prep_src != NULL);
    return prepare->prep_src->pos;
}

/* Moves a position counted in `text` (which starts at byte `off` of sql) to one counted in sql. */
static bool shift_position(cm_err_t *err, const char *sql, int off)
{
    if (err->set && err->position > 0)
        err->position += sql_char_position(sql, (size_t)off, off) - 1;
    return false;
}

bool pln_prepare_bind(cm_arena_t *arena, const pln_stmt_t *prepare, const char *sql, const ty_settings_t *settings,
                      const pln_catalog_t *cat, pln_stmt_t **out, const char **text, size_t *text_len, cm_err_t *err)
{
    CM_ASSERT(prepare->kind == PLN_PREPARE && prepare->prep_src != NULL);
    /*
     * The statement is parsed again from its own text in the arena that will
     * keep it: the plan may point into its syntax tree, and the tree at hand
     * lives in the arena of the command that runs the PREPARE.
     */
    const sql_stmt_t *src = prepare->prep_src;
    int off = src->pos;
    size_t len = (size_t)src->len;
    char *copy = cm_arena_strndup(arena, sql + off, len);
    sql_stmt_list_t list;
    if (!sql_parse(arena, copy, len, &list, err))
        return shift_position(err, sql, off);
    if (list.count != 1 || list.items[0]->kind != SQL_STMT_PREPARE)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "PREPARE did not parse again as itself");
    const sql_prepare_t *p = list.items[0]->prepare;

    /* Declared types as PostgreSQL takes them: the type alone, any typmod dropped. */
    int ndeclared = sql_list_len(p->types);
    ty_oid_t *declared = NULL;
    if (ndeclared > 0) {
        pln_binder_t b = {.arena = arena, .sql = copy, .sql_len = len, .err = err};
        declared = cm_arena_zalloc(arena, sizeof(*declared) * (size_t)ndeclared);
        for (int i = 0; i < ndeclared; i++) {
            int32_t typmod;
            if (!pln__resolve_typename(&b, p->types->items[i], &declared[i], &typmod))
                return shift_position(err, sql, off);
        }
    }
    pln_raw_t raw = {.stmt = p->stmt, .offset = 0, .length = (int)len};
    if (!pln_bind_catalog(arena, &raw, copy, declared, ndeclared, settings, cat, true, out, err)) {
        /* PrepareQuery checks that every parameter got a type after analysis, with no position. */
        if (strcmp(err->sqlstate, CM_ERRCODE_INDETERMINATE_DATATYPE) == 0)
            err->position = 0;
        return shift_position(err, sql, off);
    }
    *text = copy;
    *text_len = len;
    return true;
}

bool pln_execute_params(const pln_stmt_t *execute, const char *sql, const ty_oid_t *types, int ntypes,
                        ty_ctx_t *ctx, ty_datum_t **out)
{
    CM_ASSERT(execute->kind == PLN_EXECUTE && execute->prep_src != NULL);
    const sql_list_t *args = execute->prep_src->prepare->args;
    int nargs = sql_list_len(args);
    *out = NULL;
    if (ntypes == 0)
        return true;
    if (nargs != ntypes) {
        cm_err_set(ctx->err, CM_ERRCODE_SYNTAX_ERROR, "wrong number of parameters for prepared statement \"%s\"",
                   execute->prep_name);
        cm_err_set_detail(ctx->err, "Expected %d parameters but got %d.", ntypes, nargs);
        return false;
    }
    /* The arguments are expressions over nothing: no FROM, no $n, no subqueries, no aggregates. */
    pln_binder_t b = {.arena = ctx->arena, .sql = sql, .sql_len = strlen(sql), .err = ctx->err,
                      .settings_known = true, .params_forbidden = true,
                      .sublink_forbidden = "EXECUTE parameter", .agg_forbidden = "EXECUTE parameters"};
    b.settings = *ctx->settings;
    b.ctx.arena = ctx->arena;
    b.ctx.settings = &b.settings;
    b.ctx.err = ctx->err;
    ty_expr_t **es = cm_arena_zalloc(ctx->arena, sizeof(*es) * (size_t)nargs);
    for (int i = 0; i < nargs; i++) {
        const sql_expr_t *a = args->items[i];
        ty_expr_t *e = pln__bind_expr(&b, a);
        if (e == NULL)
            return false;
        /* Assignment rules, the parameter's type without a typmod, as EvaluateParams coerces. */
        if (!pln__can_coerce(e->type, types[i], PLN_CC_ASSIGNMENT)) {
            pln__error(&b, e->location >= 0 ? e->location : a->pos, CM_ERRCODE_DATATYPE_MISMATCH,
                       "parameter $%d of type %s cannot be coerced to the expected type %s", i + 1,
                       pln__type_name(&b, e->type), pln__type_name(&b, types[i]));
            cm_err_set_hint(ctx->err, "You will need to rewrite or cast the expression.");
            return false;
        }
        e = pln__coerce(&b, e, types[i], -1, PLN_CC_ASSIGNMENT, -1);
        /* Literals convert as they are analysed, each error at its literal, before the next argument. */
        if (e == NULL || !pln__fold_literals(&b))
            return false;
        es[i] = e;
    }
    /* Then every value is computed, as the executor does once they are all analysed. */
    ty_datum_t *vals = cm_arena_zalloc(ctx->arena, sizeof(*vals) * (size_t)nargs);
    for (int i = 0; i < nargs; i++)
        if (!ty_expr_eval(es[i], ctx, NULL, NULL, &vals[i]))
            return false;
    *out = vals;
    return true;
}
