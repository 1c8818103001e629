/*
 * test_dataflow_store.c: batches, merges, cursors, spines and snapshots
 * (dataflow/df_batch.c, df_merge.c, df_snap.c, df_spine.c), checked against
 * a plain model (every update in a list, sorted and summed when asked):
 * builders and merges consolidate exactly, fueled merges give the same bytes
 * as whole ones and never touch their inputs, cursors seek as a linear scan
 * would, batch images are checked before use, a spine's merged cursor shows
 * the model after any sequence of inserts and retractions, snapshots keep
 * their contents while the spine merges on, fuel keeps merges from being
 * forced, idle work compacts to one batch, big batches are unmapped a few
 * pages at a time, and snapshots cross threads.
 */
#include "dataflow/df_store.h"
#include "tests/unit/unit.h"

#include <pthread.h>
#include <stdlib.h>
#include <unistd.h>

static uint64_t rng_state;

static uint64_t rnd(void)
{
    uint64_t z = (rng_state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static uint64_t rnd_below(uint64_t n)
{
    return n ? rnd() % n : 0;
}

/* ------------------------------------------------------------ the model */

typedef struct rec {
    uint8_t k[8], v[8];
    uint8_t klen, vlen;
    int64_t diff;
} rec_t;

static int rec_cmp(const void *x, const void *y)
{
    const rec_t *a = x, *b = y;
    int c = df__bytes_cmp(a->k, a->klen, b->k, b->klen);
    return c ? c : df__bytes_cmp(a->v, a->vlen, b->v, b->vlen);
}

/* Sorts and sums equal (key, value), dropping zeros: what a batch must hold. */
static size_t consolidate(rec_t *r, size_t n)
{
    qsort(r, n, sizeof(*r), rec_cmp);
    size_t m = 0;
    for (size_t i = 0; i < n;) {
        rec_t u = r[i];
        size_t j = i + 1;
        while (j < n && rec_cmp(&r[j], &u) == 0)
            u.diff += r[j++].diff;
        i = j;
        if (u.diff != 0)
            r[m++] = u;
    }
    return m;
}

/* A short key or value from a small alphabet: prefixes, NULs and 0xFF are frequent. */
static void rnd_small(uint8_t *p, uint8_t *len)
{
    static const uint8_t alpha[] = {0x00, 0x01, 'a', 0xff};
    *len = (uint8_t)rnd_below(4);
    for (int i = 0; i < *len; i++)
        p[i] = alpha[rnd_below(4)];
}

static rec_t rnd_rec(void)
{
    rec_t r;
    memset(&r, 0, sizeof(r));
    rnd_small(r.k, &r.klen);
    rnd_small(r.v, &r.vlen);
    r.diff = (int64_t)rnd_below(5) - 2;
    return r;
}

/* One builder for every batch the tests make, as a worker keeps one. */
static df_builder_t builder;
static bool builder_ready;

static df_batch_t *build(const rec_t *r, size_t n, uint64_t lower, uint64_t upper)
{
    if (!builder_ready)
        df__builder_init(&builder);
    builder_ready = true;
    for (size_t i = 0; i < n; i++)
        df__builder_add(&builder, r[i].k, r[i].klen, r[i].v, r[i].vlen, r[i].diff);
    return df__builder_finish(&builder, lower, upper);
}

/* The records of a batch, through its cursor. */
static size_t dump_batch(const df_batch_t *b, rec_t *out)
{
    size_t n = 0;
    df_bcur_t c;
    for (df__bcur_init(&c, b); df__bcur_key_valid(&c); df__bcur_key_next(&c)) {
        size_t kl;
        const uint8_t *k = df__bcur_key(&c, &kl);
        for (; df__bcur_val_valid(&c); df__bcur_val_next(&c)) {
            size_t vl;
            const uint8_t *v = df__bcur_val(&c, &vl);
            CM_ASSERT(kl <= 8 && vl <= 8);
            memset(&out[n], 0, sizeof(out[n]));
            memcpy(out[n].k, k, kl);
            memcpy(out[n].v, v, vl);
            out[n].klen = (uint8_t)kl;
            out[n].vlen = (uint8_t)vl;
            out[n].diff = df__bcur_diff(&c);
            n++;
        }
    }
    return n;
}

static size_t dump_snap(df_snap_t *s, rec_t *out)
{
    size_t n = 0;
    df_scur_t c;
    df__scur_init(&c, s);
    for (; df__scur_key_valid(&c); df__scur_key_next(&c)) {
        size_t kl;
        const uint8_t *k = df__scur_key(&c, &kl);
        for (; df__scur_val_valid(&c); df__scur_val_next(&c)) {
            size_t vl;
            const uint8_t *v = df__scur_val(&c, &vl);
            CM_ASSERT(kl <= 8 && vl <= 8);
            memset(&out[n], 0, sizeof(out[n]));
            memcpy(out[n].k, k, kl);
            memcpy(out[n].v, v, vl);
            out[n].klen = (uint8_t)kl;
            out[n].vlen = (uint8_t)vl;
            out[n].diff = df__scur_diff(&c);
            n++;
        }
    }
    df__scur_free(&c);
    return n;
}

static bool same_recs(const rec_t *a, size_t na, const rec_t *b, size_t nb)
{
    if (na != nb)
        return false;
    for (size_t i = 0; i < na; i++)
        if (rec_cmp(&a[i], &b[i]) != 0 || a[i].diff != b[i].diff)
            return false;
    return true;
}

/* The batch is what the image check accepts (sorted, distinct, no zeros, no empty keys). */
static bool well_formed(const df_batch_t *b)
{
    cm_err_t err = {0};
    df_batch_t *copy = df__batch_from_image(b, (size_t)b->size, &err);
    if (copy == NULL)
        printf("  not well formed: %s\n", err.message);
    cm_err_clear(&err);
    df__batch_unref(copy);
    return copy != NULL;
}

/* ------------------------------------------------------------ batches */

static void batch_builder_consolidates(void)
{
    rng_state = 1;
    enum { N = 3000 };
    rec_t *in = cm_malloc(sizeof(rec_t) * N), *want = cm_malloc(sizeof(rec_t) * N), *got = cm_malloc(sizeof(rec_t) * N);
    for (int round = 0; round < 40; round++) {
        size_t n = rnd_below(N);
        for (size_t i = 0; i < n; i++)
            in[i] = rnd_rec();
        memcpy(want, in, sizeof(rec_t) * n);
        size_t nw = consolidate(want, n);
        df_batch_t *b = build(in, n, 3, 4);
        UNIT_CHECK(well_formed(b));
        UNIT_CHECK(b->nvals == nw && b->lower == 3 && b->upper == 4);
        size_t ng = dump_batch(b, got);
        UNIT_CHECK(same_recs(got, ng, want, nw));
        df__batch_unref(b);
    }
    /* Everything cancelling leaves an empty batch; the builder is reusable. */
    df_builder_t bl;
    df__builder_init(&bl);
    df__builder_add(&bl, "k", 1, "v", 1, 1);
    df__builder_add(&bl, "k", 1, "v", 1, -1);
    df__builder_add(&bl, "k", 1, "w", 1, 0);
    df_batch_t *b = df__builder_finish(&bl, 0, 1);
    UNIT_CHECK(b->nkeys == 0 && b->nvals == 0 && well_formed(b));
    df__batch_unref(b);
    df__builder_add(&bl, "k", 1, "v", 1, 2);
    UNIT_CHECK(df__builder_count(&bl) == 1);
    b = df__builder_finish(&bl, 1, 2);
    UNIT_CHECK(b->nkeys == 1 && b->nvals == 1 && df__batch_diff(b, 0) == 2);
    df__batch_unref(b);
    df__builder_free(&bl);
    free(in);
    free(want);
    free(got);
}

static void batch_layout_elisions(void)
{
    /* 1000 distinct keys with one value each, all +1: no key-to-value and no
     * diff column; 4-byte offsets; the size is the columns and the bytes. */
    df_builder_t bl;
    df__builder_init(&bl);
    for (int i = 999; i >= 0; i--) {
        uint8_t k[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
        df__builder_add(&bl, k, 4, "vv", 2, 1);
    }
    df_batch_t *b = df__builder_finish(&bl, 0, 1);
    UNIT_CHECK(b->key_val_at == 0 && b->diff_at == 0 && b->ow == 4);
    UNIT_CHECK(b->nkeys == 1000 && b->nvals == 1000);
    uint64_t want = ((sizeof(df_batch_t) + 7) & ~(size_t)7) + 4008 + 4008 + 4000 + 2000;   /* header, key_off, val_off, key bytes, value bytes */
    UNIT_CHECK(b->size == want);
    UNIT_CHECK(well_formed(b));
    size_t kl;
    const uint8_t *k0 = df__batch_key(b, 0, &kl);
    UNIT_CHECK(kl == 4 && k0[3] == 0);
    df__batch_unref(b);
    /* A retraction brings the diff column; two values of a key the key-to-value column. */
    df__builder_add(&bl, "a", 1, "x", 1, -1);
    df__builder_add(&bl, "b", 1, "x", 1, 1);
    df__builder_add(&bl, "b", 1, "y", 1, 1);
    b = df__builder_finish(&bl, 0, 1);
    UNIT_CHECK(b->diff_at != 0 && b->key_val_at != 0 && b->nkeys == 2 && b->nvals == 3);
    UNIT_CHECK(df__batch_vals_lo(b, 0) == 0 && df__batch_vals_lo(b, 1) == 1 && df__batch_vals_lo(b, 2) == 3);
    UNIT_CHECK(df__batch_diff(b, 0) == -1 && df__batch_diff(b, 2) == 1);
    UNIT_CHECK(well_formed(b));
    df__batch_unref(b);
    df__builder_free(&bl);
    /* The image is a function of the records: built twice, the same bytes. */
    rng_state = 11;
    rec_t r[200];
    for (int i = 0; i < 200; i++)
        r[i] = rnd_rec();
    df_batch_t *x = build(r, 200, 0, 1);
    for (int i = 0; i < 200; i++) {   /* another order */
        int j = (int)rnd_below(200);
        rec_t t = r[i];
        r[i] = r[j];
        r[j] = t;
    }
    df_batch_t *y = build(r, 200, 0, 1);
    UNIT_CHECK(x->size == y->size && memcmp((uint8_t *)x + 4, (uint8_t *)y + 4, (size_t)x->size - 4) == 0);
    df__batch_unref(x);
    df__batch_unref(y);
}

/* A copy of a batch's bytes, to show a merge leaves its inputs alone. */
static uint8_t *snapshot_bytes(const df_batch_t *b)
{
    uint8_t *p = cm_malloc((size_t)b->size);
    memcpy(p, b, (size_t)b->size);
    return p;
}

static bool same_bytes(const df_batch_t *b, const uint8_t *p)
{
    return memcmp((const uint8_t *)b + 4, p + 4, (size_t)b->size - 4) == 0;   /* all but refs */
}

static void batch_merge_fueled(void)
{
    rng_state = 2;
    enum { N = 1500 };
    rec_t *ra = cm_malloc(sizeof(rec_t) * N), *rb = cm_malloc(sizeof(rec_t) * N);
    rec_t *want = cm_malloc(sizeof(rec_t) * 2 * N), *got = cm_malloc(sizeof(rec_t) * 2 * N);
    for (int round = 0; round < 30; round++) {
        size_t na = rnd_below(N), nb = rnd_below(N);
        for (size_t i = 0; i < na; i++)
            ra[i] = rnd_rec();
        for (size_t i = 0; i < nb; i++)
            rb[i] = rnd_below(3) == 0 && na > 0 ? ra[rnd_below(na)] : rnd_rec();
        for (size_t i = 0; i < nb; i++)
            if (rnd_below(2))
                rb[i].diff = -rb[i].diff;   /* retractions of the other side's records */
        df_batch_t *a = build(ra, na, 0, 5), *b = build(rb, nb, 5, 9);
        memcpy(want, ra, sizeof(rec_t) * na);
        memcpy(want + na, rb, sizeof(rec_t) * nb);
        size_t nw = consolidate(want, na + nb);
        uint8_t *abytes = snapshot_bytes(a), *bbytes = snapshot_bytes(b);
        df_batch_t *whole = df__batch_merge(a, b);
        UNIT_CHECK(well_formed(whole));
        UNIT_CHECK(whole->lower == 0 && whole->upper == 9);
        size_t ng = dump_batch(whole, got);
        UNIT_CHECK(same_recs(got, ng, want, nw));
        /* A little fuel at a time: the same bytes. */
        df_merger_t *m = df__merger_new(a, b);
        int64_t step = 1 + (int64_t)rnd_below(7);
        int calls = 0;
        for (;;) {
            int64_t fuel = step;
            calls++;
            if (df__merger_work(m, &fuel))
                break;
            UNIT_CHECK(fuel <= 0);
        }
        df_batch_t *fueled = df__merger_finish(m);
        UNIT_CHECK(fueled->size == whole->size && same_bytes(fueled, (const uint8_t *)whole));
        UNIT_CHECK(na + nb < 10 || calls > 1);
        UNIT_CHECK(same_bytes(a, abytes) && same_bytes(b, bbytes));
        free(abytes);
        free(bbytes);
        df__batch_unref(whole);
        df__batch_unref(fueled);
        /* Abandoning a merge midway frees everything it made. */
        m = df__merger_new(a, b);
        int64_t fuel = (int64_t)(na + nb);
        df__merger_work(m, &fuel);
        df__merger_free(m);
        df__batch_unref(a);
        df__batch_unref(b);
    }
    /* A batch merged with its negation is empty. */
    rec_t r[50];
    for (int i = 0; i < 50; i++) {
        r[i] = rnd_rec();
        r[i].diff = 1 + (int64_t)rnd_below(3);
    }
    df_batch_t *a = build(r, 50, 0, 1);
    for (int i = 0; i < 50; i++)
        r[i].diff = -r[i].diff;
    df_batch_t *b = build(r, 50, 1, 2);
    df_batch_t *z = df__batch_merge(a, b);
    UNIT_CHECK(z->nkeys == 0 && z->nvals == 0 && well_formed(z));
    df_batch_t *e = df__batch_empty(0, 0), *same = df__batch_merge(a, e);
    UNIT_CHECK(same->size == a->size && same_bytes(same, (const uint8_t *)a));
    df__batch_unref(a);
    df__batch_unref(b);
    df__batch_unref(z);
    df__batch_unref(e);
    df__batch_unref(same);
    free(ra);
    free(rb);
    free(want);
    free(got);
}

static void batch_wide_offsets(void)
{
    rng_state = 3;
    rec_t r[400], got4[400], got8[400];
    for (int i = 0; i < 400; i++)
        r[i] = rnd_rec();
    df_batch_t *n4 = build(r, 400, 0, 1);
    df__batch_force_wide = true;
    df_batch_t *n8 = build(r, 400, 0, 1);
    df_batch_t *m8 = df__batch_merge(n8, n8);
    df__batch_force_wide = false;
    UNIT_CHECK(n4->ow == 4 && n8->ow == 8 && m8->ow == 8);
    UNIT_CHECK(well_formed(n8) && well_formed(m8));
    size_t a = dump_batch(n4, got4), b = dump_batch(n8, got8);
    UNIT_CHECK(same_recs(got4, a, got8, b));
    size_t c = dump_batch(m8, got8);
    UNIT_CHECK(c == a);
    for (size_t i = 0; i < c && i < a; i++)
        UNIT_CHECK(got8[i].diff == 2 * got4[i].diff);
    df__batch_unref(n4);
    df__batch_unref(n8);
    df__batch_unref(m8);
}

static void batch_cursor_seek(void)
{
    rng_state = 4;
    rec_t r[2000];
    for (int i = 0; i < 2000; i++)
        r[i] = rnd_rec();
    df_batch_t *b = build(r, 2000, 0, 1);
    for (int probe = 0; probe < 3000; probe++) {
        uint8_t k[8], kl;
        rnd_small(k, &kl);
        uint64_t lb = 0;   /* the linear answer: the first key >= k */
        while (lb < b->nkeys) {
            size_t l;
            const uint8_t *p = df__batch_key(b, lb, &l);
            if (df__bytes_cmp(p, l, k, kl) >= 0)
                break;
            lb++;
        }
        df_bcur_t c;
        df__bcur_init(&c, b);
        /* From an arbitrary earlier position too (galloping forward). */
        if (probe % 2 && lb > 0) {
            c.key = rnd_below(lb);
            df__bcur_val_rewind(&c);
        }
        bool eq = df__bcur_seek(&c, k, kl);
        UNIT_CHECK(c.key == lb);
        bool found = false;
        if (lb < b->nkeys) {
            size_t l;
            const uint8_t *p = df__batch_key(b, lb, &l);
            found = df__bytes_cmp(p, l, k, kl) == 0;
        }
        UNIT_CHECK(eq == found);
        if (lb < b->nkeys)
            UNIT_CHECK(c.val == df__batch_vals_lo(b, lb) && c.val_end == df__batch_vals_lo(b, lb + 1));
        else
            UNIT_CHECK(!df__bcur_key_valid(&c) && !df__bcur_val_valid(&c));
    }
    /* Seeking behind the current key stays put: seeks go forward. */
    df_bcur_t c;
    df__bcur_init(&c, b);
    df__bcur_key_next(&c);
    df__bcur_key_next(&c);
    uint64_t at = c.key;
    df__bcur_seek(&c, (const uint8_t *)"", 0);
    UNIT_CHECK(c.key == at);
    df__batch_unref(b);
    /* An empty batch. */
    df_batch_t *e = df__batch_empty(0, 0);
    df__bcur_init(&c, e);
    UNIT_CHECK(!df__bcur_key_valid(&c) && !df__bcur_seek(&c, (const uint8_t *)"a", 1));
    df__batch_unref(e);
}

static void batch_image_checked(void)
{
    rng_state = 6;
    rec_t r[300];
    for (int i = 0; i < 300; i++)
        r[i] = rnd_rec();
    df_batch_t *b = build(r, 300, 2, 3);
    cm_err_t err = {0};
    /* From an unaligned buffer: the image is copied, then checked. */
    uint8_t *buf = cm_malloc((size_t)b->size + 1);
    memcpy(buf + 1, b, (size_t)b->size);
    df_batch_t *c = df__batch_from_image(buf + 1, (size_t)b->size, &err);
    UNIT_CHECK(c != NULL && same_bytes(c, (const uint8_t *)b));
    df__batch_unref(c);
    /* Short images are refused. */
    for (size_t cut = 0; cut < b->size; cut += 1 + cut / 8) {
        cm_err_clear(&err);
        c = df__batch_from_image(buf + 1, cut, &err);
        UNIT_CHECK(c == NULL && strcmp(err.sqlstate, "XX001") == 0);
    }
    /* Any byte flipped: refused or still well formed, never a crash. */
    long refused = 0;
    for (size_t at = 4; at < b->size; at++) {
        memcpy(buf + 1, b, (size_t)b->size);
        buf[1 + at] ^= (uint8_t)(1 + rnd_below(255));
        cm_err_clear(&err);
        c = df__batch_from_image(buf + 1, (size_t)b->size, &err);
        refused += c == NULL;
        if (c != NULL) {   /* what is accepted reads safely */
            rec_t *tmp = cm_malloc(sizeof(rec_t) * (c->nvals + 1));
            df_bcur_t cur;
            size_t n = 0;
            for (df__bcur_init(&cur, c); df__bcur_key_valid(&cur); df__bcur_key_next(&cur))
                for (; df__bcur_val_valid(&cur); df__bcur_val_next(&cur))
                    n++;
            UNIT_CHECK(n == c->nvals);
            free(tmp);
        }
        df__batch_unref(c);
    }
    UNIT_CHECK(refused > 0);
    /* Two keys swapped: out of order. */
    memcpy(buf + 1, b, (size_t)b->size);
    df_batch_t *w = (df_batch_t *)cm_malloc((size_t)b->size);
    memcpy(w, b, (size_t)b->size);
    size_t l0, l1;
    df__batch_key(w, 0, &l0);
    df__batch_key(w, 1, &l1);
    if (l0 == l1 && l0 > 0) {
        uint8_t *k = (uint8_t *)w + w->key_bytes_at;
        uint8_t t[8];
        memcpy(t, k, l0);
        memcpy(k, k + l0, l0);
        memcpy(k + l0, t, l0);
        cm_err_clear(&err);
        c = df__batch_from_image(w, (size_t)w->size, &err);
        UNIT_CHECK(c == NULL && strstr(err.message, "out of order") != NULL);
    }
    free(w);
    cm_err_clear(&err);
    free(buf);
    df__batch_unref(b);
}

/* A batch of 256 KiB or more is a mapping; released, fuel unmaps it a page per unit. */
static void batch_big_reclaimed(void)
{
    df__reclaim_all();
    UNIT_CHECK(df__reclaim_pending() == 0);
    df_builder_t bl;
    df__builder_init(&bl);
    for (uint32_t i = 0; i < 100000; i++) {
        uint8_t k[4] = {(uint8_t)(i >> 24), (uint8_t)(i >> 16), (uint8_t)(i >> 8), (uint8_t)i};
        df__builder_add(&bl, k, 4, "0123456789", 10, 1);
    }
    df_batch_t *big = df__builder_finish(&bl, 0, 1);
    df__builder_free(&bl);
    UNIT_CHECK(big->alloc == DF_BATCH_MAPPED && big->size > (1u << 20) && well_formed(big));
    df_batch_t *small = df__batch_empty(0, 1);
    UNIT_CHECK(small->alloc == DF_BATCH_HEAP);
    df__batch_unref(small);
    /* Its image says nothing about how the copy is allocated. */
    cm_err_t err = {0};
    df_batch_t *copy = df__batch_from_image(big, (size_t)big->size, &err);
    UNIT_CHECK(copy != NULL && copy->alloc == DF_BATCH_HEAP);
    df__batch_unref(copy);
    uint64_t size = big->size;
    df__batch_unref(big);
    uint64_t pending = df__reclaim_pending();
    UNIT_CHECK(pending >= size && pending < size + 8192);
    int calls = 0;
    for (;;) {
        int64_t fuel = 16;   /* pages */
        bool more = df__reclaim_work(&fuel);
        calls++;
        UNIT_CHECK(df__reclaim_pending() < pending || !more);
        pending = df__reclaim_pending();
        if (!more)
            break;
    }
    UNIT_CHECK(df__reclaim_pending() == 0);
    UNIT_CHECK(calls >= (int)(size / (uint64_t)sysconf(_SC_PAGESIZE) / 16));
}

/* ------------------------------------------------------------ spines */

typedef struct model {
    rec_t *r;
    size_t n, cap;
} model_t;

static void model_add(model_t *m, rec_t r)
{
    if (m->n == m->cap) {
        m->cap = m->cap ? 2 * m->cap : 1024;
        m->r = cm_realloc(m->r, sizeof(rec_t) * m->cap);
    }
    m->r[m->n++] = r;
}

static size_t model_now(model_t *m, rec_t *out)
{
    memcpy(out, m->r, sizeof(rec_t) * m->n);
    size_t n = consolidate(out, m->n);
    /* Keep the model small: it is its consolidation. */
    memcpy(m->r, out, sizeof(rec_t) * n);
    m->n = n;
    return n;
}

static rec_t key_rec(uint32_t key, uint32_t val, int64_t diff)
{
    rec_t r;
    memset(&r, 0, sizeof(r));
    r.klen = 4;
    r.vlen = 4;
    for (int i = 0; i < 4; i++) {
        r.k[i] = (uint8_t)(key >> (24 - 8 * i));
        r.v[i] = (uint8_t)(val >> (24 - 8 * i));
    }
    r.diff = diff;
    return r;
}

static int log2_ceil(uint64_t n)
{
    int l = 0;
    while (((uint64_t)1 << l) < n)
        l++;
    return l;
}

static void spine_matches_model(void)
{
    rng_state = 8;
    df_spine_t s;
    df__spine_init(&s);
    model_t m = {0};
    enum { CAP = 60000 };
    rec_t *want = cm_malloc(sizeof(rec_t) * CAP), *got = cm_malloc(sizeof(rec_t) * CAP), *step = cm_malloc(sizeof(rec_t) * 400);
    uint64_t inserted = 0;
    for (uint64_t t = 0; t < 400; t++) {
        size_t n = 1 + rnd_below(rnd_below(4) == 0 ? 400 : 20);
        size_t live = m.n;
        for (size_t i = 0; i < n; i++) {
            if (live > 0 && rnd_below(3) == 0) {
                rec_t r = m.r[rnd_below(live)];   /* a retraction of something there */
                r.diff = -r.diff;
                step[i] = r;
            } else {
                step[i] = key_rec((uint32_t)rnd_below(3000), (uint32_t)rnd_below(3), 1 + (int64_t)rnd_below(2));
            }
        }
        for (size_t i = 0; i < n; i++)
            model_add(&m, step[i]);
        df__spine_insert(&s, build(step, n, t, t + 1));
        inserted += n;
        if (t % 7 == 0 || t == 399) {
            size_t nw = model_now(&m, want);
            df_snap_t *snap = df__spine_snapshot(&s);
            size_t ng = dump_snap(snap, got);
            if (!same_recs(got, ng, want, nw)) {
                printf("  step %llu: spine shows %zu records, model %zu\n", (unsigned long long)t, ng, nw);
                unit__case_failed = 1;
            }
            /* Seeks land where the model says. */
            df_scur_t c;
            df__scur_init(&c, snap);
            uint32_t probe = 0;
            for (int k = 0; k < 20; k++) {
                probe += (uint32_t)rnd_below(300);
                rec_t p = key_rec(probe, 0, 0);
                bool eq = df__scur_seek(&c, p.k, 4);
                size_t lb = 0;
                while (lb < nw && df__bytes_cmp(want[lb].k, want[lb].klen, p.k, 4) < 0)
                    lb++;
                if (lb == nw) {
                    UNIT_CHECK(!df__scur_key_valid(&c));
                    break;
                }
                size_t kl;
                const uint8_t *key = df__scur_key(&c, &kl);
                UNIT_CHECK(df__bytes_cmp(key, kl, want[lb].k, want[lb].klen) == 0);
                UNIT_CHECK(eq == (df__bytes_cmp(want[lb].k, 4, p.k, 4) == 0));
                /* Values of the key, rewound and read twice. */
                int64_t sum1 = 0, sum2 = 0;
                for (; df__scur_val_valid(&c); df__scur_val_next(&c))
                    sum1 += df__scur_diff(&c);
                df__scur_val_rewind(&c);
                for (; df__scur_val_valid(&c); df__scur_val_next(&c))
                    sum2 += df__scur_diff(&c);
                int64_t sumw = 0;
                for (size_t j = lb; j < nw && df__bytes_cmp(want[j].k, 4, want[lb].k, 4) == 0; j++)
                    sumw += want[j].diff;
                UNIT_CHECK(sum1 == sumw && sum2 == sumw);
            }
            df__scur_free(&c);
            df__snap_unref(snap);
            df_spine_stats_t st;
            df__spine_stats(&s, &st);
            UNIT_CHECK(st.batches <= (uint64_t)(2 * log2_ceil(inserted) + 2));
            UNIT_CHECK(st.records >= nw);
        }
    }
    /* Retract everything, then let idle work compact: nothing is left. */
    size_t nw = model_now(&m, want);
    for (size_t i = 0; i < nw; i++)
        want[i].diff = -want[i].diff;
    df__spine_insert(&s, build(want, nw, 400, 401));
    int rounds = 0;
    while (df__spine_idle_work(&s, 1000))
        rounds++;
    UNIT_CHECK(rounds > 0);
    df_spine_stats_t st;
    df__spine_stats(&s, &st);
    UNIT_CHECK(st.records == 0 && st.batches == 0 && st.merges == 0);
    df_snap_t *snap = df__spine_snapshot(&s);
    UNIT_CHECK(snap->nbatches == 0 && dump_snap(snap, got) == 0);
    df__snap_unref(snap);
    UNIT_CHECK(s.lower == 0 && s.upper == 401);
    df__spine_free(&s);
    free(m.r);
    free(want);
    free(got);
    free(step);
}

static void spine_snapshot_isolation(void)
{
    rng_state = 9;
    df_spine_t s;
    df__spine_init(&s);
    rec_t batch[100];
    for (uint64_t t = 0; t < 50; t++) {
        for (int i = 0; i < 100; i++)
            batch[i] = key_rec((uint32_t)rnd_below(100000), 0, 1);
        df__spine_insert(&s, build(batch, 100, t, t + 1));
    }
    df_snap_t *old = df__spine_snapshot(&s);
    rec_t *before = cm_malloc(sizeof(rec_t) * 20000), *after = cm_malloc(sizeof(rec_t) * 20000);
    size_t nb = dump_snap(old, before);
    /* The same snapshot while nothing changed. */
    df_snap_t *again = df__spine_snapshot(&s);
    UNIT_CHECK(again == old);
    df__snap_unref(again);
    /* Retract what the snapshot saw, add more, merge to the end. */
    for (size_t i = 0; i < nb; i++) {
        rec_t r = before[i];
        r.diff = -r.diff;
        df__spine_insert(&s, build(&r, 1, 50 + i, 51 + i));
    }
    for (int i = 0; i < 100; i++)
        batch[i] = key_rec((uint32_t)i, 7, 1);
    df__spine_insert(&s, build(batch, 100, 9999, 10000));
    while (df__spine_idle_work(&s, 500))
        ;
    df_snap_t *now = df__spine_snapshot(&s);
    UNIT_CHECK(now != old && now->nbatches == 1 && now->records == 100);
    /* The old snapshot reads as before, even once the spine is gone. */
    df__spine_free(&s);
    size_t na = dump_snap(old, after);
    UNIT_CHECK(same_recs(before, nb, after, na));
    UNIT_CHECK(dump_snap(now, after) == 100);
    df__snap_unref(old);
    df__snap_unref(now);
    free(before);
    free(after);
}

/* Inserts in steps of n records, counting forced merges and the most work an insert did. */
static void fuel_run(int steps, int per_step, bool random_keys, uint64_t *forced, uint64_t *max_work,
                     uint64_t *batches_max, uint64_t *total_work)
{
    df_spine_t s;
    df__spine_init(&s);
    rec_t *b = cm_malloc(sizeof(rec_t) * (size_t)per_step);
    uint32_t next = 0;
    *max_work = *batches_max = 0;
    for (int t = 0; t < steps; t++) {
        for (int i = 0; i < per_step; i++)
            b[i] = key_rec(random_keys ? (uint32_t)rnd() : next++, 0, 1);
        uint64_t w0 = s.work;
        df__spine_insert(&s, build(b, (size_t)per_step, (uint64_t)t, (uint64_t)t + 1));
        if (s.work - w0 > *max_work)
            *max_work = s.work - w0;
        df_spine_stats_t st;
        df__spine_stats(&s, &st);
        if (st.batches > *batches_max)
            *batches_max = st.batches;
    }
    *forced = s.merges_forced;
    *total_work = s.work;
    df__spine_free(&s);
    free(b);
}

static void spine_fuel_bounds(void)
{
    rng_state = 10;
    struct {
        int steps, per_step;
        bool random_keys;
    } runs[] = {{100000, 1, false}, {30000, 1, true}, {2000, 100, true}, {200, 1000, false}};
    for (size_t i = 0; i < CM_ARRAY_LEN(runs); i++) {
        uint64_t forced, max_work, batches_max, total;
        fuel_run(runs[i].steps, runs[i].per_step, runs[i].random_keys, &forced, &max_work, &batches_max, &total);
        uint64_t n = (uint64_t)runs[i].steps * (uint64_t)runs[i].per_step;
        int levels = log2_ceil(n) + 1;
        /* No merge is ever forced: the fuel finishes each one in time. */
        if (forced != 0) {
            printf("  run %zu: %llu merges forced\n", i, (unsigned long long)forced);
            unit__case_failed = 1;
        }
        /* One insert's work is bounded by its size (rounded up to its level's) times the levels, not by the spine. */
        UNIT_CHECK(max_work <= (uint64_t)DF_SPINE_EFFORT * ((uint64_t)1 << log2_ceil((uint64_t)runs[i].per_step)) *
                                   (uint64_t)levels);
        UNIT_CHECK(batches_max <= (uint64_t)(2 * levels));
        /* Each record is merged about log2(n) times, twice over (count, write). */
        UNIT_CHECK(total <= 4 * n * (uint64_t)levels);
    }
}

static void spine_idle_compacts(void)
{
    rng_state = 12;
    df_spine_t s;
    df__spine_init(&s);
    rec_t b[64];
    for (uint64_t t = 0; t < 300; t++) {
        for (int i = 0; i < 64; i++)
            b[i] = key_rec((uint32_t)(t * 64 + (uint64_t)i), 1, 1);
        df__spine_insert(&s, build(b, 64, t, t + 1));
    }
    df_spine_stats_t full;
    df__spine_stats(&s, &full);
    UNIT_CHECK(full.records == 300 * 64 && full.batches > 1);
    /* Update every row (retract, insert a new value): twice the records until merged. */
    for (uint64_t t = 0; t < 300; t++) {
        for (int i = 0; i < 32; i++) {
            b[2 * i] = key_rec((uint32_t)(t * 64 + (uint64_t)i), 1, -1);
            b[2 * i + 1] = key_rec((uint32_t)(t * 64 + (uint64_t)i), 2, 1);
        }
        df__spine_insert(&s, build(b, 64, 300 + t, 301 + t));
    }
    while (df__spine_idle_work(&s, 777))
        ;
    /* Idle work goes top-down as inserts do: no lower merge lands on a running one. */
    UNIT_CHECK(s.merges_forced == 0);
    df_spine_stats_t st;
    df__spine_stats(&s, &st);
    UNIT_CHECK(st.batches == 1 && st.merges == 0 && st.records == 300 * 64);
    /* Memory follows the live data: about what the same rows built at once take. */
    UNIT_CHECK(st.bytes < full.bytes + full.bytes / 4);
    UNIT_CHECK(!df__spine_idle_work(&s, 1000));
    df__spine_free(&s);
    /* An empty spine has no work and no levels (once released memory is unmapped). */
    df__reclaim_all();
    df__spine_init(&s);
    UNIT_CHECK(!df__spine_idle_work(&s, 10));
    df__spine_insert(&s, df__batch_empty(0, 1));
    UNIT_CHECK(s.nlevels == 0);
    df__spine_free(&s);
}

/* A snapshot read and released on another thread while its spine goes on. */
typedef struct reader_arg {
    df_snap_t *snap;
    size_t records;
} reader_arg_t;

static void *reader_main(void *p)
{
    reader_arg_t *a = p;
    rec_t *tmp = cm_malloc(sizeof(rec_t) * 10000);
    for (int i = 0; i < 5; i++)
        a->records = dump_snap(a->snap, tmp);
    df__snap_unref(a->snap);
    free(tmp);
    return NULL;
}

static void spine_snapshot_threads(void)
{
    rng_state = 13;
    df_spine_t s;
    df__spine_init(&s);
    rec_t b[50];
    reader_arg_t args[4];
    pthread_t th[4];
    size_t expect[4];
    for (int r = 0; r < 4; r++) {
        for (uint64_t t = 0; t < 20; t++) {
            for (int i = 0; i < 50; i++)
                b[i] = key_rec((uint32_t)rnd(), 0, 1);
            df__spine_insert(&s, build(b, 50, t, t + 1));
        }
        args[r].snap = df__spine_snapshot(&s);
        rec_t *tmp = cm_malloc(sizeof(rec_t) * 10000);
        expect[r] = dump_snap(args[r].snap, tmp);
        free(tmp);
        UNIT_CHECK(pthread_create(&th[r], NULL, reader_main, &args[r]) == 0);
    }
    while (df__spine_idle_work(&s, 100))
        ;
    df__spine_free(&s);
    for (int r = 0; r < 4; r++) {
        pthread_join(th[r], NULL);
        UNIT_CHECK(args[r].records == expect[r] && expect[r] == (size_t)(r + 1) * 1000);
    }
}

int main(void)
{
    UNIT_RUN(batch_builder_consolidates);
    UNIT_RUN(batch_layout_elisions);
    UNIT_RUN(batch_merge_fueled);
    UNIT_RUN(batch_wide_offsets);
    UNIT_RUN(batch_cursor_seek);
    UNIT_RUN(batch_image_checked);
    UNIT_RUN(batch_big_reclaimed);
    UNIT_RUN(spine_matches_model);
    UNIT_RUN(spine_snapshot_isolation);
    UNIT_RUN(spine_fuel_bounds);
    UNIT_RUN(spine_idle_compacts);
    UNIT_RUN(spine_snapshot_threads);
    df__builder_free(&builder);
    df__reclaim_all();
    UNIT_EXIT();
}
