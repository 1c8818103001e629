-- fuzz_regress.sql: differences the grammar fuzzer (tests/fuzz/grammar.py) found, each reduced to a line, on eddy and PostgreSQL 15.
-- A correlated subquery sees each outer value as it prints, not another equal one: 0 and 0.0, 1000 and 1000.00 (numeric), -0 and 0 (float), '1 day' and '24 hours' (interval), arrays of them.
SELECT x, (SELECT x ORDER BY 1) FROM (VALUES (0::numeric), ((SELECT 0.0))) t(x) ORDER BY x::text
SELECT k, c, (SELECT DISTINCT t.c ORDER BY 1) FROM (VALUES (1, 2::numeric), (2, round(1e3, 2)), (3, (SELECT 1e3))) t(k, c) ORDER BY k
SELECT x, (SELECT x) FROM (VALUES ('-0'::float8), (0::float8)) t(x) WHERE EXISTS (SELECT 1 WHERE x = 0) ORDER BY x::text
SELECT x, (SELECT x + '0 s') FROM (VALUES ('1 day'::interval), ('24 hours')) t(x) WHERE x IN (SELECT x) ORDER BY x::text
SELECT x, (SELECT array_length(x, 1)), (SELECT x) FROM (VALUES (array[1.0]), (array[1.00])) t(x) ORDER BY x::text
SELECT j, (SELECT j) FROM (VALUES ('1.0'::jsonb), ('1.00'::jsonb)) t(j) ORDER BY j::text
SELECT r, (SELECT r) FROM (VALUES (row(1.0)), (row(1.00))) t(r) ORDER BY r::text
SELECT t.x, s.y FROM (VALUES (1.0), (1.00)) t(x), LATERAL (SELECT t.x AS y) s ORDER BY 1::text, 2::text
-- An aggregate belongs to the closest level whose columns it reads, those read by subqueries in its arguments included.
SELECT (SELECT max(t.a) FROM (VALUES (1)) u(x)) FROM (VALUES (1), (2)) t(a)
SELECT (SELECT max((SELECT t.a + u.x)) FROM (VALUES (1)) u(x)) FROM (VALUES (1), (2)) t(a) ORDER BY 1
SELECT (SELECT max(t.a + (SELECT u.x)) FROM (VALUES (1), (5)) u(x)) FROM (VALUES (1), (2)) t(a) ORDER BY 1
SELECT (SELECT (SELECT count(u.x ORDER BY t.a)) FROM (VALUES (1), (2)) u(x)) FROM (VALUES (1), (2)) t(a)
SELECT (SELECT (SELECT max(t.a + u.x)) FROM (VALUES (1), (2)) u(x)) FROM (VALUES (1), (2)) t(a) ORDER BY 1
SELECT (SELECT (SELECT max(t.a + u.x) FILTER (WHERE t.a > 1)) FROM (VALUES (1), (2)) u(x)) FROM (VALUES (1), (2)) t(a) ORDER BY 1
SELECT (SELECT (SELECT 1 FROM (VALUES (0)) w(z) WHERE z < max(t.a * u.x)) FROM (VALUES (1), (2)) u(x)) FROM (VALUES (1), (2)) t(a)
SELECT (SELECT (SELECT 1 FROM (VALUES (0)) w(z) WHERE z < max(t.a * u.x) + max(w.z)) FROM (VALUES (1), (2)) u(x)) FROM (VALUES (1), (2)) t(a)
-- EXISTS asks only whether a row comes: its targets, ORDER BY, DISTINCT and a positive constant LIMIT are not computed, unless aggregates, HAVING, windows or set-returning functions decide the rows.
SELECT t.a, EXISTS (SELECT 1/(x - t.a) FROM (VALUES (0), (1)) v(x) WHERE x = t.a) FROM (VALUES (0), (1), (2)) t(a) ORDER BY 1
SELECT EXISTS (SELECT DISTINCT 1/x FROM (VALUES (0)) v(x)), EXISTS (SELECT DISTINCT ON (x) 1/x FROM (VALUES (0)) v(x))
SELECT EXISTS (SELECT 1/x FROM (VALUES (0)) v(x) ORDER BY 1), EXISTS (SELECT 1/x FROM (VALUES (0)) v(x) LIMIT 1), EXISTS (SELECT 1/x FROM (VALUES (0)) v(x) LIMIT NULL)
SELECT EXISTS (SELECT x, 1/x FROM (VALUES (0)) v(x) GROUP BY x)
SELECT EXISTS (SELECT sum(1/x) FROM (VALUES (0)) v(x))
SELECT EXISTS (SELECT x FROM (VALUES (0)) v(x) GROUP BY x HAVING sum(1/x) > 0)
SELECT EXISTS (SELECT generate_series(1, 1/x) FROM (VALUES (0)) v(x))
SELECT EXISTS (SELECT row_number() OVER (), 1/x FROM (VALUES (0)) v(x))
SELECT EXISTS (SELECT 1/x FROM (VALUES (0)) v(x) OFFSET 1)
