/*
 * plan_codec_cte.c: the plan codec's WITH and functions-in-FROM operators.
 *
 *   LET      rel input; u32 nctes; per CTE: u32 id, str name, u8 all,
 *            u8 recursive, rel def, [rel rec]
 *   CTE      u32 id, u8 worktable
 *   FLATMAP  rel input; u8 ordinality; u8 join (INNER or LEFT); expr condition
 *            (optional, over the output row); u32 nfuncs; per function: u8 kind
 *            (0: a scalar expression, 1: a set-returning function named by
 *            str name, u8 nargs, u32 argument types, u32 result type, then
 *            u32 nargs argument expressions), u32 ncols, i32 location
 *
 * A reference may come before its CTE in the bytes (a subquery is written
 * before the query that holds the WITH), so references are collected while
 * reading and tied to their CTEs once the whole plan is read: an id no LET
 * defines, an id defined twice with different definitions, or a reference
 * whose columns differ from its CTE's is refused. Ids keep their values
 * (EXPLAIN prints them). A plan may hold one WITH query in two LETs (the
 * planner copies a subquery holding a WITH when it decorrelates a sublink,
 * sharing its queries): its entry is then written twice, byte for byte the
 * same, and read as the one query it is.
 */
#include "plan/plan_codec.h"

#include <string.h>

/* ============================================================ writing */

void plan__wr_let(plan__wr_t *w, const plan_rel_t *rel)
{
    plan__wr_rel(w, rel->input);
    plan__wr_u32(w, (uint32_t)rel->nctes);
    for (int i = 0; i < rel->nctes && !w->failed; i++) {
        const plan_cte_t *c = rel->ctes[i];
        plan__wr_u32(w, (uint32_t)c->id);
        plan__wr_str(w, c->name);
        plan__wr_u8(w, c->all);
        plan__wr_u8(w, c->rec != NULL);
        plan__wr_rel(w, c->def);
        if (c->rec)
            plan__wr_rel(w, c->rec);
    }
}

void plan__wr_cteref(plan__wr_t *w, const plan_rel_t *rel)
{
    plan__wr_u32(w, (uint32_t)rel->cte->id);
    plan__wr_u8(w, rel->worktable);
}

void plan__wr_flatmap(plan__wr_t *w, const plan_rel_t *rel)
{
    plan__wr_rel(w, rel->input);
    plan__wr_u8(w, rel->ordinality);
    plan__wr_u8(w, (uint8_t)rel->join);
    plan__wr_expr(w, rel->pred);
    plan__wr_u32(w, (uint32_t)rel->nfuncs);
    for (int i = 0; i < rel->nfuncs && !w->failed; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        plan__wr_u8(w, f->srf != NULL);
        if (!f->srf) {
            plan__wr_expr(w, f->expr);
        } else {
            const ty_func_t *fn = &f->srf->fn;
            plan__wr_str(w, fn->name);
            plan__wr_u8(w, (uint8_t)fn->nargs);
            for (int k = 0; k < fn->nargs; k++)
                plan__wr_u32(w, fn->args[k]);
            plan__wr_u32(w, fn->ret);
            plan__wr_exprs(w, f->args, f->nargs, true);
        }
        plan__wr_u32(w, (uint32_t)f->ncols);
        plan__wr_i32(w, f->location);
    }
}

/* ============================================================ reading */

static bool grow(plan__rd_t *r, void **items, uint32_t **keys, int n, int *cap)
{
    if (n < *cap)
        return true;
    int c = *cap ? 2 * *cap : 8;
    void **g = cm_arena_alloc(r->arena, sizeof(void *) * (size_t)c);
    uint32_t *k = cm_arena_alloc(r->arena, sizeof(uint32_t) * (size_t)c);
    if (n) {
        memcpy(g, *(void ***)items, sizeof(void *) * (size_t)n);
        memcpy(k, *keys, sizeof(uint32_t) * (size_t)n);
    }
    *(void ***)items = g;
    *keys = k;
    *cap = c;
    return true;
}

bool plan__rd_let(plan__rd_t *r, plan_rel_t *rel)
{
    if (!(rel->input = plan__rd_rel(r)))
        return false;
    if (rel->input->ncols != rel->ncols)
        return plan__rd_fail(r, "a WITH of %d columns over a query of %d", rel->ncols, rel->input->ncols);
    for (int i = 0; i < rel->ncols; i++)
        if (!plan__rd_check_shape(r, rel->input->types[i], rel->types[i], "a WITH query's column"))
            return false;
    rel->nctes = plan__rd_count(r, "WITH queries", r->lim.nodes_max, 11 + 9);
    if (r->failed)
        return false;
    rel->ctes = cm_arena_alloc(r->arena, sizeof(plan_cte_t *) * (size_t)(rel->nctes ? rel->nctes : 1));
    for (int i = 0; i < rel->nctes; i++) {
        plan_cte_t *c = cm_arena_zalloc(r->arena, sizeof(*c));
        size_t start = r->pos;
        uint32_t key = plan__rd_u32(r);
        c->name = plan__rd_str(r, "WITH query name");
        c->all = plan__rd_bool(r);
        bool recursive = plan__rd_bool(r);
        if (r->failed)
            return false;
        if (!c->name)
            return plan__rd_fail(r, "a WITH query without a name");
        int again = -1;
        for (int k = 0; k < r->nctes && again < 0; k++)
            if (r->cte_keys[k] == key)
                again = k;
        if (again >= 0) {
            size_t at = r->cte_spans[2 * again], len = r->cte_spans[2 * again + 1];
            if (len > r->n - start || memcmp(r->p + start, r->p + at, len) != 0)
                return plan__rd_fail(r, "WITH query l%u defined twice", key);
            r->pos = start + len;
            rel->ctes[i] = r->ctes[again];
            continue;
        }
        if (!(c->def = plan__rd_rel(r)) || (recursive && !(c->rec = plan__rd_rel(r))))
            return false;
        c->ncols = c->def->ncols;
        c->types = c->def->types;
        if (c->rec) {
            if (c->rec->ncols != c->ncols)
                return plan__rd_fail(r, "a recursive term of %d columns for a query of %d", c->rec->ncols, c->ncols);
            for (int k = 0; k < c->ncols; k++)
                if (!plan__rd_check_shape(r, c->rec->types[k], c->types[k], "a recursive term's column"))
                    return false;
        }
        int cap = r->ctes_cap;
        grow(r, (void **)&r->ctes, &r->cte_keys, r->nctes, &r->ctes_cap);
        if (r->ctes_cap != cap) {
            size_t *spans = cm_arena_alloc(r->arena, sizeof(size_t) * 2 * (size_t)r->ctes_cap);
            if (r->nctes)
                memcpy(spans, r->cte_spans, sizeof(size_t) * 2 * (size_t)r->nctes);
            r->cte_spans = spans;
        }
        if (key > (uint32_t)r->lim.nodes_max)
            return plan__rd_fail(r, "WITH query id %u", key);
        c->id = (int)key;
        r->cte_spans[2 * r->nctes] = start;
        r->cte_spans[2 * r->nctes + 1] = r->pos - start;
        r->ctes[r->nctes] = c;
        r->cte_keys[r->nctes++] = key;
        rel->ctes[i] = c;
    }
    return true;
}

bool plan__rd_cteref(plan__rd_t *r, plan_rel_t *rel)
{
    uint32_t key = plan__rd_u32(r);
    rel->worktable = plan__rd_bool(r);
    if (r->failed)
        return false;
    grow(r, (void **)&r->cte_refs, &r->ref_keys, r->nrefs, &r->refs_cap);
    r->cte_refs[r->nrefs] = rel;
    r->ref_keys[r->nrefs++] = key;
    return true;
}

bool plan__rd_ctes_resolve(plan__rd_t *r)
{
    for (int i = 0; i < r->nrefs; i++) {
        plan_rel_t *ref = r->cte_refs[i];
        plan_cte_t *c = NULL;
        for (int k = 0; k < r->nctes && !c; k++)
            if (r->cte_keys[k] == r->ref_keys[i])
                c = r->ctes[k];
        if (!c)
            return plan__rd_fail(r, "a read of WITH query l%u, which no WITH defines", r->ref_keys[i]);
        if (ref->worktable && !c->rec)
            return plan__rd_fail(r, "a worktable read of WITH query %s, which is not recursive", c->name);
        if (ref->ncols != c->ncols)
            return plan__rd_fail(r, "a read of %d columns of WITH query %s of %d", ref->ncols, c->name, c->ncols);
        for (int k = 0; k < c->ncols; k++)
            if (!plan__rd_check_shape(r, ref->types[k], c->types[k], "a WITH query's column"))
                return false;
        ref->cte = c;
    }
    return true;
}

static const ty_srf_t *srf_read(plan__rd_t *r)
{
    const char *name = plan__rd_str(r, "function name");
    uint8_t nargs = plan__rd_u8(r);
    if (!r->failed && (!name || nargs > TY_FUNC_ARGS_MAX)) {
        plan__rd_fail(r, "set-returning function key");
        return NULL;
    }
    ty_oid_t args[TY_FUNC_ARGS_MAX];
    for (int i = 0; i < nargs && !r->failed; i++)
        args[i] = plan__rd_type(r, true);
    ty_oid_t ret = plan__rd_type(r, true);
    if (r->failed)
        return NULL;
    const ty_func_t *c[64];
    size_t n = ty_srf_candidates(name, c, CM_ARRAY_LEN(c));
    for (size_t i = 0; i < n; i++) {
        if (c[i]->nargs != nargs || c[i]->ret != ret)
            continue;
        bool same = true;
        for (int k = 0; k < nargs && same; k++)
            same = c[i]->args[k] == args[k];
        if (same)
            return ty_srf_of(c[i]);
    }
    plan__rd_fail(r, "unknown set-returning function %s with %u arguments", name, nargs);
    return NULL;
}

static bool srfcall_read(plan__rd_t *r, plan_srfcall_t *f)
{
    uint8_t kind = plan__rd_u8(r);
    if (r->failed)
        return false;
    if (kind > 1)
        return plan__rd_fail(r, "function kind %u", kind);
    if (kind == 0) {
        if (!(f->expr = plan__rd_expr(r, false)))
            return false;
    } else {
        if (!(f->srf = srf_read(r)))
            return false;
        f->nargs = plan__rd_count(r, "function arguments", TY_FUNC_ARGS_MAX, PLAN_CODEC_EXPR_MIN);
        if (r->failed)
            return false;
        if (f->nargs != f->srf->fn.nargs)
            return plan__rd_fail(r, "%s with %d arguments", f->srf->fn.name, f->nargs);
        if (!(f->args = plan__rd_exprs(r, f->nargs)))
            return false;
        for (int k = 0; k < f->nargs; k++)
            if (f->srf->fn.args[k] != TY_INVALID &&
                !plan__rd_check_shape(r, f->args[k]->type, f->srf->fn.args[k], "a function argument"))
                return false;
    }
    f->ncols = plan__rd_count(r, "function columns", TY_SRF_COLS_MAX, 0);
    f->location = plan__rd_i32(r);
    if (r->failed)
        return false;
    if (f->ncols != (f->srf ? f->srf->ncols : 1))
        return plan__rd_fail(r, "a function in FROM with %d columns", f->ncols);
    return true;
}

bool plan__rd_flatmap(plan__rd_t *r, plan_rel_t *rel)
{
    plan_rel_t *in = rel->input = plan__rd_rel(r);
    if (!in)
        return false;
    rel->ordinality = plan__rd_bool(r);
    rel->join = (plan_join_t)plan__rd_u8(r);
    if (!r->failed && rel->join != PLAN_JOIN_INNER && rel->join != PLAN_JOIN_LEFT)
        return plan__rd_fail(r, "a FlatMap joined as %d", (int)rel->join);
    plan__row_ctx_t own = plan__row_set(r, rel->types, rel->ncols);   /* the condition reads the output row */
    rel->pred = plan__rd_expr(r, true);
    plan__row_restore(r, own);
    if (rel->pred && !plan__rd_check_shape(r, rel->pred->type, TY_BOOL, "a FlatMap's condition"))
        return false;
    rel->nfuncs = plan__rd_count(r, "functions", r->lim.nodes_max, 1 + PLAN_CODEC_EXPR_MIN);
    if (r->failed)
        return false;
    rel->funcs = cm_arena_alloc(r->arena, sizeof(plan_srfcall_t *) * (size_t)(rel->nfuncs ? rel->nfuncs : 1));
    plan__row_ctx_t saved = plan__row_set(r, in->types, in->ncols);
    int width = in->ncols;
    for (int i = 0; i < rel->nfuncs; i++) {
        plan_srfcall_t *f = rel->funcs[i] = cm_arena_zalloc(r->arena, sizeof(*f));
        if (!srfcall_read(r, f)) {
            plan__row_restore(r, saved);
            return false;
        }
        width += f->ncols;
    }
    plan__row_restore(r, saved);
    if (width + rel->ordinality != rel->ncols)
        return plan__rd_fail(r, "a FlatMap of %d columns over %d", rel->ncols, width + rel->ordinality);
    for (int i = 0; i < in->ncols; i++)
        if (!plan__rd_check_shape(r, in->types[i], rel->types[i], "an input column"))
            return false;
    int at = in->ncols;
    for (int i = 0; i < rel->nfuncs; i++) {
        const plan_srfcall_t *f = rel->funcs[i];
        for (int k = 0; k < f->ncols; k++, at++) {
            ty_oid_t t = !f->srf ? f->expr->type : f->srf->ncols == 1 ? f->srf->fn.ret : f->srf->coltypes[k];
            if (!plan__rd_check_shape(r, rel->types[at], t, "a function's column"))
                return false;
        }
    }
    return !rel->ordinality || plan__rd_check_shape(r, rel->types[at], TY_INT8, "the ordinality column");
}
