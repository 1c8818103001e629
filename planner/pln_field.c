/*
 * pln_field.c: field selection from records, (expr).name, and the row types
 * that let the binder find the field (pln_internal.h).
 *
 * PostgreSQL knows the columns of an anonymous record while it analyses a
 * query: ROW(a, b) has columns f1, f2, and a set-returning function's
 * record has its OUT parameters (information_schema._pg_expandarray: x, n),
 * which it registers and names by the record's typmod. eddy does the same
 * within one statement: the typmod of a TY_RECORD expression is the index
 * of its row type in the binder, and typmods travel with columns through
 * subqueries and WITH queries, so that drivers' catalog queries such as
 * pgJDBC's getPrimaryKeys, `(result.KEYS).x` over a subquery's
 * `_pg_expandarray(i.indkey) AS KEYS`, bind. The index means nothing
 * outside the statement: result columns show record's typmod as -1, as
 * PostgreSQL's RowDescription does, and no view or table has a record
 * column (42P16, pln_ddl.c).
 */
#include "planner/pln_internal.h"

#include <stdio.h>
#include <string.h>

int32_t pln__rowtype(pln_binder_t *b, int ncols, const char *const *names, const ty_oid_t *types,
                     const int32_t *typmods)
{
    for (int i = 0; i < b->nrowtypes; i++) {
        const pln_rowtype_t *r = &b->rowtypes[i];
        bool same = r->ncols == ncols;
        for (int k = 0; k < ncols && same; k++)
            same = r->types[k] == types[k] && r->typmods[k] == (typmods ? typmods[k] : -1) &&
                   strcmp(r->names[k], names[k]) == 0;
        if (same)
            return i;
    }
    if (b->nrowtypes == b->rowtypes_cap) {
        int cap = b->rowtypes_cap ? 2 * b->rowtypes_cap : 4;
        pln_rowtype_t *n = cm_arena_alloc(b->arena, sizeof(*n) * (size_t)cap);
        if (b->nrowtypes)
            memcpy(n, b->rowtypes, sizeof(*n) * (size_t)b->nrowtypes);
        b->rowtypes = n;
        b->rowtypes_cap = cap;
    }
    pln_rowtype_t *r = &b->rowtypes[b->nrowtypes];
    size_t n = (size_t)(ncols ? ncols : 1);
    r->ncols = ncols;
    r->names = cm_arena_alloc(b->arena, sizeof(*r->names) * n);
    r->types = cm_arena_alloc(b->arena, sizeof(*r->types) * n);
    r->typmods = cm_arena_alloc(b->arena, sizeof(*r->typmods) * n);
    for (int k = 0; k < ncols; k++) {
        r->names[k] = names[k];
        r->types[k] = types[k];
        r->typmods[k] = typmods ? typmods[k] : -1;
    }
    return b->nrowtypes++;
}

int32_t pln__typmod_out(ty_oid_t type, int32_t typmod)
{
    return type == TY_RECORD ? -1 : typmod;
}

ty_expr_t *pln__bind_field(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t *arg = pln__bind_expr(b, e->arg);
    if (!arg)
        return NULL;
    if (arg->type != TY_RECORD) {
        pln__error(b, e->pos, "42809", "column notation .%s applied to type %s, which is not a composite type",
                   e->str, pln__type_name(b, arg->type));
        return NULL;
    }
    const pln_rowtype_t *rt = arg->typmod >= 0 && arg->typmod < b->nrowtypes ? &b->rowtypes[arg->typmod] : NULL;
    if (arg->kind == TY_EXPR_ROW && rt == NULL && e->arg->kind == SQL_EXPR_ROW) {
        /* A ROW(a, b) written right there has columns f1, f2 (PostgreSQL's RowExpr colnames;
         * a row that is itself a field of one has none), and a field of it is that
         * expression, as PostgreSQL simplifies it. */
        for (int i = 0; i < arg->nargs; i++) {
            char name[16];
            snprintf(name, sizeof name, "f%d", i + 1);
            if (strcmp(name, e->str) == 0)
                return arg->args[i];
        }
        pln__error(b, e->pos, "42703", "could not identify column \"%s\" in record data type", e->str);
        return NULL;
    }
    int k = -1;
    for (int i = 0; rt && i < rt->ncols && k < 0; i++)
        if (strcmp(rt->names[i], e->str) == 0)
            k = i;
    if (k < 0) {
        pln__error(b, e->pos, "42703", "could not identify column \"%s\" in record data type", e->str);
        return NULL;
    }
    if (arg->kind == TY_EXPR_ROW)
        return arg->args[k];   /* a field of ROW(...) is its expression, as PostgreSQL simplifies it */
    ty_expr_t *f = ty_expr_new(b->arena, TY_EXPR_FIELD, rt->types[k], 1);
    f->typmod = rt->typmods[k];
    f->index = k;
    f->args[0] = arg;
    f->location = e->pos;
    f->value.v.s.p = e->str;   /* the name, for EXPLAIN */
    f->value.v.s.len = strlen(e->str);
    return f;
}
