/*
 * pln_srf.c: functions in FROM and set-returning functions in the select list
 * (FLATMAP). Not planned yet: the executor refuses the operator.
 */
#include "planner/pln_internal.h"

#include <string.h>

bool pln__flatmap_next(pln_exec_t *x, const pln_rel_t *rel, pln_iter_t *in, void **state, ty_datum_t **row)
{
    *row = NULL;
    return cm_err_set(x->ctx->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "functions in FROM are not supported yet");
}
