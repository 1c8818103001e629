/*
 * test_types_interval_typmod.c: interval typmods (PostgreSQL's
 * INTERVAL_TYPMOD(precision, range)): input that reads a bare number as the
 * last declared field, truncation to the fields, precision rounding, and
 * format_type's spelling. Expectations come from a PostgreSQL 15 server.
 */
#include "tests/unit/test_types_helpers.h"

enum { MO = 1 << 1, Y = 1 << 2, D = 1 << 3, H = 1 << 10, M = 1 << 11, S = 1 << 12, FULL = 0x7FFF, NOP = 0xFFFF };

static int32_t tm(int range, int prec)
{
    return range << 16 | prec;
}

static const char *fmt(int32_t typmod)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_format_type(TY_INTERVAL, typmod, &b);
    char *s = cm_arena_strndup(&tt_arena, (const char *)b.data, b.len);
    cm_buf_free(&b);
    return s;
}

static void test_interval_fields_input(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D, NOP), "1"), "1 day");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H | M, NOP), "1:30"), "01:30:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D | H | M | S, NOP), "1 2:03:04"), "1 day 02:03:04");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M | S, NOP), "1:30"), "00:01:30");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M | S, NOP), "1:2:3"), "01:02:03");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M | S, NOP), "5 1:30"), "5 days 00:01:30");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(Y, NOP), "1"), "1 year");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(MO, NOP), "1"), "1 mon");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(Y | MO, NOP), "14"), "1 year 2 mons");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(Y | MO, NOP), "1.5"), "1 mon");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D, NOP), "1.5"), "1 day");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H, NOP), "25"), "25:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H, NOP), "1.7"), "01:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M, NOP), "-1.7"), "-00:01:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D | H, NOP), "1 2"), "1 day 02:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H, NOP), "1 2"), "1 day 02:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 2"), "<error 22007>");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M, NOP), "1 2"), "<error 22007>");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H, NOP), "1 day 3"), "1 day 03:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(M, NOP), "1 day 2:03:04.567"), "1 day 02:03:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(H | M, NOP), "1:30.5"), "00:01:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(Y, NOP), "-2 years -5 months 3 days"), "-2 years");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D, NOP), "1-2"), "1 year 2 mons");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(Y, NOP), "P1Y2M3D"), "1 year");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(D, NOP), "@ 1"), "1 day");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(FULL, 2), "1.2345 sec"), "00:00:01.23");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, tm(S, 2), "1.2345"), "00:00:01.23");
}

static void test_interval_literal_vs_text_cast(void)
{
    tt_setup();
    /* interval '1' day reads the literal with the typmod; '1'::text::interval day does not. */
    ty_datum_t lit = {.v.s = {"1", 1}}, out;
    UNIT_CHECK(ty_cast_datum(TY_UNKNOWN, TY_INTERVAL, tm(D, NOP), &lit, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_INTERVAL, &out), "1 day");
    UNIT_CHECK(ty_cast_datum(TY_TEXT, TY_INTERVAL, tm(D, NOP), &lit, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_INTERVAL, &out), "00:00:00");
    ty_datum_t iv = tt_in(TY_INTERVAL, "1 day 02:03:04.5678");
    UNIT_CHECK(ty_cast_datum(TY_INTERVAL, TY_INTERVAL, tm(D | H, NOP), &iv, &tt_ctx, &out));
    UNIT_CHECK_STR(tt_out(TY_INTERVAL, &out), "1 day 02:00:00");
}

static void test_interval_format_type(void)
{
    tt_setup();
    UNIT_CHECK_STR(fmt(-1), "interval");
    UNIT_CHECK_STR(fmt(tm(D, NOP)), "interval day");
    UNIT_CHECK_STR(fmt(tm(FULL, 3)), "interval(3)");
    UNIT_CHECK_STR(fmt(tm(H | M, NOP)), "interval hour to minute");
    UNIT_CHECK_STR(fmt(tm(H | M | S, 2)), "interval hour to second(2)");
    UNIT_CHECK_STR(fmt(tm(Y | MO, NOP)), "interval year to month");
    UNIT_CHECK_STR(fmt(tm(D | H | M | S, NOP)), "interval day to second");
}

int main(void)
{
    UNIT_RUN(test_interval_fields_input);
    UNIT_RUN(test_interval_literal_vs_text_cast);
    UNIT_RUN(test_interval_format_type);
    UNIT_EXIT();
}
