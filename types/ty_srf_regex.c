/*
 * ty_srf_regex.c: regexp_matches and regexp_split_to_table, as
 * PostgreSQL's setup_regexp_matches finds matches: one (or, with 'g',
 * every one, a zero-length match advancing by one character), and for
 * splitting without the zero-length matches at the end of the string or
 * right after the previous match. All matches are found on the first call
 * and the pattern freed at once, so a query that stops reading early leaks
 * nothing. The POSIX engine with PostgreSQL's option letters is the one
 * regexp_replace uses (ty_func_regex.c).
 */
#include "types/ty_internal.h"

#include <string.h>

#define S TY_FN_STRICT

typedef struct rx_rows {
    int n, i;
    ty_datum_t *rows;
} rx_rows_t;

static void push(ty_ctx_t *ctx, rx_rows_t *r, int *cap, ty_datum_t d)
{
    if (r->n == *cap) {
        int c = *cap ? 2 * *cap : 8;
        ty_datum_t *g = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)c);
        if (r->n)
            memcpy(g, r->rows, sizeof(ty_datum_t) * (size_t)r->n);
        r->rows = g;
        *cap = c;
    }
    r->rows[r->n++] = d;
}

/* Finds the matches of a[1] in a[0] with flags a[2]; split: regexp_split_to_table's pieces instead. */
static rx_rows_t *rx_run(ty_ctx_t *ctx, const ty_datum_t *a, int n, bool split)
{
    ty_re_flags_t f;
    if (!ty_re_flags_parse(ctx, n > 2 ? &a[2] : NULL, true, &f))
        return NULL;
    if (split && f.global) {
        cm_err_set(ctx->err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                   "regexp_split_to_table() does not support the \"global\" option");
        return NULL;
    }
    ty_re_t re;
    if (!ty_re_compile(ctx, a[1].v.s.p, a[1].v.s.len, f.cflags, &re))
        return NULL;
    const char *s = ty_datum_cstr(ctx->arena, &a[0]);
    size_t len = a[0].v.s.len, nm = re.nsub + 1;
    regmatch_t *m = cm_arena_alloc(ctx->arena, sizeof(regmatch_t) * nm);
    rx_rows_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    int cap = 0;
    size_t start = 0, prev_end = 0, piece = 0;
    bool glob = f.global || split;
    int rc;
    while ((rc = ty_re_next(ctx, &re, s, len, start, m, nm)) > 0) {
        size_t so = (size_t)m[0].rm_so, eo = (size_t)m[0].rm_eo;
        if (split) {
            if (!(so >= len || eo == prev_end)) {   /* degenerate matches do not split */
                push(ctx, r, &cap, ty_text_datum(ctx->arena, s + piece, so - piece));
                piece = eo;
            }
        } else {
            int ng = re.nsub ? (int)re.nsub : 1;
            ty_datum_t *items = cm_arena_alloc(ctx->arena, sizeof(ty_datum_t) * (size_t)ng);
            for (int g = 0; g < ng; g++) {
                const regmatch_t *x = &m[re.nsub ? g + 1 : 0];
                if (x->rm_so < 0)
                    items[g] = (ty_datum_t){.isnull = true};
                else
                    items[g] = ty_text_datum(ctx->arena, s + x->rm_so, (size_t)(x->rm_eo - x->rm_so));
            }
            push(ctx, r, &cap, ty_array_make(ctx->arena, TY_TEXT, items, ng));
        }
        prev_end = eo;
        if (!glob)
            break;
        start = eo;
        if (so == eo) {
            if (start >= len)
                break;
            uint32_t cp;
            start += ty_utf8_decode(s + start, len - start, &cp);   /* past one character */
        }
    }
    ty_re_free(&re);
    if (rc < 0)
        return NULL;
    if (split)
        push(ctx, r, &cap, ty_text_datum(ctx->arena, s + piece, len - piece));
    return r;
}

static bool rx_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done, bool split)
{
    rx_rows_t *r = *state;
    if (!r && !(r = *state = rx_run(ctx, a, n, split)))
        return false;
    if (r->i >= r->n) {
        *done = true;
        return true;
    }
    *out = r->rows[r->i++];
    return true;
}

static bool matches_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return rx_next(ctx, a, n, state, out, done, false);
}

static bool split_next(ty_ctx_t *ctx, const ty_datum_t *a, int n, void **state, ty_datum_t *out, bool *done)
{
    return rx_next(ctx, a, n, state, out, done, true);
}

#define T TY_TEXT
#define ONE(NAME, RET, NEXT, OID, NARGS, ...) {{NAME, NARGS, {__VA_ARGS__}, RET, S, NULL, OID}, 1, {NULL}, {0}, NEXT}

static const ty_srf_t ty__regex_srfs[] = {
    ONE("regexp_matches", TY_TEXT_ARRAY, matches_next, 2763, 2, T, T),
    ONE("regexp_matches", TY_TEXT_ARRAY, matches_next, 2764, 3, T, T, T),
    ONE("regexp_split_to_table", T, split_next, 2765, 2, T, T),
    ONE("regexp_split_to_table", T, split_next, 2766, 3, T, T, T),
};

size_t ty_srf_regex_candidates(const char *name, const ty_func_t **out, size_t max)
{
    size_t n = 0;
    for (size_t i = 0; i < CM_ARRAY_LEN(ty__regex_srfs) && n < max; i++)
        if (strcmp(ty__regex_srfs[i].fn.name, name) == 0)
            out[n++] = &ty__regex_srfs[i].fn;
    return n;
}
