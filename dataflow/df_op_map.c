/*
 * df_op_map.c: the operators that act on each row of a delta alone
 * (DESIGN §6): FILTER keeps a row (with its diff) where the predicate is
 * true, PROJECT evaluates its expressions over it, and VALUES produces its
 * constant rows once, when the view is installed. Nothing is kept between
 * steps. A row whose evaluation fails (1/0, overflow) becomes an error of
 * the view with the row's diff, so retracting the row clears it again.
 */
#include "dataflow/df_flow.h"

#include <string.h>

bool df__op_map(df_step_t *s, df_node_t *n)
{
    const df_batch_t *in = n->in[0]->out;
    if (!in)
        return true;
    const plan_rel_t *r = n->rel;
    int incols = n->in[0]->ncols;
    df_builder_t bl;
    df__builder_init(&bl);
    cm_buf_t enc;
    cm_buf_init(&enc, 0);
    for (uint64_t j = 0; j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
        if (!df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_BORROW, &s->ctx, vals)) {
            df__graph_error(s, diff);
        } else if (r->kind == PLAN_REL_FILTER) {
            ty_datum_t d;
            memset(&d, 0, sizeof d);
            if (!ty_expr_eval(r->pred, &s->ctx, vals, NULL, &d))
                df__graph_error(s, diff);
            else if (!d.isnull && d.v.b)
                df__builder_add(&bl, "", 0, v, len, diff);
        } else {
            ty_datum_t *out = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(n->ncols ? n->ncols : 1));
            bool ok = true;
            for (int c = 0; c < n->ncols && ok; c++) {
                memset(&out[c], 0, sizeof out[c]);
                ok = ty_expr_eval(r->exprs[c], &s->ctx, vals, NULL, &out[c]);
            }
            cm_buf_reset(&enc);
            if (ok && df__row_encode(n->types, n->ncols, out, &s->ctx, &enc))
                df__builder_add(&bl, "", 0, enc.data, enc.len, diff);
            else
                df__graph_error(s, diff);
        }
        cm_arena_reset(&s->rowa);
    }
    cm_buf_free(&enc);
    n->out = df__finish_node(n, &bl, s->seq);
    df__builder_free(&bl);
    return true;
}

bool df__op_values(df_step_t *s, df_node_t *n)
{
    if (!s->hydrate)
        return true;
    const plan_rel_t *r = n->rel;
    df_builder_t bl;
    df__builder_init(&bl);
    cm_buf_t enc;
    cm_buf_init(&enc, 0);
    for (int i = 0; i < r->nrows; i++) {
        ty_datum_t *out = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(n->ncols ? n->ncols : 1));
        bool ok = true;
        for (int c = 0; c < n->ncols && ok; c++) {
            memset(&out[c], 0, sizeof out[c]);
            ok = ty_expr_eval(r->rows[i][c], &s->ctx, NULL, NULL, &out[c]);
        }
        cm_buf_reset(&enc);
        /* Constant rows are one worker's (worker 0), or every worker would hold a copy. */
        if (s->st->worker != 0)
            cm_err_clear(&s->err);
        else if (ok && df__row_encode(n->types, n->ncols, out, &s->ctx, &enc))
            df__builder_add(&bl, "", 0, enc.data, enc.len, 1);
        else
            df__graph_error(s, 1);
        cm_arena_reset(&s->rowa);
    }
    cm_buf_free(&enc);
    n->out = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    return true;
}
