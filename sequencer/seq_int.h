/*
 * seq_int.h: what the sequencer's files share and nobody else needs.
 */
#ifndef EDDY_SEQ_INT_H
#define EDDY_SEQ_INT_H

#include "sequencer/sequencer.h"

/* At most this many statements' writes, and this many bytes of them, go as one step. */
#define SEQ_GROUP_MAX 128
#define SEQ_GROUP_BYTES ((size_t)1 << 20)
/* A write is answered when numbered only while every worker is at most this many commands behind. */
#define SEQ_ACCEPT_LAG 256

/* seq_group.c: whether c may share a step with other groupable writes (df_cmd_t.groupable). */
bool seq_group_member(const df_cmd_t *c);
/* Whether the groupable write c may join the group that head (a member) begins: same table. */
bool seq_group_joins(const df_cmd_t *head, const df_cmd_t *c);
/* One Write of every member's parts, in order, whose reply answers each member's reply; takes
 * the members' references. */
df_cmd_t *seq_group_merge(df_cmd_t **members, size_t n, int nworkers);

/* seq_group.c: the reply that takes an accepted write's place on the workers (the session's was
 * answered when it was numbered); it only reports a failure, which acceptance rules out. */
df_reply_t *seq_group_accepted_reply(int nworkers);

#endif
