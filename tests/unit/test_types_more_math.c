/* test_types_more_math.c: bitwise operators, gcd/lcm/div/factorial/scale/width_bucket, cross-type operators and trigonometry, expectations from PostgreSQL 15. */
#include "tests/unit/test_types_helpers.h"

static const char *call1(const char *name, ty_oid_t t, const char *v)
{
    return tt_call(name, false, &t, &v, 1);
}

static const char *call2(const char *name, bool op, ty_oid_t t0, const char *v0, ty_oid_t t1, const char *v1)
{
    ty_oid_t t[2] = {t0, t1};
    const char *v[2] = {v0, v1};
    return tt_call(name, op, t, v, 2);
}

static void test_bits(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_op2("&", TY_INT4, "6", "3"), "2");
    UNIT_CHECK_STR(tt_op2("|", TY_INT2, "6", "3"), "7");
    UNIT_CHECK_STR(tt_op2("#", TY_INT8, "6", "3"), "5");
    UNIT_CHECK_STR(tt_call("~", true, (ty_oid_t[]){TY_INT2}, (const char *[]){"5"}, 1), "-6");
    UNIT_CHECK_STR(call2("<<", true, TY_INT4, "1", TY_INT4, "33"), "2");
    UNIT_CHECK_STR(call2("<<", true, TY_INT8, "1", TY_INT4, "65"), "2");
    UNIT_CHECK_STR(call2("<<", true, TY_INT2, "1", TY_INT4, "15"), "-32768");
    UNIT_CHECK_STR(call2("<<", true, TY_INT2, "1", TY_INT4, "17"), "0");
    UNIT_CHECK_STR(call2(">>", true, TY_INT2, "-8", TY_INT4, "20"), "-1");
    UNIT_CHECK_STR(call2(">>", true, TY_INT8, "1", TY_INT4, "70"), "0");
    UNIT_CHECK_STR(tt_call("@", true, (ty_oid_t[]){TY_INT2}, (const char *[]){"-5"}, 1), "5");
    UNIT_CHECK_STR(tt_call("@", true, (ty_oid_t[]){TY_INT2}, (const char *[]){"-32768"}, 1), "<error 22003>");
}

static void test_numeric_more(void)
{
    tt_setup();
    UNIT_CHECK_STR(call2("gcd", false, TY_INT4, "12", TY_INT4, "18"), "6");
    UNIT_CHECK_STR(call2("gcd", false, TY_INT4, "-2147483648", TY_INT4, "0"), "<error 22003>");
    UNIT_CHECK_STR(call2("gcd", false, TY_INT8, "-9223372036854775808", TY_INT8, "0"), "<error 22003>");
    UNIT_CHECK_STR(call2("lcm", false, TY_INT8, "-4", TY_INT8, "6"), "12");
    UNIT_CHECK_STR(call2("lcm", false, TY_INT4, "2147483647", TY_INT4, "2147483646"), "<error 22003>");
    UNIT_CHECK_STR(call2("gcd", false, TY_NUMERIC, "1.5", TY_NUMERIC, "2.25"), "0.75");
    UNIT_CHECK_STR(call2("lcm", false, TY_NUMERIC, "1.5", TY_NUMERIC, "2.25"), "4.50");
    UNIT_CHECK_STR(call2("gcd", false, TY_NUMERIC, "0.0", TY_NUMERIC, "0.00"), "0.00");
    UNIT_CHECK_STR(call2("gcd", false, TY_NUMERIC, "Infinity", TY_NUMERIC, "1"), "NaN");
    UNIT_CHECK_STR(call2("div", false, TY_NUMERIC, "-7.5", TY_NUMERIC, "2"), "-3");
    UNIT_CHECK_STR(call2("div", false, TY_NUMERIC, "7", TY_NUMERIC, "0"), "<error 22012>");
    UNIT_CHECK_STR(call1("factorial", TY_INT8, "25"), "15511210043330985984000000");
    UNIT_CHECK_STR(call1("factorial", TY_INT8, "0"), "1");
    UNIT_CHECK_STR(call1("factorial", TY_INT8, "-1"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "factorial of a negative number is undefined");
    UNIT_CHECK_STR(call1("factorial", TY_INT8, "40000"), "<error 22003>");
    UNIT_CHECK_STR(call1("scale", TY_NUMERIC, "1.230"), "3");
    UNIT_CHECK_STR(call1("min_scale", TY_NUMERIC, "1.230"), "2");
    UNIT_CHECK_STR(call1("trim_scale", TY_NUMERIC, "120.00"), "120");
    UNIT_CHECK_STR(call1("scale", TY_NUMERIC, "NaN"), "<null>");
    ty_oid_t wn[4] = {TY_NUMERIC, TY_NUMERIC, TY_NUMERIC, TY_INT4};
    ty_oid_t wf[4] = {TY_FLOAT8, TY_FLOAT8, TY_FLOAT8, TY_INT4};
    const char *w1[4] = {"5.35", "0.024", "10.06", "5"};
    UNIT_CHECK_STR(tt_call("width_bucket", false, wn, w1, 4), "3");
    UNIT_CHECK_STR(tt_call("width_bucket", false, wf, w1, 4), "3");
    const char *w2[4] = {"0", "10", "0", "5"};
    UNIT_CHECK_STR(tt_call("width_bucket", false, wn, w2, 4), "6");
    const char *w3[4] = {"1", "1", "1", "5"};
    UNIT_CHECK_STR(tt_call("width_bucket", false, wf, w3, 4), "<error 2201G>");
    UNIT_CHECK_STR(tt_err.message, "lower bound cannot equal upper bound");
}

static void test_mixed(void)
{
    tt_setup();
    UNIT_CHECK_STR(call2("+", true, TY_INT2, "32767", TY_INT4, "1"), "32768");
    UNIT_CHECK_STR(call2("+", true, TY_INT4, "2147483647", TY_INT2, "1"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "integer out of range");
    UNIT_CHECK_STR(call2("/", true, TY_INT8, "-9223372036854775808", TY_INT2, "-1"), "<error 22003>");
    UNIT_CHECK_STR(call2("<", true, TY_INT4, "1", TY_INT8, "2"), "t");
    UNIT_CHECK_STR(call2("=", true, TY_FLOAT4, "0.1", TY_FLOAT8, "0.1"), "f");
    UNIT_CHECK_STR(call2("=", true, TY_FLOAT4, "NaN", TY_FLOAT8, "NaN"), "t");
    UNIT_CHECK_STR(call2("+", true, TY_FLOAT4, "0.1", TY_FLOAT8, "0.2"), "0.30000000149011613");
    UNIT_CHECK_STR(call2("/", true, TY_FLOAT4, "1", TY_FLOAT8, "0"), "<error 22012>");
}

static void test_trig(void)
{
    tt_setup();
    UNIT_CHECK_STR(call1("sin", TY_FLOAT8, "1"), "0.8414709848078965");
    UNIT_CHECK_STR(call1("cot", TY_FLOAT8, "0"), "Infinity");
    UNIT_CHECK_STR(call1("sin", TY_FLOAT8, "Infinity"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "input is out of range");
    UNIT_CHECK_STR(call1("asin", TY_FLOAT8, "2"), "<error 22003>");
    UNIT_CHECK_STR(call2("atan2", false, TY_FLOAT8, "1", TY_FLOAT8, "2"), "0.4636476090008061");
    UNIT_CHECK_STR(call1("sind", TY_FLOAT8, "30"), "0.5");
    UNIT_CHECK_STR(call1("cosd", TY_FLOAT8, "200"), "-0.9396926207859084");
    UNIT_CHECK_STR(call1("tand", TY_FLOAT8, "90"), "Infinity");
    UNIT_CHECK_STR(call1("tand", TY_FLOAT8, "180"), "0");
    UNIT_CHECK_STR(call1("cotd", TY_FLOAT8, "1"), "57.28996163075942");
    UNIT_CHECK_STR(call1("asind", TY_FLOAT8, "0.3"), "17.45760312372209");
    UNIT_CHECK_STR(call1("acosd", TY_FLOAT8, "-0.5"), "120");
    UNIT_CHECK_STR(call2("atan2d", false, TY_FLOAT8, "-1", TY_FLOAT8, "-2"), "-153.43494882292202");
    UNIT_CHECK_STR(call1("atanh", TY_FLOAT8, "1"), "Infinity");
    UNIT_CHECK_STR(call1("acosh", TY_FLOAT8, "0.5"), "<error 22003>");
}

int main(void)
{
    UNIT_RUN(test_bits);
    UNIT_RUN(test_numeric_more);
    UNIT_RUN(test_mixed);
    UNIT_RUN(test_trig);
    UNIT_EXIT();
}
