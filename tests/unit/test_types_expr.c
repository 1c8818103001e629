/* test_types_expr.c: the evaluator's three-valued logic, string functions, LIKE and regex, and pg_sleep's interrupts. */
#include "tests/unit/test_types_helpers.h"

static const ty_func_t *fn(const char *name, bool op, ty_oid_t a, ty_oid_t b, int n)
{
    const ty_func_t *c[64];
    size_t nc = ty_func_candidates(name, op, c, 64);
    for (size_t i = 0; i < nc; i++)
        if (c[i]->nargs == n && (n < 1 || c[i]->args[0] == a) && (n < 2 || c[i]->args[1] == b))
            return c[i];
    return NULL;
}

static ty_expr_t *cb(bool isnull, bool v)
{
    ty_datum_t d = {0};
    d.isnull = isnull;
    d.v.b = v;
    return ty_expr_const(&tt_arena, TY_BOOL, -1, d);
}

static ty_expr_t *ci(int64_t v)
{
    ty_datum_t d = {0};
    d.v.i = v;
    return ty_expr_const(&tt_arena, TY_INT4, -1, d);
}

static ty_expr_t *cnull(ty_oid_t t)
{
    ty_datum_t d = {0};
    d.isnull = true;
    return ty_expr_const(&tt_arena, t, -1, d);
}

static const char *ev(ty_expr_t *e)
{
    ty_datum_t out;
    cm_err_clear(&tt_err);
    if (!ty_expr_eval(e, &tt_ctx, NULL, NULL, &out))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    if (out.isnull)
        return "<null>";
    return tt_out(e->type, &out);
}

static void test_three_valued(void)
{
    tt_setup();
    ty_expr_t *e = ty_expr_new(&tt_arena, TY_EXPR_AND, TY_BOOL, 2);
    e->args[0] = cb(true, false), e->args[1] = cb(false, false);
    UNIT_CHECK_STR(ev(e), "f");
    e->args[1] = cb(false, true);
    UNIT_CHECK_STR(ev(e), "<null>");
    e->kind = TY_EXPR_OR;
    UNIT_CHECK_STR(ev(e), "t");
    e->args[1] = cb(false, false);
    UNIT_CHECK_STR(ev(e), "<null>");
    ty_expr_t *n = ty_expr_new(&tt_arena, TY_EXPR_NOT, TY_BOOL, 1);
    n->args[0] = cb(true, false);
    UNIT_CHECK_STR(ev(n), "<null>");

    /* 1 IN (2, NULL) is NULL; 1 NOT IN (1, NULL) is false. */
    ty_expr_t *in = ty_expr_new(&tt_arena, TY_EXPR_IN_LIST, TY_BOOL, 3);
    in->func = fn("=", true, TY_INT4, TY_INT4, 2);
    in->args[0] = ci(1), in->args[1] = ci(2), in->args[2] = cnull(TY_INT4);
    UNIT_CHECK_STR(ev(in), "<null>");
    in->args[1] = ci(1);
    in->negated = true;
    UNIT_CHECK_STR(ev(in), "f");

    ty_expr_t *d = ty_expr_new(&tt_arena, TY_EXPR_IS_DISTINCT, TY_BOOL, 2);
    d->func = fn("=", true, TY_INT4, TY_INT4, 2);
    d->args[0] = cnull(TY_INT4), d->args[1] = cnull(TY_INT4);
    UNIT_CHECK_STR(ev(d), "f");
    d->args[1] = ci(1);
    UNIT_CHECK_STR(ev(d), "t");

    ty_expr_t *bt = ty_expr_new(&tt_arena, TY_EXPR_IS_BOOL, TY_BOOL, 1);
    bt->args[0] = cb(true, false);
    bt->bool_test = TY_BOOLTEST_UNKNOWN;
    UNIT_CHECK_STR(ev(bt), "t");
    bt->bool_test = TY_BOOLTEST_FALSE;
    bt->negated = true;
    UNIT_CHECK_STR(ev(bt), "t");

    ty_expr_t *cs = ty_expr_new(&tt_arena, TY_EXPR_CASE, TY_INT4, 5);
    cs->args[0] = cb(true, false), cs->args[1] = ci(1), cs->args[2] = cb(false, true), cs->args[3] = ci(2);
    cs->args[4] = ci(3);
    UNIT_CHECK_STR(ev(cs), "2");

    ty_expr_t *co = ty_expr_new(&tt_arena, TY_EXPR_COALESCE, TY_INT4, 2);
    co->args[0] = cnull(TY_INT4), co->args[1] = ci(7);
    UNIT_CHECK_STR(ev(co), "7");

    ty_expr_t *g = ty_expr_new(&tt_arena, TY_EXPR_GREATEST, TY_INT4, 3);
    g->func = fn("<", true, TY_INT4, TY_INT4, 2);
    g->args[0] = ci(3), g->args[1] = cnull(TY_INT4), g->args[2] = ci(9);
    UNIT_CHECK_STR(ev(g), "9");
    g->kind = TY_EXPR_LEAST;
    UNIT_CHECK_STR(ev(g), "3");

    ty_expr_t *ni = ty_expr_new(&tt_arena, TY_EXPR_NULLIF, TY_INT4, 2);
    ni->func = fn("=", true, TY_INT4, TY_INT4, 2);
    ni->args[0] = ci(3), ni->args[1] = ci(3);
    UNIT_CHECK_STR(ev(ni), "<null>");

    /* A strict call on NULL is NULL without calling; errors carry SQLSTATEs. */
    ty_expr_t *call = ty_expr_new(&tt_arena, TY_EXPR_CALL, TY_INT4, 2);
    call->func = fn("/", true, TY_INT4, TY_INT4, 2);
    call->args[0] = ci(1), call->args[1] = cnull(TY_INT4);
    UNIT_CHECK_STR(ev(call), "<null>");
    call->args[1] = ci(0);
    UNIT_CHECK_STR(ev(call), "<error 22012>");
    UNIT_CHECK(!ty_expr_has_flag(call, TY_FN_VOLATILE));

    /* concat(variadic "any") gets its arguments as text and skips NULLs. */
    ty_expr_t *cc = ty_expr_new(&tt_arena, TY_EXPR_CALL, TY_TEXT, 4);
    cc->func = fn("concat", false, TY_INVALID, 0, 1);
    UNIT_CHECK(cc->func != NULL);
    cc->args[0] = ty_expr_const(&tt_arena, TY_TEXT, -1, tt_in(TY_TEXT, "a"));
    cc->args[1] = cnull(TY_TEXT), cc->args[2] = ci(1), cc->args[3] = cb(false, true);
    UNIT_CHECK_STR(ev(cc), "a1t");

    ty_expr_t *cast = ty_expr_new(&tt_arena, TY_EXPR_CAST, TY_INT2, 1);
    cast->args[0] = ci(70000);
    UNIT_CHECK_STR(ev(cast), "<error 22003>");
}

static const char *s1(const char *f, const char *a)
{
    ty_oid_t t[1] = {TY_TEXT};
    const char *v[1] = {a};
    return tt_call(f, false, t, v, 1);
}

static const char *s2(const char *f, ty_oid_t t2, const char *a, const char *b)
{
    ty_oid_t t[2] = {TY_TEXT, t2};
    const char *v[2] = {a, b};
    return tt_call(f, false, t, v, 2);
}

static const char *s3(const char *f, ty_oid_t t2, ty_oid_t t3, const char *a, const char *b, const char *c)
{
    ty_oid_t t[3] = {TY_TEXT, t2, t3};
    const char *v[3] = {a, b, c};
    return tt_call(f, false, t, v, 3);
}

static void test_strings(void)
{
    tt_setup();
    UNIT_CHECK_STR(s3("substring", TY_INT4, TY_INT4, "hello", "0", "3"), "he");
    UNIT_CHECK_STR(s2("substr", TY_INT4, "hello", "2"), "ello");
    UNIT_CHECK_STR(s3("substr", TY_INT4, TY_INT4, "hello", "1", "-1"), "<error 22011>");
    UNIT_CHECK_STR(s2("strpos", TY_TEXT, "hello", "ll"), "3");
    UNIT_CHECK_STR(s2("btrim", TY_TEXT, "xxhixx", "x"), "hi");
    UNIT_CHECK_STR(s1("ltrim", "  hi"), "hi");
    UNIT_CHECK_STR(s3("replace", TY_TEXT, TY_TEXT, "abcabc", "b", "XY"), "aXYcaXYc");
    UNIT_CHECK_STR(s2("left", TY_INT4, "hello", "-2"), "hel");
    UNIT_CHECK_STR(s2("right", TY_INT4, "hello", "-2"), "llo");
    UNIT_CHECK_STR(s2("repeat", TY_INT4, "ab", "3"), "ababab");
    UNIT_CHECK_STR(s1("reverse", "h\xc3\xa9llo"), "oll\xc3\xa9h");
    UNIT_CHECK_STR(s3("lpad", TY_INT4, TY_TEXT, "hi", "5", "xy"), "xyxhi");
    UNIT_CHECK_STR(s2("rpad", TY_INT4, "hello", "3"), "hel");
    UNIT_CHECK_STR(s3("split_part", TY_TEXT, TY_INT4, "a,b,c", ",", "-1"), "c");
    UNIT_CHECK_STR(s3("split_part", TY_TEXT, TY_INT4, "a,b,c", ",", "0"), "<error 22023>");
    UNIT_CHECK_STR(s1("initcap", "hello wORLD-foo bar"), "Hello World-Foo Bar");
    UNIT_CHECK_STR(s1("md5", "abc"), "900150983cd24fb0d6963f7d28e17f72");
    UNIT_CHECK_STR(s1("ascii", "\xc3\xa9"), "233");
    UNIT_CHECK_STR(s1("length", "h\xc3\xa9llo"), "5");
    UNIT_CHECK_STR(s1("octet_length", "h\xc3\xa9llo"), "6");
    UNIT_CHECK_STR(s1("upper", "abc"), "ABC");
    ty_oid_t i4[1] = {TY_INT4};
    const char *v[1] = {"233"};
    UNIT_CHECK_STR(tt_call("chr", false, i4, v, 1), "\xc3\xa9");
    v[0] = "0";
    UNIT_CHECK_STR(tt_call("chr", false, i4, v, 1), "<error 54000>");
}

static void test_patterns(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "abc", "a%"), "t");
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "abc", "a_"), "f");
    UNIT_CHECK_STR(tt_op2("~~*", TY_TEXT, "abc", "A_C"), "t");
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "a%c", "a\\%c"), "t");
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "abc", "a\\%c"), "f");
    UNIT_CHECK_STR(tt_op2("!~~", TY_TEXT, "abc", "%b%"), "f");
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "h\xc3\xa9", "h_"), "t");
    UNIT_CHECK_STR(tt_op2("~~", TY_TEXT, "abc", "ab\\"), "<error 22025>");
    UNIT_CHECK_STR(tt_op2("~", TY_TEXT, "abc", "^a.c$"), "t");
    UNIT_CHECK_STR(tt_op2("~*", TY_TEXT, "ABC", "b"), "t");
    UNIT_CHECK_STR(tt_op2("~", TY_TEXT, "a1", "\\d"), "t");
    UNIT_CHECK_STR(tt_op2("~", TY_TEXT, "a", "("), "<error 2201B>");
    UNIT_CHECK_STR(tt_op2("||", TY_TEXT, "ab", "cd"), "abcd");
}

static void test_sleep_interrupt(void)
{
    tt_setup();
    volatile int cancel = 1;
    tt_ctx.cancel = &cancel;
    ty_oid_t f8[1] = {TY_FLOAT8};
    const char *v[1] = {"5"};
    int64_t t0 = cm_now_mono_us();
    UNIT_CHECK_STR(tt_call("pg_sleep", false, f8, v, 1), "<error 57014>");
    UNIT_CHECK_STR(tt_err.message, "canceling statement due to user request");
    cancel = 0;
    tt_ctx.deadline_mono_us = cm_now_mono_us() + 30000;
    UNIT_CHECK_STR(tt_call("pg_sleep", false, f8, v, 1), "<error 57014>");
    UNIT_CHECK_STR(tt_err.message, "canceling statement due to statement timeout");
    UNIT_CHECK(cm_now_mono_us() - t0 < 1000000);
    const ty_func_t *c[4];
    UNIT_CHECK(ty_func_candidates("pg_sleep", false, c, 4) == 1 && (c[0]->flags & TY_FN_BLOCKING));
}

int main(void)
{
    UNIT_RUN(test_three_valued);
    UNIT_RUN(test_strings);
    UNIT_RUN(test_patterns);
    UNIT_RUN(test_sleep_interrupt);
    UNIT_EXIT();
}
