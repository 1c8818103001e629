/*
 * ty_func_json.c: jsonb ordering and hashing, and the json/jsonb operators
 * and functions: -> and ->> by key and by index, #> and #>> by a text[]
 * path, json_typeof and jsonb_typeof, and jsonb's comparison operators.
 *
 * A jsonb datum is its canonical text (ty_json.c), so a sub-value's span in
 * that text is itself canonical: -> returns a slice without printing again.
 * json keeps its input text, so the same slicing gives PostgreSQL's
 * whitespace-preserving results for json.
 */
#include "types/ty_internal.h"

#include <stdlib.h>
#include <string.h>

#define OP (TY_FN_STRICT | TY_FN_OPERATOR)

/* ===== ordering (PostgreSQL's compareJsonbContainers) ===== */

/* jbvNull < jbvString < jbvNumeric < jbvBool < jbvArray < jbvObject. */
static int ty__jrank(const ty_json_t *n)
{
    return n->kind;
}

static bool ty__jcontainer(const ty_json_t *n)
{
    return n->kind == TY_JV_ARRAY || n->kind == TY_JV_OBJECT;
}

static int ty__jcmp_str(const ty_json_t *a, const ty_json_t *b)
{
    uint32_t n = a->str_len < b->str_len ? a->str_len : b->str_len;
    int c = n ? memcmp(a->str, b->str, n) : 0;
    if (c != 0)
        return c < 0 ? -1 : 1;
    return a->str_len < b->str_len ? -1 : a->str_len > b->str_len;
}

static int ty__jcmp_container(const ty_json_t *a, bool araw, const ty_json_t *b, bool braw);

static int ty__jcmp_value(const ty_json_t *a, const ty_json_t *b)
{
    if (a->kind != b->kind)
        return ty__jrank(a) < ty__jrank(b) ? -1 : 1;
    switch (a->kind) {
    case TY_JV_NULL: return 0;
    case TY_JV_STRING: return ty__jcmp_str(a, b);
    case TY_JV_NUMBER: {
        int c = ty_num_cmp(a->num, b->num);
        return c < 0 ? -1 : c > 0;
    }
    case TY_JV_BOOL: return (int)a->b - (int)b->b;
    default: return ty__jcmp_container(a, false, b, false);
    }
}

/* A top-level scalar is a one-element "raw scalar" array for this ordering,
 * which is why '1' sorts above '[]' but below '[1]'. */
static int ty__jcmp_container(const ty_json_t *a, bool araw, const ty_json_t *b, bool braw)
{
    int ka = araw ? TY_JV_ARRAY : a->kind, kb = braw ? TY_JV_ARRAY : b->kind;
    if (ka != kb)
        return ka < kb ? -1 : 1;
    uint32_t na = araw ? 1 : a->nitems, nb = braw ? 1 : b->nitems;
    int res = 0;
    if (araw != braw)
        res = araw ? -1 : 1;
    if (na != nb)
        res = na > nb ? 1 : -1;
    if (res != 0)
        return res;
    if (araw)
        return ty__jcmp_value(a, b);
    for (uint32_t i = 0; i < na; i++) {
        int c = ka == TY_JV_OBJECT && i % 2 == 0 ? ty__jcmp_str(a->items[i], b->items[i])
                                                   : ty__jcmp_value(a->items[i], b->items[i]);
        if (c != 0)
            return c;
    }
    return 0;
}

/* Parses a stored jsonb value; it was validated on input, so this cannot fail
 * short of memory. */
static ty_json_t *ty__jload(ty_ctx_t *ctx, const ty_datum_t *d, bool numbers)
{
    ty_json_t *n = NULL;
    if (!ty_json_parse(ctx, d->v.s.p, d->v.s.len, numbers, &n))
        return NULL;
    return n;
}

int ty_jsonb_cmp(const ty_datum_t *a, const ty_datum_t *b)
{
    cm_arena_t ar;
    cm_err_t err = {0};
    cm_arena_init(&ar, 4096);
    ty_ctx_t ctx = {.arena = &ar, .err = &err};
    ty_json_t *x = ty__jload(&ctx, a, true), *y = ty__jload(&ctx, b, true);
    int c;
    if (x == NULL || y == NULL) {
        size_t n = a->v.s.len < b->v.s.len ? a->v.s.len : b->v.s.len;
        c = n ? memcmp(a->v.s.p, b->v.s.p, n) : 0;
        c = c ? c : (a->v.s.len > b->v.s.len) - (a->v.s.len < b->v.s.len);
    } else {
        c = ty__jcmp_container(x, !ty__jcontainer(x), y, !ty__jcontainer(y));
    }
    cm_err_clear(&err);
    cm_arena_free(&ar);
    return c < 0 ? -1 : c > 0;
}

static uint64_t ty__jhash(const ty_json_t *n, uint64_t h)
{
    h = (h ^ n->kind) * 1099511628211ull;
    switch (n->kind) {
    case TY_JV_STRING:
        for (uint32_t i = 0; i < n->str_len; i++)
            h = (h ^ (uint8_t)n->str[i]) * 1099511628211ull;
        return h;
    case TY_JV_NUMBER: return (h ^ ty_num_hash(n->num)) * 1099511628211ull;
    case TY_JV_BOOL: return (h ^ n->b) * 1099511628211ull;
    case TY_JV_ARRAY:
    case TY_JV_OBJECT:
        for (uint32_t i = 0; i < n->nitems; i++)
            h = ty__jhash(n->items[i], h);
        return (h ^ n->nitems) * 1099511628211ull;
    default: return h;
    }
}

/* Equal jsonb values (1.0 and 1.00) hash alike: numbers hash as numerics. */
uint64_t ty_jsonb_hash(const ty_datum_t *d)
{
    cm_arena_t ar;
    cm_err_t err = {0};
    cm_arena_init(&ar, 4096);
    ty_ctx_t ctx = {.arena = &ar, .err = &err};
    ty_json_t *x = ty__jload(&ctx, d, true);
    uint64_t h = x ? ty__jhash(x, 1469598103934665603ull) : 0;
    cm_err_clear(&err);
    cm_arena_free(&ar);
    return h;
}

/* ===== extraction ===== */

static const ty_json_t *ty__jfield(const ty_json_t *n, const char *k, size_t klen)
{
    if (n->kind != TY_JV_OBJECT)
        return NULL;
    /* json may repeat a key; PostgreSQL's json operators find the last one. */
    const ty_json_t *found = NULL;
    for (uint32_t i = 0; i + 1 < n->nitems; i += 2)
        if (n->items[i]->str_len == klen && (klen == 0 || memcmp(n->items[i]->str, k, klen) == 0))
            found = n->items[i + 1];
    return found;
}

static const ty_json_t *ty__jelem(const ty_json_t *n, int64_t idx, bool jsonb)
{
    /* jsonb treats a top-level scalar as a one-element array here. */
    if (n->kind != TY_JV_ARRAY) {
        if (jsonb && !ty__jcontainer(n) && (idx == 0 || idx == -1))
            return n;
        return NULL;
    }
    if (idx < 0)
        idx += n->nitems;
    if (idx < 0 || idx >= (int64_t)n->nitems)
        return NULL;
    return n->items[idx];
}

/* The result of -> (as_text false) or ->> (true) for a found value v. */
static bool ty__jresult(ty_ctx_t *ctx, const ty_json_t *v, bool as_text, ty_datum_t *out)
{
    if (v == NULL || (as_text && v->kind == TY_JV_NULL)) {
        out->isnull = true;
        return true;
    }
    if (as_text && v->kind == TY_JV_STRING) {
        if (v->has_nul) {
            cm_err_set(ctx->err, CM_ERRCODE_UNTRANSLATABLE_CHARACTER, "unsupported Unicode escape sequence");
            cm_err_set_detail(ctx->err, "\\u0000 cannot be converted to text.");
            return false;
        }
        *out = ty_text_datum(ctx->arena, v->str, v->str_len);
        return true;
    }
    *out = ty_text_datum(ctx->arena, v->src, v->src_len);
    return true;
}

static bool ty__jget(ty_ctx_t *ctx, const ty_datum_t *a, bool jsonb, bool by_index, bool as_text, ty_datum_t *out)
{
    ty_json_t *n;
    if (!ty_json_parse(ctx, a[0].v.s.p, a[0].v.s.len, false, &n))
        return false;
    const ty_json_t *v = by_index ? ty__jelem(n, a[1].v.i, jsonb) : ty__jfield(n, a[1].v.s.p, a[1].v.s.len);
    return ty__jresult(ctx, v, as_text, out);
}

#define TY_JGET(NAME, JSONB, IDX, TXT)                                                 \
    static bool NAME(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)           \
    {                                                                                  \
        return ty__jget(c, a, JSONB, IDX, TXT, o);                                     \
    }
TY_JGET(ty__json_field, false, false, false)
TY_JGET(ty__json_field_text, false, false, true)
TY_JGET(ty__json_elem, false, true, false)
TY_JGET(ty__json_elem_text, false, true, true)
TY_JGET(ty__jsonb_field, true, false, false)
TY_JGET(ty__jsonb_field_text, true, false, true)
TY_JGET(ty__jsonb_elem, true, true, false)
TY_JGET(ty__jsonb_elem_text, true, true, true)

/* #> and #>>: the path is a text[]; an element that is not an integer never
 * matches inside an array. */
static bool ty__jpath(ty_ctx_t *ctx, const ty_datum_t *a, bool jsonb, bool as_text, ty_datum_t *out)
{
    ty_json_t *n;
    if (!ty_json_parse(ctx, a[0].v.s.p, a[0].v.s.len, false, &n))
        return false;
    const ty_array_t *path = ty_array_get(&a[1]);
    if (path->ndim > 1) {
        return cm_err_set(ctx->err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "wrong number of array subscripts");
    }
    const ty_json_t *v = n;
    for (int i = 0; i < path->nitems && v != NULL; i++) {
        const ty_datum_t *k = &path->items[i];
        if (k->isnull) {
            v = NULL;
            break;
        }
        if (v->kind == TY_JV_OBJECT) {
            v = ty__jfield(v, k->v.s.p, k->v.s.len);
        } else if (v->kind == TY_JV_ARRAY) {
            char buf[32];
            if (k->v.s.len == 0 || k->v.s.len >= sizeof(buf)) {
                v = NULL;
                break;
            }
            memcpy(buf, k->v.s.p, k->v.s.len);
            buf[k->v.s.len] = 0;
            char *end;
            long long idx = strtoll(buf, &end, 10);
            v = *end == 0 ? ty__jelem(v, idx, jsonb) : NULL;
        } else {
            v = NULL;
        }
    }
    return ty__jresult(ctx, v, as_text, out);
}

static bool ty__json_path(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__jpath(c, a, false, false, o); }
static bool ty__json_path_text(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__jpath(c, a, false, true, o); }
static bool ty__jsonb_path(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__jpath(c, a, true, false, o); }
static bool ty__jsonb_path_text(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o) { return ty__jpath(c, a, true, true, o); }

static bool ty__jtypeof(ty_ctx_t *ctx, const ty_datum_t *a, int n, ty_datum_t *out)
{
    static const char *const names[] = {
        [TY_JV_NULL] = "null", [TY_JV_STRING] = "string", [TY_JV_NUMBER] = "number",
        [TY_JV_BOOL] = "boolean", [TY_JV_ARRAY] = "array", [TY_JV_OBJECT] = "object",
    };
    ty_json_t *j;
    if (!ty_json_parse(ctx, a[0].v.s.p, a[0].v.s.len, false, &j))
        return false;
    const char *s = names[j->kind];
    *out = ty_text_datum(ctx->arena, s, strlen(s));
    return true;
}

#define TY_JCMP(NAME, EXPR)                                                            \
    static bool NAME(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)           \
    {                                                                                  \
        int r = ty_jsonb_cmp(&a[0], &a[1]);                                            \
        o->v.b = (EXPR);                                                               \
        return true;                                                                   \
    }
TY_JCMP(ty__jsonb_eq, r == 0)
TY_JCMP(ty__jsonb_ne, r != 0)
TY_JCMP(ty__jsonb_lt, r < 0)
TY_JCMP(ty__jsonb_le, r <= 0)
TY_JCMP(ty__jsonb_gt, r > 0)
TY_JCMP(ty__jsonb_ge, r >= 0)

static const ty_func_t ty__json[] = {
    {"->", 2, {TY_JSON, TY_TEXT}, TY_JSON, OP, ty__json_field, 3962},
    {"->>", 2, {TY_JSON, TY_TEXT}, TY_TEXT, OP, ty__json_field_text, 3963},
    {"->", 2, {TY_JSON, TY_INT4}, TY_JSON, OP, ty__json_elem, 3964},
    {"->>", 2, {TY_JSON, TY_INT4}, TY_TEXT, OP, ty__json_elem_text, 3965},
    {"->", 2, {TY_JSONB, TY_TEXT}, TY_JSONB, OP, ty__jsonb_field, 3211},
    {"->>", 2, {TY_JSONB, TY_TEXT}, TY_TEXT, OP, ty__jsonb_field_text, 3477},
    {"->", 2, {TY_JSONB, TY_INT4}, TY_JSONB, OP, ty__jsonb_elem, 3212},
    {"->>", 2, {TY_JSONB, TY_INT4}, TY_TEXT, OP, ty__jsonb_elem_text, 3481},
    {"#>", 2, {TY_JSON, TY_TEXT_ARRAY}, TY_JSON, OP, ty__json_path, 3966},
    {"#>>", 2, {TY_JSON, TY_TEXT_ARRAY}, TY_TEXT, OP, ty__json_path_text, 3967},
    {"#>", 2, {TY_JSONB, TY_TEXT_ARRAY}, TY_JSONB, OP, ty__jsonb_path, 3213},
    {"#>>", 2, {TY_JSONB, TY_TEXT_ARRAY}, TY_TEXT, OP, ty__jsonb_path_text, 3206},
    {"json_typeof", 1, {TY_JSON}, TY_TEXT, TY_FN_STRICT, ty__jtypeof, 3968},
    {"jsonb_typeof", 1, {TY_JSONB}, TY_TEXT, TY_FN_STRICT, ty__jtypeof, 3210},
    {"=", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_eq, 3240},
    {"<>", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_ne, 3241},
    {"<", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_lt, 3242},
    {">", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_gt, 3243},
    {"<=", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_le, 3244},
    {">=", 2, {TY_JSONB, TY_JSONB}, TY_BOOL, OP, ty__jsonb_ge, 3245},
};

const ty_func_table_t ty_funcs_json = {ty__json, CM_ARRAY_LEN(ty__json)};
