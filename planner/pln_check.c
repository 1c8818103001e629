/*
 * pln_check.c: CHECK constraints of CREATE TABLE, validated and named as
 * PostgreSQL's AddRelationNewConstraints does. The condition is bound over
 * the new table's own columns (the table's name may qualify them), must be
 * boolean (42804), and may not use subqueries (0A000), aggregates (42803),
 * window functions (42P20) or parameters (42P02). An unnamed constraint is
 * named <table>_<column>_check when it reads exactly one column, else
 * <table>_check, with 1, 2, ... appended to the label until the name is free
 * among the table's constraints; a name given twice is 42710. The names are
 * written into the stored CREATE TABLE, so SHOW CREATE TABLE shows them.
 *
 * Nothing checks rows yet: tables hold none before the dataflow engine.
 * (PostgreSQL also keeps constraint names unique per schema when it chooses
 * one; eddy keeps constraints inside the table's definition and only
 * avoids the table's own names.)
 */
#include "planner/pln_internal.h"

#include <string.h>

#define CHECK_NAME_MAX SQL_NAME_LEN_MAX

/* Distinct columns a bound expression reads: how many, and the first one's index. */
static void columns_read(const ty_expr_t *e, int *n, int *first, bool *seen, int ncols)
{
    if (e->kind == TY_EXPR_COLUMN && e->index >= 0 && e->index < ncols && !seen[e->index]) {
        seen[e->index] = true;
        if ((*n)++ == 0)
            *first = e->index;
    }
    for (int i = 0; i < e->nargs; i++)
        if (e->args[i])
            columns_read(e->args[i], n, first, seen, ncols);
}

/* PostgreSQL's makeObjectName: name1_name2_label, the longer of name1/name2 cut first to fit. */
const char *pln__object_name(cm_arena_t *a, const char *name1, const char *name2, const char *label)
{
    size_t l1 = strlen(name1), l2 = name2 ? strlen(name2) : 0;
    size_t overhead = strlen(label) + 1 + (name2 ? 1 : 0);
    while (l1 + l2 + overhead > CHECK_NAME_MAX) {
        if (l1 > l2)
            l1--;
        else
            l2--;
    }
    return name2 ? cm_arena_printf(a, "%.*s_%.*s_%s", (int)l1, name1, (int)l2, name2, label)
                 : cm_arena_printf(a, "%.*s_%s", (int)l1, name1, label);
}

typedef struct names {
    const char **v;
    int n;
} names_t;

static bool used(const names_t *u, const char *name)
{
    for (int i = 0; i < u->n; i++)
        if (strcmp(u->v[i], name) == 0)
            return true;
    return false;
}

/* A copy of a condition whose column references written t.a become a: the stored condition must
 * survive a rename of the table. Copied, never changed in place: the statement's tree is planned
 * again when a commit loses a race, and this arena does not outlive one plan. */
static sql_expr_t *unqualified(cm_arena_t *a, const sql_expr_t *e)
{
    if (!e)
        return NULL;
    sql_expr_t *c = cm_arena_alloc(a, sizeof(*c));
    *c = *e;
    if (e->kind == SQL_EXPR_COLUMN && !e->star && e->names->count > 1) {
        sql_list_t *l = cm_arena_zalloc(a, sizeof(*l));
        l->items = cm_arena_alloc(a, sizeof(void *));
        l->items[0] = e->names->items[e->names->count - 1];
        l->count = l->cap = 1;
        c->names = l;
    }
    c->arg = unqualified(a, e->arg);
    c->left = unqualified(a, e->left);
    c->right = unqualified(a, e->right);
    c->def = unqualified(a, e->def);
    if (e->kind != SQL_EXPR_SUBQUERY && sql_list_len(e->args) > 0) {
        sql_list_t *l = cm_arena_zalloc(a, sizeof(*l));
        *l = *e->args;
        l->items = cm_arena_alloc(a, sizeof(void *) * (size_t)e->args->count);
        for (int i = 0; i < e->args->count; i++)
            l->items[i] = unqualified(a, e->args->items[i]);
        c->args = l;
    }
    return c;
}

/* Where PostgreSQL's exprLocation puts an expression: its leftmost part (a + 1: at a). */
int pln__leftmost(const sql_expr_t *e)
{
    int p = e->pos;
    const sql_expr_t *kids[4] = {e->arg, e->left, e->right, e->def};
    for (int i = 0; i < 4; i++)
        if (kids[i]) {
            int k = pln__leftmost(kids[i]);
            if (k >= 0 && (p < 0 || k < p))
                p = k;
        }
    for (int i = 0; e->kind != SQL_EXPR_SUBQUERY && i < sql_list_len(e->args); i++) {
        int k = pln__leftmost(e->args->items[i]);
        if (k >= 0 && (p < 0 || k < p))
            p = k;
    }
    return p;
}

/* Validates one CHECK and returns a named copy of it (NULL: error set). */
static sql_constraint_t *check_one(pln_binder_t *b, const char *relname, pln_scope_t *scope, uint32_t ncols,
                                   const sql_constraint_t *con, const cat_column_t *cols, names_t *u)
{
    pln_scope_t *saved = b->scope;
    b->scope = scope;
    b->aggs = NULL;
    b->agg_forbidden = "check constraints";
    b->win_forbidden = NULL;
    b->sublink_forbidden = "check constraint";
    b->params_forbidden = true;
    ty_expr_t *x = pln__bind_expr(b, con->expr);
    b->scope = saved;
    b->sublink_forbidden = NULL;
    b->params_forbidden = false;
    if (!x)
        return NULL;
    if (x->type != TY_BOOL && x->type != TY_UNKNOWN && !pln__can_coerce(x->type, TY_BOOL, PLN_CC_ASSIGNMENT)) {
        pln__error(b, pln__leftmost(con->expr), CM_ERRCODE_DATATYPE_MISMATCH, "argument of CHECK must be type boolean, not type %s",
                   pln__type_name(b, x->type));
        return NULL;
    }
    /* Literals convert now, as PostgreSQL's parse analysis does: CHECK (a > 'x') is 22P02 at 'x'. */
    if (!pln__coerce(b, x, TY_BOOL, -1, PLN_CC_ASSIGNMENT, con->expr->pos) || !pln__fold_literals(b))
        return NULL;
    sql_constraint_t *c = cm_arena_alloc(b->arena, sizeof(*c));
    *c = *con;
    c->expr = unqualified(b->arena, con->expr);
    if (con->name) {
        if (used(u, con->name)) {
            pln__error(b, -1, "42710", "check constraint \"%s\" already exists", con->name);
            return NULL;
        }
    } else {
        bool *seen = cm_arena_zalloc(b->arena, ncols ? ncols : 1);
        int n = 0, first = -1;
        columns_read(x, &n, &first, seen, (int)ncols);
        const char *col = n == 1 ? cols[first].name : NULL;
        for (int pass = 0;; pass++) {
            const char *label = pass ? cm_arena_printf(b->arena, "check%d", pass) : "check";
            const char *name = pln__object_name(b->arena, relname, col, label);
            if (!used(u, name)) {
                c->name = name;
                break;
            }
        }
    }
    u->v[u->n++] = c->name;
    return c;
}

bool pln__check_constraints(pln_binder_t *b, const char *relname, const cat_column_t *cols, uint32_t ncols,
                            sql_create_table_t *norm)
{
    int total = 0;
    for (int i = 0; i < sql_list_len(norm->columns); i++)
        total += sql_list_len(((const sql_column_def_t *)norm->columns->items[i])->constraints);
    total += sql_list_len(norm->constraints);
    if (total == 0)
        return true;
    names_t u = {.v = cm_arena_alloc(b->arena, sizeof(char *) * (size_t)total)};
    plan_column_t *pc = cm_arena_alloc(b->arena, sizeof(plan_column_t) * (ncols ? ncols : 1));
    for (uint32_t i = 0; i < ncols; i++)
        pc[i] = (plan_column_t){.name = cols[i].name, .type = cols[i].type, .typmod = cols[i].typmod};
    pln_rte_t rte = {.alias = relname, .ncols = (int)ncols, .cols = pc};
    pln_scope_t scope = {.nrtes = 1, .rtes = &rte, .ncols = (int)ncols};
    /* Column constraints first, then the table's, as PostgreSQL names them. */
    int ncd = sql_list_len(norm->columns);
    if (ncd) {
        sql_list_t *defs = cm_arena_zalloc(b->arena, sizeof(*defs));
        *defs = *norm->columns;
        defs->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)ncd);
        for (int i = 0; i < ncd; i++) {
            const sql_column_def_t *cd = norm->columns->items[i];
            sql_column_def_t *ncdef = cm_arena_alloc(b->arena, sizeof(*ncdef));
            *ncdef = *cd;
            int k = sql_list_len(cd->constraints);
            if (k) {
                sql_list_t *cl = cm_arena_zalloc(b->arena, sizeof(*cl));
                *cl = *cd->constraints;
                cl->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)k);
                for (int j = 0; j < k; j++) {
                    const sql_constraint_t *con = cd->constraints->items[j];
                    cl->items[j] = con->kind == SQL_CONSTR_CHECK
                                       ? (void *)check_one(b, relname, &scope, ncols, con, cols, &u)
                                       : (void *)con;
                    if (!cl->items[j])
                        return false;
                }
                ncdef->constraints = cl;
            }
            defs->items[i] = ncdef;
        }
        norm->columns = defs;
    }
    int nt = sql_list_len(norm->constraints);
    if (nt) {
        sql_list_t *tl = cm_arena_zalloc(b->arena, sizeof(*tl));
        *tl = *norm->constraints;
        tl->items = cm_arena_alloc(b->arena, sizeof(void *) * (size_t)nt);
        for (int j = 0; j < nt; j++) {
            const sql_constraint_t *con = norm->constraints->items[j];
            tl->items[j] = con->kind == SQL_CONSTR_CHECK ? (void *)check_one(b, relname, &scope, ncols, con, cols, &u)
                                                         : (void *)con;
            if (!tl->items[j])
                return false;
        }
        norm->constraints = tl;
    }
    return true;
}
