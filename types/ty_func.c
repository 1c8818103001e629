/*
 * ty_func.c: the registry of scalar functions and operators. Each
 * ty_func_*.c file contributes a table of plain constant data that every
 * thread can read; lookups go through an index by name, built once, that
 * keeps the tables' order among the entries of one name (binding resolves
 * names on every statement, and a scan of a few thousand entries with
 * strcmp cost a one-row INSERT about a tenth of its time).
 */
#include "types/ty_internal.h"

#include <pthread.h>
#include <stdlib.h>
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

/* Every entry, ordered by (operator or not, name, place in the tables). */
typedef struct ty__fentry {
    const ty_func_t *f;
    uint32_t order;
} ty__fentry_t;

static ty__fentry_t *ty__index;
static size_t ty__nindex;
static pthread_once_t ty__index_once = PTHREAD_ONCE_INIT;

static int ty__fentry_cmp(const void *a, const void *b)
{
    const ty__fentry_t *x = a, *y = b;
    bool xo = (x->f->flags & TY_FN_OPERATOR) != 0, yo = (y->f->flags & TY_FN_OPERATOR) != 0;
    if (xo != yo)
        return xo ? 1 : -1;
    int c = strcmp(x->f->name, y->f->name);
    if (c != 0)
        return c;
    return x->order < y->order ? -1 : x->order > y->order;
}

static void ty__index_build(void)
{
    size_t n = 0;
    for (size_t t = 0; t < CM_ARRAY_LEN(ty__tables); t++)
        n += ty__tables[t]->n;
    ty__index = cm_calloc(n ? n : 1, sizeof *ty__index);
    for (size_t t = 0; t < CM_ARRAY_LEN(ty__tables); t++)
        for (size_t i = 0; i < ty__tables[t]->n; i++) {
            ty__index[ty__nindex].f = &ty__tables[t]->funcs[i];
            ty__index[ty__nindex].order = (uint32_t)ty__nindex;
            ty__nindex++;
        }
    qsort(ty__index, ty__nindex, sizeof *ty__index, ty__fentry_cmp);
}

/* <0, 0, >0: where (is_operator, name) sorts against entry e. */
static int ty__fentry_find(bool is_operator, const char *name, const ty__fentry_t *e)
{
    bool eo = (e->f->flags & TY_FN_OPERATOR) != 0;
    if (is_operator != eo)
        return is_operator ? 1 : -1;
    return strcmp(name, e->f->name);
}

size_t ty_func_candidates(const char *name, bool is_operator, const ty_func_t **out, size_t max)
{
    pthread_once(&ty__index_once, ty__index_build);
    size_t lo = 0, hi = ty__nindex;
    while (lo < hi) {   /* the first entry not before (is_operator, name) */
        size_t mid = lo + (hi - lo) / 2;
        if (ty__fentry_find(is_operator, name, &ty__index[mid]) > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    size_t n = 0;
    for (size_t i = lo; i < ty__nindex && ty__fentry_find(is_operator, name, &ty__index[i]) == 0; i++) {
        if (n < max)
            out[n] = ty__index[i].f;
        n++;
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
