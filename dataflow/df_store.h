/*
 * df_store.h: the engine's storage layer, internal to dataflow/.
 *
 * Everything an operator, a table or a read keeps lives here as bytes:
 *   - keys (df_key.c, df_key_json.c): datums encoded so that memcmp orders
 *     them as ty_datum_compare does, so sort, merge, seek and equality need no
 *     types; a 64-bit hash of those bytes shards them;
 *   - rows (df_row.c): a compact, deterministic, exact encoding of a row of
 *     datums, decoded back into an arena for expression evaluation.
 */
#ifndef EDDY_DF_STORE_H
#define EDDY_DF_STORE_H

#include "common/common.h"
#include "types/types.h"

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
    int c = n ? memcmp(a, b, n) : 0;
    if (c != 0)
        return c;
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

#endif
