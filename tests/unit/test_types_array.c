/*
 * test_types_array.c: arrays: text input and output with PostgreSQL 15's
 * quoting and "malformed array literal" details, binary send/receive bytes
 * as PostgreSQL produces them, ordering, casts, the array functions and
 * operators, ARRAY[...] and ANY/ALL in the evaluator. Expectations come
 * from a PostgreSQL 15 server.
 */
#include "tests/unit/test_types_helpers.h"

static const char *detail_of(ty_oid_t t, const char *in)
{
    ty_datum_t d;
    cm_err_clear(&tt_err);
    if (ty_datum_from_text(t, -1, in, strlen(in), &tt_ctx, &d))
        return "<ok>";
    return tt_err.detail ? cm_arena_strdup(&tt_arena, tt_err.detail) : tt_err.message;
}

static void test_array_text_io(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{a b}"), "{\"a b\"}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{ a , b }"), "{a,b}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{NULL,null,\"NULL\"}"), "{NULL,NULL,\"NULL\"}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{ }"), "{}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "[0:1]={1,2}"), "[0:1]={1,2}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "[2]={1,2}"), "{1,2}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{{1,2},{3,4}}"), "{{1,2},{3,4}}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{a\\,b,\"c\\\"d\"}"), "{\"a,b\",\"c\\\"d\"}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "  {1}  "), "{1}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{\"\",a\\ ,  x\\  }"), "{\"\",\"a \",\"x \"}");
    UNIT_CHECK_STR(tt_rt(TY_TEXT_ARRAY, -1, "{\"{}\",\" x\"}"), "{\"{}\",\" x\"}");
    UNIT_CHECK_STR(tt_rt(TY_INT4_ARRAY, -1, "{1,2,NULL}"), "{1,2,NULL}");
    UNIT_CHECK_STR(tt_rt(TY_INT4_ARRAY, -1, "[-1:0][2:3]={{1,2},{3,4}}"), "[-1:0][2:3]={{1,2},{3,4}}");
    UNIT_CHECK_STR(tt_rt(TY_INT4_ARRAY, -1, "{1,x}"), "<error 22P02>");
    UNIT_CHECK_STR(tt_rt(TY_VARCHAR_ARRAY, 7, "{abcdef}"), "<error 22001>");
    UNIT_CHECK_STR(tt_rt(TY_VARCHAR_ARRAY, 7, "{abc}"), "{abc}");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "1,2"), "Array value must start with \"{\" or dimension information.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{1,2"), "Unexpected end of input.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{1,2}x"), "Junk after closing right brace.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{{1},2}"), "Unexpected array element.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{{1,2},{3}}"),
                   "Multidimensional arrays must have sub-arrays with matching dimensions.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{1,{2}}"), "Unexpected \"{\" character.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{1,,2}"), "Unexpected \",\" character.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{1,}"), "Unexpected \"}\" character.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{{}}"), "Unexpected \"}\" character.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "{\"a\"b}"), "Unexpected array element.");
    UNIT_CHECK_STR(detail_of(TY_TEXT_ARRAY, "[1:3]={1,2}"), "Specified array dimensions do not match array contents.");
    UNIT_CHECK_STR(tt_err.message, "malformed array literal: \"[1:3]={1,2}\"");
}

static const char *hex_send(ty_oid_t t, const char *in)
{
    ty_datum_t d = tt_in(t, in);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (!ty_datum_to_binary(t, &d, &tt_ctx, &b))
        return "<error>";
    char *s = cm_arena_alloc(&tt_arena, b.len * 2 + 1);
    for (size_t i = 0; i < b.len; i++)
        sprintf(s + 2 * i, "%02x", b.data[i]);
    s[2 * b.len] = 0;
    /* The bytes read back must print as the input did. */
    ty_datum_t r;
    if (!ty_datum_from_binary(t, -1, b.data, b.len, &tt_ctx, &r) || strcmp(tt_out(t, &r), tt_out(t, &d)) != 0)
        s = "<round trip failed>";
    cm_buf_free(&b);
    return s;
}

static void test_array_binary(void)
{
    tt_setup();
    UNIT_CHECK_STR(hex_send(TY_INT4_ARRAY, "{1,2,NULL}"),
                   "000000010000000100000017000000030000000100000004000000010000000400000002ffffffff");
    UNIT_CHECK_STR(hex_send(TY_TEXT_ARRAY, "{}"), "000000000000000000000019");
    UNIT_CHECK_STR(hex_send(TY_TEXT_ARRAY, "[0:1]={a,\"b c\"}"),
                   "0000000100000000000000190000000200000000000000016100000003622063");
    /* An int4[] header with a text element type is refused. */
    static const uint8_t wrong[] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 25};
    ty_datum_t d;
    cm_err_clear(&tt_err);
    UNIT_CHECK(!ty_datum_from_binary(TY_INT4_ARRAY, -1, wrong, sizeof(wrong), &tt_ctx, &d));
    UNIT_CHECK_STR(tt_err.sqlstate, "42804");
}

static void test_array_functions(void)
{
    tt_setup();
    ty_oid_t ai[2] = {TY_INT4_ARRAY, TY_INT4}, ia[2] = {TY_INT4, TY_INT4_ARRAY}, aa[2] = {TY_INT4_ARRAY, TY_INT4_ARRAY};
    ty_oid_t at[2] = {TY_INT4_ARRAY, TY_TEXT}, att[3] = {TY_INT4_ARRAY, TY_TEXT, TY_TEXT};
    ty_oid_t tt2[2] = {TY_TEXT, TY_TEXT}, tt3[3] = {TY_TEXT, TY_TEXT, TY_TEXT}, a1[1] = {TY_INT4_ARRAY};
    ty_oid_t aii[3] = {TY_INT4_ARRAY, TY_INT4, TY_INT4};
    UNIT_CHECK_STR(tt_call("array_prepend", false, ia, (const char *[]){"0", "[1:2]={1,2}"}, 2), "{0,1,2}");
    UNIT_CHECK_STR(tt_call("array_append", false, ai, (const char *[]){"[0:1]={1,2}", "3"}, 2), "[0:2]={1,2,3}");
    UNIT_CHECK_STR(tt_call("array_cat", false, aa, (const char *[]){"{{1,2}}", "{3,4}"}, 2), "{{1,2},{3,4}}");
    UNIT_CHECK_STR(tt_call("array_cat", false, aa, (const char *[]){"{1,2}", "{{3,4}}"}, 2), "{{1,2},{3,4}}");
    UNIT_CHECK_STR(tt_call("array_cat", false, aa, (const char *[]){"{1,2}", "{{3}}"}, 2), "<error 2202E>");
    UNIT_CHECK_STR(tt_call("array_cat", false, aa, (const char *[]){"{{1}}", "{{{3}}}"}, 2), "{{{1}},{{3}}}");
    UNIT_CHECK_STR(tt_call("array_to_string", false, at, (const char *[]){"{1,NULL,3}", ","}, 2), "1,3");
    UNIT_CHECK_STR(tt_call("array_to_string", false, att, (const char *[]){"{1,NULL,3}", ",", "*"}, 3), "1,*,3");
    UNIT_CHECK_STR(tt_call("string_to_array", false, tt2, (const char *[]){"a,b,,c", ","}, 2), "{a,b,\"\",c}");
    UNIT_CHECK_STR(tt_call("string_to_array", false, tt2, (const char *[]){"abc", ""}, 2), "{abc}");
    UNIT_CHECK_STR(tt_call("string_to_array", false, tt2, (const char *[]){"", ","}, 2), "{}");
    UNIT_CHECK_STR(tt_call("string_to_array", false, tt3, (const char *[]){"a,N,b", ",", "N"}, 3), "{a,NULL,b}");
    UNIT_CHECK_STR(tt_call("array_position", false, aii, (const char *[]){"{1,2,NULL,2}", "2", "3"}, 3), "4");
    UNIT_CHECK_STR(tt_call("array_remove", false, ai, (const char *[]){"{1,2,1}", "1"}, 2), "{2}");
    UNIT_CHECK_STR(tt_call("array_dims", false, a1, (const char *[]){"[0:1]={1,2}"}, 1), "[0:1]");
    UNIT_CHECK_STR(tt_call("array_length", false, ai, (const char *[]){"{}", "1"}, 2), "<null>");
    UNIT_CHECK_STR(tt_call("array_length", false, ai, (const char *[]){"{{1,2,3},{4,5,6}}", "2"}, 2), "3");
    UNIT_CHECK_STR(tt_call("array_upper", false, ai, (const char *[]){"[0:1]={1,2}", "1"}, 2), "1");
    UNIT_CHECK_STR(tt_call("array_lower", false, ai, (const char *[]){"[0:1]={1,2}", "1"}, 2), "0");
    UNIT_CHECK_STR(tt_call("array_ndims", false, a1, (const char *[]){"{}"}, 1), "<null>");
    UNIT_CHECK_STR(tt_call("cardinality", false, a1, (const char *[]){"{{1,2},{3,4}}"}, 1), "4");
    UNIT_CHECK_STR(tt_op2("@>", TY_INT4_ARRAY, "{1,NULL}", "{NULL}"), "f");
    UNIT_CHECK_STR(tt_op2("@>", TY_INT4_ARRAY, "{1,2,3}", "{3,1,1}"), "t");
    UNIT_CHECK_STR(tt_op2("<@", TY_INT4_ARRAY, "{3,1}", "{1,2,3}"), "t");
    UNIT_CHECK_STR(tt_op2("&&", TY_INT4_ARRAY, "{1,2}", "{2,3}"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_INT4_ARRAY, "{1,2}", "{1,2,0}"), "t");
    UNIT_CHECK_STR(tt_op2("=", TY_INT4_ARRAY, "{{1,2}}", "{1,2}"), "f");
    UNIT_CHECK_STR(tt_op2("=", TY_NUMERIC_ARRAY, "{1.0,2}", "{1,2.00}"), "t");
    UNIT_CHECK_STR(tt_call("||", true, ai, (const char *[]){"{1,2}", "3"}, 2), "{1,2,3}");
    UNIT_CHECK_STR(tt_call("||", true, ia, (const char *[]){"0", "{1,2}"}, 2), "{0,1,2}");
    UNIT_CHECK_STR(tt_call("||", true, aa, (const char *[]){"{1}", "{2}"}, 2), "{1,2}");
    ty_datum_t x = tt_in(TY_NUMERIC_ARRAY, "{1.0,2}"), y = tt_in(TY_NUMERIC_ARRAY, "{1,2.00}");
    UNIT_CHECK(ty_datum_hash(TY_NUMERIC_ARRAY, &x) == ty_datum_hash(TY_NUMERIC_ARRAY, &y));
}

static void test_array_casts_and_types(void)
{
    tt_setup();
    ty_cast_context_t cc;
    UNIT_CHECK(ty_cast_exists(TY_INT4_ARRAY, TY_INT8_ARRAY, &cc) && cc == TY_CAST_IMPLICIT);
    UNIT_CHECK(ty_cast_exists(TY_NUMERIC_ARRAY, TY_INT4_ARRAY, &cc) && cc == TY_CAST_ASSIGNMENT);
    UNIT_CHECK(ty_cast_exists(TY_TEXT, TY_INT4_ARRAY, &cc) && cc == TY_CAST_EXPLICIT);
    UNIT_CHECK(ty_cast_exists(TY_INT4_ARRAY, TY_TEXT, &cc) && cc == TY_CAST_ASSIGNMENT);
    ty_datum_t in = tt_in(TY_NUMERIC_ARRAY, "{1.0,2.5,NULL}"), out;
    UNIT_CHECK(ty_cast_datum(TY_NUMERIC_ARRAY, TY_INT4_ARRAY, -1, &in, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_INT4_ARRAY, &out), "{1,3,NULL}");
    in = tt_in(TY_TEXT_ARRAY, "{abc,de}");
    UNIT_CHECK(ty_cast_datum(TY_TEXT_ARRAY, TY_VARCHAR_ARRAY, 5, &in, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_VARCHAR_ARRAY, &out), "{a,d}");
    in = tt_in(TY_TEXT_ARRAY, "{\"a b\",\"\",\"x\\\\y\"}");
    UNIT_CHECK(ty_cast_datum(TY_TEXT_ARRAY, TY_TEXT, -1, &in, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_TEXT, &out), "{\"a b\",\"\",\"x\\\\y\"}");
    UNIT_CHECK(ty_array_type_of(TY_INT4) == TY_INT4_ARRAY && ty_array_elem_type(TY_JSONB_ARRAY) == TY_JSONB);
    UNIT_CHECK(ty_array_type_of(TY_INT4_ARRAY) == TY_INVALID && ty_array_elem_type(TY_INT4) == TY_INVALID);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_format_type(TY_VARCHAR_ARRAY, 14, &b);
    cm_buf_put_u8(&b, '|');
    ty_format_type(TY_INT4_ARRAY, -1, &b);
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK_STR((const char *)b.data, "character varying(10)[]|integer[]");
    cm_buf_free(&b);
    UNIT_CHECK(ty_info_by_name("_int4") != NULL && ty_info_by_name("_int4")->oid == TY_INT4_ARRAY);
}

static const ty_func_t *find_op(const char *name, ty_oid_t l, ty_oid_t r)
{
    const ty_func_t *c[64];
    size_t n = ty_func_candidates(name, true, c, 64);
    for (size_t i = 0; i < n; i++)
        if (c[i]->nargs == 2 && c[i]->args[0] == l && c[i]->args[1] == r)
            return c[i];
    return NULL;
}

static const char *eval_out(const ty_expr_t *e)
{
    ty_datum_t out;
    cm_err_clear(&tt_err);
    if (!ty_expr_eval(e, &tt_ctx, NULL, NULL, &out))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    return out.isnull ? "<null>" : tt_out(e->type, &out);
}

static const char *any_all(ty_expr_kind_t kind, const char *op, const char *lhs, const char *arr)
{
    ty_expr_t *e = ty_expr_new(&tt_arena, kind, TY_BOOL, 2);
    ty_datum_t l = {.isnull = true};
    if (strcmp(lhs, "NULL") != 0)
        l = tt_in(TY_INT4, lhs);
    e->args[0] = ty_expr_const(&tt_arena, TY_INT4, -1, l);
    e->args[1] = ty_expr_const(&tt_arena, TY_INT4_ARRAY, -1, tt_in(TY_INT4_ARRAY, arr));
    e->func = find_op(op, TY_INT4, TY_INT4);
    return eval_out(e);
}

static void test_array_exprs(void)
{
    tt_setup();
    UNIT_CHECK_STR(any_all(TY_EXPR_ANY, "=", "2", "{1,2,NULL}"), "t");
    UNIT_CHECK_STR(any_all(TY_EXPR_ANY, "=", "3", "{1,2,NULL}"), "<null>");
    UNIT_CHECK_STR(any_all(TY_EXPR_ALL, "<>", "3", "{1,2}"), "t");
    UNIT_CHECK_STR(any_all(TY_EXPR_ALL, "<>", "2", "{1,2,NULL}"), "f");
    UNIT_CHECK_STR(any_all(TY_EXPR_ANY, "=", "NULL", "{}"), "f");
    UNIT_CHECK_STR(any_all(TY_EXPR_ALL, "=", "NULL", "{}"), "t");
    UNIT_CHECK_STR(any_all(TY_EXPR_ANY, "=", "NULL", "{1}"), "<null>");
    /* ARRAY[1, NULL, 3] and ARRAY[ARRAY[1,2], ARRAY[3,4]]. */
    ty_expr_t *a = ty_expr_new(&tt_arena, TY_EXPR_ARRAY, TY_INT4_ARRAY, 3);
    ty_datum_t null = {.isnull = true};
    a->args[0] = ty_expr_const(&tt_arena, TY_INT4, -1, tt_in(TY_INT4, "1"));
    a->args[1] = ty_expr_const(&tt_arena, TY_INT4, -1, null);
    a->args[2] = ty_expr_const(&tt_arena, TY_INT4, -1, tt_in(TY_INT4, "3"));
    UNIT_CHECK_STR(eval_out(a), "{1,NULL,3}");
    ty_expr_t *m = ty_expr_new(&tt_arena, TY_EXPR_ARRAY, TY_INT4_ARRAY, 2);
    m->args[0] = ty_expr_const(&tt_arena, TY_INT4_ARRAY, -1, tt_in(TY_INT4_ARRAY, "{1,2}"));
    m->args[1] = ty_expr_const(&tt_arena, TY_INT4_ARRAY, -1, tt_in(TY_INT4_ARRAY, "{3,4}"));
    UNIT_CHECK_STR(eval_out(m), "{{1,2},{3,4}}");
    m->args[1] = ty_expr_const(&tt_arena, TY_INT4_ARRAY, -1, tt_in(TY_INT4_ARRAY, "{3}"));
    UNIT_CHECK_STR(eval_out(m), "<error 2202E>");
    ty_expr_t *empty = ty_expr_new(&tt_arena, TY_EXPR_ARRAY, TY_TEXT_ARRAY, 0);
    UNIT_CHECK_STR(eval_out(empty), "{}");
}

int main(void)
{
    UNIT_RUN(test_array_text_io);
    UNIT_RUN(test_array_binary);
    UNIT_RUN(test_array_functions);
    UNIT_RUN(test_array_casts_and_types);
    UNIT_RUN(test_array_exprs);
    UNIT_EXIT();
}
