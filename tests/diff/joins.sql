-- joins.sql: equi-joins over enough rows that eddy hashes the right side (planner/pln_exec.c
-- join_hash), against PostgreSQL 15: NULL keys, duplicates, outer joins, IS NOT DISTINCT FROM,
-- values equal but spelled apart (1.0 and 1.00, -0 and 0, NaN), several keys, mixed types.
SELECT count(*), sum(a.x) FROM generate_series(1, 200) a(x) JOIN generate_series(1, 300, 2) b(y) ON a.x = b.y
SELECT a.x, b.y FROM (VALUES (1), (2), (NULL), (3), (3)) a(x) JOIN (VALUES (1), (1), (NULL), (3), (4), (5), (6), (7), (8), (9)) b(y) ON a.x = b.y ORDER BY 1, 2
SELECT a.x, b.y FROM (VALUES (1), (2), (NULL), (3), (3)) a(x) LEFT JOIN (VALUES (1), (1), (NULL), (3), (4), (5), (6), (7), (8), (9)) b(y) ON a.x = b.y ORDER BY 1, 2
SELECT a.x, b.y FROM (VALUES (1), (2), (NULL), (3), (3)) a(x) RIGHT JOIN (VALUES (1), (1), (NULL), (3), (4), (5), (6), (7), (8), (9)) b(y) ON a.x = b.y ORDER BY 2, 1
SELECT a.x, b.y FROM (VALUES (1), (2), (NULL), (3), (3)) a(x) FULL JOIN (VALUES (1), (1), (NULL), (3), (4), (5), (6), (7), (8), (9)) b(y) ON a.x = b.y ORDER BY 1, 2
SELECT a.x, b.y FROM (VALUES (1), (NULL)) a(x) JOIN (VALUES (1), (NULL), (2), (3), (4), (5), (6), (7), (8)) b(y) ON a.x IS NOT DISTINCT FROM b.y ORDER BY 1, 2
SELECT a.x, b.y FROM (VALUES (1.0), (2.5)) a(x) JOIN (VALUES (1.00), (1), (2.50), (3), (4), (5), (6), (7), (8)) b(y) ON a.x = b.y ORDER BY 1, 2
SELECT a.x, b.y FROM (VALUES ('-0'::float8), ('NaN'), ('Infinity')) a(x) JOIN (VALUES (0::float8), ('NaN'), ('Infinity'), (1), (2), (3), (4), (5), (6)) b(y) ON a.x = b.y ORDER BY 2
SELECT a.s, b.t FROM (VALUES ('a'), ('B'), ('c')) a(s) JOIN (VALUES ('a'), ('b'), ('B'), ('c '), ('c'), ('d'), ('e'), ('f'), ('g')) b(t) ON a.s = b.t ORDER BY 1, 2
SELECT a.x, a.y, b.z FROM (VALUES (1, 'p', 5), (2, 'q', 1), (1, 'q', 9)) a(x, y, z) JOIN (VALUES (1, 'p', 3), (1, 'p', 7), (1, 'q', 1), (2, 'q', 2), (3, 'r', 0), (4, 's', 0), (5, 't', 0), (6, 'u', 0)) b(x, y, z) ON a.x = b.x AND a.y = b.y AND a.z > b.z ORDER BY 1, 2, 3
SELECT a.x, b.y FROM (VALUES (1), (2)) a(x) JOIN (VALUES (1::int8), (2), (3), (4), (5), (6), (7), (8), (9)) b(y) ON a.x = b.y ORDER BY 1
SELECT a.x, b.y FROM generate_series(1, 10) a(x) JOIN generate_series(1, 10) b(y) ON a.x = b.y AND a.x = b.y + 0 WHERE a.x % 3 = 0 ORDER BY 1
SELECT x, (SELECT count(*) FROM generate_series(1, 20) g(y) WHERE y <= x) FROM generate_series(1, 12) s(x) ORDER BY 1
SELECT x, EXISTS (SELECT 1 FROM generate_series(1, 30) g(y) WHERE y = x * 3) FROM generate_series(1, 12) s(x) ORDER BY 1
SELECT x FROM generate_series(1, 12) s(x) WHERE x IN (SELECT y * 2 FROM generate_series(1, 30) g(y)) ORDER BY 1
SELECT x FROM (VALUES (1), (NULL), (4)) s(x) WHERE x NOT IN (SELECT y FROM generate_series(1, 3) g(y)) ORDER BY 1
