/* test_types_datetime.c: date/time input, output, time zones (with DST) and arithmetic against PostgreSQL 15. */
#include "tests/unit/test_types_helpers.h"

static void set_tz(const char *name)
{
    cm_err_t e = {0};
    tt_settings.tz = ty_tz_lookup(name, &e);
    UNIT_CHECK(tt_settings.tz != NULL);
    cm_err_clear(&e);
}

static void test_date_time_io(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "2020-01-02"), "2020-01-02");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "January 8, 1999"), "1999-01-08");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "1/8/1999"), "1999-01-08");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "19990108"), "1999-01-08");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "0099-01-01 BC"), "0099-01-01 BC");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "infinity"), "infinity");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "2020-02-30"), "<error 22008>");
    UNIT_CHECK_STR(tt_err.message, "date/time field value out of range: \"2020-02-30\"");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "garbage"), "<error 22007>");
    UNIT_CHECK_STR(tt_err.message, "invalid input syntax for type date: \"garbage\"");
    UNIT_CHECK_STR(tt_rt(TY_TIME, -1, "04:05:06.789"), "04:05:06.789");
    UNIT_CHECK_STR(tt_rt(TY_TIME, -1, "4:05 PM"), "16:05:00");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMP, -1, "2020-01-02T03:04:05.123456"), "2020-01-02 03:04:05.123456");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMP, 2, "2020-01-02 03:04:05.125"), "2020-01-02 03:04:05.13");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMP, -1, "2020-01-02 03:04:05+05"), "2020-01-02 03:04:05");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-06-01 12:00:00+00"), "2020-06-01 12:00:00+00");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "-infinity"), "-infinity");
}

static void test_timezones(void)
{
    tt_setup();
    set_tz("Europe/Paris");
    UNIT_CHECK_STR(ty_tz_name(tt_settings.tz), "Europe/Paris");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2021-03-28 02:30"), "2021-03-28 03:30:00+02");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2021-10-31 02:30"), "2021-10-31 02:30:00+01");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-01-02 03:04:05.5+01"), "2020-01-02 03:04:05.5+01");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "1999-01-08 04:05:06 America/New_York"), "1999-01-08 10:05:06+01");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "epoch"), "1970-01-01 01:00:00+01");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2050-07-01 12:00"), "2050-07-01 12:00:00+02");
    ty_oid_t tz_iv[2] = {TY_TIMESTAMPTZ, TY_INTERVAL};
    const char *v[2] = {"2021-03-27 12:00", "1 day"};
    UNIT_CHECK_STR(tt_call("+", true, tz_iv, v, 2), "2021-03-28 12:00:00+02");
    v[1] = "24 hours";
    UNIT_CHECK_STR(tt_call("+", true, tz_iv, v, 2), "2021-03-28 13:00:00+02");
    tt_settings.datestyle = TY_DATESTYLE_POSTGRES;
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-01-02 03:04:05.5+01"), "Thu Jan 02 03:04:05.5 2020 CET");

    cm_err_t e = {0};
    UNIT_CHECK_STR(ty_tz_name(ty_tz_lookup("+3", &e)), "<+03>-03");
    UNIT_CHECK_STR(ty_tz_name(ty_tz_lookup("europe/paris", &e)), "Europe/Paris");
    UNIT_CHECK(ty_tz_lookup("No/Such_Zone", &e) == NULL);
    UNIT_CHECK_STR(e.sqlstate, "22023");
    UNIT_CHECK_STR(e.message, "invalid value for parameter \"TimeZone\": \"No/Such_Zone\"");
    cm_err_clear(&e);
    tt_settings.datestyle = TY_DATESTYLE_ISO;
    set_tz("UTC+3");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-06-01 12:00:00+00"), "2020-06-01 09:00:00-03");
    set_tz("-05:30");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-06-01 12:00:00+00"), "2020-06-01 17:30:00+05:30");
    set_tz("EST5EDT");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMPTZ, -1, "2020-06-01 12:00:00+00"), "2020-06-01 08:00:00-04");
}

static void test_datestyles(void)
{
    tt_setup();
    cm_buf_t canon;
    cm_buf_init(&canon, 0);
    UNIT_CHECK(ty_datestyle_parse("german", &tt_settings, &canon, &tt_err));
    cm_buf_put_u8(&canon, 0);
    UNIT_CHECK_STR((const char *)canon.data, "German, DMY");
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "2020-01-02"), "02.01.2020");
    cm_buf_reset(&canon);
    UNIT_CHECK(ty_datestyle_parse("SQL, MDY", &tt_settings, &canon, &tt_err));
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMP, -1, "2020-01-02 03:04:05"), "01/02/2020 03:04:05");
    UNIT_CHECK(ty_datestyle_parse("Postgres", &tt_settings, NULL, &tt_err));
    UNIT_CHECK_STR(tt_rt(TY_DATE, -1, "2020-01-02"), "01-02-2020");
    UNIT_CHECK_STR(tt_rt(TY_TIMESTAMP, -1, "0099-01-01 BC"), "Wed Jan 01 00:00:00 0099 BC");
    UNIT_CHECK(!ty_datestyle_parse("bogus", &tt_settings, NULL, &tt_err));
    UNIT_CHECK_STR(tt_err.sqlstate, "22023");
    cm_buf_free(&canon);
}

static void test_intervals(void)
{
    tt_setup();
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 year 2 months 3 days 4 hours 5 minutes 6.789 seconds"),
                   "1 year 2 mons 3 days 04:05:06.789");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "-1 day 1 hour"), "-1 days +01:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "-1 year 2 mons -3 days 04:05:06"), "-10 mons -3 days +04:05:06");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 day -1 hour"), "1 day -01:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1.5 years"), "1 year 6 mons");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "P1Y2M3DT4H5M6S"), "1 year 2 mons 3 days 04:05:06");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "@ 1 day ago"), "-1 days");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 12:00:00"), "1 day 12:00:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "90 minutes"), "01:30:00");
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "nonsense"), "<error 22007>");
    tt_settings.intervalstyle = TY_INTERVALSTYLE_ISO_8601;
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 year 2 months 3 days 04:05:06.5"), "P1Y2M3DT4H5M6.5S");
    tt_settings.intervalstyle = TY_INTERVALSTYLE_POSTGRES_VERBOSE;
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "-1 day 2 hours"), "@ 1 day -2 hours ago");
    tt_settings.intervalstyle = TY_INTERVALSTYLE_SQL_STANDARD;
    UNIT_CHECK_STR(tt_rt(TY_INTERVAL, -1, "1 day 02:03:04"), "1 2:03:04");
}

static void test_datetime_arith(void)
{
    tt_setup();
    ty_oid_t d_iv[2] = {TY_DATE, TY_INTERVAL}, tt[2] = {TY_TIMESTAMP, TY_TIMESTAMP}, dd[2] = {TY_DATE, TY_DATE};
    ty_oid_t iv_f[2] = {TY_INTERVAL, TY_FLOAT8};
    const char *v[2] = {"2020-03-31", "1 month"};
    UNIT_CHECK_STR(tt_call("+", true, d_iv, v, 2), "2020-04-30 00:00:00");
    v[0] = "2020-01-02 00:00", v[1] = "2020-01-01 12:00";
    UNIT_CHECK_STR(tt_call("-", true, tt, v, 2), "12:00:00");
    v[0] = "2021-01-01", v[1] = "2020-01-01 01:00";
    UNIT_CHECK_STR(tt_call("-", true, tt, v, 2), "365 days 23:00:00");
    v[0] = "2020-02-29", v[1] = "2019-02-28";
    UNIT_CHECK_STR(tt_call("-", true, dd, v, 2), "366");
    v[0] = "1 month", v[1] = "1.5";
    UNIT_CHECK_STR(tt_call("*", true, iv_f, v, 2), "1 mon 15 days");
    v[0] = "3 days", v[1] = "7";
    UNIT_CHECK_STR(tt_call("/", true, iv_f, v, 2), "10:17:08.571429");
}

static void test_extract(void)
{
    tt_setup();
    ty_oid_t t_ts[2] = {TY_TEXT, TY_TIMESTAMP}, t_d[2] = {TY_TEXT, TY_DATE}, t_iv[2] = {TY_TEXT, TY_INTERVAL};
    const char *v[2] = {"second", "2020-01-01 00:00:05.25"};
    UNIT_CHECK_STR(tt_call("extract", false, t_ts, v, 2), "5.250000");
    v[0] = "epoch", v[1] = "2020-01-01 00:00:05";
    UNIT_CHECK_STR(tt_call("extract", false, t_ts, v, 2), "1577836805.000000");
    v[0] = "milliseconds";
    UNIT_CHECK_STR(tt_call("extract", false, t_ts, v, 2), "5000.000");
    v[0] = "epoch", v[1] = "2020-01-01";
    UNIT_CHECK_STR(tt_call("date_part", false, t_ts, v, 2), "1577836800");
    v[0] = "week", v[1] = "2021-01-03";
    UNIT_CHECK_STR(tt_call("extract", false, t_d, v, 2), "53");
    v[0] = "dow";
    UNIT_CHECK_STR(tt_call("extract", false, t_d, v, 2), "0");
    v[0] = "century", v[1] = "2000-12-31";
    UNIT_CHECK_STR(tt_call("extract", false, t_d, v, 2), "20");
    v[0] = "epoch", v[1] = "1 year 1 day";
    UNIT_CHECK_STR(tt_call("extract", false, t_iv, v, 2), "31644000.000000");
    v[0] = "julian", v[1] = "2020-01-01 12:00";
    UNIT_CHECK_STR(tt_call("extract", false, t_ts, v, 2), "2458850.50000000000000000000");
    v[0] = "week", v[1] = "2021-01-03 10:00";
    UNIT_CHECK_STR(tt_call("date_trunc", false, t_ts, v, 2), "2020-12-28 00:00:00");
    v[0] = "quarter", v[1] = "2021-05-03 10:00";
    UNIT_CHECK_STR(tt_call("date_trunc", false, t_ts, v, 2), "2021-04-01 00:00:00");
    v[0] = "fortnight";
    UNIT_CHECK_STR(tt_call("date_trunc", false, t_ts, v, 2), "<error 22023>");
}

int main(void)
{
    UNIT_RUN(test_date_time_io);
    UNIT_RUN(test_timezones);
    UNIT_RUN(test_datestyles);
    UNIT_RUN(test_intervals);
    UNIT_RUN(test_datetime_arith);
    UNIT_RUN(test_extract);
    UNIT_EXIT();
}
