/*
 * df_route.c: what keyed operators (set operations, top-k, windows,
 * recursion; DESIGN §6) share. One exchange round: the caller has put each
 * of its delta's records in the builder of the worker owning its key
 * (df__owner, df__route_rows); the round sends them and merges what every
 * worker sent here into one consolidated batch. Every worker calls it at
 * every step the operator runs, with or without records, so that the
 * rounds meet. Then the keys it touched are read in the operator's
 * arrangement before and after the routed records join it
 * (df__arrange_touched), which gives the operator's change.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>

int df__owner(const df_step_t *s, const uint8_t *key, size_t len)
{
    return (int)(df__hash(key, len) % (uint64_t)s->st->nworkers);
}

bool df__route_rows(df_step_t *s, const df_node_t *n, const df_keycol_t *kcols, const df_batch_t *in, uint8_t tag,
                    df_builder_t *bls)
{
    cm_buf_t key, val;
    cm_buf_init(&key, 0);
    cm_buf_init(&val, 0);
    ty_datum_t *vals = cm_malloc(sizeof(ty_datum_t) * (size_t)(n->ncols ? n->ncols : 1));
    bool added = false;
    for (uint64_t j = 0; in && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        cm_buf_reset(&key);
        if (df__row_decode(n->types, n->ncols, v, len, DF_ROW_BORROW, &s->ctx, vals) &&
            df__key_encode(kcols, n->ncols, vals, &s->ctx, &key)) {
            cm_buf_reset(&val);
            cm_buf_put_u8(&val, tag);
            cm_buf_put(&val, v, len);
            df__builder_add(&bls[df__owner(s, key.data, key.len)], key.data, key.len, val.data, val.len, diff);
            added = true;
        } else {
            df__graph_error(s, diff);
        }
        cm_arena_reset(&s->rowa);
    }
    free(vals);
    cm_buf_free(&key);
    cm_buf_free(&val);
    return added;
}

void df__arrange_touched(df_spine_t *sp, const df_batch_t *keys, df_batch_t *ins, df_touched_fn each, void *arg)
{
    df__batch_ref((df_batch_t *)keys);   /* keys may be ins, which the spine may merge away */
    for (int64_t sign = -1; sign <= 1; sign += 2) {
        if (sign > 0 && ins)
            df__spine_insert(sp, ins);
        df_snap_t *snap = df__spine_snapshot(sp);
        df_scur_t cur;
        df__scur_init(&cur, snap);
        for (uint64_t k = 0; k < keys->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(keys, k, &kl);
            each(arg, &cur, kp, kl, sign);
        }
        df__scur_free(&cur);
        df__snap_unref(snap);
    }
    df__batch_unref((df_batch_t *)keys);
}

df_batch_t *df__route(df_step_t *s, df_builder_t *bls, bool *ok)
{
    int nw = s->st->nworkers;
    df_batch_t **out = cm_calloc((size_t)nw, sizeof *out), **got = cm_calloc((size_t)nw, sizeof *got);
    for (int w = 0; w < nw; w++)
        out[w] = df__finish(&bls[w], s->seq);
    *ok = df__xchg_round(s->st->exchange, s->st->worker, out, got);
    df_builder_t bl;
    df__builder_init(&bl);
    for (int w = 0; w < nw; w++) {
        for (uint64_t k = 0; *ok && got[w] && k < got[w]->nkeys; k++) {
            size_t kl;
            const uint8_t *kp = df__batch_key(got[w], k, &kl);
            uint64_t hi = k + 1 < got[w]->nkeys ? df__batch_vals_lo(got[w], k + 1) : got[w]->nvals;
            for (uint64_t j = df__batch_vals_lo(got[w], k); j < hi; j++) {
                size_t vl;
                const uint8_t *vp = df__batch_val(got[w], j, &vl);
                df__builder_add(&bl, kp, kl, vp, vl, df__batch_diff(got[w], j));
            }
        }
        df__batch_unref(got[w]);
    }
    df_batch_t *d = df__finish(&bl, s->seq);
    df__builder_free(&bl);
    free(out);
    free(got);
    return d;
}
