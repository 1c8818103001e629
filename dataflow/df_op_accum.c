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
    rd->groups = NULL;
    rd->state_types = NULL;
}

static df__acc_t **df__acc_slot(df__accmap_t *m, const uint8_t *key, size_t klen, uint64_t h)
{
    df__acc_t **at = &m->buckets[h & (m->nbuckets - 1)];
    while (*at && !((*at)->hash == h && (*at)->klen == klen && memcmp((*at)->key, key, klen) == 0))
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

/* One group: its state, the delta's rows for it, the state again. vals: the delta's [lo, hi) of d. */
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
            accs[i] = (plan_aggacc_t){.count = st[1 + rd->nkeys + 2 * i].v.i, .sum = st[2 + rd->nkeys + 2 * i]};
        if (rows > 0 || rd->nkeys == 0)
            df__acc_emit(s, n, key, klen, kv, accs, -1, out, enc);
    }
    int incols = n->in[0]->ncols;
    ty_datum_t *vals = cm_arena_alloc(&s->rowa, sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
    bool keys_known = had && rows > 0;
    for (uint64_t j = lo; d && j < hi; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(d, j, &len);
        int64_t diff = df__batch_diff(d, j);
        if (!df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_COPY, &s->ctx, vals)) {
            df__graph_error(s, diff);
            continue;
        }
        if (!keys_known && diff > 0) {
            if (!df__eval_keys(s, rd, vals, kv)) {
                df__graph_error(s, diff);
                continue;
            }
            keys_known = true;
        }
        bool ok = true;
        for (int i = 0; ok && i < rd->naggs; i++) {
            df__agg_t *x = &rd->aggs[i];
            bool in;
            if (!(ok = df__agg_filter(s, x, vals, &in)))
                break;
            if (!in)
                continue;
            ty_datum_t arg;
            memset(&arg, 0, sizeof arg);
            if (x->nes > 0 && !(ok = ty_expr_eval(x->es[0], &s->ctx, vals, NULL, &arg)))
                break;
            ok = plan_agg_acc_add(x->a, &accs[i], &arg, diff, &s->ctx);
        }
        if (!ok)
            df__graph_error(s, diff);
        rows += diff;
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
