/*
 * pln_explain_physical.c: EXPLAIN PHYSICAL PLAN FOR, after Materialize's:
 * what the dataflow workers build for a materialized view (of a CREATE
 * MATERIALIZED VIEW, or one that exists): its operators as a tree, the
 * root first, each with the id eddy_internal.dataflow_operators gives it,
 * and the arrangements it keeps, each new; a Get shares the arrangement of
 * the table or materialized view it reads (hydration reads it, later steps
 * its changes). For a query (a SELECT, a plain view) the workers build
 * nothing: a Peek asks each of them for its rows of the arrangements the
 * query reads, and the server runs the plan that EXPLAIN prints over them.
 * The operators come from the engine itself (pln_set_physical), so this is
 * what the workers would compile, not a second reading of the plan.
 */
#include "planner/pln_internal.h"

#include <string.h>

static pln_physical_fn pln__physical;

void pln_set_physical(pln_physical_fn fn)
{
    pln__physical = fn;
}

typedef struct phys_out {
    cm_arena_t *arena;
    const char **lines;
    int n, cap;
} phys_out_t;

static void phys_line(phys_out_t *o, int depth, const char *text)
{
    if (o->n == o->cap) {
        int cap = o->cap ? o->cap * 2 : 32;
        const char **lines = cm_arena_alloc(o->arena, sizeof *lines * (size_t)cap);
        if (o->n)
            memcpy(lines, o->lines, sizeof *lines * (size_t)o->n);
        o->lines = lines;
        o->cap = cap;
    }
    o->lines[o->n++] = cm_arena_printf(o->arena, "%*s%s", 2 * depth, "", text);
}

/* What the workers hold of a relation a query or a Get reads; named: the relation's name leads. */
static const char *phys_arrangement_of(pln_binder_t *b, uint64_t item, bool named)
{
    const cat_item_t *it = b->cat && b->cat->snap ? cat_snap_item_by_id(b->cat->snap, item) : NULL;
    const char *name = it ? pln__item_qualified(b->arena, it) : cm_arena_printf(b->arena, "relation %llu",
                                                                                 (unsigned long long)item);
    const char *what = it && it->kind == CAT_ITEM_TABLE    ? "the table's rows (shared)"
                       : it && it->kind == CAT_ITEM_MATVIEW ? "the materialized view's result (shared)"
                                                            : NULL;
    if (what == NULL)
        return cm_arena_printf(b->arena, "none: the workers hold no rows of %s", name);
    return named ? cm_arena_printf(b->arena, "%s: %s", name, what) : what;
}

static const pln_physical_op_t *phys_op(const pln_physical_op_t *ops, int nops, int id)
{
    return id >= 1 && id <= nops && ops[id - 1].id == id ? &ops[id - 1] : NULL;
}

static void phys_tree(pln_binder_t *b, phys_out_t *o, const pln_physical_op_t *ops, int nops, int id, int depth,
                      bool *printed)
{
    const pln_physical_op_t *op = phys_op(ops, nops, id);
    if (op == NULL)
        return;
    const char *detail = op->detail;
    bool again = printed[id];
    phys_line(o, depth, cm_arena_printf(b->arena, "%s #%d%s%s%s", op->kind, id, detail ? " " : "", detail ? detail : "",
                                        again ? " (above)" : ""));
    if (again)
        return;   /* a WITH query read twice is built once */
    printed[id] = true;
    if (op->reads)
        phys_line(o, depth + 1,
                  cm_arena_printf(b->arena, "arrangement: %s", phys_arrangement_of(b, op->reads, false)));
    for (int k = 0; k < op->narranged; k++)
        phys_line(o, depth + 1, cm_arena_printf(b->arena, "arrangement: %s (new)", op->arranged[k]));
    for (int k = 0; k < op->ninputs; k++)
        phys_tree(b, o, ops, nops, op->inputs[k], depth + 1, printed);
}

const char *pln__physical_header(pln_binder_t *b, const sql_qname_t *name)
{
    cm_buf_t t;
    cm_buf_init(&t, 0);
    for (int i = 0; i < name->names->count; i++) {
        if (i)
            cm_buf_put_u8(&t, '.');
        cat_quote_ident(name->names->items[i], &t);
    }
    cm_buf_put_u8(&t, ':');
    const char *s = cm_arena_strndup(b->arena, (const char *)t.data, t.len);
    cm_buf_free(&t);
    return s;
}

#define PHYS_READS_MAX 256

bool pln__physical_lines(pln_binder_t *b, const plan_t *p, const char *header, bool dataflow, const char ***lines,
                         int *n)
{
    phys_out_t o = {.arena = b->arena};
    phys_line(&o, 0, header);
    if (!dataflow) {
        uint64_t items[PHYS_READS_MAX];
        int k = plan_read_items(p, items, PHYS_READS_MAX);
        if (k == 0) {
            phys_line(&o, 1, "Constant: the server answers it alone; the workers build nothing");
        } else {
            phys_line(&o, 1, "Peek: each worker answers its rows of");
            for (int i = 0; i < (k < 0 ? PHYS_READS_MAX : k); i++)
                phys_line(&o, 2, cm_arena_printf(b->arena, "arrangement %s", phys_arrangement_of(b, items[i], true)));
            if (k < 0)
                phys_line(&o, 2, cm_arena_printf(b->arena, "... and more than %d others", PHYS_READS_MAX));
            phys_line(&o, 1, "and the server runs the optimized plan (EXPLAIN) over them; the workers build nothing");
        }
        *lines = o.lines;
        *n = o.n;
        return true;
    }
    if (pln__physical == NULL)
        return pln__error(b, -1, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "EXPLAIN PHYSICAL PLAN of a materialized view needs the dataflow engine");
    pln_physical_op_t *ops;
    int nops;
    if (!pln__physical(p, b->arena, &ops, &nops, b->err))
        return false;
    bool *printed = cm_arena_zalloc(b->arena, sizeof *printed * (size_t)(nops + 1));
    if (nops > 0)
        phys_tree(b, &o, ops, nops, nops, 1, printed);
    phys_line(&o, 1, "arrangement: result (new)");
    *lines = o.lines;
    *n = o.n;
    return true;
}
