/*
 * ex_join.c: JOIN in the pull executor: inner, LEFT, RIGHT and FULL over
 * the right side read whole. When the condition has equality conjuncts of
 * one column per side (= or IS NOT DISTINCT FROM of one type), the right
 * rows are hashed on them, so a join stays linear in its inputs; the
 * whole condition still decides each pair.
 */
#include "exec/ex_int.h"

#include <string.h>

/* A left row with the right row r, or with NULLs for a missing side (l or r NULL). */
static ty_datum_t *ex__join_row(ex_exec_t *x, const plan_rel_t *rel, const ty_datum_t *l, const ty_datum_t *r)
{
    int lw = rel->input->ncols, rw = rel->right->ncols;
    ty_datum_t *out = ex__new_row(x, rel->ncols);
    for (int c = 0; c < lw; c++)
        out[c] = l ? l[c] : (ty_datum_t){.isnull = true};
    for (int c = 0; c < rw; c++)
        out[lw + c] = r ? r[c] : (ty_datum_t){.isnull = true};
    return out;
}

/* A key's right rows, in their order. */
typedef struct cands {
    int n, cap;
    int *rows;
} cands_t;

/*
 * Adds c's conjuncts "left column = right column" and "left column IS NOT
 * DISTINCT FROM right column" (how correlated subqueries are joined back)
 * of one type to the iterator's keys.
 */
static void ex__find_keys(ex_iter_t *it, const ty_expr_t *c, int lw, int max)
{
    if (c->kind == TY_EXPR_AND) {
        for (int i = 0; i < c->nargs; i++)
            ex__find_keys(it, c->args[i], lw, max);
        return;
    }
    bool equal = c->kind == TY_EXPR_CALL && c->func != NULL && strcmp(c->func->name, "=") == 0;
    bool not_distinct = c->kind == TY_EXPR_IS_DISTINCT && c->negated;
    if (!(equal || not_distinct) || c->nargs != 2 || it->nkeys == max)
        return;
    const ty_expr_t *a = c->args[0], *b = c->args[1];
    if (a->kind != TY_EXPR_COLUMN || b->kind != TY_EXPR_COLUMN || a->type != b->type)
        return;
    if (a->index >= lw && b->index < lw) {
        const ty_expr_t *t = a;
        a = b;
        b = t;
    }
    if (a->index >= lw || b->index < lw)
        return;
    it->null_keys[it->nkeys] = not_distinct;
    it->lkeys[it->nkeys] = a->index;
    it->rkeys[it->nkeys++] = b->index - lw;
}

/*
 * An equi-join hashes the right side on its keys, so each left row meets
 * only the right rows with equal keys instead of all of them. "=" of one
 * type holds only for values ty_datum_compare finds equal (the rowset's
 * equality, where NULL equals NULL as IS NOT DISTINCT FROM has it), so the
 * candidates include every match; the whole condition still decides. A
 * NULL key of "=" matches nothing.
 */
void ex__join_hash(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    enum { MAX_KEYS = 8 };
    if (!rel->pred || it->nr < 2)
        return;   /* one right row: nothing to look up */
    it->lkeys = cm_arena_alloc(x->ctx->arena, sizeof(int) * MAX_KEYS);
    it->rkeys = cm_arena_alloc(x->ctx->arena, sizeof(int) * MAX_KEYS);
    it->null_keys = cm_arena_alloc(x->ctx->arena, sizeof(bool) * MAX_KEYS);
    ex__find_keys(it, rel->pred, rel->input->ncols, MAX_KEYS);
    if (it->nkeys == 0)
        return;
    ty_oid_t types[MAX_KEYS];
    for (int k = 0; k < it->nkeys; k++)
        types[k] = rel->right->types[it->rkeys[k]];
    it->hash = plan_rowset_new(x->ctx->arena, it->nkeys, types);
    ty_datum_t key[MAX_KEYS];
    for (int r = 0; r < it->nr; r++) {
        bool null = false;
        for (int k = 0; k < it->nkeys; k++) {
            key[k] = it->rrows[r][it->rkeys[k]];
            null |= key[k].isnull && !it->null_keys[k];
        }
        if (null)
            continue;
        plan_rowent_t *e = plan_rowset_find(it->hash, key, true, NULL);
        cands_t *c = e->state;
        if (c == NULL)
            c = e->state = cm_arena_zalloc(x->ctx->arena, sizeof *c);
        if (c->n == c->cap) {
            int cap = c->cap ? 2 * c->cap : 4;
            int *rows = cm_arena_alloc(x->ctx->arena, sizeof(int) * (size_t)cap);
            if (c->n)
                memcpy(rows, c->rows, sizeof(int) * (size_t)c->n);
            c->rows = rows;
            c->cap = cap;
        }
        c->rows[c->n++] = r;
    }
}

/* The left row's candidates: it->cand/ncand (hash) or, without keys, every right row. */
static void ex__join_candidates(ex_iter_t *it)
{
    it->pos = 0;
    if (!it->hash) {
        it->cand = NULL;
        it->ncand = it->nr;
        return;
    }
    ty_datum_t key[8];
    it->ncand = 0;
    for (int k = 0; k < it->nkeys; k++) {
        key[k] = it->cur[it->lkeys[k]];
        if (key[k].isnull && !it->null_keys[k])
            return;
    }
    plan_rowent_t *e = plan_rowset_find(it->hash, key, false, NULL);
    if (e) {
        const cands_t *c = e->state;
        it->cand = c->rows;
        it->ncand = c->n;
    }
}

/*
 * A nested loop over the right side's rows: each left row with every right
 * row the condition holds for; an outer join adds a left row that met none
 * (LEFT, FULL) and, once the left side is done, the right rows that met
 * none (RIGHT, FULL), padded with NULLs.
 */
bool ex__join_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    const plan_rel_t *rel = it->rel;
    bool keep_left = rel->join == PLAN_JOIN_LEFT || rel->join == PLAN_JOIN_FULL;
    bool keep_right = rel->join == PLAN_JOIN_RIGHT || rel->join == PLAN_JOIN_FULL;
    while (!it->left_done) {
        if (!it->cur) {
            if (!ex__iter_next(x, it->in, &it->cur))
                return false;
            if (!it->cur) {
                it->left_done = true;
                it->pos = 0;
                break;
            }
            it->cur_matched = false;
            ex__join_candidates(it);
        }
        while (it->pos < it->ncand) {
            int k = it->cand ? it->cand[it->pos++] : it->pos++;
            ty_datum_t *r = ex__join_row(x, rel, it->cur, it->rrows[k]);
            if (rel->pred) {
                ty_datum_t ok;
                if (!ex__inst_all(x, it, (ty_expr_t **)&rel->pred, 1) || !ex__eval(x, it->inst[0], r, &ok))
                    return false;
                if (ok.isnull || !ok.v.b)
                    continue;
            }
            it->cur_matched = true;
            it->rmatched[k] = true;
            *row = r;
            return true;
        }
        ty_datum_t *l = it->cur;
        it->cur = NULL;
        if (keep_left && !it->cur_matched) {
            *row = ex__join_row(x, rel, l, NULL);
            return true;
        }
    }
    while (keep_right && it->pos < it->nr) {
        int k = it->pos++;
        if (!it->rmatched[k]) {
            *row = ex__join_row(x, rel, NULL, it->rrows[k]);
            return true;
        }
    }
    return true;
}

