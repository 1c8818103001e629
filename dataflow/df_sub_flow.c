/*
 * df_sub_flow.c: SUBSCRIBE to a table or to a query on one worker. A table
 * is followed directly: its shard's rows are the snapshot and every Write's
 * delta of it goes to the subscription. A query (a plain view is expanded
 * into one by the binder) gets a dataflow of its own, compiled from the
 * plan bytes the Subscribe command carries as a materialized view's is
 * (df__graph_compile), hydrated at the command's step (that delta is the
 * snapshot) and run after the installed views at every later step that
 * changes what it reads; it keeps no result, its delta goes to the
 * subscription alone (df_graph_t.transient). Its operators exchange rows
 * between the workers, so every worker must run it at the same steps: it
 * is torn down only at sequenced steps, the Subscribe command that ends
 * it, a DROP of a relation it reads, or a Bootstrap, never when one
 * worker notices that the session went away.
 */
#include "dataflow/df_flow.h"

#include <stdlib.h>
#include <string.h>

struct df_subflow {
    df_sub_t *sub;               /* one reference */
    uint64_t table;              /* a table's subscription: the table; else 0 */
    df_graph_t *g;               /* a query's: its dataflow on this worker */
    df_dataflow_t flow;          /* what introspection shows it as, and the arena holding its plan */
};

static void df__subflow_free(df_subflow_t *f)
{
    df__graph_free(f->g);
    df_sub_unref(f->sub);
    cm_arena_free(&f->flow.arena);
}

static void df__subflow_remove(df_state_t *st, int i)
{
    df__subflow_free(&st->subflows[i]);
    memmove(&st->subflows[i], &st->subflows[i + 1], sizeof *st->subflows * (size_t)(st->nsubflows - i - 1));
    st->nsubflows--;
}

static df_subflow_t *df__subflow_add(df_state_t *st, df_sub_t *s, uint64_t seq)
{
    if (st->nsubflows == st->subflows_cap) {
        st->subflows_cap = st->subflows_cap ? 2 * st->subflows_cap : 4;
        st->subflows = cm_realloc(st->subflows, sizeof *st->subflows * (size_t)st->subflows_cap);
    }
    df_subflow_t *f = &st->subflows[st->nsubflows++];
    memset(f, 0, sizeof *f);
    df_sub_ref(s);
    f->sub = s;
    f->flow.id = seq;   /* the same on every worker: the step it began at */
    cm_arena_init(&f->flow.arena, 1024);
    f->flow.name = cm_arena_strdup(&f->flow.arena, "subscribe");
    return f;
}

/* A query's first step: what it reads as it is now, through its operators. */
static void df__subflow_hydrate(df_state_t *st, df_subflow_t *f, uint64_t seq)
{
    df_graph_t *g = f->g;
    df__source_t *src = cm_calloc((size_t)(g->nreads ? g->nreads : 1), sizeof *src);
    const df_verr_t *read_err = NULL;
    const char *unread = NULL;
    for (int i = 0; i < g->nreads; i++) {
        src[i] = (df__source_t){.item = g->reads[i], .delta = df__contents(st, g->reads[i], seq)};
        const df_graph_t *in = df__graph_find(st, g->reads[i]);
        if (read_err == NULL && in != NULL)
            read_err = df__mview_error(st, in, 0);
    }
    for (int i = 0; i < g->nnodes && unread == NULL; i++)
        if (g->nodes[i]->kind == DF_NODE_GET && !df__table_spine(st, g->nodes[i]->rel->item) &&
            !df__graph_find(st, g->nodes[i]->rel->item))
            unread = g->nodes[i]->rel->relname ? g->nodes[i]->rel->relname : "?";
    bool snapshot = df__sub_snapshot(f->sub);
    if (snapshot) {
        g->subs = cm_malloc(sizeof *g->subs);
        df_sub_ref(f->sub);
        g->subs[g->nsubs++] = f->sub;
    }
    /* Run even when this worker will fail it: the others' exchange rounds wait for ours. */
    df__graph_run(st, g, src, g->nreads, seq, true);
    for (int i = 0; i < g->nreads; i++)
        df__batch_unref((df_batch_t *)src[i].delta);
    free(src);
    df__batch_unref(g->root->out);
    g->root->out = NULL;
    if (!snapshot) {
        g->subs = cm_malloc(sizeof *g->subs);
        df_sub_ref(f->sub);
        g->subs[g->nsubs++] = f->sub;
    }
    char msg[256];
    if (read_err != NULL) {
        df__sub_fail(f->sub, read_err->sqlstate, read_err->message);
    } else if (unread != NULL) {
        snprintf(msg, sizeof msg, "SUBSCRIBE reading \"%s\" needs the dataflow engine, which cannot maintain it yet",
                 unread);
        df__sub_fail(f->sub, CM_ERRCODE_FEATURE_NOT_SUPPORTED, msg);
    } else if (g->nerrs > 0) {
        df__sub_fail(f->sub, g->errs[0].sqlstate, g->errs[0].message);
    }
}

void df__sub_flow_start(df_state_t *st, df_sub_t *s, uint64_t seq, const uint8_t *plan, size_t plan_len)
{
    if (df__sub_kind(s) == DF_SUB_TABLE) {
        df_spine_t *sp = df__table_spine(st, df__sub_object(s));
        if (sp == NULL) {
            df__sub_fail(s, CM_ERRCODE_UNDEFINED_TABLE, "the subscribed table does not exist");
            return;
        }
        df_subflow_t *f = df__subflow_add(st, s, seq);
        f->table = df__sub_object(s);
        if (df__sub_snapshot(s)) {
            df_snap_t *snap = df__spine_snapshot(sp);
            for (uint32_t i = 0; i < snap->nbatches; i++)
                df__sub_append(s, st->worker, snap->batches[i], false, seq);
            df__snap_unref(snap);
        }
        return;
    }
    /* The plan decodes alike on every worker (the same bytes): either all run it or none. */
    df_subflow_t *f = df__subflow_add(st, s, seq);
    plan_t *p = NULL;
    cm_err_t err = {0};
    if (!plan_decode(&f->flow.arena, plan, plan_len, NULL, &p, &err) ||
        (f->g = df__graph_compile(p, seq, &err)) == NULL) {
        df__sub_fail(s, err.sqlstate[0] ? err.sqlstate : CM_ERRCODE_INTERNAL_ERROR,
                     err.message ? err.message : "SUBSCRIBE: the query's dataflow could not be built");
        cm_err_clear(&err);
        df__subflow_remove(st, st->nsubflows - 1);
        return;
    }
    f->flow.query = p;
    f->g->transient = true;
    f->flow.graph = f->g;
    df__subflow_hydrate(st, f, seq);
}

void df__sub_flow_end(df_state_t *st, df_sub_t *s)
{
    for (int i = 0; i < st->nsubflows; i++)
        if (st->subflows[i].sub == s) {
            df__subflow_remove(st, i);
            return;
        }
}

static bool df__graph_reads(const df_graph_t *g, uint64_t item)
{
    for (int i = 0; i < g->nreads; i++)
        if (g->reads[i] == item)
            return true;
    return false;
}

void df__sub_flows_written(df_state_t *st, const df__source_t *src, int nsrc, uint64_t seq)
{
    for (int i = 0; i < st->nsubflows; i++) {
        df_subflow_t *f = &st->subflows[i];
        if (f->g == NULL) {
            for (int k = 0; k < nsrc; k++)
                if (src[k].item == f->table && src[k].delta != NULL && !df__sub_closed(f->sub))
                    df__sub_append(f->sub, st->worker, src[k].delta, false, seq);
            continue;
        }
        bool touched = false;
        for (int k = 0; k < nsrc && !touched; k++)
            touched = df__graph_reads(f->g, src[k].item);
        if (!touched)
            continue;
        df__graph_run(st, f->g, src, nsrc, seq, false);
        df__batch_unref(f->g->root->out);
        f->g->root->out = NULL;
        if (f->g->nerrs > 0)
            df__sub_fail(f->sub, f->g->errs[0].sqlstate, f->g->errs[0].message);
    }
}

void df__sub_flows_progress(df_state_t *st)
{
    for (int i = 0; i < st->nsubflows;) {
        df_subflow_t *f = &st->subflows[i];
        /* A table's has no exchange: it may go as soon as this worker sees the session gone. */
        if (f->g == NULL && df__sub_closed(f->sub)) {
            df__subflow_remove(st, i);
            continue;
        }
        df__sub_progress_set(f->sub, st->worker, st->seq);
        i++;
    }
}

void df__sub_flows_drop(df_state_t *st, uint64_t id, const char *name)
{
    char msg[512];
    snprintf(msg, sizeof msg, "subscribe has been terminated because underlying relation \"%s\" was dropped",
             name ? name : "?");
    for (int i = 0; i < st->nsubflows;) {
        df_subflow_t *f = &st->subflows[i];
        if (f->table == id || (f->g != NULL && df__graph_reads(f->g, id))) {
            df__sub_fail(f->sub, CM_ERRCODE_UNDEFINED_TABLE, msg);
            df__subflow_remove(st, i);
            continue;
        }
        i++;
    }
}

void df__sub_flows_clear(df_state_t *st, const char *sqlstate, const char *message)
{
    while (st->nsubflows > 0) {
        df__sub_fail(st->subflows[st->nsubflows - 1].sub, sqlstate, message);
        df__subflow_remove(st, st->nsubflows - 1);
    }
    free(st->subflows);
    st->subflows = NULL;
    st->subflows_cap = 0;
}

bool df__sub_flows_idle(df_state_t *st, int64_t *fuel)
{
    bool more = false;
    for (int i = 0; i < st->nsubflows; i++)
        if (st->subflows[i].g != NULL)
            more |= df__graph_idle_work(st->subflows[i].g, fuel);
    return more;
}

void df__sub_flows_visit(const df_state_t *st, void (*each)(const df_dataflow_t *f, void *arg), void *arg)
{
    for (int i = 0; i < st->nsubflows; i++)
        if (st->subflows[i].g != NULL)
            each(&st->subflows[i].flow, arg);
}
