/*
 * df_op_flatmap.c: FLATMAP (set-returning functions in the select list or
 * in FROM over a row: generate_series, unnest, ...; DESIGN §6) on a delta
 * alone: each input row's rows, as plan_flatmap.c makes them for the pull
 * executor too, with the input row's diff; nothing is kept between steps.
 * A row whose functions fail (an error in its arguments, a zero step)
 * gives none of its rows and counts as an error of the view with its diff.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

bool df__flatmap_new(df_graph_t *g, df_node_t *n, cm_err_t *err)
{
    const plan_rel_t *r = n->rel;
    int nf = r->nfuncs;
    ty_expr_t ***args = cm_arena_zalloc(&g->arena, sizeof(ty_expr_t **) * (size_t)(nf ? nf : 1));
    ty_expr_t **exprs = cm_arena_zalloc(&g->arena, sizeof(ty_expr_t *) * (size_t)(nf ? nf : 1));
    for (int i = 0; i < nf; i++) {
        args[i] = r->funcs[i]->args;
        exprs[i] = r->funcs[i]->expr;
    }
    n->state = plan_flatmap_new(&g->arena, r, args, exprs, r->pred);
    return true;
}

bool df__op_flatmap(df_step_t *s, df_node_t *n)
{
    const df_batch_t *in = n->in[0]->out;
    if (!in)
        return true;
    plan_flatmap_t *fm = n->state;
    int incols = n->in[0]->ncols;
    df_builder_t bl;
    df__builder_init(&bl);
    cm_buf_t enc, rows;
    cm_buf_init(&enc, 0);
    cm_buf_init(&rows, 0);
    for (uint64_t j = 0; j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
        /* The row's rows are kept aside (length, bytes) until all of them are made. */
        cm_buf_reset(&rows);
        bool ok = df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_BORROW, &s->ctx, vals) &&
                  plan_flatmap_begin(fm, vals, NULL, &s->ctx);
        for (;;) {
            ty_datum_t *out = NULL;
            if (!ok || !(ok = plan_flatmap_next(fm, NULL, &s->ctx, &out)) || !out)
                break;
            cm_buf_reset(&enc);
            if (!(ok = df__row_encode(n->types, n->ncols, out, &s->ctx, &enc)))
                break;
            cm_buf_put(&rows, &enc.len, sizeof enc.len);
            cm_buf_put(&rows, enc.data, enc.len);
        }
        if (!ok) {
            df__graph_error(s, diff);
        } else {
            for (size_t at = 0; at < rows.len;) {
                size_t rl;
                memcpy(&rl, rows.data + at, sizeof rl);
                df__builder_add(&bl, "", 0, rows.data + at + sizeof rl, rl, diff);
                at += sizeof rl + rl;
            }
        }
        cm_arena_reset(&s->rowa);
    }
    cm_buf_free(&enc);
    cm_buf_free(&rows);
    n->out = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    return true;
}
