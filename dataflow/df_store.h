/*
 * df_store.h: the engine's storage layer, internal to dataflow/.
 *
 * Everything an operator, a table or a read keeps lives here as bytes:
 *   - keys (df_key.c, df_key_json.c): datums encoded so that memcmp orders
 *     them as ty_datum_compare does, so sort, merge, seek and equality need no
 *     types; a 64-bit hash of those bytes shards them;
 *   - rows (df_row.c): a compact, deterministic, exact encoding of a row of
 *     datums, decoded back into an arena for expression evaluation;
 *   - batches (df_batch.c, df_merge.c, df_reclaim.c): immutable,
 *     reference-counted, consolidated (key, value, diff) updates as flat
 *     sorted columns in one allocation, with a builder, a fueled two-batch
 *     merger, a cursor, and memory given back a bounded amount at a time;
 *   - spines (df_spine.c) and snapshots (df_snap.c): one shard of an
 *     arrangement as batches of geometrically growing sizes merged a bounded
 *     amount per insert, and what readers hold while merging goes on.
 * docs/architecture.md ("Engine: storage") describes the formats.
 *
 * Threads: a spine, a builder and a merger belong to one thread (their
 * worker). Batches and snapshots are immutable and their reference counts
 * atomic, so they may be read and released on any thread.
 */
#ifndef EDDY_DF_STORE_H
#define EDDY_DF_STORE_H

#include "common/common.h"
#include "types/types.h"

#include <stdatomic.h>
#include <string.h>

/* ====================================================================
 * Keys (df_key.c)
 * ==================================================================== */

/*
 * One column of a key: which column of the row it is read from, its type,
 * and how it sorts. ASC NULLS LAST is the zero value (PostgreSQL's default
 * for ASC); DESC alone means DESC NULLS LAST here, so a caller wanting
 * PostgreSQL's DESC default sets nulls_first too.
 */
typedef struct df_keycol {
    int col;            /* index into the row */
    ty_oid_t type;
    bool desc;          /* order reversed: the column's bytes are inverted */
    bool nulls_first;   /* NULL before every value (else after) */
} df_keycol_t;

/* The first byte of a NULL key column (never the first byte of a value). */
#define DF_KEY_NULL_FIRST 0x00
#define DF_KEY_NULL_LAST 0xFF

/*
 * True if values of the type can be keyed: every type ty_datum_compare
 * orders (types/ty_compare.c), arrays of them and records. false with 42883
 * "could not identify an ordering operator for type void" otherwise.
 */
bool df__key_type_check(ty_oid_t type, cm_err_t *err);
bool df__key_check(const df_keycol_t *cols, int ncols, cm_err_t *err);

/*
 * Appends the key of row (its columns cols[0..ncols)) to out. Each column
 * is self-delimiting, so the concatenation compares column by column:
 * memcmp(enc(r1), enc(r2)) has the sign of the first non-zero
 * ty_datum_compare of the columns (negated for DESC), and the bytes are
 * equal exactly when every column is equal under SQL (1.0 = 1.00,
 * '1 day' = '24 hours', 'a ' = 'a' for bpchar, -0 = 0, NaN = NaN).
 * Numeric and jsonb use ctx->arena for scratch (reset it between chunks);
 * errors (an unkeyable type, a corrupt jsonb) go to ctx->err. Keys are not
 * decodable: the row travels in the value.
 */
bool df__key_encode(const df_keycol_t *cols, int ncols, const ty_datum_t *row, ty_ctx_t *ctx, cm_buf_t *out);
/* The ascending key of an integer of 64 bits (any integer type's) at b: at most 9 bytes, its length. */
size_t df__key_int64_to(uint8_t *b, int64_t v);
/* One datum as one key column. */
bool df__key_encode_datum(ty_oid_t type, bool desc, bool nulls_first, const ty_datum_t *d, ty_ctx_t *ctx,
                          cm_buf_t *out);

/* The order-preserving integer used for every integer-like type (also by
 * callers that key on a count or a step): 1 to 17 bytes, first byte in
 * 0x6F..0x90. */
void df__key_put_int(cm_buf_t *out, __int128 v);
/* A byte string: escaped (0x00 -> 00 FF) and terminated by 00 01. */
void df__key_put_bytes(cm_buf_t *out, const uint8_t *p, size_t len);
/* A decimal number as text ("-12.50", "1e3", "NaN", "Infinity"); false if malformed. */
bool df__key_put_decimal(cm_buf_t *out, const char *p, size_t len);
/* jsonb (df_key_json.c): PostgreSQL's jsonb btree order as eddy compares it. */
bool df__key_put_jsonb(cm_buf_t *out, const char *p, size_t len, ty_ctx_t *ctx);

/* Compares two byte strings as keys (and values) are ordered: memcmp, then
 * the shorter first. */
static inline int df__bytes_cmp(const uint8_t *a, size_t al, const uint8_t *b, size_t bl)
{
    size_t n = al < bl ? al : bl;
    /* Keys are mostly short: compare the first 8 bytes as one big-endian
     * word before calling memcmp, which costs more than a short key. */
    if (n >= 8) {
        uint64_t x, y;
        memcpy(&x, a, 8);
        memcpy(&y, b, 8);
        if (x != y) {
#if __BYTE_ORDER__ == __ORDER_LITTLE_ENDIAN__
            x = __builtin_bswap64(x);
            y = __builtin_bswap64(y);
#endif
            return x < y ? -1 : 1;
        }
        int c = memcmp(a + 8, b + 8, n - 8);
        if (c != 0)
            return c;
    } else {
        for (size_t i = 0; i < n; i++)
            if (a[i] != b[i])
                return a[i] < b[i] ? -1 : 1;
    }
    return al < bl ? -1 : al > bl;
}

/* The 64-bit hash of encoded key bytes, for sharding (stable across runs and machines). */
uint64_t df__hash(const void *p, size_t len);

/* ====================================================================
 * Rows (df_row.c)
 * ==================================================================== */

/*
 * A row of ncols datums of the given types as bytes: a NULL bitmap
 * ((ncols + 7) / 8 bytes, bit i of byte i / 8 set for a NULL column i),
 * then each non-NULL column. Exact (numeric keeps its display scale,
 * '24 hours' stays '24 hours', -0 stays -0, bpchar keeps its spaces) and
 * deterministic (equal datums give equal bytes; NaN has one form), so
 * consolidation compares rows as bytes. false with ctx->err for a type it
 * cannot hold.
 */
bool df__row_encode(const ty_oid_t *types, int ncols, const ty_datum_t *row, ty_ctx_t *ctx, cm_buf_t *out);
/* An integer column's bytes in a row (zigzag varint) at b: at most 10 bytes, its length. */
size_t df__row_zigzag_to(uint8_t *b, int64_t v);

/* How decoded strings refer to their bytes. */
typedef enum df_row_mem {
    DF_ROW_COPY = 0,    /* every string is copied into ctx->arena */
    DF_ROW_BORROW,      /* strings point into the encoded bytes: valid while they are (a batch held) */
} df_row_mem_t;

/*
 * Decodes the row encoding p[0..len) into row[0..ncols); numerics, arrays
 * and records (and strings when copying) go into ctx->arena. The bytes must
 * be fully consumed; anything else is XX001 "corrupt row".
 */
bool df__row_decode(const ty_oid_t *types, int ncols, const uint8_t *p, size_t len, df_row_mem_t mem,
                    ty_ctx_t *ctx, ty_datum_t *row);

/* ====================================================================
 * Batches (df_batch.c, df_merge.c)
 * ==================================================================== */

/*
 * A batch: consolidated updates (key, value, diff) of the steps
 * [lower, upper). Keys are distinct and sorted by memcmp (shorter first on a
 * common prefix); each key's values are distinct and sorted the same way;
 * no diff is zero and no key is without values. One allocation of `size`
 * bytes: this header, then columns at the byte offsets named here (from the
 * start of the header, each 8-aligned), so the whole thing is position
 * independent and can be written out as it is:
 *   key_off  nkeys + 1 offsets into the key bytes        (width ow: 4 or 8)
 *   key_val  nkeys + 1 value indexes: key i has values [key_val[i], key_val[i+1]);
 *            absent (key_val_at 0) when every key has exactly one value (key i: value i)
 *   val_off  nvals + 1 offsets into the value bytes
 *   diff     nvals int64 diffs; absent (diff_at 0) when every diff is +1
 *   key bytes, value bytes
 * refs is the only field that changes after the batch is built.
 */
typedef struct df_batch {
    atomic_uint refs;
    uint32_t magic;              /* DF_BATCH_MAGIC */
    uint64_t size;               /* bytes of the allocation, header included */
    uint64_t lower, upper;       /* step range covered */
    uint64_t nkeys, nvals;       /* nvals = records */
    uint64_t key_off_at, key_val_at, val_off_at, diff_at, key_bytes_at, val_bytes_at;
    uint32_t ow;                 /* width of key_off, key_val, val_off: 4 or 8 */
    uint32_t alloc;              /* how this process allocated it (DF_BATCH_HEAP, DF_BATCH_MAPPED); like refs, not part of the image */
} df_batch_t;

#define DF_BATCH_MAGIC 0x45444231u   /* "EDB1" */
enum { DF_BATCH_HEAP = 0, DF_BATCH_MAPPED = 1 };

void df__batch_ref(df_batch_t *b);
/* The last reference releases it (df__batch_release); any thread; NULL ok. */
void df__batch_unref(df_batch_t *b);

/*
 * Batch memory (df_reclaim.c). A batch of 256 KiB or more is a mapping of its
 * own; when released it waits on a process-wide list until fuel unmaps it a
 * page per unit, so no thread pays for freeing a big batch at once. Smaller
 * ones are malloc'd and freed at once. df__batch_alloc gives memory whose
 * header is zeroed (all of it, when mapped).
 */
df_batch_t *df__batch_alloc(uint64_t size);
void df__batch_release(df_batch_t *b);
/* Unmaps up to *fuel pages of released batches; true while some remain. */
bool df__reclaim_work(int64_t *fuel);
uint64_t df__reclaim_pending(void);   /* bytes released but still mapped */
void df__reclaim_all(void);           /* everything now (tests, shutdown) */

static inline uint64_t df__batch_col(const df_batch_t *b, uint64_t at, uint64_t i)
{
    const uint8_t *p = (const uint8_t *)b + at;
    return b->ow == 4 ? ((const uint32_t *)p)[i] : ((const uint64_t *)p)[i];
}
static inline const uint8_t *df__batch_key(const df_batch_t *b, uint64_t i, size_t *len)
{
    uint64_t lo = df__batch_col(b, b->key_off_at, i), hi = df__batch_col(b, b->key_off_at, i + 1);
    *len = (size_t)(hi - lo);
    return (const uint8_t *)b + b->key_bytes_at + lo;
}
/* Key i's values are [df__batch_vals_lo(b, i), df__batch_vals_lo(b, i + 1)). */
static inline uint64_t df__batch_vals_lo(const df_batch_t *b, uint64_t i)
{
    return b->key_val_at ? df__batch_col(b, b->key_val_at, i) : i;
}
static inline const uint8_t *df__batch_val(const df_batch_t *b, uint64_t j, size_t *len)
{
    uint64_t lo = df__batch_col(b, b->val_off_at, j), hi = df__batch_col(b, b->val_off_at, j + 1);
    *len = (size_t)(hi - lo);
    return (const uint8_t *)b + b->val_bytes_at + lo;
}
static inline int64_t df__batch_diff(const df_batch_t *b, uint64_t j)
{
    return b->diff_at ? ((const int64_t *)((const uint8_t *)b + b->diff_at))[j] : 1;
}

/*
 * The batch writer that the builder and the merger share: their walks
 * emit consolidated records in order twice, first to count (b NULL), then,
 * after df__bw_alloc laid the batch out with exact sizes, to write.
 */
typedef struct df_bw {
    df_batch_t *b;               /* NULL while counting */
    uint64_t nkeys, nvals, kbytes, vbytes;
    bool ones;                   /* every diff so far is +1 */
    bool unique;                 /* every key so far has one value */
} df_bw_t;

void df__bw_init(df_bw_t *w);
/* A record; new_key: its key differs from the previous record's. diff is never 0. */
void df__bw_put(df_bw_t *w, bool new_key, const uint8_t *key, size_t klen, const uint8_t *val, size_t vlen,
                int64_t diff);
/* Keys [k0, k1) of src with all their values, as df__bw_put of each would
 * (the first of them is a new key): what merges do with runs of keys only
 * one input has. */
void df__bw_copy(df_bw_t *w, const df_batch_t *src, uint64_t k0, uint64_t k1);
/* After counting: allocates the batch and starts the writing pass. */
void df__bw_alloc(df_bw_t *w, uint64_t lower, uint64_t upper);
/* After writing: the batch, with one reference. */
df_batch_t *df__bw_done(df_bw_t *w);
/* Tests: lay every batch out with 8-byte offsets, as one past 4 GiB would be. */
extern bool df__batch_force_wide;

/* The empty batch of [lower, upper). */
df_batch_t *df__batch_empty(uint64_t lower, uint64_t upper);

/*
 * Checks that p[0..len) is a well-formed batch image (as read from a socket
 * or a file): sizes, offsets and order. On success returns a new batch (a
 * copy with one reference); NULL with XX001 otherwise.
 */
df_batch_t *df__batch_from_image(const void *p, size_t len, cm_err_t *err);

/*
 * The builder: updates in any order, each key and value copied into its
 * arena, then sorted and consolidated into one batch. Reusable after
 * finish; free releases it.
 */
typedef struct df_upd df_upd_t;
typedef struct df_builder {
    cm_arena_t arena;
    df_upd_t *upds;
    size_t n, cap;
} df_builder_t;

void df__builder_init(df_builder_t *bl);
void df__builder_free(df_builder_t *bl);
void df__builder_add(df_builder_t *bl, const void *key, size_t klen, const void *val, size_t vlen, int64_t diff);
/* The same without a copy: key and val must stay as they are until finish. */
void df__builder_add_ref(df_builder_t *bl, const void *key, size_t klen, const void *val, size_t vlen, int64_t diff);
/* Room for n more updates (a caller that knows how many come saves growing the array). */
void df__builder_reserve(df_builder_t *bl, size_t n);
size_t df__builder_count(const df_builder_t *bl);
/* The consolidated batch (possibly empty) with one reference; the builder is empty again. */
df_batch_t *df__builder_finish(df_builder_t *bl, uint64_t lower, uint64_t upper);
/* The updates as they were added, neither sorted nor consolidated (a run of equal keys is one key):
 * only for a delta whose readers route each row on (a reduce), never for an arrangement. */
df_batch_t *df__builder_finish_unsorted(df_builder_t *bl, uint64_t lower, uint64_t upper);

/*
 * A merge of two batches into one, consolidating (diffs of equal (key,
 * value) summed, zeros and empty keys dropped), done a bounded amount at a
 * time: a counting pass sizes the output exactly, a second pass writes it.
 * The inputs are never changed (readers may hold them).
 */
typedef struct df_merger df_merger_t;

/* Takes a reference to each input. */
df_merger_t *df__merger_new(df_batch_t *a, df_batch_t *b);
/*
 * Does up to *fuel units of work (one unit: an input record or key visited,
 * or a bounded number of bytes copied), lowering *fuel by what it did.
 * true once the merge is complete.
 */
bool df__merger_work(df_merger_t *m, int64_t *fuel);
/* After work returned true: the merged batch (one reference); frees the merger. */
df_batch_t *df__merger_finish(df_merger_t *m);
/* Drops a merger whatever its state, and its references. */
void df__merger_free(df_merger_t *m);
/* Bytes the merger holds beyond its inputs (the output being written). */
size_t df__merger_bytes(const df_merger_t *m);
/* Both inputs of a merger (borrowed). */
df_batch_t *df__merger_input(const df_merger_t *m, int i);
/* The whole merge at once: a new batch with one reference. */
df_batch_t *df__batch_merge(df_batch_t *a, df_batch_t *b);

/*
 * A cursor over one batch. Keys in order; within a key, its values in order
 * with their diffs. Seeking moves to the first key >= the one sought.
 */
typedef struct df_bcur {
    const df_batch_t *b;         /* borrowed: the caller holds a reference */
    uint64_t key;                /* current key index; nkeys when past the end */
    uint64_t val, val_end;       /* current value index and the current key's end */
} df_bcur_t;

void df__bcur_init(df_bcur_t *c, const df_batch_t *b);
static inline bool df__bcur_key_valid(const df_bcur_t *c) { return c->key < c->b->nkeys; }
static inline const uint8_t *df__bcur_key(const df_bcur_t *c, size_t *len) { return df__batch_key(c->b, c->key, len); }
void df__bcur_key_next(df_bcur_t *c);
/* Moves to the first key >= key at or after the current one; true if equal to it. */
bool df__bcur_seek(df_bcur_t *c, const uint8_t *key, size_t len);
static inline bool df__bcur_val_valid(const df_bcur_t *c) { return c->val < c->val_end; }
static inline const uint8_t *df__bcur_val(const df_bcur_t *c, size_t *len) { return df__batch_val(c->b, c->val, len); }
static inline int64_t df__bcur_diff(const df_bcur_t *c) { return df__batch_diff(c->b, c->val); }
static inline void df__bcur_val_next(df_bcur_t *c) { c->val++; }
void df__bcur_val_rewind(df_bcur_t *c);

/* ====================================================================
 * Snapshots and their merged cursor (df_snap.c)
 * ==================================================================== */

/* A reference-counted set of batches: one shard's contents at one moment. */
typedef struct df_snap {
    atomic_uint refs;
    uint32_t nbatches;
    uint64_t records;            /* sum of the batches' records (before cross-batch consolidation) */
    df_batch_t *batches[];       /* one reference each */
} df_snap_t;

/* A snapshot of n batches, taking a reference to each. */
df_snap_t *df__snap_new(df_batch_t *const *batches, uint32_t n);
void df__snap_ref(df_snap_t *s);
void df__snap_unref(df_snap_t *s);   /* any thread; NULL ok */

/*
 * A cursor over a snapshot: the union of its batches, consolidated on the
 * fly. Keys in order; a key is shown only if some value's diffs summed over
 * the batches are not zero, and only such values are shown, each once with
 * that sum.
 */
typedef struct df_scur {
    df_snap_t *snap;             /* a reference held */
    df_bcur_t *bc;               /* one per batch */
    uint32_t n;
    uint32_t *kact, nkact;       /* batches positioned at the current key */
    uint32_t *vact, nvact;       /* of those, the ones at the current value */
    const uint8_t *key, *val;
    size_t klen, vlen;
    int64_t diff;
    bool key_ok, val_ok;
} df_scur_t;

void df__scur_init(df_scur_t *c, df_snap_t *s);   /* at the first key; takes a reference */
void df__scur_free(df_scur_t *c);
static inline bool df__scur_key_valid(const df_scur_t *c) { return c->key_ok; }
static inline const uint8_t *df__scur_key(const df_scur_t *c, size_t *len) { *len = c->klen; return c->key; }
void df__scur_key_next(df_scur_t *c);
/* First key >= key at or after the current one; true if it is that key. */
bool df__scur_seek(df_scur_t *c, const uint8_t *key, size_t len);
static inline bool df__scur_val_valid(const df_scur_t *c) { return c->val_ok; }
static inline const uint8_t *df__scur_val(const df_scur_t *c, size_t *len) { *len = c->vlen; return c->val; }
static inline int64_t df__scur_diff(const df_scur_t *c) { return c->diff; }
void df__scur_val_next(df_scur_t *c);
void df__scur_val_rewind(df_scur_t *c);

/* ====================================================================
 * Spines (df_spine.c)
 * ==================================================================== */

/*
 * Fuel granted to every merge in progress per inserted record (counted as
 * the capacity of the level the batch joins). A merge at level L visits at
 * most 2^(L+1) records and their keys twice (count, then write): at most
 * 8 * 2^L units, and the counter inserts 2^L records' worth before level L
 * is needed again.
 */
#define DF_SPINE_EFFORT 8
#define DF_SPINE_LEVELS 64

typedef struct df_spine_level {
    df_batch_t *batch;           /* a settled batch, or (beside a merge) one waiting for it, or NULL */
    df_merger_t *merge;          /* a merge in progress (its output goes up a level), or NULL */
} df_spine_level_t;

typedef struct df_spine {
    df_spine_level_t *levels;    /* allocated on first insert */
    int nlevels;
    df_snap_t *snap;             /* the current contents, cached until they change */
    uint64_t lower, upper;       /* steps covered by what was inserted */
    /* Cumulative counters. */
    uint64_t inserts, merges_started, merges_done, merges_forced;
    uint64_t work;               /* fuel units spent */
    /* What this spine last added to its thread's arranged totals (df__spine_arranged). */
    uint64_t acct_records, acct_bytes;
} df_spine_t;

typedef struct df_spine_stats {
    uint64_t records;            /* records in the spine's batches */
    uint64_t batches;            /* batches readers see (merge inputs count, outputs do not) */
    uint64_t bytes;              /* bytes held, in-progress merge outputs included */
    uint64_t merges;             /* merges in progress */
} df_spine_stats_t;

void df__spine_init(df_spine_t *s);
void df__spine_free(df_spine_t *s);
/*
 * Adds a batch (takes the caller's reference; an empty one is dropped):
 * first every merge in progress does DF_SPINE_EFFORT units of work per
 * record of b's level L (2^L, the smallest power of two >= its records;
 * highest level first), then b joins that level,
 * starting a merge if the level holds a batch, or waiting beside the
 * level's merge; then as many pages of released batches as units granted
 * are unmapped. A merge still unfinished when a second batch waits for it
 * is completed then (counted in merges_forced).
 */
void df__spine_insert(df_spine_t *s, df_batch_t *b);
/*
 * Work for an idle worker: up to fuel units on the merges in progress,
 * highest level first; with none left, merges the two smallest batches, so that
 * a quiet spine ends as one consolidated batch; then unmaps released batches
 * (df__reclaim_work). true while work remains.
 */
bool df__spine_idle_work(df_spine_t *s, int64_t fuel);
/* The same, taking its units from *fuel (what is left stays there), to share one budget among spines. */
bool df__spine_idle_spend(df_spine_t *s, int64_t *fuel);
/* The current contents as a snapshot (a new reference); merges go on beside it. */
df_snap_t *df__spine_snapshot(df_spine_t *s);
void df__spine_stats(const df_spine_t *s, df_spine_stats_t *out);
/*
 * The records and bytes of every spine the calling thread holds (a worker's
 * arrangements): each insert, idle merge and free adds its change to
 * thread-local totals, so a worker can publish them after each batch
 * without walking its dataflows.
 */
void df__spine_arranged(int64_t *records, int64_t *bytes);

#endif
