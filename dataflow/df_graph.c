/*
 * df_graph.c: a materialized view's operators on one worker (DESIGN §6).
 * Installing a maintained dataflow compiles its plan (plan_maintainable
 * accepted it at CREATE) into nodes, inputs first, and hydrates it: the
 * current contents of what it reads (this worker's shards) go through the
 * same operators as one delta. Afterwards, every step that writes a table
 * runs, in install order, each view reading it or reading a view that ran
 * before in the same step, with the deltas of that step alone. Whether a
 * view runs at a step depends only on which relations the step changed,
 * never on whether this worker's shard saw rows, so every worker runs the
 * same nodes and their exchange rounds meet.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

#define DF_GRAPH_READS_MAX 256

/* ------------------------------------------------------------ compile */

static df_node_t *df__node(df_graph_t *g, df_node_kind_t kind, const plan_rel_t *r)
{
    df_node_t *n = cm_arena_zalloc(&g->arena, sizeof *n);
    n->kind = kind;
    n->rel = r;
    n->ncols = r->ncols;
    n->types = r->types;
    return n;
}

static void df__add(df_graph_t *g, df_node_t *n, int *cap)
{
    if (g->nnodes == *cap) {
        *cap = *cap ? *cap * 2 : 8;
        df_node_t **nodes = cm_arena_alloc(&g->arena, sizeof *nodes * (size_t)*cap);
        if (g->nnodes)
            memcpy(nodes, g->nodes, sizeof *nodes * (size_t)g->nnodes);
        g->nodes = nodes;
    }
    g->nodes[g->nnodes++] = n;
}

static df_node_t *df__compile_topk(df_graph_t *g, df_node_t *n, int *cap, cm_err_t *err);
static df_node_t *df__compile_let(df_graph_t *g, const plan_rel_t *r, int *cap, cm_err_t *err);

static df_node_t *df__compile_at(df_graph_t *g, const plan_rel_t *r, int *cap, cm_err_t *err)
{
    df_node_kind_t kind;
    switch (r->kind) {
    case PLAN_REL_GET: kind = DF_NODE_GET; break;
    case PLAN_REL_VALUES: kind = DF_NODE_VALUES; break;
    case PLAN_REL_FILTER: kind = r->input->kind == PLAN_REL_PRODUCT ? DF_NODE_JOIN : DF_NODE_FILTER; break;
    case PLAN_REL_JOIN:
    case PLAN_REL_PRODUCT: kind = DF_NODE_JOIN; break;
    case PLAN_REL_PROJECT: kind = DF_NODE_PROJECT; break;
    case PLAN_REL_SORT: kind = DF_NODE_PASS; break;
    case PLAN_REL_SETOP: kind = r->setop == PLAN_SETOP_UNION && r->all ? DF_NODE_UNION : DF_NODE_SETOP; break;
    case PLAN_REL_REDUCE:
    case PLAN_REL_DISTINCT: kind = r->nsort > 0 ? DF_NODE_TOPK : DF_NODE_REDUCE; break;
    case PLAN_REL_LIMIT: kind = DF_NODE_TOPK; break;
    case PLAN_REL_FLATMAP: kind = DF_NODE_FLATMAP; break;
    case PLAN_REL_WINDOW: kind = DF_NODE_WINDOW; break;
    case PLAN_REL_LET: return df__compile_let(g, r, cap, err);
    case PLAN_REL_CTE:
        /* A reference to a WITH query reads the one node its LET compiled (before it); a recursive
         * term's reference, that query's worktable. */
        for (int i = 0; i < g->nnodes; i++) {
            const df_node_t *c = g->nodes[i];
            if (r->worktable ? c->kind == DF_NODE_WORKTABLE && c->cte == r->cte
                             : (c->kind == DF_NODE_CTE || c->kind == DF_NODE_RECURSE) && c->cte == r->cte)
                return g->nodes[i];
        }
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "the dataflow engine cannot maintain this WITH query");
        return NULL;
    default:
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "the dataflow engine cannot maintain this operator yet");
        return NULL;
    }
    df_node_t *n = df__node(g, kind, r);
    if (kind == DF_NODE_TOPK)
        return df__compile_topk(g, n, cap, err);
    if (r->input && kind != DF_NODE_GET && kind != DF_NODE_VALUES && kind != DF_NODE_JOIN && !(n->in[0] = df__compile_at(g, r->input, cap, err)))
        return NULL;
    if ((kind == DF_NODE_UNION || kind == DF_NODE_SETOP) && !(n->in[1] = df__compile_at(g, r->right, cap, err)))
        return NULL;
    if (kind == DF_NODE_SETOP && !df__setop_new(g, n, err))
        return NULL;
    if (kind == DF_NODE_FLATMAP && !df__flatmap_new(g, n, err))
        return NULL;
    if (kind == DF_NODE_WINDOW && !df__window_new(g, n, err))
        return NULL;
    if (kind == DF_NODE_REDUCE && !(n->reduce = df__reduce_new(g, n, err)))
        return NULL;
    if (kind == DF_NODE_JOIN) {
        const plan_rel_t *j = r->kind == PLAN_REL_FILTER ? r->input : r;
        if (!(n->in[0] = df__compile_at(g, j->input, cap, err)) || !(n->in[1] = df__compile_at(g, j->right, cap, err)))
            return NULL;
        n->join = df__join_new(g, n);
    }
    if (kind == DF_NODE_GET) {
        bool seen = false;
        for (int i = 0; i < g->nreads; i++)
            seen |= g->reads[i] == r->item;
        if (!seen) {
            if (g->nreads == DF_GRAPH_READS_MAX) {
                cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a view reading more than %d relations",
                           DF_GRAPH_READS_MAX);
                return NULL;
            }
            g->reads[g->nreads++] = r->item;
        }
    }
    df__add(g, n, cap);
    return n;
}

/*
 * A top-k reads the sort below it for its order; a projection between a
 * LIMIT and its sort (dropping the sort's hidden columns) goes above it
 * instead, as projecting before or after a limit is the same.
 */
static df_node_t *df__compile_topk(df_graph_t *g, df_node_t *n, int *cap, cm_err_t *err)
{
    const plan_rel_t *in = n->rel->input, *proj = NULL;
    if (n->rel->kind == PLAN_REL_LIMIT && in->kind == PLAN_REL_PROJECT && in->input->kind == PLAN_REL_SORT) {
        proj = in;
        in = in->input;
    }
    n->ncols = in->ncols;
    n->types = in->types;
    if (!(n->in[0] = df__compile_at(g, in, cap, err)) || !df__topk_new(g, n, err))
        return NULL;
    df__add(g, n, cap);
    if (!proj)
        return n;
    df_node_t *p = df__node(g, DF_NODE_PROJECT, proj);
    p->in[0] = n;
    df__add(g, p, cap);
    return p;
}

/* A recursive WITH query: its non-recursive term, its worktable, the recursive term reading it, then the loop. */
static df_node_t *df__compile_recursive(df_graph_t *g, plan_cte_t *c, df_node_t *def, int *cap, cm_err_t *err)
{
    df_node_t *work = df__node(g, DF_NODE_WORKTABLE, c->def);
    work->cte = c;
    work->loop = true;
    work->ncols = c->ncols;
    work->types = c->types;
    df__add(g, work, cap);
    int first = g->nnodes;
    df_node_t *rec = df__compile_at(g, c->rec, cap, err);
    if (!rec)
        return NULL;
    df_node_t *n = df__node(g, DF_NODE_RECURSE, c->def);
    n->cte = c;
    n->ncols = c->ncols;
    n->types = c->types;
    n->in[0] = def;
    n->in[1] = rec;
    if (!df__recurse_new(g, n, work, first, err))
        return NULL;
    df__add(g, n, cap);
    return n;
}

/* WITH: each query once, in dependency order, then the query reading them. */
static df_node_t *df__compile_let(df_graph_t *g, const plan_rel_t *r, int *cap, cm_err_t *err)
{
    for (int i = 0; i < r->nctes; i++) {
        plan_cte_t *c = r->ctes[i];
        df_node_t *def = df__compile_at(g, c->def, cap, err);
        if (!def)
            return NULL;
        if (c->rec) {
            if (!df__compile_recursive(g, c, def, cap, err))
                return NULL;
            continue;
        }
        df_node_t *n = df__node(g, DF_NODE_CTE, c->def);
        n->in[0] = def;
        n->state = c;
        n->cte = c;
        df__add(g, n, cap);
    }
    return df__compile_at(g, r->input, cap, err);
}

static df_node_t *df__compile(df_graph_t *g, const plan_rel_t *r, cm_err_t *err)
{
    int cap = 0;
    return df__compile_at(g, r, &cap, err);
}

void df__graph_free(df_graph_t *g)
{
    if (!g)
        return;
    for (int i = 0; i < g->nnodes; i++) {
        df__batch_unref(g->nodes[i]->out);
        if (g->nodes[i]->reduce)
            df__reduce_free(g->nodes[i]->reduce);
        df__join_free(g->nodes[i]->join);
        if (g->nodes[i]->state_free)
            g->nodes[i]->state_free(g->nodes[i]->state);
    }
    df__spine_free(&g->result);
    df__index_free_all(g);
    for (int i = 0; i < g->nsubs; i++)
        df_sub_unref(g->subs[i]);
    free(g->subs);
    for (int i = 0; i < g->nerrs; i++)
        free(g->errs[i].message);
    free(g->errs);
    free(g->reads);
    cm_arena_free(&g->arena);
    free(g);
}

/* Every spine a node keeps belongs here, or it never compacts when the worker is idle. */
bool df__graph_idle_work(df_graph_t *g, int64_t *fuel)
{
    bool more = df__spine_idle_spend(&g->result, fuel);
    more |= df__index_idle(g, fuel);
    for (int i = 0; i < g->nnodes; i++) {
        df_node_t *n = g->nodes[i];
        switch (n->kind) {
        case DF_NODE_REDUCE:
            if (n->reduce && !n->reduce->accum) {
                more |= df__spine_idle_spend(&n->reduce->input, fuel);
                more |= df__spine_idle_spend(&n->reduce->output, fuel);
                more |= df__spine_idle_spend(&n->reduce->failed, fuel);
            }
            break;
        case DF_NODE_JOIN:
            if (n->join)
                more |= df__join_idle_work(n->join, fuel);
            break;
        default:
            if (n->state != NULL && n->state_idle != NULL)
                more |= n->state_idle(n->state, fuel);
            break;
        }
    }
    return more;
}

df_graph_t *df__graph_find(df_state_t *st, uint64_t id)
{
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].id == id)
            return st->flows[i].graph;
    return NULL;
}

/* ------------------------------------------------------------ errors */

void df__graph_error(df_step_t *s, int64_t diff)
{
    df_graph_t *g = s->g;
    const char *state = s->err.set ? s->err.sqlstate : CM_ERRCODE_INTERNAL_ERROR;
    const char *msg = s->err.message ? s->err.message : "";
    int at = -1;
    for (int i = 0; i < g->nerrs && at < 0; i++)
        if (strcmp(g->errs[i].sqlstate, state) == 0 && strcmp(g->errs[i].message, msg) == 0)
            at = i;
    if (at < 0) {
        g->errs = cm_realloc(g->errs, sizeof *g->errs * (size_t)(g->nerrs + 1));
        at = g->nerrs++;
        memset(&g->errs[at], 0, sizeof g->errs[at]);
        snprintf(g->errs[at].sqlstate, sizeof g->errs[at].sqlstate, "%s", state);
        g->errs[at].message = cm_strdup(msg);
    }
    g->errs[at].count += diff;
    if (s->st != NULL && g->id != DF_PEEK_COMPUTED)
        s->st->pub_all = true;   /* views reading this one answer its errors too */
    if (g->errs[at].count == 0) {
        free(g->errs[at].message);
        g->errs[at] = g->errs[--g->nerrs];
    }
    cm_err_clear(&s->err);
}

/* ------------------------------------------------------------ steps */

static void df__step_init(df_step_t *s, df_state_t *st, df_graph_t *g, uint64_t seq, bool hydrate)
{
    memset(s, 0, sizeof *s);
    s->st = st;
    s->g = g;
    s->seq = seq;
    s->hydrate = hydrate;
    cm_arena_init(&s->rowa, 0);
    ty_settings_default(&s->settings);
    s->ctx = (ty_ctx_t){.arena = &s->rowa, .settings = &s->settings, .err = &s->err};
}

static void df__step_done(df_step_t *s)
{
    cm_err_clear(&s->err);
    cm_arena_free(&s->rowa);
}

void df__node_step(df_step_t *s, df_node_t *n)
{
    df__batch_unref(n->out);
    n->out = NULL;
    switch (n->kind) {
    case DF_NODE_GET:
    case DF_NODE_WORKTABLE:
        break;   /* set by the step (what was written) and by the iteration (what it changed) */
    case DF_NODE_VALUES:
        df__op_values(s, n);
        break;
    case DF_NODE_FILTER:
    case DF_NODE_PROJECT:
        df__op_map(s, n);
        break;
    case DF_NODE_PASS:
    case DF_NODE_CTE:
        if ((n->out = n->in[0]->out))
            df__batch_ref(n->out);
        break;
    case DF_NODE_UNION:
        df__op_union(s, n);
        break;
    case DF_NODE_REDUCE:
        df__op_reduce(s, n);
        break;
    case DF_NODE_JOIN:
        df__op_join(s, n);
        break;
    case DF_NODE_SETOP:
        df__op_setop(s, n);
        break;
    case DF_NODE_TOPK:
        df__op_topk(s, n);
        break;
    case DF_NODE_FLATMAP:
        df__op_flatmap(s, n);
        break;
    case DF_NODE_WINDOW:
        df__op_window(s, n);
        break;
    case DF_NODE_RECURSE:
        df__op_recurse(s, n);
        break;
    }
}

/* Runs every node of g at one step; the root's delta is left in g->root->out. */
void df__graph_run(df_state_t *st, df_graph_t *g, const df__source_t *src, int nsrc, uint64_t seq, bool hydrate)
{
    df_step_t s;
    df__step_init(&s, st, g, seq, hydrate);
    for (int i = 0; i < g->nnodes; i++) {
        df_node_t *n = g->nodes[i];
        if (n->loop)
            continue;   /* its recursion runs it, once per iteration */
        df__node_step(&s, n);
        if (n->kind == DF_NODE_GET)
            for (int k = 0; k < nsrc; k++)
                if (src[k].item == n->rel->item && src[k].delta) {
                    n->out = (df_batch_t *)src[k].delta;
                    df__batch_ref(n->out);
                }
    }
    if (g->root->out) {
        if (!g->transient) {
            df__mview_apply(g, g->root->out, seq);
            if (g->id != DF_PEEK_COMPUTED)
                df__pub_mark(st, g->id);
        }
        if (g->nsubs > 0)
            df__sub_delta(st, g, g->root->out, seq);
    }
    /* Inner deltas are of this step only. */
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i] != g->root) {
            df__batch_unref(g->nodes[i]->out);
            g->nodes[i]->out = NULL;
        }
    df__step_done(&s);
}

static bool df__reads(const df_graph_t *g, uint64_t item)
{
    for (int i = 0; i < g->nreads; i++)
        if (g->reads[i] == item)
            return true;
    return false;
}

void df__flows_written(df_state_t *st, uint64_t table, const df_batch_t *delta, uint64_t seq)
{
    df__source_t stack[16];
    df__source_t *src = stack;
    int nsrc = 0, cap = 16;
    src[nsrc++] = (df__source_t){.item = table, .delta = delta};
    for (size_t i = 0; i < st->nflows; i++) {
        df_graph_t *g = st->flows[i].graph;
        if (!g)
            continue;
        bool touched = false;
        for (int k = 0; k < nsrc && !touched; k++)
            touched = df__reads(g, src[k].item);
        if (!touched)
            continue;
        df__graph_run(st, g, src, nsrc, seq, false);
        if (nsrc == cap) {
            cap *= 2;
            df__source_t *more = cm_malloc(sizeof *more * (size_t)cap);
            memcpy(more, src, sizeof *more * (size_t)nsrc);
            if (src != stack)
                free(src);
            src = more;
        }
        src[nsrc++] = (df__source_t){.item = g->id, .delta = g->root->out};
    }
    /* Subscriptions last: a query's dataflow may read any view that ran. */
    df__sub_flows_written(st, src, nsrc, seq);
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].graph && st->flows[i].graph->root->out) {
            df__batch_unref(st->flows[i].graph->root->out);
            st->flows[i].graph->root->out = NULL;
        }
    if (src != stack)
        free(src);
}

/* ------------------------------------------------------------ install */

/* The current contents of a relation on this worker, as a delta: a table's shard or a view's result. */
df_batch_t *df__contents(df_state_t *st, uint64_t item, uint64_t seq)
{
    df_spine_t *sp = df__table_spine(st, item);
    if (sp)
        return df__snap_rows(sp, false, seq);
    df_graph_t *g = df__graph_find(st, item);
    if (g)
        return df__snap_rows(&g->result, true, seq);
    return NULL;
}

df_graph_t *df__graph_compile(const plan_t *p, uint64_t id, cm_err_t *err)
{
    df_graph_t *g = cm_calloc(1, sizeof *g);
    cm_arena_init(&g->arena, 0);
    g->id = id;
    g->plan = p;
    g->reads = cm_calloc(DF_GRAPH_READS_MAX, sizeof *g->reads);
    df__spine_init(&g->result);
    g->root = df__compile(g, p->root, err);
    if (!g->root) {
        df__graph_free(g);
        return NULL;
    }
    /* A map whose every reader routes its rows (a reduce, or such a map) skips consolidating them:
     * a reduce hashes each row on anyway, and consolidating a million rows is a sort. */
    for (int i = g->nnodes - 1; i >= 0; i--) {
        df_node_t *n = g->nodes[i];
        if ((n->kind != DF_NODE_FILTER && n->kind != DF_NODE_PROJECT) || n == g->root)
            continue;
        int readers = 0;
        bool routed = true;
        for (int j = i + 1; j < g->nnodes; j++)
            for (int k = 0; k < 2; k++)
                if (g->nodes[j]->in[k] == n) {
                    readers++;
                    routed &= g->nodes[j]->kind == DF_NODE_REDUCE || g->nodes[j]->unsorted;
                }
        n->unsorted = readers > 0 && routed;
    }
    return g;
}

void df__graph_install(df_state_t *st, df_dataflow_t *f, uint64_t seq)
{
    df__pub_mark(st, f->id);
    if (f->graph != NULL)
        df__sub_drop_all(st, f->graph);
    df__graph_free(f->graph);
    f->graph = NULL;
    if (!f->maintained || !f->query)
        return;
    cm_err_t err = {0};
    df_graph_t *g = df__graph_compile(f->query, f->id, &err);
    if (!g) {
        /* CREATE refused what cannot be compiled; a plan that gets here anyway is a bug to see. */
        cm_log_warn("worker %d: materialized view %llu (%s) not maintained: %s", st->worker,
                    (unsigned long long)f->id, f->name, err.message ? err.message : "");
        cm_err_clear(&err);
        return;
    }
    f->graph = g;
    /* Hydration: what it reads, as it is now, through the same operators. */
    df__source_t src[DF_GRAPH_READS_MAX];
    for (int i = 0; i < g->nreads; i++)
        src[i] = (df__source_t){.item = g->reads[i], .delta = df__contents(st, g->reads[i], seq)};
    df_step_t s;
    df__step_init(&s, st, g, seq, true);
    for (int i = 0; i < f->query->nlits; i++) {
        ty_datum_t d;
        if (!ty_expr_eval(f->query->lits[i], &s.ctx, NULL, NULL, &d))
            df__graph_error(&s, 1);   /* a literal that never converts: the view stays in error */
    }
    /* A relation with no rows on the workers (a view, a source): the view answers why, rather than nothing. */
    for (int i = 0; i < g->nnodes; i++) {
        const plan_rel_t *r = g->nodes[i]->rel;
        if (g->nodes[i]->kind == DF_NODE_GET && !df__table_spine(st, r->item) && !df__graph_find(st, r->item)) {
            cm_err_set(&s.err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                       "reading \"%s\" inside a materialized view needs the dataflow engine, which cannot maintain "
                       "it yet", r->relname ? r->relname : "?");
            df__graph_error(&s, 1);
        }
    }
    df__step_done(&s);
    df__graph_run(st, g, src, g->nreads, seq, true);
    for (int i = 0; i < g->nreads; i++)
        df__batch_unref((df_batch_t *)src[i].delta);
    df__batch_unref(g->root->out);
    g->root->out = NULL;
    df__index_attach_all(st, g);
}

/* ------------------------------------------------------------ computed reads */

bool df__graph_computed(df_state_t *st, const plan_t *p, uint64_t seq, cm_buf_t *out, int64_t *rows, ty_ctx_t *ctx)
{
    *rows = 0;
    df_graph_t *g = df__graph_compile(p, DF_PEEK_COMPUTED, ctx->err);
    if (!g)
        return false;   /* alike on every worker: the same plan fails the same way */
    df__source_t src[DF_GRAPH_READS_MAX];
    const df_verr_t *read_err = NULL;
    for (int i = 0; i < g->nreads; i++) {
        src[i] = (df__source_t){.item = g->reads[i], .delta = df__contents(st, g->reads[i], seq)};
        const df_graph_t *in = df__graph_find(st, g->reads[i]);
        if (!read_err && in)
            read_err = df__mview_error(st, in, 0);
    }
    bool readable = true;
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i]->kind == DF_NODE_GET && !df__table_spine(st, g->nodes[i]->rel->item) &&
            !df__graph_find(st, g->nodes[i]->rel->item))
            readable = false;
    /* Run even when this worker will answer an error: the others' exchange rounds wait for ours. */
    df__graph_run(st, g, src, g->nreads, seq, true);
    for (int i = 0; i < g->nreads; i++)
        df__batch_unref((df_batch_t *)src[i].delta);
    bool ok = true;
    if (read_err)
        ok = cm_err_set(ctx->err, read_err->sqlstate, "%s", read_err->message);
    else if (!readable)
        ok = cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR, "a computed read of a relation the workers do not hold");
    else if (g->nerrs > 0)
        ok = cm_err_set(ctx->err, g->errs[0].sqlstate, "%s", g->errs[0].message);
    const df_batch_t *b = g->root->out;
    if (ok && b) {
        size_t at = df_peek_part_begin(out, DF_PEEK_COMPUTED);
        for (uint64_t j = 0; j < b->nvals; j++) {
            size_t len;
            const uint8_t *v = df__batch_val(b, j, &len);
            df_peek_part_row(out, v, len, df__batch_diff(b, j));
        }
        df_peek_part_end(out, at, (uint32_t)b->nvals);
        *rows = (int64_t)b->nvals;
    }
    df__graph_free(g);
    return ok;
}
