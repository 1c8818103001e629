/*
 * df_snap.c: snapshots of a spine and the cursor that reads one.
 *
 * A snapshot is a reference-counted list of batches: what a reader holds
 * while the spine goes on merging (merges make new batches and never change
 * their inputs, so a held batch stays valid). Its cursor shows the union of
 * the batches as one consolidated collection: it moves the batch cursors in
 * step, key by key and value by value, summing the diffs of the batches that
 * hold the same (key, value) and skipping what sums to zero, so a reader
 * never sees an insert and its retraction that sit in different batches. A
 * spine keeps few batches (logarithmic in its size), so the smallest current
 * key or value is found by a scan of the batch cursors.
 */
#include "dataflow/df_store.h"

#include <stdlib.h>

df_snap_t *df__snap_new(df_batch_t *const *batches, uint32_t n)
{
    df_snap_t *s = cm_malloc(sizeof(*s) + sizeof(s->batches[0]) * n);
    atomic_init(&s->refs, 1);
    s->nbatches = n;
    s->records = 0;
    for (uint32_t i = 0; i < n; i++) {
        df__batch_ref(batches[i]);
        s->batches[i] = batches[i];
        s->records += batches[i]->nvals;
    }
    return s;
}

void df__snap_ref(df_snap_t *s)
{
    atomic_fetch_add_explicit(&s->refs, 1, memory_order_relaxed);
}

void df__snap_unref(df_snap_t *s)
{
    if (s == NULL || atomic_fetch_sub_explicit(&s->refs, 1, memory_order_acq_rel) != 1)
        return;
    for (uint32_t i = 0; i < s->nbatches; i++)
        df__batch_unref(s->batches[i]);
    free(s);
}

/* ------------------------------------------------------------ the cursor */

/* The first value of the current key whose diffs do not cancel, from where
 * the active batch cursors stand. */
static void df__scur_settle_val(df_scur_t *c)
{
    for (;;) {
        c->nvact = 0;
        const uint8_t *min = NULL;
        size_t minlen = 0;
        for (uint32_t i = 0; i < c->nkact; i++) {
            df_bcur_t *bc = &c->bc[c->kact[i]];
            if (!df__bcur_val_valid(bc))
                continue;
            size_t vl;
            const uint8_t *v = df__bcur_val(bc, &vl);
            int cmp = min == NULL ? -1 : df__bytes_cmp(v, vl, min, minlen);
            if (cmp < 0) {
                min = v;
                minlen = vl;
                c->nvact = 0;
            }
            if (cmp <= 0)
                c->vact[c->nvact++] = c->kact[i];
        }
        if (c->nvact == 0) {
            c->val_ok = false;
            return;
        }
        int64_t sum = 0;
        for (uint32_t i = 0; i < c->nvact; i++)
            CM_ASSERT(!__builtin_add_overflow(sum, df__bcur_diff(&c->bc[c->vact[i]]), &sum));
        if (sum != 0) {
            c->val = min;
            c->vlen = minlen;
            c->diff = sum;
            c->val_ok = true;
            return;
        }
        for (uint32_t i = 0; i < c->nvact; i++)
            df__bcur_val_next(&c->bc[c->vact[i]]);
    }
}

/* The first key, from where the batch cursors stand, with a value that does not cancel. */
static void df__scur_settle_key(df_scur_t *c)
{
    for (;;) {
        c->nkact = 0;
        const uint8_t *min = NULL;
        size_t minlen = 0;
        for (uint32_t i = 0; i < c->n; i++) {
            df_bcur_t *bc = &c->bc[i];
            if (!df__bcur_key_valid(bc))
                continue;
            size_t kl;
            const uint8_t *k = df__bcur_key(bc, &kl);
            int cmp = min == NULL ? -1 : df__bytes_cmp(k, kl, min, minlen);
            if (cmp < 0) {
                min = k;
                minlen = kl;
                c->nkact = 0;
            }
            if (cmp <= 0)
                c->kact[c->nkact++] = i;
        }
        if (c->nkact == 0) {
            c->key_ok = c->val_ok = false;
            return;
        }
        c->key = min;
        c->klen = minlen;
        df__scur_settle_val(c);
        if (c->val_ok) {
            c->key_ok = true;
            return;
        }
        for (uint32_t i = 0; i < c->nkact; i++)   /* every value cancelled: not a key at all */
            df__bcur_key_next(&c->bc[c->kact[i]]);
    }
}

void df__scur_init(df_scur_t *c, df_snap_t *s)
{
    memset(c, 0, sizeof(*c));
    df__snap_ref(s);
    c->snap = s;
    c->n = s->nbatches;
    size_t n = c->n ? c->n : 1;
    c->bc = cm_malloc(sizeof(*c->bc) * n);
    c->kact = cm_malloc(sizeof(*c->kact) * n);
    c->vact = cm_malloc(sizeof(*c->vact) * n);
    for (uint32_t i = 0; i < c->n; i++)
        df__bcur_init(&c->bc[i], s->batches[i]);
    df__scur_settle_key(c);
}

void df__scur_free(df_scur_t *c)
{
    free(c->bc);
    free(c->kact);
    free(c->vact);
    df__snap_unref(c->snap);
    memset(c, 0, sizeof(*c));
}

void df__scur_key_next(df_scur_t *c)
{
    if (!c->key_ok)
        return;
    for (uint32_t i = 0; i < c->nkact; i++)
        df__bcur_key_next(&c->bc[c->kact[i]]);
    df__scur_settle_key(c);
}

bool df__scur_seek(df_scur_t *c, const uint8_t *key, size_t len)
{
    if (!c->key_ok)
        return false;
    for (uint32_t i = 0; i < c->n; i++)
        df__bcur_seek(&c->bc[i], key, len);
    df__scur_settle_key(c);
    return c->key_ok && df__bytes_cmp(c->key, c->klen, key, len) == 0;
}

void df__scur_val_next(df_scur_t *c)
{
    if (!c->val_ok)
        return;
    for (uint32_t i = 0; i < c->nvact; i++)
        df__bcur_val_next(&c->bc[c->vact[i]]);
    df__scur_settle_val(c);
}

void df__scur_val_rewind(df_scur_t *c)
{
    if (!c->key_ok)
        return;
    for (uint32_t i = 0; i < c->nkact; i++)
        df__bcur_val_rewind(&c->bc[c->kact[i]]);
    df__scur_settle_val(c);
}
