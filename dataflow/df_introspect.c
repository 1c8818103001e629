/*
 * df_introspect.c: what a worker's engine is made of, for eddy_internal
 * and EXPLAIN: the operators each materialized view compiled into
 * (df_graph.c), in build order, with their inputs, and the arrangements
 * they keep with their records, batches and bytes. The visits read the
 * state of the worker's own thread, so the caller holds the worker's lock
 * (df_workers_visit_*) or is that thread.
 */
#include "dataflow/df_flow.h"

#include <stdio.h>

static const char *df__node_kind_name(df_node_kind_t k)
{
    switch (k) {
    case DF_NODE_GET: return "Get";
    case DF_NODE_VALUES: return "Constant";
    case DF_NODE_FILTER: return "Filter";
    case DF_NODE_PROJECT: return "Project";
    case DF_NODE_PASS: return "Pass";
    case DF_NODE_UNION: return "Union";
    case DF_NODE_REDUCE: return "Reduce";
    case DF_NODE_JOIN: return "Join";
    case DF_NODE_SETOP: return "SetOp";
    case DF_NODE_TOPK: return "TopK";
    case DF_NODE_FLATMAP: return "FlatMap";
    case DF_NODE_CTE: return "Cte";
    case DF_NODE_WINDOW: return "Window";
    case DF_NODE_WORKTABLE: return "Worktable";
    case DF_NODE_RECURSE: return "Recursive";
    }
    return "?";
}

static const char *df__join_name(const plan_rel_t *r)
{
    if (r->kind == PLAN_REL_FILTER)
        return "inner";   /* a filter over a product: its condition is the join's */
    if (r->kind == PLAN_REL_PRODUCT)
        return "cross";
    switch (r->join) {
    case PLAN_JOIN_INNER: return "inner";
    case PLAN_JOIN_LEFT: return "left";
    case PLAN_JOIN_RIGHT: return "right";
    case PLAN_JOIN_FULL: return "full";
    case PLAN_JOIN_CROSS: return "cross";
    }
    return "?";
}

static const char *df__setop_name(const plan_rel_t *r)
{
    switch (r->setop) {
    case PLAN_SETOP_UNION: return r->all ? "UNION ALL" : "UNION";
    case PLAN_SETOP_INTERSECT: return r->all ? "INTERSECT ALL" : "INTERSECT";
    case PLAN_SETOP_EXCEPT: return r->all ? "EXCEPT ALL" : "EXCEPT";
    case PLAN_SETOP_NONE: break;
    }
    return "?";
}

static int df__node_id(const df_graph_t *g, const df_node_t *n)
{
    for (int i = 0; i < g->nnodes; i++)
        if (g->nodes[i] == n)
            return i + 1;
    return 0;
}

/* What the printer adds after the kind; buf holds a formatted one. */
static const char *df__node_detail(const df_node_t *n, char *buf, size_t cap)
{
    const plan_rel_t *r = n->rel;
    switch (n->kind) {
    case DF_NODE_GET: return r->relname;
    case DF_NODE_VALUES: snprintf(buf, cap, "%d rows", r->nrows); return buf;
    case DF_NODE_REDUCE:
        snprintf(buf, cap, "%s group_by=%d aggregates=%d", n->reduce && n->reduce->accum ? "accumulating" : "recomputing",
                 n->reduce ? n->reduce->nkeys : 0, n->reduce ? n->reduce->naggs : 0);
        return buf;
    case DF_NODE_JOIN: return df__join_name(r);
    case DF_NODE_SETOP: return df__setop_name(r);
    case DF_NODE_TOPK: return r->kind == PLAN_REL_DISTINCT ? "distinct on" : "limit";
    case DF_NODE_CTE:
    case DF_NODE_WORKTABLE: return n->cte ? n->cte->name : NULL;
    case DF_NODE_RECURSE: snprintf(buf, cap, "%s %s", n->cte->name, n->cte->all ? "UNION ALL" : "UNION"); return buf;
    default: return NULL;
    }
}

static void df__graph_operators(const df_graph_t *g, const df_dataflow_t *d, df_operator_fn cb, void *arg)
{
    char buf[96];
    for (int i = 0; i < g->nnodes; i++) {
        const df_node_t *n = g->nodes[i];
        df_operator_info_t op = {.id = i + 1, .kind = df__node_kind_name(n->kind),
                                 .detail = df__node_detail(n, buf, sizeof buf)};
        if (n->kind == DF_NODE_GET)
            op.reads = n->rel->item;
        for (int k = 0; k < 2; k++)
            if (n->in[k])
                op.inputs[op.ninputs++] = df__node_id(g, n->in[k]);
        cb(arg, d, &op);
    }
}

static const char *df__arranged_name(const df_node_t *n, int k)
{
    switch (n->kind) {
    case DF_NODE_JOIN: return k == 0 ? "join left" : "join right";
    case DF_NODE_REDUCE: return k == 0 ? "reduce input" : "reduce output";
    case DF_NODE_SETOP: return "set operation";
    case DF_NODE_TOPK: return "top-k";
    case DF_NODE_WINDOW: return "window partitions";
    case DF_NODE_RECURSE: return "recursion";
    default: return "state";
    }
}

static void df__stats(const df_spine_t *sp, df_arrangement_info_t *a)
{
    df_spine_stats_t s;
    df__spine_stats(sp, &s);
    a->records = s.records;
    a->batches = s.batches;
    a->bytes = s.bytes;
}

static void df__graph_arrangements(const df_graph_t *g, const df_dataflow_t *d, df_arrangement_fn cb, void *arg)
{
    for (int i = 0; i < g->nnodes; i++) {
        const df_node_t *n = g->nodes[i];
        for (int k = 0; k < 2; k++)
            if (n->arranged[k]) {
                df_arrangement_info_t a = {.operator_id = i + 1, .name = df__arranged_name(n, k)};
                df__stats(n->arranged[k], &a);
                cb(arg, d, &a);
            }
        if (n->kind == DF_NODE_REDUCE && n->reduce && n->reduce->accum) {
            /* Not a spine: a state per group in a hash map, no rows kept. */
            df_arrangement_info_t a = {.operator_id = i + 1, .name = "reduce groups"};
            df__accum_size(n->reduce, &a.records, &a.bytes);
            cb(arg, d, &a);
        }
    }
    if (!g->transient) {
        df_arrangement_info_t a = {.name = "result"};
        df__stats(&g->result, &a);
        cb(arg, d, &a);
    }
    for (int i = 0; i < g->nindexes; i++) {
        df_arrangement_info_t x = {.name = "index"};
        df__stats(&g->indexes[i].spine, &x);
        cb(arg, d, &x);
    }
}

typedef struct df__visit {
    df_operator_fn op_cb;
    df_arrangement_fn arr_cb;
    void *arg;
} df__visit_t;

/* A SUBSCRIBE's own dataflow shows as the views' do, named "subscribe". */
static void df__subflow_operators(const df_dataflow_t *f, void *arg)
{
    const df__visit_t *v = arg;
    df__graph_operators(f->graph, f, v->op_cb, v->arg);
}

static void df__subflow_arrangements(const df_dataflow_t *f, void *arg)
{
    const df__visit_t *v = arg;
    df__graph_arrangements(f->graph, f, v->arr_cb, v->arg);
}

void df_state_visit_operators(const df_state_t *st, df_operator_fn cb, void *arg)
{
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].graph)
            df__graph_operators(st->flows[i].graph, &st->flows[i], cb, arg);
    df__visit_t v = {.op_cb = cb, .arg = arg};
    df__sub_flows_visit(st, df__subflow_operators, &v);
}

void df_state_visit_arrangements(const df_state_t *st, df_arrangement_fn cb, void *arg)
{
    for (size_t i = 0; i < st->nflows; i++) {
        const df_dataflow_t *f = &st->flows[i];
        df_spine_t *table = df__table_spine((df_state_t *)st, f->id);
        if (table) {
            df_arrangement_info_t a = {.name = "table"};
            df__stats(table, &a);
            cb(arg, f, &a);
        }
        if (f->graph)
            df__graph_arrangements(f->graph, f, cb, arg);
    }
    df__visit_t v = {.arr_cb = cb, .arg = arg};
    df__sub_flows_visit(st, df__subflow_arrangements, &v);
}

bool df_plan_operators(const plan_t *p, df_operator_fn op_cb, df_arrangement_fn arr_cb, void *arg, cm_err_t *err)
{
    df_graph_t *g = df__graph_compile(p, 0, err);
    if (!g)
        return false;
    if (op_cb)
        df__graph_operators(g, NULL, op_cb, arg);
    if (arr_cb)
        df__graph_arrangements(g, NULL, arr_cb, arg);
    df__graph_free(g);
    return true;
}
