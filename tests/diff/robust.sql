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
