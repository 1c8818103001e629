/* test_types_io.c: text and binary I/O of the non-numeric types, casts and type names, against PostgreSQL 15. */
#include "tests/unit/test_types_helpers.h"

static void test_text_io(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_BOOL, -1, "yes"), "t");
    UNIT_CHECK_STR(tt_rt(TY_BOOL, -1, " of"), "f");
    UNIT_CHECK_STR(tt_rt(TY_BOOL, -1, "x"), "<error 22P02>");
    UNIT_CHECK_STR(tt_err.message, "invalid input syntax for type boolean: \"x\"");
    UNIT_CHECK_STR(tt_rt(TY_BYTEA, -1, "\\x4142"), "\\x4142");
    UNIT_CHECK_STR(tt_rt(TY_BYTEA, -1, "a\\\\b\\001"), "\\x615c6201");
    UNIT_CHECK_STR(tt_rt(TY_BYTEA, -1, "\\xzz"), "<error 22P02>");
    UNIT_CHECK_STR(tt_err.message, "invalid hexadecimal digit: \"z\"");
    tt_settings.bytea_output_escape = true;
    UNIT_CHECK_STR(tt_rt(TY_BYTEA, -1, "\\x615c6201"), "a\\\\b\\001");
    tt_settings.bytea_output_escape = false;
    UNIT_CHECK_STR(tt_rt(TY_UUID, -1, "{A0EEBC99-9c0b-4ef8-bb6d-6bb9bd380a11}"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    UNIT_CHECK_STR(tt_rt(TY_UUID, -1, "a0eebc999c0b4ef8bb6d6bb9bd380a11"), "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11");
    UNIT_CHECK_STR(tt_rt(TY_UUID, -1, "a0eebc99-9c0b"), "<error 22P02>");
    UNIT_CHECK_STR(tt_rt(TY_VARCHAR, 3 + 4, "abcd"), "<error 22001>");
    UNIT_CHECK_STR(tt_err.message, "value too long for type character varying(3)");
    UNIT_CHECK_STR(tt_rt(TY_VARCHAR, 3 + 4, "abc  "), "abc");
    UNIT_CHECK_STR(tt_rt(TY_BPCHAR, 5 + 4, "ab"), "ab   ");
    UNIT_CHECK_STR(tt_rt(TY_CHAR, -1, "abc"), "a");
    UNIT_CHECK_STR(tt_rt(TY_TEXT, -1, "h\xc3"), "<error 22021>");
    UNIT_CHECK_STR(tt_rt(TY_OID, -1, "4294967295"), "4294967295");
}

static void test_binary_io(void)
{
    tt_setup();
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_datum_t d = tt_in(TY_INT4, "-2"), back;
    ty_datum_to_binary(TY_INT4, &d, &tt_ctx, &b);
    UNIT_CHECK(b.len == 4 && b.data[0] == 0xff && b.data[3] == 0xfe);
    UNIT_CHECK(ty_datum_from_binary(TY_INT4, -1, b.data, b.len, &tt_ctx, &back) && back.v.i == -2);
    UNIT_CHECK(!ty_datum_from_binary(TY_INT4, -1, b.data, 3, &tt_ctx, &back));
    UNIT_CHECK_STR(tt_err.sqlstate, "22P03");
    const char *cases[][2] = {
        {"1", "t"}, {"23", "-7"}, {"20", "9007199254740993"}, {"21", "-32768"}, {"700", "1.1"},
        {"701", "0.30000000000000004"}, {"25", "h\xc3\xa9llo"}, {"17", "\\x00ff"}, {"1082", "2020-02-29"},
        {"1083", "23:59:59.999999"}, {"1114", "1999-12-31 23:59:59.5"}, {"1184", "2000-01-01 00:00:00+00"},
        {"1186", "1 year 2 mons -3 days +04:05:06.000007"}, {"2950", "a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11"},
        {"1700", "-0.000001230"}, {"1700", "123456789012345678901234567890.123456789"},
    };
    for (size_t i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
        ty_oid_t t = (ty_oid_t)atoi(cases[i][0]);
        if (t == 1)
            t = TY_BOOL;
        if (t == 23)
            t = TY_INT4;
        cm_buf_reset(&b);
        d = tt_in(t, cases[i][1]);
        UNIT_CHECK(ty_has_binary(t));
        UNIT_CHECK(ty_datum_to_binary(t, &d, &tt_ctx, &b));
        UNIT_CHECK(ty_datum_from_binary(t, -1, b.data, b.len, &tt_ctx, &back));
        UNIT_CHECK_STR(tt_out(t, &back), cases[i][1]);
    }
    /* timestamp binary is microseconds since 2000-01-01. */
    cm_buf_reset(&b);
    d = tt_in(TY_TIMESTAMP, "2000-01-01 00:00:01");
    ty_datum_to_binary(TY_TIMESTAMP, &d, &tt_ctx, &b);
    UNIT_CHECK(b.len == 8 && b.data[5] == 0x0f && b.data[6] == 0x42 && b.data[7] == 0x40);
    cm_buf_free(&b);
}

static const char *tt_cast(ty_oid_t from, const char *v, ty_oid_t to, int32_t typmod)
{
    ty_datum_t in = tt_in(from, v), out;
    cm_err_clear(&tt_err);
    if (!ty_cast_datum(from, to, typmod, &in, &tt_ctx, &out))
        return cm_arena_printf(&tt_arena, "<error %s>", tt_err.sqlstate);
    return tt_out(to, &out);
}

static void test_casts(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_cast(TY_NUMERIC, "3.7", TY_INT4, -1), "4");
    UNIT_CHECK_STR(tt_cast(TY_NUMERIC, "2.5", TY_INT4, -1), "3");
    UNIT_CHECK_STR(tt_cast(TY_NUMERIC, "-2.5", TY_INT4, -1), "-3");
    UNIT_CHECK_STR(tt_cast(TY_FLOAT8, "2.5", TY_INT4, -1), "2");
    UNIT_CHECK_STR(tt_cast(TY_FLOAT8, "3.5", TY_INT4, -1), "4");
    UNIT_CHECK_STR(tt_cast(TY_NUMERIC, "NaN", TY_INT4, -1), "<error 0A000>");
    UNIT_CHECK_STR(tt_err.message, "cannot convert NaN to integer");
    UNIT_CHECK_STR(tt_cast(TY_INT8, "40000", TY_INT2, -1), "<error 22003>");
    UNIT_CHECK_STR(tt_err.message, "smallint out of range");
    UNIT_CHECK_STR(tt_cast(TY_FLOAT8, "1.5", TY_NUMERIC, -1), "1.5");
    UNIT_CHECK_STR(tt_cast(TY_FLOAT4, "0.1", TY_NUMERIC, -1), "0.1");
    UNIT_CHECK_STR(tt_cast(TY_FLOAT8, "12", TY_TEXT, -1), "12");
    UNIT_CHECK_STR(tt_cast(TY_TEXT, "abcd", TY_VARCHAR, 3 + 4), "abc");
    UNIT_CHECK_STR(tt_cast(TY_BPCHAR, "ab   ", TY_TEXT, -1), "ab");
    UNIT_CHECK_STR(tt_cast(TY_TEXT, " 12 ", TY_INT4, -1), "12");
    UNIT_CHECK_STR(tt_cast(TY_NUMERIC, "123.456", TY_NUMERIC, (5 << 16 | 1) + 4), "123.5");
    UNIT_CHECK_STR(tt_cast(TY_DATE, "2020-01-02", TY_TIMESTAMP, -1), "2020-01-02 00:00:00");
    UNIT_CHECK_STR(tt_cast(TY_TIMESTAMP, "2020-01-02 10:00", TY_DATE, -1), "2020-01-02");
    UNIT_CHECK_STR(tt_cast(TY_BOOL, "t", TY_INT4, -1), "1");
    UNIT_CHECK_STR(tt_cast(TY_INT4, "0", TY_BOOL, -1), "f");
    ty_datum_t in = tt_in(TY_TEXT, "abcd"), out;
    UNIT_CHECK(!ty_cast_datum_assign(TY_TEXT, TY_VARCHAR, 3 + 4, &in, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_err.sqlstate, "22001");
    ty_cast_context_t cc;
    UNIT_CHECK(ty_cast_exists(TY_INT4, TY_INT8, &cc) && cc == TY_CAST_IMPLICIT);
    UNIT_CHECK(ty_cast_exists(TY_INT8, TY_INT4, &cc) && cc == TY_CAST_ASSIGNMENT);
    UNIT_CHECK(ty_cast_exists(TY_INT4, TY_TEXT, &cc) && cc == TY_CAST_ASSIGNMENT);
    UNIT_CHECK(ty_cast_exists(TY_TEXT, TY_INT4, &cc) && cc == TY_CAST_EXPLICIT);
    UNIT_CHECK(ty_cast_exists(TY_INT4, TY_BOOL, &cc) && cc == TY_CAST_EXPLICIT);
    UNIT_CHECK(!ty_cast_exists(TY_DATE, TY_INT4, &cc));
}

static void test_type_names(void)
{
    UNIT_CHECK(ty_info_by_name("integer")->oid == TY_INT4);
    UNIT_CHECK(ty_info_by_name("double precision")->oid == TY_FLOAT8);
    UNIT_CHECK(ty_info_by_name("timestamp with time zone")->oid == TY_TIMESTAMPTZ);
    UNIT_CHECK(ty_info_by_name("character varying")->oid == TY_VARCHAR);
    UNIT_CHECK(ty_info_by_name("nosuchtype") == NULL);
    UNIT_CHECK(ty_info(TY_FLOAT8)->preferred && ty_info(TY_INT4)->category == TY_CAT_NUMERIC);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_format_type(TY_VARCHAR, 10 + 4, &b);
    ty_format_type(TY_NUMERIC, (10 << 16 | 2) + 4, &b);
    ty_format_type(TY_TIMESTAMPTZ, 3, &b);
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK_STR((const char *)b.data, "character varying(10)numeric(10,2)timestamp(3) with time zone");
    cm_buf_free(&b);
}

/* pg_type names every type's I/O functions, and regproc reads and writes their names (ty_regproc.c). */
static void test_type_procs(void)
{
    tt_setup();
    const ty_info_t *ti;
    for (size_t i = 0; (ti = ty_info_at(i)); i++) {
        ty_type_procs_t fn;
        UNIT_CHECK(ty_type_procs(ti->oid, &fn));
        UNIT_CHECK(fn.input != 0 && fn.output != 0 && fn.receive != 0 && fn.send != 0);
        UNIT_CHECK(ty_proc_name(fn.input) != NULL && ty_proc_name(fn.output) != NULL);
        UNIT_CHECK(ty_proc_name(fn.receive) != NULL && ty_proc_name(fn.send) != NULL);
        UNIT_CHECK((ti->category == TY_CAT_ARRAY) == (fn.input == 750));
    }
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "array_in"), "array_in");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "pg_catalog.\"int4in\""), "int4in");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "750"), "array_in");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "99999"), "99999");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "-"), "-");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "nosuch"), "<error 42883>");
    UNIT_CHECK_STR(tt_err.message, "function \"nosuch\" does not exist");
    UNIT_CHECK_STR(tt_rt(TY_REGPROC, -1, "a.b.c.d"), "<error 42601>");
}

int main(void)
{
    UNIT_RUN(test_text_io);
    UNIT_RUN(test_binary_io);
    UNIT_RUN(test_casts);
    UNIT_RUN(test_type_names);
    UNIT_RUN(test_type_procs);
    UNIT_EXIT();
}
