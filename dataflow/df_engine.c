/*
 * df_engine.c: what a worker does with the commands that carry data, at
 * their step in the one order: a Write changes the worker's shards of a
 * table, a Peek reads its shards. Every worker answers every such command
 * exactly once (its reply counts the answers), also when it has nothing to
 * say, so the submitter hears back from all of them.
 *
 * Tables and their arrangements are not built yet: until they are, a
 * worker answers writes and reads with 0A000, and the server does not
 * submit them to users' statements.
 */
#include "dataflow/df_int.h"

void df__engine_command(df_state_t *st, const df_cmd_t *c)
{
    if (c->reply == NULL)
        return;
    cm_err_t e = {0};
    cm_err_set(&e, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "worker %d cannot %s yet: tables are not built", st->worker,
               c->kind == DF_CMD_WRITE ? "write" : "read");
    df_reply_answer(c->reply, st->worker, &e);
    cm_err_clear(&e);
}
