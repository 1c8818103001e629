-- gen_regress.sql: differences tests/diff/gen.py found, each reduced to a line, on eddy and PostgreSQL 15.
DROP SCHEMA IF EXISTS genreg CASCADE
CREATE SCHEMA genreg
CREATE TABLE genreg.t (k int, b text)
INSERT INTO genreg.t VALUES (1, 'x'), (2, NULL)
-- A literal's explicit cast fails as it is analyzed, before errors in what follows it.
SELECT CASE WHEN true THEN true ELSE 'abc'::int END
SELECT coalesce('2024-13-01'::date, false)
SELECT left('abc'::int, 1)
SELECT k FROM genreg.t WHERE coalesce('abc'::int, false)
SELECT CASE WHEN false THEN k ELSE '2024-13-01'::date END FROM genreg.t
-- A sublink decorrelated over a subquery holding a WITH: the plan holds that WITH twice.
SELECT * FROM (WITH w AS (SELECT 1 AS a) SELECT a FROM w) s WHERE s.a IN (SELECT k FROM genreg.t WHERE genreg.t.k = s.a)
SELECT * FROM (WITH w AS (SELECT k FROM genreg.t) SELECT k FROM w) s WHERE EXISTS (SELECT 1 FROM genreg.t u WHERE u.k = s.k) ORDER BY 1
DROP SCHEMA genreg CASCADE
