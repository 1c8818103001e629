/*
 * df_merge.c: merging two batches into one, a bounded amount at a time.
 *
 * The merge walks both batches' keys in order and, within a key present in
 * both, their values in order, summing the diffs of equal (key, value) and
 * keeping only what does not cancel: merging is where a spine compacts.
 * The walk is resumable at every record, so the spine can spend a few units
 * of work on a big merge per insert instead of stalling one insert for all
 * of it. It runs twice: a counting pass sizes the output exactly, then a
 * writing pass fills the batch df__bw_alloc laid out. Counting twice costs
 * less than the copy a growing output would need, and the output never holds
 * more memory than its records. The inputs are only read.
 */
#include "dataflow/df_store.h"

#include <stdlib.h>

enum { DF__SIDE_NONE = -1, DF__SIDE_A = 0, DF__SIDE_B = 1, DF__SIDE_BOTH = 2 };

struct df_merger {
    df_batch_t *in[2];
    int pass;                    /* 0: counting, 1: writing, 2: done */
    df_bw_t w;
    uint64_t k[2];               /* current key of each input */
    int side;                    /* where the current key is: DF__SIDE_* */
    uint64_t v[2], vend[2];      /* current value of each side within the current key */
    bool key_emitted;            /* the current key has an output record */
};

df_merger_t *df__merger_new(df_batch_t *a, df_batch_t *b)
{
    df_merger_t *m = cm_calloc(1, sizeof(*m));
    df__batch_ref(a);
    df__batch_ref(b);
    m->in[0] = a;
    m->in[1] = b;
    df__bw_init(&m->w);
    m->side = DF__SIDE_NONE;
    return m;
}

void df__merger_free(df_merger_t *m)
{
    if (m == NULL)
        return;
    df__batch_unref(m->in[0]);
    df__batch_unref(m->in[1]);
    if (m->w.b != NULL)
        free(m->w.b);
    free(m);
}

size_t df__merger_bytes(const df_merger_t *m)
{
    return sizeof(*m) + (m->w.b ? (size_t)m->w.b->size : 0);
}

df_batch_t *df__merger_input(const df_merger_t *m, int i)
{
    return m->in[i];
}

static void df__merger_emit(df_merger_t *m, int s, uint64_t j, int64_t diff)
{
    size_t kl, vl;
    const uint8_t *k = df__batch_key(m->in[s], m->k[s], &kl);
    const uint8_t *v = df__batch_val(m->in[s], j, &vl);
    df__bw_put(&m->w, !m->key_emitted, k, kl, v, vl, diff);
    m->key_emitted = true;
}

/* Picks the next key (the smaller of the two inputs' current ones); one is left. */
static void df__merger_next_key(df_merger_t *m)
{
    bool ha = m->k[0] < m->in[0]->nkeys, hb = m->k[1] < m->in[1]->nkeys;
    int c;
    if (ha && hb) {
        size_t al, bl;
        const uint8_t *ka = df__batch_key(m->in[0], m->k[0], &al), *kb = df__batch_key(m->in[1], m->k[1], &bl);
        c = df__bytes_cmp(ka, al, kb, bl);
    } else {
        c = ha ? -1 : 1;
    }
    m->side = c < 0 ? DF__SIDE_A : c > 0 ? DF__SIDE_B : DF__SIDE_BOTH;
    for (int s = 0; s < 2; s++) {
        if (m->side == s || m->side == DF__SIDE_BOTH) {
            m->v[s] = df__batch_vals_lo(m->in[s], m->k[s]);
            m->vend[s] = df__batch_vals_lo(m->in[s], m->k[s] + 1);
        }
    }
    m->key_emitted = false;
}

/* One pass, resumable: returns true when it reached the end. Noticing the
 * end costs nothing, so a merge given exactly its cost completes. */
static bool df__merger_walk(df_merger_t *m, int64_t *fuel)
{
    for (;;) {
        if (m->side == DF__SIDE_NONE) {
            if (m->k[0] == m->in[0]->nkeys && m->k[1] == m->in[1]->nkeys)
                return true;
            if (*fuel <= 0)
                return false;
            df__merger_next_key(m);
            (*fuel)--;
        }
        if (*fuel <= 0)
            return false;
        if (m->side != DF__SIDE_BOTH) {
            /* A key in one input only: its records as they are. */
            int s = m->side;
            const df_batch_t *b = m->in[s];
            while (*fuel > 0 && m->v[s] < m->vend[s]) {
                df__merger_emit(m, s, m->v[s], df__batch_diff(b, m->v[s]));
                m->v[s]++;
                (*fuel)--;
            }
            if (m->v[s] == m->vend[s]) {
                m->k[s]++;
                m->side = DF__SIDE_NONE;
            }
            continue;
        }
        while (*fuel > 0 && (m->v[0] < m->vend[0] || m->v[1] < m->vend[1])) {
            int c;
            if (m->v[0] < m->vend[0] && m->v[1] < m->vend[1]) {
                size_t al, bl;
                const uint8_t *va = df__batch_val(m->in[0], m->v[0], &al);
                const uint8_t *vb = df__batch_val(m->in[1], m->v[1], &bl);
                c = df__bytes_cmp(va, al, vb, bl);
            } else {
                c = m->v[0] < m->vend[0] ? -1 : 1;
            }
            if (c < 0) {
                df__merger_emit(m, 0, m->v[0], df__batch_diff(m->in[0], m->v[0]));
                m->v[0]++;
            } else if (c > 0) {
                df__merger_emit(m, 1, m->v[1], df__batch_diff(m->in[1], m->v[1]));
                m->v[1]++;
            } else {
                int64_t d;
                CM_ASSERT(!__builtin_add_overflow(df__batch_diff(m->in[0], m->v[0]),
                                                  df__batch_diff(m->in[1], m->v[1]), &d));
                if (d != 0)   /* cancelled: the record is gone */
                    df__merger_emit(m, 0, m->v[0], d);
                m->v[0]++;
                m->v[1]++;
                (*fuel)--;
            }
            (*fuel)--;
        }
        if (m->v[0] == m->vend[0] && m->v[1] == m->vend[1]) {
            m->k[0]++;
            m->k[1]++;
            m->side = DF__SIDE_NONE;
        }
    }
}

bool df__merger_work(df_merger_t *m, int64_t *fuel)
{
    while (m->pass < 2) {
        if (!df__merger_walk(m, fuel))
            return false;
        if (m->pass == 0) {
            uint64_t lower = m->in[0]->lower < m->in[1]->lower ? m->in[0]->lower : m->in[1]->lower;
            uint64_t upper = m->in[0]->upper > m->in[1]->upper ? m->in[0]->upper : m->in[1]->upper;
            df__bw_alloc(&m->w, lower, upper);
            m->k[0] = m->k[1] = 0;
            m->side = DF__SIDE_NONE;
        }
        m->pass++;
    }
    return true;
}

df_batch_t *df__merger_finish(df_merger_t *m)
{
    CM_ASSERT(m->pass == 2);
    df_batch_t *b = df__bw_done(&m->w);
    df__merger_free(m);
    return b;
}

df_batch_t *df__batch_merge(df_batch_t *a, df_batch_t *b)
{
    df_merger_t *m = df__merger_new(a, b);
    int64_t fuel = INT64_MAX;
    CM_ASSERT(df__merger_work(m, &fuel));
    return df__merger_finish(m);
}
