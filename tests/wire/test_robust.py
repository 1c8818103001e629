#!/usr/bin/python3
"""test_robust.py: statements that once killed the server, where eddy's answer is not
PostgreSQL's yet (a feature it lacks, 0A000) and so cannot be in tests/diff: each must
fail with its SQLSTATE, leave its session usable and the server serving others.
(The classes whose answers match PostgreSQL are in tests/diff/robust.sql.)"""
from pgw import case, connect, errors, main, rows

# (query, SQLSTATE): a LATERAL item on the left of a JOIN reading the FROM items before the
# join (it used to be planned without them and read columns it did not have), and a row
# constructor compared with a subquery of several columns.
UNSUPPORTED = [
    ("select * from (values ('x')) t(c), lateral (values (t.c)) v(a) join (values (1)) u(b) on true", "0A000"),
    ("select 1 from (values ('')) t(c), lateral (select t.c) v(a) join (values (1)) u(b) on false", "0A000"),
    ("select * from (values (1)) t(a), generate_series(t.a, 2) g join (values (1)) u(b) on true", "0A000"),
    ("select * from (values (1)) t(a), (lateral (values (a)) v(c) cross join (values (1)) u(b))", "0A000"),
    ("select (1,(2,3)) in (select 1, (2,3))", "0A000"),
    ("select row(1,row(2,3)) = any (select 1, row(2,3))", "0A000"),
    # A subquery inside a LATERAL item reading the items before it (found by the grammar fuzzer).
    ("select * from (values (1)) t(a) left join lateral (values ((select t.a), t.a)) v(b, c) on true", "0A000"),
    ("select * from (values (1)) t(a) join lateral (values (array(select t.a))) v(b) on true", "0A000"),
    ("select 1 from (values (1, 2)) t3(c0, c1) join lateral (values (nullif(t3.c1, 7)), "
     "(array_length(array(select t3.c1 order by 1), 1))) t5(c0) on true", "0A000"),
]


@case
def unsupported_shapes_fail_cleanly(t):
    with connect(timeout=15) as c:
        for sql, state in UNSUPPORTED:
            msgs = c.q(sql)
            t.eq([m.sqlstate() for m in errors(msgs)], [state], sql)
            t.eq(rows(c.q("SELECT 1")), [[b"1"]], "session continues after: " + sql)
    t.served()


if __name__ == "__main__":
    raise SystemExit(main())
