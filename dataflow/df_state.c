/*
 * df_state.c: what one worker knows (DESIGN §5, reference/zk.md §6.4 step
 * 4): the epoch and sequence number it has reached, its installed
 * dataflows and a ring of the commands it applied. The rules:
 *   - a command from an older epoch is refused (a zombie worker 0);
 *   - a newer epoch starts with its Bootstrap, which replaces everything;
 *   - within an epoch, seq == applied + 1 applies, seq <= applied is a
 *     duplicate and is dropped, seq > applied + 1 waits (bounded) for the
 *     gap to fill. FIFO transports never reorder, but the check is cheap
 *     and a future transport may retransmit.
 * An installed dataflow's plan is decoded here, once, on the worker that
 * installs it (plan_decode: no planner, no catalog), so a plan the workers
 * cannot take shows at once instead of when its operators first run.
 * Pure state, no threads: df_worker.c drives it and the unit tests call it.
 */
#include "dataflow/df_flow.h"
#include "dataflow/df_int.h"
#include "dataflow/df_store.h"

#include <stdlib.h>
#include <string.h>

void df_state_init(df_state_t *st, size_t pending_max, size_t hist_max)
{
    memset(st, 0, sizeof *st);
    st->nworkers = 1;
    st->recursion_max = DF_RECURSION_MAX_DEFAULT;
    st->pending_max = pending_max;
    st->pending = cm_calloc(pending_max ? pending_max : 1, sizeof *st->pending);
    st->hist_max = hist_max ? hist_max : 1;
    st->hist = cm_calloc(st->hist_max, sizeof *st->hist);
}

static void df__flow_free(df_state_t *st, df_dataflow_t *f)
{
    if (f->graph != NULL)
        df__sub_drop_all(st, f->graph);
    df__graph_free(f->graph);
    f->graph = NULL;
    free(f->name);
    free(f->plan);
    cm_arena_free(&f->arena);
}

static void df__flows_clear(df_state_t *st)
{
    for (size_t i = 0; i < st->nflows; i++)
        df__flow_free(st, &st->flows[i]);
    st->nflows = 0;
}

void df_state_destroy(df_state_t *st)
{
    df__sub_flows_clear(st, CM_ERRCODE_ADMIN_SHUTDOWN, "SUBSCRIBE ended: the workers are stopping");
    df__flows_clear(st);
    df__engine_free(st);
    free(st->flows);
    for (size_t i = 0; i < st->npending; i++)
        df_cmd_unref(st->pending[i]);
    free(st->pending);
    free(st->hist);
    df__pub_state_free(st);
    memset(st, 0, sizeof *st);
}

static size_t df__flow_find(const df_state_t *st, uint64_t id)
{
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].id == id)
            return i;
    return SIZE_MAX;
}

static void df__install(df_state_t *st, const df_op_t *op, uint64_t index, uint64_t seq)
{
    /* Decoded before anything changes, so a refused install leaves the state as it was. */
    cm_arena_t arena;
    cm_arena_init(&arena, 1024);   /* most plans are small; a dataflow keeps its arena as long as it lives */
    plan_t *query = NULL;
    cm_err_t err = {0};
    df_dataflow_t ix = {.arena = arena};
    bool is_index = df__index_plan_decode(&ix, op->plan, op->plan_len);
    arena = ix.arena;
    if (!is_index && op->plan_len > 0 && !plan_decode(&arena, op->plan, op->plan_len, NULL, &query, &err)) {
        cm_log_warn("refused dataflow %llu (%s) at catalog index %llu: %s %s", (unsigned long long)op->id,
                    op->name ? op->name : "", (unsigned long long)index, err.sqlstate,
                    err.message ? err.message : "");
        cm_err_clear(&err);
        cm_arena_free(&arena);
        st->refused++;
        return;
    }
    size_t at = df__flow_find(st, op->id);
    df_sub_t **kept_subs = NULL;
    int nkept = 0;
    if (at == SIZE_MAX) {
        if (st->nflows == st->flows_cap) {
            st->flows_cap = st->flows_cap ? 2 * st->flows_cap : 16;
            st->flows = cm_realloc(st->flows, sizeof *st->flows * st->flows_cap);
        }
        at = st->nflows++;
    } else {
        if (st->flows[at].graph != NULL)
            df__sub_detach_all(st->flows[at].graph, &kept_subs, &nkept);
        df__index_detach(st, &st->flows[at]);
        df__flow_free(st, &st->flows[at]);   /* same id again (a rename): replaced in place */
    }
    df_dataflow_t *f = &st->flows[at];
    f->id = op->id;
    f->name = cm_strdup(op->name ? op->name : "");
    f->plan = NULL;
    f->plan_len = op->plan_len;
    if (op->plan_len > 0) {
        f->plan = cm_malloc(op->plan_len);
        memcpy(f->plan, op->plan, op->plan_len);
    }
    f->index = index;
    f->query = query;
    f->arena = arena;
    f->maintained = op->maintained;
    f->graph = NULL;
    f->index_of = ix.index_of;
    f->index_ncols = ix.index_ncols;
    f->index_pos = ix.index_pos;
    f->index_types = ix.index_types;
    df__engine_install(st, f);
    df__graph_install(st, f, seq);
    df__sub_attach_all(st, f->graph, kept_subs, nkept);
    df__index_attach(st, f);
}

static void df__drop(df_state_t *st, uint64_t id)
{
    size_t at = df__flow_find(st, id);
    if (at == SIZE_MAX)
        return;   /* the entry dropped something that has no dataflow */
    df__pub_gone(st, id);
    df__sub_flows_drop(st, id, st->flows[at].name);
    df__index_detach(st, &st->flows[at]);
    df__flow_free(st, &st->flows[at]);
    memmove(&st->flows[at], &st->flows[at + 1], sizeof *st->flows * (st->nflows - at - 1));
    st->nflows--;
    df__engine_drop(st, id);
}

static void df__apply(df_state_t *st, const df_cmd_t *c)
{
    if (c->kind == DF_CMD_BOOTSTRAP) {
        df__sub_flows_clear(st, CM_ERRCODE_ADMIN_SHUTDOWN, "SUBSCRIBE ended: the workers rebuilt every dataflow");
        df__flows_clear(st);
        df__engine_bootstrap(st, true);
    }
    if (c->kind == DF_CMD_BOOTSTRAP || c->kind == DF_CMD_APPLY) {
        for (uint32_t i = 0; i < c->nops; i++) {
            if (c->ops[i].kind == DF_OP_INSTALL)
                df__install(st, &c->ops[i], c->index, c->seq);
            else
                df__drop(st, c->ops[i].id);
        }
    }
    if (c->kind == DF_CMD_BOOTSTRAP)
        df__engine_bootstrap(st, false);
    if (c->kind == DF_CMD_WRITE || c->kind == DF_CMD_PEEK)
        df__engine_command(st, c);
    if (c->kind == DF_CMD_SUBSCRIBE && c->sub != NULL) {
        if (c->sub_end)
            df__sub_end(st, c->sub);
        else
            df__sub_start(st, c->sub, c->seq, c->payload, c->payload_len);
    }
    /* A Tick takes its turn in the order and does nothing else. */
    st->seq = c->seq;
    if (c->kind == DF_CMD_BOOTSTRAP || c->index > st->index)
        st->index = c->index;
    df_applied_t *h = &st->hist[st->hist_next];
    *h = (df_applied_t){.seq = c->seq, .epoch = c->epoch, .index = c->index, .kind = c->kind,
                        .object_id = c->object_id};
    st->hist_next = (st->hist_next + 1) % st->hist_max;
    if (st->hist_len < st->hist_max)
        st->hist_len++;
}

static void df__pending_clear(df_state_t *st)
{
    for (size_t i = 0; i < st->npending; i++)
        df_cmd_unref(st->pending[i]);
    st->npending = 0;
}

/* Applies buffered commands that the last apply made next in line. */
static void df__pending_run(df_state_t *st)
{
    size_t k = 0;
    while (k < st->npending && st->pending[k]->seq <= st->seq + 1) {
        if (st->pending[k]->seq == st->seq + 1)
            df__apply(st, st->pending[k]);
        else
            st->duplicates++;
        df_cmd_unref(st->pending[k]);
        k++;
    }
    memmove(st->pending, st->pending + k, sizeof *st->pending * (st->npending - k));
    st->npending -= k;
}

df_apply_rc_t df_state_offer(df_state_t *st, df_cmd_t *c)
{
    if (c->epoch < st->epoch) {
        st->refused++;
        return DF_APPLY_STALE_EPOCH;
    }
    if (c->epoch > st->epoch) {
        if (c->kind != DF_CMD_BOOTSTRAP) {
            st->refused++;
            return DF_APPLY_OVERFLOW;
        }
        /* A new sequencer incarnation: whatever the old one left waiting is void. */
        df__pending_clear(st);
        st->epoch = c->epoch;
        df__apply(st, c);
        return DF_APPLY_APPLIED;
    }
    if (c->seq <= st->seq) {
        st->duplicates++;
        return DF_APPLY_DUPLICATE;
    }
    if (c->seq > st->seq + 1) {
        size_t at = 0;
        while (at < st->npending && st->pending[at]->seq < c->seq)
            at++;
        if (at < st->npending && st->pending[at]->seq == c->seq) {
            st->duplicates++;
            return DF_APPLY_DUPLICATE;
        }
        if (st->npending == st->pending_max) {
            st->refused++;
            return DF_APPLY_OVERFLOW;
        }
        memmove(st->pending + at + 1, st->pending + at, sizeof *st->pending * (st->npending - at));
        df_cmd_ref(c);
        st->pending[at] = c;
        st->npending++;
        return DF_APPLY_BUFFERED;
    }
    df__apply(st, c);
    df__pending_run(st);
    return DF_APPLY_APPLIED;
}

const df_applied_t *df_state_applied_at(const df_state_t *st, size_t i)
{
    if (i >= st->hist_len)
        return NULL;
    size_t first = (st->hist_next + st->hist_max - st->hist_len) % st->hist_max;
    return &st->hist[(first + i) % st->hist_max];
}

bool df_state_idle_work(df_state_t *st, int64_t fuel)
{
    bool more = df__engine_idle_work(st, &fuel);
    for (size_t i = 0; i < st->nflows; i++)
        if (st->flows[i].graph != NULL) {
            int64_t before = fuel;
            more |= df__graph_idle_work(st->flows[i].graph, &fuel);
            if (fuel != before)
                df__pub_mark(st, st->flows[i].id);   /* merged: its readers move to the new batches */
        }
    more |= df__sub_flows_idle(st, &fuel);
    if (fuel > 0)
        more |= df__reclaim_work(&fuel);
    return more || df__reclaim_pending() != 0;
}
