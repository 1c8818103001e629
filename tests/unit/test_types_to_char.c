/*
 * test_types_to_char.c: to_char for timestamps, timestamptz (in non-UTC
 * session zones), intervals and numbers, and age(); every expected value is
 * what PostgreSQL 15 returns for the same call.
 */
#include "tests/unit/test_types_helpers.h"

#define TS TY_TIMESTAMP
#define TZ TY_TIMESTAMPTZ
#define IV TY_INTERVAL
#define I4 TY_INT4
#define I8 TY_INT8
#define F4 TY_FLOAT4
#define F8 TY_FLOAT8
#define NUM TY_NUMERIC

static const char *tc(ty_oid_t t, const char *value, const char *fmt)
{
    ty_oid_t types[2] = {t, TY_TEXT};
    const char *vals[2] = {value, fmt};
    return tt_call("to_char", false, types, vals, 2);
}

static const char *age2(ty_oid_t t, const char *a, const char *b)
{
    ty_oid_t types[2] = {t, t};
    const char *vals[2] = {a, b};
    return tt_call("age", false, types, vals, 2);
}

static const char *age1(ty_oid_t t, const char *a)
{
    ty_oid_t types[1] = {t};
    const char *vals[1] = {a};
    return tt_call("age", false, types, vals, 1);
}

static void set_tz(const char *name)
{
    cm_err_t e = {0};
    tt_settings.tz = ty_tz_lookup(name, &e);
    UNIT_CHECK(tt_settings.tz != NULL);
    cm_err_clear(&e);
}

static void test_timestamp_patterns(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "YYYY-MM-DD HH24:MI:SS.US"), "2021-03-07 15:04:05.123456");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "HH HH12 HH24 MI SS MS US"), "03 03 15 04 05 123 123456");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "FF1 FF2 FF3 FF4 FF5 FF6"), "1 12 123 1234 12345 123456");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "SSSS SSSSS"), "54245 54245");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "AM PM am pm A.M. P.M. a.m. p.m."), "PM PM pm pm P.M. P.M. p.m. p.m.");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "Y,YYY YYYY YYY YY Y"), "2,021 2021 021 21 1");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "IYYY IYY IY I"), "2021 021 21 1");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "BC AD bc ad B.C. A.D."), "AD AD ad ad A.D. A.D.");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "MONTH|Month|month|"), "MARCH    |March    |march    |");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "MON Mon mon MM"), "MAR Mar mar 03");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "DAY|Day|day|"), "SUNDAY   |Sunday   |sunday   |");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "DY Dy dy"), "SUN Sun sun");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "DDD IDDD DD D ID"), "066 063 07 1 7");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "W WW IW"), "1 10 09");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "CC J Q"), "21 2459281 1");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "RM|rm|"), "III |iii |");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "TZ|tz|TZH|TZM|OF"), "||+00|00|+00");
    UNIT_CHECK_STR(tc(TS, "2008-12-29 00:30:00", "IYYY-IW-ID IDDD YYYY-WW"), "2009-01-1 001 2008-52");
    UNIT_CHECK_STR(tc(TS, "2008-12-29 00:30:00", "HH12:MI AM"), "12:30 AM");
    UNIT_CHECK_STR(tc(TS, "0044-03-15 12:00:00 BC", "YYYY BC CC Y,YYY"), "0044 BC -01 0,044");
    UNIT_CHECK_STR(tc(TS, "0044-03-15 12:00:00 BC", "FMYYYY B.C. J"), "44 B.C. 1705428");
    UNIT_CHECK_STR(tc(TS, "0001-01-01 00:00:00", "CC YYYY"), "01 0001");
    UNIT_CHECK_STR(tc(TS, "0001-01-01 00:00:00", "IYYY IW"), "0001 01");
    UNIT_CHECK_STR(tc(TS, "12345-06-07 08:09:10", "YYYY Y,YYY CC"), "12345 12,345 124");
    UNIT_CHECK_STR(tc(TS, "infinity", "YYYY"), "<null>");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", ""), "<null>");
}

static void test_fill_mode_and_suffixes(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "FMMonth FMDay FMDD FMMM FMHH24 FMHH12 FMMI FMSS"), "March Tuesday 2 3 3 3 4 5");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "FMDDD FMYYYY FMIW FMWW FMCC"), "61 2021 9 9 21");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "DDth DDTH FMDDth FMDDTH"), "02nd 02ND 2nd 2ND");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "Dth IDth Qth Jth CCth"), "3rd 2nd 1st 2459276th 21st");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "HH24th MIth SSth YYYYth Y,YYYth"), "03rd 04th 05th 2021st 2,021st");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "FMFF3 FMUS FMY"), "000 000000 1");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "FMRM|RM|"), "III|III |");
    UNIT_CHECK_STR(tc(TS, "2021-03-02 03:04:05", "TMMonth|TMDay|TMMON"), "March|Tuesday|MAR");
    UNIT_CHECK_STR(tc(TS, "2021-03-11 12:00:00", "DDth"), "11th");
    UNIT_CHECK_STR(tc(TS, "2021-03-11 12:00:00", "FMDDth"), "11th");
    UNIT_CHECK_STR(tc(TS, "2021-03-22 12:00:00", "DDth"), "22nd");
    UNIT_CHECK_STR(tc(TS, "2021-03-23 12:00:00", "FMDDth"), "23rd");
    UNIT_CHECK_STR(tc(TS, "2021-03-13 12:00:00", "DDth"), "13th");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "FMTMMonth"), "T03onth");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "FMx"), "x");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "MONth"), "MAR");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "TZHth|DYth"), "+00|SUN");
}

static void test_literals_and_copied_text(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\"Year\" YYYY"), "Year 2021");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\"YYYY\" YYYY"), "YYYY 2021");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\"a\\\"b\" YYYY"), "a\"b 2021");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\\\"YYYY\\\""), "\"2021\"");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\\YYYY"), "\\2021");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\"unterminated YYYY"), "unterminated YYYY");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "Dth \"of\" FMMonth, YYYY"), "1st of March, 2021");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "YYYY-\"W\"IW"), "2021-W09");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "Am Pm Mi Hh"), "Am Pm M1 Hh");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "sp SP FX fx"), "sp SP  ");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "x Z é !"), "x Z é !");
    UNIT_CHECK_STR(tc(TS, "2021-03-07 15:04:05.123456", "\"\" YYYY"), " 2021");
}

static void test_timestamptz_in_session_zone(void)
{
    tt_setup();
    set_tz("Europe/Paris");
    UNIT_CHECK_STR(tc(TZ, "2021-03-28 00:30:00+00", "YYYY-MM-DD HH24:MI:SS TZ tz OF TZH:TZM"), "2021-03-28 01:30:00 CET cet +01 +01:00");
    UNIT_CHECK_STR(tc(TZ, "2021-03-28 01:30:00+00", "YYYY-MM-DD HH24:MI:SS TZ OF"), "2021-03-28 03:30:00 CEST +02");
    UNIT_CHECK_STR(tc(TZ, "2021-03-28 01:30:00+00", "Day DD HH12 AM"), "Sunday    28 03 AM");
    UNIT_CHECK_STR(tc(TZ, "2021-10-31 00:30:00+00", "HH24:MI TZ OF"), "02:30 CEST +02");
    UNIT_CHECK_STR(tc(TZ, "2021-10-31 01:30:00+00", "HH24:MI TZ OF"), "02:30 CET +01");
    UNIT_CHECK_STR(tc(TZ, "2021-12-31 23:30:00+00", "YYYY-MM-DD HH24:MI IYYY-IW J"), "2022-01-01 00:30 2021-52 2459581");
    UNIT_CHECK_STR(tc(TZ, "-infinity", "YYYY"), "<null>");
    set_tz("Asia/Kolkata");
    UNIT_CHECK_STR(tc(TZ, "2021-03-07 15:04:05+00", "HH24:MI TZ OF FMOF TZH TZM"), "20:34 IST +05:30 +5:30 +05 30");
    UNIT_CHECK_STR(tc(TZ, "1900-01-01 00:00:00+00", "HH24:MI:SS TZ OF"), "05:21:10 MMT +05:21");
    set_tz("America/St_Johns");
    UNIT_CHECK_STR(tc(TZ, "2021-07-07 23:30:00+00", "YYYY-MM-DD HH24:MI TZ OF TZH:TZM"), "2021-07-07 21:00 NDT -02:30 -02:30");
    set_tz("+3");
    UNIT_CHECK_STR(tc(TZ, "2021-07-07 23:30:00+00", "YYYY-MM-DD HH24:MI TZ OF"), "2021-07-08 02:30 +03 +03");
}

static void test_interval(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "YYYY-MM-DD HH24:MI:SS.MS"), "0001-02-03 04:05:06.789");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "Y,YYY YYY YY Y"), "0,001 001 01 1");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "DDD WW W CC J Q"), "423 61 1 00 1721459 1");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "HH HH12 AM SSSS"), "04 04 AM 14706");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "RM rm"), "II   ii  ");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "IYYY IW IDDD"), "0001 05 034");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "FMHH24 FMMM FMDD"), "4 2 3");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "DDth MMth"), "03rd 02nd");
    UNIT_CHECK_STR(tc(IV, "25 hours -3 min", "HH HH24 AM SSSS"), "12 24 AM 89820");
    UNIT_CHECK_STR(tc(IV, "-13 hours", "HH HH24 AM"), "-01 -13 AM");
    UNIT_CHECK_STR(tc(IV, "-12 hours", "HH"), "012");
    UNIT_CHECK_STR(tc(IV, "123456 hours", "HH24:MI SSSS"), "123456:00 444441600");
    UNIT_CHECK_STR(tc(IV, "-1 year -2 mons", "YYYY MM RM"), "-0001 -02 XI  ");
    UNIT_CHECK_STR(tc(IV, "12 mons", "RM|YYYY|MM"), "XII |0001|00");
    UNIT_CHECK_STR(tc(IV, "-1 days -02:03:04.5", "DD HH24:MI:SS.US"), "-1 -02:-03:-04.-500000");
    UNIT_CHECK_STR(tc(IV, "0", "RM|Q|"), "||");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", ""), "<null>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "MONTH"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "Mon"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "DAY"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "Dy"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "D"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "ID"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "TZ"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "OF"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 year 2 mons 3 days 04:05:06.789", "BC"), "<error 22007>");
    UNIT_CHECK_STR(tc(IV, "1 day", "D"), "<error 22007>");
    UNIT_CHECK_STR(tt_err.message, "invalid format specification for an interval value");
    UNIT_CHECK_STR(tt_err.hint, "Intervals are not tied to specific calendar dates.");
}

static void test_numbers_basic(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(NUM, "1234.567", "9999.99"), " 1234.57");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "99999.999"), "  1234.567");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "09999.9"), " 01234.6");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "9,999.99"), " 1,234.57");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "9G999D99"), " 1,234.57");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "999"), " ###");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "99.99"), " ##.##");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "FM9999.9999"), "1234.567");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "L9999.99"), "  1234.57");
    UNIT_CHECK_STR(tc(NUM, "1234.567", "\"Total:\" 9999"), "Total:  1235");
    UNIT_CHECK_STR(tc(NUM, "0.5", "9.9"), "  .5");
    UNIT_CHECK_STR(tc(NUM, "0.5", "0.9"), " 0.5");
    UNIT_CHECK_STR(tc(NUM, "0.5", "99.99"), "   .50");
    UNIT_CHECK_STR(tc(NUM, "0.5", "FM9.9"), ".5");
    UNIT_CHECK_STR(tc(NUM, "0.5", "FM0.0"), "0.5");
    UNIT_CHECK_STR(tc(NUM, "0.5", "9"), " 1");
    UNIT_CHECK_STR(tc(NUM, "0", "9"), " 0");
    UNIT_CHECK_STR(tc(NUM, "0", "9.99"), "  .00");
    UNIT_CHECK_STR(tc(NUM, "0", "FM9.99"), "0.");
    UNIT_CHECK_STR(tc(NUM, "0", "FM0.00"), "0.00");
    UNIT_CHECK_STR(tc(NUM, "0", ".99"), " .##");
    UNIT_CHECK_STR(tc(NUM, "0", "0000"), " 0000");
    UNIT_CHECK_STR(tc(I4, "12", "9999"), "   12");
    UNIT_CHECK_STR(tc(I4, "12", "0999"), " 0012");
    UNIT_CHECK_STR(tc(I4, "12", "9999.99"), "   12.00");
    UNIT_CHECK_STR(tc(I4, "12", "FM9999.99"), "12.");
    UNIT_CHECK_STR(tc(I4, "12", "9,999"), "    12");
    UNIT_CHECK_STR(tc(I4, "12", "FM9,999"), "12");
    UNIT_CHECK_STR(tc(I4, "12", "99V99"), " 1200");
    UNIT_CHECK_STR(tc(I4, "12", "9 9 9"), "   1 2");
    UNIT_CHECK_STR(tc(I4, "1234567", "9,999,999"), " 1,234,567");
    UNIT_CHECK_STR(tc(I4, "1234567", "FM9G999G999"), "1,234,567");
    UNIT_CHECK_STR(tc(I4, "1234567", "999,999"), " ###,###");
    UNIT_CHECK_STR(tc(NUM, "1.23", "9.9,9"), " 1.2,3");
    UNIT_CHECK_STR(tc(NUM, "1.23", "9.,9"), " 1. 2");
    UNIT_CHECK_STR(tc(I4, "5", ""), "");
}

static void test_numbers_sign(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(I4, "-12", "9999"), "  -12");
    UNIT_CHECK_STR(tc(I4, "-12", "S9999"), "  -12");
    UNIT_CHECK_STR(tc(I4, "-12", "9999S"), "  12-");
    UNIT_CHECK_STR(tc(I4, "-12", "9999MI"), "  12-");
    UNIT_CHECK_STR(tc(I4, "-12", "MI9999"), "-  12");
    UNIT_CHECK_STR(tc(I4, "-12", "9999PL"), "  -12 ");
    UNIT_CHECK_STR(tc(I4, "-12", "PL9999"), "   -12");
    UNIT_CHECK_STR(tc(I4, "-12", "SG9999"), "-  12");
    UNIT_CHECK_STR(tc(I4, "-12", "9999SG"), "  12-");
    UNIT_CHECK_STR(tc(I4, "-12", "9999PR"), "  <12>");
    UNIT_CHECK_STR(tc(I4, "-12", "FM9999PR"), "<12>");
    UNIT_CHECK_STR(tc(I4, "-12", "FMS9999"), "-12");
    UNIT_CHECK_STR(tc(I4, "-12", "FM9999MI"), "12-");
    UNIT_CHECK_STR(tc(I4, "-12", "0999"), "-0012");
    UNIT_CHECK_STR(tc(I4, "12", "S9999"), "  +12");
    UNIT_CHECK_STR(tc(I4, "12", "9999S"), "  12+");
    UNIT_CHECK_STR(tc(I4, "12", "9999MI"), "  12 ");
    UNIT_CHECK_STR(tc(I4, "12", "9999PL"), "   12+");
    UNIT_CHECK_STR(tc(I4, "12", "PL9999"), "+   12");
    UNIT_CHECK_STR(tc(I4, "12", "SG9999"), "+  12");
    UNIT_CHECK_STR(tc(I4, "12", "9999PR"), "   12 ");
    UNIT_CHECK_STR(tc(I4, "12", "FM9999PR"), "12");
    UNIT_CHECK_STR(tc(I4, "12", "FMS9999"), "+12");
    UNIT_CHECK_STR(tc(I4, "12", "FMPL9999"), "+12");
    UNIT_CHECK_STR(tc(I4, "12", "FMSG9999"), "+12");
    UNIT_CHECK_STR(tc(NUM, "-0.04", "S999.99"), "   -.04");
    UNIT_CHECK_STR(tc(NUM, "-0.04", "999.99PR"), "   <.04>");
    UNIT_CHECK_STR(tc(NUM, "-0.04", "FM999.99PR"), "<.04>");
    UNIT_CHECK_STR(tc(NUM, "-0.04", "9.99MI"), " .04-");
    UNIT_CHECK_STR(tc(NUM, "-0.04", "FM9.99"), "-.04");
    UNIT_CHECK_STR(tc(NUM, "-0.4", "9"), " 0");
    UNIT_CHECK_STR(tc(NUM, "-0.4", "S9"), "+0");
    UNIT_CHECK_STR(tc(NUM, "-123.456", "999.99S"), "123.46-");
    UNIT_CHECK_STR(tc(NUM, "-123.456", "S999.99"), "-123.46");
    UNIT_CHECK_STR(tc(NUM, "-123.456", "PL999.99"), " -123.46");
    UNIT_CHECK_STR(tc(NUM, "-123.456", "99MI99"), " 1-23");
}

static void test_numbers_rounding_and_overflow(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(NUM, "9.995", "9.99"), " #.##");
    UNIT_CHECK_STR(tc(NUM, "9.995", "99.99"), " 10.00");
    UNIT_CHECK_STR(tc(NUM, "9.995", "9"), " #");
    UNIT_CHECK_STR(tc(NUM, "9.995", "FM9.99"), "#.##");
    UNIT_CHECK_STR(tc(NUM, "-2.5", "9"), "-3");
    UNIT_CHECK_STR(tc(NUM, "2.5", "9"), " 3");
    UNIT_CHECK_STR(tc(NUM, "0.999", "9.99"), " 1.00");
    UNIT_CHECK_STR(tc(NUM, "0.999", "FM0.00"), "1.00");
    UNIT_CHECK_STR(tc(NUM, "12345", "999"), " ###");
    UNIT_CHECK_STR(tc(NUM, "12345", "999.99"), " ###.##");
    UNIT_CHECK_STR(tc(NUM, "12345", "FM999"), "###");
    UNIT_CHECK_STR(tc(NUM, "12345", "9,999"), " #,###");
    UNIT_CHECK_STR(tc(NUM, "12345", "S999"), "+###");
    UNIT_CHECK_STR(tc(I4, "-12345", "999"), "-###");
    UNIT_CHECK_STR(tc(I4, "-12345", "999PR"), "<###>");
    UNIT_CHECK_STR(tc(I8, "9223372036854775807", "9999999999999999999"), " 9223372036854775807");
    UNIT_CHECK_STR(tc(I8, "9223372036854775807", "999"), " ###");
    UNIT_CHECK_STR(tc(NUM, "12345678901234567890.123", "99999999999999999999.99"), " 12345678901234567890.12");
    UNIT_CHECK_STR(tc(NUM, "12345678901234567890.123", "9.99EEEE"), " 1.23e+19");
    UNIT_CHECK_STR(tc(NUM, "NaN", "9999"), "  NaN");
    UNIT_CHECK_STR(tc(NUM, "NaN", "9.99EEEE"), " #.######");
    UNIT_CHECK_STR(tc(NUM, "Infinity", "9999999999"), "   Infinity");
    UNIT_CHECK_STR(tc(NUM, "Infinity", "9.99EEEE"), " #.######");
    UNIT_CHECK_STR(tc(NUM, "-Infinity", "99.9"), "-##.#");
}

static void test_numbers_eeee(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(NUM, "1234.5678", "9.99EEEE"), " 1.23e+03");
    UNIT_CHECK_STR(tc(NUM, "1234.5678", "9.9999EEEE"), " 1.2346e+03");
    UNIT_CHECK_STR(tc(NUM, "1234.5678", "9EEEE"), " 1e+03");
    UNIT_CHECK_STR(tc(NUM, "1234.5678", "9.999999999EEEE"), " 1.234567800e+03");
    UNIT_CHECK_STR(tc(NUM, "-0.00012345", "9.99EEEE"), "-1.23e-04");
    UNIT_CHECK_STR(tc(NUM, "-0.00012345", "FM9.99"), "0.");
    UNIT_CHECK_STR(tc(NUM, "9.96", "9.9EEEE"), " 10.0e+00");
    UNIT_CHECK_STR(tc(NUM, "0", "9.99EEEE"), " 0.00e+00");
    UNIT_CHECK_STR(tc(I4, "-123456", "9.99EEEE"), "-1.23e+05");
    UNIT_CHECK_STR(tc(I8, "123456789012345678", "9.9999999999999999EEEE"), " 1.2345678901234568e+17");
    UNIT_CHECK_STR(tc(F8, "1e300", "9.99EEEE"), " 1.00e+300");
    UNIT_CHECK_STR(tc(F8, "NaN", "999.99EEEE"), " ###.######");
    UNIT_CHECK_STR(tc(F8, "-Infinity", "9.9EEEE"), " #.#####");
    UNIT_CHECK_STR(tc(NUM, "12", "\"x\"9.9EEEE\"y\""), " 1.2e+01");
}

static void test_numbers_v_th_rn(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(I4, "12", "99V9"), " 120");
    UNIT_CHECK_STR(tc(I4, "12", "99V999"), " 12000");
    UNIT_CHECK_STR(tc(I4, "12", "9999th"), "   12th");
    UNIT_CHECK_STR(tc(I4, "12", "9999TH"), "   12TH");
    UNIT_CHECK_STR(tc(NUM, "12.345", "99V99"), " 1235");
    UNIT_CHECK_STR(tc(NUM, "12.345", "999V9"), "  123");
    UNIT_CHECK_STR(tc(I4, "1", "9th"), " 1st");
    UNIT_CHECK_STR(tc(I4, "2", "9TH"), " 2ND");
    UNIT_CHECK_STR(tc(I4, "3", "9th"), " 3rd");
    UNIT_CHECK_STR(tc(I4, "11", "99th"), " 11th");
    UNIT_CHECK_STR(tc(I4, "112", "999th"), " 112th");
    UNIT_CHECK_STR(tc(I4, "-1", "9th"), "-1");
    UNIT_CHECK_STR(tc(NUM, "1.5", "9.9th"), " 1.5");
    UNIT_CHECK_STR(tc(I4, "1994", "RN"), "        MCMXCIV");
    UNIT_CHECK_STR(tc(I4, "1994", "rn"), "        mcmxciv");
    UNIT_CHECK_STR(tc(I4, "1994", "FMRN"), "MCMXCIV");
    UNIT_CHECK_STR(tc(I4, "1994", "FMrn"), "mcmxciv");
    UNIT_CHECK_STR(tc(I4, "3999", "FMRN"), "MMMCMXCIX");
    UNIT_CHECK_STR(tc(I4, "4000", "RN"), "###############");
    UNIT_CHECK_STR(tc(I4, "0", "RN"), "###############");
    UNIT_CHECK_STR(tc(NUM, "1993.5", "FMRN"), "MCMXCIV");
    UNIT_CHECK_STR(tc(F8, "4.5", "FMRN"), "IV");
    UNIT_CHECK_STR(tc(F8, "4.6", "FMRN"), "V");
    UNIT_CHECK_STR(tc(I4, "5", "FMRNSG|"), "V");
}

static void test_numbers_float(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(F8, "123.456", "999.999"), " 123.456");
    UNIT_CHECK_STR(tc(F8, "123.456", "FM999.9999999"), "123.456");
    UNIT_CHECK_STR(tc(F8, "123.456", "9999999999999.99999999"), "           123.45600000");
    UNIT_CHECK_STR(tc(F8, "123.456", "0000.00"), " 0123.46");
    UNIT_CHECK_STR(tc(F8, "-0", "9.9"), " -.0");
    UNIT_CHECK_STR(tc(F8, "-0", "9"), "-0");
    UNIT_CHECK_STR(tc(F8, "0.1", "9.99999999999999999999"), "  .10000000000000");
    UNIT_CHECK_STR(tc(F8, "2.675", "9.99"), " 2.67");
    UNIT_CHECK_STR(tc(F8, "1.005", "9.99"), " 1.00");
    UNIT_CHECK_STR(tc(F8, "0.5", "9"), " 0");
    UNIT_CHECK_STR(tc(F8, "1.5", "9"), " 2");
    UNIT_CHECK_STR(tc(F8, "1e20", "999999999999999999999.99"), " 100000000000000000000");
    UNIT_CHECK_STR(tc(F8, "NaN", "9999"), "  NaN");
    UNIT_CHECK_STR(tc(F8, "Infinity", "99999999999"), "    Infinity");
    UNIT_CHECK_STR(tc(F4, "3.14159", "9.9999999"), " 3.14159");
    UNIT_CHECK_STR(tc(F4, "1234567.5", "99999999.99"), "  1234568");
    UNIT_CHECK_STR(tc(F4, "-0.125", "S0.99"), "-0.12");
    UNIT_CHECK_STR(tc(F8, "12.5", "99V9"), " 125");
    UNIT_CHECK_STR(tc(F4, "12.5", "99V9"), " 125");
}

static void test_number_template_errors(void)
{
    tt_setup();
    UNIT_CHECK_STR(tc(NUM, "1", "9.9.9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "99V9.9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "9.9V9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9S9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9MI"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "MI9S"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9PL"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9SG"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9PR"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "PR9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "9PR0"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "9EEEEE"), " 1e+00");
    UNIT_CHECK_STR(tc(NUM, "1", "EEEE9"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "FM9.9EEEE"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "S9.9EEEE"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "9.9EEEEEEEE"), "<error 42601>");
    UNIT_CHECK_STR(tc(NUM, "1", "9D9D"), "<error 42601>");
    UNIT_CHECK_STR(tc(I8, "9223372036854775807", "9V9"), "<error 22003>");
    UNIT_CHECK_STR(tc(I8, "9223372036854775807", "RN"), "<error 22003>");
    UNIT_CHECK_STR(tc(NUM, "NaN", "RN"), "<error 0A000>");
    UNIT_CHECK_STR(tc(F8, "NaN", "9th"), " #");
    UNIT_CHECK_STR(tc(NUM, "1", "9.9EEEE9"), "<error 42601>");
    UNIT_CHECK_STR(tt_err.message, "\"EEEE\" must be the last pattern used");
    UNIT_CHECK_STR(tc(NUM, "1", "PR9"), "<error 42601>");
    UNIT_CHECK_STR(tt_err.message, "\"9\" must be ahead of \"PR\"");
    UNIT_CHECK_STR(tc(NUM, "1", "FM9.9EEEE"), "<error 42601>");
    UNIT_CHECK_STR(tt_err.message, "\"EEEE\" is incompatible with other formats");
}

static void test_age_timestamp(void)
{
    tt_setup();
    UNIT_CHECK_STR(age2(TS, "2001-04-10", "1957-06-13"), "43 years 9 mons 27 days");
    UNIT_CHECK_STR(age2(TS, "1957-06-13", "2001-04-10"), "-43 years -9 mons -27 days");
    UNIT_CHECK_STR(age2(TS, "2021-03-31", "2021-02-28"), "1 mon 3 days");
    UNIT_CHECK_STR(age2(TS, "2021-03-01", "2021-01-31"), "1 mon 1 day");
    UNIT_CHECK_STR(age2(TS, "2021-01-31", "2021-03-01"), "-1 mons -1 days");
    UNIT_CHECK_STR(age2(TS, "2020-03-01", "2020-01-31"), "1 mon 1 day");
    UNIT_CHECK_STR(age2(TS, "2021-03-31 10:00", "2021-02-28 12:00"), "1 mon 2 days 22:00:00");
    UNIT_CHECK_STR(age2(TS, "2000-01-01 00:00:00.5", "1999-12-31 06:30:15.25"), "17:29:45.25");
    UNIT_CHECK_STR(age2(TS, "2021-05-31", "2021-05-31"), "00:00:00");
    UNIT_CHECK_STR(age2(TS, "0044-03-15 BC", "2000-01-01"), "-2042 years -9 mons -17 days");
    UNIT_CHECK_STR(age2(TS, "infinity", "2000-01-01"), "292277 years 8 days 04:00:54.775807");
    UNIT_CHECK_STR(age2(TS, "-infinity", "2000-01-01"), "<error 22008>");
    UNIT_CHECK_STR(age2(TS, "294276-12-31 23:59:59", "4713-01-01 BC"), "298988 years 11 mons 30 days 23:59:59");
}

static void test_age_timestamptz(void)
{
    tt_setup();
    set_tz("Europe/Paris");
    UNIT_CHECK_STR(age2(TZ, "2021-03-28 12:00+02", "2021-03-27 12:00+01"), "1 day");
    UNIT_CHECK_STR(age2(TZ, "2021-03-27 12:00+01", "2021-03-28 12:00+02"), "-1 days");
    UNIT_CHECK_STR(age2(TZ, "2021-10-31 02:30+01", "2021-10-31 02:30+02"), "00:00:00");
    UNIT_CHECK_STR(age2(TZ, "2021-03-31 23:30+00", "2021-02-28 22:30+00"), "1 mon 02:00:00");
    UNIT_CHECK_STR(age2(TZ, "2021-02-28 22:30+00", "2021-03-31 23:30+00"), "-1 mons -02:00:00");
    UNIT_CHECK_STR(age2(TZ, "infinity", "2000-01-01"), "292277 years 8 days 05:00:54.775807");
    set_tz("America/New_York");
    UNIT_CHECK_STR(age2(TZ, "2021-03-31 23:30+00", "2021-02-28 22:30+00"), "1 mon 3 days 02:00:00");
    UNIT_CHECK_STR(age2(TZ, "2021-03-14 12:00", "2021-03-13 12:00"), "1 day");
}

/* age(x) measures from midnight of current_date in the session zone. */
static void test_age_one_argument(void)
{
    tt_setup();
    tt_ctx.xact_ts = INT64_C(677066400) * 1000000;   /* 2021-06-15 10:00:00 UTC */
    UNIT_CHECK_STR(age1(TS, "1957-06-13"), "64 years 2 days");
    UNIT_CHECK_STR(age1(TS, "2021-06-15 12:00"), "-12:00:00");
    UNIT_CHECK_STR(age1(TS, "2020-02-29 23:59:59"), "1 year 3 mons 14 days 00:00:01");
    set_tz("Europe/Paris");
    tt_ctx.xact_ts = INT64_C(677028600) * 1000000;   /* 2021-06-14 23:30 UTC, already the 15th in Paris */
    UNIT_CHECK_STR(age1(TZ, "2021-06-14 22:00+00"), "00:00:00");
    UNIT_CHECK_STR(age1(TZ, "2021-03-28 02:30+02"), "2 mons 17 days 22:30:00");
    UNIT_CHECK_STR(age1(TZ, "2021-06-15 12:00+02"), "-12:00:00");
    UNIT_CHECK_STR(age1(TS, "2021-06-15"), "00:00:00");
}

int main(void)
{
    UNIT_RUN(test_timestamp_patterns);
    UNIT_RUN(test_fill_mode_and_suffixes);
    UNIT_RUN(test_literals_and_copied_text);
    UNIT_RUN(test_timestamptz_in_session_zone);
    UNIT_RUN(test_interval);
    UNIT_RUN(test_numbers_basic);
    UNIT_RUN(test_numbers_sign);
    UNIT_RUN(test_numbers_rounding_and_overflow);
    UNIT_RUN(test_numbers_eeee);
    UNIT_RUN(test_numbers_v_th_rn);
    UNIT_RUN(test_numbers_float);
    UNIT_RUN(test_number_template_errors);
    UNIT_RUN(test_age_timestamp);
    UNIT_RUN(test_age_timestamptz);
    UNIT_RUN(test_age_one_argument);
    UNIT_EXIT();
}
