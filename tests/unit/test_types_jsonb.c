/*
 * test_types_jsonb.c: json and jsonb: jsonb's canonical text, PostgreSQL's
 * syntax error details, json's preserved text, binary jsonb, ordering, and
 * the -> ->> #> #>> operators and typeof functions. Expectations come from
 * a PostgreSQL 15 server.
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

static void test_jsonb_canonical(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "{\"a\":1,\"a\":2}"), "{\"a\": 2}");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "{\"b\":1,\"aa\":2,\"a\":3}"), "{\"a\": 3, \"b\": 1, \"aa\": 2}");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "[1.50, 1e3, -0, 1E-2, 0.000]"), "[1.50, 1000, 0, 0.01, 0.000]");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "{\"a\" : [1 ,2], \"c\": {\"x\" : null,\"y\":true}}"),
                   "{\"a\": [1, 2], \"c\": {\"x\": null, \"y\": true}}");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "\"\\ud83d\\ude00\""), "\"\xf0\x9f\x98\x80\"");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "\"\\u0001\\/\""), "\"\\u0001/\"");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "1.0e1"), "10");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "[[]]"), "[[]]");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, " {} "), "{}");
    UNIT_CHECK_STR(tt_rt(TY_JSON, -1, "[1,2]  "), "[1,2]  ");
    UNIT_CHECK_STR(tt_rt(TY_JSON, -1, "\"\\u0000\""), "\"\\u0000\"");
    UNIT_CHECK_STR(tt_rt(TY_JSONB, -1, "\"\\u0000\""), "<error 22P05>");
}

static void test_json_errors(void)
{
    tt_setup();
    UNIT_CHECK_STR(detail_of(TY_JSONB, "{\"a\":}"), "Expected JSON value, but found \"}\".");
    UNIT_CHECK_STR(tt_err.message, "invalid input syntax for type json");
    UNIT_CHECK_STR(tt_err.sqlstate, "22P02");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "{\"a\""), "The input string ended unexpectedly.");
    UNIT_CHECK_STR(detail_of(TY_JSON, "{\"a\" 1}"), "Expected \":\", but found \"1\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "{1:2}"), "Expected string or \"}\", but found \"1\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "{\"a\":1,}"), "Expected string, but found \"}\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "[1 2]"), "Expected \",\" or \"]\", but found \"2\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "{\"a\":1 \"b\"}"), "Expected \",\" or \"}\", but found \"\"b\"\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "1 2"), "Expected end of input, but found \"2\".");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"\\x\""), "Escape sequence \"\\x\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"\\u00\""), "\"\\u\" must be followed by four hexadecimal digits.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "01"), "Token \"01\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "1."), "Token \"1.\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, ".5"), "Token \".\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "[tRue]"), "Token \"tRue\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"abc"), "Token \"\"abc\" is invalid.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"a\tb\""), "Character with value 0x09 must be escaped.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"\\ud83dx\""), "Unicode low surrogate must follow a high surrogate.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "\"\\ud83d\\ud83d\""), "Unicode high surrogate must not follow a high surrogate.");
    UNIT_CHECK_STR(detail_of(TY_JSONB, "   "), "The input string ended unexpectedly.");
    UNIT_CHECK_STR(detail_of(TY_JSON, "nul"), "Token \"nul\" is invalid.");
}

static void test_jsonb_binary_and_order(void)
{
    tt_setup();
    ty_datum_t d = tt_in(TY_JSONB, "{\"b\":1,\"a\":[true]}");
    cm_buf_t b;
    cm_buf_init(&b, 0);
    UNIT_CHECK(ty_datum_to_binary(TY_JSONB, &d, &tt_ctx, &b));
    UNIT_CHECK(b.len == 22 && b.data[0] == 1 && memcmp(b.data + 1, "{\"a\": [true], \"b\": 1}", 21) == 0);
    ty_datum_t r;
    UNIT_CHECK(ty_datum_from_binary(TY_JSONB, -1, b.data, b.len, &tt_ctx, &r));
    UNIT_CHECK_STR(tt_out(TY_JSONB, &r), "{\"a\": [true], \"b\": 1}");
    b.data[0] = 2;
    UNIT_CHECK(!ty_datum_from_binary(TY_JSONB, -1, b.data, b.len, &tt_ctx, &r));
    cm_buf_free(&b);
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "{\"b\":1}", "{\"aa\":1}"), "f");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "[]", "null"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "1", "[1]"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "1", "[]"), "f");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "null", "\"a\""), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "\"a\"", "1"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "1", "true"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "[1,2]", "{}"), "t");
    UNIT_CHECK_STR(tt_op2("<", TY_JSONB, "[[1]]", "[2]"), "f");
    UNIT_CHECK_STR(tt_op2(">", TY_JSONB, "{\"a\":1,\"b\":1}", "{\"c\":1}"), "t");
    UNIT_CHECK_STR(tt_op2(">", TY_JSONB, "{\"a\":2}", "{\"b\":1}"), "f");
    UNIT_CHECK_STR(tt_op2("=", TY_JSONB, "1.0", "1.00"), "t");
    ty_datum_t x = tt_in(TY_JSONB, "[1.0]"), y = tt_in(TY_JSONB, "[1.00]");
    UNIT_CHECK(ty_datum_compare(TY_JSONB, &x, &y) == 0 && ty_datum_hash(TY_JSONB, &x) == ty_datum_hash(TY_JSONB, &y));
}

static void test_json_operators(void)
{
    tt_setup();
    ty_oid_t jt[2] = {TY_JSON, TY_TEXT}, ji[2] = {TY_JSON, TY_INT4}, bt[2] = {TY_JSONB, TY_TEXT},
             bi[2] = {TY_JSONB, TY_INT4}, bp[2] = {TY_JSONB, TY_TEXT_ARRAY}, jp[2] = {TY_JSON, TY_TEXT_ARRAY};
    UNIT_CHECK_STR(tt_call("->", true, jt, (const char *[]){"{\"a\":1,\"a\":2}", "a"}, 2), "2");
    UNIT_CHECK_STR(tt_call("->", true, jt, (const char *[]){"{\"a\": [1,  2]}", "a"}, 2), "[1,  2]");
    UNIT_CHECK_STR(tt_call("->>", true, ji, (const char *[]){"[1,\"x\",null]", "1"}, 2), "x");
    UNIT_CHECK_STR(tt_call("->>", true, ji, (const char *[]){"[1,\"x\",null]", "2"}, 2), "<null>");
    UNIT_CHECK_STR(tt_call("->>", true, jt, (const char *[]){"{\"a\":\"\\u00e9\"}", "a"}, 2), "\xc3\xa9");
    UNIT_CHECK_STR(tt_call("->>", true, ji, (const char *[]){"[\"\\u0000\"]", "0"}, 2), "<error 22P05>");
    UNIT_CHECK_STR(tt_call("->", true, ji, (const char *[]){"{\"a\":1}", "1"}, 2), "<null>");
    UNIT_CHECK_STR(tt_call("->", true, bi, (const char *[]){"[1,2,3]", "-1"}, 2), "3");
    UNIT_CHECK_STR(tt_call("->", true, bi, (const char *[]){"[1,2,3]", "5"}, 2), "<null>");
    UNIT_CHECK_STR(tt_call("->", true, bi, (const char *[]){"5", "0"}, 2), "5");
    UNIT_CHECK_STR(tt_call("->", true, bt, (const char *[]){"{\"a\" : {\"c\":[1,2], \"b\":1}}", "a"}, 2),
                   "{\"b\": 1, \"c\": [1, 2]}");
    UNIT_CHECK_STR(tt_call("->>", true, bt, (const char *[]){"{\"a\":1}", "a"}, 2), "1");
    UNIT_CHECK_STR(tt_call("#>>", true, bp, (const char *[]){"{\"a\":[{\"b\":\"x\"}]}", "{a,0,b}"}, 2), "x");
    UNIT_CHECK_STR(tt_call("#>", true, jp, (const char *[]){"{\"a\":[ 1 ]}", "{a}"}, 2), "[ 1 ]");
    UNIT_CHECK_STR(tt_call("#>", true, bp, (const char *[]){"{\"a\":[1]}", "{a,x}"}, 2), "<null>");
    ty_oid_t b1[1] = {TY_JSONB}, j1[1] = {TY_JSON};
    UNIT_CHECK_STR(tt_call("jsonb_typeof", false, b1, (const char *[]){"1"}, 1), "number");
    UNIT_CHECK_STR(tt_call("json_typeof", false, j1, (const char *[]){" [1] "}, 1), "array");
    UNIT_CHECK_STR(tt_call("jsonb_typeof", false, b1, (const char *[]){"null"}, 1), "null");
    /* json -> jsonb normalises; jsonb -> json keeps the canonical text. */
    ty_datum_t j = tt_in(TY_JSON, "{\"b\" : 1, \"a\":2}"), out;
    UNIT_CHECK(ty_cast_datum(TY_JSON, TY_JSONB, -1, &j, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_JSONB, &out), "{\"a\": 2, \"b\": 1}");
    ty_datum_t t = {.v.s = {"[1,", 3}};
    UNIT_CHECK(!ty_cast_datum(TY_TEXT, TY_JSONB, -1, &t, &tt_ctx, &out));
}

int main(void)
{
    UNIT_RUN(test_jsonb_canonical);
    UNIT_RUN(test_json_errors);
    UNIT_RUN(test_jsonb_binary_and_order);
    UNIT_RUN(test_json_operators);
    UNIT_EXIT();
}
