/*
 * srv_read_lookup.c: which rows of its tables a read needs, when that is
 * known before it runs. A table read right under a filter that fixes every
 * column of the table's key to constants or parameters (`a = 5`, `a = $1`,
 * `a IN (1, 2)`, ANDed with anything else) needs only those keys' rows: the
 * Peek carries them as lookups (dataflow.h), and each key is one seek on
 * the worker owning it instead of every worker sending its whole shard.
 * What comes back is a superset of the rows the filter keeps, and the
 * server still runs the whole plan over it, so the answer is exec/'s.
 *
 * A relation without a key (a materialized view, a table without one) is
 * looked up by whichever of its columns the filter fixes: every worker then
 * answers only its rows that match (df_peek_match.c), which it finds by
 * reading its share, not by a seek.
 *
 * Only an operator whose two sides are the key column's own type, and a
 * type whose equal values have equal bytes in the key's encoding, makes a
 * lookup; any other read of the table reads all of it.
 */
#include "server/srv_int.h"

#include <string.h>

#define SRV_LOOKUP_ITEMS_MAX 64
#define SRV_LOOKUP_KEYS_MAX 64

typedef struct srv__lookup {
    uint64_t item;
    const plan_rel_t *get;       /* its columns */
    bool all;                    /* some read of it needs every row */
    ty_datum_t **rows;
    int n, cap;
} srv__lookup_t;

typedef struct srv__lookups {
    const plan_t *p;
    const ty_datum_t *params;
    ty_ctx_t *ctx;
    srv__lookup_t items[SRV_LOOKUP_ITEMS_MAX];
    int n;
    bool give_up;                /* more relations than kept: no lookups */
} srv__lookups_t;

/* Types whose "=" is equality of the key encoding's bytes. */
static bool srv__lookup_type(ty_oid_t t)
{
    switch (t) {
    case TY_BOOL:
    case TY_INT2:
    case TY_INT4:
    case TY_INT8:
    case TY_TEXT:
    case TY_DATE:
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ:
    case TY_UUID:
        return true;
    default:
        return false;
    }
}

/* A constant or one of the statement's parameters, of type t: its value. */
static bool srv__lookup_value(const srv__lookups_t *ls, const ty_expr_t *e, ty_oid_t t, ty_datum_t *out)
{
    if (e->type != t)
        return false;
    if (e->kind == TY_EXPR_CONST) {
        *out = e->value;
        return true;
    }
    if (e->kind == TY_EXPR_PARAM && ls->params != NULL && e->index >= 0 && e->index < ls->p->nparams &&
        ls->p->param_types[e->index] == t) {
        *out = ls->params[e->index];
        return true;
    }
    return false;
}

static bool srv__is_column(const ty_expr_t *e, int col)
{
    return e->kind == TY_EXPR_COLUMN && e->index == col;
}

static bool srv__is_eq(const ty_func_t *f, ty_oid_t t)
{
    return f != NULL && (f->flags & TY_FN_OPERATOR) && strcmp(f->name, "=") == 0 && f->nargs == 2 &&
           f->args[0] == t && f->args[1] == t;
}

/* The values one conjunct fixes column col to (NULLs left out: they equal nothing); false: it does not. */
static bool srv__conjunct_values(const srv__lookups_t *ls, const ty_expr_t *e, int col, ty_oid_t t, ty_datum_t *vals,
                                 int *nvals)
{
    *nvals = 0;
    ty_datum_t v;
    if (e->kind == TY_EXPR_CALL && e->nargs == 2 && srv__is_eq(e->func, t)) {
        const ty_expr_t *other = srv__is_column(e->args[0], col)   ? e->args[1]
                                 : srv__is_column(e->args[1], col) ? e->args[0]
                                                                   : NULL;
        if (other == NULL || !srv__lookup_value(ls, other, t, &v))
            return false;
        if (!v.isnull)
            vals[(*nvals)++] = v;
        return true;
    }
    if (e->kind == TY_EXPR_IN_LIST && !e->negated && e->nargs >= 2 && e->nargs - 1 <= SRV_LOOKUP_KEYS_MAX &&
        srv__is_eq(e->func, t) && srv__is_column(e->args[0], col)) {
        for (int i = 1; i < e->nargs; i++) {
            if (!srv__lookup_value(ls, e->args[i], t, &v))
                return false;
            if (!v.isnull)
                vals[(*nvals)++] = v;
        }
        return true;
    }
    return false;
}

static void srv__lookup_add_row(srv__lookup_t *l, ty_datum_t *row, ty_ctx_t *ctx)
{
    if (l->n == l->cap) {
        l->cap = l->cap ? 2 * l->cap : 8;
        ty_datum_t **g = cm_arena_alloc(ctx->arena, sizeof *g * (size_t)l->cap);
        if (l->n)
            memcpy(g, l->rows, sizeof *g * (size_t)l->n);
        l->rows = g;
    }
    l->rows[l->n++] = row;
}

/*
 * The key rows a filter over get fixes; false: it does not fix every key column. A relation
 * without a key (a materialized view, a table without one) is looked up by the columns the
 * filter fixes, whichever they are: its lookup rows hold values there and NULL elsewhere, and
 * every worker answers its rows that match (df_peek_match.c).
 */
static bool srv__lookup_keys(srv__lookups_t *ls, const plan_rel_t *get, const ty_expr_t *pred, srv__lookup_t *l)
{
    if (get->nitem_keys < 0 || get->nitem_keys > 8 || pred == NULL)
        return false;
    const ty_expr_t *const *conj = (const ty_expr_t *const *)&pred;
    int nconj = 1;
    if (pred->kind == TY_EXPR_AND) {
        conj = (const ty_expr_t *const *)pred->args;
        nconj = pred->nargs;
    }
    bool partial = get->nitem_keys == 0;
    int keys[8];
    ty_datum_t vals[8][SRV_LOOKUP_KEYS_MAX];
    int nvals[8];
    int nkeys = 0;
    int64_t combos = 1;
    for (int k = 0; k < (partial ? get->ncols : get->nitem_keys) && nkeys < 8; k++) {
        int col = partial ? k : get->item_keys[k];
        if (col < 0 || col >= get->ncols || !srv__lookup_type(get->types[col])) {
            if (partial)
                continue;
            return false;
        }
        bool found = false;
        for (int i = 0; i < nconj && !found; i++)
            found = srv__conjunct_values(ls, conj[i], col, get->types[col], vals[nkeys], &nvals[nkeys]);
        if (!found) {
            if (partial)
                continue;
            return false;
        }
        combos *= nvals[nkeys];
        if (combos > SRV_LOOKUP_KEYS_MAX)
            return false;
        keys[nkeys++] = col;
    }
    if (nkeys == 0)
        return false;
    /* Every combination of the key columns' values is a key. */
    for (int64_t c = 0; c < combos; c++) {
        ty_datum_t *row = cm_arena_alloc(ls->ctx->arena, sizeof *row * (size_t)get->ncols);
        for (int i = 0; i < get->ncols; i++)
            row[i] = (ty_datum_t){.isnull = true};
        int64_t rest = c;
        for (int k = 0; k < nkeys; k++) {
            row[keys[k]] = vals[k][rest % nvals[k]];
            rest /= nvals[k];
        }
        srv__lookup_add_row(l, row, ls->ctx);
    }
    return true;
}

static void srv__lookup_visit(srv__lookups_t *ls, const plan_rel_t *r, const plan_rel_t *parent)
{
    if (r == NULL || ls->give_up)
        return;
    if (r->kind == PLAN_REL_GET) {
        srv__lookup_t *l = NULL;
        for (int i = 0; i < ls->n && !l; i++)
            if (ls->items[i].item == r->item)
                l = &ls->items[i];
        if (l == NULL) {
            if (ls->n == SRV_LOOKUP_ITEMS_MAX) {
                ls->give_up = true;
                return;
            }
            l = &ls->items[ls->n++];
            *l = (srv__lookup_t){.item = r->item, .get = r};
        }
        if (l->get->ncols != r->ncols ||
            !(parent && parent->kind == PLAN_REL_FILTER && srv__lookup_keys(ls, r, parent->pred, l)))
            l->all = true;
    }
    srv__lookup_visit(ls, r->input, r);
    srv__lookup_visit(ls, r->right, r);
    for (int i = 0; i < r->nctes; i++) {
        srv__lookup_visit(ls, r->ctes[i]->def, NULL);
        srv__lookup_visit(ls, r->ctes[i]->rec, NULL);
    }
}

bool srv_read_lookups(const plan_t *p, const ty_datum_t *params, ty_ctx_t *ctx, cm_buf_t *body)
{
    srv__lookups_t *ls = cm_arena_zalloc(ctx->arena, sizeof *ls);
    ls->p = p;
    ls->params = params;
    ls->ctx = ctx;
    srv__lookup_visit(ls, p->root, NULL);
    for (int i = 0; i < p->nsublinks; i++)
        if (!p->sublinks[i].joined)
            srv__lookup_visit(ls, p->sublinks[i].rel, NULL);
    if (ls->give_up)
        return true;
    uint32_t n = 0;
    for (int i = 0; i < ls->n; i++)
        n += !ls->items[i].all;
    if (n == 0)
        return true;
    df_peek_lookups_begin(body, n);
    for (int i = 0; i < ls->n; i++) {
        const srv__lookup_t *l = &ls->items[i];
        if (!l->all && !df_peek_lookup_add(body, l->item, l->get->types, l->get->ncols, l->rows, l->n, ctx))
            return false;
    }
    return true;
}
