/*
 * ty_srf_json.c: the JSON set-returning functions: json[b]_array_elements
 * and _text, json[b]_each and _text (key, value), json[b]_object_keys,
 * with PostgreSQL 15's errors for the wrong kind of value. A jsonb value is
 * stored as its canonical text, so elements and values are slices of it;
 * a json value keeps its own text, duplicate keys and key order.
 */
#include "types/ty_internal.h"

#include <string.h>

#define S TY_FN_STRICT
#define INVALID_PARAMETER "22023"

typedef struct jstate {
    ty_json_t *doc;
    uint32_t i;
} jstate_t;

/* The parsed value on the first call; checks its kind as the function requires. */
static jstate_t *jstart(ty_ctx_t *ctx, const ty_datum_t *a, void **state)
{
    if (*state)
        return *state;
    jstate_t *s = cm_arena_zalloc(ctx->arena, sizeof(*s));
    if (!ty_json_parse(ctx, a[0].v.s.p, a[0].v.s.len, false, &s->doc))
        return NULL;
    *state = s;
    return s;
}

/* A value as json(b) (its text) or, for the _text forms, as text (strings unescaped, null as NULL). */
static bool jvalue(ty_ctx_t *ctx, const ty_json_t *v, bool as_text, ty_datum_t *out)
{
    if (as_text && v->kind == TY_JV_NULL) {
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

static bool elements(ty_ctx_t *ctx, const ty_datum_t *a, void **state, ty_datum_t *out, bool *done, bool jsonb,
                     bool as_text)
{
    bool first = *state == NULL;
    jstate_t *s = jstart(ctx, a, state);
    if (!s)
        return false;
    if (first && s->doc->kind != TY_JV_ARRAY) {
        if (!jsonb)
            return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot call %s on a non-array",
                              as_text ? "json_array_elements_text" : "json_array_elements");
        return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot extract elements from %s",
                          s->doc->kind == TY_JV_OBJECT ? "an object" : "a scalar");
    }
    if (s->i >= s->doc->nitems) {
        *done = true;
        return true;
    }
    return jvalue(ctx, s->doc->items[s->i++], as_text, out);
}

static bool each(ty_ctx_t *ctx, const ty_datum_t *a, void **state, ty_datum_t *out, bool *done, bool jsonb,
                 bool as_text)
{
    bool first = *state == NULL;
    jstate_t *s = jstart(ctx, a, state);
    if (!s)
        return false;
    if (first && s->doc->kind != TY_JV_OBJECT) {
        if (!jsonb && s->doc->kind == TY_JV_ARRAY)
            return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot deconstruct an array as an object");
        if (!jsonb)
            return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot deconstruct a scalar");
        return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot call %s on a non-object",
                          as_text ? "jsonb_each_text" : "jsonb_each");
    }
    if (s->i >= s->doc->nitems) {
        *done = true;
        return true;
    }
    const ty_json_t *k = s->doc->items[s->i], *v = s->doc->items[s->i + 1];
    s->i += 2;
    out[0] = ty_text_datum(ctx->arena, k->str, k->str_len);
    return jvalue(ctx, v, as_text, &out[1]);
}

static bool keys(ty_ctx_t *ctx, const ty_datum_t *a, void **state, ty_datum_t *out, bool *done, bool jsonb)
{
    bool first = *state == NULL;
    jstate_t *s = jstart(ctx, a, state);
    if (!s)
        return false;
    if (first && s->doc->kind != TY_JV_OBJECT)
        return cm_err_set(ctx->err, INVALID_PARAMETER, "cannot call %s on %s",
                          jsonb ? "jsonb_object_keys" : "json_object_keys",
                          s->doc->kind == TY_JV_ARRAY ? "an array" : "a scalar");
    if (s->i >= s->doc->nitems) {
        *done = true;
        return true;
    }
    const ty_json_t *k = s->doc->items[s->i];
    s->i += 2;
    *out = ty_text_datum(ctx->arena, k->str, k->str_len);
    return true;
}

#define SRF_FN(NAME, BODY)                                                                                  \
    static bool NAME(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done) \
    {                                                                                                       \
        return BODY;                                                                                        \
    }
SRF_FN(jsonb_elements, elements(ctx, a, state, out, done, true, false))
SRF_FN(jsonb_elements_text, elements(ctx, a, state, out, done, true, true))
SRF_FN(json_elements, elements(ctx, a, state, out, done, false, false))
SRF_FN(json_elements_text, elements(ctx, a, state, out, done, false, true))
SRF_FN(jsonb_each, each(ctx, a, state, out, done, true, false))
SRF_FN(jsonb_each_text, each(ctx, a, state, out, done, true, true))
SRF_FN(json_each, each(ctx, a, state, out, done, false, false))
SRF_FN(json_each_text, each(ctx, a, state, out, done, false, true))
SRF_FN(jsonb_keys, keys(ctx, a, state, out, done, true))
SRF_FN(json_keys, keys(ctx, a, state, out, done, false))

#define ONE(NAME, ARG, RET, NEXT, OID) {{NAME, 1, {ARG}, RET, S, NULL, OID}, 1, {NULL}, {0}, NEXT}
/* One column with an OUT parameter's name, which FROM names it after. */
#define OUT1(NAME, ARG, RET, COL, NEXT, OID) {{NAME, 1, {ARG}, RET, S, NULL, OID}, 1, {COL}, {RET}, NEXT}
#define TWO(NAME, ARG, V, NEXT, OID) {{NAME, 1, {ARG}, TY_RECORD, S, NULL, OID}, 2, {"key", "value"}, {TY_TEXT, V}, NEXT}

static const ty_srf_t ty__json_srfs[] = {
    OUT1("jsonb_array_elements", TY_JSONB, TY_JSONB, "value", jsonb_elements, 3219),
    OUT1("jsonb_array_elements_text", TY_JSONB, TY_TEXT, "value", jsonb_elements_text, 3465),
    OUT1("json_array_elements", TY_JSON, TY_JSON, "value", json_elements, 3955),
    OUT1("json_array_elements_text", TY_JSON, TY_TEXT, "value", json_elements_text, 3969),
    TWO("jsonb_each", TY_JSONB, TY_JSONB, jsonb_each, 3208),
    TWO("jsonb_each_text", TY_JSONB, TY_TEXT, jsonb_each_text, 3932),
    TWO("json_each", TY_JSON, TY_JSON, json_each, 3958),
    TWO("json_each_text", TY_JSON, TY_TEXT, json_each_text, 3959),
    ONE("jsonb_object_keys", TY_JSONB, TY_TEXT, jsonb_keys, 3931),
    ONE("json_object_keys", TY_JSON, TY_TEXT, json_keys, 3957),
};

size_t ty_srf_json_candidates(const char *name, const ty_func_t **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__json_srfs) && n < max; i++)
        if (strcmp(ty__json_srfs[i].fn.name, name) == 0)
            out[n++] = &ty__json_srfs[i].fn;
    return n;
}
