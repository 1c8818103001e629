#!/usr/bin/python3
"""grammar.py: a grammar-based query fuzzer, eddy against PostgreSQL 15.

  grammar.py [--seed N] [--count N | --seconds S] [--out DIR] TARGET_PORT REF_PORT

Beside the byte-level fuzzers (fuzz_codec, fuzz_parser, fuzz_plan), which
find what malformed input does to one module, this one writes queries that
parse and mostly bind, so they reach the binder, the optimizer and the
executor: random nestings of row constructors, sublinks of every kind
(scalar, EXISTS, IN, op ANY/ALL, ARRAY), LATERAL VALUES and subqueries
reading earlier FROM items, aggregates with FILTER / ORDER BY / DISTINCT and
window functions placed where they are allowed and where they are not, set
operations, casts, CASE and grouping. The queries are constant (VALUES,
generate_series): no table is needed on either server.

Each query runs on one connection per server with the same statement_timeout.
A failure is what must never happen to a server: the target's connection
lost (a crash), no answer long after the timeout (a hang), or, where the
caller points --san at a sanitizer log directory, a report there. Differing
SQLSTATEs and differing results are counted and written to DIR/diffs.txt, but
do not fail the run: most are features eddy lacks. The same seed gives the
same queries, so a failure is reproduced by its seed and index.

Prints "ok grammar_fuzz ..." with the number of queries compared, or one
"not ok" line per failure (the query, saved to DIR/failures.sql)."""
import argparse
import os
import random
import select
import sys
import time

from psycopg import pq

STATEMENT_TIMEOUT_MS = 2000
HANG_SECONDS = 15            # no answer this long after sending: a hang


def conninfo(port):
    return ("host=127.0.0.1 port=%d user=postgres dbname=eddy connect_timeout=5 "
            "options='-c TimeZone=UTC -c statement_timeout=%d'" % (port, STATEMENT_TIMEOUT_MS)).encode()


# ------------------------------------------------------------------ generator

class Scope:
    """The columns a query level can read: (qualified name, kind)."""

    def __init__(self, outer=None):
        self.cols = []
        self.outer = outer

    def visible(self):
        s, out = self, []
        while s is not None:
            out.extend(s.cols)
            s = s.outer
        return out


KINDS = ("int", "int", "int", "numeric", "text", "bool", "record")


class Gen:
    def __init__(self, rnd):
        self.r = rnd
        self.n = 0

    def alias(self, p):
        self.n += 1
        return "%s%d" % (p, self.n)

    def chance(self, p):
        return self.r.random() < p

    def pick(self, xs):
        return self.r.choice(xs)

    # ---- expressions

    def col(self, scope, kind):
        cs = [c for c, k in scope.visible() if k == kind] if scope else []
        return self.pick(cs) if cs else None

    def lit(self, kind):
        r = self.r
        if kind == "int":
            return self.pick(["0", "1", "2", "-1", "7", "NULL::int", "2147483647", str(r.randint(-100, 100))])
        if kind == "numeric":
            return self.pick(["1.5", "0.0", "-2.25", "1e3", "NULL::numeric", "'NaN'::numeric", "10::numeric"])
        if kind == "text":
            return self.pick(["'a'", "'b'", "''", "NULL::text", "'x y'", "'(1,2)'"])
        if kind == "bool":
            return self.pick(["true", "false", "NULL::bool"])
        return "row(%s, %s)" % (self.lit("int"), self.lit("text"))

    def expr(self, scope, kind, d, agg=True, win=False):
        """An expression of (mostly) the kind; d bounds the nesting."""
        if d <= 0 or self.chance(0.25):
            c = self.col(scope, kind)
            return c if c and self.chance(0.7) else self.lit(kind)
        f = getattr(self, "e_" + kind)
        return f(scope, d - 1, agg, win)

    def any_kind(self):
        return self.pick(KINDS)

    def agg_call(self, scope, kind, d, win):
        arg = self.expr(scope, "int" if kind != "text" else "text", d, agg=self.chance(0.1))
        if kind == "text":
            base = "string_agg(%s, ','%s)" % (arg, " order by %s" % arg if self.chance(0.3) else "")
        else:
            fn = self.pick(["count", "sum", "max", "min", "avg" if kind == "numeric" else "sum"])
            base = "%s(%s%s)" % (fn, "distinct " if self.chance(0.15) else "", "*" if fn == "count" and self.chance(0.3) else arg)
            if self.chance(0.15):
                base = base[:-1] + " order by %s)" % self.expr(scope, "int", d - 1, agg=self.chance(0.2))
        if self.chance(0.35):
            # A FILTER that may itself hold an aggregate, a window function or a sublink.
            base += " filter (where %s)" % self.expr(scope, "bool", d - 1, agg=self.chance(0.3), win=self.chance(0.2))
        if win and self.chance(0.4):
            base += " over (%s)" % self.window_spec(scope, d - 1)
        if kind == "numeric" and not base.startswith("avg"):
            base = "(%s)::numeric" % base
        if kind == "int" and base.startswith("avg"):
            base = "(%s)::int" % base
        return base

    def window_spec(self, scope, d):
        parts = []
        if self.chance(0.5):
            parts.append("partition by %s" % self.expr(scope, self.pick(["int", "text"]), d, agg=False))
        if self.chance(0.6):
            parts.append("order by %s" % self.expr(scope, "int", d, agg=False))
            if self.chance(0.3):
                parts.append(self.pick(["rows between 1 preceding and current row",
                                        "range between unbounded preceding and current row",
                                        "rows between current row and unbounded following"]))
        return " ".join(parts)

    def win_call(self, scope, d):
        if self.chance(0.5):
            return self.agg_call(scope, "int", d, True) if self.chance(0.3) else \
                "%s() over (%s)" % (self.pick(["row_number", "rank", "dense_rank"]), self.window_spec(scope, d))
        return "%s(%s) over (%s)" % (self.pick(["lag", "lead", "first_value", "last_value"]),
                                      self.expr(scope, "int", d, agg=False), self.window_spec(scope, d))

    def sublink_scalar(self, scope, kind, d):
        return "(%s)" % self.select(scope, d, ncols=1, kinds=[kind])

    def e_int(self, scope, d, agg, win):
        c = self.r.randrange(13)
        if c == 0 and agg:
            return self.agg_call(scope, "int", d, win)
        if c == 1 and win:
            return self.win_call(scope, d)
        if c == 2:
            return self.sublink_scalar(scope, "int", d)
        if c == 3:
            return "(%s %s %s)" % (self.expr(scope, "int", d, agg, win), self.pick(["+", "-", "*", "/", "%"]),
                                   self.expr(scope, "int", d, agg, win))
        if c == 4:
            return "case when %s then %s else %s end" % (self.expr(scope, "bool", d, agg, win),
                                                        self.expr(scope, "int", d, agg, win),
                                                        self.expr(scope, "int", d, agg, win))
        if c == 5:
            return "coalesce(%s, %s)" % (self.expr(scope, "int", d, agg, win), self.expr(scope, "int", d, agg, win))
        if c == 6:
            return "(%s)::int" % self.expr(scope, self.pick(["numeric", "text", "bool"]), d, agg, win)
        if c == 7:
            return "length(%s)" % self.expr(scope, "text", d, agg, win)
        if c == 8:
            return "(%s).f1" % self.e_record(scope, d, agg, win) if self.chance(0.3) else \
                "abs(%s)" % self.expr(scope, "int", d, agg, win)
        if c == 9:
            return "array_length(array(%s), 1)" % self.select(scope, d, ncols=1, kinds=["int"])
        if c == 10:
            return "(array[%s, %s])[%s]" % (self.expr(scope, "int", d, agg, win), self.expr(scope, "int", d, agg, win),
                                            self.pick(["1", "2", "0"]))
        if c == 11:
            return "nullif(%s, %s)" % (self.expr(scope, "int", d, agg, win), self.lit("int"))
        return self.expr(scope, "int", 0)

    def e_numeric(self, scope, d, agg, win):
        c = self.r.randrange(7)
        if c == 0 and agg:
            return self.agg_call(scope, "numeric", d, win)
        if c == 1:
            return "(%s)::numeric" % self.expr(scope, "int", d, agg, win)
        if c == 2:
            return "(%s %s %s)" % (self.expr(scope, "numeric", d, agg, win), self.pick(["+", "-", "*", "/"]),
                                   self.expr(scope, "numeric", d, agg, win))
        if c == 3:
            return "round(%s, %s)" % (self.expr(scope, "numeric", d, agg, win), self.pick(["0", "2", "-1"]))
        if c == 4:
            return "(%s ^ %s::numeric)" % (self.expr(scope, "numeric", d, agg, win), self.pick(["2", "0.5", "-1", "3"]))
        if c == 5:
            return self.sublink_scalar(scope, "numeric", d)
        return "%s(%s::numeric, %s::numeric)" % (self.pick(["gcd", "lcm", "mod"]), self.expr(scope, "int", d, agg, win),
                                                 self.expr(scope, "int", d, agg, win))

    def e_text(self, scope, d, agg, win):
        c = self.r.randrange(7)
        if c == 0 and agg:
            return self.agg_call(scope, "text", d, win)
        if c == 1:
            return "(%s || %s)" % (self.expr(scope, "text", d, agg, win), self.expr(scope, self.any_kind(), d, agg, win))
        if c == 2:
            return "(%s)::text" % self.expr(scope, self.any_kind(), d, agg, win)
        if c == 3:
            return "%s(%s, %s)" % (self.pick(["repeat", "left", "right"]), self.expr(scope, "text", d, agg, win),
                                   self.pick(["0", "2", "-1", "3"]))
        if c == 4:
            return "%s(%s, %s, 'z')" % (self.pick(["lpad", "rpad"]), self.expr(scope, "text", d, agg, win),
                                        self.pick(["0", "3", "-2"]))
        if c == 5:
            return self.sublink_scalar(scope, "text", d)
        return "regexp_replace(%s, %s, 'q')" % (self.expr(scope, "text", d, agg, win), self.pick(["'a'", "'(a|b)*'", "'^'"]))

    def row_ctor(self, scope, d, agg, win, shape=None):
        """A row constructor whose nesting follows shape (a list of ints and lists)."""
        if shape is None:
            shape = self.shape(2)
        items = []
        for s in shape:
            items.append(self.row_ctor(scope, d, agg, win, s) if isinstance(s, list)
                         else self.expr(scope, "int" if s == 0 else "text", d - 1, agg, win))
        return ("row(%s)" if len(items) < 2 or self.chance(0.5) else "(%s)") % ", ".join(items)

    def shape(self, d):
        n = self.r.randint(1, 3)
        return [self.shape(d - 1) if d > 0 and self.chance(0.3) else self.r.randint(0, 1) for _ in range(n)]

    def bend(self, shape):
        """The same values nested differently: a row for a scalar, a scalar for a row, one more or less."""
        s = list(shape)
        i = self.r.randrange(len(s))
        c = self.r.randrange(4)
        if c == 0:
            s[i] = [s[i]] if not isinstance(s[i], list) else 0
        elif c == 1:
            s.append(0)
        elif c == 2 and len(s) > 1:
            s.pop(i)
        else:
            s[i] = 1 - s[i] if not isinstance(s[i], list) else self.bend(s[i])
        return s

    def e_record(self, scope, d, agg, win):
        return self.row_ctor(scope, d, agg, win)

    def e_bool(self, scope, d, agg, win):
        c = self.r.randrange(15)
        if c == 0:
            k = self.pick(["int", "text", "numeric"])
            return "(%s %s %s)" % (self.expr(scope, k, d, agg, win), self.pick(["=", "<", ">=", "<>"]),
                                   self.expr(scope, k, d, agg, win))
        if c == 1:
            return "(%s %s %s)" % (self.expr(scope, "bool", d, agg, win), self.pick(["and", "or"]),
                                   self.expr(scope, "bool", d, agg, win))
        if c == 2:
            return "exists (%s)" % self.select(scope, d)
        if c == 3:
            return "(%s %sin (%s))" % (self.expr(scope, "int", d, agg, win), self.pick(["", "not "]),
                                       self.select(scope, d, ncols=1, kinds=["int"]))
        if c == 4:
            return "(%s %s %s (%s))" % (self.expr(scope, "int", d, agg, win), self.pick(["=", "<", "<>"]),
                                        self.pick(["any", "all", "some"]), self.select(scope, d, ncols=1, kinds=["int"]))
        if c in (5, 6):
            # Rows against rows, and against subqueries of rows, nested alike or differently.
            sh = self.shape(2)
            other = sh if self.chance(0.5) else self.bend(sh)
            lhs = self.row_ctor(scope, d, agg, win, sh)
            if c == 5:
                return "(%s %s %s)" % (lhs, self.pick(["=", "<>", "<", "is distinct from"]),
                                       self.row_ctor(scope, d, agg, win, other))
            rhs = self.row_ctor(None, d, False, False, other)
            sub = "select %s" % rhs if self.chance(0.5) else \
                "select %s from (values (1), (2)) %s(v)" % (rhs, self.alias("r"))
            if self.chance(0.3):
                sub = "select %s" % ", ".join(self.expr(None, "int", 0) for _ in other)
            return "(%s %s %s (%s))" % (lhs, self.pick(["=", "<>", "<"]), self.pick(["any", "all"]), sub) \
                if self.chance(0.6) else "(%s %sin (%s))" % (lhs, self.pick(["", "not "]), sub)
        if c == 7:
            return "(%s is %snull)" % (self.expr(scope, self.any_kind(), d, agg, win), self.pick(["", "not "]))
        if c == 8:
            return "not %s" % self.expr(scope, "bool", d, agg, win)
        if c == 9:
            return "(%s = any (array[%s, %s]))" % (self.expr(scope, "int", d, agg, win), self.lit("int"),
                                                  self.expr(scope, "int", d, agg, win))
        if c == 10:
            return "(%s like %s)" % (self.expr(scope, "text", d, agg, win), self.pick(["'a%'", "'_'", "'%'"]))
        if c == 11:
            return "(%s ~ %s)" % (self.expr(scope, "text", d, agg, win), self.pick(["'^a'", "'(x|y)+'", "'b$'"]))
        if c == 12:
            return "(%s)::bool" % self.expr(scope, self.pick(["int", "text"]), d, agg, win)
        if c == 13:
            return "(%s between %s and %s)" % tuple(self.expr(scope, "int", d, agg, win) for _ in range(3))
        return self.sublink_scalar(scope, "bool", d)

    # ---- FROM items and queries

    def values(self, scope, kinds, nrows):
        rows = []
        for _ in range(nrows):
            rows.append("(%s)" % ", ".join(self.expr(scope, k, 1, agg=False) for k in kinds))
        return "values %s" % ", ".join(rows)

    def from_item(self, scope, d, lateral_scope):
        """One FROM item; adds its columns to scope. lateral_scope: what LATERAL may read."""
        a = self.alias("t")
        c = self.r.randrange(7)
        kinds = [self.pick(["int", "int", "text", "numeric"]) for _ in range(self.r.randint(1, 3))]
        names = ["c%d" % i for i in range(len(kinds))]
        if c <= 1:
            sql = "(%s) %s(%s)" % (self.values(None, kinds, self.r.randint(1, 3)), a, ", ".join(names))
        elif c == 2:
            sql = "generate_series(%s, %s) %s(c0)" % (self.pick(["1", "0", "-1"]), self.pick(["1", "3", "0"]), a)
            kinds, names = ["int"], ["c0"]
        elif c == 3:
            # LATERAL (VALUES ...) reading the earlier items' columns.
            sql = "lateral (%s) %s(%s)" % (self.values(lateral_scope, kinds, self.r.randint(1, 2)), a, ", ".join(names))
        elif c == 4:
            sql = "lateral (%s) %s(%s)" % (self.select(lateral_scope, d - 1, ncols=len(kinds), kinds=kinds), a,
                                          ", ".join(names))
        else:
            sql = "(%s) %s(%s)" % (self.select(scope.outer, d - 1, ncols=len(kinds), kinds=kinds), a, ", ".join(names))
        for n, k in zip(names, kinds):
            scope.cols.append(("%s.%s" % (a, n), k))
        return sql

    def from_clause(self, scope, d):
        items = []
        for i in range(self.r.randint(1, 3)):
            item = self.from_item(scope, d, scope)
            if items and self.chance(0.35):
                j = self.pick(["join", "left join", "cross join", "join"])
                on = "" if j == "cross join" else " on %s" % self.expr(scope, "bool", 1, agg=self.chance(0.1))
                items[-1] = "%s %s %s%s" % (items[-1], j, item, on)
            else:
                items.append(item)
        return " from " + ", ".join(items)

    def select(self, outer, d, ncols=None, kinds=None):
        if d > 0 and self.chance(0.2):
            return self.setop(outer, d, ncols, kinds)
        scope = Scope(outer)
        if ncols is None:
            ncols = self.r.randint(1, 3)
        if kinds is None:
            kinds = [self.any_kind() for _ in range(ncols)]
        sql_from = self.from_clause(scope, d) if d > 0 and self.chance(0.8) else ""
        grouped = self.chance(0.25)
        win = self.chance(0.3)
        targets = [self.expr(scope, k, d, agg=True, win=win) for k in kinds]
        sql = "select %s%s%s" % ("distinct " if self.chance(0.1) else "", ", ".join(targets), sql_from)
        if sql_from and self.chance(0.4):
            sql += " where %s" % self.expr(scope, "bool", d, agg=self.chance(0.1), win=self.chance(0.05))
        if sql_from and grouped:
            keys = [c for c, _ in scope.cols][:2]
            if keys:
                sql += " group by %s" % ", ".join(keys)
            if self.chance(0.4):
                sql += " having %s" % self.expr(scope, "bool", d, agg=True)
        if self.chance(0.25):
            sql += " order by %s" % ", ".join(str(i + 1) for i in range(ncols))
        if self.chance(0.15):
            sql += " limit %s" % self.pick(["1", "0", "2"])
        return sql

    def setop(self, outer, d, ncols, kinds):
        if ncols is None:
            ncols = self.r.randint(1, 2)
        if kinds is None:
            kinds = [self.any_kind() for _ in range(ncols)]
        right = kinds if self.chance(0.8) else [self.any_kind() for _ in range(ncols + self.r.randint(-1, 1) or 1)]
        op = self.pick(["union", "union all", "intersect", "except", "intersect all", "except all"])
        return "(%s) %s (%s)" % (self.select(outer, d - 1, ncols, kinds), op, self.select(outer, d - 1, len(right), right))

    def query(self):
        d = self.r.randint(1, 4)
        return self.select(None, d)


# ------------------------------------------------------------------ running

def sqlstate(res):
    st = res.status
    if st == pq.ExecStatus.TUPLES_OK:
        rows = tuple(tuple(None if res.get_value(r, c) is None else res.get_value(r, c)
                           for c in range(res.nfields)) for r in range(min(res.ntuples, 50)))
        return ("rows", res.ntuples, rows)
    if st == pq.ExecStatus.FATAL_ERROR:
        s = res.error_field(pq.DiagnosticField.SQLSTATE)
        return ("error", s.decode() if s else "?")
    return ("status", str(st))


class Server:
    def __init__(self, name, port):
        self.name, self.port = name, port
        self.conn = None

    def connect(self, wait=5.0):
        t0 = time.monotonic()
        while True:
            c = pq.PGconn.connect(conninfo(self.port))
            if c.status == pq.ConnStatus.OK:
                self.conn = c
                return True
            if time.monotonic() - t0 > wait:
                return False
            time.sleep(0.1)

    def run(self, sql):
        """('ok', signature) | ('lost', message) | ('hang', seconds)."""
        c = self.conn
        try:
            c.send_query(sql.encode())
            deadline = time.monotonic() + HANG_SECONDS
            last = None
            while True:
                while c.is_busy():
                    left = deadline - time.monotonic()
                    if left <= 0:
                        return ("hang", HANG_SECONDS)
                    select.select([c.socket], [], [], min(left, 1.0))
                    c.consume_input()
                r = c.get_result()
                if r is None:
                    break
                last = r
        except Exception as e:   # psycopg's OperationalError: the connection is gone
            return ("lost", str(e))
        if c.status != pq.ConnStatus.OK:
            return ("lost", c.error_message.decode(errors="replace"))
        return ("ok", sqlstate(last) if last is not None else ("none",))


def same_answer(q, se, sp):
    """Whether two answers agree as SQL allows: rows without an ORDER BY at the top come in
    any order, and a LIMIT without an ORDER BY (anywhere) may pick any of the rows."""
    if se == sp:
        return True
    if se[0] != "rows" or sp[0] != "rows" or se[1] != sp[1]:
        return False
    tail = q[q.rfind(")") + 1:]
    ordered = " order by " in tail
    if not ordered and se[1] <= 50 and sorted(se[2], key=repr) == sorted(sp[2], key=repr):
        return True
    return " limit " in q and (not ordered or " limit " not in tail)


def san_reports(d):
    if not d or not os.path.isdir(d):
        return []
    return sorted(os.path.join(d, f) for f in os.listdir(d) if f.startswith("san."))


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--count", type=int, default=0)
    ap.add_argument("--seconds", type=float, default=0)
    ap.add_argument("--out", default="build/fuzz/grammar")
    ap.add_argument("--san", default="", help="a directory whose san.* files are sanitizer reports")
    ap.add_argument("--print", action="store_true", help="only print the queries")
    ap.add_argument("target", type=int, nargs="?")
    ap.add_argument("ref", type=int, nargs="?")
    a = ap.parse_args()
    gen = Gen(random.Random(a.seed))
    if a.print:
        for _ in range(a.count or 20):
            print(gen.query())
        return 0
    if not a.target or not a.ref:
        print("not ok grammar_fuzz: needs the target and the reference port (eddy and PostgreSQL)")
        return 1
    os.makedirs(a.out, exist_ok=True)
    eddy, pg = Server("eddy", a.target), Server("PostgreSQL", a.ref)
    if not eddy.connect() or not pg.connect():
        print("not ok grammar_fuzz: cannot connect")
        return 1
    san_before = set(san_reports(a.san))
    t0 = time.monotonic()
    n = same = state_diffs = value_diffs = 0
    failures = []
    states = {}
    with open(os.path.join(a.out, "diffs.txt"), "w") as diffs, \
            open(os.path.join(a.out, "failures.sql"), "a") as fails:
        while True:
            if a.count and n >= a.count:
                break
            if a.seconds and time.monotonic() - t0 >= a.seconds:
                break
            if not a.count and not a.seconds and n >= 500:
                break
            q = gen.query()
            n += 1
            te = time.monotonic()
            re_ = eddy.run(q)
            dt = time.monotonic() - te
            if re_[0] != "ok" or dt > STATEMENT_TIMEOUT_MS / 1000 + 2:
                what = "crash (connection lost: %s)" % " ".join(re_[1].split()) if re_[0] == "lost" else \
                    "hang (no answer in %d s)" % HANG_SECONDS if re_[0] == "hang" else \
                    "ran %.1f s past a %d ms statement_timeout" % (dt, STATEMENT_TIMEOUT_MS)
                failures.append((n, what, q))
                fails.write("-- seed %d query %d: %s\n%s\n" % (a.seed, n, what, q))
                fails.flush()
                print("not ok grammar_fuzz seed %d query %d: %s" % (a.seed, n, what))
                print("  " + q)
                if re_[0] != "ok" and not eddy.connect(wait=10):
                    print("not ok grammar_fuzz: eddy did not come back; stopping")
                    break
                if len(failures) >= 20:
                    break
                continue
            rp = pg.run(q)
            if rp[0] != "ok":
                pg.connect()
                continue
            se, sp = re_[1], rp[1]
            if same_answer(q, se, sp):
                same += 1
            elif se[0] == "error" or sp[0] == "error":
                state_diffs += 1
                key = (se[1] if se[0] == "error" else "rows", sp[1] if sp[0] == "error" else "rows")
                states[key] = states.get(key, 0) + 1
                diffs.write("-- eddy %s, PostgreSQL %s\n%s\n" % (key[0], key[1], q))
            else:
                value_diffs += 1
                diffs.write("-- different results\n%s\n" % q)
            new = set(san_reports(a.san)) - san_before
            if new:
                failures.append((n, "sanitizer report", q))
                fails.write("-- seed %d query %d: sanitizer report %s\n%s\n" % (a.seed, n, sorted(new), q))
                print("not ok grammar_fuzz seed %d query %d: sanitizer report %s" % (a.seed, n, sorted(new)))
                print("  " + q)
                san_before |= new
    secs = time.monotonic() - t0
    top = sorted(states.items(), key=lambda kv: -kv[1])[:8]
    summary = ("seed %d: %d queries compared in %.0f s, %d agree, %d differ in SQLSTATE, %d in results"
               % (a.seed, n, secs, same, state_diffs, value_diffs))
    if not failures:
        print("ok grammar_fuzz %s" % summary)
    else:
        print("  " + summary)
    if top:
        print("  SQLSTATE differences (eddy, PostgreSQL): " +
              ", ".join("%s/%s x%d" % (k[0], k[1], v) for k, v in top))
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
