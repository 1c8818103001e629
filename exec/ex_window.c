/*
 * ex_window.c: runs one WINDOW operator over all of its input's rows with
 * plan_window.c's kernel (the one a materialized view's df_op_window.c
 * runs per partition), its expressions instantiated (subqueries replaced)
 * for this execution.
 */
#include "exec/ex_int.h"

static ty_expr_t *ex__window_inst(void *x, ty_expr_t *e)
{
    return ex__instantiate(x, e);
}

bool ex__window_run(ex_exec_t *x, const plan_rel_t *rel, ty_datum_t **in, int n, ty_datum_t ***out)
{
    plan_window_exprs_t e;
    return plan_window_exprs(rel->window, x->ctx->arena, ex__window_inst, x, &e) &&
           plan_window_run(rel, &e, in, n, x->params, x->ctx, out);
}
