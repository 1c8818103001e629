/*
 * ty_record.c: values of type record (anonymous composites: ROW(1, 'a'),
 * (a, b)): building them, PostgreSQL's text form (record_out) and binary
 * form (record_send), the total order and hash that ORDER BY, DISTINCT
 * and set operations use (record_cmp's: column by column, a NULL column
 * after any value and equal to another NULL), and the record = record
 * family of operators with PostgreSQL's errors for mismatched records.
 *
 * Input is refused as PostgreSQL refuses it for anonymous records: without
 * a declared row type there are no column types to read the text with.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <string.h>

ty_datum_t ty_record_make(cm_arena_t *a, int n, const ty_oid_t *types, const ty_datum_t *items)
{
    ty_record_t *r = cm_arena_zalloc(a, sizeof(*r));
    ty_oid_t *t = cm_arena_alloc(a, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    ty_datum_t *v = cm_arena_alloc(a, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
    if (n > 0) {
        memcpy(t, types, sizeof(ty_oid_t) * (size_t)n);
        memcpy(v, items, sizeof(ty_datum_t) * (size_t)n);
    }
    r->ncols = n;
    r->types = t;
    r->items = v;
    ty_datum_t d;
    memset(&d, 0, sizeof(d));
    d.v.rec = r;
    return d;
}

/* A column's text is quoted when it is empty or holds a quote, backslash,
 * parenthesis, comma or blank, so that the record reads back. */
static bool ty__needs_quotes(const char *p, size_t n)
{
    if (n == 0)
        return true;
    for (size_t i = 0; i < n; i++) {
        char c = p[i];
        if (c == '"' || c == '\\' || c == '(' || c == ')' || c == ',' || isspace((unsigned char)c))
            return true;
    }
    return false;
}

bool ty_record_out(const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    const ty_record_t *r = d->v.rec;
    cm_buf_t col;
    cm_buf_init(&col, 0);
    cm_buf_put_u8(out, '(');
    bool ok = true;
    for (int i = 0; i < r->ncols && ok; i++) {
        if (i > 0)
            cm_buf_put_u8(out, ',');
        if (r->items[i].isnull)
            continue;   /* NULL is nothing at all; "" is the empty string */
        col.len = 0;
        if (!(ok = ty_datum_to_text(r->types[i], &r->items[i], ctx, &col)))
            break;
        const char *p = (const char *)col.data;
        bool q = ty__needs_quotes(p, col.len);
        if (q)
            cm_buf_put_u8(out, '"');
        for (size_t k = 0; k < col.len; k++) {
            if (p[k] == '"' || p[k] == '\\')
                cm_buf_put_u8(out, (uint8_t)p[k]);
            cm_buf_put_u8(out, (uint8_t)p[k]);
        }
        if (q)
            cm_buf_put_u8(out, '"');
    }
    cm_buf_put_u8(out, ')');
    cm_buf_free(&col);
    return ok;
}

/* record_send: column count, then per column its type OID and its binary value with a length (-1: NULL). */
bool ty_record_send(const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    const ty_record_t *r = d->v.rec;
    cm_buf_put_be32(out, (uint32_t)r->ncols);
    for (int i = 0; i < r->ncols; i++) {
        cm_buf_put_be32(out, r->types[i]);
        if (r->items[i].isnull) {
            cm_buf_put_be32(out, UINT32_MAX);
            continue;
        }
        size_t at = out->len;
        cm_buf_put_be32(out, 0);   /* the length, filled in below */
        if (!ty_datum_to_binary(r->types[i], &r->items[i], ctx, out))
            return false;
        uint32_t n = (uint32_t)(out->len - at - 4);
        uint8_t *lp = (uint8_t *)out->data + at;
        lp[0] = (uint8_t)(n >> 24);
        lp[1] = (uint8_t)(n >> 16);
        lp[2] = (uint8_t)(n >> 8);
        lp[3] = (uint8_t)n;
    }
    return true;
}

int ty_record_cmp(const ty_datum_t *a, const ty_datum_t *b)
{
    const ty_record_t *x = a->v.rec, *y = b->v.rec;
    int n = x->ncols < y->ncols ? x->ncols : y->ncols;
    for (int i = 0; i < n; i++) {
        const ty_datum_t *p = &x->items[i], *q = &y->items[i];
        if (p->isnull || q->isnull) {
            if (p->isnull != q->isnull)
                return p->isnull ? 1 : -1;
            continue;
        }
        /* Anonymous records of one column type may nest differently ((1,(2)) and (1,2)):
         * a value is only ever read as its own type, and differing types order by OID. */
        if (x->types[i] != y->types[i])
            return x->types[i] < y->types[i] ? -1 : 1;
        int c = ty_datum_compare(x->types[i], p, q);
        if (c != 0)
            return c;
    }
    return x->ncols < y->ncols ? -1 : x->ncols > y->ncols;
}

uint64_t ty_record_hash(const ty_datum_t *d)
{
    const ty_record_t *r = d->v.rec;
    uint64_t h = 0x9e3779b97f4a7c15ull ^ (uint64_t)r->ncols;
    for (int i = 0; i < r->ncols; i++)
        h = (h ^ ty_datum_hash(r->types[i], &r->items[i])) * 1099511628211ull;
    return h;
}

ty_datum_t ty_record_copy(const ty_datum_t *d, cm_arena_t *a)
{
    const ty_record_t *r = d->v.rec;
    ty_datum_t c = ty_record_make(a, r->ncols, r->types, r->items);
    ty_datum_t *items = (ty_datum_t *)c.v.rec->items;
    for (int i = 0; i < r->ncols; i++)
        items[i] = ty_datum_copy(r->types[i], &r->items[i], a);
    return c;
}

/*
 * The record operators (record_eq, record_lt, ...) for records compared as
 * values rather than written as two rows: columns in order, which must have
 * the same types; two NULLs are equal and NULL sorts after a value; the
 * column counts must agree unless an earlier column already differs.
 * eq selects record_eq's errors (it needs only equality).
 */
bool ty_record_compare(ty_ctx_t *ctx, const ty_datum_t *a, const ty_datum_t *b, bool eq, int *out)
{
    const ty_record_t *x = a->v.rec, *y = b->v.rec;
    int c = 0;
    for (int i = 0; i < x->ncols && i < y->ncols && c == 0; i++) {
        ty_oid_t t = x->types[i];
        if (t != y->types[i]) {
            const ty_info_t *p = ty_info(t), *q = ty_info(y->types[i]);
            return cm_err_set(ctx->err, CM_ERRCODE_DATATYPE_MISMATCH,
                              "cannot compare dissimilar column types %s and %s at record column %d",
                              p ? p->sql_name : "?", q ? q->sql_name : "?", i + 1);
        }
        if (t == TY_UNKNOWN)
            return cm_err_set(ctx->err, CM_ERRCODE_UNDEFINED_FUNCTION,
                              eq ? "could not identify an equality operator for type %s"
                                 : "could not identify a comparison function for type %s",
                              "unknown");
        const ty_datum_t *p = &x->items[i], *q = &y->items[i];
        if (p->isnull || q->isnull)
            c = p->isnull == q->isnull ? 0 : p->isnull ? 1 : -1;
        else if (t == TY_RECORD) {
            /* A nested record is compared by record_eq / record_cmp again, with the same errors. */
            if (!ty_record_compare(ctx, p, q, eq, &c))
                return false;
        } else
            c = ty_datum_compare(t, p, q);
    }
    if (c == 0 && x->ncols != y->ncols)
        return cm_err_set(ctx->err, CM_ERRCODE_DATATYPE_MISMATCH,
                          "cannot compare record types with different numbers of columns");
    *out = c;
    return true;
}

static bool ty__rec_op(ty_ctx_t *c, const ty_datum_t *a, ty_datum_t *o, bool eq, int want_lo, int want_hi)
{
    int r;
    if (!ty_record_compare(c, &a[0], &a[1], eq, &r))
        return false;
    r = r < 0 ? -1 : r > 0;
    o->v.b = r >= want_lo && r <= want_hi;
    return true;
}

static bool ty__rec_eq(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__rec_op(c, a, o, true, 0, 0); }
static bool ty__rec_lt(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__rec_op(c, a, o, false, -1, -1); }
static bool ty__rec_le(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__rec_op(c, a, o, false, -1, 0); }
static bool ty__rec_gt(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__rec_op(c, a, o, false, 1, 1); }
static bool ty__rec_ge(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__rec_op(c, a, o, false, 0, 1); }

static bool ty__rec_ne(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (!ty__rec_op(c, a, o, true, 0, 0))
        return false;
    o->v.b = !o->v.b;
    return true;
}

#define TY__RECOP (TY_FN_STRICT | TY_FN_OPERATOR)

static const ty_func_t ty__record_ops[] = {
    {"=", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_eq, 2988},
    {"<>", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_ne, 2989},
    {"<", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_lt, 2990},
    {">", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_gt, 2991},
    {"<=", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_le, 2992},
    {">=", 2, {TY_RECORD, TY_RECORD}, TY_BOOL, TY__RECOP, ty__rec_ge, 2993},
};

const ty_func_table_t ty_funcs_record = {ty__record_ops, CM_ARRAY_LEN(ty__record_ops)};
