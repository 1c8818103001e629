/*
 * df_op_setop.c: UNION (without ALL), INTERSECT [ALL] and EXCEPT [ALL]
 * (DESIGN §6). Each input row is keyed by the key encoding of the whole
 * row (equal under SQL as DISTINCT compares: NULLs equal, 1.0 = 1.00) and
 * routed to the worker owning that key in one exchange round; its value is
 * the row tagged with its side (0 left, 1 right). There the rows are
 * arranged by that key, and each key touched at a step is counted on both
 * sides before and after the delta: the output holds plan_setop_copies(l, r)
 * copies of the row (the executor's rule), so the delta is the new number
 * minus the old. The copy shown is the smallest encoded row of the left
 * side (of either side for UNION), as a one-shot query shows a left row.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

typedef struct df__setop {
    df_keycol_t *kcols;          /* every column, in order */
    df_spine_t input;            /* key: the row's key; value: side byte, then the row */
} df__setop_t;

typedef struct df__setop_ctx {
    const df_node_t *n;
    df_builder_t *out;
} df__setop_ctx_t;

static void df__setop_free(void *p)
{
    df__setop_t *so = p;
    if (!so)
        return;
    df__spine_free(&so->input);
    free(so);
}

static bool df__setop_idle(void *p, int64_t *fuel)
{
    return df__spine_idle_spend(&((df__setop_t *)p)->input, fuel);
}

bool df__setop_new(df_graph_t *g, df_node_t *n, cm_err_t *err)
{
    const plan_rel_t *r = n->rel;
    for (int side = 0; side < 2; side++) {
        const df_node_t *in = n->in[side];
        if (in->ncols != n->ncols || memcmp(in->types, n->types, sizeof(ty_oid_t) * (size_t)n->ncols) != 0)
            return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "the dataflow engine cannot maintain a set operation over inputs of other types");
    }
    df_keycol_t *kcols = cm_arena_zalloc(&g->arena, sizeof *kcols * (size_t)(r->ncols ? r->ncols : 1));
    for (int i = 0; i < r->ncols; i++) {
        kcols[i] = (df_keycol_t){.col = i, .type = r->types[i]};
        if (!df__key_type_check(r->types[i], err))
            return false;
    }
    df__setop_t *so = cm_calloc(1, sizeof *so);
    so->kcols = kcols;
    df__spine_init(&so->input);
    n->state = so;
    n->arranged[0] = &so->input;
    n->state_free = df__setop_free;
    n->state_idle = df__setop_idle;
    return true;
}

/* The copies the output holds of the row at key in a snapshot (through cur, moving forward only). */
static void df__setop_out(void *arg, df_scur_t *cur, const uint8_t *key, size_t klen, int64_t sign)
{
    df__setop_ctx_t *c = arg;
    const plan_rel_t *r = c->n->rel;
    int64_t count[2] = {0, 0};
    const uint8_t *shown = NULL;
    size_t shown_len = 0;
    if (df__scur_seek(cur, key, klen))
        for (; df__scur_val_valid(cur); df__scur_val_next(cur)) {
            size_t len;
            const uint8_t *v = df__scur_val(cur, &len);
            int64_t m = df__scur_diff(cur);
            if (m <= 0 || len == 0)
                continue;   /* never fewer than no copies of a row */
            int side = v[0] != 0;
            count[side] += m;
            if (!shown && (side == 0 || r->setop == PLAN_SETOP_UNION)) {
                shown = v + 1;
                shown_len = len - 1;
            }
        }
    int64_t copies = plan_setop_copies(r->setop, r->all, count[0], count[1]);
    if (copies > 0 && shown)
        df__builder_add(c->out, "", 0, shown, shown_len, sign * copies);
}

bool df__op_setop(df_step_t *s, df_node_t *n)
{
    df__setop_t *so = n->state;
    int nw = s->st->nworkers;
    df_builder_t *bls = cm_calloc((size_t)nw, sizeof *bls);
    for (int w = 0; w < nw; w++)
        df__builder_init(&bls[w]);
    for (int side = 0; side < 2; side++)
        df__route_rows(s, n, so->kcols, n->in[side]->out, (uint8_t)side, bls);
    bool ok;
    df_batch_t *d = df__route(s, bls, &ok);
    if (d) {
        df_builder_t ob;
        df__builder_init(&ob);
        df__setop_ctx_t c = {.n = n, .out = &ob};
        df__batch_ref(d);
        df__arrange_touched(&so->input, d, d, df__setop_out, &c);
        n->out = df__finish(&ob, s->seq);
        df__builder_free(&ob);
        df__batch_unref(d);
    }
    for (int w = 0; w < nw; w++)
        df__builder_free(&bls[w]);
    free(bls);
    return ok;
}
