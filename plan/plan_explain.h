/*
 * plan_explain.h: what the plan printer's two files share: plan_explain.c
 * writes the operators, plan_explain_expr.c the expressions inside them.
 */
#ifndef EDDY_PLAN_EXPLAIN_H
#define EDDY_PLAN_EXPLAIN_H

#include "plan/plan.h"

/* What printing a plan's expressions reads. */
typedef struct plan_explainer {
    cm_arena_t *arena;
    ty_ctx_t ctx;                 /* constants' text: settings and catalog hook (its err is not used) */
    int nsublinks;                /* the plan's subqueries, which "(subquery k)" names */
    const plan_sublink_t *sublinks;
} plan_explainer_t;

/* Expressions appended to o. */
void plan__explain_expr(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *e, bool top); /* top: no outer parentheses */
void plan__explain_list(const plan_explainer_t *x, cm_buf_t *o, ty_expr_t *const *es, int n);  /* e1, e2, ... */
void plan__explain_pred(const plan_explainer_t *x, cm_buf_t *o, const ty_expr_t *p, bool paren); /* conjuncts joined by AND */
void plan__explain_agg(const plan_explainer_t *x, cm_buf_t *o, const plan_agg_t *a);
void plan__explain_keys(cm_buf_t *o, const plan_sortkey_t *k, int n);                            /* #0 asc nulls_last, ... */

#endif
