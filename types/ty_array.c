/*
 * ty_array.c: array values: building and copying, ordering and hashing as
 * PostgreSQL's btree and hash opclasses for anyarray see them, and the text
 * form ({1,2,NULL}, {{1,2},{3,4}}, [0:1]={a,b}) that array_in and array_out
 * read and write, with PostgreSQL 15's quoting rules and "malformed array
 * literal" details.
 */
#include "types/ty_internal.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define TY_ERRCODE_ARRAY_SUBSCRIPT "2202E"

ty_datum_t ty_array_build(cm_arena_t *a, ty_oid_t elem, int ndim, const int *dims, const int *lbound,
                          const ty_datum_t *items)
{
    ty_array_t *arr = cm_arena_zalloc(a, sizeof(*arr));
    arr->elem = elem;
    int n = ndim > 0 ? 1 : 0;
    for (int i = 0; i < ndim; i++)
        n *= dims[i];
    if (n == 0)
        ndim = 0;   /* any zero-length dimension makes the empty array */
    arr->ndim = ndim;
    for (int i = 0; i < ndim; i++) {
        arr->dims[i] = dims[i];
        arr->lbound[i] = lbound ? lbound[i] : 1;
    }
    arr->nitems = n;
    if (n > 0) {
        ty_datum_t *it = cm_arena_alloc(a, sizeof(*it) * (size_t)n);
        memcpy(it, items, sizeof(*it) * (size_t)n);
        for (int i = 0; i < n; i++)
            arr->hasnull |= it[i].isnull;
        arr->items = it;
    }
    ty_datum_t d;
    memset(&d, 0, sizeof(d));
    d.v.arr = arr;
    return d;
}

ty_datum_t ty_array_make(cm_arena_t *a, ty_oid_t elem, const ty_datum_t *items, int n)
{
    int dims[1] = {n};
    return ty_array_build(a, elem, 1, dims, NULL, items);
}

ty_datum_t ty_array_copy(const ty_datum_t *d, cm_arena_t *a)
{
    if (d->isnull)
        return *d;
    const ty_array_t *src = d->v.arr;
    ty_datum_t r = ty_array_build(a, src->elem, src->ndim, src->dims, src->lbound, src->items);
    ty_datum_t *it = (ty_datum_t *)r.v.arr->items;
    for (int i = 0; i < src->nitems; i++)
        it[i] = ty_datum_copy(src->elem, &src->items[i], a);
    return r;
}

/* PostgreSQL's array_cmp: elements first (NULL above everything), then the
 * number of elements, dimensions and lower bounds. */
int ty_array_cmp(const ty_datum_t *da, const ty_datum_t *db)
{
    const ty_array_t *a = da->v.arr, *b = db->v.arr;
    int n = a->nitems < b->nitems ? a->nitems : b->nitems;
    for (int i = 0; i < n; i++) {
        int c = ty_datum_compare(a->elem, &a->items[i], &b->items[i]);
        if (c != 0)
            return c < 0 ? -1 : 1;
    }
    if (a->nitems != b->nitems)
        return a->nitems < b->nitems ? -1 : 1;
    if (a->ndim != b->ndim)
        return a->ndim < b->ndim ? -1 : 1;
    for (int i = 0; i < a->ndim; i++) {
        if (a->dims[i] != b->dims[i])
            return a->dims[i] < b->dims[i] ? -1 : 1;
        if (a->lbound[i] != b->lbound[i])
            return a->lbound[i] < b->lbound[i] ? -1 : 1;
    }
    return 0;
}

uint64_t ty_array_hash(const ty_datum_t *d)
{
    const ty_array_t *a = d->v.arr;
    uint64_t h = 1469598103934665603ull ^ (uint64_t)a->ndim;
    for (int i = 0; i < a->ndim; i++)
        h = (h ^ ((uint64_t)(uint32_t)a->dims[i] << 32 | (uint32_t)a->lbound[i])) * 1099511628211ull;
    for (int i = 0; i < a->nitems; i++)
        h = (h * 31 + ty_datum_hash(a->elem, &a->items[i])) * 1099511628211ull;
    return h;
}

/* ===== text input (array_in) ===== */

typedef struct ty_arr_parse {
    ty_ctx_t *ctx;
    const char *in, *p, *end;
    size_t in_len;
    int ndim;                        /* depth of the leaves, 0 until the first element */
    int dims[TY_ARRAY_MAXDIM];       /* known length per level, -1 until a level closes */
    cm_buf_t items;                  /* element strings: offsets into strs, or NULL marks */
    cm_buf_t strs;
} ty_arr_parse_t;

typedef struct ty_arr_item {
    size_t off, len;
    bool isnull;
} ty_arr_item_t;

static bool ty__aspace(char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f';
}

static bool ty__amalformed(ty_arr_parse_t *ps, const char *detail)
{
    cm_err_set(ps->ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "malformed array literal: \"%.*s\"",
               (int)ps->in_len, ps->in);
    cm_err_set_detail(ps->ctx->err, "%s", detail);
    return false;
}

static bool ty__aunexpected(ty_arr_parse_t *ps, char c)
{
    char d[32];
    snprintf(d, sizeof(d), "Unexpected \"%c\" character.", c);
    return ty__amalformed(ps, d);
}

static void ty__askip(ty_arr_parse_t *ps)
{
    while (ps->p < ps->end && ty__aspace(*ps->p))
        ps->p++;
}

/* One element, quoted or not; backslash takes the next character literally. */
static bool ty__aelement(ty_arr_parse_t *ps)
{
    ty_arr_item_t it = {ps->strs.len, 0, false};
    bool quoted = false, escaped_any = false;
    size_t keep = ps->strs.len;   /* unquoted: trailing spaces after this are dropped */
    if (*ps->p == '"') {
        quoted = true;
        ps->p++;
        for (;;) {
            if (ps->p >= ps->end)
                return ty__amalformed(ps, "Unexpected end of input.");
            char c = *ps->p++;
            if (c == '"')
                break;
            if (c == '\\') {
                if (ps->p >= ps->end)
                    return ty__amalformed(ps, "Unexpected end of input.");
                c = *ps->p++;
            }
            cm_buf_put_u8(&ps->strs, (uint8_t)c);
        }
        ty__askip(ps);
    } else {
        for (;;) {
            if (ps->p >= ps->end)
                return ty__amalformed(ps, "Unexpected end of input.");
            char c = *ps->p;
            if (c == ',' || c == '}')
                break;
            if (c == '{' || c == '"')
                return ty__amalformed(ps, "Unexpected array element.");
            ps->p++;
            if (c == '\\') {
                if (ps->p >= ps->end)
                    return ty__amalformed(ps, "Unexpected end of input.");
                c = *ps->p++;
                escaped_any = true;
                cm_buf_put_u8(&ps->strs, (uint8_t)c);
                keep = ps->strs.len;
                continue;
            }
            cm_buf_put_u8(&ps->strs, (uint8_t)c);
            if (!ty__aspace(c))
                keep = ps->strs.len;
        }
        ps->strs.len = keep;
    }
    if (ps->p >= ps->end)
        return ty__amalformed(ps, "Unexpected end of input.");
    if (*ps->p != ',' && *ps->p != '}')
        return ty__amalformed(ps, "Unexpected array element.");
    it.len = ps->strs.len - it.off;
    if (!quoted && !escaped_any && it.len == 4 && cm_strncasecmp((const char *)ps->strs.data + it.off, "null", 4) == 0)
        it.isnull = true;
    cm_buf_put(&ps->items, &it, sizeof(it));
    return true;
}

static bool ty__alevel(ty_arr_parse_t *ps, int depth)
{
    if (depth >= TY_ARRAY_MAXDIM)
        return cm_err_set(ps->ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                          "number of array dimensions (%d) exceeds the maximum allowed (%d)", depth + 1,
                          TY_ARRAY_MAXDIM);
    ps->p++;   /* the '{' */
    ty__askip(ps);
    if (ps->p < ps->end && *ps->p == '}') {
        /* {} is the empty array only at the top. */
        if (depth > 0)
            return ty__aunexpected(ps, '}');
        ps->p++;
        return true;
    }
    int count = 0;
    for (;;) {
        ty__askip(ps);
        if (ps->p >= ps->end)
            return ty__amalformed(ps, "Unexpected end of input.");
        char c = *ps->p;
        if (c == '{') {
            if (ps->ndim != 0 && ps->ndim <= depth + 1)
                return ps->ndim == depth + 1 && count > 0 ? ty__aunexpected(ps, '{')
                                                          : ty__amalformed(ps, "Multidimensional arrays must have sub-arrays with matching dimensions.");
            if (!ty__alevel(ps, depth + 1))
                return false;
        } else if (c == '}' || c == ',') {
            return ty__aunexpected(ps, c);
        } else {
            if (ps->ndim == 0)
                ps->ndim = depth + 1;
            else if (ps->ndim != depth + 1)
                return ty__amalformed(ps, ps->ndim > depth + 1 ? "Unexpected array element."
                                                               : "Multidimensional arrays must have sub-arrays with matching dimensions.");
            if (!ty__aelement(ps))
                return false;
        }
        count++;
        ty__askip(ps);
        if (ps->p >= ps->end)
            return ty__amalformed(ps, "Unexpected end of input.");
        if (*ps->p == ',') {
            ps->p++;
            continue;
        }
        if (*ps->p == '}') {
            ps->p++;
            break;
        }
        return ty__amalformed(ps, "Unexpected array element.");
    }
    if (ps->dims[depth] == -1)
        ps->dims[depth] = count;
    else if (ps->dims[depth] != count)
        return ty__amalformed(ps, "Multidimensional arrays must have sub-arrays with matching dimensions.");
    return true;
}

/* [lo:hi][lo:hi]= before the braces; returns the number of dimensions given. */
static bool ty__adecoration(ty_arr_parse_t *ps, int *ndim, int *dims, int *lb)
{
    *ndim = 0;
    while (ps->p < ps->end && *ps->p == '[') {
        if (*ndim >= TY_ARRAY_MAXDIM)
            return cm_err_set(ps->ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                              "number of array dimensions (%d) exceeds the maximum allowed (%d)", *ndim + 1,
                              TY_ARRAY_MAXDIM);
        ps->p++;
        char buf[32];
        long v[2];
        int nv = 0;
        for (;;) {
            ty__askip(ps);
            size_t n = 0;
            if (ps->p < ps->end && (*ps->p == '-' || *ps->p == '+'))
                buf[n++] = *ps->p++;
            while (ps->p < ps->end && *ps->p >= '0' && *ps->p <= '9' && n < sizeof(buf) - 1)
                buf[n++] = *ps->p++;
            buf[n] = 0;
            if (n == 0 || (n == 1 && (buf[0] == '-' || buf[0] == '+')))
                return ty__amalformed(ps, "Missing array dimension value.");
            v[nv++] = strtol(buf, NULL, 10);
            ty__askip(ps);
            if (nv == 1 && ps->p < ps->end && *ps->p == ':') {
                ps->p++;
                continue;
            }
            break;
        }
        if (ps->p >= ps->end || *ps->p != ']')
            return ty__amalformed(ps, "Missing \"]\" after array dimensions.");
        ps->p++;
        long lo = nv == 2 ? v[0] : 1, hi = nv == 2 ? v[1] : v[0];
        if (hi < lo)
            return cm_err_set(ps->ctx->err, TY_ERRCODE_ARRAY_SUBSCRIPT, "upper bound cannot be less than lower bound");
        lb[*ndim] = (int)lo;
        dims[*ndim] = (int)(hi - lo + 1);
        (*ndim)++;
    }
    if (*ndim > 0) {
        ty__askip(ps);
        if (ps->p >= ps->end || *ps->p != '=')
            return ty__amalformed(ps, "Missing \"=\" after array dimensions.");
        ps->p++;
        ty__askip(ps);
    }
    return true;
}

bool ty_array_in(ty_oid_t arrtype, int32_t typmod, const char *p, size_t len, ty_ctx_t *ctx, ty_datum_t *out)
{
    ty_oid_t elem = ty_array_elem_type(arrtype);
    ty_arr_parse_t ps;
    memset(&ps, 0, sizeof(ps));
    ps.ctx = ctx;
    ps.in = ps.p = p;
    ps.in_len = len;
    ps.end = p + len;
    for (int i = 0; i < TY_ARRAY_MAXDIM; i++)
        ps.dims[i] = -1;
    cm_buf_init(&ps.items, 0);
    cm_buf_init(&ps.strs, 0);
    int dndim, ddims[TY_ARRAY_MAXDIM], dlb[TY_ARRAY_MAXDIM];
    bool ok = false;
    ty__askip(&ps);
    if (!ty__adecoration(&ps, &dndim, ddims, dlb))
        goto done;
    if (ps.p >= ps.end || *ps.p != '{') {
        ty__amalformed(&ps, "Array value must start with \"{\" or dimension information.");
        goto done;
    }
    if (!ty__alevel(&ps, 0))
        goto done;
    ty__askip(&ps);
    if (ps.p != ps.end) {
        ty__amalformed(&ps, "Junk after closing right brace.");
        goto done;
    }
    int nitems = (int)(ps.items.len / sizeof(ty_arr_item_t));
    if (dndim > 0) {
        bool match = dndim == ps.ndim;
        for (int i = 0; match && i < dndim; i++)
            match = ddims[i] == ps.dims[i];
        if (!match && !(nitems == 0 && ps.ndim == 0)) {
            ty__amalformed(&ps, "Specified array dimensions do not match array contents.");
            goto done;
        }
    }
    ty_datum_t *vals = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)(nitems ? nitems : 1));
    const ty_arr_item_t *its = (const ty_arr_item_t *)ps.items.data;
    for (int i = 0; i < nitems; i++) {
        if (its[i].isnull) {
            memset(&vals[i], 0, sizeof(vals[i]));
            vals[i].isnull = true;
            continue;
        }
        const char *s = its[i].len ? (const char *)ps.strs.data + its[i].off : "";
        if (!ty_datum_from_text(elem, typmod, s, its[i].len, ctx, &vals[i]))
            goto done;
        vals[i].isnull = false;
    }
    *out = ty_array_build(ctx->arena, elem, ps.ndim, ps.dims, dndim > 0 ? dlb : NULL, vals);
    ok = true;
done:
    cm_buf_free(&ps.items);
    cm_buf_free(&ps.strs);
    return ok;
}

/* ===== text output (array_out) ===== */

static void ty__aquote(const char *s, size_t n, cm_buf_t *out)
{
    bool need = n == 0 || (n == 4 && cm_strncasecmp(s, "null", 4) == 0);
    for (size_t i = 0; i < n && !need; i++)
        need = s[i] == '"' || s[i] == '\\' || s[i] == '{' || s[i] == '}' || s[i] == ',' || ty__aspace(s[i]);
    if (!need) {
        cm_buf_put(out, s, n);
        return;
    }
    cm_buf_put_u8(out, '"');
    for (size_t i = 0; i < n; i++) {
        if (s[i] == '"' || s[i] == '\\')
            cm_buf_put_u8(out, '\\');
        cm_buf_put_u8(out, (uint8_t)s[i]);
    }
    cm_buf_put_u8(out, '"');
}

bool ty_array_out(ty_oid_t arrtype, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out)
{
    const ty_array_t *a = d->v.arr;
    bool decorate = false;
    for (int i = 0; i < a->ndim; i++)
        decorate |= a->lbound[i] != 1;
    if (decorate) {
        for (int i = 0; i < a->ndim; i++)
            cm_buf_printf(out, "[%d:%d]", a->lbound[i], a->lbound[i] + a->dims[i] - 1);
        cm_buf_put_u8(out, '=');
    }
    if (a->nitems == 0) {
        cm_buf_put_str(out, "{}");
        return true;
    }
    int idx[TY_ARRAY_MAXDIM] = {0};
    cm_buf_t el;
    cm_buf_init(&el, 0);
    bool ok = true;
    for (int k = 0; k < a->ndim; k++)
        cm_buf_put_u8(out, '{');
    for (int i = 0; i < a->nitems && ok; i++) {
        if (a->items[i].isnull) {
            cm_buf_put_str(out, "NULL");
        } else {
            cm_buf_reset(&el);
            ok = ty_datum_to_text(a->elem, &a->items[i], ctx, &el);
            ty__aquote(el.len ? (const char *)el.data : "", el.len, out);
        }
        /* Close finished dimensions, innermost first, then open new ones. */
        int k = a->ndim - 1;
        while (k >= 0 && ++idx[k] == a->dims[k]) {
            idx[k] = 0;
            cm_buf_put_u8(out, '}');
            k--;
        }
        if (k >= 0) {
            cm_buf_put_u8(out, ',');
            for (int j = k + 1; j < a->ndim; j++)
                cm_buf_put_u8(out, '{');
        }
    }
    cm_buf_free(&el);
    return ok;
}
