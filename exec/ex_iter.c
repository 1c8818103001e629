/*
 * ex_iter.c: the operators' iterators and the entry point (exec.h): runs
 * a plan on the caller's thread, for queries that read no catalog relation
 * (constant rows, VALUES, subqueries over them). Each operator is an iterator that hands rows up one at a time
 * (filter, project, product, limit, distinct and UNION stream; sort,
 * reduce and INTERSECT/EXCEPT consume their input first), so rows reach
 * the client as they are made and LIMIT stops the work early. Literal
 * conversions left for run time are checked first, so a bad literal is
 * reported at its position as PostgreSQL does at parse time. Rows live in
 * ctx->arena.
 */
#include "exec/ex_int.h"

#include <string.h>

typedef struct ex_iter ex_iter_t;
struct ex_iter {
    const plan_rel_t *rel;
    ex_iter_t *in, *right;
    bool started;
    bool left_done;               /* UNION: reading the right side */
    int pos;
    ty_expr_t **inst;             /* the operator's expressions, sublinks replaced */
    ty_datum_t **buf;             /* SORT, REDUCE, SESSION, INTERSECT/EXCEPT: the output rows */
    int nbuf;
    int64_t repeat;               /* INTERSECT/EXCEPT ALL: copies of buf[pos] still to give */
    ty_datum_t *cur;              /* PRODUCT: the left row */
    ty_datum_t **rrows;           /* PRODUCT: the right side */
    int nr;
    plan_rowset_t *set;            /* DISTINCT, UNION, INTERSECT/EXCEPT */
    plan_rowent_t *ent;            /* INTERSECT/EXCEPT: next entry to give */
    int64_t limit, skip, sent;
    bool cur_matched;             /* JOIN: the left row met a right row */
    bool *rmatched;               /* RIGHT/FULL JOIN: which right rows met a left row */
    plan_rowset_t *hash;           /* JOIN with equality keys: the right rows by key (entries' state: a cands_t) */
    int nkeys, *lkeys, *rkeys;    /* JOIN: the key columns of each side (right ones counted in the right row) */
    bool *null_keys;              /* JOIN: a key compared by IS NOT DISTINCT FROM, where NULL meets NULL */
    const int *cand;              /* JOIN: the current left row's candidate right rows (hash); NULL: all */
    int ncand;
    void *ext;                    /* CTE, FLATMAP: the state of operators run in their own files */
};

static bool next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row);

static ex_iter_t *iter_new(ex_exec_t *x, const plan_rel_t *rel)
{
    ex_iter_t *it = cm_arena_zalloc(x->ctx->arena, sizeof(*it));
    it->rel = rel;
    if (rel->input)
        it->in = iter_new(x, rel->input);
    if (rel->right)
        it->right = iter_new(x, rel->right);
    return it;
}

static bool eval(ex_exec_t *x, ty_expr_t *e, const ty_datum_t *row, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    return ty_expr_eval(e, x->ctx, row, x->params, out);
}

/* The operator's expressions with sublinks replaced, made when its first row needs them. */
static bool inst_all(ex_exec_t *x, ex_iter_t *it, ty_expr_t **es, int n)
{
    if (it->inst)
        return true;
    it->inst = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++)
        if (!(it->inst[i] = ex__instantiate(x, es[i])))
            return false;
    return true;
}

static ty_datum_t *new_row(ex_exec_t *x, int n)
{
    return cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
}

/* Reads all of an input into an array. */
static bool drain(ex_exec_t *x, ex_iter_t *in, int max, ty_datum_t ***rows, int *n)
{
    int cap = 16;
    *rows = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)cap);
    *n = 0;
    for (;;) {
        if (max >= 0 && *n >= max)
            return true;
        ty_datum_t *r;
        if (!next(x, in, &r))
            return false;
        if (!r)
            return true;
        if (*n == cap) {
            ty_datum_t **g = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)cap * 2);
            memcpy(g, *rows, sizeof(ty_datum_t *) * (size_t)cap);
            *rows = g;
            cap *= 2;
        }
        (*rows)[(*n)++] = r;
    }
}

/* -------------------------------------------------------------- reduce */

static bool reduce(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    int nk = rel->nkeys, na = rel->naggs;
    int nargs = 0, maxvals = 1;
    for (int a = 0; a < na; a++) {
        nargs += plan_agg_nexprs(rel->aggs[a]);
        if (plan_agg_nexprs(rel->aggs[a]) > maxvals)
            maxvals = plan_agg_nexprs(rel->aggs[a]);
    }
    ty_expr_t **es = cm_arena_alloc(x->ctx->arena, sizeof(ty_expr_t *) * (size_t)(nk + nargs + 1));
    for (int k = 0; k < nk; k++)
        es[k] = rel->keys[k];
    for (int a = 0, j = nk; a < na; a++)
        j += plan_agg_exprs(rel->aggs[a], es + j);
    ty_datum_t *vals = new_row(x, maxvals);
    plan_rowset_t *groups = plan_rowset_new(x->ctx->arena, nk, rel->types);
    for (;;) {
        ty_datum_t *r;
        if (!next(x, it->in, &r))
            return false;
        if (!r)
            break;
        if (!inst_all(x, it, es, nk + nargs))
            return false;
        ty_datum_t *key = new_row(x, nk);
        for (int k = 0; k < nk; k++)
            if (!eval(x, it->inst[k], r, &key[k]))
                return false;
        bool added;
        plan_rowent_t *g = plan_rowset_find(groups, key, true, &added);
        if (added) {
            plan_aggstate_t **st = cm_arena_alloc(x->ctx->arena, sizeof(*st) * (size_t)(na ? na : 1));
            for (int a = 0; a < na; a++)
                st[a] = plan_agg_start(rel->aggs[a], x->ctx);
            g->state = st;
        }
        plan_aggstate_t **st = g->state;
        for (int a = 0, j = nk; a < na; a++) {
            const plan_agg_t *ag = rel->aggs[a];
            int nv = plan_agg_nexprs(ag);
            memset(vals, 0, sizeof(ty_datum_t) * (size_t)maxvals);
            bool skip = false;
            for (int i = 0, v = 0; i < nv; i++, j++) {
                if (skip)
                    continue;
                ty_datum_t d;
                if (!eval(x, it->inst[j], r, &d))
                    return false;
                if (ag->filter && i == 0)
                    skip = d.isnull || !d.v.b;   /* FILTER first: arguments of other rows are not evaluated */
                else
                    vals[v++] = d;
            }
            if (!skip && !plan_agg_step(ag, st[a], vals, x->ctx))
                return false;
        }
    }
    /* Without GROUP BY there is one group even when there were no rows. */
    if (nk == 0 && !plan_rowset_first(groups)) {
        ty_datum_t none;
        plan_rowent_t *g = plan_rowset_find(groups, &none, true, NULL);
        plan_aggstate_t **st = cm_arena_alloc(x->ctx->arena, sizeof(*st) * (size_t)(na ? na : 1));
        for (int a = 0; a < na; a++)
            st[a] = plan_agg_start(rel->aggs[a], x->ctx);
        g->state = st;
    }
    int n = 0;
    for (plan_rowent_t *g = plan_rowset_first(groups); g; g = g->order)
        n++;
    it->buf = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)(n ? n : 1));
    for (plan_rowent_t *g = plan_rowset_first(groups); g; g = g->order) {
        ty_datum_t *out = new_row(x, rel->ncols);
        if (nk)
            memcpy(out, g->row, sizeof(ty_datum_t) * (size_t)nk);
        plan_aggstate_t **st = g->state;
        for (int a = 0; a < na; a++)
            if (!plan_agg_finish(rel->aggs[a], st[a], x->ctx, &out[nk + a]))
                return false;
        it->buf[it->nbuf++] = out;
    }
    return true;
}

/* ------------------------------------------------------ set operations */

static bool setop_start(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    it->set = plan_rowset_new(x->ctx->arena, rel->ncols, rel->types);
    if (rel->setop == PLAN_SETOP_UNION)
        return true;
    for (int side = 0; side < 2; side++) {
        for (;;) {
            ty_datum_t *r;
            if (!next(x, side ? it->right : it->in, &r))
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

static int64_t setop_copies(const plan_rel_t *rel, const plan_rowent_t *e)
{
    int64_t l = e->count[0], r = e->count[1];
    if (rel->setop == PLAN_SETOP_INTERSECT)
        return rel->all ? (l < r ? l : r) : (l > 0 && r > 0);
    return rel->all ? (l > r ? l - r : 0) : (l > 0 && r == 0);
}

static bool setop_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    const plan_rel_t *rel = it->rel;
    if (rel->setop == PLAN_SETOP_UNION) {
        for (;;) {
            ty_datum_t *r;
            if (!next(x, it->left_done ? it->right : it->in, &r))
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
            it->repeat = setop_copies(rel, it->ent);
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

/* ---------------------------------------------------------------- joins */

/* A left row with the right row r, or with NULLs for a missing side (l or r NULL). */
static ty_datum_t *join_row(ex_exec_t *x, const plan_rel_t *rel, const ty_datum_t *l, const ty_datum_t *r)
{
    int lw = rel->input->ncols, rw = rel->right->ncols;
    ty_datum_t *out = new_row(x, rel->ncols);
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
static void find_keys(ex_iter_t *it, const ty_expr_t *c, int lw, int max)
{
    if (c->kind == TY_EXPR_AND) {
        for (int i = 0; i < c->nargs; i++)
            find_keys(it, c->args[i], lw, max);
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
static void join_hash(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    enum { MAX_KEYS = 8 };
    if (!rel->pred || it->nr < 2)
        return;   /* one right row: nothing to look up */
    it->lkeys = cm_arena_alloc(x->ctx->arena, sizeof(int) * MAX_KEYS);
    it->rkeys = cm_arena_alloc(x->ctx->arena, sizeof(int) * MAX_KEYS);
    it->null_keys = cm_arena_alloc(x->ctx->arena, sizeof(bool) * MAX_KEYS);
    find_keys(it, rel->pred, rel->input->ncols, MAX_KEYS);
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
static void join_candidates(ex_iter_t *it)
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
static bool join_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    const plan_rel_t *rel = it->rel;
    bool keep_left = rel->join == PLAN_JOIN_LEFT || rel->join == PLAN_JOIN_FULL;
    bool keep_right = rel->join == PLAN_JOIN_RIGHT || rel->join == PLAN_JOIN_FULL;
    while (!it->left_done) {
        if (!it->cur) {
            if (!next(x, it->in, &it->cur))
                return false;
            if (!it->cur) {
                it->left_done = true;
                it->pos = 0;
                break;
            }
            it->cur_matched = false;
            join_candidates(it);
        }
        while (it->pos < it->ncand) {
            int k = it->cand ? it->cand[it->pos++] : it->pos++;
            ty_datum_t *r = join_row(x, rel, it->cur, it->rrows[k]);
            if (rel->pred) {
                ty_datum_t ok;
                if (!inst_all(x, it, (ty_expr_t **)&rel->pred, 1) || !eval(x, it->inst[0], r, &ok))
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
            *row = join_row(x, rel, l, NULL);
            return true;
        }
    }
    while (keep_right && it->pos < it->nr) {
        int k = it->pos++;
        if (!it->rmatched[k]) {
            *row = join_row(x, rel, NULL, it->rrows[k]);
            return true;
        }
    }
    return true;
}

/* ------------------------------------------------------------ operators */

static bool eval_bound(ex_exec_t *x, ty_expr_t *e, const char *what, const char *sqlstate, int64_t *out)
{
    ty_datum_t d;
    ty_expr_t *i = ex__instantiate(x, e);
    if (!i || !eval(x, i, NULL, &d))
        return false;
    if (d.isnull)
        return true;   /* LIMIT NULL is no limit, OFFSET NULL is none */
    if (d.v.i < 0)
        return cm_err_set(x->ctx->err, sqlstate, "%s must not be negative", what);
    *out = d.v.i;
    return true;
}

/* A session relation's rows, read once per execution: a catalog view joins eddy_catalog.items to
 * itself, and every reference then sees one state. Readers never change the shared rows. */
struct ex_session_rows {
    const char *name;
    int ncols, nrows;
    ty_datum_t **rows;
    struct ex_session_rows *next;
};

static bool session_start(ex_exec_t *x, ex_iter_t *it)
{
    const plan_rel_t *rel = it->rel;
    /* Without a session (unit tests, workers) the relation is empty. */
    if (!x->ctx->session_rows)
        return true;
    for (struct ex_session_rows *s = x->sessions; s; s = s->next)
        if (s->ncols == rel->ncols && strcmp(s->name, rel->session) == 0) {
            it->buf = s->rows;
            it->nbuf = s->nrows;
            return true;
        }
    if (!x->ctx->session_rows(x->ctx->session_arg, rel->session, rel->ncols, x->ctx->arena, &it->buf, &it->nbuf,
                              x->ctx->err))
        return false;
    struct ex_session_rows *s = cm_arena_alloc(x->ctx->arena, sizeof *s);
    *s = (struct ex_session_rows){rel->session, rel->ncols, it->nbuf, it->buf, x->sessions};
    x->sessions = s;
    return true;
}

static bool start(ex_exec_t *x, ex_iter_t *it)
{
    it->started = true;
    const plan_rel_t *rel = it->rel;
    switch (rel->kind) {
    case PLAN_REL_SORT: {
        if (!drain(x, it->in, -1, &it->buf, &it->nbuf))
            return false;
        ty_datum_t **tmp = cm_arena_alloc(x->ctx->arena, sizeof(ty_datum_t *) * (size_t)(it->nbuf + 1));
        plan_rows_sort(rel->sort, rel->nsort, it->buf, tmp, it->nbuf);
        return true;
    }
    case PLAN_REL_REDUCE:
        return reduce(x, it);
    case PLAN_REL_WINDOW: {
        ty_datum_t **in;
        int n;
        return drain(x, it->in, -1, &in, &n) && ex__window_run(x, rel, in, n, &it->buf) && (it->nbuf = n, true);
    }
    case PLAN_REL_PRODUCT:
        return drain(x, it->right, -1, &it->rrows, &it->nr);
    case PLAN_REL_JOIN:
        if (!drain(x, it->right, -1, &it->rrows, &it->nr))
            return false;
        it->rmatched = cm_arena_zalloc(x->ctx->arena, sizeof(bool) * (size_t)(it->nr ? it->nr : 1));
        join_hash(x, it);
        return true;
    case PLAN_REL_DISTINCT:
        if (rel->nsort) {
            /* DISTINCT ON: a set of the key columns only. */
            ty_oid_t *types = cm_arena_alloc(x->ctx->arena, sizeof(ty_oid_t) * (size_t)rel->nsort);
            for (int i = 0; i < rel->nsort; i++)
                types[i] = rel->sort[i].type;
            it->set = plan_rowset_new(x->ctx->arena, rel->nsort, types);
            return true;
        }
        it->set = plan_rowset_new(x->ctx->arena, rel->ncols, rel->types);
        return true;
    case PLAN_REL_LIMIT:
        it->limit = -1;
        return (!rel->offset || eval_bound(x, rel->offset, "OFFSET", "2201X", &it->skip)) &&
               (!rel->limit || eval_bound(x, rel->limit, "LIMIT", "2201W", &it->limit));
    case PLAN_REL_SETOP:
        return setop_start(x, it);
    case PLAN_REL_SESSION:
        return session_start(x, it);
    default:
        return true;
    }
}

static bool next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    *row = NULL;
    if (!it->started && !start(x, it))
        return false;
    const plan_rel_t *rel = it->rel;
    switch (rel->kind) {
    case PLAN_REL_VALUES: {
        if (it->pos >= rel->nrows)
            return true;
        if (!ty_ctx_check_interrupt(x->ctx))
            return false;
        ty_datum_t *r = new_row(x, rel->ncols);
        for (int c = 0; c < rel->ncols; c++) {
            ty_expr_t *e = ex__instantiate(x, rel->rows[it->pos][c]);
            if (!e || !eval(x, e, NULL, &r[c]))
                return false;
        }
        it->pos++;
        *row = r;
        return true;
    }
    case PLAN_REL_PROJECT: {
        ty_datum_t *in;
        if (!next(x, it->in, &in))
            return false;
        if (!in)
            return true;
        if (!inst_all(x, it, rel->exprs, rel->ncols))
            return false;
        ty_datum_t *r = new_row(x, rel->ncols);
        for (int c = 0; c < rel->ncols; c++)
            if (!eval(x, it->inst[c], in, &r[c]))
                return false;
        *row = r;
        return true;
    }
    case PLAN_REL_FILTER:
        for (;;) {
            ty_datum_t *in, ok;
            if (!next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            if (!inst_all(x, it, (ty_expr_t **)&rel->pred, 1) || !eval(x, it->inst[0], in, &ok))
                return false;
            if (!ok.isnull && ok.v.b) {
                *row = in;
                return true;
            }
        }
    case PLAN_REL_PRODUCT: {
        int lw = rel->input->ncols, rw = rel->right->ncols;
        while (!it->cur || it->pos >= it->nr) {
            if (!next(x, it->in, &it->cur))
                return false;
            if (!it->cur)
                return true;
            it->pos = 0;
        }
        ty_datum_t *r = new_row(x, rel->ncols);
        memcpy(r, it->cur, sizeof(ty_datum_t) * (size_t)lw);
        memcpy(r + lw, it->rrows[it->pos++], sizeof(ty_datum_t) * (size_t)rw);
        *row = r;
        return true;
    }
    case PLAN_REL_JOIN:
        return join_next(x, it, row);
    case PLAN_REL_GET:
        /* A relation's rows live with the workers; binding keeps an error in a plan that reads one
         * until they run it, so here it has none (as the catalog views' empty relations). */
        return true;
    case PLAN_REL_SORT:
    case PLAN_REL_REDUCE:
    case PLAN_REL_SESSION:
    case PLAN_REL_WINDOW:
        if (it->pos < it->nbuf)
            *row = it->buf[it->pos++];
        return true;
    case PLAN_REL_DISTINCT:
        for (;;) {
            ty_datum_t *in;
            if (!next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            bool added;
            const ty_datum_t *key = in;
            if (rel->nsort) {
                ty_datum_t *k = new_row(x, rel->nsort);
                for (int i = 0; i < rel->nsort; i++)
                    k[i] = in[rel->sort[i].col];
                key = k;
            }
            plan_rowset_find(it->set, key, true, &added);
            if (added) {
                *row = in;
                return true;
            }
        }
    case PLAN_REL_LIMIT:
        while (it->limit < 0 || it->sent < it->limit) {
            ty_datum_t *in;
            if (!next(x, it->in, &in))
                return false;
            if (!in)
                return true;
            if (it->skip > 0) {
                it->skip--;
                continue;
            }
            it->sent++;
            *row = in;
            return true;
        }
        return true;
    case PLAN_REL_SETOP:
        return setop_next(x, it, row);
    case PLAN_REL_LET:
        return next(x, it->in, row);   /* the CTEs are computed when first read */
    case PLAN_REL_CTE:
        return ex__cte_next(x, rel, &it->ext, row);
    case PLAN_REL_FLATMAP:
        return ex__flatmap_next(x, rel, it->in, &it->ext, row);
    }
    return cm_err_set(x->ctx->err, CM_ERRCODE_INTERNAL_ERROR, "unknown plan operator %d", (int)rel->kind);
}

ex_iter_t *ex__iter_new(ex_exec_t *x, const plan_rel_t *rel)
{
    return iter_new(x, rel);
}

bool ex__iter_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row)
{
    return next(x, it, row);
}

bool ex__collect(ex_exec_t *x, const plan_rel_t *rel, int max_rows, ty_datum_t ***rows, int *nrows)
{
    return drain(x, iter_new(x, rel), max_rows, rows, nrows);
}

int ex__char_pos(const char *sql, int byte_pos)
{
    if (byte_pos < 0 || !sql)
        return 0;
    size_t len = strlen(sql);
    return cm_utf8_chars(sql, (size_t)byte_pos > len ? len : (size_t)byte_pos) + 1;
}

bool ex_run(const plan_t *q, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg)
{
    ex_exec_t x = {.ctx = ctx, .sql = sql, .params = params, .q = q};
    for (int i = 0; i < q->nlits; i++) {
        ty_datum_t d;
        if (!eval(&x, q->lits[i], NULL, &d)) {
            if (ctx->err->position == 0 && q->lits[i]->location >= 0)
                ctx->err->position = ex__char_pos(sql, q->lits[i]->location);
            return false;
        }
    }
    if (q->nsublinks) {
        size_t n = (size_t)q->nsublinks;
        x.sub_done = cm_arena_zalloc(ctx->arena, sizeof(bool) * n);
        x.sub_value = cm_arena_zalloc(ctx->arena, sizeof(ty_expr_t *) * n);
        x.sub_rows = cm_arena_zalloc(ctx->arena, sizeof(ty_datum_t *) * n);
        x.sub_nrows = cm_arena_zalloc(ctx->arena, sizeof(int) * n);
    }
    ex_iter_t *root = iter_new(&x, q->root);
    for (;;) {
        ty_datum_t *r;
        if (!next(&x, root, &r))
            return false;
        if (!r)
            return true;
        if (!cb(arg, r, q->ncols))
            return false;
    }
}
