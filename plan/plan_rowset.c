/*
 * plan_rowset.c: a hash set of rows for DISTINCT, GROUP BY, set operations
 * and agg(DISTINCT ...). Rows are equal as DISTINCT compares them: NULL
 * equals NULL, other values by ty_datum_compare (so 1.0 and 1.00 are one
 * row, and the first one seen is kept). Entries remember the order they
 * were added in, which is the order results come out in. Everything lives
 * in one execution's arena. How many copies of a row a set operation
 * gives for its counts on both sides is here too (plan_setop_copies), for
 * the executor and the materialized views alike.
 */
#include "plan/plan.h"

#include <string.h>

struct plan_rowset {
    cm_arena_t *arena;
    int ncols;
    const ty_oid_t *types;
    size_t nbuckets;              /* a power of two */
    size_t count;
    plan_rowent_t **buckets;
    plan_rowent_t *first, *last;
};

plan_rowset_t *plan_rowset_new(cm_arena_t *a, int ncols, const ty_oid_t *types)
{
    plan_rowset_t *s = cm_arena_zalloc(a, sizeof(*s));
    s->arena = a;
    s->ncols = ncols;
    ty_oid_t *t = cm_arena_alloc(a, sizeof(ty_oid_t) * (size_t)(ncols ? ncols : 1));
    if (ncols)
        memcpy(t, types, sizeof(ty_oid_t) * (size_t)ncols);
    s->types = t;
    s->nbuckets = 16;
    s->buckets = cm_arena_zalloc(a, sizeof(plan_rowent_t *) * s->nbuckets);
    return s;
}

static uint64_t plan__row_hash(const plan_rowset_t *s, const ty_datum_t *row)
{
    uint64_t h = 0x9e3779b97f4a7c15ull;
    for (int i = 0; i < s->ncols; i++) {
        uint64_t v = row[i].isnull ? 0x51afd7ed558ccd2bull : ty_datum_hash(s->types[i], &row[i]);
        h ^= v + 0x9e3779b97f4a7c15ull + (h << 6) + (h >> 2);
    }
    return h;
}

static bool plan__row_equal(const plan_rowset_t *s, const ty_datum_t *a, const ty_datum_t *b)
{
    for (int i = 0; i < s->ncols; i++) {
        if (a[i].isnull || b[i].isnull) {
            if (a[i].isnull != b[i].isnull)
                return false;
            continue;
        }
        if (ty_datum_compare(s->types[i], &a[i], &b[i]) != 0)
            return false;
    }
    return true;
}

static void plan__grow(plan_rowset_t *s)
{
    size_t n = s->nbuckets * 2;
    plan_rowent_t **b = cm_arena_zalloc(s->arena, sizeof(plan_rowent_t *) * n);
    for (plan_rowent_t *e = s->first; e; e = e->order) {
        size_t i = e->hash & (n - 1);
        e->next = b[i];
        b[i] = e;
    }
    s->buckets = b;
    s->nbuckets = n;
}

plan_rowent_t *plan_rowset_find(plan_rowset_t *s, const ty_datum_t *row, bool add, bool *added)
{
    uint64_t h = plan__row_hash(s, row);
    if (added)
        *added = false;
    for (plan_rowent_t *e = s->buckets[h & (s->nbuckets - 1)]; e; e = e->next)
        if (e->hash == h && plan__row_equal(s, e->row, row))
            return e;
    if (!add)
        return NULL;
    if (s->count + 1 > s->nbuckets)
        plan__grow(s);
    plan_rowent_t *e = cm_arena_zalloc(s->arena, sizeof(*e));
    ty_datum_t *copy = cm_arena_alloc(s->arena, sizeof(ty_datum_t) * (size_t)(s->ncols ? s->ncols : 1));
    if (s->ncols)
        memcpy(copy, row, sizeof(ty_datum_t) * (size_t)s->ncols);
    e->row = copy;
    e->hash = h;
    size_t i = h & (s->nbuckets - 1);
    e->next = s->buckets[i];
    s->buckets[i] = e;
    if (s->last)
        s->last->order = e;
    else
        s->first = e;
    s->last = e;
    s->count++;
    if (added)
        *added = true;
    return e;
}

plan_rowent_t *plan_rowset_first(const plan_rowset_t *s)
{
    return s->first;
}

int64_t plan_setop_copies(plan_setop_t op, bool all, int64_t l, int64_t r)
{
    switch (op) {
    case PLAN_SETOP_UNION:
        return all ? l + r : (l + r > 0);
    case PLAN_SETOP_INTERSECT:
        return all ? (l < r ? l : r) : (l > 0 && r > 0);
    case PLAN_SETOP_EXCEPT:
        return all ? (l > r ? l - r : 0) : (l > 0 && r == 0);
    case PLAN_SETOP_NONE:
        break;
    }
    return 0;
}
