/*
 * ex_setop.c: UNION, INTERSECT and EXCEPT [ALL] in the pull executor.
 * UNION ALL streams both inputs; UNION streams the rows not seen before;
 * INTERSECT and EXCEPT count each row's occurrences on both sides first
 * and give min(l, r), max(l - r, 0), or one copy without ALL.
 */
#include "exec/ex_int.h"

bool ex__setop_start(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    it->set = plan_rowset_new(x->ctx->arena, rel->ncols, rel->types);
    if (rel->setop == PLAN_SETOP_UNION)
        return true;
    for (int side = 0; side < 2; side++) {
        for (;;) {
            ty_datum_t *r;
            if (!ex__iter_next(x, side ? it->right : it->in, &r))
                return false;
            if (!r)
                break;
            plan_rowent_t *e = plan_rowset_find(it->set, r, side == 0, NULL);
            if (e)
                e->count[side]++;
        }
    }
    it->ent = plan_rowset_first(it->set);
    return true;
}

static int64_t ex__setop_copies(const plan_rel_t *rel, const plan_rowent_t *e)
{
    return plan_setop_copies(rel->setop, rel->all, e->count[0], e->count[1]);
}

bool ex__setop_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    const plan_rel_t *rel = it->rel;
    if (rel->setop == PLAN_SETOP_UNION) {
        for (;;) {
            ty_datum_t *r;
            if (!ex__iter_next(x, it->left_done ? it->right : it->in, &r))
                return false;
            if (!r) {
                if (it->left_done)
                    return true;
                it->left_done = true;
                continue;
            }
            bool added = true;
            if (!rel->all)
                plan_rowset_find(it->set, r, true, &added);
            if (added) {
                *row = r;
                return true;
            }
        }
    }
    while (it->ent) {
        if (it->repeat == 0)
            it->repeat = ex__setop_copies(rel, it->ent);
        if (it->repeat > 0) {
            it->repeat--;
            *row = it->ent->row;
            if (it->repeat == 0)
                it->ent = it->ent->order;
            return true;
        }
        it->ent = it->ent->order;
    }
    return true;
}

