/*
 * ty_func.c: the registry of scalar functions and operators. Each
 * ty_func_*.c file contributes a table; lookups scan them in order, which is
 * cheap enough for binding (a few hundred entries) and keeps the tables
 * plain constant data that every thread can read.
 */
#include "types/ty_internal.h"

#include <string.h>

/* Tables added by the planner's work, declared here so ty_internal.h need not change with them. */
extern const ty_func_table_t ty_funcs_similar, ty_funcs_overlaps, ty_funcs_settings, ty_funcs_array_subscript;
extern const ty_func_table_t ty_funcs_hash, ty_funcs_to_timestamp, ty_funcs_to_number, ty_funcs_record;
extern const ty_func_table_t ty_funcs_catalog;

static const ty_func_table_t *const ty__tables[] = {
    &ty_funcs_arith, &ty_funcs_cmp, &ty_funcs_cmp_any, &ty_funcs_math,
    &ty_funcs_string, &ty_funcs_datetime, &ty_funcs_misc,
    &ty_funcs_to_char_datetime, &ty_funcs_to_char_number, &ty_funcs_age,
    &ty_funcs_intbits,
    &ty_funcs_similar, &ty_funcs_overlaps, &ty_funcs_settings,
    &ty_funcs_numeric_more,
    &ty_funcs_trig,
    &ty_funcs_mixed,
    &ty_funcs_quote,
    &ty_funcs_format,
    &ty_funcs_text_more,
    &ty_funcs_regex,
    &ty_funcs_datetime_more,
    &ty_funcs_json,
    &ty_funcs_array,
    &ty_funcs_catalog,
    &ty_funcs_array_ops,
    &ty_funcs_array_subscript,
    &ty_funcs_hash,
    &ty_funcs_to_timestamp,
    &ty_funcs_to_number,
    &ty_funcs_record,
};

size_t ty_func_candidates(const char *name, bool is_operator, const ty_func_t **out, size_t max)
{
    size_t n = 0;
    for (size_t t = 0; t < CM_ARRAY_LEN(ty__tables); t++) {
        const ty_func_table_t *tab = ty__tables[t];
        for (size_t i = 0; i < tab->n; i++) {
            const ty_func_t *f = &tab->funcs[i];
            if (((f->flags & TY_FN_OPERATOR) != 0) != is_operator || strcmp(f->name, name) != 0)
                continue;
            if (n < max)
                out[n] = f;
            n++;
        }
    }
    return n < max ? n : max;
}

const ty_func_t *ty_func_lookup(const char *name, bool is_operator, int nargs, const ty_oid_t *args)
{
    const ty_func_t *c[128];   /* array || alone has 67 candidates */
    size_t n = ty_func_candidates(name, is_operator, c, CM_ARRAY_LEN(c));
    for (size_t i = 0; i < n; i++) {
        if (c[i]->nargs != nargs && !(c[i]->flags & TY_FN_VARIADIC))
            continue;
        bool ok = true;
        for (int k = 0; k < nargs && k < TY_FUNC_ARGS_MAX && k < c[i]->nargs; k++)
            if (c[i]->args[k] != TY_INVALID && c[i]->args[k] != args[k])
                ok = false;
        if (ok)
            return c[i];
    }
    return NULL;
}
