/*
 * pln_namedarg.c: function calls with arguments given by name, f(a => 1) or
 * f(a := 1), as PostgreSQL's ParseFuncOrColumn takes them: positional
 * arguments first, each name once, then the named ones are put in their
 * parameter's place and omitted parameters take their defaults.
 *
 * The types module's function table has no parameter names (nor defaults:
 * make_interval is registered once per argument count instead). Until it
 * has them, the names and defaults PostgreSQL 15 declares for the functions
 * below are kept here; any other function called with a named argument does
 * not exist, which is also PostgreSQL's answer for functions whose
 * parameters have no names.
 */
#include "planner/pln_internal.h"

#include <string.h>

#define PLN_NAMED_MAX 8

typedef struct pln_named_fn {
    const char *name;
    int nparams;
    const char *params[PLN_NAMED_MAX];
    int ndefaults;                /* the last ndefaults parameters have a default: zero of the parameter's type */
    ty_oid_t types[PLN_NAMED_MAX];
} pln_named_fn_t;

#define I TY_INT4
#define F TY_FLOAT8
static const pln_named_fn_t pln_named_fns[] = {
    {"make_interval", 7, {"years", "months", "weeks", "days", "hours", "mins", "secs"}, 7, {I, I, I, I, I, I, F}},
    {"make_date", 3, {"year", "month", "day"}, 0, {I, I, I}},
    {"make_time", 3, {"hour", "min", "sec"}, 0, {I, I, F}},
    {"make_timestamp", 6, {"year", "month", "mday", "hour", "min", "sec"}, 0, {I, I, I, I, I, F}},
    {"make_timestamptz", 6, {"year", "month", "mday", "hour", "min", "sec"}, 0, {I, I, I, I, I, F}},
    {"make_timestamptz", 7, {"year", "month", "mday", "hour", "min", "sec", "timezone"}, 0,
     {I, I, I, I, I, F, TY_TEXT}},
};
#undef I
#undef F

bool pln__has_named_args(const sql_expr_t *call)
{
    for (int i = 0; i < sql_list_len(call->args); i++)
        if (((const sql_expr_t *)call->args->items[i])->kind == SQL_EXPR_NAMED_ARG)
            return true;
    return false;
}

bool pln__check_named_args(pln_binder_t *b, const sql_expr_t *call)
{
    bool named = false;
    for (int i = 0; i < sql_list_len(call->args); i++) {
        const sql_expr_t *a = call->args->items[i];
        if (a->kind != SQL_EXPR_NAMED_ARG) {
            if (named)
                return pln__error(b, a->pos, CM_ERRCODE_SYNTAX_ERROR, "positional argument cannot follow named argument");
            continue;
        }
        named = true;
        for (int j = 0; j < i; j++) {
            const sql_expr_t *o = call->args->items[j];
            if (o->kind == SQL_EXPR_NAMED_ARG && strcmp(o->str, a->str) == 0)
                return pln__error(b, a->pos, CM_ERRCODE_SYNTAX_ERROR, "argument name \"%s\" used more than once",
                                  a->str);
        }
    }
    return true;
}

/* Binds the argument values (positional and named) in the order written. */
static ty_expr_t **bind_values(pln_binder_t *b, const sql_expr_t *call)
{
    int n = sql_list_len(call->args);
    ty_expr_t **v = cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n ? n : 1));
    for (int i = 0; i < n; i++) {
        const sql_expr_t *a = call->args->items[i];
        if (!(v[i] = pln__bind_expr(b, a->kind == SQL_EXPR_NAMED_ARG ? a->arg : a)))
            return NULL;
    }
    return v;
}

static ty_expr_t *no_function(pln_binder_t *b, const sql_expr_t *call, ty_expr_t **v)
{
    cm_buf_t sig;
    cm_buf_init(&sig, 0);
    cm_buf_printf(&sig, "%s(", (const char *)call->names->items[call->names->count - 1]);
    for (int i = 0; i < sql_list_len(call->args); i++) {
        const sql_expr_t *a = call->args->items[i];
        if (i)
            cm_buf_put_str(&sig, ", ");
        if (a->kind == SQL_EXPR_NAMED_ARG)
            cm_buf_printf(&sig, "%s => ", a->str);
        cm_buf_put_str(&sig, pln__type_name(b, v[i]->type));
    }
    cm_buf_put_u8(&sig, ')');
    cm_buf_put_u8(&sig, '\0');
    pln__error(b, call->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist", (const char *)sig.data);
    cm_err_set_hint(b->err, "No function matches the given name and argument types. You might need to add "
                            "explicit type casts.");
    cm_buf_free(&sig);
    return NULL;
}

ty_expr_t *pln__no_function(pln_binder_t *b, const sql_expr_t *call)
{
    ty_expr_t **v = bind_values(b, call);
    return v ? no_function(b, call, v) : NULL;
}

/* Places the values in fn's parameters; false if a name is unknown, taken twice or a parameter has no value. */
static bool place(const pln_named_fn_t *fn, const sql_expr_t *call, ty_expr_t **v, ty_expr_t **slot)
{
    int n = sql_list_len(call->args);
    if (n > fn->nparams)
        return false;
    memset(slot, 0, sizeof(ty_expr_t *) * PLN_NAMED_MAX);
    for (int i = 0; i < n; i++) {
        const sql_expr_t *a = call->args->items[i];
        int p = i;
        if (a->kind == SQL_EXPR_NAMED_ARG)
            for (p = 0; p < fn->nparams && strcmp(fn->params[p], a->str) != 0; p++)
                ;
        if (p >= fn->nparams || slot[p])
            return false;
        slot[p] = v[i];
    }
    for (int p = 0; p < fn->nparams - fn->ndefaults; p++)
        if (!slot[p])
            return false;
    return true;
}

ty_expr_t *pln__bind_named_call(pln_binder_t *b, const sql_expr_t *call)
{
    if (!pln__check_named_args(b, call))
        return NULL;
    ty_expr_t **v = bind_values(b, call);
    if (!v)
        return NULL;
    const char *name = call->names->items[call->names->count - 1];
    for (size_t f = 0; f < CM_ARRAY_LEN(pln_named_fns); f++) {
        const pln_named_fn_t *fn = &pln_named_fns[f];
        ty_expr_t *slot[PLN_NAMED_MAX];
        if (strcmp(fn->name, name) != 0 || !place(fn, call, v, slot))
            continue;
        /* Up to the last parameter given; defaults fill the gaps before it. */
        int last = 0;
        for (int p = 0; p < fn->nparams; p++)
            if (slot[p])
                last = p + 1;
        for (int p = 0; p < last; p++)
            if (!slot[p]) {
                ty_datum_t zero;
                memset(&zero, 0, sizeof(zero));
                slot[p] = ty_expr_const(b->arena, fn->types[p], -1, zero);
            }
        return pln__make_call(b, name, slot, last, call->pos);
    }
    return no_function(b, call, v);
}
