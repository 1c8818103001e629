/*
 * ty_setting_funcs.c: current_setting(name [, missing_ok]) and
 * set_config(name, value, is_local).
 *
 * Settings belong to the server's session, which the types module may not
 * know; the statement's context carries a hook to them (ty_ctx_t's
 * setting_get, setting_set and setting_arg) that the server fills in. As in
 * PostgreSQL, current_setting is stable and strict (the planner keeps it
 * out of constant folding), and set_config is volatile and not strict: a
 * NULL value resets the setting, a NULL is_local means false, a NULL name
 * is an error. set_config returns the setting's new value as SHOW prints it.
 */
#include "types/ty_internal.h"

#include <string.h>

#define T TY_TEXT

static bool ty__no_session(ty_ctx_t *c, const char *fn)
{
    return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not available without a session", fn);
}

/* Copies a text datum into a NUL-terminated arena string. */
static char *ty__cstr(ty_ctx_t *c, const ty_datum_t *d)
{
    char *s = cm_arena_alloc(c->arena, (size_t)d->v.s.len + 1);
    memcpy(s, d->v.s.p, d->v.s.len);
    s[d->v.s.len] = '\0';
    return s;
}

/* The value of name into out; false with err unset means missing (only when missing_ok). */
static bool ty__get(ty_ctx_t *c, const char *name, bool missing_ok, ty_datum_t *out)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool found = c->setting_get(c->setting_arg, name, missing_ok, &b, c->err);
    if (found)
        *out = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    if (found)
        return true;
    if (c->err->set)
        return false;
    out->isnull = true;
    return true;
}

static bool ty__current_setting(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *out)
{
    if (!c->setting_get)
        return ty__no_session(c, "current_setting");
    return ty__get(c, ty__cstr(c, &a[0]), n > 1 && a[1].v.b, out);
}

static bool ty__set_config(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *out)
{
    if (a[0].isnull)
        return cm_err_set(c->err, CM_ERRCODE_NULL_VALUE_NOT_ALLOWED, "SET requires parameter name");
    if (!c->setting_set || !c->setting_get)
        return ty__no_session(c, "set_config");
    const char *name = ty__cstr(c, &a[0]);
    const char *value = a[1].isnull ? NULL : ty__cstr(c, &a[1]);
    bool local = !a[2].isnull && a[2].v.b;
    if (!c->setting_set(c->setting_arg, name, value, local, c->err))
        return false;
    return ty__get(c, name, false, out);
}

static const ty_func_t ty__setting_funcs[] = {
    {"current_setting", 1, {T}, T, TY_FN_STRICT, ty__current_setting, 2077},
    {"current_setting", 2, {T, TY_BOOL}, T, TY_FN_STRICT, ty__current_setting, 3294},
    {"set_config", 3, {T, T, TY_BOOL}, T, TY_FN_VOLATILE, ty__set_config, 2078},
};

const ty_func_table_t ty_funcs_settings = {ty__setting_funcs, CM_ARRAY_LEN(ty__setting_funcs)};
