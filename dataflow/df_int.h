/*
 * df_int.h: what the dataflow module's files share beyond dataflow.h: the
 * engine's entry points that the in-order apply (df_state.c) calls for
 * the commands that write and read data.
 */
#ifndef EDDY_DF_INT_H
#define EDDY_DF_INT_H

#include "dataflow/dataflow.h"

/* df_engine.c: a Write or Peek at its step, on this worker's shards; answers its reply. */
void df__engine_command(df_state_t *st, const df_cmd_t *c);

#endif
