/*
 * ty_func_array.c: array functions and operators: array_length, cardinality,
 * array_lower/upper, array_ndims, array_dims, array_to_string,
 * string_to_array, array_append/prepend/cat and their || forms,
 * array_position, array_remove, comparison, and @> <@ &&.
 *
 * PostgreSQL declares these once over anyarray/anyelement; the registry has
 * no polymorphic types, so each is declared once per array type from one
 * list (TY_ARRAY_TYPES). Element equality is the element type's ordering
 * (ty_datum_compare), as PostgreSQL uses the default btree opclass.
 */
#include "types/ty_internal.h"

#include <stdio.h>
#include <string.h>

#define TY_ERRCODE_ARRAY_SUBSCRIPT "2202E"
#define OP (TY_FN_STRICT | TY_FN_OPERATOR)
#define S TY_FN_STRICT

/* name, element type, array type */
#define TY_ARRAY_TYPES(X)                                                                                   \
    X(bool, TY_BOOL, TY_BOOL_ARRAY) X(bytea, TY_BYTEA, TY_BYTEA_ARRAY) X(name, TY_NAME, TY_NAME_ARRAY)      \
    X(char, TY_CHAR, TY_CHAR_ARRAY)                                                                         \
    X(int2, TY_INT2, TY_INT2_ARRAY) X(int4, TY_INT4, TY_INT4_ARRAY) X(text, TY_TEXT, TY_TEXT_ARRAY)         \
    X(bpchar, TY_BPCHAR, TY_BPCHAR_ARRAY) X(varchar, TY_VARCHAR, TY_VARCHAR_ARRAY)                          \
    X(int8, TY_INT8, TY_INT8_ARRAY) X(float4, TY_FLOAT4, TY_FLOAT4_ARRAY)                                   \
    X(float8, TY_FLOAT8, TY_FLOAT8_ARRAY) X(oid, TY_OID, TY_OID_ARRAY)                                      \
    X(timestamp, TY_TIMESTAMP, TY_TIMESTAMP_ARRAY) X(date, TY_DATE, TY_DATE_ARRAY)                          \
    X(time, TY_TIME, TY_TIME_ARRAY) X(timestamptz, TY_TIMESTAMPTZ, TY_TIMESTAMPTZ_ARRAY)                    \
    X(interval, TY_INTERVAL, TY_INTERVAL_ARRAY) X(numeric, TY_NUMERIC, TY_NUMERIC_ARRAY)                    \
    X(uuid, TY_UUID, TY_UUID_ARRAY) X(json, TY_JSON, TY_JSON_ARRAY) X(jsonb, TY_JSONB, TY_JSONB_ARRAY)

static void ty__int_out(ty_datum_t *o, int64_t v)
{
    o->isnull = false;
    o->v.i = v;
}

static bool ty__dim_arg(const ty_array_t *a, const ty_datum_t *d, int *k)
{
    if (d->v.i < 1 || d->v.i > a->ndim)
        return false;
    *k = (int)d->v.i - 1;
    return true;
}

static bool ty__length(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int k;
    if (!ty__dim_arg(a[0].v.arr, &a[1], &k))
        return o->isnull = true, true;
    ty__int_out(o, a[0].v.arr->dims[k]);
    return true;
}

static bool ty__lower(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int k;
    if (!ty__dim_arg(a[0].v.arr, &a[1], &k))
        return o->isnull = true, true;
    ty__int_out(o, a[0].v.arr->lbound[k]);
    return true;
}

static bool ty__upper(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    int k;
    if (!ty__dim_arg(a[0].v.arr, &a[1], &k))
        return o->isnull = true, true;
    ty__int_out(o, (int64_t)a[0].v.arr->lbound[k] + a[0].v.arr->dims[k] - 1);
    return true;
}

static bool ty__cardinality(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    ty__int_out(o, a[0].v.arr->nitems);
    return true;
}

static bool ty__ndims(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].v.arr->ndim == 0)
        return o->isnull = true, true;
    ty__int_out(o, a[0].v.arr->ndim);
    return true;
}

static bool ty__dims(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    const ty_array_t *x = a[0].v.arr;
    if (x->ndim == 0)
        return o->isnull = true, true;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    for (int i = 0; i < x->ndim; i++)
        cm_buf_printf(&b, "[%d:%d]", x->lbound[i], x->lbound[i] + x->dims[i] - 1);
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

/* array_to_string(arr, delim [, null_string]): the 3-argument form is not
 * strict; a NULL null_string behaves as if it were absent. */
static bool ty__to_string(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull || a[1].isnull)
        return o->isnull = true, true;
    const ty_array_t *x = a[0].v.arr;
    bool have_null_str = n > 2 && !a[2].isnull;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool first = true, ok = true;
    for (int i = 0; i < x->nitems && ok; i++) {
        if (x->items[i].isnull && !have_null_str)
            continue;
        if (!first)
            cm_buf_put(&b, a[1].v.s.p, a[1].v.s.len);
        first = false;
        if (x->items[i].isnull)
            cm_buf_put(&b, a[2].v.s.p, a[2].v.s.len);
        else
            ok = ty_datum_to_text(x->elem, &x->items[i], c, &b);
    }
    if (ok)
        *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return ok;
}

static void ty__push_field(ty_ctx_t *c, cm_buf_t *items, const char *p, size_t len, const ty_datum_t *null_str)
{
    ty_datum_t d = ty_text_datum(c->arena, p, len);
    if (null_str != NULL && !null_str->isnull && null_str->v.s.len == len &&
        (len == 0 || memcmp(null_str->v.s.p, p, len) == 0)) {
        memset(&d, 0, sizeof(d));
        d.isnull = true;
    }
    cm_buf_put(items, &d, sizeof(d));
}

/* string_to_array(str, delim [, null_string]) as PostgreSQL 15: '' gives {},
 * a NULL delimiter splits into characters, an empty one keeps str whole. */
static bool ty__string_to_array(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull)
        return o->isnull = true, true;
    const char *s = a[0].v.s.p;
    size_t len = a[0].v.s.len;
    const ty_datum_t *ns = n > 2 ? &a[2] : NULL;
    cm_buf_t items;
    cm_buf_init(&items, 0);
    if (len == 0) {
        /* nothing */
    } else if (a[1].isnull) {
        for (size_t i = 0; i < len;) {
            uint32_t cp;
            size_t k = ty_utf8_decode(s + i, len - i, &cp);
            ty__push_field(c, &items, s + i, k, ns);
            i += k;
        }
    } else if (a[1].v.s.len == 0) {
        ty__push_field(c, &items, s, len, ns);
    } else {
        const char *d = a[1].v.s.p;
        size_t dl = a[1].v.s.len, start = 0;
        for (size_t i = 0; i + dl <= len;) {
            if (memcmp(s + i, d, dl) == 0) {
                ty__push_field(c, &items, s + start, i - start, ns);
                i += dl;
                start = i;
            } else {
                i++;
            }
        }
        ty__push_field(c, &items, s + start, len - start, ns);
    }
    int cnt = (int)(items.len / sizeof(ty_datum_t));
    *o = ty_array_make(c->arena, TY_TEXT, (const ty_datum_t *)items.data, cnt);
    cm_buf_free(&items);
    return true;
}

static bool ty__one_dim(ty_ctx_t *c, const ty_array_t *x)
{
    if (x->ndim > 1)
        return cm_err_set(c->err, TY_ERRCODE_ARRAY_SUBSCRIPT, "argument must be empty or one-dimensional array");
    return true;
}

/* array_append / array_prepend: a NULL array counts as empty; the lower
 * bound of the input is kept. */
static bool ty__add(ty_ctx_t *c, const ty_datum_t *arr, const ty_datum_t *el, bool prepend, ty_oid_t elem,
                    ty_datum_t *o)
{
    const ty_array_t *x = arr->isnull ? NULL : arr->v.arr;
    if (x != NULL && !ty__one_dim(c, x))
        return false;
    int n = x ? x->nitems : 0, lb = x && x->ndim == 1 ? x->lbound[0] : 1;
    if (x != NULL && x->ndim == 1 && !prepend && (int64_t)lb + n > INT32_MAX)
        return cm_err_set(c->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "integer out of range");
    ty_datum_t *items = cm_arena_alloc(c->arena, sizeof(ty_datum_t) * (size_t)(n + 1));
    if (n)
        memcpy(items + (prepend ? 1 : 0), x->items, sizeof(ty_datum_t) * (size_t)n);
    items[prepend ? 0 : n] = *el;
    int dims[1] = {n + 1}, lbs[1] = {lb};
    *o = ty_array_build(c->arena, elem, 1, dims, lbs, items);
    return true;
}

static bool ty__cat_err(ty_ctx_t *c, const char *detail)
{
    cm_err_set(c->err, TY_ERRCODE_ARRAY_SUBSCRIPT, "cannot concatenate incompatible arrays");
    cm_err_set_detail(c->err, "%s", detail);
    return false;
}

static bool ty__cat(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull || a[1].isnull) {
        *o = a[0].isnull ? a[1] : a[0];
        return true;
    }
    const ty_array_t *x = a[0].v.arr, *y = a[1].v.arr;
    if (x->nitems == 0 || y->nitems == 0) {
        *o = x->nitems == 0 ? a[1] : a[0];
        return true;
    }
    int dims[TY_ARRAY_MAXDIM], lb[TY_ARRAY_MAXDIM], nd;
    if (x->ndim == y->ndim) {
        for (int i = 1; i < x->ndim; i++)
            if (x->dims[i] != y->dims[i])
                return ty__cat_err(c, "Arrays with differing element dimensions are not compatible for concatenation.");
        nd = x->ndim;
        memcpy(dims, x->dims, sizeof(dims));
        memcpy(lb, x->lbound, sizeof(lb));
        dims[0] = x->dims[0] + y->dims[0];
    } else if (x->ndim == y->ndim + 1 || y->ndim == x->ndim + 1) {
        const ty_array_t *big = x->ndim > y->ndim ? x : y, *small = big == x ? y : x;
        for (int i = 0; i < small->ndim; i++)
            if (big->dims[i + 1] != small->dims[i])
                return ty__cat_err(c, "Arrays with differing dimensions are not compatible for concatenation.");
        nd = big->ndim;
        memcpy(dims, big->dims, sizeof(dims));
        memcpy(lb, big->lbound, sizeof(lb));
        dims[0]++;
    } else {
        char d[128];
        snprintf(d, sizeof(d), "Arrays of %d and %d dimensions are not compatible for concatenation.", x->ndim,
                 y->ndim);
        return ty__cat_err(c, d);
    }
    ty_datum_t *items = cm_arena_alloc(c->arena, sizeof(ty_datum_t) * (size_t)(x->nitems + y->nitems));
    memcpy(items, x->items, sizeof(ty_datum_t) * (size_t)x->nitems);
    memcpy(items + x->nitems, y->items, sizeof(ty_datum_t) * (size_t)y->nitems);
    *o = ty_array_build(c->arena, x->elem, nd, dims, lb, items);
    return true;
}

/* IS NOT DISTINCT FROM on elements, as array_position and array_remove match. */
static bool ty__not_distinct(ty_oid_t t, const ty_datum_t *a, const ty_datum_t *b)
{
    if (a->isnull || b->isnull)
        return a->isnull && b->isnull;
    return ty_datum_compare(t, a, b) == 0;
}

static bool ty__position(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull)
        return o->isnull = true, true;
    const ty_array_t *x = a[0].v.arr;
    if (x->ndim > 1)
        return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "searching for elements in multidimensional arrays is not supported");
    if (x->nitems == 0)
        return o->isnull = true, true;
    int lb = x->lbound[0], from = 0;
    if (n > 2) {
        if (a[2].isnull)
            return cm_err_set(c->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED, "initial position must not be null");
        int64_t s = a[2].v.i - lb;
        from = s < 0 ? 0 : s > x->nitems ? x->nitems : (int)s;
    }
    for (int i = from; i < x->nitems; i++)
        if (ty__not_distinct(x->elem, &x->items[i], &a[1])) {
            ty__int_out(o, (int64_t)lb + i);
            return true;
        }
    o->isnull = true;
    return true;
}

static bool ty__remove(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull)
        return o->isnull = true, true;
    const ty_array_t *x = a[0].v.arr;
    if (x->ndim > 1)
        return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "removing elements from multidimensional arrays is not supported");
    ty_datum_t *items = cm_arena_alloc(c->arena, sizeof(ty_datum_t) * (size_t)(x->nitems ? x->nitems : 1));
    int k = 0;
    for (int i = 0; i < x->nitems; i++)
        if (!ty__not_distinct(x->elem, &x->items[i], &a[1]))
            items[k++] = x->items[i];
    if (k == x->nitems) {
        *o = a[0];
        return true;
    }
    int dims[1] = {k}, lb[1] = {x->ndim ? x->lbound[0] : 1};
    *o = ty_array_build(c->arena, x->elem, k ? 1 : 0, dims, lb, items);
    return true;
}

/* Every non-NULL element of b equals some element of a; a NULL in b never
 * matches (PostgreSQL's array_contain_compare). */
static bool ty__contains(const ty_array_t *a, const ty_array_t *b, bool any)
{
    for (int j = 0; j < b->nitems; j++) {
        bool found = false;
        if (!b->items[j].isnull)
            for (int i = 0; i < a->nitems && !found; i++)
                found = !a->items[i].isnull && ty_datum_compare(a->elem, &a->items[i], &b->items[j]) == 0;
        if (found && any)
            return true;
        if (!found && !any)
            return false;
    }
    return !any;
}

static bool ty__contains_op(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = ty__contains(a[0].v.arr, a[1].v.arr, false);
    return true;
}

static bool ty__contained_op(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = ty__contains(a[1].v.arr, a[0].v.arr, false);
    return true;
}

static bool ty__overlap_op(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    o->v.b = ty__contains(a[0].v.arr, a[1].v.arr, true);
    return true;
}

#define TY_ACMP(NAME, EXPR)                                                            \
    static bool NAME(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)           \
    {                                                                                  \
        int r = ty_array_cmp(&a[0], &a[1]);                                            \
        o->v.b = (EXPR);                                                               \
        return true;                                                                   \
    }
TY_ACMP(ty__aeq, r == 0)
TY_ACMP(ty__ane, r != 0)
TY_ACMP(ty__alt, r < 0)
TY_ACMP(ty__ale, r <= 0)
TY_ACMP(ty__agt, r > 0)
TY_ACMP(ty__age, r >= 0)

/* Per element type: append and prepend need the element type when the array is NULL. */
#define TY_ADD_FNS(T, E, A)                                                                         \
    static bool ty__append_##T(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)              \
    {                                                                                               \
        return ty__add(c, &a[0], &a[1], false, E, o);                                               \
    }                                                                                               \
    static bool ty__prepend_##T(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)             \
    {                                                                                               \
        return ty__add(c, &a[1], &a[0], true, E, o);                                                \
    }
TY_ARRAY_TYPES(TY_ADD_FNS)

#define TY_AFUNCS(T, E, A)                                                                          \
    {"array_length", 2, {A, TY_INT4}, TY_INT4, S, ty__length, 2176},                                \
    {"array_lower", 2, {A, TY_INT4}, TY_INT4, S, ty__lower, 2091},                                  \
    {"array_upper", 2, {A, TY_INT4}, TY_INT4, S, ty__upper, 2092},                                  \
    {"cardinality", 1, {A}, TY_INT4, S, ty__cardinality, 3179},                                     \
    {"array_ndims", 1, {A}, TY_INT4, S, ty__ndims, 748},                                            \
    {"array_dims", 1, {A}, TY_TEXT, S, ty__dims, 747},                                              \
    {"array_to_string", 2, {A, TY_TEXT}, TY_TEXT, S, ty__to_string, 395},                           \
    {"array_to_string", 3, {A, TY_TEXT, TY_TEXT}, TY_TEXT, 0, ty__to_string, 384},                  \
    {"array_append", 2, {A, E}, A, 0, ty__append_##T, 378},                                         \
    {"array_prepend", 2, {E, A}, A, 0, ty__prepend_##T, 379},                                       \
    {"array_cat", 2, {A, A}, A, 0, ty__cat, 383},                                                   \
    {"array_position", 2, {A, E}, TY_INT4, 0, ty__position, 3277},                                  \
    {"array_position", 3, {A, E, TY_INT4}, TY_INT4, 0, ty__position, 3278},                         \
    {"array_remove", 2, {A, E}, A, 0, ty__remove, 3167},                                            \
    {"=", 2, {A, A}, TY_BOOL, OP, ty__aeq, 1070},                                                   \
    {"<>", 2, {A, A}, TY_BOOL, OP, ty__ane, 1071},                                                  \
    {"<", 2, {A, A}, TY_BOOL, OP, ty__alt, 1072},                                                   \
    {">", 2, {A, A}, TY_BOOL, OP, ty__agt, 1073},                                                   \
    {"<=", 2, {A, A}, TY_BOOL, OP, ty__ale, 1074},                                                  \
    {">=", 2, {A, A}, TY_BOOL, OP, ty__age, 1075},                                                  \
    {"@>", 2, {A, A}, TY_BOOL, OP, ty__contains_op, 2751},                                          \
    {"<@", 2, {A, A}, TY_BOOL, OP, ty__contained_op, 2752},                                         \
    {"&&", 2, {A, A}, TY_BOOL, OP, ty__overlap_op, 2750},

static const ty_func_t ty__array_funcs[] = {
    TY_ARRAY_TYPES(TY_AFUNCS)
    {"string_to_array", 2, {TY_TEXT, TY_TEXT}, TY_TEXT_ARRAY, 0, ty__string_to_array, 394},
    {"string_to_array", 3, {TY_TEXT, TY_TEXT, TY_TEXT}, TY_TEXT_ARRAY, 0, ty__string_to_array, 376},
};

/* The || forms, grouped by shape: array || array first, then array || element,
 * then element || array, so that a caller listing only the first 64 "||"
 * candidates loses the rarest form first. */
#define TY_CAT_AA(T, E, A) {"||", 2, {A, A}, A, TY_FN_OPERATOR, ty__cat, 375},
#define TY_CAT_AE(T, E, A) {"||", 2, {A, E}, A, TY_FN_OPERATOR, ty__append_##T, 349},
#define TY_CAT_EA(T, E, A) {"||", 2, {E, A}, A, TY_FN_OPERATOR, ty__prepend_##T, 374},

static const ty_func_t ty__array_ops[] = {
    TY_ARRAY_TYPES(TY_CAT_AA)
    TY_ARRAY_TYPES(TY_CAT_AE)
    TY_ARRAY_TYPES(TY_CAT_EA)
};

const ty_func_table_t ty_funcs_array = {ty__array_funcs, CM_ARRAY_LEN(ty__array_funcs)};
const ty_func_table_t ty_funcs_array_ops = {ty__array_ops, CM_ARRAY_LEN(ty__array_ops)};
