-- queries.sql: constant queries run against PostgreSQL 15 and eddy by tests/diff/diff.py.
-- One statement per line; lines starting with "--" are comments. Statements run in order
-- on one connection per server, so SET lines affect what follows. Compared: column names,
-- type OIDs, every value as text, or the SQLSTATE of the error.
-- integers
SELECT 1
SELECT -1, +2, - -3
SELECT 2147483647
SELECT 2147483648
SELECT 9223372036854775807
SELECT 9223372036854775808
SELECT -9223372036854775808
SELECT 1 + 2 * 3 - 4 / 2
SELECT 7 / 2, -7 / 2, 7 % 3, -7 % 3, 7 % -3
SELECT 2147483647 + 1
SELECT -2147483648 - 1
SELECT 2147483647 * 2
SELECT 9223372036854775807 + 1
SELECT 9223372036854775807::int8 * 2
SELECT (-9223372036854775808)::int8 / -1
SELECT (-2147483648)::int4 / -1
SELECT 32767::int2 + 1::int2
SELECT (-32768)::int2 * -1::int2
SELECT 1 / 0
SELECT 1::int8 / 0
SELECT 1::int2 / 0::int2
SELECT 5 % 0
SELECT 1.0 / 0
SELECT 1.5::float8 / 0
SELECT 0.0 / 0
SELECT 10::int2 + 5::int4, 10::int4 + 5::int8, 10::int2 * 5::int8
SELECT abs(-5), abs(-5::int8), abs(-5.5), abs(-2::int2)
SELECT @ -5, 5 & 3, 5 | 3, 5 # 3, ~5, 1 << 4, 256 >> 2
SELECT 2 ^ 10, 2.0 ^ 0.5
SELECT -2 ^ 2
SELECT (-2) ^ 2
SELECT 10 / 3 * 3, 10 / 3.0
SELECT 1::int2, 1::int4, 1::int8, pg_typeof(1::int2), pg_typeof(1 + 1::int8)
SELECT '  42  '::int4, '-0'::int4, '+7'::int8
SELECT 'abc'::int4
SELECT '2147483648'::int4
SELECT ''::int4
SELECT '1.5'::int4
SELECT 1.5::int4, 2.5::int4, -1.5::int4, -2.5::int4, 0.5::int4
SELECT 1.5::float8::int4, 2.5::float8::int4, -2.5::float8::int8
SELECT 3000000000::int8::int4
SELECT 40000::int2
SELECT gcd(12, 18), lcm(4, 6), div(7, 2), mod(-7, 2)
SELECT factorial(10)
SELECT sign(-3), sign(0), sign(2.5)
-- numeric
SELECT 1.5, 0.1 + 0.2, 1.10 + 2.205
SELECT 12345678901234567890123456789012345678901234567890 + 1
SELECT 99999999999999999999999999999999999999.9999 * 99999999999999999999999999999999999999
SELECT 1.0000000000000000000000000000000000000001 - 1
SELECT 123456789012345678901234567890.123456789 / 3
SELECT 1 / 3.0, 2 / 3::numeric, 10::numeric / 4
SELECT 1::numeric / 7
SELECT 0.000000000000000000000000000000000001 * 1000
SELECT -0.0, 0.00, 1e3::numeric, 1.5e-3::numeric
SELECT round(2.5), round(-2.5), round(1.234567, 3), round(1234.5, -2)
SELECT trunc(2.7), trunc(-2.7), trunc(1.23456, 2), ceil(1.1), floor(-1.1), ceiling(2.0)
SELECT 'NaN'::numeric, 'Infinity'::numeric, '-Infinity'::numeric
SELECT 'NaN'::numeric + 1, 'Infinity'::numeric * -1
SELECT 1::numeric / 0
SELECT 'abc'::numeric
SELECT 12.345::numeric(5,2), 12.344::numeric(5,2), 12.355::numeric(5,2)
SELECT 1234.5::numeric(4,1)
SELECT 99.995::numeric(4,2)
SELECT 5.0 % 3, -5.5 % 2, 5 % 2.5
SELECT sqrt(2::numeric), sqrt(16), power(2::numeric, 100)
SELECT exp(1.0), ln(10.0), log(100.0), log(2, 64.0)
SELECT sqrt(-1)
SELECT ln(0)
SELECT 1.23456789012345678901234567890::float8
SELECT 12345678901234567890::numeric::int8
SELECT 123.456::numeric::float8, 1e308::numeric::float8
SELECT scale(1.2300), trim_scale(1.2300)
-- floating point
SELECT 1.5::float8, 0.1::float8, 0.1::float4, 1e100::float8, 1e-100::float8
SELECT 0.1::float8 + 0.2::float8
SELECT 1/3::float8, 2/3::float4
SELECT 123456789.123456789::float8, 123456789::float4
SELECT 1e15::float8, 1e16::float8, 1e17::float8, 123456789012345678::float8
SELECT 1e-4::float8, 1e-5::float8, 0.0001234::float8
SELECT 'Infinity'::float8, '-Infinity'::float8, 'NaN'::float8, 'inf'::float8, '-inf'::float4
SELECT 'Infinity'::float8 - 'Infinity'::float8, 'NaN'::float8 = 'NaN'::float8
SELECT -0.0::float8, 0.0::float8 * -1
SELECT 3.4028235e38::float4, 1.4e-45::float4
SELECT 1e39::float4
SELECT 1e309::float8
SELECT '1e309'::float8
SELECT 1.7976931348623157e308::float8, 2.2250738585072014e-308::float8, 5e-324::float8
SELECT 1e308::float8 * 10
SELECT 1e-308::float8 / 1e10
SELECT 2.5::float8::numeric, 0.1::float4::float8, 1e20::float8::numeric
SELECT round(2.5::float8), round(3.5::float8), round(-2.5::float8), trunc(-2.7::float8)
SELECT sqrt(2::float8), cbrt(27::float8), exp(1::float8), ln(2::float8)
SELECT pi(), degrees(pi()), radians(180::float8)
SELECT sin(0::float8), cos(0::float8), atan2(1::float8, 1::float8)
SELECT 'abc'::float8
SELECT ' 1.5 '::float8, '1.5e3'::float4, '-.5'::float8
SET extra_float_digits = 0
SELECT 0.1::float8, 1/3::float8, 1.1::float4, 123456789.123::float8
SET extra_float_digits = 3
SELECT 0.1::float8, 1/3::float8, 1.1::float4, 123456789.123::float8
SET extra_float_digits = -5
SELECT 0.1::float8, 1/3::float8, 1.1::float4, pi()
RESET extra_float_digits
SHOW extra_float_digits
SELECT 0.1::float8, 1/3::float8
-- casts
SELECT 1::text, 1.5::text, true::text, 'x'::varchar(5), 'abcdef'::varchar(3), 'ab'::char(4)
SELECT 'ab'::char(4) || 'c', length('ab'::char(4)), octet_length('ab  '::varchar)
SELECT '1'::bool, 'yes'::bool, 'off'::bool, 'T'::bool, ' true '::bool
SELECT 'maybe'::bool
SELECT 1::bool, 0::bool
SELECT true::int
SELECT CAST(42 AS text), CAST('42' AS int8), CAST(4.2 AS int4)
SELECT '2024-02-29'::date, '1999-01-08'::date, 'January 8, 1999'::date
SELECT '2023-02-29'::date
SELECT 'epoch'::date, 'infinity'::date, '-infinity'::timestamp
SELECT '2024-01-02 03:04:05.678'::timestamp, '2024-01-02T03:04:05'::timestamp
SELECT '2024-01-02 03:04:05+02'::timestamptz, '2024-01-02 03:04:05 America/New_York'::timestamptz
SELECT '04:05:06.789'::time, '24:00:00'::time, '4:05 PM'::time
SELECT '25:00:00'::time
SELECT '1 day'::interval, '1 year 2 months 3 days 4 hours 5 minutes 6 seconds'::interval
SELECT '-1 day +2 hours'::interval, '1.5 days'::interval, 'PT1H30M'::interval, '@ 3 mins ago'::interval
SELECT interval '1' day, interval '1:30' hour to minute
SELECT '3 days'::interval * 2, '1 hour'::interval / 4, -'1 day'::interval
SELECT '1 month'::interval = '30 days'::interval, '25 hours'::interval
SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 'A0EEBC999C0B4EF8BB6D6BB9BD380A11'::uuid
SELECT '{a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11}'::uuid
SELECT 'not-a-uuid'::uuid
SELECT '\x0102ff'::bytea, 'abc'::bytea, '\\'::bytea
SELECT 'hello'::bytea::text
SELECT 42::oid, '4294967295'::oid
SELECT 1::int4::int8::numeric::float8::text::int4
SELECT '12'::text::int4 + 1
SELECT 3::numeric(10,2), 3.14159::numeric(3,2)::text
SELECT NULL::int, NULL::text, pg_typeof(NULL), pg_typeof(NULL::int4)
SELECT pg_typeof('a'), pg_typeof(1.5), pg_typeof(1e10), pg_typeof(3000000000), pg_typeof(true)
SELECT 'x' AS untyped, pg_typeof('x' || 'y')
-- CASE / COALESCE / NULLIF / GREATEST
SELECT CASE WHEN 1 > 2 THEN 'a' WHEN 2 > 1 THEN 'b' ELSE 'c' END
SELECT CASE 3 WHEN 1 THEN 'one' WHEN 3 THEN 'three' END, CASE 4 WHEN 1 THEN 'one' END
SELECT CASE WHEN NULL THEN 1 ELSE 2 END
SELECT CASE WHEN true THEN 1 ELSE 2.5 END
SELECT CASE WHEN false THEN 1/0 ELSE 0 END
SELECT CASE WHEN true THEN 'a' ELSE 1 END
SELECT COALESCE(NULL, NULL, 3, 4), COALESCE(NULL::text, 'x'), COALESCE(NULL, 1.5, 2)
SELECT COALESCE(1, 'a')
SELECT NULLIF(1, 1), NULLIF(1, 2), NULLIF('a', 'b'), NULLIF(NULL, 1)
SELECT GREATEST(1, 5, 3), LEAST(1.5, 0.5, 2), GREATEST('apple', 'banana'), LEAST(NULL, 2, 1)
-- comparison, NULL logic
SELECT 1 = 1, 1 <> 2, 1 != 1, 2 > 1, 2 >= 2, 1 < 1, 1 <= 0
SELECT NULL = NULL, NULL <> 1, NULL IS NULL, 1 IS NOT NULL, NULL::int IS NULL
SELECT true AND NULL, false AND NULL, true OR NULL, false OR NULL, NOT NULL::bool
SELECT 1 IS DISTINCT FROM NULL, NULL IS DISTINCT FROM NULL, 1 IS NOT DISTINCT FROM 1, NULL IS NOT DISTINCT FROM NULL
SELECT 1 IS DISTINCT FROM 2, 'a' IS NOT DISTINCT FROM 'a'
SELECT true IS TRUE, NULL IS UNKNOWN, false IS NOT FALSE, NULL::bool IS NOT TRUE
SELECT 5 BETWEEN 1 AND 10, 5 BETWEEN 10 AND 1, 5 BETWEEN SYMMETRIC 10 AND 1, 5 NOT BETWEEN 6 AND 7
SELECT 'b' BETWEEN 'a' AND 'c', NULL BETWEEN 1 AND 2, 1.5 BETWEEN 1 AND 2
SELECT 3 IN (1, 2, 3), 4 IN (1, 2, 3), 4 NOT IN (1, 2, 3), NULL IN (1, 2), 1 IN (2, NULL), 2 NOT IN (1, NULL)
SELECT 'a' IN ('a', 'b'), 1.5 IN (1, 1.5)
SELECT 1 = 1.0, 1::int8 = 1::int2, 1.0::float8 = 1::numeric, '1' = 1
SELECT 'abc' < 'abd', 'abc' < 'ab', 'Z' < 'a', '' < 'a'
SELECT 1 < 'x'
-- LIKE / ILIKE / regex
SELECT 'hello' LIKE 'h%', 'hello' LIKE '_ello', 'hello' LIKE 'H%', 'hello' NOT LIKE '%z%'
SELECT 'hello' ILIKE 'H%', 'HELLO' ILIKE '%ll%', 'hello' NOT ILIKE 'x%'
SELECT 'a%b' LIKE 'a\%b', 'axb' LIKE 'a\%b', 'a_b' LIKE 'a\_b', 'a%b' LIKE 'a#%b' ESCAPE '#'
SELECT '' LIKE '', '' LIKE '%', NULL LIKE 'a', 'abc' LIKE NULL
SELECT 'Straße' ILIKE 'STRASSE', 'Ä' ILIKE 'ä', 'résumé' LIKE 'r_sum_'
SELECT 'hello' ~ '^h.*o$', 'hello' ~* 'HEL', 'hello' !~ 'z', 'hello' SIMILAR TO 'h(e|a)llo'
SELECT 'foo123bar' ~ '[0-9]+', regexp_replace('foo123bar', '[0-9]+', 'X'), regexp_replace('a1b2', '\d', '#', 'g')
-- back-references (matched by PCRE2, where a match can be interrupted)
SELECT 'abab' ~ '(ab)\1', 'abcab' ~ '(ab)c\1', 'abba' ~ '(a)(b)\2\1', 'aXb' ~ '(a|b)X\1', 'AXa' ~* '(a)X\1', 'AXa' ~ '(a)X\1'
SELECT 'äxä' ~ '(.)x\1', 'foo foo' ~ '(\w+) \1', E'foo\nfoo' ~ '(foo).\1', E'foo foo\n' ~ '(foo) \1$', 'xyzzy' ~ '([[:alpha:]])\1', '12 13' !~ '([0-9]+) \1'
SELECT 'ÄxÄ' ~* '(ä)x\1', 'aa' ~ '(a*)*\1', '' ~ '(a*)\1', 'abcabc' ~ '^(a(b)c)\1$', 'x1x' ~ '(x)\d\1', 'a{2}' ~ '(a)\{2\}'
SELECT 'ab' ~ '(a)\2', 'ab' ~ '(a'
-- back-references where the match's place and groups are wanted: the longest match at the leftmost start
SELECT regexp_replace('abcabc xyzxyz', '(.+)\1', '<\1>', 'g'), substring('foo barbar baz' from '(b..)\1')
SELECT regexp_count('abab abab ab', '(ab)\1'), regexp_replace('aaaa', '(a|aa)\1', 'X'), regexp_replace('aaaaaa', '(a|aa)\1', '[\1]', 'g')
SELECT regexp_instr('zzabab', '(ab)\1'), regexp_substr('zzabab', '(ab)\1'), regexp_like('zzabab', '(AB)\1', 'i'), 'abab' ~ '^(a|ab)\1$'
SELECT regexp_replace(E'ab\nab', '^(ab)\n\1$', 'X', 'n'), regexp_replace(E'xx\nab\nab', '^(ab)\n\1$', 'Y', 'n'), substring('aaa' from '(a{,2})\1'), substring('a{,2}a{,2}' from '(a{,2})\1')
SELECT regexp_replace('aXbX', '([^a])\1', '-'), regexp_replace(E'a\n\nb', '([^a])\1', '-', 'n'), regexp_replace('foo  bar', '( )\1', '_')
-- string functions
SELECT 'abc' || 'def', 'a' || 1, 1 || 'a', 'x' || NULL, concat('a', NULL, 'b', 1), concat_ws(',', 'a', NULL, 'b')
SELECT length('hello'), length('äöü'), octet_length('äöü'), char_length(''), bit_length('a')
SELECT upper('hello'), lower('HeLLo'), initcap('hello wORLD foo-bar')
SELECT upper('äöü straße'), lower('ÄÖÜ')
SELECT substr('hello', 2, 3), substring('hello' from 2 for 3), substring('hello', 3), substr('hello', 0, 2), substr('hello', -1, 3)
SELECT substr('hello', 2, -1)
SELECT substring('äöüß', 2, 2), left('hello', 2), right('hello', 2), left('hello', -2), right('hello', -1)
SELECT position('l' in 'hello'), strpos('hello', 'lo'), position('z' in 'hello'), position('' in 'abc')
SELECT trim('  x  '), ltrim('  x  '), rtrim('  x  '), trim(both 'x' from 'xxaxx'), trim(leading 'x' from 'xxa'), btrim('xyxay', 'xy')
SELECT replace('hello world', 'o', '0'), replace('abc', '', 'x'), translate('hello', 'el', 'ip')
SELECT repeat('ab', 3), repeat('x', 0), repeat('x', -1), reverse('hello'), reverse('äöü')
SELECT lpad('5', 3, '0'), rpad('ab', 5, 'xy'), lpad('hello', 3), rpad('', 2), lpad('x', 4)
SELECT split_part('a,b,c', ',', 2), split_part('a,b,c', ',', 5), split_part('a,b,c', ',', -1)
SELECT ascii('A'), ascii('€'), chr(65), chr(8364), md5('hello'), md5('')
SELECT chr(0)
SELECT starts_with('hello', 'he'), 'hello' ^@ 'x', quote_ident('Foo bar'), quote_literal('it''s'), quote_nullable(NULL)
SELECT format('%s-%s', 'a', 1), format('%I %L', 'My Col', 'v''al'), format('%5s|%-5s|', 'x', 'y')
SELECT to_hex(255), to_hex(-1), to_hex(9223372036854775807)
SELECT 'It''s', E'tab\there', E'new\nline', U&'\0041', $$dollar 'quoted'$$
SELECT E'\x41\102\u00e9'
SELECT 'a' 'b'
SELECT string_to_array('a,b,c', ','), array_to_string(ARRAY['x', 'y'], '-')
-- to_char and formatting
SELECT to_char(1234.5, '9999.99'), to_char(1234.5, 'FM9999.99'), to_char(-12, '999'), to_char(0.5, '0.99')
SELECT to_char(1234567.891, '9,999,999.99'), to_char(42, '00000'), to_char(3.14159, '9.999')
SELECT to_char(12345, '99'), to_char(1.5::float8, '9.9'), to_char(1e10::float8, '9.99EEEE')
SELECT to_char('2024-03-05 14:07:09.123'::timestamp, 'YYYY-MM-DD HH24:MI:SS.MS')
SELECT to_char('2024-03-05 14:07:09'::timestamp, 'Day, DD Month YYYY HH12:MI AM')
SELECT to_char('2024-03-05 14:07:09'::timestamp, 'FMDay FMMonth DDth Q WW IYYY-IW DDD J')
SELECT to_char('2024-12-31'::date, 'YYYY "week" WW, Dy Mon')
SELECT to_char('1 day 02:03:04'::interval, 'HH24:MI:SS'), to_char('2024-01-01'::date, 'TMMonth')
SELECT to_date('05 Mar 2024', 'DD Mon YYYY'), to_timestamp('2024-03-05 14:07', 'YYYY-MM-DD HH24:MI')
SELECT to_number('12,345.6', '99,999.9'), to_number('-12', 'S99')
-- dates, timestamps, intervals
SELECT date_trunc('month', '2024-03-15 10:20:30'::timestamp), date_trunc('hour', '2024-03-15 10:20:30'::timestamp)
SELECT date_trunc('year', '2024-03-15'::timestamp), date_trunc('week', '2024-03-15'::timestamp), date_trunc('quarter', '2024-08-15'::timestamp)
SELECT date_trunc('day', '2024-03-15 10:20:30+05'::timestamptz), date_trunc('minute', '2024-03-15 10:20:30.5'::timestamp)
SELECT date_trunc('millennium', '2024-03-15'::timestamp), date_trunc('decade', '2024-03-15'::timestamp)
SELECT date_trunc('fortnight', '2024-03-15'::timestamp)
SELECT extract(year from '2024-03-15 10:20:30.5'::timestamp), extract(month from '2024-03-15'::date), extract(day from '2024-03-15'::date)
SELECT extract(hour from '10:20:30'::time), extract(minute from '2024-03-15 10:20:30'::timestamp), extract(second from '2024-03-15 10:20:30.5'::timestamp)
SELECT extract(epoch from '2024-03-15 10:20:30'::timestamp), extract(epoch from '2024-03-15 10:20:30+00'::timestamptz), extract(epoch from '1 day'::interval)
SELECT extract(dow from '2024-03-17'::date), extract(isodow from '2024-03-17'::date), extract(doy from '2024-12-31'::date), extract(week from '2024-01-01'::date)
SELECT extract(quarter from '2024-08-01'::date), extract(century from '2024-01-01'::date), extract(millisecond from '10:20:30.5'::time), extract(julian from '2024-01-01'::date)
SELECT extract(days from '3 days 4 hours'::interval), extract(hours from '3 days 4 hours'::interval), extract(month from '14 months'::interval)
SELECT date_part('year', '2024-03-15'::date), date_part('epoch', '2000-01-01'::timestamp)
SELECT extract(foo from '2024-03-15'::date)
SELECT '2024-03-15'::date + 1, '2024-03-15'::date - 1, '2024-03-15'::date - '2024-01-01'::date
SELECT '2024-03-15'::date + '1 month'::interval, '2024-01-31'::date + '1 month'::interval
SELECT '2024-03-15 10:00'::timestamp + '1 day 2 hours'::interval, '2024-03-15 10:00'::timestamp - '2024-03-14 08:30'::timestamp
SELECT '2024-03-15'::date + '10:30'::time, '2024-02-28'::date + 2
SELECT '2024-03-15 10:00+00'::timestamptz - '1 hour'::interval, '2024-03-15 10:00+00'::timestamptz::date
SELECT '2024-03-15 10:00:00'::timestamp::date, '2024-03-15'::date::timestamp, '2024-03-15 10:00'::timestamp::time
SELECT make_date(2024, 2, 29), make_time(10, 20, 30.5), make_timestamp(2024, 1, 2, 3, 4, 5.5), make_interval(days => 3, hours => 2)
SELECT make_date(2023, 2, 29)
SELECT age('2024-03-15'::timestamp, '2020-01-20'::timestamp), justify_days('35 days'::interval), justify_hours('27 hours'::interval), justify_interval('1 month -1 hour'::interval)
SELECT '2024-03-15'::date < '2024-03-16'::date, '2024-03-15'::date = '2024-03-15 00:00'::timestamp, '1 day'::interval > '23 hours'::interval
SELECT isfinite('infinity'::date), isfinite('2024-01-01'::date), 'infinity'::timestamp > '2024-01-01'::timestamp
SELECT '2024-03-10 12:00:00'::timestamp AT TIME ZONE 'UTC', '2024-03-10 12:00:00+00'::timestamptz AT TIME ZONE 'Asia/Tokyo'
SELECT timezone('America/New_York', '2024-07-01 12:00:00+00'::timestamptz)
SELECT '0001-01-01'::date, '4713-01-01 BC'::date, '5874897-12-31'::date, '294276-12-31 23:59:59'::timestamp
SELECT '2024-03-15 10:20:30.123456789'::timestamp, '2024-03-15 10:20:30.1234565'::timestamp
SELECT '2024-03-15 10:20:30'::timestamp(0), '2024-03-15 10:20:30.555'::timestamp(1), '10:20:30.555'::time(2)
SELECT overlaps_test FROM (SELECT ('2024-01-01'::date, '2024-02-01'::date) OVERLAPS ('2024-01-15'::date, '2024-03-01'::date) AS overlaps_test) s
SELECT '1 year 13 months'::interval, '90 minutes'::interval, '1000000 seconds'::interval, '-1 hours -30 minutes'::interval
SELECT '1 day'::interval + '1 hour'::interval, '1 day'::interval - '1 hour'::interval, '1 hour'::interval * 1.5, '1 day'::interval / 3
SELECT '178000000 years'::interval
SELECT interval '1 day' * 1e10
-- session settings then values that depend on them
SET TimeZone = 'America/New_York'
SHOW TimeZone
SELECT '2024-07-01 12:00:00+00'::timestamptz, '2024-01-01 12:00:00+00'::timestamptz, '2024-07-01 12:00'::timestamptz::text
SELECT '2024-03-10 01:30:00'::timestamptz + '1 hour'::interval, '2024-03-10 00:00'::timestamptz + '1 day'::interval
SELECT extract(timezone from '2024-07-01 12:00:00+00'::timestamptz), date_trunc('day', '2024-07-01 02:00:00+00'::timestamptz)
SET TimeZone = '+05:30'
SELECT '2024-07-01 12:00:00+00'::timestamptz
SET TIME ZONE 'Europe/Berlin'
SELECT '2024-07-01 12:00:00+00'::timestamptz, '2024-12-01 12:00:00+00'::timestamptz
SET TimeZone = 'Not/AZone'
SET TimeZone = 'UTC'
SELECT '2024-07-01 12:00:00+00'::timestamptz
SET DateStyle = 'SQL, DMY'
SHOW DateStyle
SELECT '2024-03-05'::date, '2024-03-05 10:20:30'::timestamp, '2024-03-05 10:20:30+00'::timestamptz
SELECT '05/03/2024'::date
SET DateStyle = 'German'
SELECT '2024-03-05'::date, '2024-03-05 10:20:30'::timestamp
SET DateStyle = 'Postgres, MDY'
SELECT '2024-03-05'::date, '2024-03-05 10:20:30'::timestamp, '03/05/2024'::date
SET DateStyle = 'ISO'
SHOW DateStyle
SELECT '2024-03-05'::date, '03/05/2024'::date
SET DateStyle = 'ISO, YMD'
SELECT '24/03/05'::date
SET DateStyle TO DEFAULT
SHOW DateStyle
SET IntervalStyle = 'iso_8601'
SELECT '1 year 2 months 3 days 04:05:06'::interval, '-1 day'::interval
SET IntervalStyle = 'sql_standard'
SELECT '1 year 2 months 3 days 04:05:06'::interval, '-1 day'::interval
RESET IntervalStyle
SHOW IntervalStyle
SET application_name = 'diff test'
SHOW application_name
SET client_min_messages = warning
SHOW client_min_messages
SET search_path = public
SHOW search_path
SHOW server_encoding
SHOW client_encoding
SHOW standard_conforming_strings
SHOW integer_datetimes
SHOW is_superuser
SHOW no_such_setting
SET no_such_setting = 1
SET extra_float_digits = 'abc'
SET extra_float_digits = 10
-- VALUES lists and aliases
VALUES (1)
VALUES (1, 'a'), (2, 'b'), (3, NULL)
VALUES (1), (2.5), (NULL)
VALUES (1, 2), (3)
VALUES (1), ('a')
VALUES ('1'), (2)
SELECT * FROM (VALUES (1, 'one'), (2, 'two')) AS t(num, name)
SELECT num * 10 AS big, upper(name) FROM (VALUES (1, 'one'), (2, 'two')) AS t(num, name)
SELECT * FROM (VALUES (1, 2)) AS t(a)
SELECT 1 AS a, 2 AS "B", 3 AS "with space", 4 AS "Ünïcode", 5 "noas", 6 AS select
SELECT 1 AS a, 2 AS a
SELECT 1 + 1, 'x', 1.5 AS "?column?", upper('a'), count(*)
SELECT x FROM (SELECT 1 AS x) AS s
SELECT s.x, s.* FROM (SELECT 1 AS x, 2 AS y) AS s
SELECT (SELECT 42) AS sub, (SELECT 1 WHERE false) AS empty
SELECT 1 WHERE 1 = 2
SELECT 1 UNION SELECT 2 ORDER BY 1
SELECT 1 UNION ALL SELECT 1 UNION SELECT 2 ORDER BY 1
SELECT 'a' AS x UNION SELECT 'b' ORDER BY x DESC
SELECT 1 INTERSECT SELECT 1
SELECT 1 EXCEPT SELECT 1
SELECT 1 UNION SELECT 'a'
SELECT * FROM (VALUES (3), (1), (2)) v(x) ORDER BY x
SELECT * FROM (VALUES (3), (1), (NULL), (2)) v(x) ORDER BY x DESC NULLS LAST
SELECT * FROM (VALUES (3), (1), (2)) v(x) ORDER BY x LIMIT 2 OFFSET 1
SELECT DISTINCT x FROM (VALUES (1), (1), (2)) v(x) ORDER BY x
SELECT x, count(*) FROM (VALUES ('a'), ('b'), ('a')) v(x) GROUP BY x ORDER BY x
SELECT sum(x), avg(x), min(x), max(x), count(x), count(*) FROM (VALUES (1), (2), (NULL), (4)) v(x)
SELECT sum(x), avg(x) FROM (VALUES (1.5), (2.25)) v(x)
SELECT avg(x) FROM (VALUES (1), (2)) v(x)
SELECT sum(x) FROM (VALUES (9223372036854775807), (1)) v(x)
SELECT bool_and(b), bool_or(b), every(b) FROM (VALUES (true), (false)) v(b)
SELECT string_agg(s, ',' ORDER BY s) FROM (VALUES ('b'), ('a'), ('c')) v(s)
SELECT count(DISTINCT x) FROM (VALUES (1), (1), (2), (NULL)) v(x)
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x > 1 AND x IN (2, 3) ORDER BY 1
SELECT x, y FROM (VALUES (1, 'a')) v(x, y) WHERE y LIKE 'a%'
-- misc and errors
SELECT
SELECT ;
SELECT 1 +
SELECT * FROM nowhere
SELECT nosuchcolumn
SELECT nosuchfunction(1)
SELECT 'a' + 1
SELECT 1 + 'a'
SELECT abs('x')
SELECT length(1)
SELECT -'abc'
SELECT SUBSTRING('hello' FROM 'l+')
SELECT ARRAY[1, 2, 3], ARRAY['a', NULL], ARRAY[]::int[], (ARRAY[1, 2, 3])[2], array_length(ARRAY[1, 2], 1)
SELECT ROW(1, 'a'), (1, 2) = (1, 2)
SELECT current_database(), current_schema(), current_user = session_user
SELECT version() LIKE 'PostgreSQL 15%'
SELECT current_setting('DateStyle'), current_setting('TimeZone')
SELECT set_config('application_name', 'via function', false)
SHOW application_name
SELECT pg_typeof(now()), pg_typeof(current_date), pg_typeof(current_timestamp), pg_typeof(localtimestamp)
SELECT now() = now(), current_date <= current_date + 1, now() - now()
SELECT length(gen_random_uuid()::text), pg_typeof(random())
SELECT random() >= 0 AND random() < 1
SELECT 'true'::bool::text, 1::bool::int
SELECT int4 '42', text 'x', date '2024-01-01', timestamp '2024-01-01 10:00', interval '2 hours', numeric '1.50'
SELECT 0x1F, 0o17, 0b101
SELECT 1_000_000
SELECT 1.5e3, 1e-2, .5, 5., 1E+2
SELECT 'Ω' = 'Ω', 'abc' = 'ABC', lower('ABC') = 'abc'
SELECT 'a' COLLATE "C" < 'B' COLLATE "C"
SELECT hashtext('x') IS NOT NULL
-- window functions
SELECT x, row_number() OVER (ORDER BY x), rank() OVER (ORDER BY x), dense_rank() OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3), (NULL)) v(x) ORDER BY x, 2
SELECT x, percent_rank() OVER (ORDER BY x), cume_dist() OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (3), (NULL)) v(x) ORDER BY x
SELECT g, x, row_number() OVER (PARTITION BY g ORDER BY x DESC) FROM (VALUES ('a', 1), ('b', 2), ('a', 3), (NULL, 4), ('b', 5)) v(g, x) ORDER BY g, x
SELECT x, sum(x) OVER (), count(*) OVER (), avg(x) OVER (), min(x) OVER (), max(x) OVER () FROM (VALUES (1), (2), (NULL), (4)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x), count(x) OVER (ORDER BY x), count(*) OVER (ORDER BY x) FROM (VALUES (1), (2), (2), (NULL), (4)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES (1), (2), (3), (4), (5), (6)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x ROWS 2 PRECEDING), sum(x) OVER (ORDER BY x ROWS BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES (1), (2), (3), (4), (5)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 2 FOLLOWING AND 3 FOLLOWING), sum(x) OVER (ORDER BY x ROWS BETWEEN 3 PRECEDING AND 2 PRECEDING) FROM (VALUES (1), (2), (3), (4), (5)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND 1 FOLLOWING) FROM (VALUES (1), (2), (2), (4), (5), (NULL)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x DESC RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1), (2), (2), (4), (5), (NULL)) v(x) ORDER BY x
SELECT x, count(*) OVER (ORDER BY x NULLS FIRST RANGE BETWEEN 2 PRECEDING AND 1 PRECEDING) FROM (VALUES (1), (2), (3), (5), (NULL), (NULL)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1.5 PRECEDING AND 0.5 FOLLOWING) FROM (VALUES (1.0), (2.0), (2.5), (4.0)) v(x) ORDER BY x
SELECT d, count(*) OVER (ORDER BY d RANGE BETWEEN '1 day' PRECEDING AND CURRENT ROW) FROM (VALUES (date '2024-01-01'), (date '2024-01-02'), (date '2024-01-04')) v(d) ORDER BY d
SELECT x, sum(x) OVER (ORDER BY x GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW), sum(x) OVER (ORDER BY x GROUPS BETWEEN CURRENT ROW AND 1 FOLLOWING) FROM (VALUES (1), (2), (2), (3), (4), (4)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE CURRENT ROW) FROM (VALUES (1), (2), (2), (3)) v(x) ORDER BY x
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE GROUP), sum(x) OVER (ORDER BY x ROWS BETWEEN UNBOUNDED PRECEDING AND UNBOUNDED FOLLOWING EXCLUDE TIES) FROM (VALUES (1), (2), (2), (3)) v(x) ORDER BY x
SELECT x, lag(x) OVER (ORDER BY x), lead(x) OVER (ORDER BY x), lag(x, 2) OVER (ORDER BY x), lead(x, 2, -1) OVER (ORDER BY x), lag(x, 1, 0.5) OVER (ORDER BY x) FROM (VALUES (1), (2), (3), (4)) v(x) ORDER BY x
SELECT x, lag(x, -1) OVER (ORDER BY x), lead(x, 0) OVER (ORDER BY x), lag(x, NULL) OVER (ORDER BY x), lag('a') OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 2) OVER w FROM (VALUES (1), (2), (3), (4)) v(x) WINDOW w AS (ORDER BY x) ORDER BY x
SELECT x, first_value(x) OVER w, last_value(x) OVER w, nth_value(x, 3) OVER w FROM (VALUES (1), (2), (3), (4)) v(x) WINDOW w AS (ORDER BY x ROWS BETWEEN 1 PRECEDING AND 1 FOLLOWING) ORDER BY x
SELECT x, ntile(3) OVER (ORDER BY x), ntile(1) OVER (ORDER BY x), ntile(10) OVER (ORDER BY x) FROM (VALUES (1), (2), (3), (4), (5), (6), (7)) v(x) ORDER BY x
SELECT x, ntile(0) OVER (ORDER BY x) FROM (VALUES (1)) v(x)
SELECT x, ntile(NULL) OVER (ORDER BY x) FROM (VALUES (1)) v(x)
SELECT x, nth_value(x, 0) OVER (ORDER BY x) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN NULL PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN -1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x) WHERE x > 1
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN 1 PRECEDING AND -1 FOLLOWING) FROM (VALUES (NULL::int)) v(x)
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN -1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x) WHERE x > 1
SELECT x, sum(x) OVER (RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x, x RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (GROUPS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN x PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (ORDER BY x ROWS BETWEEN 'a' PRECEDING AND CURRENT ROW) FROM (VALUES (1)) v(x)
SELECT s, count(*) OVER (ORDER BY s RANGE BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES ('a')) v(s)
SELECT x, row_number() OVER w, sum(x) OVER (w ORDER BY x) FROM (VALUES (1, 'a'), (2, 'a'), (3, 'b')) v(x, g) WINDOW w AS (PARTITION BY g) ORDER BY x
SELECT x, sum(x) OVER (w) FROM (VALUES (1)) v(x) WINDOW w AS (ORDER BY x ROWS CURRENT ROW)
SELECT x, sum(x) OVER (w ORDER BY x) FROM (VALUES (1)) v(x) WINDOW w AS (ORDER BY x)
SELECT x, sum(x) OVER (w PARTITION BY x) FROM (VALUES (1)) v(x) WINDOW w AS (ORDER BY x)
SELECT x, sum(x) OVER nope FROM (VALUES (1)) v(x)
SELECT x, sum(x) OVER (nope) FROM (VALUES (1)) v(x)
SELECT x FROM (VALUES (1)) v(x) WINDOW w AS (ORDER BY x), w AS (ORDER BY x)
SELECT x FROM (VALUES (1)) v(x) WINDOW w AS (ORDER BY y)
SELECT x FROM (VALUES (1)) v(x) WHERE row_number() OVER () > 1
SELECT x FROM (VALUES (1)) v(x) GROUP BY x HAVING sum(x) OVER () > 1
SELECT count(*) FROM (VALUES (1)) v(x) GROUP BY row_number() OVER ()
SELECT sum(row_number() OVER ()) FROM (VALUES (1)) v(x)
SELECT sum(x) OVER (ORDER BY row_number() OVER ()) FROM (VALUES (1)) v(x)
SELECT lag(row_number() OVER ()) OVER () FROM (VALUES (1)) v(x)
SELECT row_number() FROM (VALUES (1)) v(x)
SELECT upper('a') OVER ()
SELECT nosuch(1) OVER ()
SELECT row_number(1) OVER ()
SELECT sum(DISTINCT x) OVER () FROM (VALUES (1)) v(x)
SELECT sum(x ORDER BY x) OVER () FROM (VALUES (1)) v(x)
SELECT row_number() FILTER (WHERE true) OVER ()
SELECT x, sum(x) FILTER (WHERE x > 1) OVER (ORDER BY x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT g, count(*), sum(count(*)) OVER (), rank() OVER (ORDER BY count(*) DESC) FROM (VALUES ('a'), ('b'), ('a'), ('c'), ('a'), ('b')) v(g) GROUP BY g ORDER BY g
SELECT g, sum(x) OVER () FROM (VALUES ('a', 1), ('b', 2)) v(g, x) GROUP BY g
SELECT row_number() OVER (ORDER BY count(*)) FROM (VALUES (1), (2)) v(x)
SELECT x, row_number() OVER (ORDER BY x DESC) AS rn FROM (VALUES (3), (1), (2)) v(x) ORDER BY rn
SELECT x FROM (VALUES (3), (1), (2)) v(x) ORDER BY row_number() OVER (ORDER BY x DESC)
SELECT DISTINCT count(*) OVER () FROM (VALUES (1), (2), (3)) v(x)
SELECT x, row_number() OVER () FROM (VALUES (1)) v(x) WHERE x > 5
SELECT count(*) OVER (), sum(1) OVER ()
SELECT string_agg(s, ',') OVER (ORDER BY s), array_agg(s) OVER (ORDER BY s DESC) FROM (VALUES ('a'), ('b'), ('c')) v(s) ORDER BY 1
SELECT x, bool_and(x > 1) OVER (ORDER BY x), every(x > 0) OVER () FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, avg(x) OVER (ORDER BY x ROWS BETWEEN 1 PRECEDING AND CURRENT ROW) FROM (VALUES (1::float8), (2), (4)) v(x) ORDER BY x
SELECT x, (SELECT count(*) OVER () FROM (VALUES (1), (2)) w(y) LIMIT 1) FROM (VALUES (1)) v(x)
SELECT pg_typeof(row_number() OVER ()), pg_typeof(rank() OVER ()), pg_typeof(percent_rank() OVER ()), pg_typeof(ntile(2) OVER ()), pg_typeof(lag(1::int2) OVER ())
SELECT row_number() OVER () + 1, sum(x) OVER () * 2 FROM (VALUES (1), (2)) v(x)
SELECT x, y, sum(y) OVER (PARTITION BY x ORDER BY y ROWS BETWEEN UNBOUNDED PRECEDING AND CURRENT ROW), last_value(y) OVER (PARTITION BY x ORDER BY y RANGE BETWEEN CURRENT ROW AND UNBOUNDED FOLLOWING) FROM (VALUES (1, 1), (1, 2), (2, 3), (2, 3), (2, 5)) v(x, y) ORDER BY x, y
SELECT x, sum(x) OVER (ORDER BY x RANGE BETWEEN UNBOUNDED PRECEDING AND 1 FOLLOWING) FROM (VALUES (1), (2), (3), (7)) v(x) ORDER BY x
SELECT x, count(*) OVER (ORDER BY x RANGE BETWEEN 1 FOLLOWING AND 3 FOLLOWING) FROM (VALUES (1), (2), (3), (7)) v(x) ORDER BY x
SELECT t, count(*) OVER (ORDER BY t RANGE BETWEEN '1 hour' PRECEDING AND '1 hour' FOLLOWING) FROM (VALUES (timestamp '2024-01-01 10:00'), (timestamp '2024-01-01 10:30'), (timestamp '2024-01-01 12:00')) v(t) ORDER BY t
SELECT x, count(*) OVER (ORDER BY x RANGE BETWEEN 2147483647 PRECEDING AND 2147483647 FOLLOWING) FROM (VALUES (2147483647), (-2147483648)) v(x) ORDER BY x
-- correlated subqueries (planned as joins)
SELECT x, (SELECT count(*) FROM (VALUES (1), (1), (2)) w(y) WHERE y = x) AS n FROM (VALUES (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT sum(y) FROM (VALUES (1), (1), (2)) w(y) WHERE y = x) AS s FROM (VALUES (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT y * 10 FROM (VALUES (1), (2), (3)) w(y) WHERE y = x) FROM (VALUES (1), (2), (4), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (1), (2)) w(y) WHERE y = x) FROM (VALUES (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT x) FROM (VALUES (1), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT x + y FROM (VALUES (10)) w(y)) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3), (NULL)) v(x) WHERE EXISTS (SELECT 1 FROM (VALUES (1), (3)) w(y) WHERE y = x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3), (NULL)) v(x) WHERE NOT EXISTS (SELECT 1 FROM (VALUES (1), (3)) w(y) WHERE y = x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3), (NULL)) v(x) WHERE EXISTS (SELECT 1 FROM (VALUES (1), (3), (NULL)) w(y) WHERE y IS NOT DISTINCT FROM x) ORDER BY x
SELECT x FROM (VALUES (1), (2)) v(x) WHERE EXISTS (SELECT 1 FROM (VALUES (1)) w(y) WHERE false AND y = x)
SELECT x FROM (VALUES (1), (2)) v(x) WHERE NOT EXISTS (SELECT 1 FROM (VALUES (1)) w(y) WHERE false AND y = x) ORDER BY x
SELECT x, x IN (SELECT y FROM (VALUES (1), (NULL)) w(y) WHERE y IS NULL OR y = x) AS i FROM (VALUES (1), (2), (NULL)) v(x) ORDER BY x
SELECT x, x NOT IN (SELECT y FROM (VALUES (1), (NULL), (2)) w(y) WHERE y IS NULL OR y <> x) AS i FROM (VALUES (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x, x NOT IN (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y < x) FROM (VALUES (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x, x IN (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y <= x) FROM (VALUES (0), (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3), (NULL)) v(x) WHERE x NOT IN (SELECT y FROM (VALUES (2), (NULL)) w(y) WHERE y = x OR y IS NULL) ORDER BY x
SELECT x, x = ANY (SELECT y FROM (VALUES (1), (2), (NULL)) w(y) WHERE y >= x OR y IS NULL), x < ALL (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y <> x) FROM (VALUES (1), (2), (3), (NULL)) v(x) ORDER BY x
SELECT x, x > ALL (SELECT y FROM (VALUES (1), (NULL)) w(y) WHERE y IS NULL OR y < x), x > ALL (SELECT y FROM (VALUES (1)) w(y) WHERE y > x) FROM (VALUES (0), (1), (2), (NULL)) v(x) ORDER BY x
SELECT x, 1.5 = ANY (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, x::numeric IN (SELECT y FROM (VALUES (1.0), (2.5)) w(y) WHERE y > x - 1) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT g, (SELECT max(y) FROM (VALUES ('a', 5), ('a', 7), ('b', 1)) w(h, y) WHERE h = v.g) FROM (VALUES ('a'), ('b'), ('c')) v(g) ORDER BY g
SELECT g, count(*), (SELECT count(*) FROM (VALUES ('a'), ('a'), ('b')) w(h) WHERE h = v.g) FROM (VALUES ('a'), ('b'), ('a'), ('c')) v(g) GROUP BY g ORDER BY g
SELECT g FROM (VALUES ('a', 1), ('b', 2)) v(g, x) GROUP BY g HAVING (SELECT count(*) FROM (VALUES ('a'), ('a')) w(h) WHERE h = v.g) > 1
SELECT g, (SELECT x FROM (VALUES (1)) w(y)) FROM (VALUES ('a', 1), ('b', 2)) v(g, x) GROUP BY g
SELECT g, (SELECT sum(x) FROM (VALUES (1)) w(y)) FROM (VALUES ('a', 1), ('b', 2)) v(g, x) GROUP BY g ORDER BY g
SELECT x, (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y > x ORDER BY y LIMIT 1) FROM (VALUES (0), (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y > x ORDER BY y DESC LIMIT 1 OFFSET 1) FROM (VALUES (0), (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y > x LIMIT 2) s) FROM (VALUES (0), (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT count(DISTINCT y) FROM (VALUES (1), (1), (2)) w(y) WHERE y <= x) FROM (VALUES (0), (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT string_agg(y::text, ',' ORDER BY y DESC) FROM (VALUES (1), (2), (3)) w(y) WHERE y <= x) FROM (VALUES (0), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT avg(y) FROM (VALUES (1), (2), (3)) w(y) WHERE y <= x GROUP BY y > 1 ORDER BY 1 LIMIT 1) FROM (VALUES (0), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2), (3)) w(y) WHERE y <= x HAVING count(*) > 1) FROM (VALUES (0), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT DISTINCT y % 2 FROM (VALUES (1), (3)) w(y) WHERE y <= x) FROM (VALUES (1), (3)) v(x) ORDER BY x
SELECT x, (SELECT max(rn) FROM (SELECT row_number() OVER (ORDER BY y) AS rn FROM (VALUES (1), (2), (3)) w(y) WHERE y <= x) s) FROM (VALUES (0), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y = x UNION SELECT 10 + x) FROM (VALUES (5)) v(x)
SELECT x, (SELECT count(*) FROM (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y = x UNION ALL SELECT x) s) FROM (VALUES (1), (5)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) a(p), (VALUES (1), (2)) b(q) WHERE p = x AND q >= x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) a(p) JOIN (VALUES (1), (2)) b(q) ON p = q AND q >= x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT count(q) FROM (VALUES (1), (2)) a(p) LEFT JOIN (VALUES (1), (2)) b(q) ON p = q AND q > x) FROM (VALUES (0), (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT count(p) FROM (VALUES (1), (2)) a(p) RIGHT JOIN (VALUES (1), (2)) b(q) ON p = q AND p > x) FROM (VALUES (0), (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) a(p) LEFT JOIN (SELECT q FROM (VALUES (1), (2)) b(q) WHERE q > x) s ON p = s.q WHERE s.q IS NULL) FROM (VALUES (0), (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT (SELECT count(*) FROM (VALUES (1), (2), (3)) w(z) WHERE z <= x AND z >= y) FROM (VALUES (1), (2)) u(y) WHERE y = 1) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE EXISTS (SELECT 1 FROM (VALUES (1), (2)) u(y) WHERE y < x AND EXISTS (SELECT 1 FROM (VALUES (1)) w(z) WHERE z = y AND x > 2)) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x IN (SELECT y + 1 FROM (VALUES (1), (2)) u(y) WHERE y IN (SELECT z FROM (VALUES (1), (2)) w(z) WHERE z < x)) ORDER BY x
SELECT x, (SELECT count(*) FROM (SELECT x + y AS s FROM (VALUES (1), (2)) u(y)) t WHERE s > 2) FROM (VALUES (0), (1), (2)) v(x) ORDER BY x
SELECT a.x, b.y, (SELECT count(*) FROM (VALUES (1), (2), (3)) w(z) WHERE z BETWEEN a.x AND b.y) FROM (VALUES (1), (2)) a(x), (VALUES (2), (3)) b(y) ORDER BY 1, 2
SELECT x, (SELECT count(*) FROM (VALUES (1)) w(y) WHERE y = x) + (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y >= x) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3)) v(x) ORDER BY (SELECT -y FROM (VALUES (1), (2), (3)) w(y) WHERE y = x)
SELECT DISTINCT (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY 1
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x > 1 AND EXISTS (SELECT 1 FROM (VALUES (2), (3)) w(y) WHERE y = x) OR x = (SELECT min(y) FROM (VALUES (1)) w(y) WHERE y = x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1)) w(y) WHERE y = x) FROM (VALUES (1), (2)) v(x) WHERE false
SELECT x, (SELECT count(*) FROM (VALUES (1)) w(y) WHERE y = x AND false) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, EXISTS (SELECT 1 FROM (VALUES (1), (1)) w(y) WHERE y = x), (SELECT array_agg(y) FROM (VALUES (1), (1)) w(y) WHERE y = x) FROM (VALUES (1), (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (NULL::int)) w(y) WHERE x IS NULL) FROM (VALUES (1), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT v.x FROM (VALUES (1), (2)) w(y) WHERE y > 1) FROM (VALUES (1), (NULL)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y <> x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x, (SELECT x, 1 FROM (VALUES (1)) w(y)) FROM (VALUES (1)) v(x)
SELECT x FROM (VALUES (1)) v(x) WHERE x IN (SELECT y, x FROM (VALUES (1)) w(y))
SELECT x FROM (VALUES (1)) v(x) WHERE x = (SELECT nope FROM (VALUES (1)) w(y) WHERE y = x)
SELECT x FROM (VALUES (1)) v(x) WHERE x = (SELECT y FROM (VALUES (1)) w(y) WHERE y = v.nope)
SELECT g FROM (VALUES ('a', 1)) v(g, x) GROUP BY g HAVING (SELECT x) > 0
SELECT x, (SELECT sum(y) OVER () FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2)) v(x) UNION ALL SELECT 9, (SELECT 1) ORDER BY 1
SELECT x, (SELECT bool_and(y > x) FROM (VALUES (1), (2)) w(y)) FROM (VALUES (0), (1)) v(x) ORDER BY x
SELECT x, (SELECT s FROM (VALUES ('a', 1), ('b', 2)) w(s, y) WHERE y = x) || '!' FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT * FROM (VALUES (1), (2)) v(x) WHERE (SELECT count(*) FROM (VALUES (1), (2), (2)) w(y) WHERE y = x) = 2
SELECT x, (SELECT count(*) FROM (VALUES (1), (2), (3)) w(y) WHERE y > x) AS c, row_number() OVER (ORDER BY x DESC) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y > t.x) FROM (SELECT 1 AS x) t
SELECT x, (SELECT max(z) FROM (SELECT y AS z FROM (VALUES (1), (5)) w(y) WHERE y < x) s) FROM (VALUES (2), (6), (0)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1), (2), (2), (1)) v(x) ORDER BY x
SELECT (SELECT max(x)) FROM (VALUES (1), (5)) v(x)
SELECT x FROM (VALUES (1), (5)) v(x) WHERE x = (SELECT max(v.x))
SELECT g, (SELECT count(*) + sum(x) FROM (VALUES (1), (2)) w(y) WHERE y < max(x)) FROM (VALUES ('a', 1), ('a', 2), ('b', 3)) v(g, x) GROUP BY g ORDER BY g
SELECT (SELECT sum(x) + count(*) FROM (VALUES (1), (2)) w(y)) FROM (VALUES (1), (5)) v(x)
SELECT 1 FROM (VALUES (1)) v(x) WHERE (SELECT sum(y) FROM (VALUES (1)) w(y) WHERE sum(x) > 0) > 0
SELECT g, (SELECT count(*) FROM (VALUES (1)) w(y) WHERE y = x) FROM (VALUES ('a', 1)) v(g, x) GROUP BY g
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y = x) FROM (VALUES (1)) v(x) WHERE x IN (SELECT y FROM (VALUES (1)) w(y) WHERE y >= x)
SELECT x FROM (VALUES (1), (2), (NULL)) v(x) WHERE x NOT IN (SELECT y FROM (VALUES (1)) w(y) WHERE y IS NOT NULL AND x IS NOT NULL) ORDER BY x
SELECT x FROM (VALUES (1), (2)) v(x) WHERE x NOT IN (SELECT y FROM (VALUES (1), (NULL)) w(y) WHERE x > 0)
SELECT x FROM (VALUES (1), (2)) v(x) WHERE NOT (x = ANY (SELECT y FROM (VALUES (1), (NULL)) w(y) WHERE x > 1)) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2), (3)) w(y) WHERE y > x AND y IN (SELECT z FROM (VALUES (2), (3)) u(z) WHERE z <> x)) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT s FROM (SELECT x AS s) q) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (1), (2)) w(y) WHERE y > x GROUP BY y > 0) FROM (VALUES (0), (2)) v(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1)) w(y) WHERE y = x) FROM (VALUES (1), (1)) v(x)
SELECT (SELECT (SELECT (SELECT x + y + z FROM (VALUES (100)) c(z)) FROM (VALUES (10)) b(y))) FROM (VALUES (1), (2)) a(x) ORDER BY 1
SELECT x, CASE WHEN x = 0 THEN 0 ELSE (SELECT 10 / x) END, (SELECT x + 1), (SELECT (SELECT x * 2)) FROM (VALUES (0), (2), (NULL)) v(x) ORDER BY x
-- ARRAY(subquery): uncorrelated (run once) and correlated (planned as joins), in the subquery's order
SELECT ARRAY(SELECT x FROM (VALUES (3), (1), (2)) v(x) ORDER BY x DESC) AS a, ARRAY(SELECT 1 WHERE false) AS e, ARRAY(SELECT 'a') AS t
SELECT ARRAY(SELECT ARRAY[x, x + 1] FROM (VALUES (1), (2)) v(x)), ARRAY(SELECT NULL::int), ARRAY(SELECT 'x'::varchar(3))
SELECT ARRAY(SELECT NULL::int[])
SELECT ARRAY(SELECT '{}'::int[])
SELECT ARRAY(SELECT ARRAY[1]) || ARRAY(SELECT ARRAY[1, 2])
SELECT ARRAY(SELECT x FROM (VALUES (ARRAY[1]), (ARRAY[1, 2])) v(x))
SELECT ARRAY(SELECT 1, 2)
SELECT ARRAY(SELECT x FROM (VALUES (1), (2)) v(x) ORDER BY x DESC LIMIT 1 OFFSET 1), ARRAY(SELECT DISTINCT x FROM (VALUES (2), (1), (2)) v(x) ORDER BY x)
SELECT array_to_string(ARRAY(SELECT s || '!' FROM (VALUES ('b'), ('a')) v(s) ORDER BY s), ', ')
SELECT x, ARRAY(SELECT y * x FROM (VALUES (3), (1), (2)) w(y) WHERE y >= x ORDER BY y DESC) FROM (VALUES (1), (2), (4), (NULL)) v(x) ORDER BY x
SELECT x, ARRAY(SELECT y FROM (VALUES (3), (1), (2)) w(y) WHERE y <> x ORDER BY y * -1 LIMIT 1) FROM (VALUES (1), (3)) v(x) ORDER BY x
SELECT x, ARRAY(SELECT DISTINCT y FROM (VALUES (3), (1), (2), (3)) w(y) WHERE y >= x ORDER BY 1 DESC) FROM (VALUES (1), (3)) v(x) ORDER BY x
SELECT x, ARRAY(SELECT y FROM (VALUES ('b', 1), ('a', 1), ('c', 2)) w(y, k) WHERE k = x ORDER BY y NULLS FIRST), ARRAY(SELECT count(*) FROM (VALUES (1)) w(y) WHERE y = x) FROM (VALUES (1), (2), (3)) v(x) ORDER BY x
SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x = ANY (ARRAY(SELECT y FROM (VALUES (1), (3)) w(y) WHERE y >= x)) ORDER BY x
SELECT x, ARRAY(SELECT ARRAY[y, x] FROM (VALUES (1), (2)) w(y) WHERE y <= x ORDER BY y) FROM (VALUES (1), (2)) v(x) ORDER BY x
SELECT x, ARRAY(SELECT CASE WHEN y > x THEN NULL ELSE ARRAY[y] END FROM (VALUES (1), (2)) w(y)) FROM (VALUES (2), (1)) v(x) ORDER BY x DESC
SELECT g, ARRAY(SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y <= count(*) ORDER BY y) FROM (VALUES ('a'), ('a'), ('b')) v(g) GROUP BY g ORDER BY g
SELECT x, array_to_string(ARRAY(SELECT quote_ident(k) || '=' || quote_literal(v) FROM unnest(o) WITH ORDINALITY AS u(kv, n), LATERAL (SELECT split_part(kv, '=', 1) AS k, split_part(kv, '=', 2) AS v) p ORDER BY n), ', ') FROM (VALUES (1, ARRAY['a=1', 'B c=x''y']), (2, NULL)) t(x, o) ORDER BY x
-- regnamespace, "char"[] and pg_options_to_table (psql's describe queries read them)
SELECT 'pg_catalog'::regnamespace, 'pg_catalog'::regnamespace::oid, 11::regnamespace, 'PG_CATALOG'::regnamespace, '"public"'::regnamespace, 11::regnamespace::text, pg_typeof(11::regnamespace), 0::regnamespace, 4000000000::regnamespace
SELECT 'nope'::regnamespace
SELECT 'a.b'::regnamespace
SELECT '"Public"'::regnamespace
SELECT 11::regnamespace = 'pg_catalog'::regnamespace, 11::oid::regnamespace::oid, 11::int4::regnamespace, 'pg_catalog'::regnamespace::int4
SELECT '{a,b,""}'::"char"[], 'd' = ANY ('{d,f}'::"char"[]), pg_typeof('{d}'::"char"[]), ('{x,y}'::"char"[])[2], array_length('{x,y}'::"char"[], 1), ARRAY['a'::"char"], ARRAY(SELECT 'q'::"char")
SELECT * FROM pg_options_to_table(ARRAY['a=1', 'b', 'c=x=y', '=z'])
SELECT * FROM pg_options_to_table(ARRAY['a=1', NULL])
SELECT pg_options_to_table(NULL), pg_options_to_table('{}'::text[])
SELECT x, array_to_string(ARRAY(SELECT quote_ident(option_name) || ' ' || quote_literal(option_value) FROM pg_options_to_table(o)), ', ') FROM (VALUES (1, ARRAY['path=/tmp/a b', 'Format=csv']), (2, NULL)) v(x, o) ORDER BY x
-- WITH (common table expressions)
WITH t AS (SELECT 1 AS a, 'x' AS b) SELECT * FROM t
WITH t (x, y) AS (VALUES (1, 'a'), (2, 'b')) SELECT y, x FROM t ORDER BY x DESC
WITH t (x) AS (SELECT 1, 2) SELECT * FROM t
WITH t (x, y, z) AS (SELECT 1, 2) SELECT * FROM t
WITH t AS (SELECT 1 AS a), u AS (SELECT a + 1 AS b FROM t) SELECT * FROM t, u
WITH t AS (VALUES (1), (2), (3)) SELECT a.column1, b.column1 FROM t a JOIN t b ON a.column1 < b.column1 ORDER BY 1, 2
WITH t AS (VALUES (1), (2)) SELECT * FROM t, t
WITH t AS (SELECT 1), t AS (SELECT 2) SELECT * FROM t
WITH t AS (SELECT * FROM u), u AS (SELECT 1) SELECT * FROM t
WITH t AS (SELECT * FROM t) SELECT 1
WITH t AS (SELECT 1 AS a) SELECT * FROM t AS x (y)
WITH t AS (SELECT 1 AS a) SELECT * FROM t AS x (y, z)
WITH t AS (SELECT 1 AS a) SELECT nosuch FROM t
WITH t AS (SELECT 1 AS a) SELECT * FROM nosuch
WITH t AS (SELECT 1 / 0) SELECT 1
WITH t AS (SELECT 'a' AS s) SELECT s, pg_typeof(s) FROM t
WITH t AS MATERIALIZED (SELECT 1 AS one) SELECT one FROM t
WITH t AS NOT MATERIALIZED (SELECT 2 AS two) SELECT two * 2 FROM t
WITH t AS (SELECT 1 AS a) SELECT a FROM t UNION ALL SELECT a + 1 FROM t ORDER BY 1
WITH t AS (SELECT 1 AS a) SELECT (SELECT a FROM t), EXISTS (SELECT FROM t WHERE a = 2), 1 IN (SELECT a FROM t)
SELECT * FROM (WITH t AS (SELECT 5 AS v) SELECT v * 2 FROM t) s
WITH t AS (SELECT 1 AS v) SELECT * FROM (WITH t AS (SELECT 2 AS v) SELECT * FROM t) s, t
WITH t AS (SELECT 1 AS v) SELECT (WITH u AS (SELECT v + 1 AS w FROM t) SELECT w FROM u)
WITH a AS (SELECT 1 AS x), b AS (SELECT x + 1 AS x FROM a), c AS (SELECT x + 1 AS x FROM b) SELECT * FROM a UNION ALL SELECT * FROM b UNION ALL SELECT * FROM c
WITH t AS (SELECT g FROM (VALUES (3), (1), (2)) v (g) ORDER BY g LIMIT 2) SELECT * FROM t
WITH t AS (SELECT x, count(*) AS n FROM (VALUES (1), (1), (2)) v (x) GROUP BY x) SELECT x, n FROM t ORDER BY x
(WITH t AS (SELECT 1 AS a) SELECT a FROM t) UNION (WITH t AS (SELECT 2 AS a) SELECT a FROM t) ORDER BY 1
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 5) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 100) SELECT count(*), sum(n), max(n) FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t) SELECT n FROM t LIMIT 10
WITH RECURSIVE t (n) AS (VALUES (1) UNION SELECT n % 3 + 1 FROM t) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION SELECT 1 FROM t) SELECT * FROM t
WITH RECURSIVE t AS (SELECT 1 AS n UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT n, pg_typeof(n) FROM t
WITH RECURSIVE fib (a, b) AS (SELECT 0::int8, 1::int8 UNION ALL SELECT b, a + b FROM fib WHERE b < 100) SELECT a FROM fib
WITH RECURSIVE t (x) AS (SELECT 'a' UNION ALL SELECT x || 'b' FROM t WHERE length(x) < 4) SELECT x, pg_typeof(x) FROM t
WITH RECURSIVE t (n, path) AS (SELECT 1, ARRAY[1] UNION ALL SELECT n + 1, path || (n + 1) FROM t WHERE n < 4) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3) SELECT * FROM t a JOIN t b ON a.n = b.n
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM (SELECT * FROM t) s WHERE n < 3) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT t.n + 1 FROM t LEFT JOIN (VALUES (1)) v (x) ON true WHERE n < 3) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT n + 1 FROM t WHERE n < 6 EXCEPT SELECT 4)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3 GROUP BY n) SELECT * FROM t
WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT 1 AS x) SELECT * FROM a
WITH RECURSIVE t AS (SELECT 1 AS x) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT n FROM t) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 INTERSECT SELECT n + 1 FROM t) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n FROM t UNION ALL SELECT n FROM t) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT n FROM t UNION ALL SELECT 1) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT (SELECT n FROM t)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t, t AS t2) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT 1 FROM (VALUES (1)) v LEFT JOIN t ON true) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT 1 FROM t RIGHT JOIN (VALUES (1)) v ON true) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT 5 EXCEPT SELECT n FROM t)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT 5 INTERSECT SELECT n FROM t)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t ORDER BY 1) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t LIMIT 3) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t OFFSET 3) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT count(*) FROM t) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1::int8 FROM t WHERE n < 3) SELECT * FROM t
WITH RECURSIVE t (x) AS (SELECT 'a'::varchar(3) UNION ALL SELECT x || 'b' FROM t WHERE length(x) < 3) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT 1, 2 FROM t) SELECT * FROM t
WITH RECURSIVE t (a, b) AS (SELECT 1 UNION ALL SELECT a + 1 FROM t) SELECT * FROM t
WITH RECURSIVE a AS (SELECT * FROM b), b AS (SELECT * FROM a) SELECT * FROM a
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM t WHERE n < 3), u (m) AS (SELECT n * 10 FROM t) SELECT * FROM u
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT 5 INTERSECT ALL SELECT n FROM t)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT n FROM t EXCEPT ALL SELECT 5)) SELECT * FROM t
WITH RECURSIVE t (n) AS (SELECT 1 UNION ALL (SELECT n + 1 FROM t WHERE n < 3 INTERSECT SELECT 2)) SELECT * FROM t
SELECT x, (WITH t AS (SELECT 1 AS y UNION ALL SELECT 2) SELECT count(*) FROM t WHERE y <= x) FROM (VALUES (0), (1), (2)) v (x) ORDER BY x
WITH t AS (SELECT 2 AS y) SELECT x FROM (VALUES (1), (2)) v (x) WHERE EXISTS (SELECT 1 FROM t WHERE y = x)
-- far out of the timestamp range: an error, not an overflow (make check runs these under UBSan)
SELECT timestamptz '2024-03-18 22:53:55+00' + interval '1701737567 days', timestamp '2024-01-01' - interval '-2000000000 days'
SELECT '966647-10-08'::date::timestamptz
SELECT count(*) FROM (VALUES (1), (2)) a(x) GROUP BY (SELECT y FROM (VALUES (1)) b(y) WHERE y = x)
SELECT sum((SELECT y FROM (VALUES (1)) b(y) WHERE y = x)) FROM (VALUES (1), (2)) a(x)
SELECT x, row_number() OVER (ORDER BY (SELECT -y FROM (VALUES (1), (2)) b(y) WHERE y = x)) FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT x, sum((SELECT y FROM (VALUES (1), (2)) b(y) WHERE y = x)) OVER () FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT DISTINCT ON ((SELECT y FROM (VALUES (1), (2)) b(y) WHERE y = x)) x FROM (VALUES (1), (2), (1)) a(x)
SELECT x FROM (VALUES (1), (2)) a(x) LIMIT (SELECT 1)
SELECT (VALUES ((SELECT 1))), x FROM (VALUES (1)) a(x)
SELECT x, (VALUES (x), (x + 1) LIMIT 1) FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (VALUES (x), (x + 1)) b(y) WHERE y > 1) FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (2)) b(y) WHERE y = x INTERSECT SELECT x) FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (SELECT y FROM (VALUES (1), (2)) b(y) EXCEPT SELECT x) s) FROM (VALUES (1), (2), (3)) a(x) ORDER BY x
SELECT x, (SELECT count(*) FROM (SELECT DISTINCT ON (y % 2) y FROM (VALUES (1), (2), (3)) b(y) WHERE y >= x ORDER BY y % 2, y DESC) s) FROM (VALUES (1), (2), (3)) a(x) ORDER BY x
SELECT x, (SELECT max(y) FROM (SELECT y FROM (VALUES (1), (2), (3)) b(y) ORDER BY y LIMIT x) s) FROM (VALUES (1), (2)) a(x) ORDER BY x
SELECT x, EXISTS (SELECT 1 FROM (VALUES (1), (2)) b(y) FULL JOIN (VALUES (2)) c(z) ON y = z WHERE y = x) FROM (VALUES (1), (3)) a(x) ORDER BY x
SELECT x FROM (VALUES (1), (2)) a(x) WHERE x = (SELECT y FROM (VALUES (1), (2)) b(y) WHERE y = x) ORDER BY x
SELECT x, (SELECT y FROM (VALUES (1), (2)) b(y) WHERE y = x) FROM (VALUES (1), (2)) a(x) UNION SELECT 3, (SELECT 3) ORDER BY 1
SELECT (SELECT count(*) FROM (VALUES (1), (2)) b(y) WHERE y > x) FROM (VALUES (0)) a(x) WHERE (SELECT count(*) FROM (VALUES (1), (2)) b(y) WHERE y > x) > 1
SELECT x, (SELECT count(*) FROM (VALUES (1, 1), (1, 2)) b(y, z) GROUP BY y HAVING count(*) > x) FROM (VALUES (0), (1), (2)) a(x) ORDER BY x
SELECT x, (SELECT sum(y) FILTER (WHERE y > x) FROM (VALUES (1), (2)) b(y)) FROM (VALUES (0), (1)) a(x) ORDER BY x
SELECT x, (SELECT array_agg(y ORDER BY y * x DESC) FROM (VALUES (1), (2)) b(y)) FROM (VALUES (-1), (1)) a(x) ORDER BY x
SELECT x, y FROM (VALUES (1), (2)) v(x), LATERAL (SELECT x * 10 AS y) s ORDER BY x
SELECT x, y FROM (VALUES (1), (2), (3)) v(x), LATERAL (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y < x) s ORDER BY x, y
SELECT x, n FROM (VALUES (1), (2), (NULL)) v(x) CROSS JOIN LATERAL (SELECT count(*) AS n FROM (VALUES (1), (2)) w(y) WHERE y <= x) s ORDER BY x
SELECT x, y FROM (VALUES (1), (2), (3)) v(x) LEFT JOIN LATERAL (SELECT y FROM (VALUES (1), (2)) w(y) WHERE y > x) s ON true ORDER BY x, y
SELECT x, y FROM (VALUES (1), (2), (3)) v(x) JOIN LATERAL (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y >= x) s ON y < 3 ORDER BY x, y
SELECT x, y FROM (VALUES (1), (2), (3)) v(x) LEFT JOIN LATERAL (SELECT y FROM (VALUES (1), (2), (3)) w(y) WHERE y >= x ORDER BY y DESC LIMIT 1) s ON y <> 3 ORDER BY x
SELECT a.x, b.z, s.t FROM (VALUES (1), (2)) a(x), (VALUES (10), (20)) b(z), LATERAL (SELECT a.x + b.z AS t) s ORDER BY 1, 2
SELECT x, y FROM (VALUES (1)) v(x) RIGHT JOIN LATERAL (SELECT x AS y) s ON true
SELECT * FROM LATERAL (SELECT 1 AS one) s
SELECT x, s.* FROM (VALUES (1), (2)) v(x), LATERAL (SELECT x AS a, x * 2 AS b UNION ALL SELECT -x, 0) s ORDER BY 1, 2
SELECT * FROM (VALUES (1), (2)) a(x) JOIN (VALUES (1), (2)) b(y) ON y = (SELECT max(z) FROM (VALUES (1)) c(z) WHERE z = x)
SELECT * FROM (VALUES (0)) p(w), (VALUES (1), (2)) a(x) JOIN (VALUES (1), (2)) b(y) ON EXISTS (SELECT 1 FROM (VALUES (1), (2)) c(z) WHERE z = x AND z = y) ORDER BY 2
SELECT * FROM (VALUES (1), (2)) a(x) JOIN (VALUES (1), (2)) b(y) ON x IN (SELECT z FROM (VALUES (1), (2)) c(z) WHERE z <= y) ORDER BY 1, 2
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON y = (SELECT max(z) FROM (VALUES (1)) c(z) WHERE z = x) ORDER BY 1
SELECT * FROM (VALUES (1), (2), (NULL)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON y = (SELECT min(z) FROM (VALUES (1), (2)) c(z) WHERE z >= x) AND EXISTS (SELECT 1 FROM (VALUES (2)) d(w) WHERE w = y) ORDER BY 1, 2
SELECT * FROM (VALUES (1), (2)) a(x) RIGHT JOIN (VALUES (1), (2), (3)) b(y) ON x = (SELECT max(z) FROM (VALUES (1), (2)) c(z) WHERE z < y) ORDER BY 2
SELECT * FROM (VALUES (0)) p(w), (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON y = (SELECT x + 0) ORDER BY 2
-- functions in FROM
SELECT * FROM generate_series(1, 3)
SELECT * FROM generate_series(1, 10, 3) AS g (x)
SELECT g FROM generate_series(1, 3) g
SELECT g.* FROM generate_series(3, 1, -1) AS g
SELECT * FROM generate_series(5, 1)
SELECT * FROM generate_series(1, 3, 0)
SELECT * FROM generate_series(2147483645, 2147483647)
SELECT * FROM generate_series(-2147483646, -2147483648, -1)
SELECT * FROM generate_series(9223372036854775806, 9223372036854775807)
SELECT * FROM generate_series(1::int8, 3::int8, 2::int8)
SELECT * FROM generate_series(1.5, 3)
SELECT * FROM generate_series(0.1, 0.5, 0.15)
SELECT * FROM generate_series(1::numeric, 'NaN'::numeric)
SELECT * FROM generate_series('Infinity'::numeric, 3)
SELECT * FROM generate_series(1::numeric, 3, 0)
SELECT * FROM generate_series(1::numeric, 2, 'Infinity')
SELECT * FROM generate_series('2024-01-30'::timestamp, '2024-04-01', '1 month')
SELECT * FROM generate_series('2024-01-01 00:00'::timestamp, '2024-01-01 02:00', '45 minutes')
SELECT * FROM generate_series('2024-03-01'::timestamptz, '2024-03-03', '1 day')
SELECT * FROM generate_series('2024-01-03'::timestamp, '2024-01-01', '-1 day')
SELECT * FROM generate_series('2024-01-01'::timestamp, '2024-01-02', '0 days')
SELECT * FROM generate_series(1, NULL)
SELECT * FROM generate_series(1, 3) WITH ORDINALITY
SELECT * FROM generate_series(10, 12) WITH ORDINALITY AS t (v, n)
SELECT * FROM generate_series(1, 2) AS g (a, b)
SELECT * FROM generate_series(1, 100000) LIMIT 3
SELECT count(*), sum(g) FROM generate_series(1, 10000) g
SELECT * FROM unnest(ARRAY[1, 2, 3])
SELECT * FROM unnest(ARRAY['a', NULL, 'c']) AS u (v)
SELECT * FROM unnest(ARRAY[[1, 2], [3, 4]]) u
SELECT * FROM unnest('{}'::int[])
SELECT * FROM unnest(NULL::text[])
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a', 'b', 'c'])
SELECT * FROM unnest(ARRAY[1, 2], ARRAY['a']) WITH ORDINALITY AS u (x, y, n)
SELECT * FROM unnest('{1,2}')
SELECT * FROM generate_subscripts(ARRAY['a', 'b', 'c'], 1)
SELECT * FROM generate_subscripts('[0:2]={x,y,z}'::text[], 1, true)
SELECT * FROM generate_subscripts(ARRAY[[1, 2], [3, 4], [5, 6]], 2)
SELECT * FROM generate_subscripts(ARRAY[1], 3)
SELECT * FROM jsonb_array_elements('[1, "a", null, {"b": [2]}]')
SELECT * FROM jsonb_array_elements_text('[1, "a", null, {"b": [2]}]')
SELECT * FROM jsonb_array_elements('{"a": 1}')
SELECT * FROM jsonb_array_elements('3')
SELECT * FROM jsonb_each('{"b": 2, "a": [1, "x"], "c": null}')
SELECT * FROM jsonb_each_text('{"b": 2, "a": "x", "c": null}')
SELECT key FROM jsonb_each('{"b": 2, "a": 1}') AS j
SELECT * FROM jsonb_each('[1]')
SELECT * FROM jsonb_object_keys('{"b": 1, "a": 2}')
SELECT * FROM jsonb_object_keys('[1]')
SELECT * FROM jsonb_object_keys('"s"')
SELECT * FROM json_array_elements('[1, "a",  {"k": 2}]')
SELECT * FROM json_array_elements_text('[1, "a", null]')
SELECT * FROM json_each('{"b": 2, "a": 1, "b": 3}')
SELECT * FROM json_each_text('{"x": "y"}')
SELECT * FROM json_object_keys('{"b": 1, "a": 2}')
SELECT * FROM json_array_elements('{}')
SELECT * FROM json_each('[]')
SELECT * FROM json_object_keys('1')
SELECT * FROM string_to_table('a,b,,c', ',')
SELECT * FROM string_to_table('a,b,,c', ',', '')
SELECT * FROM string_to_table('abc', NULL)
SELECT * FROM string_to_table('abc', '')
SELECT * FROM string_to_table('', ',')
SELECT * FROM abs(-3) a, upper('x'), current_date IS NOT NULL AS d
SELECT * FROM abs(generate_series(1, 2))
SELECT * FROM generate_series(1, sum(1))
SELECT * FROM nosuch_function(1)
SELECT * FROM (VALUES (2), (3)) v (n), generate_series(1, n) g ORDER BY 1, 2
SELECT * FROM (VALUES (2), (3)) v (n) CROSS JOIN LATERAL generate_series(1, v.n) g ORDER BY 1, 2
SELECT * FROM (VALUES (2), (3)) v (n) JOIN generate_series(1, n) g ON g > 1 ORDER BY 1, 2
SELECT * FROM (VALUES (2), (3)) v (n) JOIN generate_series(1, 3) g ON g = n ORDER BY 1
SELECT * FROM (VALUES (ARRAY[1, 2]), (ARRAY[3])) v (a), unnest(a) WITH ORDINALITY AS u (x, i) ORDER BY 2
SELECT n, count(*) FROM (VALUES (1), (3)) v (n), generate_series(1, n) GROUP BY n ORDER BY n
SELECT (SELECT count(*) FROM generate_series(1, x)) FROM (VALUES (2), (4)) v (x) ORDER BY 1
SELECT * FROM generate_series(1, 2) a, generate_series(1, 2) b ORDER BY 1, 2
WITH t AS (SELECT * FROM generate_series(1, 5) g) SELECT sum(g) FROM t
-- set-returning functions in the select list
SELECT generate_series(1, 3)
SELECT generate_series(1, 3) AS g ORDER BY g DESC
SELECT generate_series(1, 3), unnest(ARRAY['a', 'b'])
SELECT generate_series(1, 2) + generate_series(1, 3)
SELECT generate_series(1, generate_series(1, 3))
SELECT x, generate_series(1, x) FROM (VALUES (1), (2), (0)) v (x) ORDER BY 1, 2
SELECT generate_series(1, count(*)::int) FROM (VALUES (1), (2)) v (x)
SELECT unnest(ARRAY[1, 2]), unnest(ARRAY[3, 4, 5]), 10
SELECT DISTINCT unnest(ARRAY[1, 1, 2]) ORDER BY 1
SELECT jsonb_array_elements('[1, 2]'), jsonb_object_keys('{"a": 1}')
SELECT jsonb_each('{"a": 1, "b": "x"}')
SELECT generate_series(1, NULL)
SELECT generate_series(1, 3) WHERE false
SELECT count(*) FROM (SELECT generate_series(1, 100)) s
SELECT 1 WHERE generate_series(1, 2) > 1
SELECT CASE WHEN true THEN generate_series(1, 2) END
SELECT coalesce(generate_series(1, 2), 0)
SELECT sum(generate_series(1, 2))
SELECT 1 LIMIT generate_series(1, 2)
VALUES (generate_series(1, 2))
SELECT * FROM (VALUES (1)) v (a) JOIN (VALUES (2)) w (b) ON a < generate_series(1, 2)
SELECT 1 HAVING generate_series(1, 2) > 0
SELECT unnest(ARRAY[1, 2], ARRAY[3, 4])
SELECT unnest('{1,2}')
-- regexp_matches and regexp_split_to_table
SELECT * FROM regexp_matches('foobarbequebaz', '(bar)(beque)')
SELECT * FROM regexp_matches('foobarbequebazilbarfbonk', '(b[^b]+)(b[^b]+)', 'g')
SELECT * FROM regexp_matches('abc', 'x')
SELECT * FROM regexp_matches('abcabc', 'b', 'g')
SELECT * FROM regexp_matches('abc', '')
SELECT * FROM regexp_matches('abc', '', 'g')
SELECT * FROM regexp_matches('aXbX', 'x', 'gi')
SELECT * FROM regexp_matches('ab', '(a)|(b)', 'g')
SELECT regexp_matches('a1b22c333', '[0-9]+', 'g')
SELECT * FROM regexp_matches('abc', 'b', 'z')
SELECT * FROM regexp_split_to_table('hello world  foo', '\s+')
SELECT * FROM regexp_split_to_table('abc', '')
SELECT * FROM regexp_split_to_table('a,b,,c', ',')
SELECT * FROM regexp_split_to_table(',a,', ',')
SELECT * FROM regexp_split_to_table('aXbxc', 'x', 'i')
SELECT * FROM regexp_split_to_table('abc', 'b', 'g')
SELECT * FROM regexp_split_to_table('', ',')
SELECT * FROM regexp_split_to_table('abc', 'x*')
SELECT * FROM regexp_matches('aa bb cdcd', '(\w+)\1', 'g')
SELECT * FROM regexp_matches('xaaaay', '(a*)\1')
SELECT * FROM regexp_matches('abab cdcd', '((.)(.))\1', 'g')
SELECT * FROM regexp_split_to_table('1aa2bb3cc4', '(.)\1')
SELECT regexp_split_to_table('a b', ' '), 1
SELECT * FROM (VALUES (ARRAY[1, 2]), ('{}'::int[]), (NULL)) v (a) LEFT JOIN LATERAL unnest(a) u ON true
SELECT * FROM (VALUES (2), (3)) v (n) LEFT JOIN generate_series(1, n) g ON g > 2 ORDER BY 1, 2
SELECT * FROM (VALUES (2), (3)) v (n) LEFT JOIN generate_series(1, n) WITH ORDINALITY g (x, i) ON x = i AND x > 1 ORDER BY 1, 2
SELECT * FROM (VALUES (1)) v (n) LEFT JOIN generate_series(1, 3) g ON g = n ORDER BY 2
-- field selection from records: information_schema._pg_expandarray, which drivers' catalog queries use
SELECT information_schema._pg_expandarray(ARRAY[5, 6]) AS k
SELECT (information_schema._pg_expandarray(ARRAY['a', 'b'])).n, (information_schema._pg_expandarray(ARRAY['a', 'b'])).x
SELECT * FROM information_schema._pg_expandarray(ARRAY[10, 20, 30])
SELECT * FROM information_schema._pg_expandarray('[0:2]={1,2,3}'::int[]) e (v, i)
SELECT information_schema._pg_expandarray('{{1,2},{3,4}}'::int[])
SELECT information_schema._pg_expandarray(NULL::int[]), information_schema._pg_expandarray('{}'::text[])
SELECT (k).x, (k).n, k FROM (SELECT information_schema._pg_expandarray(ARRAY['p', NULL, 'q']) AS k) s
WITH w AS (SELECT information_schema._pg_expandarray(ARRAY[7, 8]) AS k) SELECT (k).n, ((k)).x FROM w ORDER BY 1 DESC
SELECT r.a, (r.k).x FROM (SELECT 1 AS a, information_schema._pg_expandarray(ARRAY[3, 1]) AS k) r WHERE r.a = (r.k).x
SELECT (information_schema._pg_expandarray(ARRAY[1])).zz
SELECT (k).zz FROM (SELECT information_schema._pg_expandarray(ARRAY[1]) AS k) s
SELECT (1).x
SELECT ('abc'::text).x
SELECT _pg_expandarray(ARRAY[1])
SELECT (json_each('{"a": 1}')).key, (jsonb_each('{"b": 2}')).value
-- regproc: the I/O functions pg_type names, by name and by OID
SELECT 'array_in'::regproc, 'pg_catalog.int4in'::regproc::oid, ' "textout" '::regproc::oid, 750::regproc, 0::regproc, '-'::regproc::oid
SELECT 'nosuchfunction'::regproc
SELECT 'public.array_in'::regproc
SELECT 'a.b.c'::regproc
SELECT 'a.b.c.d'::regproc
SELECT '"unterminated'::regproc
SELECT ''::regproc
SELECT 'array in'::regproc
SELECT '-5'::regproc
