/*
 * pln_opt.c: the optimizer, run on every bound and folded query plan
 * (what a query runs over constant rows in pln_exec.c and what EXPLAIN
 * prints, so the differential tests check that the passes keep results
 * right). The passes rewrite the tree of plan_rel_t; each keeps the root's
 * columns, their order and types:
 *
 *   pushdown   filters move down to the operators whose columns they read
 *              (pln_opt_pushdown.c); a filter over a product becomes a join
 *   equiv      equalities of inner joins become classes of equal columns,
 *              from which each join takes its keys and each input the
 *              constants (pln_opt_equiv.c)
 *   pushdown   again, for the filters equiv derived
 *   prune      columns no operator above reads are not computed, and
 *              projections that change nothing go (pln_opt_prune.c)
 *
 * They run before constant folding (pln_fold.c), so an expression that
 * pruning drops is never evaluated, as PostgreSQL never evaluates the
 * unused outputs of a subquery it pulls up (SELECT x FROM (SELECT 1 AS x,
 * 1/0) s answers 1).
 *
 * The expression helpers the passes share are the plan module's
 * (plan_expr.c). Every pass names each operator kind in a switch and treats a kind it
 * does not know as a wall: nothing moves through it and its inputs keep
 * all their columns, so a new kind is correct before a pass learns it.
 */
#include "planner/pln_opt.h"

#include <string.h>

void pln__optimize(pln_binder_t *b, plan_rel_t **root)
{
    plan_rel_t *r = *root;
    int ncols = r->ncols;
    ty_oid_t *types = cm_arena_alloc(b->arena, sizeof(ty_oid_t) * (size_t)(ncols ? ncols : 1));
    memcpy(types, r->types, sizeof(ty_oid_t) * (size_t)ncols);
    r = pln__opt_pushdown(b, r);
    r = pln__opt_equiv(b, r);
    r = pln__opt_pushdown(b, r);
    r = pln__opt_prune(b, r);
    /* The result's columns are the query's: a pass that changed them is a bug, not bad input. */
    CM_ASSERT(r->ncols == ncols && memcmp(r->types, types, sizeof(ty_oid_t) * (size_t)ncols) == 0);
    *root = r;
}

/* ============================================================ filters */

plan_rel_t *pln__filter_over(pln_binder_t *b, plan_rel_t *r, ty_expr_t *const *es, int n)
{
    if (n == 0)
        return r;
    plan_rel_t *f = pln__rel_new(b, PLAN_REL_FILTER, r, r->ncols);
    memcpy(f->types, r->types, sizeof(ty_oid_t) * (size_t)r->ncols);
    f->pred = plan_conj_and(b->arena, es, n);
    return f;
}
