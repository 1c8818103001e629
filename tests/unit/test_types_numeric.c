/* test_types_numeric.c: numeric, integer and float I/O and arithmetic against PostgreSQL 15's results. */
#include "tests/unit/test_types_helpers.h"

static void test_numeric_io(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "nan"), "NaN");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "  -inf "), "-Infinity");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "1.5e3"), "1500");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "1.50e1"), "15.0");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, ".5"), "0.5");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "5."), "5");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "-0.000"), "0.000");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "1e-3"), "0.001");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "12345678901234567890123456789012345678901234.5678"),
                   "12345678901234567890123456789012345678901234.5678");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "abc"), "<error 22P02>");
    UNIT_CHECK_STR(tt_err.message, "invalid input syntax for type numeric: \"abc\"");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, -1, "1e1001"), "<error 22P02>");
    /* numeric(5,2): typmod = (5 << 16 | 2) + 4 */
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, (5 << 16 | 2) + 4, "123.456"), "123.46");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, (5 << 16 | 2) + 4, "1234.5"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "numeric field overflow");
    UNIT_CHECK_STR(tt_err.detail, "A field with precision 5, scale 2 must round to an absolute value less than 10^3.");
    UNIT_CHECK_STR(tt_rt(TY_NUMERIC, (2 << 16 | 2) + 4, "1"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.detail, "A field with precision 2, scale 2 must round to an absolute value less than 1.");
}

static void test_numeric_arith(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "10", "3"), "3.3333333333333333");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "1", "3"), "0.33333333333333333333");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "12345678901234567890", "7"), "1763668414462081127");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "7", "0.3"), "23.3333333333333333");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "1e-20", "3"), "0.0000000000000000000033333333333333333333");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "100000", "0.0001"), "1000000000.00000000");
    UNIT_CHECK_STR(tt_op2("/", TY_NUMERIC, "1", "0"), "<error 22012>");
    UNIT_CHECK_STR(tt_op2("*", TY_NUMERIC, "1.000", "2.50"), "2.50000");
    UNIT_CHECK_STR(tt_op2("%", TY_NUMERIC, "-7.5", "2.25"), "-0.75");
    /* 40 significant digits survive exactly. */
    UNIT_CHECK_STR(tt_op2("+", TY_NUMERIC, "1234567890123456789012345678901234567890.1",
                          "0.0000000000000000000000000000000000000009"),
                   "1234567890123456789012345678901234567890.1000000000000000000000000000000000000009");
    UNIT_CHECK_STR(tt_op2("*", TY_NUMERIC, "99999999999999999999", "99999999999999999999"),
                   "9999999999999999999800000000000000000001");
    UNIT_CHECK_STR(tt_op2("-", TY_NUMERIC, "0.1", "0.3"), "-0.2");
    UNIT_CHECK_STR(tt_op2("+", TY_NUMERIC, "Infinity", "-Infinity"), "NaN");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "2", "10"), "1024.0000000000000000");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "2", "0.5"), "1.4142135623730950");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "1.5", "-3"), "0.2962962962962963");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "1.1", "1.1"), "1.1105342410545757");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "0.001", "10"), "0.0000000000000000");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "3", "40"), "12157665459056928801.0000000000000000");
    UNIT_CHECK_STR(tt_op2("^", TY_NUMERIC, "0", "-1"), "<error 2201F>");
}

static void test_numeric_funcs(void)
{
    tt_setup();
    ty_oid_t n1[1] = {TY_NUMERIC}, n2[2] = {TY_NUMERIC, TY_INT4}, nn[2] = {TY_NUMERIC, TY_NUMERIC};
    const char *v[2];
    v[0] = "2";
    UNIT_CHECK_STR(tt_call("sqrt", false, n1, v, 1), "1.414213562373095");
    UNIT_CHECK_STR(tt_call("exp", false, n1, (v[0] = "1", v), 1), "2.7182818284590452");
    UNIT_CHECK_STR(tt_call("ln", false, n1, (v[0] = "2", v), 1), "0.6931471805599453");
    UNIT_CHECK_STR(tt_call("exp", false, n1, (v[0] = "10", v), 1), "22026.465794806717");
    UNIT_CHECK_STR(tt_call("ln", false, n1, (v[0] = "10000000000", v), 1), "23.025850929940457");
    UNIT_CHECK_STR(tt_call("log", false, n1, (v[0] = "100", v), 1), "2.0000000000000000");
    UNIT_CHECK_STR(tt_call("ceil", false, n1, (v[0] = "-1.5", v), 1), "-1");
    UNIT_CHECK_STR(tt_call("floor", false, n1, (v[0] = "-1.5", v), 1), "-2");
    UNIT_CHECK_STR(tt_call("sign", false, n1, (v[0] = "-2.5", v), 1), "-1");
    UNIT_CHECK_STR(tt_call("abs", false, n1, (v[0] = "-0.00", v), 1), "0.00");
    UNIT_CHECK_STR(tt_call("sqrt", false, n1, (v[0] = "-1", v), 1), "<error 2201F>");
    v[0] = "1234.5678", v[1] = "-2";
    UNIT_CHECK_STR(tt_call("round", false, n2, v, 2), "1200");
    v[0] = "1.5", v[1] = "3";
    UNIT_CHECK_STR(tt_call("round", false, n2, v, 2), "1.500");
    v[0] = "-1.59", v[1] = "1";
    UNIT_CHECK_STR(tt_call("trunc", false, n2, v, 2), "-1.5");
    v[0] = "2.5", v[1] = "0";
    UNIT_CHECK_STR(tt_call("round", false, n2, v, 2), "3");
    v[0] = "-7.5", v[1] = "2";
    UNIT_CHECK_STR(tt_call("mod", false, nn, v, 2), "-1.5");
    v[0] = "2", v[1] = "8";
    UNIT_CHECK_STR(tt_call("log", false, nn, v, 2), "3.0000000000000000");
}

static void test_numeric_binary(void)
{
    tt_setup();
    ty_datum_t d = tt_in(TY_NUMERIC, "-12345.678");
    cm_buf_t b;
    cm_buf_init(&b, 0);
    UNIT_CHECK(ty_datum_to_binary(TY_NUMERIC, &d, &tt_ctx, &b));
    /* ndigits 3, weight 1, sign 0x4000, dscale 3, digits 1 2345 6780 */
    static const uint8_t want[] = {0, 3, 0, 1, 0x40, 0, 0, 3, 0, 1, 0x09, 0x29, 0x1a, 0x7c};
    UNIT_CHECK(b.len == sizeof(want) && memcmp(b.data, want, sizeof(want)) == 0);
    ty_datum_t back;
    UNIT_CHECK(ty_datum_from_binary(TY_NUMERIC, -1, b.data, b.len, &tt_ctx, &back));
    UNIT_CHECK_STR(tt_out(TY_NUMERIC, &back), "-12345.678");
    cm_buf_reset(&b);
    d = tt_in(TY_NUMERIC, "0.0001");
    ty_datum_to_binary(TY_NUMERIC, &d, &tt_ctx, &b);
    static const uint8_t want2[] = {0, 1, 0xff, 0xff, 0, 0, 0, 4, 0, 1};
    UNIT_CHECK(b.len == sizeof(want2) && memcmp(b.data, want2, sizeof(want2)) == 0);
    cm_buf_reset(&b);
    d = tt_in(TY_NUMERIC, "NaN");
    ty_datum_to_binary(TY_NUMERIC, &d, &tt_ctx, &b);
    UNIT_CHECK(b.len == 8 && b.data[4] == 0xC0);
    static const uint8_t bad[] = {0, 1, 0, 0, 0, 0, 0, 0, 0x27, 0x10};   /* digit 10000 */
    UNIT_CHECK(!ty_datum_from_binary(TY_NUMERIC, -1, bad, sizeof(bad), &tt_ctx, &back));
    UNIT_CHECK_STR(tt_err.sqlstate, "22P03");
    cm_buf_free(&b);
}

static void test_int(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_INT4, -1, " 42 "), "42");
    UNIT_CHECK_STR(tt_rt(TY_INT4, -1, "99999999999"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "value \"99999999999\" is out of range for type integer");
    UNIT_CHECK_STR(tt_rt(TY_INT2, -1, "x"), "<error 22P02>");
    UNIT_CHECK_STR(tt_err.message, "invalid input syntax for type smallint: \"x\"");
    UNIT_CHECK_STR(tt_rt(TY_INT8, -1, "-9223372036854775808"), "-9223372036854775808");
    UNIT_CHECK_STR(tt_op2("+", TY_INT4, "2147483647", "1"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "integer out of range");
    UNIT_CHECK_STR(tt_op2("*", TY_INT2, "300", "300"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "smallint out of range");
    UNIT_CHECK_STR(tt_op2("-", TY_INT8, "-9223372036854775808", "1"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "bigint out of range");
    UNIT_CHECK_STR(tt_op2("/", TY_INT4, "1", "0"), "<error 22012>");
    UNIT_CHECK_STR(tt_err.message, "division by zero");
    UNIT_CHECK_STR(tt_op2("/", TY_INT4, "-2147483648", "-1"), "<error 22003>");
    UNIT_CHECK_STR(tt_op2("%", TY_INT4, "-2147483648", "-1"), "0");
    UNIT_CHECK_STR(tt_op2("/", TY_INT4, "-7", "2"), "-3");
    UNIT_CHECK_STR(tt_op2("%", TY_INT4, "-7", "2"), "-1");
}

static void test_float_out(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_op2("+", TY_FLOAT8, "0.1", "0.2"), "0.30000000000000004");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e15"), "1e+15");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e14"), "100000000000000");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "123456789012345678"), "1.2345678901234568e+17");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e-4"), "0.0001");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e-5"), "1e-05");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "0.000123"), "0.000123");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1.5e300"), "1.5e+300");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "-0"), "-0");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "nan"), "NaN");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "-inFinity"), "-Infinity");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT4, -1, "1e6"), "1e+06");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT4, -1, "123456"), "123456");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT4, -1, "1e-5"), "1e-05");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT4, -1, "1.1"), "1.1");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e400"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "\"1e400\" is out of range for type double precision");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "abc"), "<error 22P02>");
    UNIT_CHECK_STR(tt_op2("*", TY_FLOAT8, "1e300", "1e10"), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "value out of range: overflow");
    UNIT_CHECK_STR(tt_op2("/", TY_FLOAT8, "1", "0"), "<error 22012>");
    tt_settings.extra_float_digits = 0;
    UNIT_CHECK_STR(tt_op2("+", TY_FLOAT8, "0.1", "0.2"), "0.3");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e15"), "1e+15");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT4, -1, "1.1"), "1.1");
    UNIT_CHECK_STR(tt_rt(TY_FLOAT8, -1, "1e-5"), "1e-05");
}

int main(void)
{
    UNIT_RUN(test_numeric_io);
    UNIT_RUN(test_numeric_arith);
    UNIT_RUN(test_numeric_funcs);
    UNIT_RUN(test_numeric_binary);
    UNIT_RUN(test_int);
    UNIT_RUN(test_float_out);
    UNIT_EXIT();
}
