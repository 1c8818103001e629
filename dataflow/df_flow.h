/*
 * df_flow.h: what the files of the incremental engine share (materialized
 * views on the workers): the operator graph a worker compiles from a view's
 * plan (df_graph.c), the operators (df_op_*.c), the exchange between the
 * workers (df_exchange.c) and the view's result arrangement (df_mview.c).
 *
 * A delta is a consolidated batch (df_store.h) whose values are rows
 * (df__row_encode with the producing node's column types); its keys are
 * whatever the producer keyed by and mean nothing to the consumer. Every
 * worker runs the same nodes in the same order at every step that touches
 * a graph, so that the exchange rounds inside a step line up.
 */
#ifndef EDDY_DF_FLOW_H
#define EDDY_DF_FLOW_H

#include "dataflow/df_int.h"
#include "dataflow/df_store.h"

/* ------------------------------------------------------------ exchange */

typedef struct df_exchange df_exchange_t;
df_exchange_t *df__xchg_new(int nworkers, size_t channel_cap);
void df__xchg_free(df_exchange_t *x);
/* Wakes every worker waiting in a round and makes rounds fail from now on (shutdown). */
void df__xchg_stop(df_exchange_t *x);
/*
 * One round of worker w: out[j] goes to worker j (the caller's reference
 * is taken; NULL: nothing), in[i] gets what worker i sent it (a reference
 * given; NULL: nothing). Every worker calls it the same number of times.
 * x NULL: one worker alone (in[0] = out[0]). False: the workers are stopping.
 */
bool df__xchg_round(df_exchange_t *x, int w, df_batch_t **out, df_batch_t **in);

/* ------------------------------------------------------------ graph */

typedef enum df_node_kind {
    DF_NODE_GET,        /* a table's or view's delta at this step */
    DF_NODE_VALUES,     /* constant rows, once, when the view is installed */
    DF_NODE_FILTER,
    DF_NODE_PROJECT,
    DF_NODE_PASS,       /* ORDER BY of a view: its rows as they are */
    DF_NODE_UNION,      /* UNION ALL */
    DF_NODE_REDUCE,     /* GROUP BY, aggregates without GROUP BY, DISTINCT */
    DF_NODE_JOIN,       /* JOIN, PRODUCT, and a FILTER over a PRODUCT */
    DF_NODE_SETOP,      /* UNION, INTERSECT [ALL], EXCEPT [ALL]: counts per row on both sides */
    DF_NODE_TOPK,       /* ORDER BY ... LIMIT / OFFSET, DISTINCT ON: the first rows of each group */
    DF_NODE_FLATMAP,    /* set-returning functions: each row's rows, with its diff */
    DF_NODE_CTE,        /* a WITH query, compiled once: its readers read its delta (state: its plan_cte_t) */
    DF_NODE_WINDOW,     /* window functions: touched partitions recomputed */
    DF_NODE_WORKTABLE,  /* WITH RECURSIVE: the rows the last iteration changed, read by the recursive term */
    DF_NODE_RECURSE,    /* WITH RECURSIVE: its rows, the recursive term iterated to a fixed point per step */
} df_node_kind_t;

typedef struct df_reduce df_reduce_t;
typedef struct df_join df_join_t;

typedef struct df_node {
    df_node_kind_t kind;
    const plan_rel_t *rel;
    struct df_node *in[2];
    bool unsorted;               /* FILTER, PROJECT read only by reduces: its delta need not be consolidated */
    bool loop;                   /* reads a worktable: run by its RECURSE at every iteration, not by the step */
    const plan_cte_t *cte;       /* WORKTABLE, RECURSE: the WITH query */
    int ncols;
    const ty_oid_t *types;       /* of the rows it produces */
    df_batch_t *out;             /* its delta at the current step; NULL: none */
    df_reduce_t *reduce;         /* REDUCE */
    df_join_t *join;             /* JOIN: in[0] the left, in[1] the right */
    void *state;                 /* the other stateful operators: their own file's state */
    void (*state_free)(void *state);
    /* Idle work on the spines the state keeps, from one budget (df__spine_idle_spend); true while
     * work remains. NULL: nothing to compact. Without it a quiet worker never merges them. */
    bool (*state_idle)(void *state, int64_t *fuel);
    /* The arrangements it keeps (NULL: none), for introspection (df_introspect.c). */
    df_spine_t *arranged[2];
} df_node_t;

/* A kind of failure inside the view (SQLSTATE and message) and how many rows now cause it. */
typedef struct df_verr {
    char sqlstate[6];
    char *message;
    int64_t count;
} df_verr_t;

/* An index of a materialized view on one worker (df_index.c): its rows keyed by its columns. */
typedef struct df_index {
    uint64_t id;
    int ncols;
    df_keycol_t *cols;           /* positions in the view's rows */
    df_spine_t spine;            /* key: those columns' encoding, value: the row */
} df_index_t;

typedef struct df_graph {
    uint64_t id;
    const plan_t *plan;
    df_node_t **nodes;           /* every node after the nodes it reads */
    int nnodes;
    df_node_t *root;
    uint64_t *reads;             /* the relations its GETs read */
    int nreads;
    df_spine_t result;           /* this worker's rows of the view: key the row, value empty */
    df_index_t *indexes;         /* CREATE INDEX on the view */
    int nindexes;
    struct df_sub **subs;        /* SUBSCRIBE to the view (one reference each) */
    int nsubs;
    df_verr_t *errs;             /* the view is in error while any count is not 0 */
    int nerrs;
    bool transient;              /* a SUBSCRIBE's own dataflow: its delta goes to its subscription, no result kept */
    cm_arena_t arena;            /* nodes, compiled expressions */
} df_graph_t;

/* A relation's delta at a step, as the graphs reading it get it. */
typedef struct df__source {
    uint64_t item;
    const df_batch_t *delta;     /* NULL: changed elsewhere, nothing on this worker */
} df__source_t;

/* What one step of a graph runs with. */
typedef struct df_step {
    df_state_t *st;
    df_graph_t *g;
    uint64_t seq;
    bool hydrate;                /* the install step: VALUES and global aggregates start */
    ty_ctx_t ctx;                /* arena: per row scratch, reset by the operators */
    cm_arena_t rowa;
    cm_err_t err;
    ty_settings_t settings;
} df_step_t;

/* A node's delta for step seq from its builder (consolidated unless n->unsorted); NULL: nothing. */
static inline df_batch_t *df__finish_node(const struct df_node *n, df_builder_t *bl, uint64_t seq)
{
    df_batch_t *b = n->unsorted ? df__builder_finish_unsorted(bl, seq, seq + 1) : df__builder_finish(bl, seq, seq + 1);
    if (b->nvals == 0) {
        df__batch_unref(b);
        return NULL;
    }
    return b;
}

/* A builder's batch for step seq; NULL when it holds nothing. */
static inline df_batch_t *df__finish(df_builder_t *bl, uint64_t seq)
{
    df_batch_t *b = df__builder_finish(bl, seq, seq + 1);
    if (b->nvals == 0) {
        df__batch_unref(b);
        return NULL;
    }
    return b;
}

/* A row that failed inside the view with diff: its error's count moves by diff. Clears s->err. */
void df__graph_error(df_step_t *s, int64_t diff);

/* Runs one node other than a GET: its previous delta dropped, n->out set from its inputs' out. */
void df__node_step(df_step_t *s, df_node_t *n);

/* The operators: each sets n->out from its inputs' out (NULL in: NULL out, but REDUCE always runs). */
bool df__op_map(df_step_t *s, df_node_t *n);
bool df__op_union(df_step_t *s, df_node_t *n);
bool df__op_values(df_step_t *s, df_node_t *n);
/* The worker owning a key; one exchange round of per-worker builders (df_route.c): what came here, merged. */
int df__owner(const df_step_t *s, const uint8_t *key, size_t len);
df_batch_t *df__route(df_step_t *s, df_builder_t *bls, bool *ok);
/* Each row of in (n's columns), keyed by kcols, into its key owner's builder as tag ++ row; a row that
 * cannot be keyed is an error of the view. Whether any was added. */
bool df__route_rows(df_step_t *s, const df_node_t *n, const df_keycol_t *kcols, const df_batch_t *in, uint8_t tag,
                    df_builder_t *bls);
/* Each key of keys read in sp (a cursor moving forward) with sign -1, then ins (taken; NULL: none) joins sp
 * and each key is read again with sign +1: an operator's output for the keys a delta touched. */
typedef void (*df_touched_fn)(void *arg, df_scur_t *cur, const uint8_t *key, size_t klen, int64_t sign);
void df__arrange_touched(df_spine_t *sp, const df_batch_t *keys, df_batch_t *ins, df_touched_fn each, void *arg);
/* Stateful operators of their own files: *_new sets n->state (false, err set: cannot be kept). */
bool df__setop_new(df_graph_t *g, df_node_t *n, cm_err_t *err);
bool df__op_setop(df_step_t *s, df_node_t *n);
bool df__topk_new(df_graph_t *g, df_node_t *n, cm_err_t *err);
bool df__op_topk(df_step_t *s, df_node_t *n);
bool df__flatmap_new(df_graph_t *g, df_node_t *n, cm_err_t *err);
bool df__op_flatmap(df_step_t *s, df_node_t *n);
bool df__window_new(df_graph_t *g, df_node_t *n, cm_err_t *err);
bool df__op_window(df_step_t *s, df_node_t *n);
/* A RECURSE n (in[0] the non-recursive term, in[1] the recursive one) whose term was compiled into
 * g->nodes[first..] and reads the worktable work (df_op_recursive.c): marks the loop's nodes. */
bool df__recurse_new(df_graph_t *g, df_node_t *n, df_node_t *work, int first, cm_err_t *err);
bool df__op_recurse(df_step_t *s, df_node_t *n);
/* A REDUCE's state (df_op_reduce.c; df_op_accum.c when every aggregate accumulates). */
typedef struct df__agg {
    const plan_agg_t *a;
    ty_expr_t *filter;
    ty_expr_t **es;              /* arguments, then ORDER BY values */
    int nes;
} df__agg_t;

typedef struct df__accmap df__accmap_t;

struct df_reduce {
    int nkeys;
    ty_expr_t **keys;
    df_keycol_t *kcols;          /* over the key values, in order */
    int naggs;
    df__agg_t *aggs;
    df_spine_t input;            /* recomputing: key the group's key, value an input row */
    df_spine_t output;           /* recomputing: key the group's key, value its output row now */
    df_spine_t failed;           /* recomputing: the groups whose output failed (value: SQLSTATE, message) */
    bool global_done;            /* no GROUP BY: the one group's row has been produced */
    bool accum;                  /* every aggregate accumulates: groups keep counts and sums, not rows */
    bool minmax;                 /* every aggregate is min or max: input holds their arguments in order */
    df__accmap_t *groups;        /* accumulating: group key -> its encoded state */
    int nstate;                  /* accumulating: the state row's columns and types */
    ty_oid_t *state_types;
    int npart;                   /* accumulating: a partial state's columns and types (df__accum_route) */
    ty_oid_t *part_types;
};

bool df__eval_keys(df_step_t *s, df_reduce_t *rd, const ty_datum_t *row, ty_datum_t *kv);
/* Whether row passes x's FILTER (*in; true without one); false: evaluating it failed (s->err). */
bool df__agg_filter(df_step_t *s, const df__agg_t *x, const ty_datum_t *row, bool *in);
void df__accum_init(df_reduce_t *rd, df_node_t *n);
void df__accum_free(df_reduce_t *rd);
/* This worker's input rows folded into one partial state per group, each added to its owner's builder. */
void df__accum_route(df_step_t *s, df_node_t *n, const df_batch_t *in, df_builder_t *bls);
/* The touched groups of d (keys: group keys, values: partial states), and the global group if global. */
void df__accum_step(df_step_t *s, df_node_t *n, const df_batch_t *d, bool global, df_builder_t *out);
/* A reduce of min and max alone (df_op_minmax.c): its input arranged per aggregate in argument order. */
bool df__minmax_applies(const df_reduce_t *rd);
/* Each input row as the arranged records of its group, into its group's owner's builder. */
void df__minmax_route(df_step_t *s, df_node_t *n, const df_batch_t *in, df_builder_t *bls);
/* The group key of an arranged input key (minmax: without its tag). */
size_t df__minmax_group_key(const df_reduce_t *rd, size_t klen);
/* The group gk read through cur (forward only): *exists, its key values into kv, and into each
 * aggregate's started state (states[0..naggs)) its one value; false: s->err. */
bool df__minmax_group(df_step_t *s, df_node_t *n, df_scur_t *cur, const uint8_t *gk, size_t gl, ty_datum_t *kv,
                      plan_aggstate_t **states, bool *exists);
df_reduce_t *df__reduce_new(df_graph_t *g, df_node_t *n, cm_err_t *err);
void df__reduce_free(df_reduce_t *r);
bool df__op_reduce(df_step_t *s, df_node_t *n);
/* An accumulating reduce's groups and the bytes their states take. */
void df__accum_size(const df_reduce_t *rd, uint64_t *groups, uint64_t *bytes);

/* A join's arrangements (df_op_join.c); its step always runs (it has an exchange round). */
df_join_t *df__join_new(df_graph_t *g, df_node_t *n);
void df__join_free(df_join_t *j);
/* Idle work on both sides' arrangements from one budget; true while work remains. */
bool df__join_idle_work(df_join_t *j, int64_t *fuel);
bool df__op_join(df_step_t *s, df_node_t *n);

/* The view's result (df_mview.c): the root's delta goes into it; a Peek reads it. */
void df__mview_apply(df_graph_t *g, const df_batch_t *delta, uint64_t seq);
df_graph_t *df__graph_find(df_state_t *st, uint64_t id);

/* df_index.c: an index's arrangement built on its view's graph (when both are there), kept from
 * the view's delta, freed, compacted (df_int.h: its plan, attaching it, detaching it). */
void df__index_attach_all(df_state_t *st, df_graph_t *g);
/* df_subscribe.c: a step's delta of g goes to g's subscriptions; after a batch they hear this
 * worker's progress (beginning and ending them: df_int.h). */
void df__sub_delta(df_state_t *st, df_graph_t *g, const df_batch_t *delta, uint64_t seq);
void df__sub_progress(df_state_t *st);
/* What df_sub_flow.c needs of a subscription: its kind and object, whether it wants a snapshot or
 * was closed, a batch's rows appended (rows_in_keys: a result's layout, else a delta's), a failure
 * (the first stays), this worker's progress. */
df_sub_kind_t df__sub_kind(const df_sub_t *s);
uint64_t df__sub_object(const df_sub_t *s);
bool df__sub_snapshot(const df_sub_t *s);
bool df__sub_closed(df_sub_t *s);
void df__sub_append(df_sub_t *s, int w, const df_batch_t *b, bool rows_in_keys, uint64_t seq);
void df__sub_fail(df_sub_t *s, const char *sqlstate, const char *message);
void df__sub_progress_set(df_sub_t *s, int w, uint64_t seq);
/* df_sub_flow.c: a query subscription begins (its dataflow compiled and hydrated) or a table
 * subscription (its shard's rows); each step's deltas (every table and view that ran) reach them. */
void df__sub_flow_start(df_state_t *st, df_sub_t *s, uint64_t seq, const uint8_t *plan, size_t plan_len);
void df__sub_flow_end(df_state_t *st, df_sub_t *s);
void df__sub_flows_written(df_state_t *st, const df__source_t *src, int nsrc, uint64_t seq);
void df__sub_flows_progress(df_state_t *st);
/* Each query subscription's dataflow on this worker (id: the step it began at), for introspection. */
typedef struct df_subflow df_subflow_t;
void df__sub_flows_visit(const df_state_t *st, void (*each)(const df_dataflow_t *f, void *arg), void *arg);
/* df_graph.c: one step of g over the deltas in src (hydrate: the install step); the root's delta is
 * left in g->root->out. The current contents of a relation on this worker as a delta (NULL: none). */
void df__graph_run(df_state_t *st, df_graph_t *g, const df__source_t *src, int nsrc, uint64_t seq, bool hydrate);
df_batch_t *df__contents(df_state_t *st, uint64_t item, uint64_t seq);
void df__index_apply(df_graph_t *g, const df_batch_t *delta, uint64_t seq);
void df__index_free_all(df_graph_t *g);
bool df__index_idle(df_graph_t *g, int64_t *fuel);
/* A graph compiled from a plan without hydrating it (EXPLAIN's operators); NULL with err. */
df_graph_t *df__graph_compile(const plan_t *p, uint64_t id, cm_err_t *err);
/* The first error of g or of a view it reads (depth: 0), NULL while it has none. */
const df_verr_t *df__mview_error(df_state_t *st, const df_graph_t *g, int depth);
/* A Peek's computed plan (DF_PEEK_COMPUTED): compiled, hydrated over what it reads on this worker,
 * its result rows answered in out, then dropped. Every worker runs it (its exchange rounds meet). */
bool df__graph_computed(df_state_t *st, const plan_t *p, uint64_t seq, cm_buf_t *out, int64_t *rows, ty_ctx_t *ctx);
/* The rows of a materialized view's shard into a Peek's part; false (err set) if it is in error or unknown. */
/* l: a lookup of the view (NULL: every row; see df_peek_match.c). */
bool df__mview_peek(df_state_t *st, uint64_t id, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx,
                    int64_t *rows);
/* A view's shard as a reader needs it, at one moment: its rows (the keys of result) and its
 * indexes, as snapshots (immutable: any thread may read them while they are held). */
typedef struct df_readix {
    int ncols;
    const df_keycol_t *cols;     /* positions in the view's rows */
    df_snap_t *snap;             /* key: those columns' encoding, value: the row */
} df_readix_t;
#define DF_READ_INDEXES_MAX 32   /* a read looks at most this many of a view's indexes */
typedef struct df_readview {
    int ncols;
    const ty_oid_t *types;
    df_snap_t *result;
    int nindexes;
    df_readix_t *indexes;
} df_readview_t;
/* A table's shard as a reader needs it: its rows as a snapshot (keys: the key's encoding, or the
 * whole row's without a key; values: the rows), its columns and its key. */
typedef struct df_readtable {
    int ncols;
    const ty_oid_t *types;
    bool has_key;
    int nkeys;
    const df_keycol_t *keys;
    df_snap_t *snap;
} df_readtable_t;
/* df_table.c: table id's shard on this worker (a new snapshot reference; false: no such table). */
bool df__table_readable_of(df_state_t *st, uint64_t id, df_readtable_t *out);
/* df_table_read.c: t's rows as worker w of nw holds them (or those a lookup l asks: by key, the
 * keys w owns, one seek each; without a key, the rows whose fixed columns match) into out as
 * one part of relation id. */
bool df__readtable_peek(const df_readtable_t *t, uint64_t id, int w, int nw, const df_peek_lookup_t *l, cm_buf_t *out,
                        ty_ctx_t *ctx, uint32_t *rows);
/* df_mview.c: v's rows (or those a lookup l matches) into out as one part of relation id. */
bool df__readview_peek(const df_readview_t *v, uint64_t id, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx,
                       int64_t *rows);
/* df_peek_match.c: the rows of snap (rows_in_keys: its keys are the rows, else its values)
 * whose columns equal a lookup row's non-NULL ones, into the answer. */
bool df__peek_match(const ty_oid_t *types, int ncols, df_snap_t *snap, bool rows_in_keys, const df_peek_lookup_t *l,
                    cm_buf_t *out, ty_ctx_t *ctx, uint32_t *rows);
/* The same through one of v's indexes that every lookup row's fixed columns cover (*used; else
 * nothing done): a seek per distinct lookup value instead of a pass over every row. */
bool df__peek_index(const df_readview_t *v, const df_peek_lookup_t *l, cm_buf_t *out, ty_ctx_t *ctx, uint32_t *rows,
                    bool *used);
/* A table's shard on this worker (df_table.c); NULL: no such table. */
df_spine_t *df__table_spine(df_state_t *st, uint64_t id);
/* A delta whose values are the rows of a spine's snapshot (tables: their rows; views: their keys). */
df_batch_t *df__snap_rows(df_spine_t *sp, bool rows_in_keys, uint64_t seq);

#endif
