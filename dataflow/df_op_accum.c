/*
 * df_op_accum.c: a REDUCE whose aggregates all accumulate (count, and sum
 * and avg of integers and intervals; plan_agg_accumulates) keeps no input
 * rows (DESIGN §6): each group on its owner is one encoded state row, the
 * number of rows in the group, the group's key values, and per aggregate a
 * count and a sum (plan_agg_acc_add / plan_agg_acc_result, the plan's
 * kernels). A touched group's old row is retracted and its new one added;
 * a group whose row count reaches 0 is removed (its memory with it), except
 * the one group of an aggregate without GROUP BY. So a change costs the
 * size of the change, whatever the size of the group. DISTINCT (no
 * aggregates) is the same with the row count alone: a row appears when its
 * count rises from 0 and goes when it falls back.
 *
 * Before the exchange each worker folds its share of the step's rows into
 * one partial state per group (df__accum_route: the row count, whether the
 * key values are known and which, per aggregate a count and a sum), and
 * only those cross to the owners, which merge them into the groups' states
 * (plan_agg_acc_merge). A COPY of a million rows into a thousand groups
 * sends a thousand records per worker, not a million.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

typedef struct df__acc {
    struct df__acc *next;
    uint64_t hash;
    size_t klen, slen;
    uint8_t *state;              /* points after the key */
    uint8_t key[];
} df__acc_t;

struct df__accmap {
    df__acc_t **buckets;
    size_t nbuckets, n;
    uint64_t bytes;              /* of the groups' entries, for introspection */
};

static size_t df__acc_bytes(const df__acc_t *e)
{
    return sizeof *e + e->klen + e->slen;
}

void df__accum_size(const df_reduce_t *rd, uint64_t *groups, uint64_t *bytes)
{
    const df__accmap_t *m = rd->groups;
    *groups = m ? m->n : 0;
    *bytes = m ? m->bytes + m->nbuckets * sizeof *m->buckets : 0;
}

void df__accum_init(df_reduce_t *rd, df_node_t *n)
{
    rd->groups = cm_calloc(1, sizeof *rd->groups);
    rd->groups->nbuckets = 64;
    rd->groups->buckets = cm_calloc(rd->groups->nbuckets, sizeof *rd->groups->buckets);
    rd->nstate = 1 + rd->nkeys + 2 * rd->naggs;
    rd->state_types = cm_calloc((size_t)rd->nstate, sizeof(ty_oid_t));
    int k = 0;
    rd->state_types[k++] = TY_INT8;
    for (int i = 0; i < rd->nkeys; i++)
        rd->state_types[k++] = rd->keys[i]->type;
    for (int i = 0; i < rd->naggs; i++) {
        const plan_agg_t *a = rd->aggs[i].a;
        rd->state_types[k++] = TY_INT8;
        rd->state_types[k++] = a->op == PLAN_AGG_SUM || a->op == PLAN_AGG_AVG ? a->state : TY_INT8;
    }
    /* A partial state: rows, keys known, the keys, per aggregate count, has a sum, sum. */
    rd->npart = 2 + rd->nkeys + 3 * rd->naggs;
    rd->part_types = cm_calloc((size_t)rd->npart, sizeof(ty_oid_t));
    k = 0;
    rd->part_types[k++] = TY_INT8;
    rd->part_types[k++] = TY_BOOL;
    for (int i = 0; i < rd->nkeys; i++)
        rd->part_types[k++] = rd->keys[i]->type;
    for (int i = 0; i < rd->naggs; i++) {
        rd->part_types[k++] = TY_INT8;
        rd->part_types[k++] = TY_BOOL;
        rd->part_types[k++] = rd->state_types[2 + rd->nkeys + 2 * i];
    }
}

void df__accum_free(df_reduce_t *rd)
{
    df__accmap_t *m = rd->groups;
    if (m) {
        for (size_t b = 0; b < m->nbuckets; b++)
            for (df__acc_t *e = m->buckets[b], *nx; e; e = nx) {
                nx = e->next;
                free(e);
            }
        free(m->buckets);
        free(m);
    }
    free(rd->state_types);
    free(rd->part_types);
    rd->groups = NULL;
    rd->state_types = NULL;
    rd->part_types = NULL;
}

static df__acc_t **df__acc_slot(df__accmap_t *m, const uint8_t *key, size_t klen, uint64_t h)
{
    df__acc_t **at = &m->buckets[h & (m->nbuckets - 1)];
    while (*at && !((*at)->hash == h && (*at)->klen == klen && (klen == 0 || memcmp((*at)->key, key, klen) == 0)))
        at = &(*at)->next;
    return at;
}

static void df__acc_grow(df__accmap_t *m)
{
    size_t nb = m->nbuckets * 2;
    df__acc_t **b = cm_calloc(nb, sizeof *b);
    for (size_t i = 0; i < m->nbuckets; i++)
        for (df__acc_t *e = m->buckets[i], *nx; e; e = nx) {
            nx = e->next;
            e->next = b[e->hash & (nb - 1)];
            b[e->hash & (nb - 1)] = e;
        }
    free(m->buckets);
    m->buckets = b;
    m->nbuckets = nb;
}

/* The group's output row from its state (kv: key values; accs: per aggregate) into out with diff sign. */
static void df__acc_emit(df_step_t *s, df_node_t *n, const uint8_t *key, size_t klen, const ty_datum_t *kv,
                         const plan_aggacc_t *accs, int64_t sign, df_builder_t *out, cm_buf_t *enc)
{
    df_reduce_t *rd = n->reduce;
    ty_datum_t *row = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(n->ncols ? n->ncols : 1));
    bool ok = true;
    for (int i = 0; i < rd->nkeys && i < n->ncols; i++)
        row[i] = kv[i];
    for (int i = 0; ok && i < rd->naggs; i++)
        ok = plan_agg_acc_result(rd->aggs[i].a, &accs[i], &s->ctx, &row[rd->nkeys + i]);
    cm_buf_reset(enc);
    if (ok && df__row_encode(n->types, n->ncols, row, &s->ctx, enc))
        df__builder_add(out, key, klen, enc->data, enc->len, sign);
    else
        df__graph_error(s, sign);
}

/* One group: its state, the partial states for it merged, the state again. The delta's [lo, hi) of d. */
static void df__acc_group(df_step_t *s, df_node_t *n, const uint8_t *key, size_t klen, const df_batch_t *d,
                          uint64_t lo, uint64_t hi, df_builder_t *out, cm_buf_t *enc)
{
    df_reduce_t *rd = n->reduce;
    df__accmap_t *m = rd->groups;
    uint64_t h = df__hash(key, klen);
    df__acc_t **slot = df__acc_slot(m, key, klen, h);
    ty_datum_t *st = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)rd->nstate);
    ty_datum_t *kv = st + 1;
    plan_aggacc_t *accs = cm_arena_zalloc(&s->rowa, sizeof *accs * (size_t)(rd->naggs + 1));
    int64_t rows = 0;
    bool had = *slot != NULL;
    if (had) {
        if (!df__row_decode(rd->state_types, rd->nstate, (*slot)->state, (*slot)->slen, DF_ROW_COPY, &s->ctx, st)) {
            cm_err_clear(&s->err);
            return;   /* our own bytes: cannot fail */
        }
        rows = st[0].v.i;
        for (int i = 0; i < rd->naggs; i++)
            accs[i] = (plan_aggacc_t){.count = st[1 + rd->nkeys + 2 * i].v.i, .sum = st[2 + rd->nkeys + 2 * i],
                                      .has_sum = !st[2 + rd->nkeys + 2 * i].isnull};
        if (rows > 0 || rd->nkeys == 0)
            df__acc_emit(s, n, key, klen, kv, accs, -1, out, enc);
    }
    ty_datum_t *p = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)rd->npart);
    bool keys_known = had && rows > 0;
    for (uint64_t j = lo; d && j < hi; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(d, j, &len);
        int64_t copies = df__batch_diff(d, j);   /* equal partials from several workers */
        if (!df__row_decode(rd->part_types, rd->npart, v, len, DF_ROW_BORROW, &s->ctx, p)) {
            cm_err_clear(&s->err);
            continue;   /* our own bytes: cannot fail */
        }
        for (int64_t c = 0; c < copies; c++) {
            rows += p[0].v.i;
            if (!keys_known && p[1].v.b) {
                for (int i = 0; i < rd->nkeys; i++)
                    kv[i] = p[2 + i];
                keys_known = true;
            }
            for (int i = 0; i < rd->naggs; i++) {
                const ty_datum_t *q = &p[2 + rd->nkeys + 3 * i];
                plan_aggacc_t part = {.count = q[0].v.i, .sum = q[2], .has_sum = q[1].v.b};
                if (!plan_agg_acc_merge(rd->aggs[i].a, &accs[i], &part, &s->ctx))
                    df__graph_error(s, 1);
            }
        }
    }
    if (rows <= 0 && rd->nkeys > 0) {
        if (had) {
            df__acc_t *gone = *slot;
            *slot = gone->next;
            m->bytes -= df__acc_bytes(gone);
            free(gone);
            m->n--;
        }
        return;
    }
    if (rd->nkeys > 0 && !keys_known)
        return;   /* only retractions of rows never added: nothing to show */
    df__acc_emit(s, n, key, klen, kv, accs, +1, out, enc);
    st[0] = (ty_datum_t){.v.i = rows};
    for (int i = 0; i < rd->naggs; i++) {
        st[1 + rd->nkeys + 2 * i] = (ty_datum_t){.v.i = accs[i].count};
        st[2 + rd->nkeys + 2 * i] = accs[i].sum;
        if (accs[i].count <= 0 || (rd->aggs[i].a->op != PLAN_AGG_SUM && rd->aggs[i].a->op != PLAN_AGG_AVG))
            st[2 + rd->nkeys + 2 * i] = (ty_datum_t){.isnull = true};
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (!df__row_encode(rd->state_types, rd->nstate, st, &s->ctx, &b)) {
        df__graph_error(s, 1);
        cm_buf_free(&b);
        return;
    }
    df__acc_t *e = cm_malloc(sizeof *e + klen + b.len);
    e->hash = h;
    e->klen = klen;
    e->slen = b.len;
    memcpy(e->key, key, klen);
    e->state = e->key + klen;
    memcpy(e->state, b.data, b.len);
    cm_buf_free(&b);
    m->bytes += df__acc_bytes(e);
    if (had) {
        df__acc_t *old = *slot;
        m->bytes -= df__acc_bytes(old);
        e->next = old->next;
        *slot = e;
        free(old);
    } else {
        e->next = NULL;
        *slot = e;
        if (++m->n > m->nbuckets)
            df__acc_grow(m);
    }
}

void df__accum_step(df_step_t *s, df_node_t *n, const df_batch_t *d, bool global, df_builder_t *out)
{
    cm_buf_t enc;
    cm_buf_init(&enc, 0);
    bool global_seen = false;
    for (uint64_t k = 0; d && k < d->nkeys; k++) {
        size_t kl;
        const uint8_t *kp = df__batch_key(d, k, &kl);
        uint64_t lo = df__batch_vals_lo(d, k), hi = k + 1 < d->nkeys ? df__batch_vals_lo(d, k + 1) : d->nvals;
        global_seen |= kl == 0;
        df__acc_group(s, n, kp, kl, d, lo, hi, out, &enc);
        cm_arena_reset(&s->rowa);
    }
    if (global && !global_seen)
        df__acc_group(s, n, (const uint8_t *)"", 0, NULL, 0, 0, out, &enc);
    cm_arena_reset(&s->rowa);
    cm_buf_free(&enc);
}

/* ------------------------------------------------------------ before the exchange */

typedef struct df__part {
    uint64_t hash;
    uint8_t *key;
    size_t klen;
    int64_t rows;
    bool keys_known;
    ty_datum_t *kv;
    plan_aggacc_t *accs;
} df__part_t;

typedef struct df__parts {
    df__part_t **slots;          /* open addressing, at most half full */
    size_t cap, n;
    cm_arena_t arena;            /* the partial states and what their values point to */
} df__parts_t;

static df__part_t *df__part_find(df__parts_t *ps, df_reduce_t *rd, const uint8_t *key, size_t klen)
{
    uint64_t h = df__hash(key, klen);
    size_t i = h & (ps->cap - 1);
    for (; ps->slots[i]; i = (i + 1) & (ps->cap - 1)) {
        df__part_t *p = ps->slots[i];
        if (p->hash == h && p->klen == klen && (klen == 0 || memcmp(p->key, key, klen) == 0))
            return p;
    }
    df__part_t *p = cm_arena_zalloc(&ps->arena, sizeof *p);
    p->hash = h;
    p->klen = klen;
    p->key = cm_arena_alloc(&ps->arena, klen ? klen : 1);
    if (klen > 0)
        memcpy(p->key, key, klen);   /* key is NULL for the one group of an aggregate without GROUP BY */
    p->kv = cm_arena_zalloc(&ps->arena, sizeof(ty_datum_t) * (size_t)(rd->nkeys + 1));
    p->accs = cm_arena_zalloc(&ps->arena, sizeof(plan_aggacc_t) * (size_t)(rd->naggs + 1));
    ps->slots[i] = p;
    if (++ps->n * 2 > ps->cap) {
        size_t cap = ps->cap * 2;
        df__part_t **slots = cm_calloc(cap, sizeof *slots);
        for (size_t j = 0; j < ps->cap; j++)
            if (ps->slots[j]) {
                size_t k = ps->slots[j]->hash & (cap - 1);
                while (slots[k])
                    k = (k + 1) & (cap - 1);
                slots[k] = ps->slots[j];
            }
        free(ps->slots);
        ps->slots = slots;
        ps->cap = cap;
    }
    return p;
}

void df__accum_route(df_step_t *s, df_node_t *n, const df_batch_t *in, df_builder_t *bls)
{
    df_reduce_t *rd = n->reduce;
    df__parts_t ps = {.cap = 64};
    ps.slots = cm_calloc(ps.cap, sizeof *ps.slots);
    cm_arena_init(&ps.arena, 0);
    /* What a partial state keeps (key values, sums) lives in its arena; the rest is per row. */
    ty_ctx_t pctx = s->ctx;
    pctx.arena = &ps.arena;
    int incols = n->in[0]->ncols;
    cm_buf_t key;
    cm_buf_init(&key, 0);
    for (uint64_t j = 0; in && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
        ty_datum_t *kv = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(rd->nkeys + 1));
        cm_buf_reset(&key);
        if (!df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_BORROW, &s->ctx, vals) ||
            !df__eval_keys(s, rd, vals, kv) || !df__key_encode(rd->kcols, rd->nkeys, kv, &s->ctx, &key)) {
            df__graph_error(s, diff);
            cm_arena_reset(&s->rowa);
            continue;
        }
        df__part_t *p = df__part_find(&ps, rd, key.data, key.len);
        if (!p->keys_known && diff > 0) {
            for (int i = 0; i < rd->nkeys; i++)
                p->kv[i] = ty_datum_copy(rd->keys[i]->type, &kv[i], &ps.arena);
            p->keys_known = true;
        }
        bool ok = true;
        for (int i = 0; ok && i < rd->naggs; i++) {
            df__agg_t *x = &rd->aggs[i];
            bool pass;
            if (!(ok = df__agg_filter(s, x, vals, &pass)))
                break;
            if (!pass)
                continue;
            ty_datum_t arg;
            memset(&arg, 0, sizeof arg);
            if (x->nes > 0 && !(ok = ty_expr_eval(x->es[0], &s->ctx, vals, NULL, &arg)))
                break;
            ok = plan_agg_acc_add(x->a, &p->accs[i], &arg, diff, &pctx);
        }
        if (!ok)
            df__graph_error(s, diff);
        p->rows += diff;
        cm_arena_reset(&s->rowa);
    }
    /* One record per group to its owner: the partial state as a row. */
    ty_datum_t *row = cm_arena_alloc(&ps.arena, sizeof(ty_datum_t) * (size_t)rd->npart);
    cm_buf_t enc;
    cm_buf_init(&enc, 0);
    for (size_t i = 0; i < ps.cap; i++) {
        df__part_t *p = ps.slots[i];
        if (p == NULL)
            continue;
        bool changed = p->rows != 0;
        for (int a = 0; a < rd->naggs; a++)
            changed |= p->accs[a].count != 0 || p->accs[a].has_sum;
        if (!changed && !p->keys_known)
            continue;   /* rows that came and went within the step, on this worker */
        row[0] = (ty_datum_t){.v.i = p->rows};
        row[1] = (ty_datum_t){.v.b = p->keys_known};
        for (int k = 0; k < rd->nkeys; k++)
            row[2 + k] = p->keys_known ? p->kv[k] : (ty_datum_t){.isnull = true};
        for (int a = 0; a < rd->naggs; a++) {
            ty_datum_t *q = &row[2 + rd->nkeys + 3 * a];
            q[0] = (ty_datum_t){.v.i = p->accs[a].count};
            q[1] = (ty_datum_t){.v.b = p->accs[a].has_sum};
            q[2] = p->accs[a].has_sum ? p->accs[a].sum : (ty_datum_t){.isnull = true};
        }
        cm_buf_reset(&enc);
        if (df__row_encode(rd->part_types, rd->npart, row, &s->ctx, &enc))
            df__builder_add(&bls[df__owner(s, p->key, p->klen)], p->key, p->klen, enc.data, enc.len, 1);
        else
            df__graph_error(s, 1);
    }
    cm_buf_free(&enc);
    cm_buf_free(&key);
    free(ps.slots);
    cm_arena_free(&ps.arena);
}
