/*
 * pln_codec_io.c: the plan codec's primitives: big-endian integers and
 * length-prefixed strings written to a buffer, and the reading cursor that
 * checks each of them against what remains of the input (and each count
 * against an explicit maximum) before anything is allocated. The depth and
 * node limits are counted here for both directions.
 */
#include "planner/pln_codec.h"

#include <stdio.h>
#include <string.h>

/* ============================================================ writing */

void pln__wr_fail(pln_wr_t *w, const char *sqlstate, const char *fmt, ...)
{
    if (w->failed)
        return;
    w->failed = true;
    va_list ap;
    va_start(ap, fmt);
    cm_err_vset(w->err, sqlstate, fmt, ap);
    va_end(ap);
}

void pln__wr_u8(pln_wr_t *w, uint8_t v)
{
    if (!w->failed)
        cm_buf_put_u8(w->b, v);
}

void pln__wr_u32(pln_wr_t *w, uint32_t v)
{
    if (!w->failed)
        cm_buf_put_be32(w->b, v);
}

void pln__wr_i32(pln_wr_t *w, int32_t v)
{
    pln__wr_u32(w, (uint32_t)v);
}

void pln__wr_u64(pln_wr_t *w, uint64_t v)
{
    if (!w->failed)
        cm_buf_put_be64(w->b, v);
}

void pln__wr_str(pln_wr_t *w, const char *s)
{
    if (!s) {
        pln__wr_u32(w, PLN_CODEC_STR_NULL);
        return;
    }
    size_t n = strlen(s);
    if (n >= PLN_CODEC_STR_NULL) {
        pln__wr_fail(w, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a string of the plan is too long to encode");
        return;
    }
    pln__wr_u32(w, (uint32_t)n);
    if (!w->failed)
        cm_buf_put(w->b, s, n);
}

bool pln__wr_enter(pln_wr_t *w)
{
    if (w->failed)
        return false;
    if (++w->depth > w->lim.depth_max || ++w->nodes > w->lim.nodes_max) {
        pln__wr_fail(w, CM_ERRCODE_STATEMENT_TOO_COMPLEX,
                     "the plan is too complex to encode (more than %d levels or %d nodes)", w->lim.depth_max,
                     w->lim.nodes_max);
        return false;
    }
    return true;
}

void pln__wr_leave(pln_wr_t *w)
{
    w->depth--;
}

/* ============================================================ reading */

bool pln__rd_fail(pln_rd_t *r, const char *fmt, ...)
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
const uint8_t *pln__rd_bytes(pln_rd_t *r, size_t n, const char *what)
{
    if (r->failed)
        return NULL;
    if (n > r->n - r->pos) {
        pln__rd_fail(r, "truncated %s", what);
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

uint8_t pln__rd_u8(pln_rd_t *r)
{
    const uint8_t *p = pln__rd_bytes(r, 1, "byte");
    return p ? p[0] : 0;
}

uint32_t pln__rd_u32(pln_rd_t *r)
{
    const uint8_t *p = pln__rd_bytes(r, 4, "integer");
    return p ? (uint32_t)be(p, 4) : 0;
}

int32_t pln__rd_i32(pln_rd_t *r)
{
    return (int32_t)pln__rd_u32(r);
}

uint64_t pln__rd_u64(pln_rd_t *r)
{
    const uint8_t *p = pln__rd_bytes(r, 8, "integer");
    return p ? be(p, 8) : 0;
}

bool pln__rd_bool(pln_rd_t *r)
{
    uint8_t v = pln__rd_u8(r);
    if (v > 1)
        pln__rd_fail(r, "boolean byte %u", v);
    return v == 1;
}

const char *pln__rd_str(pln_rd_t *r, const char *what)
{
    uint32_t n = pln__rd_u32(r);
    if (r->failed || n == PLN_CODEC_STR_NULL)
        return NULL;
    const uint8_t *p = pln__rd_bytes(r, n, what);
    if (!p)
        return NULL;
    if (memchr(p, 0, n)) {
        pln__rd_fail(r, "%s contains a zero byte", what);
        return NULL;
    }
    return cm_arena_strndup(r->arena, (const char *)p, n);
}

int pln__rd_count(pln_rd_t *r, const char *what, int max, size_t min_bytes)
{
    uint32_t n = pln__rd_u32(r);
    if (r->failed)
        return 0;
    if (n > (uint32_t)max) {
        pln__rd_fail(r, "%u %s, more than the limit of %d", n, what, max);
        return 0;
    }
    if (min_bytes && (uint64_t)n * min_bytes > r->n - r->pos) {
        pln__rd_fail(r, "%u %s do not fit in the %zu bytes left", n, what, r->n - r->pos);
        return 0;
    }
    return (int)n;
}

ty_oid_t pln__rd_type(pln_rd_t *r, bool allow_invalid)
{
    ty_oid_t t = pln__rd_u32(r);
    if (r->failed || (t == TY_INVALID && allow_invalid))
        return t;
    if (ty_info(t) == NULL)
        pln__rd_fail(r, "unknown type %u", t);
    return t;
}

bool pln__rd_enter(pln_rd_t *r)
{
    if (r->failed)
        return false;
    if (++r->depth > r->lim.depth_max)
        return pln__rd_fail(r, "nested more than %d levels deep", r->lim.depth_max);
    if (++r->nodes > r->lim.nodes_max)
        return pln__rd_fail(r, "more than %d nodes", r->lim.nodes_max);
    return true;
}

void pln__rd_leave(pln_rd_t *r)
{
    r->depth--;
}
