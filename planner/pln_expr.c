/*
 * pln_expr.c: binds parser expressions into typed ty_expr_t trees
 * (PostgreSQL's transformExpr): literals get their types, operators and
 * functions are resolved, SQL-syntax forms become the calls PostgreSQL
 * makes of them (BETWEEN into comparisons, trim into btrim, ...), and type
 * names with modifiers become OIDs and typmods. Also FigureColname.
 */
#include "planner/pln_internal.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

/* ============================================================ names */

static int colname_strength(const sql_expr_t *e, const char **name)
{
    switch (e->kind) {
    case SQL_EXPR_COLUMN: {
        const char *last = e->names->items[e->names->count - 1];
        if (strcmp(last, "*") == 0)
            return 0;
        *name = last;
        return 2;
    }
    case SQL_EXPR_FUNC:
        *name = e->names->items[e->names->count - 1];
        return 2;
    case SQL_EXPR_CAST: {
        int s = colname_strength(e->arg, name);
        if (s <= 1) {
            *name = e->type->names->items[e->type->names->count - 1];
            return 1;
        }
        return s;
    }
    case SQL_EXPR_FIELD:
        *name = e->str;
        return 2;
    case SQL_EXPR_COLLATE:
    case SQL_EXPR_SUBSCRIPT:   /* a[1] is named after a */
        return colname_strength(e->arg, name);
    case SQL_EXPR_CASE: {
        int s = e->def ? colname_strength(e->def, name) : 0;
        if (s <= 1) {
            *name = "case";
            return 1;
        }
        return s;
    }
    case SQL_EXPR_COALESCE: *name = "coalesce"; return 2;
    case SQL_EXPR_GREATEST: *name = "greatest"; return 2;
    case SQL_EXPR_LEAST: *name = "least"; return 2;
    case SQL_EXPR_NULLIF: *name = "nullif"; return 2;
    case SQL_EXPR_ROW: *name = "row"; return 2;
    case SQL_EXPR_ARRAY: *name = "array"; return 2;
    case SQL_EXPR_SQLVALUE: {
        static const char *const n[] = {
            [SQL_SVF_CURRENT_DATE] = "current_date", [SQL_SVF_CURRENT_TIME] = "current_time",
            [SQL_SVF_CURRENT_TIMESTAMP] = "current_timestamp", [SQL_SVF_LOCALTIME] = "localtime",
            [SQL_SVF_LOCALTIMESTAMP] = "localtimestamp", [SQL_SVF_CURRENT_ROLE] = "current_role",
            [SQL_SVF_CURRENT_USER] = "current_user", [SQL_SVF_USER] = "user",
            [SQL_SVF_SESSION_USER] = "session_user", [SQL_SVF_CURRENT_CATALOG] = "current_catalog",
            [SQL_SVF_CURRENT_SCHEMA] = "current_schema",
        };
        *name = n[e->svf];
        return 2;
    }
    case SQL_EXPR_SUBQUERY:
        if (e->sublink == SQL_SUBLINK_EXISTS) {
            *name = "exists";
            return 2;
        }
        if (e->sublink == SQL_SUBLINK_ARRAY) {
            *name = "array";
            return 2;
        }
        /* The subquery's first output column's name: a set operation's is its leftmost query's. */
        const sql_select_t *sel = e->select;
        while (sel->op != SQL_SETOP_NONE)
            sel = sel->larg;
        if (e->sublink == SQL_SUBLINK_EXPR && sel->values) {
            *name = "column1";
            return 2;
        }
        if (e->sublink == SQL_SUBLINK_EXPR && sql_list_len(sel->targets)) {
            const sql_target_t *t = sel->targets->items[0];
            if (t->alias) {
                *name = t->alias;
                return 2;
            }
            /* The subquery's column name is its output's, "?column?" included, and it is a strong one. */
            if (colname_strength(t->expr, name) == 0)
                *name = "?column?";
            return 2;
        }
        return 0;
    default:
        return 0;
    }
}

const char *pln__colname(const sql_expr_t *e)
{
    const char *name = NULL;
    if (colname_strength(e, &name) == 0 || !name)
        return "?column?";
    return name;
}

/* ======================================================= type names */

static bool typmod_int(pln_binder_t *b, const sql_typename_t *t, int i, int64_t *out)
{
    const sql_expr_t *m = t->typmods->items[i];
    if (m->kind != SQL_EXPR_CONST || m->const_kind != SQL_CONST_INTEGER)
        return pln__error(b, m->pos >= 0 ? m->pos : t->pos, CM_ERRCODE_SYNTAX_ERROR,
                          "type modifiers must be simple constants or identifiers");
    *out = m->ival;
    return true;
}

bool pln__resolve_typename(pln_binder_t *b, const sql_typename_t *t, ty_oid_t *oid, int32_t *typmod)
{
    int n = t->names->count;
    const char *name = t->names->items[n - 1];
    const ty_info_t *info = NULL;
    /* The grammar spells the CHAR keyword bpchar, so a type named char here is an identifier:
     * "char" quoted (or pg_catalog.char), the one-byte type, as in PostgreSQL. */
    if ((n == 1 || (n == 2 && strcmp(t->names->items[0], "pg_catalog") == 0)) && strcmp(name, "char") == 0)
        info = ty_info(TY_CHAR);
    else if (n == 1 || (n == 2 && strcmp(t->names->items[0], "pg_catalog") == 0))
        info = ty_info_by_name(name);
    if (!info) {
        cm_buf_t full;
        cm_buf_init(&full, 0);
        for (int i = 0; i < n; i++)
            cm_buf_printf(&full, "%s%s", i ? "." : "", (const char *)t->names->items[i]);
        cm_buf_put_u8(&full, '\0');
        pln__error(b, t->pos, CM_ERRCODE_UNDEFINED_OBJECT, "type \"%s\" does not exist", (const char *)full.data);
        cm_buf_free(&full);
        return false;
    }
    *oid = info->oid;
    *typmod = -1;
    int nmods = sql_list_len(t->typmods);
    int64_t a = 0, s = 0;
    switch (info->oid) {
    case TY_VARCHAR:
    case TY_BPCHAR:
        if (nmods > 1)
            return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid type modifier");
        if (nmods == 1) {
            if (!typmod_int(b, t, 0, &a))
                return false;
            if (a < 1)
                return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "length for type %s must be at least 1", info->name);
            if (a > 10485760)
                return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "length for type %s cannot exceed 10485760", info->name);
            *typmod = (int32_t)a + 4;
        }
        break;
    case TY_NUMERIC:
        if (nmods > 2)
            return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid NUMERIC type modifier");
        if (nmods >= 1) {
            if (!typmod_int(b, t, 0, &a) || (nmods == 2 && !typmod_int(b, t, 1, &s)))
                return false;
            if (a < 1 || a > 1000)
                return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "NUMERIC precision %lld must be between 1 and %d", (long long)a, 1000);
            if (s < -1000 || s > 1000)
                return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "NUMERIC scale %lld must be between %d and %d", (long long)s, -1000, 1000);
            *typmod = (int32_t)(((a << 16) | (s & 0x7ff)) + 4);
        }
        break;
    case TY_TIMESTAMP:
    case TY_TIMESTAMPTZ:
    case TY_TIME:
        if (nmods > 1)
            return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid type modifier");
        if (nmods == 1) {
            if (!typmod_int(b, t, 0, &a))
                return false;
            if (a < 0)
                return pln__error(b, t->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                                  "%s(%lld) precision must not be negative", info->sql_name, (long long)a);
            *typmod = (int32_t)(a > 6 ? 6 : a);   /* PostgreSQL warns and reduces to 6 */
        }
        break;
    case TY_INTERVAL:
        if (t->interval_fields || t->interval_precision >= 0) {
            int32_t range = t->interval_fields ? t->interval_fields : 0x7FFF;
            int32_t prec = t->interval_precision >= 0 ? (t->interval_precision > 6 ? 6 : t->interval_precision)
                                                      : 0xFFFF;
            *typmod = (range << 16) | prec;
        }
        break;
    default:
        if (nmods > 0)
            return pln__error(b, t->pos, CM_ERRCODE_SYNTAX_ERROR, "type modifier is not allowed for type \"%s\"",
                              info->name);
        break;
    }
    if (t->array_bounds) {
        /* int[], int[][] and int ARRAY are all the one array type; the typmod stays the element's. */
        ty_oid_t arr = ty_array_type_of(info->oid);
        if (arr == TY_INVALID)
            return pln__error(b, t->pos, CM_ERRCODE_UNDEFINED_OBJECT, "type \"%s[]\" does not exist", info->name);
        *oid = arr;
    }
    return true;
}

/* ====================================================== expressions */

static ty_expr_t *bind(pln_binder_t *b, const sql_expr_t *e);

static ty_expr_t *bind_const(pln_binder_t *b, const sql_expr_t *e)
{
    ty_datum_t d;
    memset(&d, 0, sizeof(d));
    ty_expr_t *c;
    switch (e->const_kind) {
    case SQL_CONST_NULL:
        d.isnull = true;
        c = ty_expr_const(b->arena, TY_UNKNOWN, -1, d);
        break;
    case SQL_CONST_BOOL:
        d.v.b = e->boolval;
        c = ty_expr_const(b->arena, TY_BOOL, -1, d);
        break;
    case SQL_CONST_INTEGER:
        d.v.i = e->ival;
        c = ty_expr_const(b->arena, TY_INT4, -1, d);
        break;
    case SQL_CONST_NUMERIC: {
        /* Integers too big for int4 are int8 if they fit, else numeric, as PostgreSQL's make_const does. */
        const char *p = e->str;
        bool integer = *p != '\0';
        for (const char *q = (*p == '-' ? p + 1 : p); *q; q++)
            if (*q < '0' || *q > '9')
                integer = false;
        if (integer && strlen(p) <= 20) {
            errno = 0;
            char *end;
            long long v = strtoll(p, &end, 10);
            if (errno == 0 && *end == '\0') {
                d.v.i = v;
                c = ty_expr_const(b->arena, v >= INT32_MIN && v <= INT32_MAX ? TY_INT4 : TY_INT8, -1, d);
                break;
            }
        }
        if (!ty_numeric_from_text(e->str, e->len, &b->ctx, &d.v.n)) {
            b->err->position = pln__char_pos(b->sql, e->pos);
            return NULL;
        }
        c = ty_expr_const(b->arena, TY_NUMERIC, -1, d);
        break;
    }
    case SQL_CONST_STRING:
        d.v.s.p = e->str;
        d.v.s.len = (uint32_t)e->len;
        c = ty_expr_const(b->arena, TY_UNKNOWN, -1, d);
        break;
    case SQL_CONST_BITSTRING:
    default:
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "bit string literals are not supported yet");
        return NULL;
    }
    c->location = e->pos;
    return c;
}

static ty_expr_t *bind_param(pln_binder_t *b, const sql_expr_t *e)
{
    if (e->ival < 1 || e->ival > PLN_PARAMS_MAX || b->params_forbidden) {
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_PARAMETER, "there is no parameter $%lld", (long long)e->ival);
        return NULL;
    }
    int n = (int)e->ival;
    if (n > b->params_cap) {
        int cap = n < 16 ? 16 : n * 2;
        ty_oid_t *t = cm_arena_zalloc(b->arena, sizeof(ty_oid_t) * (size_t)cap);
        if (b->nparams)
            memcpy(t, b->param_types, sizeof(ty_oid_t) * (size_t)b->nparams);
        b->param_types = t;
        b->params_cap = cap;
    }
    if (n > b->nparams)
        b->nparams = n;
    ty_oid_t t = b->param_types[n - 1];
    ty_expr_t *p = ty_expr_new(b->arena, TY_EXPR_PARAM, t ? t : TY_UNKNOWN, 0);
    p->index = n - 1;
    p->location = e->pos;
    if (b->nparam_nodes == b->param_nodes_cap) {
        int cap = b->param_nodes_cap ? b->param_nodes_cap * 2 : 8;
        ty_expr_t **a = cm_arena_alloc(b->arena, sizeof(*a) * (size_t)cap);
        if (b->nparam_nodes)
            memcpy(a, b->param_nodes, sizeof(*a) * (size_t)b->nparam_nodes);
        b->param_nodes = a;
        b->param_nodes_cap = cap;
    }
    b->param_nodes[b->nparam_nodes++] = p;
    return p;
}

static bool bind_list(pln_binder_t *b, const sql_list_t *l, ty_expr_t **out)
{
    for (int i = 0; i < sql_list_len(l); i++)
        if (!(out[i] = bind(b, l->items[i])))
            return false;
    return true;
}

static ty_expr_t **alloc_args(pln_binder_t *b, int n)
{
    return cm_arena_zalloc(b->arena, sizeof(ty_expr_t *) * (size_t)(n > 0 ? n : 1));
}

static ty_expr_t *bool_node(pln_binder_t *b, ty_expr_kind_t kind, ty_expr_t **args, int n, int pos)
{
    ty_expr_t *e = ty_expr_new(b->arena, kind, TY_BOOL, n);
    for (int i = 0; i < n; i++)
        e->args[i] = args[i];
    e->location = pos;
    return e;
}

static ty_expr_t *bind_bool(pln_binder_t *b, const sql_expr_t *e)
{
    const char *what = e->kind == SQL_EXPR_AND ? "AND" : e->kind == SQL_EXPR_OR ? "OR" : "NOT";
    if (e->kind == SQL_EXPR_NOT) {
        ty_expr_t *a = bind(b, e->arg);
        if (!a || !(a = pln__coerce_bool(b, a, what)))
            return NULL;
        return bool_node(b, TY_EXPR_NOT, &a, 1, e->pos);
    }
    int n = e->args->count;
    ty_expr_t **args = alloc_args(b, n);
    for (int i = 0; i < n; i++)
        if (!(args[i] = bind(b, e->args->items[i])) || !(args[i] = pln__coerce_bool(b, args[i], what)))
            return NULL;
    return bool_node(b, e->kind == SQL_EXPR_AND ? TY_EXPR_AND : TY_EXPR_OR, args, n, e->pos);
}

/* Resolves "=" between two expressions for the constructs that compare (NULLIF, IN, DISTINCT). */
static const ty_func_t *bind_eq(pln_binder_t *b, ty_expr_t **l, ty_expr_t **r, int pos)
{
    ty_expr_t *args[2] = {*l, *r};
    const ty_func_t *f = pln__resolve(b, "=", true, args, 2, pos, true);
    if (f) {
        *l = args[0];
        *r = args[1];
    }
    return f;
}

static ty_expr_t *bind_between(pln_binder_t *b, const sql_expr_t *e)
{
    /* a BETWEEN x AND y is a >= x AND a <= y; NOT BETWEEN is a < x OR a > y. */
    ty_expr_t *a = bind(b, e->arg), *lo = bind(b, e->args->items[0]), *hi = bind(b, e->args->items[1]);
    if (!a || !lo || !hi)
        return NULL;
    const char *op1 = e->negated ? "<" : ">=", *op2 = e->negated ? ">" : "<=";
    ty_expr_kind_t join = e->negated ? TY_EXPR_OR : TY_EXPR_AND;
    ty_expr_t *p[2];
    if (!(p[0] = pln__make_op(b, op1, a, lo, e->pos)) || !(p[1] = pln__make_op(b, op2, a, hi, e->pos)))
        return NULL;
    ty_expr_t *first = bool_node(b, join, p, 2, e->pos);
    if (!e->symmetric)
        return first;
    ty_expr_t *q[2];
    if (!(q[0] = pln__make_op(b, op1, a, hi, e->pos)) || !(q[1] = pln__make_op(b, op2, a, lo, e->pos)))
        return NULL;
    ty_expr_t *second = bool_node(b, join, q, 2, e->pos);
    ty_expr_t *both[2] = {first, second};
    return bool_node(b, e->negated ? TY_EXPR_AND : TY_EXPR_OR, both, 2, e->pos);
}

static ty_expr_t *bind_in(pln_binder_t *b, const sql_expr_t *e)
{
    int n = e->args->count + 1;
    ty_expr_t **args = alloc_args(b, n);
    if (!(args[0] = bind(b, e->arg)) || !bind_list(b, e->args, args + 1))
        return NULL;
    ty_oid_t type;
    int32_t typmod;
    if (!pln__common_type(b, args, n, NULL, "IN", &type, &typmod) || !pln__coerce_all(b, args, n, type, -1, "IN"))
        return NULL;
    ty_expr_t *l = args[0], *r = args[1];
    const ty_func_t *eq = bind_eq(b, &l, &r, e->pos);
    if (!eq)
        return NULL;
    ty_expr_t *in = ty_expr_new(b->arena, TY_EXPR_IN_LIST, TY_BOOL, n);
    for (int i = 0; i < n; i++)
        in->args[i] = args[i];
    in->func = eq;
    in->negated = e->negated;
    in->location = e->pos;
    return in;
}

static ty_expr_t *bind_like(pln_binder_t *b, const sql_expr_t *e)
{
    static const char *const ops[3][2] = {{"~~", "!~~"}, {"~~*", "!~~*"}, {"~", "!~"}};
    ty_expr_t *l = bind(b, e->left), *r = bind(b, e->right);
    if (!l || !r)
        return NULL;
    if (e->like_kind == SQL_SIMILAR) {
        /* PostgreSQL: a ~ similar_to_escape(pattern [, escape]). */
        ty_expr_t *args[2] = {r, NULL};
        if (e->def && !(args[1] = bind(b, e->def)))
            return NULL;
        if (!(r = pln__make_call(b, "similar_to_escape", args, e->def ? 2 : 1, e->pos)))
            return NULL;
    } else if (e->def) {
        /* PostgreSQL rewrites the pattern with like_escape(pattern, escape). */
        ty_expr_t *esc = bind(b, e->def);
        if (!esc)
            return NULL;
        ty_expr_t *args[2] = {r, esc};
        if (!(r = pln__make_call(b, "like_escape", args, 2, e->def->pos)))
            return NULL;
    }
    return pln__make_op(b, ops[e->like_kind][e->negated], l, r, e->pos);
}

static ty_expr_t *bind_case(pln_binder_t *b, const sql_expr_t *e)
{
    int nw = e->args->count / 2;
    ty_expr_t *arg = NULL;
    if (e->arg && !(arg = bind(b, e->arg)))
        return NULL;
    /* Results: THEN values and the ELSE (NULL when absent) share one type. */
    ty_expr_t **res = alloc_args(b, nw + 1);
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(nw + 1));
    for (int i = 0; i < nw; i++) {
        const sql_expr_t *then = e->args->items[2 * i + 1];
        if (!(res[i] = bind(b, then)))
            return NULL;
        pos[i] = then->pos;
    }
    if (e->def) {
        if (!(res[nw] = bind(b, e->def)))
            return NULL;
        pos[nw] = e->def->pos;
    } else {
        ty_datum_t null = {.isnull = true};
        res[nw] = ty_expr_const(b->arena, TY_UNKNOWN, -1, null);
        pos[nw] = e->pos;
    }
    /* PostgreSQL's transformCaseExpr resolves the ELSE first, then the THENs, and
     * select_common_type favours its first input: CASE WHEN c THEN text ELSE varchar END is varchar. */
    ty_expr_t **ord = alloc_args(b, nw + 1);
    int *opos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)(nw + 1));
    ord[0] = res[nw];
    opos[0] = pos[nw];
    for (int i = 0; i < nw; i++) {
        ord[i + 1] = res[i];
        opos[i + 1] = pos[i];
    }
    ty_oid_t type;
    int32_t typmod;
    if (!pln__common_type(b, ord, nw + 1, opos, "CASE", &type, &typmod) ||
        !pln__coerce_all(b, ord, nw + 1, type, typmod, "CASE"))
        return NULL;
    res[nw] = ord[0];
    for (int i = 0; i < nw; i++)
        res[i] = ord[i + 1];
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_CASE, type, 2 * nw + 1);
    c->typmod = typmod;
    c->location = e->pos;
    for (int i = 0; i < nw; i++) {
        const sql_expr_t *when = e->args->items[2 * i];
        ty_expr_t *w = bind(b, when);
        if (!w)
            return NULL;
        if (arg && !(w = pln__make_op(b, "=", arg, w, when->pos)))
            return NULL;
        if (!(w = pln__coerce_bool(b, w, "CASE/WHEN")))
            return NULL;
        c->args[2 * i] = w;
        c->args[2 * i + 1] = res[i];
    }
    c->args[2 * nw] = res[nw];
    return c;
}

static ty_expr_t *bind_varargs(pln_binder_t *b, const sql_expr_t *e)
{
    int n = e->args->count;
    ty_expr_t **args = alloc_args(b, n);
    int *pos = cm_arena_alloc(b->arena, sizeof(int) * (size_t)n);
    if (!bind_list(b, e->args, args))
        return NULL;
    for (int i = 0; i < n; i++)
        pos[i] = ((const sql_expr_t *)e->args->items[i])->pos;
    if (e->kind == SQL_EXPR_NULLIF) {
        /* NULLIF(a, b) compares with "=" and returns a's (coerced) type. */
        const ty_func_t *eq = bind_eq(b, &args[0], &args[1], e->pos);
        if (!eq)
            return NULL;
        ty_expr_t *x = ty_expr_new(b->arena, TY_EXPR_NULLIF, args[0]->type, 2);
        /* The result is a itself or NULL, so a's typmod holds (PostgreSQL's exprTypmod of NullIfExpr). */
        x->typmod = args[0]->typmod;
        x->args[0] = args[0];
        x->args[1] = args[1];
        x->func = eq;
        x->location = e->pos;
        return x;
    }
    const char *ctxname = e->kind == SQL_EXPR_COALESCE ? "COALESCE" : e->kind == SQL_EXPR_GREATEST ? "GREATEST" : "LEAST";
    ty_oid_t type;
    int32_t typmod;
    if (!pln__common_type(b, args, n, pos, ctxname, &type, &typmod) ||
        !pln__coerce_all(b, args, n, type, typmod, ctxname))
        return NULL;
    ty_expr_kind_t k = e->kind == SQL_EXPR_COALESCE ? TY_EXPR_COALESCE
                       : e->kind == SQL_EXPR_GREATEST ? TY_EXPR_GREATEST
                                                      : TY_EXPR_LEAST;
    ty_expr_t *x = ty_expr_new(b->arena, k, type, n);
    x->typmod = typmod;
    x->location = e->pos;
    for (int i = 0; i < n; i++)
        x->args[i] = args[i];
    if (k != TY_EXPR_COALESCE) {
        ty_expr_t *pair[2] = {args[0], args[0]};
        x->func = pln__resolve(b, "<", true, pair, 2, e->pos, false);
    }
    return x;
}

/*
 * pg_typeof(x) is x's type as regtype, known at bind time. x is still
 * evaluated (CASE WHEN x IS NULL THEN t ELSE t END) so that its errors
 * surface as they do in PostgreSQL, where pg_typeof is an ordinary call.
 */
static ty_expr_t *bind_typeof(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t *a = bind(b, e->args->items[0]);
    if (!a)
        return NULL;
    ty_datum_t v = {.v.i = a->type};
    ty_expr_t *t = ty_expr_const(b->arena, TY_REGTYPE, -1, v);
    t->location = e->pos;
    ty_expr_t *test = ty_expr_new(b->arena, TY_EXPR_IS_NULL, TY_BOOL, 1);
    test->args[0] = a;
    ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_CASE, TY_REGTYPE, 3);
    c->args[0] = test;
    c->args[1] = t;
    c->args[2] = t;
    c->location = e->pos;
    return c;
}

/* (s1, e1) OVERLAPS (s2, e2); an interval as a pair's second value means s + i, as PostgreSQL's SQL-language overlaps forms say. */
static ty_expr_t *bind_overlaps(pln_binder_t *b, const sql_expr_t *e)
{
    ty_expr_t *args[4];
    if (!bind_list(b, e->args, args))
        return NULL;
    for (int i = 1; i < 4; i += 2)
        if (args[i]->type == TY_INTERVAL && !(args[i] = pln__make_op(b, "+", args[i - 1], args[i], e->pos)))
            return NULL;
    if (!pln__resolve(b, "overlaps", false, args, 4, e->pos, false) && !b->err->set) {
        /* The grammar names the function with its schema, and so does PostgreSQL's error. */
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function pg_catalog.overlaps(%s, %s, %s, %s) does not exist",
                   pln__type_name(b, args[0]->type), pln__type_name(b, args[1]->type),
                   pln__type_name(b, args[2]->type), pln__type_name(b, args[3]->type));
        cm_err_set_hint(b->err, "No function matches the given name and argument types. You might need to add "
                                "explicit type casts.");
        return NULL;
    }
    return pln__make_call(b, "overlaps", args, 4, e->pos);
}

static ty_expr_t *bind_func(pln_binder_t *b, const sql_expr_t *e)
{
    bool hidden;
    const char *name = pln__func_name(e, &hidden);
    if (!name) {
        pln__error(b, e->pos, CM_ERRCODE_UNDEFINED_FUNCTION, "function %s does not exist",
                   (const char *)e->names->items[e->names->count - 1]);
        return NULL;
    }
    if (e->over && b->params_forbidden) {
        /* EXECUTE's arguments, where PostgreSQL refuses them before it would run any. */
        pln__error(b, e->pos, "42P20", "window functions are not allowed in %s",
                   b->agg_forbidden ? b->agg_forbidden : "this context");
        return NULL;
    }
    if (e->within_group) {
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "WITHIN GROUP is not supported yet");
        return NULL;
    }
    if (e->over)
        return pln__bind_window_call(b, e);
    if (e->syntax == SQL_FUNC_OVERLAPS)
        return bind_overlaps(b, e);
    if (pln__has_named_args(e) && pln__check_named_args(b, e) && pln__is_aggregate(name))
        return pln__no_function(b, e);
    if (b->err->set)
        return NULL;
    if (pln__is_aggregate(name))
        return pln__bind_agg(b, e);
    if (strcmp(name, "pg_typeof") == 0 && e->args->count == 1 && !e->star && !e->distinct)
        return bind_typeof(b, e);
    if (e->star || e->distinct || e->agg_order || e->agg_filter) {
        pln__error(b, e->pos, "42809", "%s specified, but %s is not an aggregate function",
                   e->star ? "*" : e->distinct ? "DISTINCT" : e->agg_order ? "ORDER BY" : "FILTER", name);
        return NULL;
    }
    if (pln__has_named_args(e))
        return pln__bind_named_call(b, e);
    if (pln__is_window_func(name)) {
        pln__error(b, e->pos, "42809", "window function %s requires an OVER clause", name);
        return NULL;
    }
    if (!hidden && pln__is_srf_call(name))
        return pln__bind_srf_call(b, e);   /* generate_series, unnest, ... (pln_srf.c) */
    int n = e->args->count;
    ty_expr_t **args = alloc_args(b, n);
    if (!bind_list(b, e->args, args))
        return NULL;
    return pln__make_call(b, name, args, n, e->pos);
}

static ty_expr_t *bind_sqlvalue(pln_binder_t *b, const sql_expr_t *e)
{
    /* The functions behind the SQL-standard value keywords. */
    static const char *const fn[] = {
        [SQL_SVF_CURRENT_DATE] = "current_date", [SQL_SVF_CURRENT_TIME] = "current_time",
        [SQL_SVF_CURRENT_TIMESTAMP] = "now", [SQL_SVF_LOCALTIME] = "localtime",
        [SQL_SVF_LOCALTIMESTAMP] = "localtimestamp", [SQL_SVF_CURRENT_ROLE] = "current_user",
        [SQL_SVF_CURRENT_USER] = "current_user", [SQL_SVF_USER] = "current_user",
        [SQL_SVF_SESSION_USER] = "session_user", [SQL_SVF_CURRENT_CATALOG] = "current_database",
        [SQL_SVF_CURRENT_SCHEMA] = "current_schema",
    };
    const ty_func_t *c[4];
    if (ty_func_candidates(fn[e->svf], false, c, 4) == 0) {
        cm_buf_t d;
        cm_buf_init(&d, 0);
        sql_deparse_expr(e, &d);
        cm_buf_put_u8(&d, '\0');
        pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "%s is not supported yet", (const char *)d.data);
        cm_buf_free(&d);
        return NULL;
    }
    ty_expr_t *call = pln__make_call(b, fn[e->svf], NULL, 0, e->pos);
    if (call && e->precision >= 0) {
        ty_expr_t *cast = ty_expr_new(b->arena, TY_EXPR_CAST, call->type, 1);
        cast->args[0] = call;
        cast->typmod = e->precision > 6 ? 6 : e->precision;
        cast->location = e->pos;
        return cast;
    }
    return call;
}

static ty_expr_t *bind_cast(pln_binder_t *b, const sql_expr_t *e)
{
    ty_oid_t oid;
    int32_t typmod;
    ty_expr_t *a;
    if (e->arg->kind == SQL_EXPR_ARRAY) {
        /* ARRAY[...]::t[] builds the array of t directly, as PostgreSQL's transformTypeCast does (ARRAY[]::int[]). */
        if (!pln__resolve_typename(b, e->type, &oid, &typmod))
            return NULL;
        a = pln__bind_array(b, e->arg, oid, typmod);
    } else {
        a = bind(b, e->arg);
        if (!a || !pln__resolve_typename(b, e->type, &oid, &typmod))
            return NULL;
    }
    if (!a)
        return NULL;
    int pos = e->cast_form == SQL_CAST_LITERAL ? e->arg->pos : e->pos;
    if (a->type == oid && typmod < 0) {
        /* A cast to the same type keeps the value but drops a typmod, as PostgreSQL's
         * coerce_type_typmod relabels to -1: amount::numeric describes as numeric, not numeric(10,2). */
        if (a->typmod < 0)
            return a;
        ty_expr_t *c = ty_expr_new(b->arena, TY_EXPR_CAST, oid, 1);
        c->args[0] = a;
        c->typmod = -1;
        c->location = pos;
        return c;
    }
    return pln__coerce(b, a, oid, typmod, PLN_CC_EXPLICIT, pos);
}

static ty_expr_t *bind(pln_binder_t *b, const sql_expr_t *e)
{
    if (b->err->set)
        return NULL;
    if (++b->depth > PLN_BIND_DEPTH_MAX) {
        pln__error(b, -1, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
        return NULL;
    }
    ty_expr_t *r = NULL;
    switch (e->kind) {
    case SQL_EXPR_CONST:
        r = bind_const(b, e);
        break;
    case SQL_EXPR_PARAM:
        r = bind_param(b, e);
        break;
    case SQL_EXPR_COLUMN:
        if (e->star)
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "row values (t.*) are not supported yet");
        else
            r = pln__bind_column(b, e);
        break;
    case SQL_EXPR_STAR:
        pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "SELECT * with no tables specified is not valid");
        break;
    case SQL_EXPR_DEFAULT:
        /* INSERT and UPDATE take DEFAULT apart before binding values; anywhere else it is an error. */
        pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "DEFAULT is not allowed in this context");
        break;
    case SQL_EXPR_OP: {
        if (e->left && e->left->kind == SQL_EXPR_ROW && e->right->kind == SQL_EXPR_ROW) {
            r = pln__bind_row_op(b, e);
            break;
        }
        ty_expr_t *l = NULL, *rr;
        if (e->left && !(l = bind(b, e->left)))
            break;
        if (!(rr = bind(b, e->right)))
            break;
        r = pln__make_op(b, e->str, l, rr, e->pos);
        break;
    }
    case SQL_EXPR_AND:
    case SQL_EXPR_OR:
    case SQL_EXPR_NOT:
        r = bind_bool(b, e);
        break;
    case SQL_EXPR_FUNC:
        r = bind_func(b, e);
        break;
    case SQL_EXPR_CAST:
        r = bind_cast(b, e);
        break;
    case SQL_EXPR_CASE:
        r = bind_case(b, e);
        break;
    case SQL_EXPR_COALESCE:
    case SQL_EXPR_GREATEST:
    case SQL_EXPR_LEAST:
    case SQL_EXPR_NULLIF:
        r = bind_varargs(b, e);
        break;
    case SQL_EXPR_NULL_TEST: {
        ty_expr_t *a = bind(b, e->arg);
        if (!a)
            break;
        r = ty_expr_new(b->arena, TY_EXPR_IS_NULL, TY_BOOL, 1);
        r->args[0] = a;
        r->negated = e->negated;
        r->location = e->pos;
        break;
    }
    case SQL_EXPR_BOOL_TEST: {
        static const char *const what[] = {"IS TRUE", "IS FALSE", "IS UNKNOWN"};
        static const char *const not_what[] = {"IS NOT TRUE", "IS NOT FALSE", "IS NOT UNKNOWN"};
        ty_expr_t *a = bind(b, e->arg);
        if (!a || !(a = pln__coerce_bool(b, a, e->negated ? not_what[e->bool_test] : what[e->bool_test])))
            break;
        r = ty_expr_new(b->arena, TY_EXPR_IS_BOOL, TY_BOOL, 1);
        r->args[0] = a;
        r->negated = e->negated;
        r->bool_test = (ty_bool_test_t)e->bool_test;
        r->location = e->pos;
        break;
    }
    case SQL_EXPR_DISTINCT: {
        if (e->left->kind == SQL_EXPR_ROW && e->right->kind == SQL_EXPR_ROW) {
            r = pln__bind_row_distinct(b, e);
            break;
        }
        ty_expr_t *l = bind(b, e->left), *rr = bind(b, e->right);
        if (!l || !rr)
            break;
        const ty_func_t *eq = bind_eq(b, &l, &rr, e->pos);
        if (!eq)
            break;
        r = ty_expr_new(b->arena, TY_EXPR_IS_DISTINCT, TY_BOOL, 2);
        r->args[0] = l;
        r->args[1] = rr;
        r->func = eq;
        r->negated = e->negated;
        r->location = e->pos;
        break;
    }
    case SQL_EXPR_BETWEEN:
        r = bind_between(b, e);
        break;
    case SQL_EXPR_IN:
        r = pln__is_row_in(e) ? pln__bind_row_in(b, e) : bind_in(b, e);
        break;
    case SQL_EXPR_LIKE:
        r = bind_like(b, e);
        break;
    case SQL_EXPR_SQLVALUE:
        r = bind_sqlvalue(b, e);
        break;
    case SQL_EXPR_COLLATE: {
        const char *coll = e->names->items[e->names->count - 1];
        if (strcmp(coll, "C") == 0 || strcmp(coll, "default") == 0 || strcmp(coll, "POSIX") == 0)
            r = bind(b, e->arg);   /* eddy compares bytewise: these collations change nothing */
        else
            pln__error(b, e->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "collations are not supported yet");
        break;
    }
    case SQL_EXPR_SUBQUERY:
        r = pln__bind_sublink(b, e);
        break;
    case SQL_EXPR_ROW:
        r = pln__bind_row(b, e);
        break;
    case SQL_EXPR_ARRAY:
        r = pln__bind_array(b, e, TY_INVALID, -1);
        break;
    case SQL_EXPR_ARRAY_CMP:
        r = pln__bind_array_cmp(b, e);
        break;
    case SQL_EXPR_SUBSCRIPT:
        r = pln__bind_subscript(b, e);
        break;
    case SQL_EXPR_FIELD:
        r = pln__bind_field(b, e);
        break;
    case SQL_EXPR_NAMED_ARG:
        /* The grammar makes them only as function arguments, which bind_func takes apart. */
        pln__error(b, e->pos, CM_ERRCODE_SYNTAX_ERROR, "named argument outside a function call");
        break;
    }
    b->depth--;
    if (!r && !b->err->set)
        pln__error(b, e->pos, CM_ERRCODE_INTERNAL_ERROR, "could not bind expression");
    return r;
}

ty_expr_t *pln__bind_expr(pln_binder_t *b, const sql_expr_t *e)
{
    return bind(b, e);
}
