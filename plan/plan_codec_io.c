/*
 * plan_codec_io.c: the plan codec's primitives: big-endian integers and
 * length-prefixed strings written to a buffer, and the reading cursor that
 * checks each of them against what remains of the input (and each count
 * against an explicit maximum) before anything is allocated. The depth and
 * node limits are counted here for both directions.
 */
#include "plan/plan_codec.h"

#include <stdio.h>
#include <string.h>

/* ============================================================ writing */

void plan__wr_fail(plan__wr_t *w, const char *sqlstate, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    cm_err_vset(w->err, sqlstate, fmt, ap);
    va_end(ap);
}

void plan__wr_u8(plan__wr_t *w, uint8_t v)
{
    if (!w->failed)
        cm_buf_put_u8(w->b, v);
}

void plan__wr_u32(plan__wr_t *w, uint32_t v)
{
    if (!w->failed)
        cm_buf_put_be32(w->b, v);
}

void plan__wr_i32(plan__wr_t *w, int32_t v)
{
    plan__wr_u32(w, (uint32_t)v);
}

void plan__wr_u64(plan__wr_t *w, uint64_t v)
{
    if (!w->failed)
        cm_buf_put_be64(w->b, v);
}

void plan__wr_str(plan__wr_t *w, const char *s)
{
    if (!s) {
        plan__wr_u32(w, PLAN_CODEC_STR_NULL);
        return;
    }
    size_t n = strlen(s);
    if (n >= PLAN_CODEC_STR_NULL) {
        plan__wr_fail(w, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a string of the plan is too long to encode");
        return;
    }
    plan__wr_u32(w, (uint32_t)n);
    if (!w->failed)
        cm_buf_put(w->b, s, n);
}

bool plan__wr_enter(plan__wr_t *w)
{
    if (w->failed)
        return false;
    if (++w->depth > w->lim.depth_max || ++w->nodes > w->lim.nodes_max) {
        plan__wr_fail(w, CM_ERRCODE_STATEMENT_TOO_COMPLEX,
                      "the plan is too complex to encode (more than %d levels or %d nodes)", w->lim.depth_max,
                      w->lim.nodes_max);
        return false;
    }
    return true;
}

void plan__wr_leave(plan__wr_t *w)
{
    w->depth--;
}

/* ============================================================ reading */

bool plan__rd_fail(plan__rd_t *r, const char *fmt, ...)
{
    if (r->failed)
        return false;
    r->failed = true;
    char msg[512];
    va_list ap;
    va_start(ap, fmt);
    vsnprintf(msg, sizeof msg, fmt, ap);
    va_end(ap);
    cm_err_set(r->err, "XX001", "invalid query plan at byte %zu: %s", r->pos, msg);
    return false;
}

/* The next n bytes, or NULL (failed) if the input ends first. */
const uint8_t *plan__rd_bytes(plan__rd_t *r, size_t n, const char *what)
{
    if (r->failed)
        return NULL;
    if (n > r->n - r->pos) {
        plan__rd_fail(r, "truncated %s", what);
        return NULL;
    }
    const uint8_t *p = r->p + r->pos;
    r->pos += n;
    return p;
}

static uint64_t be(const uint8_t *p, int n)
{
    uint64_t v = 0;
    for (int i = 0; i < n; i++)
        v = v << 8 | p[i];
    return v;
}

uint8_t plan__rd_u8(plan__rd_t *r)
{
    const uint8_t *p = plan__rd_bytes(r, 1, "byte");
    return p ? p[0] : 0;
}

uint32_t plan__rd_u32(plan__rd_t *r)
{
    const uint8_t *p = plan__rd_bytes(r, 4, "integer");
    return p ? (uint32_t)be(p, 4) : 0;
}

int32_t plan__rd_i32(plan__rd_t *r)
{
    return (int32_t)plan__rd_u32(r);
}

uint64_t plan__rd_u64(plan__rd_t *r)
{
    const uint8_t *p = plan__rd_bytes(r, 8, "integer");
    return p ? be(p, 8) : 0;
}

bool plan__rd_bool(plan__rd_t *r)
{
    uint8_t v = plan__rd_u8(r);
    if (v > 1)
        plan__rd_fail(r, "boolean byte %u", v);
    return v == 1;
}

const char *plan__rd_str(plan__rd_t *r, const char *what)
{
    uint32_t n = plan__rd_u32(r);
    if (r->failed || n == PLAN_CODEC_STR_NULL)
        return NULL;
    const uint8_t *p = plan__rd_bytes(r, n, what);
    if (!p)
        return NULL;
    if (memchr(p, 0, n)) {
        plan__rd_fail(r, "%s contains a zero byte", what);
        return NULL;
    }
    return cm_arena_strndup(r->arena, (const char *)p, n);
}

int plan__rd_count(plan__rd_t *r, const char *what, int max, size_t min_bytes)
{
    uint32_t n = plan__rd_u32(r);
    if (r->failed)
        return 0;
    if (n > (uint32_t)max) {
        plan__rd_fail(r, "%u %s, more than the limit of %d", n, what, max);
        return 0;
    }
    if (min_bytes && (uint64_t)n * min_bytes > r->n - r->pos) {
        plan__rd_fail(r, "%u %s do not fit in the %zu bytes left", n, what, r->n - r->pos);
        return 0;
    }
    return (int)n;
}

ty_oid_t plan__rd_type(plan__rd_t *r, bool allow_invalid)
{
    ty_oid_t t = plan__rd_u32(r);
    if (r->failed || (t == TY_INVALID && allow_invalid))
        return t;
    if (ty_info(t) == NULL)
        plan__rd_fail(r, "unknown type %u", t);
    return t;
}

bool plan__rd_enter(plan__rd_t *r)
{
    if (r->failed)
        return false;
    if (++r->depth > r->lim.depth_max)
        return plan__rd_fail(r, "nested more than %d levels deep", r->lim.depth_max);
    if (++r->nodes > r->lim.nodes_max)
        return plan__rd_fail(r, "more than %d nodes", r->lim.nodes_max);
    return true;
}

void plan__rd_leave(plan__rd_t *r)
{
    r->depth--;
}
