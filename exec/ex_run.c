/*
 * ex_run.c: the executor's entry point (exec.h): one execution of a plan.
 * Literal conversions left for run time are checked first, so a bad
 * literal is reported at its position as PostgreSQL does at parse time;
 * then the root's rows go to the caller one at a time.
 */
#include "exec/ex_int.h"

#include <string.h>

int ex__char_pos(const char *sql, int byte_pos)
{
    if (byte_pos < 0 || !sql)
        return 0;
    size_t len = strlen(sql);
    return cm_utf8_chars(sql, (size_t)byte_pos > len ? len : (size_t)byte_pos) + 1;
}

bool ex_run(const plan_t *q, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg)
{
    return ex_run_reading(q, sql, params, ctx, NULL, NULL, cb, arg);
}

bool ex_run_reading(const plan_t *q, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx, ex_get_fn get,
                    void *get_arg, ex_row_cb cb, void *arg)
{
    ex_exec_t x = {.ctx = ctx, .sql = sql, .params = params, .q = q, .get = get, .get_arg = get_arg};
    for (int i = 0; i < q->nlits; i++) {
        ty_datum_t d;
        if (!ex__eval(&x, q->lits[i], NULL, &d)) {
            if (ctx->err->position == 0 && q->lits[i]->location >= 0)
                ctx->err->position = ex__char_pos(sql, q->lits[i]->location);
            return false;
        }
    }
    if (q->nsublinks) {
        size_t n = (size_t)q->nsublinks;
        x.sub_done = cm_arena_zalloc(ctx->arena, sizeof(bool) * n);
        x.sub_value = cm_arena_zalloc(ctx->arena, sizeof(ty_expr_t *) * n);
        x.sub_rows = cm_arena_zalloc(ctx->arena, sizeof(ty_datum_t *) * n);
        x.sub_nrows = cm_arena_zalloc(ctx->arena, sizeof(int) * n);
    }
    ex_iter_t *root = ex__iter_new(&x, q->root);
    for (;;) {
        ty_datum_t *r;
        if (!ex__iter_next(&x, root, &r))
            return false;
        if (!r)
            return true;
        if (!cb(arg, r, q->ncols))
            return false;
    }
}
