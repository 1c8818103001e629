/*
 * df_batch.c: batches, the immutable consolidated collections every
 * arrangement is made of: their layout, the writer that lays them out, the
 * builder that turns updates in any order into one, a cursor over one, and
 * the check of a batch image read from outside.
 *
 * A batch is one allocation with position-independent columns (offsets from
 * its start), so it can be written to a socket or a file as it is and read
 * back by df__batch_from_image. Two elisions keep the common cases small: a
 * batch whose keys each have one value has no key-to-value column, and one
 * whose diffs are all +1 (any compacted collection without duplicates) has
 * no diff column.
 */
#include "dataflow/df_store.h"

#include <stdlib.h>

bool df__batch_force_wide;

void df__batch_ref(df_batch_t *b)
{
    atomic_fetch_add_explicit(&b->refs, 1, memory_order_relaxed);
}

void df__batch_unref(df_batch_t *b)
{
    if (b != NULL && atomic_fetch_sub_explicit(&b->refs, 1, memory_order_acq_rel) == 1)
        df__batch_release(b);
}

static uint64_t df__align8(uint64_t n)
{
    return (n + 7) & ~(uint64_t)7;
}

static void df__col_set(df_batch_t *b, uint64_t at, uint64_t i, uint64_t v)
{
    uint8_t *p = (uint8_t *)b + at;
    if (b->ow == 4)
        ((uint32_t *)p)[i] = (uint32_t)v;
    else
        ((uint64_t *)p)[i] = v;
}

/* ------------------------------------------------------------ the writer */

void df__bw_init(df_bw_t *w)
{
    memset(w, 0, sizeof(*w));
    w->ones = true;
    w->unique = true;
}

void df__bw_put(df_bw_t *w, bool new_key, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen,
                int64_t diff)
{
    df_batch_t *b = w->b;
    if (b == NULL) {   /* counting */
        if (new_key) {
            w->nkeys++;
            w->kbytes += klen;
        } else {
            w->unique = false;
        }
        w->nvals++;
        w->vbytes += vlen;
        if (diff != 1)
            w->ones = false;
        return;
    }
    if (new_key) {
        CM_ASSERT(w->nkeys < b->nkeys);
        df__col_set(b, b->key_off_at, w->nkeys, w->kbytes);
        if (b->key_val_at)
            df__col_set(b, b->key_val_at, w->nkeys, w->nvals);
        if (klen)
            memcpy((uint8_t *)b + b->key_bytes_at + w->kbytes, key, klen);
        w->kbytes += klen;
        w->nkeys++;
    }
    CM_ASSERT(w->nvals < b->nvals);
    df__col_set(b, b->val_off_at, w->nvals, w->vbytes);
    if (vlen)
        memcpy((uint8_t *)b + b->val_bytes_at + w->vbytes, val, vlen);
    if (b->diff_at)
        ((int64_t *)((uint8_t *)b + b->diff_at))[w->nvals] = diff;
    w->vbytes += vlen;
    w->nvals++;
}

void df__bw_copy(df_bw_t *w, const df_batch_t *src, uint64_t k0, uint64_t k1)
{
    if (k0 >= k1)
        return;
    uint64_t nk = k1 - k0, v0 = df__batch_vals_lo(src, k0), v1 = df__batch_vals_lo(src, k1), nv = v1 - v0;
    uint64_t kb0 = df__batch_col(src, src->key_off_at, k0), kb1 = df__batch_col(src, src->key_off_at, k1);
    uint64_t vb0 = df__batch_col(src, src->val_off_at, v0), vb1 = df__batch_col(src, src->val_off_at, v1);
    df_batch_t *b = w->b;
    if (b == NULL) {   /* counting */
        if (nv != nk)
            w->unique = false;
        for (uint64_t j = v0; w->ones && src->diff_at && j < v1; j++)
            if (df__batch_diff(src, j) != 1)
                w->ones = false;
        w->nkeys += nk;
        w->nvals += nv;
        w->kbytes += kb1 - kb0;
        w->vbytes += vb1 - vb0;
        return;
    }
    CM_ASSERT(w->nkeys + nk <= b->nkeys && w->nvals + nv <= b->nvals);
    for (uint64_t i = 0; i < nk; i++) {
        df__col_set(b, b->key_off_at, w->nkeys + i, w->kbytes + df__batch_col(src, src->key_off_at, k0 + i) - kb0);
        if (b->key_val_at)
            df__col_set(b, b->key_val_at, w->nkeys + i, w->nvals + df__batch_vals_lo(src, k0 + i) - v0);
    }
    for (uint64_t j = 0; j < nv; j++)
        df__col_set(b, b->val_off_at, w->nvals + j, w->vbytes + df__batch_col(src, src->val_off_at, v0 + j) - vb0);
    if (b->diff_at) {
        int64_t *d = (int64_t *)((uint8_t *)b + b->diff_at) + w->nvals;
        if (src->diff_at)
            memcpy(d, (const int64_t *)((const uint8_t *)src + src->diff_at) + v0, nv * sizeof(int64_t));
        else
            for (uint64_t j = 0; j < nv; j++)
                d[j] = 1;
    }
    if (kb1 > kb0)
        memcpy((uint8_t *)b + b->key_bytes_at + w->kbytes, (const uint8_t *)src + src->key_bytes_at + kb0, kb1 - kb0);
    if (vb1 > vb0)
        memcpy((uint8_t *)b + b->val_bytes_at + w->vbytes, (const uint8_t *)src + src->val_bytes_at + vb0, vb1 - vb0);
    w->nkeys += nk;
    w->nvals += nv;
    w->kbytes += kb1 - kb0;
    w->vbytes += vb1 - vb0;
}

void df__bw_alloc(df_bw_t *w, uint64_t lower, uint64_t upper)
{
    CM_ASSERT(w->b == NULL);
    uint32_t ow = (df__batch_force_wide || w->kbytes > UINT32_MAX || w->vbytes > UINT32_MAX || w->nvals >= UINT32_MAX)
                      ? 8 : 4;
    uint64_t at = df__align8(sizeof(df_batch_t));
    uint64_t key_off_at = at;
    at = df__align8(at + (w->nkeys + 1) * ow);
    uint64_t key_val_at = 0;
    if (!w->unique) {
        key_val_at = at;
        at = df__align8(at + (w->nkeys + 1) * ow);
    }
    uint64_t val_off_at = at;
    at = df__align8(at + (w->nvals + 1) * ow);
    uint64_t diff_at = 0;
    if (!w->ones) {
        diff_at = at;
        at += w->nvals * 8;
    }
    uint64_t key_bytes_at = at;
    at = df__align8(at + w->kbytes);
    uint64_t val_bytes_at = at;
    at = df__align8(at + w->vbytes);
    /* Not calloc: zeroing a big output at once would be the stall fueling
     * avoids. Only the padding is zeroed (the last word of each region,
     * before the data goes in), so the image is a function of the records. */
    df_batch_t *b = df__batch_alloc(at);
    uint64_t starts[] = {key_off_at, key_val_at, val_off_at, diff_at, key_bytes_at, val_bytes_at, at};
    for (size_t i = 0; i + 1 < CM_ARRAY_LEN(starts); i++) {
        if (starts[i] == 0)
            continue;
        uint64_t end = at;   /* the next region that exists */
        for (size_t j = i + 1; j < CM_ARRAY_LEN(starts); j++)
            if (starts[j] != 0) {
                end = starts[j];
                break;
            }
        if (end >= starts[i] + 8)
            memset((uint8_t *)b + end - 8, 0, 8);
    }
    atomic_init(&b->refs, 1);
    b->magic = DF_BATCH_MAGIC;
    b->size = at;
    b->lower = lower;
    b->upper = upper;
    b->nkeys = w->nkeys;
    b->nvals = w->nvals;
    b->key_off_at = key_off_at;
    b->key_val_at = key_val_at;
    b->val_off_at = val_off_at;
    b->diff_at = diff_at;
    b->key_bytes_at = key_bytes_at;
    b->val_bytes_at = val_bytes_at;
    b->ow = ow;
    df__bw_init(w);
    w->b = b;
}

df_batch_t *df__bw_done(df_bw_t *w)
{
    df_batch_t *b = w->b;
    CM_ASSERT(b != NULL && w->nkeys == b->nkeys && w->nvals == b->nvals);
    df__col_set(b, b->key_off_at, b->nkeys, w->kbytes);
    if (b->key_val_at)
        df__col_set(b, b->key_val_at, b->nkeys, b->nvals);
    df__col_set(b, b->val_off_at, b->nvals, w->vbytes);
    w->b = NULL;
    return b;
}

df_batch_t *df__batch_empty(uint64_t lower, uint64_t upper)
{
    df_bw_t w;
    df__bw_init(&w);
    df__bw_alloc(&w, lower, upper);
    return df__bw_done(&w);
}

/* ------------------------------------------------------------ the builder */

struct df_upd {
    const uint8_t *key, *val;
    uint32_t klen, vlen;
    int64_t diff;
    uint64_t pfx;   /* the first 8 key bytes big-endian (sorting); then "starts a new key" */
};

void df__builder_init(df_builder_t *bl)
{
    memset(bl, 0, sizeof(*bl));
    cm_arena_init(&bl->arena, 64 * 1024);
}

void df__builder_free(df_builder_t *bl)
{
    cm_arena_free(&bl->arena);
    free(bl->upds);
    memset(bl, 0, sizeof(*bl));
}

size_t df__builder_count(const df_builder_t *bl)
{
    return bl->n;
}

void df__builder_reserve(df_builder_t *bl, size_t n)
{
    if (bl->cap - bl->n >= n)
        return;
    bl->cap = bl->n + n;
    bl->upds = cm_realloc(bl->upds, bl->cap * sizeof(*bl->upds));
}

void df__builder_add_ref(df_builder_t *bl, const void *key, size_t klen, const void *val, size_t vlen, int64_t diff)
{
    if (diff == 0)
        return;
    CM_ASSERT(klen < UINT32_MAX && vlen < UINT32_MAX);
    if (bl->n == bl->cap) {
        bl->cap = bl->cap ? 2 * bl->cap : 256;
        bl->upds = cm_realloc(bl->upds, bl->cap * sizeof(*bl->upds));
    }
    const uint8_t *k = key;
    df_upd_t *u = &bl->upds[bl->n++];
    u->key = k;
    u->val = val;
    u->klen = (uint32_t)klen;
    u->vlen = (uint32_t)vlen;
    u->diff = diff;
    uint64_t pfx = 0;
    for (size_t i = 0; i < 8; i++)
        pfx = pfx << 8 | (i < klen ? k[i] : 0);
    u->pfx = pfx;
}

void df__builder_add(df_builder_t *bl, const void *key, size_t klen, const void *val, size_t vlen, int64_t diff)
{
    if (diff == 0)
        return;
    uint8_t *mem = cm_arena_alloc(&bl->arena, klen + vlen ? klen + vlen : 1);
    if (klen)
        memcpy(mem, key, klen);
    if (vlen)
        memcpy(mem + klen, val, vlen);
    df__builder_add_ref(bl, mem, klen, mem + klen, vlen, diff);
}

static int df__upd_cmp(const void *x, const void *y)
{
    const df_upd_t *a = x, *b = y;
    if (a->pfx != b->pfx)
        return a->pfx < b->pfx ? -1 : 1;
    int c = df__bytes_cmp(a->key, a->klen, b->key, b->klen);
    return c ? c : df__bytes_cmp(a->val, a->vlen, b->val, b->vlen);
}

/* The updates in df__upd_cmp's order. Updates often come in order already (a COPY of rows sorted
 * by their first column, a delta read from a batch): one pass finds out, and then there is no sort. */
static void df__builder_sort(df_builder_t *bl)
{
    size_t i = 1;
    while (i < bl->n && df__upd_cmp(&bl->upds[i - 1], &bl->upds[i]) <= 0)
        i++;
    if (i < bl->n)
        qsort(bl->upds, bl->n, sizeof(*bl->upds), df__upd_cmp);
}

df_batch_t *df__builder_finish(df_builder_t *bl, uint64_t lower, uint64_t upper)
{
    df__builder_sort(bl);
    /* Consolidate in place: one record per distinct (key, value) whose
     * diffs do not cancel, marked (in pfx) when it starts a new key. */
    size_t m = 0;
    const df_upd_t *last = NULL;   /* the last record kept */
    for (size_t i = 0; i < bl->n;) {
        df_upd_t u = bl->upds[i];
        size_t j = i + 1;
        while (j < bl->n && bl->upds[j].klen == u.klen && bl->upds[j].vlen == u.vlen &&
               memcmp(bl->upds[j].key, u.key, u.klen) == 0 && memcmp(bl->upds[j].val, u.val, u.vlen) == 0) {
            CM_ASSERT(!__builtin_add_overflow(u.diff, bl->upds[j].diff, &u.diff));
            j++;
        }
        i = j;
        if (u.diff == 0)
            continue;
        u.pfx = last == NULL || last->klen != u.klen || memcmp(last->key, u.key, u.klen) != 0;
        bl->upds[m] = u;
        last = &bl->upds[m++];
    }
    df_bw_t w;
    df__bw_init(&w);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            df__bw_alloc(&w, lower, upper);
        for (size_t i = 0; i < m; i++) {
            const df_upd_t *u = &bl->upds[i];
            df__bw_put(&w, u->pfx != 0, u->key, u->klen, u->val, u->vlen, u->diff);
        }
    }
    df_batch_t *b = df__bw_done(&w);
    bl->n = 0;
    cm_arena_reset(&bl->arena);
    return b;
}

df_batch_t *df__builder_finish_unsorted(df_builder_t *bl, uint64_t lower, uint64_t upper)
{
    df_bw_t w;
    df__bw_init(&w);
    for (int pass = 0; pass < 2; pass++) {
        if (pass == 1)
            df__bw_alloc(&w, lower, upper);
        const df_upd_t *last = NULL;
        for (size_t i = 0; i < bl->n; i++) {
            const df_upd_t *u = &bl->upds[i];
            bool starts = last == NULL || last->klen != u->klen || (u->klen && memcmp(last->key, u->key, u->klen) != 0);
            df__bw_put(&w, starts, u->key, u->klen, u->val, u->vlen, u->diff);
            last = u;
        }
    }
    df_batch_t *b = df__bw_done(&w);
    bl->n = 0;
    cm_arena_reset(&bl->arena);
    return b;
}

/* ------------------------------------------------------------ the cursor */

static void df__bcur_settle(df_bcur_t *c)
{
    if (c->key < c->b->nkeys) {
        c->val = df__batch_vals_lo(c->b, c->key);
        c->val_end = df__batch_vals_lo(c->b, c->key + 1);
    } else {
        c->val = c->val_end = 0;
    }
}

void df__bcur_init(df_bcur_t *c, const df_batch_t *b)
{
    c->b = b;
    c->key = 0;
    df__bcur_settle(c);
}

void df__bcur_key_next(df_bcur_t *c)
{
    if (c->key < c->b->nkeys)
        c->key++;
    df__bcur_settle(c);
}

void df__bcur_val_rewind(df_bcur_t *c)
{
    df__bcur_settle(c);
}

static int df__bcur_cmp_at(const df_bcur_t *c, uint64_t i, const uint8_t *key, size_t len)
{
    size_t kl;
    const uint8_t *k = df__batch_key(c->b, i, &kl);
    return df__bytes_cmp(k, kl, key, len);
}

bool df__bcur_seek(df_bcur_t *c, const uint8_t *key, size_t len)
{
    uint64_t n = c->b->nkeys, lo = c->key;
    if (lo >= n)
        return false;
    /* Galloping from the current key: seeks in key order (joins, lookups of
     * sorted probes) cost the log of the distance, not of the batch. */
    if (df__bcur_cmp_at(c, lo, key, len) < 0) {
        uint64_t step = 1, hi = lo + 1;
        while (hi < n && df__bcur_cmp_at(c, hi, key, len) < 0) {
            lo = hi;
            step *= 2;
            hi = lo + step < n ? lo + step : n;
        }
        /* Now key(lo) < key, and key <= key(hi) or hi == n: search (lo, hi]. */
        lo++;
        while (lo < hi) {
            uint64_t mid = lo + (hi - lo) / 2;
            if (df__bcur_cmp_at(c, mid, key, len) < 0)
                lo = mid + 1;
            else
                hi = mid;
        }
    }
    c->key = lo;
    df__bcur_settle(c);
    return lo < n && df__bcur_cmp_at(c, lo, key, len) == 0;
}

/* ------------------------------------------------------------ images */

static bool df__image_bad(cm_err_t *err, const char *what)
{
    return cm_err_set(err, "XX001", "corrupt batch image: %s", what);
}

/* A column of n + 1 (or n) entries of width w at `at` lies inside the batch. */
static bool df__image_col(const df_batch_t *b, uint64_t at, uint64_t entries, uint64_t w)
{
    uint64_t hdr = df__align8(sizeof(df_batch_t));
    return at >= hdr && at % 8 == 0 && at <= b->size && (b->size - at) / w >= entries;
}

static bool df__image_offsets(const df_batch_t *b, uint64_t at, uint64_t n, uint64_t bytes_at, uint64_t *total)
{
    uint64_t prev = 0;
    if (df__batch_col(b, at, 0) != 0)
        return false;
    for (uint64_t i = 1; i <= n; i++) {
        uint64_t v = df__batch_col(b, at, i);
        if (v < prev)
            return false;
        prev = v;
    }
    *total = prev;
    return bytes_at <= b->size && prev <= b->size - bytes_at;
}

df_batch_t *df__batch_from_image(const void *p, size_t len, cm_err_t *err)
{
    if (len < sizeof(df_batch_t) || len % 8 != 0) {
        df__image_bad(err, "bad length");
        return NULL;
    }
    df_batch_t *b = cm_malloc(len);   /* aligned, whatever p was */
    memcpy(b, p, len);
    const char *why = NULL;
    uint64_t ow = b->ow, kbytes = 0, vbytes = 0;
    if (b->magic != DF_BATCH_MAGIC)
        why = "bad magic";
    else if (b->size != len)
        why = "size does not match";
    else if (ow != 4 && ow != 8)
        why = "bad offset width";
    else if (b->nkeys > b->nvals || (b->nkeys == 0) != (b->nvals == 0) || b->nvals >= len)
        why = "bad counts";
    else if (b->lower > b->upper)
        why = "bad step range";
    else if (!df__image_col(b, b->key_off_at, b->nkeys + 1, ow) || !df__image_col(b, b->val_off_at, b->nvals + 1, ow) ||
             (b->key_val_at && !df__image_col(b, b->key_val_at, b->nkeys + 1, ow)) ||
             (b->diff_at && !df__image_col(b, b->diff_at, b->nvals, 8)) ||
             !df__image_col(b, b->key_bytes_at, 0, 1) || !df__image_col(b, b->val_bytes_at, 0, 1))
        why = "column outside the batch";
    else if (!b->key_val_at && b->nkeys != b->nvals)
        why = "missing key-to-value column";
    else if (!df__image_offsets(b, b->key_off_at, b->nkeys, b->key_bytes_at, &kbytes) ||
             !df__image_offsets(b, b->val_off_at, b->nvals, b->val_bytes_at, &vbytes))
        why = "bad offsets";
    if (why == NULL && b->key_val_at) {
        /* Every key has at least one value, and they cover the values exactly. */
        uint64_t prev = df__batch_col(b, b->key_val_at, 0);
        if (prev != 0)
            why = "bad value ranges";
        for (uint64_t i = 1; why == NULL && i <= b->nkeys; i++) {
            uint64_t v = df__batch_col(b, b->key_val_at, i);
            if (v <= prev)
                why = "bad value ranges";
            prev = v;
        }
        if (why == NULL && prev != b->nvals)
            why = "bad value ranges";
    }
    for (uint64_t j = 0; why == NULL && b->diff_at && j < b->nvals; j++)
        if (df__batch_diff(b, j) == 0)
            why = "zero diff";
    /* Sorted and distinct: what every cursor and merge relies on. */
    for (uint64_t i = 0; why == NULL && i < b->nkeys; i++) {
        size_t kl, pl;
        const uint8_t *k = df__batch_key(b, i, &kl);
        if (i > 0) {
            const uint8_t *pk = df__batch_key(b, i - 1, &pl);
            if (df__bytes_cmp(pk, pl, k, kl) >= 0)
                why = "keys out of order";
        }
        for (uint64_t j = df__batch_vals_lo(b, i) + 1; why == NULL && j < df__batch_vals_lo(b, i + 1); j++) {
            size_t al, bl;
            const uint8_t *va = df__batch_val(b, j - 1, &al), *vb = df__batch_val(b, j, &bl);
            if (df__bytes_cmp(va, al, vb, bl) >= 0)
                why = "values out of order";
        }
    }
    (void)kbytes;
    (void)vbytes;
    if (why != NULL) {
        free(b);
        df__image_bad(err, why);
        return NULL;
    }
    atomic_init(&b->refs, 1);
    b->alloc = DF_BATCH_HEAP;   /* ours, whatever the image said */
    return b;
}
