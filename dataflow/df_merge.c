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
        df__batch_release(m->w.b);
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
    size_t kl = 0, vl;
    const uint8_t *k = m->key_emitted ? NULL : df__batch_key(m->in[s], m->k[s], &kl);
    const uint8_t *v = df__batch_val(m->in[s], j, &vl);
    df__bw_put(&m->w, !m->key_emitted, k, kl, v, vl, diff);
    m->key_emitted = true;
}

/*
 * Side s's current key is below the other side's (or the other is done):
 * the keys from it up to the other side's current key, as many whole keys
 * as *fuel pays for (a key and each of its values one unit), go out in one
 * copy. Galloping finds the run's end, so interleaved inputs cost one extra
 * comparison per key and disjoint ones (sequential keys, a small batch
 * folded into a big one) a logarithmic search. false: not even the first
 * key's values fit in the fuel left.
 */
static bool df__merger_run(df_merger_t *m, int s, int64_t *fuel)
{
    const df_batch_t *b = m->in[s], *o = m->in[1 - s];
    uint64_t k0 = m->k[s], n = b->nkeys, end;
    if (m->k[1 - s] >= o->nkeys) {
        end = n;
    } else {
        size_t ol;
        const uint8_t *ok = df__batch_key(o, m->k[1 - s], &ol);
        /* The first key of b at or above ok, after k0 (whose key is below). */
        uint64_t lo = k0, step = 1, hi = k0 + 1;
        for (;;) {
            if (hi >= n) {
                hi = n;
                break;
            }
            size_t l;
            const uint8_t *k = df__batch_key(b, hi, &l);
            if (df__bytes_cmp(k, l, ok, ol) >= 0)
                break;
            lo = hi;
            step *= 2;
            hi = lo + step;
        }
        lo++;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            size_t l;
            const uint8_t *k = df__batch_key(b, mid, &l);
            if (df__bytes_cmp(k, l, ok, ol) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
        end = lo;
    }
    /* As many whole keys as the fuel pays for. */
    uint64_t v0 = df__batch_vals_lo(b, k0);
    uint64_t avail = (uint64_t)*fuel;
    if ((end - k0) + (df__batch_vals_lo(b, end) - v0) > avail) {
        uint64_t lo = k0, hi = end;   /* the largest k1 in [k0, end] whose cost fits */
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo + 1) / 2;
            if ((mid - k0) + (df__batch_vals_lo(b, mid) - v0) <= avail)
                lo = mid;
            else
                hi = mid - 1;
        }
        end = lo;
    }
    if (end == k0)
        return false;
    df__bw_copy(&m->w, b, k0, end);
    *fuel -= (int64_t)((end - k0) + (df__batch_vals_lo(b, end) - v0));
    m->k[s] = end;
    return true;
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
            if (m->side != DF__SIDE_BOTH && df__merger_run(m, m->side, fuel)) {
                m->side = DF__SIDE_NONE;
                continue;
            }
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
