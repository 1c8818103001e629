/*
 * seq_group.c: group commit. Writes that cannot fail on a worker (rows
 * added to a table without a key: the session checked NOT NULL and CHECK
 * already, nothing is there to collide with) are marked groupable by the
 * session; while one such write is being applied, the next ones wait in the
 * inbox, and then go as one Write of all their parts at one step. The
 * workers run each table's dataflows once for the whole group instead of
 * once per statement. Each statement keeps its own reply: it is answered
 * only once the group's step was applied everywhere (or with the group's
 * error, which can only be one every member would have had alone).
 *
 * Such a write can even be answered before any worker applied it: once it
 * is numbered, every later read is numbered after it, so whoever hears the
 * answer and then reads sees it. The sequencer accepts it so (seq_submit)
 * when nothing stands before it and the workers are not far behind, and
 * when no catalog change was sequenced since the session planned it (its
 * table is there, with the columns the session encoded). Otherwise it goes
 * the way above, and the wait for the workers is the back-pressure.
 */
#include "sequencer/seq_int.h"

#include <stdlib.h>
#include <string.h>

/* The Write header: magic "DFW2", u8 check-only, u32 parts (df_wire.c). */
#define SEQ_WRITE_HEADER 9

typedef struct seq__group {
    size_t n;
    df_cmd_t *members[];
} seq__group_t;

static uint32_t seq__parts(const df_cmd_t *c)
{
    const uint8_t *p = c->payload + 5;
    return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3];
}

/* A groupable write of one part (u8 truncate, u64 table, ...) into one table. */
bool seq_group_member(const df_cmd_t *c)
{
    return c->kind == DF_CMD_WRITE && c->groupable && c->reply != NULL && c->payload_len >= SEQ_WRITE_HEADER + 9 &&
           memcmp(c->payload, "DFW2", 4) == 0 && c->payload[4] == 0 && seq__parts(c) == 1 &&
           c->payload[SEQ_WRITE_HEADER] == 0;
}

/* Members write the same table, so whatever fails the group on a worker (the table dropped
 * meanwhile) would have failed each of them alone. */
bool seq_group_joins(const df_cmd_t *head, const df_cmd_t *c)
{
    return seq_group_member(c) && memcmp(head->payload + SEQ_WRITE_HEADER + 1, c->payload + SEQ_WRITE_HEADER + 1, 8) == 0;
}

/* On the worker that answered last (or wherever the group's command was
 * dropped): every member hears the group's outcome at the group's step. */
static void seq__group_done(df_reply_t *r, void *arg)
{
    seq__group_t *g = arg;
    const cm_err_t *err = r->err.set ? &r->err : NULL;
    for (size_t i = 0; i < g->n; i++) {
        df_reply_t *m = g->members[i]->reply;
        m->seq = r->seq;
        for (int w = 0; w < m->nworkers; w++)
            df_reply_answer(m, w, err);
        df_cmd_unref(g->members[i]);
    }
    free(g);
}

df_cmd_t *seq_group_merge(df_cmd_t **members, size_t n, int nworkers)
{
    uint32_t parts = 0;
    for (size_t i = 0; i < n; i++)
        parts += seq__parts(members[i]);
    seq__group_t *g = cm_calloc(1, sizeof *g + n * sizeof g->members[0]);
    g->n = n;
    memcpy(g->members, members, n * sizeof *members);
    cm_buf_t body;
    cm_buf_init(&body, 0);
    df_write_begin(&body, false, parts);
    for (size_t i = 0; i < n; i++)
        cm_buf_put(&body, members[i]->payload + SEQ_WRITE_HEADER, members[i]->payload_len - SEQ_WRITE_HEADER);
    df_reply_t *rep = df_reply_new(nworkers, seq__group_done, g);
    df_cmd_t *c = df_cmd_new(DF_CMD_WRITE);
    df_cmd_set_payload(c, body.data, body.len, rep);
    df_reply_unref(rep);   /* the command holds it; its done frees the group */
    cm_buf_free(&body);
    return c;
}

/* Nothing waits for an accepted write's outcome on the workers: it was answered when numbered,
 * on the grounds that it cannot fail there; a failure would be a lost acknowledged write. */
static void seq__accepted_done(df_reply_t *r, void *arg)
{
    (void)arg;
    if (r->err.set)
        cm_log_error("sequencer: an acknowledged write failed on the workers at step %llu: %s: %s",
                     (unsigned long long)r->seq, r->err.sqlstate, r->err.message ? r->err.message : "");
}

df_reply_t *seq_group_accepted_reply(int nworkers)
{
    return df_reply_new(nworkers, seq__accepted_done, NULL);
}
