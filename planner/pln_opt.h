/*
 * pln_opt.h: what the optimizer's passes share (pln_opt.c runs them). The
 * helpers over expressions and conjuncts they use are the plan module's
 * (plan_conj_*, plan_expr_* in plan.h), which the plan printer shares.
 */
#ifndef EDDY_PLN_OPT_H
#define EDDY_PLN_OPT_H

#include "planner/pln_internal.h"

/* r under a Filter of the conjuncts, or r itself when there are none. */
plan_rel_t *pln__filter_over(pln_binder_t *b, plan_rel_t *r, ty_expr_t *const *es, int n);

/* The passes, each over a whole plan; the root keeps its columns. */
plan_rel_t *pln__opt_pushdown(pln_binder_t *b, plan_rel_t *r);
plan_rel_t *pln__opt_prune(pln_binder_t *b, plan_rel_t *r);
plan_rel_t *pln__opt_equiv(pln_binder_t *b, plan_rel_t *r);

#endif
