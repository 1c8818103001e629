-- views.sql: reading ordinary views over tables, each line on eddy and PostgreSQL 15.
-- A view is its stored query bound in place (PostgreSQL's rewriter): names, aliases, views over
-- views, views read twice, in joins, sublinks and WITH, under another search_path.
DROP SCHEMA IF EXISTS vdiff CASCADE
DROP SCHEMA IF EXISTS vdiff2 CASCADE
CREATE SCHEMA vdiff
CREATE SCHEMA vdiff2
CREATE TABLE vdiff.t (a int, b text, c numeric(10,2), d bool)
INSERT INTO vdiff.t VALUES (1, 'x', 1.50, true), (2, 'y', NULL, false), (3, NULL, 2.25, NULL), (2, 'y', 0.75, true), (NULL, 'z', 9.99, false)
CREATE TABLE vdiff.u (k int PRIMARY KEY, label text)
INSERT INTO vdiff.u VALUES (1, 'one'), (2, 'two'), (4, 'four')
CREATE TABLE vdiff2.t (a int)
INSERT INTO vdiff2.t VALUES (100), (200)
SET search_path = vdiff
CREATE VIEW v AS SELECT a, b, c FROM t WHERE a IS NOT NULL
CREATE VIEW vcols (x, y) AS SELECT a * 10, b FROM v
CREATE VIEW vlit AS SELECT 'lit' AS s, 1 AS n, NULL::int AS z
CREATE VIEW vagg AS SELECT a, count(*) AS n, sum(c) AS total, string_agg(b, ',' ORDER BY b) AS bs FROM t GROUP BY a
CREATE VIEW vjoin AS SELECT v.a, v.b, u.label FROM v LEFT JOIN u ON u.k = v.a
CREATE VIEW vset AS SELECT a FROM t UNION SELECT k FROM u
CREATE VIEW vtop AS SELECT a, c FROM t WHERE c IS NOT NULL ORDER BY c DESC LIMIT 2
CREATE VIEW vwin AS SELECT a, b, row_number() OVER (PARTITION BY a ORDER BY c NULLS LAST) AS rn FROM t
CREATE VIEW vcte AS WITH m AS (SELECT max(a) AS mx FROM t) SELECT a FROM t, m WHERE a = mx
CREATE VIEW vsub AS SELECT k, label FROM u WHERE EXISTS (SELECT 1 FROM t WHERE t.a = u.k)
CREATE VIEW vdistinct AS SELECT DISTINCT b FROM t
CREATE VIEW vvalues (p, q) AS VALUES (1, 'a'), (2, 'b')
CREATE VIEW vsrf AS SELECT g FROM generate_series(1, 3) AS g
SELECT * FROM v ORDER BY a, b, c
SELECT * FROM vcols ORDER BY x, y
SELECT x FROM vcols WHERE y = 'y' ORDER BY x
SELECT vcols.x, vcols.y FROM vcols ORDER BY 1, 2
SELECT * FROM vcols AS w(m) ORDER BY m, y
SELECT w.m, w.y FROM vcols AS w(m) ORDER BY 1, 2
SELECT * FROM vcols AS w(m, n, o) ORDER BY 1
SELECT x FROM vcols AS w ORDER BY 1
SELECT * FROM vlit
SELECT pg_typeof(s), pg_typeof(n), pg_typeof(z) FROM vlit
SELECT * FROM vagg ORDER BY a NULLS FIRST
SELECT * FROM vjoin ORDER BY a, b
SELECT * FROM vset ORDER BY a NULLS FIRST
SELECT * FROM vtop ORDER BY c
SELECT * FROM vwin ORDER BY a, rn
SELECT * FROM vcte
SELECT * FROM vsub ORDER BY k
SELECT * FROM vdistinct ORDER BY b
SELECT * FROM vvalues ORDER BY p
SELECT * FROM vsrf ORDER BY g
SELECT l.a, r.a FROM v AS l JOIN v AS r ON l.a < r.a ORDER BY 1, 2
SELECT count(*) FROM v, vcols
SELECT a, (SELECT count(*) FROM vcols WHERE x = v.a * 10) FROM v ORDER BY a, 2
SELECT k FROM u WHERE k IN (SELECT a FROM v) ORDER BY k
SELECT k FROM u WHERE NOT EXISTS (SELECT 1 FROM vjoin WHERE vjoin.a = u.k) ORDER BY k
WITH w AS (SELECT x FROM vcols) SELECT count(*), sum(x) FROM w
WITH v AS (SELECT 42 AS a) SELECT * FROM v
WITH v AS (SELECT 42 AS a) SELECT * FROM vdiff.v ORDER BY a, b, c
SELECT * FROM vdiff.vcols ORDER BY 1, 2
SELECT * FROM eddy.vdiff.vcols ORDER BY 1, 2
SET search_path = vdiff2, vdiff
SELECT * FROM t ORDER BY 1
SELECT * FROM v ORDER BY a, b, c
SELECT * FROM vcols ORDER BY 1, 2
SET search_path = vdiff
SELECT a, b FROM v UNION ALL SELECT x, y FROM vcols ORDER BY 1, 2
SELECT a FROM v INTERSECT SELECT p FROM vvalues ORDER BY 1
SELECT * FROM (SELECT * FROM vagg WHERE n > 1) AS s ORDER BY a
SELECT * FROM vagg NATURAL JOIN vwin ORDER BY 1, 2, 3
SELECT * FROM v JOIN u ON u.k = v.a JOIN vcols ON vcols.x = u.k * 10 ORDER BY 1, 2, 3
SELECT * FROM v WHERE a = $1
SELECT nosuch FROM v
SELECT v.nosuch FROM v
SELECT t.a FROM v
INSERT INTO t VALUES (4, 'w', 4.00, true)
SELECT * FROM vjoin ORDER BY a, b
SELECT * FROM vagg ORDER BY a NULLS FIRST
UPDATE t SET b = 'Y' WHERE b = 'y'
SELECT * FROM vcols ORDER BY x, y
DELETE FROM t WHERE a = 3
SELECT * FROM v ORDER BY a, b, c
CREATE OR REPLACE VIEW vlit AS SELECT 'lit' AS s, 2 AS n, 7 AS z, true AS extra
SELECT * FROM vlit
ALTER VIEW vlit RENAME TO vlit2
SELECT * FROM vlit
SELECT * FROM vlit2
ALTER TABLE u RENAME COLUMN label TO name
SELECT * FROM vjoin ORDER BY a, b
SELECT * FROM vsub ORDER BY k
DROP TABLE u
DROP VIEW v
DROP VIEW vcols
SELECT * FROM vcols
DROP VIEW v CASCADE
SELECT * FROM vjoin
SELECT * FROM vagg ORDER BY a NULLS FIRST
RESET search_path
DROP SCHEMA vdiff CASCADE
DROP SCHEMA vdiff2 CASCADE
