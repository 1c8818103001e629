/* test_types_more_text.c: case mapping under C.UTF-8, ILIKE folding, format(), quoting, translate, to_hex and regular-expression functions, expectations from PostgreSQL 15. */
#include "tests/unit/test_types_helpers.h"

static const char *fn(const char *name, int n, ty_oid_t *t, const char **v)
{
    return tt_call(name, false, t, v, n);
}

static const char *t1(const char *name, const char *v)
{
    ty_oid_t t = TY_TEXT;
    return fn(name, 1, &t, &v);
}

static const char *t2(const char *name, const char *a, const char *b)
{
    ty_oid_t t[2] = {TY_TEXT, TY_TEXT};
    const char *v[2] = {a, b};
    return fn(name, 2, t, v);
}

static void test_case_mapping(void)
{
    tt_setup();
    UNIT_CHECK_STR(t1("upper", "äöü straße"), "ÄÖÜ STRAßE");
    UNIT_CHECK_STR(t1("lower", "ÄÖÜ ǅ"), "äöü ǆ");
    UNIT_CHECK_STR(t1("initcap", "élan vital-ÉTÉ x2y"), "Élan Vital-Été X2y");
    UNIT_CHECK_STR(tt_op2("~~*", TY_TEXT, "Ä", "ä"), "t");
    UNIT_CHECK_STR(tt_op2("~~*", TY_TEXT, "ÄB", "%b"), "t");
    UNIT_CHECK_STR(tt_op2("~", TY_TEXT, "ä", "^.$"), "t");
    UNIT_CHECK_STR(tt_op2("~*", TY_TEXT, "Ä", "ä"), "t");
}

/* format() is variadic, so it is called directly; a NULL value stands for SQL NULL. */
static const char *fmt(int n, const char **vals)
{
    const ty_func_t *c[4];
    if (ty_func_candidates("format", false, c, 4) != 1)
        return "<no function>";
    ty_datum_t args[8], out;
    for (int i = 0; i < n; i++) {
        memset(&args[i], 0, sizeof(args[i]));
        if (vals[i] == NULL)
            args[i].isnull = true;
        else
            args[i] = tt_in(TY_TEXT, vals[i]);
    }
    memset(&out, 0, sizeof(out));
    cm_err_clear(&tt_err);
    if (!c[0]->impl(&tt_ctx, args, n, &out))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    return out.isnull ? "<null>" : tt_out(TY_TEXT, &out);
}

static void test_format_quote(void)
{
    tt_setup();
    UNIT_CHECK_STR(fmt(3, (const char *[]){"%s|%I|%L|", "a", "B c"}), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "too few arguments for format()");
    UNIT_CHECK_STR(fmt(4, (const char *[]){"%s|%I|%L|%%", "a", "B c", NULL}), "a|\"B c\"|NULL|%");
    UNIT_CHECK_STR(fmt(4, (const char *[]){"%1$s %2$s %1$I %-4s|", "a", "b", "c"}), "a b a b   |");
    UNIT_CHECK_STR(fmt(2, (const char *[]){"%z", "1"}), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "unrecognized format() type specifier \"z\"");
    UNIT_CHECK_STR(fmt(2, (const char *[]){"%", "1"}), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "unterminated format() type specifier");
    UNIT_CHECK_STR(fmt(3, (const char *[]){"%*s|", "4", "O"}), "   O|");
    UNIT_CHECK_STR(fmt(3, (const char *[]){"%*s|", "-3", "x"}), "x  |");
    UNIT_CHECK_STR(fmt(2, (const char *[]){"%L", "O'Reilly"}), "'O''Reilly'");
    UNIT_CHECK_STR(fmt(2, (const char *[]){"%I", NULL}), "<error 22004>");
    UNIT_CHECK_STR(fmt(1, (const char *[]){NULL}), "<null>");
    UNIT_CHECK_STR(t1("quote_ident", "Foo bar"), "\"Foo bar\"");
    UNIT_CHECK_STR(t1("quote_ident", "select"), "\"select\"");
    UNIT_CHECK_STR(t1("quote_ident", "foo_1"), "foo_1");
    UNIT_CHECK_STR(t1("quote_ident", "ä"), "\"ä\"");
    UNIT_CHECK_STR(t1("quote_literal", "O'Reilly"), "'O''Reilly'");
    UNIT_CHECK_STR(t1("quote_literal", "a\\b"), "E'a\\\\b'");
}

static void test_more_strings(void)
{
    tt_setup();
    ty_oid_t t3[3] = {TY_TEXT, TY_TEXT, TY_TEXT};
    const char *tr[3] = {"12345", "143", "ax"};
    UNIT_CHECK_STR(fn("translate", 3, t3, tr), "a2x5");
    UNIT_CHECK_STR(t1("bit_length", "äb"), "24");
    UNIT_CHECK_STR(tt_op2("^@", TY_TEXT, "alphabet", "alph"), "t");
    ty_oid_t i4 = TY_INT4, i8 = TY_INT8;
    const char *m1 = "-1";
    UNIT_CHECK_STR(fn("to_hex", 1, &i4, &m1), "ffffffff");
    UNIT_CHECK_STR(fn("to_hex", 1, &i8, &m1), "ffffffffffffffff");
}

static void test_regex(void)
{
    tt_setup();
    ty_oid_t t4[4] = {TY_TEXT, TY_TEXT, TY_TEXT, TY_TEXT};
    const char *r1[4] = {"foobarbaz", "b(..)", "X\\1Y", "g"};
    UNIT_CHECK_STR(fn("regexp_replace", 4, t4, r1), "fooXarYXazY");
    const char *r2[4] = {"abc", "", "-", "g"};
    UNIT_CHECK_STR(fn("regexp_replace", 4, t4, r2), "-a-b-c-");
    const char *r3[4] = {"aaa", "a*", "X", "g"};
    UNIT_CHECK_STR(fn("regexp_replace", 4, t4, r3), "XX");
    const char *r4[4] = {"aXbX", "x", "-", "gi"};
    UNIT_CHECK_STR(fn("regexp_replace", 4, t4, r4), "a-b-");
    const char *r5[3] = {"Hello", "l", "L"};
    UNIT_CHECK_STR(fn("regexp_replace", 3, t4, r5), "HeLlo");
    const char *r6[4] = {"a", "a", "b", "z"};
    UNIT_CHECK_STR(fn("regexp_replace", 4, t4, r6), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "invalid regular expression option: \"z\"");
    UNIT_CHECK_STR(t2("substring", "foobar", "o(.)b"), "o");
    UNIT_CHECK_STR(t2("substring", "foobar", "o.b"), "oob");
    UNIT_CHECK_STR(t2("substring", "foobar", "x"), "<null>");
    UNIT_CHECK_STR(t2("regexp_count", "aaa", "a*"), "2");
    UNIT_CHECK_STR(t2("regexp_instr", "äbc", "c"), "3");
}

int main(void)
{
    UNIT_RUN(test_case_mapping);
    UNIT_RUN(test_format_quote);
    UNIT_RUN(test_more_strings);
    UNIT_RUN(test_regex);
    UNIT_EXIT();
}
