/*
 * df_codec.c: commands as bytes (dataflow.h), for transports that leave the
 * process (a TCP transport for multi-process clusters). In process, commands
 * travel as shared pointers and are never encoded.
 *
 * Format 1: "EDCM", u8 format, u8 kind, be64 seq, epoch, index, time_us,
 * object_id, str object_name, be32 nops, nops x {u8 op kind (+0x80: a
 * maintained install), be64 id, str name, bytes plan}, bytes payload; str and bytes are a be32 length and
 * that many bytes; strings are UTF-8 without NUL. Decoding checks every
 * length against what remains before it allocates, so a declared count
 * can never make it allocate more than the input could hold.
 */
#include "dataflow/dataflow.h"

#include <string.h>

#define DF_CODEC_FORMAT 1
#define DF_OP_MIN_BYTES (1 + 8 + 4 + 4)   /* an op with an empty name and plan */

static void df__put_bytes(cm_buf_t *out, const void *p, size_t n)
{
    cm_buf_put_be32(out, (uint32_t)n);
    if (n > 0)
        cm_buf_put(out, p, n);
}

void df_cmd_encode(const df_cmd_t *c, cm_buf_t *out)
{
    cm_buf_put(out, "EDCM", 4);
    cm_buf_put_u8(out, DF_CODEC_FORMAT);
    cm_buf_put_u8(out, (uint8_t)c->kind);
    cm_buf_put_be64(out, c->seq);
    cm_buf_put_be64(out, c->epoch);
    cm_buf_put_be64(out, c->index);
    cm_buf_put_be64(out, (uint64_t)c->time_us);
    cm_buf_put_be64(out, c->object_id);
    const char *name = c->object_name ? c->object_name : "";
    df__put_bytes(out, name, strlen(name));
    cm_buf_put_be32(out, c->nops);
    for (uint32_t i = 0; i < c->nops; i++) {
        const df_op_t *op = &c->ops[i];
        cm_buf_put_u8(out, (uint8_t)(op->kind | (op->maintained ? 0x80 : 0)));
        cm_buf_put_be64(out, op->id);
        df__put_bytes(out, op->name ? op->name : "", op->name ? strlen(op->name) : 0);
        df__put_bytes(out, op->plan, op->plan_len);
    }
    df__put_bytes(out, c->payload, c->payload_len);
}

/* A bounds-checked reader with a sticky failure. */
typedef struct df__cur {
    const uint8_t *p;
    size_t left;
    bool bad;
} df__cur_t;

static bool df__take(df__cur_t *r, void *dst, size_t n)
{
    if (r->bad || r->left < n)
        return !(r->bad = true);
    memcpy(dst, r->p, n);
    r->p += n;
    r->left -= n;
    return true;
}

static uint8_t df__u8(df__cur_t *r)
{
    uint8_t v = 0;
    df__take(r, &v, 1);
    return v;
}

static uint64_t df__be(df__cur_t *r, size_t n)
{
    uint8_t b[8] = {0};
    if (!df__take(r, b, n))
        return 0;
    uint64_t v = 0;
    for (size_t i = 0; i < n; i++)
        v = v << 8 | b[i];
    return v;
}

/* A length-prefixed run of bytes, pointing into the input (NULL when empty or bad). */
static const uint8_t *df__bytes(df__cur_t *r, size_t *len)
{
    *len = (size_t)df__be(r, 4);
    if (r->bad || r->left < *len) {
        r->bad = true;
        *len = 0;
        return NULL;
    }
    const uint8_t *p = r->p;
    r->p += *len;
    r->left -= *len;
    return *len ? p : NULL;
}

static char *df__str(df__cur_t *r, cm_arena_t *a)
{
    size_t len;
    const uint8_t *p = df__bytes(r, &len);
    if (r->bad || (len > 0 && (memchr(p, 0, len) != NULL || !cm_utf8_valid((const char *)p, len)))) {
        r->bad = true;
        return NULL;
    }
    return cm_arena_strndup(a, p ? (const char *)p : "", len);
}

df_cmd_t *df_cmd_decode(const uint8_t *p, size_t n, cm_err_t *err)
{
    df__cur_t r = {.p = p, .left = n};
    char magic[4];
    if (!df__take(&r, magic, 4) || memcmp(magic, "EDCM", 4) != 0) {
        cm_err_set(err, "XX001", "corrupt command: no EDCM header");
        return NULL;
    }
    uint8_t format = df__u8(&r), kind = df__u8(&r);
    if (!r.bad && format != DF_CODEC_FORMAT) {
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "command format %u is not supported (this build reads %u)",
                   format, DF_CODEC_FORMAT);
        return NULL;
    }
    if (!r.bad && (kind < DF_CMD_BOOTSTRAP || kind > DF_CMD_TICK)) {
        cm_err_set(err, "XX001", "corrupt command: unknown kind %u", kind);
        return NULL;
    }
    df_cmd_t *c = df_cmd_new((df_cmd_kind_t)kind);
    c->seq = df__be(&r, 8);
    c->epoch = df__be(&r, 8);
    c->index = df__be(&r, 8);
    c->time_us = (int64_t)df__be(&r, 8);
    c->object_id = df__be(&r, 8);
    c->object_name = df__str(&r, &c->arena);
    uint32_t nops = (uint32_t)df__be(&r, 4);
    if (!r.bad && nops > r.left / DF_OP_MIN_BYTES)
        r.bad = true;   /* more ops than the bytes left could hold */
    for (uint32_t i = 0; i < nops && !r.bad; i++) {
        uint8_t opk = df__u8(&r);
        bool maintained = (opk & 0x80) != 0;
        opk &= 0x7F;
        uint64_t id = df__be(&r, 8);
        const char *name = df__str(&r, &c->arena);
        size_t plan_len;
        const uint8_t *plan = df__bytes(&r, &plan_len);
        if (opk != DF_OP_INSTALL && opk != DF_OP_DROP)
            r.bad = true;
        if (!r.bad) {
            df_cmd_add_op(c, (df_op_kind_t)opk, id, name, plan, plan_len);
            c->ops[c->nops - 1].maintained = maintained && opk == DF_OP_INSTALL;
        }
    }
    size_t plen;
    const uint8_t *payload = df__bytes(&r, &plen);
    if (!r.bad && plen > 0) {
        uint8_t *copy = cm_arena_alloc(&c->arena, plen);
        memcpy(copy, payload, plen);
        c->payload = copy;
        c->payload_len = plen;
    }
    if (r.bad || r.left != 0) {
        cm_err_set(err, "XX001", "corrupt command: %s", r.bad ? "a length runs past the end" : "trailing bytes");
        df_cmd_unref(c);
        return NULL;
    }
    return c;
}
