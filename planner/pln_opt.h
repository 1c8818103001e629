/*
 * pln_opt.h: what the optimizer's passes share (pln_opt.c runs them):
 * lists of conjuncts, the columns an expression reads, and expressions
 * rewritten over other columns. Rewrites copy the nodes they change and
 * share the rest, since the binder lets several trees hold one node.
 */
#ifndef EDDY_PLN_OPT_H
#define EDDY_PLN_OPT_H

#include "planner/pln_internal.h"

/* A list of conjuncts (predicates joined by AND), in evaluation order. */
typedef struct pln_conj {
    int n, cap;
    ty_expr_t **e;
} pln_conj_t;

void pln__conj_add(cm_arena_t *a, pln_conj_t *l, ty_expr_t *e);
/* Adds the conjuncts of p (nested ANDs flattened, NULL adds none). */
void pln__conj_split(cm_arena_t *a, pln_conj_t *l, ty_expr_t *p);
/* The conjuncts as one predicate (NULL when there are none). */
ty_expr_t *pln__conj_and(cm_arena_t *a, ty_expr_t *const *es, int n);
/* r under a Filter of the conjuncts, or r itself when there are none. */
plan_rel_t *pln__filter_over(pln_binder_t *b, plan_rel_t *r, ty_expr_t *const *es, int n);

/* The lowest and highest column e reads (lo > hi: none). */
void pln__expr_cols(const ty_expr_t *e, int *lo, int *hi);
/* Marks used[i] for each column i that e reads. */
void pln__expr_mark(const ty_expr_t *e, bool *used);
/* Calls random(), clock_timestamp(), pg_sleep() ...: never moved, duplicated or dropped. */
bool pln__expr_volatile(const ty_expr_t *e);
/* e with column i read as column map[i]. */
ty_expr_t *pln__expr_remap(cm_arena_t *a, ty_expr_t *e, const int *map);
/* e with column i read as column i + delta. */
ty_expr_t *pln__expr_shift(cm_arena_t *a, ty_expr_t *e, int delta);
/* e with column i replaced by the expression with[i]. */
ty_expr_t *pln__expr_subst(cm_arena_t *a, ty_expr_t *e, ty_expr_t *const *with);
ty_expr_t *pln__expr_column(cm_arena_t *a, int index, ty_oid_t type);
/* a = b where both are columns of one type compared by that type's "=": *l and *r are their indexes. */
bool pln__expr_col_eq(const ty_expr_t *e, int *l, int *r);
/* column = constant (either way round, the constant not NULL) of one type's "=". */
bool pln__expr_col_const(const ty_expr_t *e, int *col, ty_expr_t **value);
/* l = r with the given "=" operator. */
ty_expr_t *pln__expr_eq(cm_arena_t *a, const ty_func_t *eq, ty_expr_t *l, ty_expr_t *r);

/* The passes, each over a whole plan; the root keeps its columns. */
plan_rel_t *pln__opt_pushdown(pln_binder_t *b, plan_rel_t *r);
plan_rel_t *pln__opt_prune(pln_binder_t *b, plan_rel_t *r);
plan_rel_t *pln__opt_equiv(pln_binder_t *b, plan_rel_t *r);

#endif
