/*
 * df_cmd.c: sequenced commands (dataflow.h). A command is built by the
 * sequencer, then shared read-only by every worker it is sent to; the last
 * holder frees it, on whichever thread that is.
 */
#include "dataflow/dataflow.h"

#include <stdlib.h>
#include <string.h>

const char *df_cmd_kind_name(df_cmd_kind_t kind)
{
    switch (kind) {
    case DF_CMD_BOOTSTRAP:
        return "bootstrap";
    case DF_CMD_APPLY:
        return "apply";
    case DF_CMD_WRITE:
        return "write";
    case DF_CMD_PEEK:
        return "peek";
    case DF_CMD_SUBSCRIBE:
        return "subscribe";
    case DF_CMD_TICK:
        return "tick";
    }
    return "unknown";
}

df_cmd_t *df_cmd_new(df_cmd_kind_t kind)
{
    df_cmd_t *c = cm_calloc(1, sizeof *c);
    atomic_init(&c->refs, 1);
    c->kind = kind;
    cm_arena_init(&c->arena, 0);
    return c;
}

void df_cmd_ref(df_cmd_t *c)
{
    atomic_fetch_add_explicit(&c->refs, 1, memory_order_relaxed);
}

void df_cmd_unref(df_cmd_t *c)
{
    if (c == NULL)
        return;
    /* acq_rel: the freeing thread must see every write made before the other releases. */
    if (atomic_fetch_sub_explicit(&c->refs, 1, memory_order_acq_rel) != 1)
        return;
    if (c->reply) {
        /* Freed unanswered: the command never reached its last worker. */
        df_reply_fail(c->reply, "57P01", "the command was dropped before every worker applied it");
        df_reply_unref(c->reply);
    }
    df_sub_unref(c->sub);
    cm_arena_free(&c->arena);
    free(c->payload_owned);
    free(c->ops);
    free(c);
}

void df_cmd_set_payload(df_cmd_t *c, const uint8_t *p, size_t n, df_reply_t *reply)
{
    uint8_t *copy = NULL;
    if (n > 0) {
        copy = cm_arena_alloc(&c->arena, n);
        memcpy(copy, p, n);
    }
    c->payload = copy;
    c->payload_len = n;
    if (reply)
        df_reply_ref(reply);
    c->reply = reply;
}

void df_cmd_take_payload(df_cmd_t *c, cm_buf_t *buf, df_reply_t *reply)
{
    df_cmd_set_payload(c, NULL, 0, reply);
    c->payload = c->payload_owned = buf->data;
    c->payload_len = buf->len;
    buf->data = NULL;
    buf->len = buf->cap = 0;
}

void df_cmd_add_op(df_cmd_t *c, df_op_kind_t kind, uint64_t id, const char *name, const uint8_t *plan,
                   size_t plan_len)
{
    if (c->nops == c->ops_cap) {
        c->ops_cap = c->ops_cap ? 2 * c->ops_cap : 4;
        c->ops = cm_realloc(c->ops, sizeof *c->ops * c->ops_cap);
    }
    uint8_t *p = NULL;
    if (plan_len > 0) {
        p = cm_arena_alloc(&c->arena, plan_len);
        memcpy(p, plan, plan_len);
    }
    c->ops[c->nops++] = (df_op_t){.kind = kind, .id = id, .name = cm_arena_strdup(&c->arena, name ? name : ""),
                                  .plan = p, .plan_len = plan_len};
}
