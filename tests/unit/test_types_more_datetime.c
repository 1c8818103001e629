/* test_types_more_datetime.c: the full date range, extract/date_trunc unit spellings and errors, make_*, justify_*, isfinite and timezone(), expectations from PostgreSQL 15. */
#include "tests/unit/test_types_helpers.h"

static const char *c2(const char *name, ty_oid_t t0, const char *v0, ty_oid_t t1, const char *v1)
{
    ty_oid_t t[2] = {t0, t1};
    const char *v[2] = {v0, v1};
    return tt_call(name, false, t, v, 2);
}

static void test_date_range(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "5874897-12-31"), "5874897-12-31");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "5874898-01-01"), "<error 22008>");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "year", TY_DATE, "5874897-12-31"), "5874897");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "epoch", TY_DATE, "5874897-12-31"), "185331706992000");
}

static void test_units(void)
{
    tt_setup();
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "microsecondsxyz", TY_TIMESTAMP, "2020-01-01 00:00:01.5"), "1500000");
    UNIT_CHECK_STR(c2("date_part", TY_TEXT, "msecs", TY_INTERVAL, "1.5 s"), "1500");
    UNIT_CHECK_STR(c2("date_part", TY_TEXT, "jd", TY_TIMESTAMP, "2020-01-01 06:00"), "2458850.25");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "qtr", TY_INTERVAL, "5 months"), "2");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "foo", TY_DATE, "2020-01-01"), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "unit \"foo\" not recognized for type date");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "hour", TY_DATE, "2020-01-01"), "<error 0A000>");
    UNIT_CHECK_STR(tt_err.message, "unit \"hour\" not supported for type date");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "now", TY_TIMESTAMP, "2020-01-01"), "<error 0A000>");
    UNIT_CHECK_STR(c2("date_trunc", TY_TEXT, "dow", TY_TIMESTAMP, "2020-01-01"), "<error 22023>");
    UNIT_CHECK_STR(c2("date_trunc", TY_TEXT, "week", TY_INTERVAL, "1 day"), "<error 0A000>");
    UNIT_CHECK_STR(tt_err.detail, "Months usually have fractional weeks.");
    UNIT_CHECK_STR(c2("date_trunc", TY_TEXT, "hrs", TY_TIMESTAMP, "2020-01-01 10:11"), "2020-01-01 10:00:00");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "day", TY_TIMESTAMP, "infinity"), "<null>");
    UNIT_CHECK_STR(c2("extract", TY_TEXT, "year", TY_TIMESTAMP, "infinity"), "Infinity");
}

static void test_make_justify(void)
{
    tt_setup();
    ty_oid_t mt[7] = {TY_INT4, TY_INT4, TY_INT4, TY_INT4, TY_INT4, TY_FLOAT8, TY_TEXT};
    UNIT_CHECK_STR(tt_call("make_timestamp", false, mt, (const char *[]){"-44", "3", "15", "12", "30", "15.5"}, 6),
                   "0044-03-15 12:30:15.5 BC");
    UNIT_CHECK_STR(tt_call("make_timestamp", false, mt, (const char *[]){"2020", "2", "30", "0", "0", "0"}, 6),
                   "<error 22008>");
    UNIT_CHECK_STR(tt_err.message, "date field value out of range: 2020-02-30");
    UNIT_CHECK_STR(tt_call("make_timestamptz", false, mt,
                           (const char *[]){"2020", "7", "1", "12", "0", "0", "Europe/Paris"}, 7),
                   "2020-07-01 10:00:00+00");
    ty_oid_t tt[3] = {TY_INT4, TY_INT4, TY_FLOAT8};
    UNIT_CHECK_STR(tt_call("make_time", false, tt, (const char *[]){"24", "0", "0.1"}, 3), "<error 22008>");
    UNIT_CHECK_STR(tt_err.message, "time field value out of range: 24:00:0.1");
    ty_oid_t it[7] = {TY_INT4, TY_INT4, TY_INT4, TY_INT4, TY_INT4, TY_INT4, TY_FLOAT8};
    UNIT_CHECK_STR(tt_call("make_interval", false, it, (const char *[]){"1", "2", "3", "4", "5", "6", "7.5"}, 7),
                   "1 year 2 mons 25 days 05:06:07.5");
    UNIT_CHECK_STR(tt_call("make_interval", false, it, (const char *[]){"1"}, 1), "1 year");
    ty_oid_t iv = TY_INTERVAL;
    UNIT_CHECK_STR(tt_call("justify_days", false, &iv, (const char *[]){"-35 days 1 mon"}, 1), "-5 days");
    UNIT_CHECK_STR(tt_call("justify_hours", false, &iv, (const char *[]){"-27 hours 2 days"}, 1), "21:00:00");
    UNIT_CHECK_STR(tt_call("justify_interval", false, &iv, (const char *[]){"-1 mon 35 days 25 hours"}, 1),
                   "6 days 01:00:00");
    ty_oid_t d = TY_DATE;
    UNIT_CHECK_STR(tt_call("isfinite", false, &d, (const char *[]){"infinity"}, 1), "f");
}

static void test_timezone(void)
{
    tt_setup();
    UNIT_CHECK_STR(c2("timezone", TY_TEXT, "Europe/Paris", TY_TIMESTAMPTZ, "2020-07-01 12:00+00"), "2020-07-01 14:00:00");
    UNIT_CHECK_STR(c2("timezone", TY_TEXT, "EST", TY_TIMESTAMP, "2020-07-01 12:00"), "2020-07-01 17:00:00+00");
    UNIT_CHECK_STR(c2("timezone", TY_TEXT, "+05", TY_TIMESTAMPTZ, "2020-07-01 12:00+00"), "2020-07-01 07:00:00");
    UNIT_CHECK_STR(c2("timezone", TY_INTERVAL, "2 hours", TY_TIMESTAMPTZ, "2020-07-01 12:00+00"), "2020-07-01 14:00:00");
    UNIT_CHECK_STR(c2("timezone", TY_TEXT, "nowhere", TY_TIMESTAMPTZ, "2020-07-01 12:00+00"), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "time zone \"nowhere\" not recognized");
    UNIT_CHECK_STR(c2("timezone", TY_INTERVAL, "1 day", TY_TIMESTAMPTZ, "2020-07-01 12:00+00"), "<error 22023>");
    UNIT_CHECK_STR(tt_err.message, "interval time zone \"1 day\" must not include months or days");
}

int main(void)
{
    UNIT_RUN(test_date_range);
    UNIT_RUN(test_units);
    UNIT_RUN(test_make_justify);
    UNIT_RUN(test_timezone);
    UNIT_EXIT();
}
