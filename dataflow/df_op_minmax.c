/*
 * df_op_minmax.c: a REDUCE whose aggregates are all min and max keeps each
 * aggregate's arguments in order, so a change reads the first of them
 * instead of every row of its group (DESIGN §6). The operator's input
 * arrangement (df_reduce_t.input) then holds, per group key gk:
 *   gk ++ 0x00      -> the group's key values (row encoding), diff: its rows
 *   gk ++ (1 + i)   -> aggregate i's argument of each row that passes its
 *                      FILTER: its key encoding (ascending for min,
 *                      descending for max, NULL last either way), then its
 *                      row encoding and that encoding's length (4 bytes)
 * The key encoding orders values as ty_datum_compare does, so the first
 * value of gk ++ (1 + i) with a positive count is the aggregate's result
 * (NULL if it is NULL: every value is), found with one seek: a group of a
 * million rows costs what a group of ten does. The keys of one group are
 * adjacent and in tag order (a key encoding is prefix-free), so one cursor
 * reads a step's touched groups moving forward only.
 *
 * A row whose argument fails to evaluate (min(1 / x)) counts as an error of
 * the view while it is there, as a failing key does.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

/* More aggregates than tags fit in a byte recompute instead. */
#define DF_MINMAX_MAX_AGGS 250

bool df__minmax_applies(const df_reduce_t *rd)
{
    if (rd->naggs == 0 || rd->naggs > DF_MINMAX_MAX_AGGS)
        return false;
    for (int i = 0; i < rd->naggs; i++) {
        const df__agg_t *x = &rd->aggs[i];
        if ((x->a->op != PLAN_AGG_MIN && x->a->op != PLAN_AGG_MAX) || x->a->norder != 0 || x->nes != 1)
            return false;
        cm_err_t err = {0};
        bool keyable = df__key_type_check(x->es[0]->type, &err);
        cm_err_clear(&err);
        if (!keyable)
            return false;
    }
    return true;
}

/* The group key's length in an arranged key (the tag is its last byte). */
static inline size_t df__minmax_glen(size_t klen)
{
    return klen ? klen - 1 : 0;
}

void df__minmax_route(df_step_t *s, df_node_t *n, const df_batch_t *in, df_builder_t *bls)
{
    df_reduce_t *rd = n->reduce;
    int incols = n->in[0]->ncols;
    cm_buf_t key, val;
    cm_buf_init(&key, 0);
    cm_buf_init(&val, 0);
    ty_datum_t *vals = cm_malloc(sizeof(ty_datum_t) * (size_t)(incols ? incols : 1));
    ty_datum_t *kv = cm_malloc(sizeof(ty_datum_t) * (size_t)(rd->nkeys + 1));
    ty_oid_t *ktypes = cm_malloc(sizeof(ty_oid_t) * (size_t)(rd->nkeys + 1));
    for (int i = 0; i < rd->nkeys; i++)
        ktypes[i] = rd->keys[i]->type;
    for (uint64_t j = 0; in && j < in->nvals; j++) {
        size_t len;
        const uint8_t *v = df__batch_val(in, j, &len);
        int64_t diff = df__batch_diff(in, j);
        cm_buf_reset(&key);
        cm_buf_reset(&val);
        if (!df__row_decode(n->in[0]->types, incols, v, len, DF_ROW_BORROW, &s->ctx, vals) ||
            !df__eval_keys(s, rd, vals, kv) || !df__key_encode(rd->kcols, rd->nkeys, kv, &s->ctx, &key) ||
            !df__row_encode(ktypes, rd->nkeys, kv, &s->ctx, &val)) {
            df__graph_error(s, diff);
            cm_arena_reset(&s->rowa);
            continue;
        }
        df_builder_t *to = &bls[df__owner(s, key.data, key.len)];
        size_t glen = key.len;
        cm_buf_put_u8(&key, 0);
        df__builder_add(to, key.data, key.len, val.data, val.len, diff);
        for (int i = 0; i < rd->naggs; i++) {
            const df__agg_t *x = &rd->aggs[i];
            bool in_agg;
            ty_datum_t arg;
            memset(&arg, 0, sizeof arg);
            if (!df__agg_filter(s, x, vals, &in_agg) ||
                (in_agg && !ty_expr_eval(x->es[0], &s->ctx, vals, NULL, &arg))) {
                df__graph_error(s, diff);
                continue;
            }
            if (!in_agg)
                continue;
            key.len = glen;
            cm_buf_put_u8(&key, (uint8_t)(1 + i));
            cm_buf_reset(&val);
            ty_oid_t type = x->es[0]->type;
            if (!df__key_encode_datum(type, x->a->op == PLAN_AGG_MAX, false, &arg, &s->ctx, &val)) {
                df__graph_error(s, diff);
                continue;
            }
            size_t at = val.len;
            if (!df__row_encode(&type, 1, &arg, &s->ctx, &val)) {
                df__graph_error(s, diff);
                continue;
            }
            uint32_t rl = (uint32_t)(val.len - at);
            uint8_t tail[4] = {(uint8_t)(rl >> 24), (uint8_t)(rl >> 16), (uint8_t)(rl >> 8), (uint8_t)rl};
            cm_buf_put(&val, tail, 4);
            df__builder_add(to, key.data, key.len, val.data, val.len, diff);
        }
        cm_arena_reset(&s->rowa);
    }
    free(vals);
    free(kv);
    free(ktypes);
    cm_buf_free(&key);
    cm_buf_free(&val);
}

size_t df__minmax_group_key(const df_reduce_t *rd, size_t klen)
{
    return rd->minmax ? df__minmax_glen(klen) : klen;
}

/* The first value with a positive count of the arranged key gk ++ tag (cur moves forward only). */
static const uint8_t *df__minmax_first(df_scur_t *cur, cm_buf_t *probe, const uint8_t *gk, size_t gl, uint8_t tag,
                                       size_t *len)
{
    cm_buf_reset(probe);
    cm_buf_put(probe, gk, gl);
    cm_buf_put_u8(probe, tag);
    if (!df__scur_seek(cur, probe->data, probe->len))
        return NULL;
    for (; df__scur_val_valid(cur); df__scur_val_next(cur))
        if (df__scur_diff(cur) > 0)
            return df__scur_val(cur, len);
    return NULL;
}

bool df__minmax_group(df_step_t *s, df_node_t *n, df_scur_t *cur, const uint8_t *gk, size_t gl, ty_datum_t *kv,
                      plan_aggstate_t **states, bool *exists)
{
    df_reduce_t *rd = n->reduce;
    cm_buf_t probe;
    cm_buf_init(&probe, 0);
    ty_oid_t *ktypes = cm_arena_alloc(&s->rowa, sizeof(ty_oid_t) * (size_t)(rd->nkeys + 1));
    for (int i = 0; i < rd->nkeys; i++)
        ktypes[i] = rd->keys[i]->type;
    size_t len;
    const uint8_t *v = df__minmax_first(cur, &probe, gk, gl, 0, &len);
    *exists = v != NULL;
    bool ok = true;
    if (v)
        ok = df__row_decode(ktypes, rd->nkeys, v, len, DF_ROW_BORROW, &s->ctx, kv);
    for (int i = 0; ok && i < rd->naggs; i++) {
        const df__agg_t *x = &rd->aggs[i];
        if (!*exists || !(v = df__minmax_first(cur, &probe, gk, gl, (uint8_t)(1 + i), &len)))
            continue;   /* no row passes its FILTER: NULL */
        uint32_t rl = len < 4 ? 0 : (uint32_t)v[len - 4] << 24 | (uint32_t)v[len - 3] << 16 |
                                        (uint32_t)v[len - 2] << 8 | v[len - 1];
        if (len < 4 || rl > len - 4) {
            ok = cm_err_set(&s->err, "XX001", "corrupt row");
            break;
        }
        ty_oid_t type = x->es[0]->type;
        ty_datum_t arg;
        ok = df__row_decode(&type, 1, v + len - 4 - rl, rl, DF_ROW_BORROW, &s->ctx, &arg);
        if (ok && !arg.isnull)
            ok = plan_agg_step(x->a, states[i], &arg, &s->ctx);
    }
    cm_buf_free(&probe);
    return ok;
}
