/*
 * test_types_helpers.h: shared helpers of the types unit tests: a context
 * with default settings, and round trips through text so that expectations
 * can be written as PostgreSQL 15 prints them.
 */
#ifndef EDDY_TEST_TYPES_HELPERS_H
#define EDDY_TEST_TYPES_HELPERS_H

#include "types/types.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <string.h>

static cm_arena_t tt_arena;
static cm_err_t tt_err;
static ty_settings_t tt_settings;
static ty_ctx_t tt_ctx;

static __attribute__((unused)) void tt_setup(void)
{
    static bool inited;
    if (inited)
        cm_arena_free(&tt_arena);
    inited = true;
    cm_arena_init(&tt_arena, 8192);
    ty_settings_default(&tt_settings);
    memset(&tt_ctx, 0, sizeof(tt_ctx));
    tt_ctx.arena = &tt_arena;
    tt_ctx.settings = &tt_settings;
    tt_ctx.err = &tt_err;
    cm_err_clear(&tt_err);
}

static __attribute__((unused)) const char *tt_out(ty_oid_t t, const ty_datum_t *d)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (!ty_datum_to_text(t, d, &tt_ctx, &b)) {
        cm_buf_free(&b);
        return "<error>";
    }
    char *s = cm_arena_strndup(&tt_arena, b.len ? (const char *)b.data : "", b.len);
    cm_buf_free(&b);
    return s;
}

/* Parses text as type t (typmod -1) and prints it back; "<error SQLSTATE>" on failure. */
static __attribute__((unused)) const char *tt_rt(ty_oid_t t, int32_t typmod, const char *in)
{
    ty_datum_t d;
    cm_err_clear(&tt_err);
    if (!ty_datum_from_text(t, typmod, in, strlen(in), &tt_ctx, &d))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    return tt_out(t, &d);
}

static __attribute__((unused)) ty_datum_t tt_in(ty_oid_t t, const char *in)
{
    ty_datum_t d;
    cm_err_clear(&tt_err);
    if (!ty_datum_from_text(t, -1, in, strlen(in), &tt_ctx, &d)) {
        printf("  setup parse failed for %s: %s\n", in, tt_err.message);
        memset(&d, 0, sizeof(d));
        d.isnull = true;
    }
    return d;
}

/* Calls the operator or function whose argument types match exactly. */
static __attribute__((unused)) const char *tt_call(const char *name, bool op, ty_oid_t *types, const char **vals, int n)
{
    const ty_func_t *c[128];
    size_t nc = ty_func_candidates(name, op, c, 128);
    const ty_func_t *f = NULL;
    for (size_t i = 0; i < nc && f == NULL; i++) {
        if (c[i]->nargs != n)
            continue;
        bool ok = true;
        for (int k = 0; k < n; k++)
            ok = ok && c[i]->args[k] == types[k];
        if (ok)
            f = c[i];
    }
    if (f == NULL)
        return "<no function>";
    ty_datum_t args[TY_FUNC_ARGS_MAX], out;
    for (int k = 0; k < n; k++)
        args[k] = tt_in(types[k], vals[k]);
    memset(&out, 0, sizeof(out));
    cm_err_clear(&tt_err);
    if (!f->impl(&tt_ctx, args, n, &out))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    if (out.isnull)
        return "<null>";
    return tt_out(f->ret, &out);
}

static __attribute__((unused)) const char *tt_op2(const char *op, ty_oid_t t, const char *a, const char *b)
{
    ty_oid_t types[2] = {t, t};
    const char *vals[2] = {a, b};
    return tt_call(op, true, types, vals, 2);
}

#endif
