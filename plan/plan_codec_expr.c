/*
 * plan_codec_expr.c: typed expressions (ty_expr_t) in the plan codec.
 *
 * An expression node is: u8 1 (0 stands for an absent optional one), u8
 * kind, u32 type, i32 typmod, i32 location, u8 flags (1: negated), u8
 * bool_test, i32 index, its function, u32 nargs and the arguments, then
 * for a constant its value: u8 isnull and, when not NULL, u32 length and
 * the type's binary send form (types.h), which carries every datum kind
 * the types module has (arrays with their bounds, numerics with their
 * scale) and is checked on the way in as binary parameters from clients
 * are; a record (no binary input) is u32 ncols and (u32 type, value) each. A function is u8 0 (none) or u8
 * 1, its name, u8 operator, u8 nargs, the argument types and the result
 * type: a key that names one entry of the function tables whatever order
 * they have in a build, so decode resolves it by lookup, never by index.
 *
 * Decode checks what evaluation and EXPLAIN rely on: the arity of each
 * kind, that a column, $n or subquery a node names exists, and that the
 * values a node hands on are held as its consumer reads them
 * (plan__same_shape): a boolean where a condition is read, a function's
 * arguments and result as it declares them, a column as its input has it.
 */
#include "plan/plan_codec.h"

#include <string.h>

/* ============================================================ shapes */

enum { SH_BOOL = 1, SH_INT, SH_FLOAT, SH_BYTES, SH_NUMERIC, SH_INTERVAL, SH_UUID, SH_ARRAY, SH_RECORD, SH_VOID };

/* The member of ty_datum_t that holds a type's values (types.h); a type of its own otherwise. */
static uint32_t shape(ty_oid_t t)
{
    switch (t) {
    case TY_BOOL:
        return SH_BOOL;
    case TY_INT2: case TY_INT4: case TY_INT8: case TY_OID: case TY_REGPROC: case TY_REGCLASS: case TY_REGTYPE:
    case TY_REGNAMESPACE:
    case TY_DATE: case TY_TIME: case TY_TIMESTAMP: case TY_TIMESTAMPTZ:
        return SH_INT;
    case TY_FLOAT4: case TY_FLOAT8:
        return SH_FLOAT;
    case TY_TEXT: case TY_VARCHAR: case TY_BPCHAR: case TY_NAME: case TY_BYTEA: case TY_JSON: case TY_JSONB:
    case TY_CHAR: case TY_UNKNOWN:
        return SH_BYTES;
    case TY_NUMERIC:
        return SH_NUMERIC;
    case TY_INTERVAL:
        return SH_INTERVAL;
    case TY_UUID:
        return SH_UUID;
    case TY_RECORD:
        return SH_RECORD;
    case TY_VOID:
        return SH_VOID;
    default:
        return ty_array_elem_type(t) != TY_INVALID ? SH_ARRAY : 1000 + t;
    }
}

bool plan__same_shape(ty_oid_t a, ty_oid_t b)
{
    return shape(a) == shape(b);
}

static const char *type_name(ty_oid_t t)
{
    const ty_info_t *i = ty_info(t);
    return i ? i->name : "?";
}

bool plan__rd_check_shape(plan__rd_t *r, ty_oid_t have, ty_oid_t want, const char *what)
{
    if (r->failed || plan__same_shape(have, want))
        return !r->failed;
    return plan__rd_fail(r, "%s of type %s where %s is read", what, type_name(have), type_name(want));
}

/* ============================================================ functions */

/* The first table entry with this key; the encoder checks that it is the one it names. */
static const ty_func_t *func_find(const char *name, bool is_operator, int nargs, const ty_oid_t *args, ty_oid_t ret)
{
    const ty_func_t *c[256];
    size_t n = ty_func_candidates(name, is_operator, c, CM_ARRAY_LEN(c));
    for (size_t i = 0; i < n; i++) {
        if (c[i]->nargs != nargs || c[i]->ret != ret)
            continue;
        bool same = true;
        for (int k = 0; k < nargs && same; k++)
            same = c[i]->args[k] == args[k];
        if (same)
            return c[i];
    }
    return NULL;
}

void plan__wr_func(plan__wr_t *w, const ty_func_t *f)
{
    if (!f) {
        plan__wr_u8(w, 0);
        return;
    }
    bool op = (f->flags & TY_FN_OPERATOR) != 0;
    if (f->nargs < 0 || f->nargs > TY_FUNC_ARGS_MAX || func_find(f->name, op, f->nargs, f->args, f->ret) != f) {
        plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "function %s has no key that names it alone", f->name);
        return;
    }
    plan__wr_u8(w, 1);
    plan__wr_str(w, f->name);
    plan__wr_u8(w, op);
    plan__wr_u8(w, (uint8_t)f->nargs);
    for (int i = 0; i < f->nargs; i++)
        plan__wr_u32(w, f->args[i]);
    plan__wr_u32(w, f->ret);
}

const ty_func_t *plan__rd_func(plan__rd_t *r)
{
    uint8_t tag = plan__rd_u8(r);
    if (r->failed || tag == 0)
        return NULL;
    if (tag != 1) {
        plan__rd_fail(r, "function tag %u", tag);
        return NULL;
    }
    const char *name = plan__rd_str(r, "function name");
    bool op = plan__rd_bool(r);
    uint8_t nargs = plan__rd_u8(r);
    if (!r->failed && !name)
        plan__rd_fail(r, "function without a name");
    if (!r->failed && nargs > TY_FUNC_ARGS_MAX)
        plan__rd_fail(r, "function %s with %u arguments", name, nargs);
    ty_oid_t args[TY_FUNC_ARGS_MAX];
    for (int i = 0; i < nargs && !r->failed; i++)
        args[i] = plan__rd_type(r, true);
    ty_oid_t ret = plan__rd_type(r, true);
    if (r->failed)
        return NULL;
    const ty_func_t *f = func_find(name, op, nargs, args, ret);
    if (!f)
        plan__rd_fail(r, "unknown %s %s with %u arguments", op ? "operator" : "function", name, nargs);
    return f;
}

/* ============================================================ constants */

static void wr_datum(plan__wr_t *w, ty_oid_t type, const ty_datum_t *d);

/* A record has no binary input (PostgreSQL's record_recv wants a named type): its columns go one by one. */
static void wr_record(plan__wr_t *w, const ty_record_t *rec)
{
    if (!plan__wr_enter(w))
        return;
    plan__wr_u32(w, (uint32_t)rec->ncols);
    for (int i = 0; i < rec->ncols; i++) {
        plan__wr_u32(w, rec->types[i]);
        wr_datum(w, rec->types[i], &rec->items[i]);
    }
    plan__wr_leave(w);
}

static void wr_datum(plan__wr_t *w, ty_oid_t type, const ty_datum_t *d)
{
    if (d->isnull) {
        plan__wr_u8(w, 1);
        return;
    }
    plan__wr_u8(w, 0);
    if (type == TY_RECORD) {
        wr_record(w, d->v.rec);
        return;
    }
    cm_buf_t t;
    cm_buf_init(&t, 0);
    cm_err_t err = {0};
    w->ctx.err = &err;
    if (!ty_datum_to_binary(type, d, &w->ctx, &t))
        plan__wr_fail(w, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "a constant of type %s cannot be encoded: %s",
                      type_name(type), err.message ? err.message : "");
    else if (t.len >= PLAN_CODEC_STR_NULL)
        plan__wr_fail(w, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "a constant of the plan is too long to encode");
    plan__wr_u32(w, (uint32_t)t.len);
    if (!w->failed)
        cm_buf_put(w->b, t.data, t.len);
    cm_err_clear(&err);
    cm_buf_free(&t);
}

static void rd_datum(plan__rd_t *r, ty_oid_t type, ty_datum_t *out);

static void rd_record(plan__rd_t *r, ty_datum_t *out)
{
    if (!plan__rd_enter(r))
        return;
    int n = plan__rd_count(r, "record columns", r->lim.nodes_max, 5);
    if (r->failed)
        return;
    ty_oid_t *types = cm_arena_alloc(r->arena, sizeof(ty_oid_t) * (size_t)(n ? n : 1));
    ty_datum_t *items = cm_arena_alloc(r->arena, sizeof(ty_datum_t) * (size_t)(n ? n : 1));
    for (int i = 0; i < n && !r->failed; i++) {
        types[i] = plan__rd_type(r, false);
        rd_datum(r, types[i], &items[i]);
    }
    ty_record_t *rec = cm_arena_alloc(r->arena, sizeof(*rec));
    *rec = (ty_record_t){.ncols = n, .types = types, .items = items};
    out->v.rec = rec;
    plan__rd_leave(r);
}

static void rd_datum(plan__rd_t *r, ty_oid_t type, ty_datum_t *out)
{
    memset(out, 0, sizeof(*out));
    uint8_t isnull = plan__rd_u8(r);
    if (isnull > 1)
        plan__rd_fail(r, "NULL flag %u", isnull);
    if (!r->failed && !isnull && type == TY_RECORD)
        rd_record(r, out);
    if (r->failed || isnull || type == TY_RECORD) {
        out->isnull = r->failed || isnull;
        return;
    }
    uint32_t n = plan__rd_u32(r);
    const uint8_t *p = plan__rd_bytes(r, n, "constant");
    if (!p) {
        out->isnull = true;
        return;
    }
    cm_err_t err = {0};
    r->ctx.err = &err;
    if (!ty_datum_from_binary(type, -1, p, n, &r->ctx, out)) {
        r->pos -= n;   /* point at the constant */
        plan__rd_fail(r, "a constant of type %s: %s", type_name(type), err.message ? err.message : "");
        memset(out, 0, sizeof(*out));
        out->isnull = true;
    }
    cm_err_clear(&err);
}

/* ============================================================ writing */

void plan__wr_expr(plan__wr_t *w, const ty_expr_t *e)
{
    if (!e) {
        plan__wr_u8(w, 0);
        return;
    }
    plan__wr_u8(w, 1);
    if (!plan__wr_enter(w))
        return;
    plan__wr_u8(w, (uint8_t)e->kind);
    plan__wr_u32(w, e->type);
    plan__wr_i32(w, e->typmod);
    plan__wr_i32(w, e->location);
    plan__wr_u8(w, e->negated ? 1 : 0);
    plan__wr_u8(w, (uint8_t)e->bool_test);
    plan__wr_i32(w, e->index);
    plan__wr_func(w, e->func);
    plan__wr_u32(w, (uint32_t)e->nargs);
    for (int i = 0; i < e->nargs && !w->failed; i++) {
        if (!e->args[i])
            plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "the plan lacks an expression (planning failed?)");
        plan__wr_expr(w, e->args[i]);
    }
    if (e->kind == TY_EXPR_CONST)
        wr_datum(w, e->type, &e->value);
    else if (e->kind == TY_EXPR_FIELD)
        wr_datum(w, TY_TEXT, &e->value);   /* the field's name */
    plan__wr_leave(w);
}

/* ============================================================ checks */

static bool is_placeholder(const ty_expr_t *e)
{
    return e->kind == TY_EXPR_PARAM && e->index < 0;
}

static bool want_args(plan__rd_t *r, const ty_expr_t *e, int min, int max)
{
    if (e->nargs >= min && (max < 0 || e->nargs <= max))
        return true;
    return plan__rd_fail(r, "an expression of kind %d with %d arguments", (int)e->kind, e->nargs);
}

/*
 * The operator of a comparison-like node: none (the type's own comparison)
 * or a boolean one of two arguments that takes the operands as they are held.
 */
static bool want_cmp_func(plan__rd_t *r, const ty_expr_t *e, bool required, ty_oid_t left, ty_oid_t right)
{
    const ty_func_t *f = e->func;
    if (!f && !required)
        return true;
    if (!f || f->nargs != 2 || !plan__same_shape(f->ret, TY_BOOL))
        return plan__rd_fail(r, "an expression of kind %d needs a boolean operator of two arguments", (int)e->kind);
    return (f->args[0] == TY_INVALID || plan__rd_check_shape(r, left, f->args[0], "an operand")) &&
           (f->args[1] == TY_INVALID || right == TY_INVALID || plan__rd_check_shape(r, right, f->args[1], "an operand"));
}

/* Arguments from `from` on (every step-th, before end) hold values of type t. */
static bool want_arg_shapes(plan__rd_t *r, const ty_expr_t *e, int from, int step, int end, ty_oid_t t)
{
    for (int i = from; i < end && !r->failed; i += step)
        plan__rd_check_shape(r, e->args[i]->type, t, "a value");
    return !r->failed;
}

/* The type an IN list's or ANY's right side is compared as: a subquery's values are cast to the operator's type first. */
static ty_oid_t right_type(plan__rd_t *r, const ty_expr_t *arg, bool array)
{
    if (is_placeholder(arg)) {
        int64_t k = -(int64_t)arg->index - 1;
        if (k >= r->sublinks)
            return TY_INVALID;
        const plan_sublink_t *s = &r->subs[k];
        bool quantified = s->kind == PLAN_SUBLINK_IN || s->kind == PLAN_SUBLINK_ANY || s->kind == PLAN_SUBLINK_ALL;
        /* A scalar or ARRAY subquery on the right of op ANY is the array itself. */
        return quantified || !array ? s->type : ty_array_elem_type(s->type);
    }
    return array ? ty_array_elem_type(arg->type) : arg->type;
}

static bool want_bool_args(plan__rd_t *r, const ty_expr_t *e, int from, int step, int end)
{
    for (int i = from; i < end && !r->failed; i += step)
        plan__rd_check_shape(r, e->args[i]->type, TY_BOOL, "a condition");
    return !r->failed;
}

static bool check_param(plan__rd_t *r, const ty_expr_t *e)
{
    if (e->index >= 0) {
        if (e->index >= r->nparams)
            return plan__rd_fail(r, "parameter $%d of %d", e->index + 1, r->nparams);
        ty_oid_t t = r->param_types[e->index];
        return t == TY_INVALID || plan__rd_check_shape(r, e->type, t, "a parameter");
    }
    int64_t k = -(int64_t)e->index - 1;
    if (k >= r->sublinks)
        return plan__rd_fail(r, "subquery %lld where %d may be used", (long long)k + 1, r->sublinks);
    const plan_sublink_t *s = &r->subs[k];
    /* A scalar or ARRAY subquery stands for a value of its type; IN/ANY/ALL for its column's values. */
    ty_oid_t t = s->kind == PLAN_SUBLINK_EXPR || s->kind == PLAN_SUBLINK_ARRAY ? s->type
                 : s->kind == PLAN_SUBLINK_EXISTS                             ? TY_BOOL
                                                                             : s->rel->types[0];
    return plan__rd_check_shape(r, e->type, t, "a subquery");
}

static bool check_call(plan__rd_t *r, const ty_expr_t *e)
{
    const ty_func_t *f = e->func;
    if (!f)
        return plan__rd_fail(r, "a call without a function");
    int min = (f->flags & TY_FN_VARIADIC) && f->nargs > 0 ? f->nargs - 1 : f->nargs;
    if (e->nargs < min || (!(f->flags & TY_FN_VARIADIC) && e->nargs != f->nargs))
        return plan__rd_fail(r, "%s called with %d arguments", f->name, e->nargs);
    for (int i = 0; i < e->nargs; i++) {
        ty_oid_t want = f->nargs == 0 ? TY_INVALID : f->args[i < f->nargs ? i : f->nargs - 1];
        if (want != TY_INVALID && !plan__rd_check_shape(r, e->args[i]->type, want, "an argument"))
            return false;
    }
    return f->ret == TY_INVALID || plan__rd_check_shape(r, f->ret, e->type, "a result");
}

static bool check_node(plan__rd_t *r, const ty_expr_t *e)
{
    switch (e->kind) {
    case TY_EXPR_CONST:
        return want_args(r, e, 0, 0);
    case TY_EXPR_PARAM:
        return want_args(r, e, 0, 0) && check_param(r, e);
    case TY_EXPR_COLUMN:
        if (!want_args(r, e, 0, 0))
            return false;
        if (e->index < 0 || e->index >= r->row_width)
            return plan__rd_fail(r, "column #%d of a row of %d", e->index, r->row_width);
        return plan__rd_check_shape(r, e->type, r->row_types[e->index], "a column");
    case TY_EXPR_CALL:
        return check_call(r, e);
    case TY_EXPR_CAST:
        return want_args(r, e, 1, 1);   /* ty_cast_datum refuses pairs without a cast */
    case TY_EXPR_AND:
    case TY_EXPR_OR:
        return want_bool_args(r, e, 0, 1, e->nargs) && plan__rd_check_shape(r, e->type, TY_BOOL, "AND/OR");
    case TY_EXPR_NOT:
    case TY_EXPR_IS_BOOL:
        return want_args(r, e, 1, 1) && want_bool_args(r, e, 0, 1, 1) && plan__rd_check_shape(r, e->type, TY_BOOL, "a test");
    case TY_EXPR_CASE:
        if (e->nargs % 2 == 0)
            return plan__rd_fail(r, "CASE with %d arguments", e->nargs);
        /* WHEN conditions, then the THEN values and the ELSE, which are the result */
        return want_bool_args(r, e, 0, 2, e->nargs - 1) && want_arg_shapes(r, e, 1, 2, e->nargs, e->type);
    case TY_EXPR_COALESCE:
        return want_args(r, e, 1, -1) && want_arg_shapes(r, e, 0, 1, e->nargs, e->type);
    case TY_EXPR_GREATEST:
    case TY_EXPR_LEAST:
        return want_args(r, e, 1, -1) && want_arg_shapes(r, e, 0, 1, e->nargs, e->type) &&
               want_cmp_func(r, e, false, e->type, e->type);
    case TY_EXPR_NULLIF:
        if (!want_args(r, e, 2, 2) || !plan__rd_check_shape(r, e->args[0]->type, e->type, "NULLIF's value"))
            return false;
        return want_cmp_func(r, e, false, e->args[0]->type, e->args[1]->type);
    case TY_EXPR_IS_DISTINCT:
        return want_args(r, e, 2, 2) && plan__rd_check_shape(r, e->type, TY_BOOL, "a test") &&
               want_cmp_func(r, e, false, e->args[0]->type, e->args[1]->type);
    case TY_EXPR_IS_NULL:
        return want_args(r, e, 1, 1) && plan__rd_check_shape(r, e->type, TY_BOOL, "a test");
    case TY_EXPR_IN_LIST:
        if (!want_args(r, e, 1, -1) || !plan__rd_check_shape(r, e->type, TY_BOOL, "IN"))
            return false;
        for (int i = 1; i < e->nargs && !r->failed; i++)
            want_cmp_func(r, e, false, e->args[0]->type, right_type(r, e->args[i], false));
        return !r->failed;
    case TY_EXPR_ARRAY: {
        ty_oid_t elem = ty_array_elem_type(e->type);
        if (elem == TY_INVALID)
            return plan__rd_fail(r, "ARRAY of type %s", type_name(e->type));
        /* ARRAY[[1,2],[3,4]]: all arguments are arrays of the type itself, else all elements */
        bool nested = e->nargs > 0 && e->args[0]->type == e->type;
        return want_arg_shapes(r, e, 0, 1, e->nargs, nested ? e->type : elem);
    }
    case TY_EXPR_ANY:
    case TY_EXPR_ALL:
        if (!want_args(r, e, 2, 2) || !plan__rd_check_shape(r, e->type, TY_BOOL, "ANY/ALL"))
            return false;
        if (!is_placeholder(e->args[1]) && ty_array_elem_type(e->args[1]->type) == TY_INVALID)
            return plan__rd_fail(r, "ANY/ALL over type %s", type_name(e->args[1]->type));
        return want_cmp_func(r, e, true, e->args[0]->type, right_type(r, e->args[1], true));
    case TY_EXPR_ROW:
        return plan__rd_check_shape(r, e->type, TY_RECORD, "ROW");
    case TY_EXPR_FIELD:
        if (!want_args(r, e, 1, 1) || !plan__rd_check_shape(r, e->args[0]->type, TY_RECORD, "a field's record"))
            return false;
        if (e->index < 0 || e->value.isnull)
            return plan__rd_fail(r, "field #%d of a record", e->index);
        return true;   /* the column's type is checked against the record's when it is read */
    case TY_EXPR_ROW_COMPARE:
        if (e->index < TY_ROWCMP_LT || e->index > TY_ROWCMP_GT)
            return plan__rd_fail(r, "row comparison %d", e->index);
        if (e->nargs < 2 || e->nargs % 2)
            return plan__rd_fail(r, "row comparison with %d arguments", e->nargs);
        for (int i = 0; i + 1 < e->nargs && !r->failed; i += 2)
            plan__rd_check_shape(r, e->args[i + 1]->type, e->args[i]->type, "a compared value");
        return !r->failed && plan__rd_check_shape(r, e->type, TY_BOOL, "a row comparison");
    }
    return plan__rd_fail(r, "unknown expression kind %d", (int)e->kind);
}

/* ============================================================ reading */

static ty_expr_t *read_node(plan__rd_t *r)
{
    uint8_t kind = plan__rd_u8(r);
    if (!r->failed && kind > TY_EXPR_FIELD)
        plan__rd_fail(r, "unknown expression kind %u", kind);
    ty_expr_t *e = cm_arena_zalloc(r->arena, sizeof(*e));
    e->kind = (ty_expr_kind_t)kind;
    e->type = plan__rd_type(r, false);
    e->typmod = plan__rd_i32(r);
    e->location = plan__rd_i32(r);
    uint8_t flags = plan__rd_u8(r);
    if (flags > 1)
        plan__rd_fail(r, "expression flags %u", flags);
    e->negated = flags & 1;
    uint8_t bt = plan__rd_u8(r);
    if (bt > TY_BOOLTEST_UNKNOWN)
        plan__rd_fail(r, "boolean test %u", bt);
    e->bool_test = (ty_bool_test_t)bt;
    e->index = plan__rd_i32(r);
    e->func = plan__rd_func(r);
    e->nargs = plan__rd_count(r, "arguments", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (r->failed)
        return NULL;
    if (e->nargs > 0)
        e->args = cm_arena_alloc(r->arena, sizeof(ty_expr_t *) * (size_t)e->nargs);
    for (int i = 0; i < e->nargs; i++)
        if (!(e->args[i] = plan__rd_expr(r, false)))
            return NULL;
    if (e->kind == TY_EXPR_CONST)
        rd_datum(r, e->type, &e->value);
    else if (e->kind == TY_EXPR_FIELD)
        rd_datum(r, TY_TEXT, &e->value);
    if (r->failed || !check_node(r, e))
        return NULL;
    return e;
}

ty_expr_t *plan__rd_expr(plan__rd_t *r, bool optional)
{
    uint8_t tag = plan__rd_u8(r);
    if (r->failed)
        return NULL;
    if (tag == 0) {
        if (!optional)
            plan__rd_fail(r, "an expression is missing");
        return NULL;
    }
    if (tag != 1) {
        plan__rd_fail(r, "expression tag %u", tag);
        return NULL;
    }
    if (!plan__rd_enter(r))
        return NULL;
    ty_expr_t *e = read_node(r);
    plan__rd_leave(r);
    return e;
}
