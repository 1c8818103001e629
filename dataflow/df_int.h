/*
 * df_int.h: what the dataflow module's files share beyond dataflow.h: the
 * engine's entry points that the in-order apply (df_state.c) calls when it
 * installs and drops dataflows and applies the commands that write and
 * read data (df_table.c).
 */
#ifndef EDDY_DF_INT_H
#define EDDY_DF_INT_H

#include "dataflow/dataflow.h"

typedef struct df_engine df_engine_t;

/* A dataflow was installed: a table's definition makes (or keeps) its shards. */
void df__engine_install(df_state_t *st, const df_dataflow_t *f);
void df__engine_drop(df_state_t *st, uint64_t id);
/* Around a Bootstrap's installs: tables it does not install again are dropped at the end. */
void df__engine_bootstrap(df_state_t *st, bool begin);
void df__engine_free(df_state_t *st);
/* Idle work on the tables' shards from one budget (df__spine_idle_spend); true while work remains. */
bool df__engine_idle_work(df_state_t *st, int64_t *fuel);
/* A Write or Peek at its step, on this worker's shards; answers its reply. */
void df__engine_command(df_state_t *st, const df_cmd_t *c);

/* Materialized views (df_graph.c): a maintained dataflow's operators, hydrated from what it reads. */
struct df_batch;
void df__graph_install(df_state_t *st, df_dataflow_t *f, uint64_t seq);
/* df_index.c: an index flow's plan bytes into f (false: not an index's; allocates in f->arena);
 * its arrangement on its view's graph, built when both are installed, freed when it goes. */
bool df__index_plan_decode(df_dataflow_t *f, const uint8_t *p, size_t n);
void df__index_attach(df_state_t *st, const df_dataflow_t *f);
void df__index_detach(df_state_t *st, const df_dataflow_t *f);
/* df_subscribe.c: a subscription begins at step seq (its share of what it reads, then registered
 * with it; plan: a query's plan bytes) or ends (torn down); a view's graph that goes ends its
 * subscriptions. */
void df__sub_start(df_state_t *st, df_sub_t *s, uint64_t seq, const uint8_t *plan, size_t plan_len);
void df__sub_end(df_state_t *st, df_sub_t *s);
/* df_sub_flow.c: subscriptions to tables and queries on this worker. The relation id (named name)
 * goes: those reading it end. clear: every one ends (a Bootstrap, the worker stopping). */
void df__sub_flows_drop(df_state_t *st, uint64_t id, const char *name);
void df__sub_flows_clear(df_state_t *st, const char *sqlstate, const char *message);
bool df__sub_flows_idle(df_state_t *st, int64_t *fuel);
void df__sub_drop_all(df_state_t *st, struct df_graph *g);
/* A view installed again under the same ID (a rename: the same rows) keeps its subscriptions:
 * taken from the old graph, given to the new one (none: they end). */
void df__sub_detach_all(struct df_graph *g, df_sub_t ***subs, int *n);
void df__sub_attach_all(df_state_t *st, struct df_graph *g, df_sub_t **subs, int n);
void df__graph_free(struct df_graph *g);
/* Idle work on every arrangement a view keeps (its result, its operators' state); true while work remains. */
bool df__graph_idle_work(struct df_graph *g, int64_t *fuel);
/* A table's applied delta at step seq (its shard's rows; NULL: none here) feeds every view reading it. */
void df__flows_written(df_state_t *st, uint64_t table, const struct df_batch *delta, uint64_t seq);

/* df_publish.c: view or table id's published shard is out of date (its rows, indexes or errors
 * changed); flush publishes every such one as of st->seq, before the worker says it reached it. */
void df__pub_mark(df_state_t *st, uint64_t id);
/* id went (dropped, or no longer a view): unpublished at once, before its graph is freed. */
void df__pub_gone(df_state_t *st, uint64_t id);
void df__pub_flush(df_state_t *st);
void df__pub_state_free(df_state_t *st);

#endif
