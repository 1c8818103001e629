/*
 * df_wire.c: the bodies of Write and Peek commands and of the workers'
 * answers to reads (dataflow.h), as bytes a session builds or reads
 * without knowing the engine's storage. Integers are big-endian; a row is
 * the storage layer's row encoding (df_row.c) of the table's column types.
 *
 *   write  "DFW2", u8 check only, u32 nparts, nparts x part
 *   part   u8 flags (1: truncate first, 2: sharded), u64 table, u32 constraint length
 *          (0xFFFFFFFF: none) and bytes, u32 ncols, ncols x u32 type, u32 nrows, then
 *          nrows x (i64 diff, u32 length, row bytes), or when sharded
 *          u32 nshards, nshards x (u32 nrows, u64 length, records), a record being
 *          varint key length, key bytes, varint row length, row bytes (inserted once)
 *   peek   ["DFK1", u32 nlookups, nlookups x (u64 item, u32 ncols, u32 nrows,
 *          nrows x (u32 length, row bytes))], then the plan's bytes
 *   peek answer (per worker)  repeated: u64 table, u32 nrows,
 *          nrows x (i64 diff, u32 length, row bytes)
 *
 * Decoding checks every length against what is left before it reads.
 */
#include "dataflow/dataflow.h"
#include "dataflow/df_store.h"

#include <stdlib.h>
#include <string.h>

#define DF_WRITE_MAGIC "DFW2"
#define DF_PEEK_LOOKUP_MAGIC "DFK1"
#define DF_PEEK_COMPUTED_MAGIC "DFC1"

void df_write_begin(cm_buf_t *out, bool check_only, uint32_t nparts)
{
    cm_buf_put(out, DF_WRITE_MAGIC, 4);
    cm_buf_put_u8(out, check_only);
    cm_buf_put_be32(out, nparts);
}

size_t df_write_part_begin(cm_buf_t *out, uint64_t table, const char *constraint, bool truncate,
                           const ty_oid_t *types, int ncols)
{
    cm_buf_put_u8(out, truncate);
    cm_buf_put_be64(out, table);
    if (constraint) {
        cm_buf_put_be32(out, (uint32_t)strlen(constraint));
        cm_buf_put_str(out, constraint);
    } else {
        cm_buf_put_be32(out, 0xFFFFFFFFu);
    }
    cm_buf_put_be32(out, (uint32_t)ncols);
    for (int i = 0; i < ncols; i++)
        cm_buf_put_be32(out, types[i]);
    size_t at = out->len;
    cm_buf_put_be32(out, 0);
    return at;
}

bool df_write_part_row(cm_buf_t *out, const ty_oid_t *types, int ncols, const ty_datum_t *row, int64_t diff,
                       ty_ctx_t *ctx, cm_buf_t *scratch)
{
    cm_buf_reset(scratch);
    bool ok = df__row_encode(types, ncols, row, ctx, scratch);
    cm_buf_put_be64(out, (uint64_t)diff);
    cm_buf_put_be32(out, (uint32_t)scratch->len);
    cm_buf_put(out, scratch->data, scratch->len);
    if (ok && out->failed)
        ok = cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the write is larger than its buffer allows");
    return ok;
}

void df_write_part_end(cm_buf_t *out, size_t at, uint32_t nrows)
{
    if (out->failed || at + 4 > out->len)
        return;
    out->data[at] = (uint8_t)(nrows >> 24);
    out->data[at + 1] = (uint8_t)(nrows >> 16);
    out->data[at + 2] = (uint8_t)(nrows >> 8);
    out->data[at + 3] = (uint8_t)nrows;
}

bool df_write_add_part(cm_buf_t *out, uint64_t table, const char *constraint, bool truncate, const ty_oid_t *types,
                       int ncols, ty_datum_t *const *rows, const int64_t *diffs, int nrows, ty_ctx_t *ctx)
{
    size_t at = df_write_part_begin(out, table, constraint, truncate, types, ncols);
    cm_buf_t row;
    cm_buf_init(&row, 0);
    bool ok = true;
    for (int r = 0; r < nrows && ok; r++)
        ok = df_write_part_row(out, types, ncols, rows[r], diffs ? diffs[r] : 1, ctx, &row);
    cm_buf_free(&row);
    df_write_part_end(out, at, (uint32_t)nrows);
    if (ok && out->failed)
        ok = cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the write is larger than its buffer allows");
    return ok;
}

bool df_write_encode(uint64_t table, const char *constraint, bool check_only, const ty_oid_t *types, int ncols,
                     ty_datum_t *const *rows, const int64_t *diffs, int nrows, ty_ctx_t *ctx, cm_buf_t *out)
{
    df_write_begin(out, check_only, 1);
    return df_write_add_part(out, table, constraint, false, types, ncols, rows, diffs, nrows, ctx);
}

/* ------------------------------------------------------------ sharded parts */

/* Rows of at most this many integer columns are encoded by df__shards_ints: every length fits
 * one byte of varint (a key of 9 and a row of 10 bytes per column at most, and the bitmap). */
#define DF__SHARDS_INTS_MAX 12

struct df_write_shards {
    uint64_t table;
    int ncols, nshards;
    bool ints;                   /* every column int2, int4 or int8, at most DF__SHARDS_INTS_MAX */
    ty_oid_t *types;
    df_keycol_t *keys;           /* every column in order: how a table without a key keys its rows */
    cm_buf_t key;
    cm_buf_t *sections;
    uint32_t *rows;
    uint32_t n;
};

df_write_shards_t *df_write_shards_new(uint64_t table, const ty_oid_t *types, int ncols, int nshards)
{
    df_write_shards_t *s = cm_calloc(1, sizeof *s);
    s->table = table;
    s->ncols = ncols;
    s->nshards = nshards > 0 ? nshards : 1;
    s->types = cm_calloc((size_t)(ncols ? ncols : 1), sizeof *s->types);
    s->keys = cm_calloc((size_t)(ncols ? ncols : 1), sizeof *s->keys);
    s->ints = ncols > 0 && ncols <= DF__SHARDS_INTS_MAX;
    for (int i = 0; i < ncols; i++) {
        s->types[i] = types[i];
        s->keys[i] = (df_keycol_t){.col = i, .type = types[i]};
        s->ints &= types[i] == TY_INT2 || types[i] == TY_INT4 || types[i] == TY_INT8;
    }
    cm_buf_init(&s->key, 0);
    s->sections = cm_calloc((size_t)s->nshards, sizeof *s->sections);
    s->rows = cm_calloc((size_t)s->nshards, sizeof *s->rows);
    for (int i = 0; i < s->nshards; i++)
        cm_buf_init(&s->sections[i], 0);
    return s;
}

void df_write_shards_free(df_write_shards_t *s)
{
    if (s == NULL)
        return;
    for (int i = 0; i < s->nshards; i++)
        cm_buf_free(&s->sections[i]);
    cm_buf_free(&s->key);
    free(s->sections);
    free(s->rows);
    free(s->types);
    free(s->keys);
    free(s);
}

static void df__put_varint(cm_buf_t *out, uint64_t v)
{
    uint8_t b[10];
    size_t n = 0;
    while (v >= 0x80) {
        b[n++] = (uint8_t)(v | 0x80);
        v >>= 7;
    }
    b[n++] = (uint8_t)v;
    cm_buf_put(out, b, n);
}

/* A row of integers without NULLs, its key and its bytes made as df__key_encode and
 * df__row_encode make them, without their calls per column and per byte: 1, or 0 when a column
 * is NULL (nothing done), -1 when the section's buffer could not grow. */
static int df__shards_ints(df_write_shards_t *s, const ty_datum_t *row)
{
    uint8_t key[9 * DF__SHARDS_INTS_MAX], val[2 + 10 * DF__SHARDS_INTS_MAX];
    size_t kl = 0, vl = 0;
    for (int i = 0; i < s->ncols; i += 8)
        val[vl++] = 0;   /* the NULL bitmap: none */
    for (int i = 0; i < s->ncols; i++) {
        if (row[i].isnull)
            return 0;
        kl += df__key_int64_to(key + kl, row[i].v.i);
        vl += df__row_zigzag_to(val + vl, row[i].v.i);
    }
    int w = (int)(df__hash(key, kl) % (uint64_t)s->nshards);
    cm_buf_t *out = &s->sections[w];
    if (!cm_buf_reserve(out, 2 + kl + vl))
        return -1;
    uint8_t *b = out->data + out->len;
    b[0] = (uint8_t)kl;
    memcpy(b + 1, key, kl);
    b[1 + kl] = (uint8_t)vl;
    memcpy(b + 2 + kl, val, vl);
    out->len += 2 + kl + vl;
    s->rows[w]++;
    s->n++;
    return 1;
}

bool df_write_shards_row(df_write_shards_t *s, const ty_datum_t *row, ty_ctx_t *ctx)
{
    int done = s->ints ? df__shards_ints(s, row) : 0;
    if (done != 0)
        return done > 0 || cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                                      "the write is larger than its buffer allows");
    cm_buf_reset(&s->key);
    if (!df__key_encode(s->keys, s->ncols, row, ctx, &s->key))
        return false;
    int w = (int)(df__hash(s->key.data, s->key.len) % (uint64_t)s->nshards);
    cm_buf_t *out = &s->sections[w];
    df__put_varint(out, s->key.len);
    cm_buf_put(out, s->key.data, s->key.len);
    /* The row goes in place after a one-byte length, moved on in the rare case it needs more. */
    size_t at = out->len;
    cm_buf_put_u8(out, 0);
    size_t start = out->len;
    if (!df__row_encode(s->types, s->ncols, row, ctx, out))
        return false;
    size_t n = out->len - start;
    if (n >= 0x80 && !out->failed) {
        uint8_t b[10];
        size_t k = 0;
        uint64_t v = n;
        while (v >= 0x80) {
            b[k++] = (uint8_t)(v | 0x80);
            v >>= 7;
        }
        b[k++] = (uint8_t)v;
        if (cm_buf_reserve(out, k - 1)) {
            memmove(out->data + start + k - 1, out->data + start, n);
            memcpy(out->data + at, b, k);
            out->len += k - 1;
        }
    } else if (!out->failed) {
        out->data[at] = (uint8_t)n;
    }
    if (out->failed)
        return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the write is larger than its buffer allows");
    s->rows[w]++;
    s->n++;
    return true;
}

uint32_t df_write_shards_count(const df_write_shards_t *s)
{
    return s->n;
}

bool df_write_shards_end(df_write_shards_t *const *parts, int n, cm_buf_t *out, cm_err_t *err)
{
    const df_write_shards_t *s = parts[0];
    uint64_t rows = 0;
    size_t total = 0;
    for (int k = 0; k < n; k++) {
        if (parts[k]->nshards != s->nshards || parts[k]->ncols != s->ncols || parts[k]->table != s->table)
            return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "sharded rows of different writes put together");
        rows += parts[k]->n;
        for (int i = 0; i < s->nshards; i++)
            total += parts[k]->sections[i].len;
    }
    if (rows > UINT32_MAX)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a write of more than %u rows", UINT32_MAX);
    cm_buf_put_u8(out, 2);
    cm_buf_put_be64(out, s->table);
    cm_buf_put_be32(out, 0xFFFFFFFFu);
    cm_buf_put_be32(out, (uint32_t)s->ncols);
    for (int i = 0; i < s->ncols; i++)
        cm_buf_put_be32(out, s->types[i]);
    cm_buf_put_be32(out, (uint32_t)rows);
    cm_buf_put_be32(out, (uint32_t)s->nshards);
    cm_buf_reserve(out, total + 12 * (size_t)s->nshards);
    for (int i = 0; i < s->nshards; i++) {
        uint32_t nrows = 0;
        size_t len = 0;
        for (int k = 0; k < n; k++) {
            nrows += parts[k]->rows[i];
            len += parts[k]->sections[i].len;
        }
        cm_buf_put_be32(out, nrows);
        cm_buf_put_be64(out, len);
        for (int k = 0; k < n; k++)
            cm_buf_put(out, parts[k]->sections[i].data, parts[k]->sections[i].len);
    }
    if (out->failed)
        return cm_err_set(err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the write is larger than its buffer allows");
    return true;
}

static bool df__get_varint(const uint8_t *p, size_t n, size_t *at, size_t *out)
{
    uint64_t v = 0;
    for (int shift = 0; shift < 64 && *at < n; shift += 7) {
        uint8_t b = p[(*at)++];
        v |= (uint64_t)(b & 0x7F) << shift;
        if (b < 0x80) {
            *out = (size_t)v;
            return true;
        }
    }
    return false;
}

bool df_write_shard_record_any(const df_write_shard_t *s, size_t *at, const uint8_t **key, size_t *klen,
                               const uint8_t **row, size_t *rlen, cm_err_t *err)
{
    if (!df__get_varint(s->bytes, s->len, at, klen) || *klen > s->len - *at)
        return cm_err_set(err, "XX001", "invalid write: bad record at byte %zu of a shard", *at);
    *key = s->bytes + *at;
    *at += *klen;
    if (!df__get_varint(s->bytes, s->len, at, rlen) || *rlen > s->len - *at)
        return cm_err_set(err, "XX001", "invalid write: bad record at byte %zu of a shard", *at);
    *row = s->bytes + *at;
    *at += *rlen;
    return true;
}

typedef struct df__rd {
    const uint8_t *p;
    size_t n, at;
    bool failed;
} df__rd_t;

static const uint8_t *df__rd_take(df__rd_t *r, size_t k)
{
    if (r->failed || r->n - r->at < k) {
        r->failed = true;
        return NULL;
    }
    const uint8_t *q = r->p + r->at;
    r->at += k;
    return q;
}

static uint32_t df__rd_u32(df__rd_t *r)
{
    const uint8_t *q = df__rd_take(r, 4);
    return q ? (uint32_t)q[0] << 24 | (uint32_t)q[1] << 16 | (uint32_t)q[2] << 8 | q[3] : 0;
}

static uint64_t df__rd_u64(df__rd_t *r)
{
    uint64_t hi = df__rd_u32(r);
    return hi << 32 | df__rd_u32(r);
}

/* A sharded part's sections: framing only; each worker reads the records of its own. */
static bool df__write_shards_decode(df__rd_t *r, cm_arena_t *arena, df_write_part_t *out, cm_err_t *err)
{
    out->nshards = df__rd_u32(r);
    if (!r->failed && (out->nshards == 0 || out->nshards > (r->n - r->at) / 12))
        r->failed = true;
    if (r->failed)
        return cm_err_set(err, "XX001", "invalid write: truncated at byte %zu", r->at);
    out->shards = cm_arena_zalloc(arena, sizeof *out->shards * out->nshards);
    uint64_t total = 0;
    for (uint32_t i = 0; i < out->nshards && !r->failed; i++) {
        df_write_shard_t *sh = &out->shards[i];
        sh->nrows = df__rd_u32(r);
        uint64_t len = df__rd_u64(r);
        if (!r->failed && len > r->n - r->at)
            r->failed = true;
        sh->len = (size_t)len;
        sh->bytes = df__rd_take(r, sh->len);
        /* A record takes at least its two lengths. */
        if (!r->failed && sh->nrows > sh->len / 2)
            r->failed = true;
        total += sh->nrows;
    }
    if (r->failed || total != out->nrows)
        return cm_err_set(err, "XX001", "invalid write: bad shards at byte %zu", r->at);
    return true;
}

static bool df__write_part_decode(df__rd_t *r, cm_arena_t *arena, df_write_part_t *out, cm_err_t *err)
{
    const uint8_t *flag = df__rd_take(r, 1);
    if (flag && *flag > 3)
        return cm_err_set(err, "XX001", "invalid write: part flags %u", *flag);
    out->truncate = flag && (*flag & 1);
    bool sharded = flag && (*flag & 2);
    out->table = df__rd_u64(r);
    uint32_t clen = df__rd_u32(r);
    if (clen != 0xFFFFFFFFu) {
        const uint8_t *c = df__rd_take(r, clen);
        if (c)
            out->constraint = cm_arena_strndup(arena, (const char *)c, clen);
    }
    out->ncols = df__rd_u32(r);
    if (!r->failed && out->ncols > (r->n - r->at) / 4)
        r->failed = true;
    ty_oid_t *types = cm_arena_alloc(arena, sizeof(ty_oid_t) * (out->ncols ? out->ncols : 1));
    for (uint32_t i = 0; i < out->ncols && !r->failed; i++)
        types[i] = df__rd_u32(r);
    out->types = types;
    out->nrows = df__rd_u32(r);
    if (sharded)
        return df__write_shards_decode(r, arena, out, err);
    if (!r->failed && out->nrows > (r->n - r->at) / 12)
        r->failed = true;
    if (r->failed)
        return cm_err_set(err, "XX001", "invalid write: truncated at byte %zu", r->at);
    size_t k = out->nrows ? out->nrows : 1;
    out->rows = cm_arena_alloc(arena, sizeof *out->rows * k);
    out->lens = cm_arena_alloc(arena, sizeof *out->lens * k);
    out->diffs = cm_arena_alloc(arena, sizeof *out->diffs * k);
    for (uint32_t i = 0; i < out->nrows && !r->failed; i++) {
        out->diffs[i] = (int64_t)df__rd_u64(r);
        out->lens[i] = df__rd_u32(r);
        out->rows[i] = df__rd_take(r, out->lens[i]);
    }
    if (r->failed)
        return cm_err_set(err, "XX001", "invalid write: truncated at byte %zu", r->at);
    return true;
}

bool df_write_decode(const uint8_t *p, size_t n, cm_arena_t *arena, df_write_t *out, cm_err_t *err)
{
    memset(out, 0, sizeof *out);
    df__rd_t r = {.p = p, .n = n};
    const uint8_t *magic = df__rd_take(&r, 4);
    if (!magic || memcmp(magic, DF_WRITE_MAGIC, 4) != 0)
        return cm_err_set(err, "XX001", "invalid write: no " DF_WRITE_MAGIC " header");
    const uint8_t *flag = df__rd_take(&r, 1);
    out->check_only = flag && *flag == 1;
    if (flag && *flag > 1)
        return cm_err_set(err, "XX001", "invalid write: check flag %u", *flag);
    out->nparts = df__rd_u32(&r);
    /* A part takes at least 21 bytes: the count cannot promise more than the body holds. */
    if (r.failed || out->nparts > (r.n - r.at) / 21)
        return cm_err_set(err, "XX001", "invalid write: %u parts in %zu bytes", out->nparts, r.n - r.at);
    out->parts = cm_arena_zalloc(arena, sizeof *out->parts * (out->nparts ? out->nparts : 1));
    for (uint32_t i = 0; i < out->nparts; i++)
        if (!df__write_part_decode(&r, arena, &out->parts[i], err))
            return false;
    if (r.at != r.n)
        return cm_err_set(err, "XX001", "invalid write: trailing bytes at byte %zu", r.at);
    return true;
}

void df_peek_computed_begin(cm_buf_t *out)
{
    cm_buf_put(out, DF_PEEK_COMPUTED_MAGIC, 4);
}

void df_peek_lookups_begin(cm_buf_t *out, uint32_t nlookups)
{
    cm_buf_put(out, DF_PEEK_LOOKUP_MAGIC, 4);
    cm_buf_put_be32(out, nlookups);
}

bool df_peek_lookup_add(cm_buf_t *out, uint64_t item, const ty_oid_t *types, int ncols, ty_datum_t *const *rows,
                        int nrows, ty_ctx_t *ctx)
{
    cm_buf_put_be64(out, item);
    cm_buf_put_be32(out, (uint32_t)ncols);
    cm_buf_put_be32(out, (uint32_t)nrows);
    cm_buf_t row;
    cm_buf_init(&row, 0);
    bool ok = true;
    for (int r = 0; r < nrows && ok; r++) {
        cm_buf_reset(&row);
        ok = df__row_encode(types, ncols, rows[r], ctx, &row);
        cm_buf_put_be32(out, (uint32_t)row.len);
        cm_buf_put(out, row.data, row.len);
    }
    cm_buf_free(&row);
    if (ok && out->failed)
        ok = cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "the read is larger than its buffer allows");
    return ok;
}

const df_peek_lookup_t *df_peek_lookup_of(const df_peek_t *pk, uint64_t item)
{
    for (uint32_t j = 0; j < pk->nlookups; j++)
        if (pk->lookups[j].item == item)
            return &pk->lookups[j];
    return NULL;
}

bool df_peek_decode(const uint8_t *p, size_t n, cm_arena_t *arena, df_peek_t *out, cm_err_t *err)
{
    memset(out, 0, sizeof *out);
    if (n >= 4 && memcmp(p, DF_PEEK_COMPUTED_MAGIC, 4) == 0) {
        out->computed = true;
        out->plan = p + 4;
        out->plan_len = n - 4;
        return true;
    }
    if (n < 4 || memcmp(p, DF_PEEK_LOOKUP_MAGIC, 4) != 0) {
        out->plan = p;
        out->plan_len = n;
        return true;
    }
    df__rd_t r = {.p = p, .n = n, .at = 4};
    out->nlookups = df__rd_u32(&r);
    /* A lookup takes at least 16 bytes: the count cannot promise more than the body holds. */
    if (r.failed || out->nlookups > (r.n - r.at) / 16)
        return cm_err_set(err, "XX001", "invalid read: %u lookups in %zu bytes", out->nlookups, r.n - r.at);
    out->lookups = cm_arena_zalloc(arena, sizeof *out->lookups * (out->nlookups ? out->nlookups : 1));
    for (uint32_t i = 0; i < out->nlookups && !r.failed; i++) {
        df_peek_lookup_t *l = &out->lookups[i];
        l->item = df__rd_u64(&r);
        l->ncols = df__rd_u32(&r);
        l->nrows = df__rd_u32(&r);
        if (r.failed || l->nrows > (r.n - r.at) / 4)
            break;
        size_t k = l->nrows ? l->nrows : 1;
        l->rows = cm_arena_alloc(arena, sizeof *l->rows * k);
        l->lens = cm_arena_alloc(arena, sizeof *l->lens * k);
        for (uint32_t j = 0; j < l->nrows && !r.failed; j++) {
            l->lens[j] = df__rd_u32(&r);
            l->rows[j] = df__rd_take(&r, l->lens[j]);
        }
    }
    if (r.failed)
        return cm_err_set(err, "XX001", "invalid read: truncated at byte %zu", r.at);
    out->plan = p + r.at;
    out->plan_len = n - r.at;
    return true;
}

size_t df_peek_part_begin(cm_buf_t *out, uint64_t table)
{
    cm_buf_put_be64(out, table);
    size_t at = out->len;
    cm_buf_put_be32(out, 0);
    return at;
}

void df_peek_part_row(cm_buf_t *out, const uint8_t *row, size_t len, int64_t diff)
{
    cm_buf_put_be64(out, (uint64_t)diff);
    cm_buf_put_be32(out, (uint32_t)len);
    cm_buf_put(out, row, len);
}

void df_peek_part_end(cm_buf_t *out, size_t begin, uint32_t rows)
{
    if (out->failed || begin + 4 > out->len)
        return;
    out->data[begin] = (uint8_t)(rows >> 24);
    out->data[begin + 1] = (uint8_t)(rows >> 16);
    out->data[begin + 2] = (uint8_t)(rows >> 8);
    out->data[begin + 3] = (uint8_t)rows;
}

bool df_peek_rows(const df_reply_t *rep, uint64_t table, const ty_oid_t *types, int ncols, ty_ctx_t *ctx,
                  ty_datum_t ***rows, int *nrows)
{
    int cap = 16, n = 0;
    ty_datum_t **all = cm_arena_alloc(ctx->arena, sizeof *all * (size_t)cap);
    for (int w = 0; w < rep->nworkers; w++) {
        const cm_buf_t *b = &rep->parts[w].bytes;
        if (b->failed)
            return cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "worker %d's answer did not fit its buffer", w);
        df__rd_t r = {.p = b->data, .n = b->len};
        while (r.at < r.n && !r.failed) {
            uint64_t id = df__rd_u64(&r);
            uint32_t k = df__rd_u32(&r);
            for (uint32_t i = 0; i < k && !r.failed; i++) {
                int64_t diff = (int64_t)df__rd_u64(&r);
                uint32_t len = df__rd_u32(&r);
                const uint8_t *p = df__rd_take(&r, len);
                if (!p || id != table)
                    continue;
                if (diff < 0)
                    return cm_err_set(ctx->err, CM_ERRCODE_INTERNAL_ERROR,
                                      "worker %d holds a row of relation %llu %lld times", w,
                                      (unsigned long long)table, (long long)diff);
                ty_datum_t *row = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(ncols ? ncols : 1));
                if (!df__row_decode(types, ncols, p, len, DF_ROW_COPY, ctx, row))
                    return false;
                for (int64_t d = 0; d < diff; d++) {
                    if (n == cap) {
                        ty_datum_t **g = cm_arena_alloc(ctx->arena, sizeof *g * (size_t)cap * 2);
                        memcpy(g, all, sizeof *g * (size_t)n);
                        all = g;
                        cap *= 2;
                    }
                    all[n++] = row;
                }
            }
        }
        if (r.failed)
            return cm_err_set(ctx->err, "XX001", "worker %d's answer is truncated", w);
    }
    *rows = all;
    *nrows = n;
    return true;
}
