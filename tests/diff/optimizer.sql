-- optimizer.sql: constant queries whose plans the optimizer rewrites (planner/pln_opt*.c),
-- run against PostgreSQL 15 and eddy by tests/diff/diff.py like queries.sql. Each pass must
-- keep the rows: pushdown into join inputs and through projections, unions and GROUP BY,
-- what must not move (outer joins' nullable sides, LIMIT, DISTINCT ON, aggregates), join
-- keys from equivalence classes with constants, and pruned columns. ORDER BY makes row
-- order PostgreSQL's where more than one row comes back.
-- pushdown: filters over products become joins, conjuncts go to the input they read
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) t(a, b), (VALUES (1, 'x'), (3, 'y'), (4, 'z')) u(a, d) WHERE t.a = u.a ORDER BY 1
SELECT * FROM (VALUES (1, 'a'), (2, 'b'), (3, 'c')) t(a, b), (VALUES (1, 'x'), (3, 'y'), (4, 'z')) u(a, d) WHERE t.a = u.a AND t.b <> 'a' AND u.d < 'z' ORDER BY 1
SELECT t.b, u.d FROM (VALUES (1, 'a'), (2, 'b')) t(a, b) JOIN (VALUES (1, 'x'), (2, 'y'), (2, 'w')) u(a, d) ON t.a = u.a AND u.d LIKE 'w%' ORDER BY 1, 2
SELECT * FROM (SELECT a + 1 AS x, b FROM (VALUES (1, 'p'), (9, 'q'), (10, 'r')) t(a, b)) s WHERE x > 5 AND b <> 'q'
SELECT * FROM (SELECT * FROM (VALUES (0), (1), (5)) t(a) WHERE a <> 0) s WHERE 10 / a > 1
SELECT * FROM (VALUES (0), (1), (5)) t(a) WHERE a <> 0 AND 10 / a > 1
SELECT * FROM (VALUES (1), (2)) a(x), (VALUES (1), (2)) b(y), (VALUES (2), (3)) c(z) WHERE x = y AND y = z
SELECT * FROM (VALUES (1), (2)) a(x), (VALUES (1), (2)) b(y), (VALUES (2), (3)) c(z) WHERE x + y = z ORDER BY 1, 2
SELECT count(*) FROM (VALUES (1), (2), (3)) a(x), (VALUES (1), (2), (3)) b(y) WHERE x < y
SELECT * FROM (VALUES (1), (2)) a(x) CROSS JOIN (VALUES ('p'), ('q')) b(y) WHERE y = 'q' ORDER BY 1
-- outer joins: WHERE and ON conditions that differ
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE t.c > 10 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d IS NULL ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a AND u.d = 'y' ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d = 'y' ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a AND t.c = 30 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE t.c = 30 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) RIGHT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a AND t.c = 20 ORDER BY 3
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) RIGHT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d = 'x' OR t.c IS NULL ORDER BY 3
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) RIGHT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE t.c = 10
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a AND u.d = 'x' ORDER BY 1, 3
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE t.c = 10 OR u.d = 'y' ORDER BY 1, 3
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) USING (a) WHERE a > 1 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) USING (a) WHERE a > 1 ORDER BY 1
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN ((VALUES (1), (2)) b(y) JOIN (VALUES (2), (3)) c(z) ON y = z) ON x = y ORDER BY 1
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON x = y LEFT JOIN (VALUES (2), (3)) c(z) ON y = z WHERE x > 0 ORDER BY 1
-- set operations
SELECT * FROM (SELECT * FROM (VALUES (1), (2)) a(x) UNION ALL SELECT * FROM (VALUES (2), (3)) b(x)) s WHERE x > 1 ORDER BY 1
SELECT * FROM (SELECT * FROM (VALUES (1), (2)) a(x) UNION SELECT * FROM (VALUES (2), (3)) b(x)) s WHERE x >= 2 ORDER BY 1
SELECT * FROM (SELECT * FROM (VALUES (1), (2), (3)) a(x) INTERSECT SELECT * FROM (VALUES (2), (3)) b(x)) s WHERE x < 3
SELECT * FROM (SELECT * FROM (VALUES (1), (2), (3)) a(x) EXCEPT SELECT * FROM (VALUES (2)) b(x)) s WHERE x > 1
SELECT * FROM (SELECT * FROM (VALUES (1), (1), (2)) a(x) EXCEPT ALL SELECT * FROM (VALUES (1)) b(x)) s WHERE x < 2
-- aggregates: below GROUP BY only on keys, never below an aggregate without GROUP BY
SELECT * FROM (SELECT x, count(*) AS n FROM (VALUES (1), (1), (2), (3)) v(x) GROUP BY x) s WHERE x < 3 AND n > 1
SELECT * FROM (SELECT x, sum(y) AS s FROM (VALUES (1, 5), (1, 6), (2, 7)) v(x, y) GROUP BY x) s WHERE s > 10
SELECT x, count(*) FROM (VALUES (1), (1), (2), (3)) v(x) GROUP BY x HAVING x <> 2 ORDER BY 1
SELECT * FROM (SELECT count(*) AS n FROM (VALUES (1), (2)) v(x) WHERE x > 5) s WHERE n = 0
SELECT * FROM (SELECT count(*) AS n FROM (VALUES (1), (2)) v(x)) s WHERE false
SELECT * FROM (SELECT max(x) AS m FROM (VALUES (1), (2)) v(x)) s, (VALUES (2), (3)) w(y) WHERE m = y
-- limits and DISTINCT ON: nothing moves past them
SELECT * FROM (SELECT x FROM (VALUES (1), (2), (3), (4)) v(x) ORDER BY x LIMIT 2) s WHERE x > 1
SELECT * FROM (SELECT x FROM (VALUES (1), (2), (3), (4)) v(x) ORDER BY x OFFSET 2) s WHERE x < 4
SELECT * FROM (SELECT DISTINCT ON (g) g, x FROM (VALUES (1, 1), (1, 2), (2, 3)) v(g, x) ORDER BY g, x) s WHERE x > 1
SELECT * FROM (SELECT DISTINCT x FROM (VALUES (1), (1), (2)) v(x)) s WHERE x = 1
-- stable functions move, errors stay where PostgreSQL has them
SELECT count(*) FROM (VALUES (1), (2)) a(x), (VALUES (1), (2)) b(y) WHERE x = y AND now() > '2000-01-01'
SELECT * FROM (SELECT x, 10 / x AS y FROM (VALUES (0), (2)) v(x)) s WHERE x <> 0
SELECT * FROM (VALUES (0), (2)) a(x), (VALUES (5)) b(y) WHERE x <> 0 AND y / x > 1
SELECT * FROM (VALUES (1, 2)) a(x, y) WHERE x = 1 AND y = 1 / 0
-- pruning: unread columns are not computed, volatile ones are
SELECT b FROM (SELECT a, b, a * 2 AS d, upper(b) AS e FROM (VALUES (1, 'x'), (2, 'y')) t(a, b)) s ORDER BY 1
SELECT x FROM (SELECT x, 10 / y AS z FROM (VALUES (1, 0), (2, 5)) v(x, y)) s ORDER BY 1
SELECT x FROM (SELECT x, 10 / y AS z FROM (VALUES (1, 0), (2, 5)) v(x, y)) s WHERE z > 0
SELECT count(*) FROM (SELECT x, random() AS r FROM (VALUES (1), (2), (3)) v(x)) s
SELECT g FROM (SELECT g, count(*) AS n, sum(x) AS s FROM (VALUES (1, 1), (1, 2), (2, 3)) v(g, x) GROUP BY g) s ORDER BY 1
SELECT count(*) FROM (SELECT g, max(x) FROM (VALUES (1, 1), (1, 2), (2, 3)) v(g, x) GROUP BY g) s
SELECT b FROM (SELECT DISTINCT a, b FROM (VALUES (1, 'x'), (2, 'x'), (1, 'x')) t(a, b)) s ORDER BY 1
SELECT a FROM (SELECT a, b FROM (VALUES (1, 'x'), (1, 'y')) t(a, b) UNION SELECT 1, 'x') s ORDER BY 1
SELECT u.d FROM (VALUES (1, 'a', 10)) t(a, b, c) JOIN (VALUES (1, 'x'), (1, 'y')) u(a, d) ON t.a = u.a ORDER BY 1
SELECT count(*) FROM (VALUES (1, 'a'), (2, 'b')) t(a, b), (VALUES (1, 'x'), (2, 'y')) u(a, d) WHERE t.a = u.a AND u.d = 'y'
SELECT x FROM (SELECT 1 AS x, 1 / 0 AS y) s
SELECT y, x FROM (SELECT b AS x, a AS y FROM (VALUES (1, 'p')) t(a, b)) s
SELECT a FROM (VALUES (1, 1 / 0)) v(a, b)
SELECT x FROM (SELECT x, 1 / 0 AS y FROM (VALUES (1), (2)) v(x)) s ORDER BY 1
SELECT x FROM (SELECT x, 1 / 0 AS y FROM (VALUES (1), (2)) v(x) GROUP BY x) s ORDER BY 1
SELECT x FROM (SELECT x FROM (VALUES (1), (2)) v(x) WHERE 1 / 0 = 1) s
SELECT a FROM (VALUES (1, 1 / 0), (2, 3)) v(a, b)
-- equivalence classes: join keys from chains of equalities, constants propagated to every member
SELECT * FROM (VALUES (1), (2), (3)) a(x), (VALUES (1), (2), (3)) b(y), (VALUES (2), (3), (4)) c(z) WHERE x = y AND y = z AND x = z ORDER BY 1
SELECT * FROM (VALUES (1), (2), (3)) a(x) JOIN (VALUES (1), (2), (3)) b(y) ON x = y JOIN (VALUES (2), (3), (4)) c(z) ON y = z ORDER BY 1
SELECT * FROM (VALUES (1, 2), (2, 3)) a(x, p) JOIN ((VALUES (2), (3)) b(y) JOIN (VALUES (2), (3)) c(z) ON y = z) ON p = z ORDER BY 1
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) a(x, s), (VALUES (1), (2), (2)) b(y) WHERE x = 2 AND x = y
SELECT * FROM (VALUES (1), (2), (3)) a(x), (VALUES (1), (2), (3)) b(y), (VALUES (3), (4)) c(z) WHERE x = y AND y = z AND z = 3
SELECT * FROM (VALUES (1), (2), (3)) a(x), (VALUES (1), (2), (3)) b(y) WHERE x = y AND y = 2 AND x = 3
SELECT * FROM (VALUES (1, 1), (1, 2), (2, 2)) a(x, p), (VALUES (1), (2)) b(y) WHERE x = y AND p = y ORDER BY 1, 2
SELECT * FROM (VALUES (1.0), (2.00)) a(x), (VALUES (1.00), (2)) b(y) WHERE x = y AND y = 2 ORDER BY 1
SELECT * FROM (VALUES ('a'), ('b'), (NULL)) a(x), (VALUES ('a'), (NULL)) b(y) WHERE x = y
SELECT * FROM (VALUES (1), (NULL)) a(x), (VALUES (1), (NULL)) b(y), (VALUES (1), (NULL)) c(z) WHERE x = y AND y = z
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN ((VALUES (1), (2)) b(y) JOIN (VALUES (1), (2)) c(z) ON y = z AND z = 2) ON x = y ORDER BY 1
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON x = y WHERE x = 2
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON x = y AND x = 2 ORDER BY 1
SELECT * FROM (VALUES (1), (2)) a(x) JOIN (VALUES (1), (2)) b(y) ON x = y AND y = 1 LEFT JOIN (VALUES (1), (3)) c(z) ON y = z
SELECT count(*) FROM (VALUES (1), (2), (3)) a(x), (VALUES (1), (2), (3)) b(y) WHERE x = y AND x = 2::int8
SELECT a.x, b.y FROM (SELECT x FROM (VALUES (1), (2), (3)) v(x) WHERE x = 2) a, (VALUES (1), (2)) b(y) WHERE a.x = b.y
SELECT * FROM (SELECT x, count(*) AS n FROM (VALUES (1), (1), (2)) v(x) GROUP BY x) a, (VALUES (1), (2)) b(y) WHERE a.x = b.y AND b.y = 1
-- outer joins pass constants from the preserved side to the nullable side only
SELECT * FROM (VALUES (1), (2), (5)) t(a) LEFT JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a WHERE t.a = 5
SELECT * FROM (VALUES (1), (2), (5)) t(a) LEFT JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a AND t.a = 5 ORDER BY 1
SELECT * FROM (VALUES (1), (2), (5)) t(a) RIGHT JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a WHERE u.a = 5
SELECT * FROM (VALUES (1), (2), (5)) t(a) RIGHT JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a AND u.a = 2 ORDER BY 2
SELECT * FROM (VALUES (1), (2), (5)) t(a) LEFT JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a WHERE u.a = 5
SELECT * FROM (VALUES (1), (2), (5)) t(a) FULL JOIN (VALUES (5, 'x'), (2, 'y')) u(a, d) ON t.a = u.a WHERE t.a = 5 OR t.a IS NULL ORDER BY 2
-- JOIN USING chains are one block of joins
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(a, b) JOIN (VALUES (1, 'x'), (2, 'y')) u(a, d) USING (a) JOIN (VALUES (2, 7), (1, 3)) w(a, e) USING (a) WHERE e = 3
SELECT * FROM (VALUES (1, 'a'), (2, 'b')) t(a, b) NATURAL JOIN (VALUES (1, 'x'), (2, 'y')) u(a, d) WHERE a = 2
SELECT d, e FROM (VALUES (1, 'a'), (2, 'b')) t(a, b) JOIN (VALUES (1, 'x'), (2, 'y')) u(a, d) USING (a) JOIN (VALUES (2, 7), (1, 3)) w(a, e) USING (a) ORDER BY 1
SELECT * FROM (VALUES (1), (2)) t(a) JOIN ((VALUES (1, 'x'), (2, 'y')) u(a, d) JOIN (VALUES (2, 7)) w(a, e) USING (a)) USING (a)
-- outer joins become inner (or one-sided) when WHERE rejects the padded NULLs
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d <> 'z' ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.a + 1 > 2 AND t.c > 10
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE t.c >= 10 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d IS NOT NULL ORDER BY 3
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d IS NOT NULL AND t.c IS NOT NULL
SELECT * FROM (VALUES (1, 10), (2, 20)) t(a, c) FULL JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE coalesce(t.c, 0) < 15 ORDER BY 3
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, 'y')) u(a, d) ON t.a = u.a WHERE u.d = 'x' OR t.c = 20 ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, NULL)) u(a, d) ON t.a = u.a WHERE NOT (u.d = 'x') ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, NULL)) u(a, d) ON t.a = u.a WHERE (u.d IS NULL) IS NOT TRUE ORDER BY 1
SELECT * FROM (VALUES (1, 10), (2, 20), (3, 30)) t(a, c) LEFT JOIN (VALUES (1, 'x'), (3, NULL)) u(a, d) ON t.a = u.a WHERE u.d || 'q' IS NULL ORDER BY 1
SELECT * FROM (VALUES (1), (2)) a(x) LEFT JOIN (VALUES (1), (2)) b(y) ON x = y LEFT JOIN (VALUES (2), (3)) c(z) ON y = z WHERE z > 0
-- an aggregate computed twice is computed once; written-differently constants are not the same
SELECT g, count(*), sum(x) FROM (VALUES (1, 1), (1, 2), (2, 3)) v(g, x) GROUP BY g HAVING count(*) > 1
SELECT sum(x * 1.0), sum(x * 1.00), sum(x * 1.0) FROM (VALUES (1), (2)) v(x)
SELECT max(x), max(x) FILTER (WHERE x < 2), max(x) FROM (VALUES (1), (2)) v(x) HAVING max(x) > 1
-- DISTINCT ON passes conjuncts on its keys only
SELECT * FROM (SELECT DISTINCT ON (g) g, x FROM (VALUES (1, 1), (1, 2), (2, 3), (3, 0)) v(g, x) ORDER BY g, x) s WHERE g > 1 ORDER BY 1
SELECT * FROM (SELECT DISTINCT ON (g) g, x FROM (VALUES (1, 1), (1, 2), (2, 3), (3, 0)) v(g, x) ORDER BY g, x) s WHERE g < 3 AND x > 1
SELECT * FROM (SELECT DISTINCT ON (g % 2) g, x FROM (VALUES (1, 1), (3, 2), (2, 3)) v(g, x) ORDER BY g % 2, x) s WHERE g > 1 ORDER BY 1
-- windows pass conjuncts on their PARTITION BY columns only
SELECT * FROM (SELECT g, x, row_number() OVER (PARTITION BY g ORDER BY x) AS n FROM (VALUES (1, 5), (1, 3), (2, 4)) v(g, x)) s WHERE g = 1 ORDER BY x
SELECT * FROM (SELECT g, x, row_number() OVER (PARTITION BY g ORDER BY x) AS n FROM (VALUES (1, 5), (1, 3), (2, 4)) v(g, x)) s WHERE x > 3 ORDER BY g, x
SELECT * FROM (SELECT g, x, sum(x) OVER (ORDER BY x) AS s FROM (VALUES (1, 5), (1, 3), (2, 4)) v(g, x)) s WHERE g = 1 ORDER BY x
SELECT * FROM (SELECT g, x, count(*) OVER (PARTITION BY g % 2) AS c FROM (VALUES (1, 5), (3, 3), (2, 4)) v(g, x)) s WHERE g > 1 ORDER BY g
-- UNION ALL with unread columns: both inputs pruned alike
SELECT d, a FROM (SELECT a, b, a * 2 AS d FROM (VALUES (1, 'x'), (2, 'y')) t(a, b) UNION ALL SELECT a, d, length(d) FROM (VALUES (3, 'zz')) u(a, d)) s ORDER BY 2
SELECT count(*) FROM (SELECT 1, 'a' UNION ALL SELECT 2, 'b' UNION ALL SELECT 3, 'c') s(x, y)
SELECT y FROM (SELECT x, y FROM (VALUES (1, 'a'), (2, 'b')) v(x, y) UNION ALL SELECT x + 10, upper(y) FROM (VALUES (3, 'c')) w(x, y)) s WHERE x > 1 ORDER BY 1
SELECT b FROM (SELECT 1 AS a, 'p' AS b, 1 / 0 AS c UNION ALL SELECT 2, 'q', 3) s
