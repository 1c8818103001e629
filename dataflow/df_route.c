/*
 * df_route.c: one exchange round of a keyed operator (set operations,
 * top-k, windows; DESIGN §6): the caller has put each of its delta's
 * records in the builder of the worker owning its key (df__owner); the
 * round sends them and merges what every worker sent here into one
 * consolidated batch. Every worker calls it at every step the operator
 * runs, with or without records, so that the rounds meet.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>

int df__owner(const df_step_t *s, const uint8_t *key, size_t len)
{
    return (int)(df__hash(key, len) % (uint64_t)s->st->nworkers);
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
