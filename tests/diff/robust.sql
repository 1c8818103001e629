-- robust.sql: queries that once took the server down, each with PostgreSQL's answer or SQLSTATE.
-- Nested row constructors against = ANY (subquery) whose rows nest differently: records are
-- compared column by column at every depth, so a record never meets a scalar unchecked (42804).
select row(row(1,row(2))) = any (select row(row(1,2)))
select row(row(1,2)) = any (select row(row(1,row(2))))
select row(row(1,row(2))) = all (select row(row(1,2)))
select row(row(1,row(2))) <> any (select row(row(1,row(2,3))))
select row(1,row(2)) = row(1,row(2))
select row(1,row(2)) < row(1,row(3))
select row(1,row(2,3)) union select row(1,row(2,4)) order by 1
select (select row(1,row(2))) = any (select row(1,2))
select (select row(1,row(2))) = any (select row(1,row(2)))
select (select row(1,row(2))) = any (select row(1,row(2,3)))
-- A row constructor on the left is a list of values, one per subquery column (42601 otherwise).
select (1,2) = any (select (1,2))
select (1,(2,3)) = any (select (1,(2,3)))
select row(row(1,2)) = any (select row(row(1,2)))
select row(row(1,2)) = any (select row(1,2))
select row(1,row(2)) = any (select row(1,2))
select row(1,2) = any (select row(1,row(2)))
select row(row(1),2) = any (select row(row(1,2),2))
select row(1) in (select 1)
select row(1) not in (select 2)
select row(1) = any (select 1, 2)
-- An aggregate whose FILTER holds another aggregate of the same level: 42803; a window function: 42P20.
select (select sum(x) filter (where count(t.x) > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select sum(y) filter (where count(t.x) > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select sum(y) filter (where max(y) > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select sum(x) filter (where max(t.x + 0) > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select count(*) filter (where min(t.x) > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select sum(y) filter (where t.x > 0) from (values (1)) u(y)) from (values (1)) t(x)
select (select sum(x order by count(t.x)) from (values (1)) u(y)) from (values (1)) t(x)
select count(*) filter (where count(*) > 0) from (values (1)) t(x)
select sum(x) filter (where x > avg(x)) from (values (1),(2)) t(x)
select sum(x) filter (where sum(x) over () > 0) from (values (1)) t(x)
select sum(x) filter (where row_number() over () > 0) from (values (1)) t(x)
select (select sum(x) filter (where row_number() over () > 0) from (values (1)) u(y)) from (values (1)) t(x)
select sum(x) filter (where x > 0) from (values (1)) t(x) group by x having sum(x) filter (where count(*) > 0) > 0
select sum(x order by count(*)) from (values (1)) t(x)
select sum(sum(x)) from (values (1)) t(x)
-- LATERAL (VALUES ...) and LATERAL subqueries reading an outer column where they are supported.
select * from (values (1),(2)) t(a), lateral (values (a), (a+1)) v(b)
select * from (values (1),(2)) t(a) left join lateral (values (a)) v(b) on b > 1
select * from (values (1)) x(a), lateral (select * from (values (x.a)) y(b), lateral (values (b, a)) w(c,d)) z
select (select z from (values (1)) a(x), lateral (values (x + t.y)) v(z)) from (values (1)) t(y)
select * from (values (1)) a(f1) right join lateral (values (a.f1)) g(x) on true
select * from (values (1)) a(f1) full join lateral (values (a.f1)) g(x) on true
-- Found by the grammar fuzzer (tests/fuzz/grammar.py). An outer reference in the select list
-- of a query with window functions is not a window function's result.
select row(2, row(nullif(-1, 0), row(t3.c0), ('' || t3.c0)), array_length(array(select t3.c0), 1)), first_value(nullif(abs(t3.c0), 1)) over (partition by t2.c0), t2.c0 from (values ('a'), ('b')) t2(c0), generate_series(1, 2) t3(c0)
select (select sum(1) over () + t.a) from (values (1), (2)) t(a)
select (select lag(t.a) over (order by t.a) + t.a) from (values (1), (2)) t(a)
select t.a, (select count(*) over (partition by t.a) from (values (1)) u(b)) from (values (1), (2)) t(a)
-- A join condition or a function in FROM whose operand binding shares (BETWEEN) is moved to the
-- join's columns once, not once per use.
select 7 from (select 2) a(x), generate_series(-1, 0) g(c) join (values (48)) v(d) on (v.d between g.c and 7)
select 7 from lateral (select distinct '(1,2)', 2, NULL::numeric) t1(c0, c1, c2), generate_series(-1, 0) t2(c0) join (values ((select distinct 1e3), 48)) t3(c0, c1) on (t3.c1 between t2.c0 and 7) where (t2.c0)::bool
select * from (values (1)) a(x), (values (3)) t(y) join (values (3)) u(z) on z between y and y + 1 or z not between symmetric y and 1
select * from (values (1)) a(x), (values (2)) t(y) join generate_series(case when t.y between 1 and 3 then t.y else 0 end, 3) g on true
-- LATERAL subqueries whose own subqueries read only their own columns are decorrelated.
select * from (values (1)) t(a), lateral (select (select v.x) from (values (t.a)) v(x)) s
select * from (values (1)) t(a) join lateral (select (select v.x) from (values (t.a)) v(x)) s on true
select * from (values (1)) t(a), lateral (select * from (values (2)) v(x) where x in (select t.a + 1)) s
-- A correlated subquery whose LIMIT is over a projection of sorted rows that is not
-- column-only (a constant, an expression, an outer reference) keeps that projection.
select (select true from (select t8.c0 from lateral (select t5.c1) t8(c0) order by 1) t6 limit 1) from (values (1, 1.5)) t5(c0, c1)
select (select 5 from (select t5.c1 order by 1) t6 limit 1) from (values (1, 1.5)) t5(c0, c1)
select (select t6.c1 * 2 from (select t5.c1 order by 1) t6(c1) limit 1) from (values (1, 1.5), (2, 2.5)) t5(c0, c1)
select (select t5.c0 + t6.x from (select t5.c1 as x order by 1) t6 limit 1) from (values (1, 1.5), (2, 2.5)) t5(c0, c1)
select t5.c0 from (values (1, 1.5), (2, 7.0)) t5(c0, c1) group by t5.c0, t5.c1 having (select true from lateral (select (select t8.c0), t9.c1 from generate_series(0, 0) t7(c0), lateral (select t5.c1) t8(c0), lateral (values (2)) t9(c1) order by 1, 2) t6 limit 1) order by 1
-- Found by the grammar fuzzer: a field of a ROW(...) written right there is named f1, f2, ...
-- (PostgreSQL's RowExpr column names); a row that is itself a field of one has no names.
SELECT NULL::int, (row(1)).f1
SELECT (row(1, 'a', row(2))).f3, ((1, 2)).f2, (row(7, 'b', row(2))).f1
SELECT (row(1, 2)).f3
SELECT (row(1, 2)).f0
SELECT (row(1)).F1, (row(1)).x
SELECT (row(1, 2)).f01
SELECT ((row(1, row(2, 3))).f2).f2
SELECT true, ((2, t.c1)).f1, ((2, t.c1)).f2 FROM (VALUES (1e3, abs(2)), (-2.25, NULL::int)) t(c0, c1)
-- Found by the grammar fuzzer: an unread column of a subquery is not computed even when its
-- function may run long (numeric ^), so its error never comes, as in PostgreSQL.
select 1 from (values (0.0 ^ -1::numeric)) t(c)
select d from (values (0.0 ^ -1::numeric, 2)) t(c, d)
select 1 from (select 0.0 ^ -1::numeric) t(c)
select d from (select 0.0 ^ -1::numeric, 2, repeat('x', -1)) t(c, d, e)
select d from (values (0.0 ^ -1::numeric, 2), (1, 3)) t(c, d)
