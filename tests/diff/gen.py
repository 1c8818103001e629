#!/usr/bin/python3
"""gen.py: seeded differential generator over tables, eddy against PostgreSQL 15.

  gen.py [--seed S] [--queries N] [--rounds R] [--mode adhoc|matview] [--mv-ops LIST]
         [--out FILE] [--label TEXT] EDDY_PORT PG_PORT

From the seed it makes a schema of random tables (int, bigint, numeric, text, bool, date;
NULLs and duplicate rows; some with a PRIMARY KEY), fills them, creates random views (views
over views among them), then writes random queries over them: filters, projections with
expressions, inner/left/right/full/cross joins, GROUP BY with aggregates and HAVING, DISTINCT,
DISTINCT ON, ORDER BY ... LIMIT / OFFSET, UNION / INTERSECT / EXCEPT [ALL], VALUES,
generate_series / unnest, window functions, WITH and WITH RECURSIVE, IN / EXISTS / scalar
subqueries (correlated or not), nested. Every statement runs on both servers, each in its own
schema; answers must agree: column names and type OIDs, rows as a multiset (in order where
the query's ORDER BY fixes it), an error's SQLSTATE, a command's tag. Between rounds a batch
of random INSERT / UPDATE / DELETE runs on both sides.

--mode matview creates each query also as a materialized view on eddy and compares it with
PostgreSQL's ad hoc answer after creation and after every write batch. Only queries whose
operators are all switched on (MV_OPERATORS, or --mv-ops) are tried; a query eddy refuses
with 0A000 (creating or reading the view) is counted as skipped, so the mode covers more as
the engine maintains more.

Prints one "ok"/"not ok" line with the counts; each difference (statement, both answers) is
printed below it and appended to --out. Exit status 1 on any difference."""
import argparse
import os
import random
import sys

from psycopg import pq

import pq_answer

TYPE_OID = {"int": 23, "bigint": 20, "numeric": 1700, "text": 25, "bool": 16, "date": 1082}
NUMERIC = ("int", "bigint", "numeric")

# Operators the engine maintains in a materialized view: a query using one switched off is not
# tried in matview mode. Switch one on when the engine maintains it; queries it still refuses
# with 0A000 are skipped and counted anyway.
MV_OPERATORS = {
    "filter": True, "project": True, "join": True, "cross_join": True, "outer_join": False,
    "reduce": True, "distinct": True, "distinct_on": False, "topk": False, "union": True,
    "intersect": False, "except": False, "values": True, "srf": False, "window": False,
    "cte": True, "recursive": False, "sublink": False, "view": True,
}

TEXTS = ["a", "b", "ab", "B", "", "x y", "abc", "Zed", "a%b"]


def conninfo(port):
    return pq_answer.conninfo(port, connect_timeout=10)


def quote(s):
    return "'" + s.replace("'", "''") + "'"


def using(left, right):
    """A column name both sides have once each, of one type: a USING join's column; None: none."""
    for _, c, t in right:
        ls = [lt for _, lc, lt in left if lc == c]
        rs = [rt for _, rc, rt in right if rc == c]
        if len(ls) == 1 and rs == [t] and ls[0] == t:
            return c
    return None


class Gen:
    """Random schema, data and queries from one seed."""

    def __init__(self, seed):
        self.r = random.Random(seed)
        self.tables = []        # (name, [(col, type)], key col or None)
        self.views = []         # (name, [(col, type)], the operators its query uses)
        self.nalias = 0
        self.features = set()
        self.keys = {}          # table -> key values used
        self.fault_rate = 0.0   # how often an expression is a mistake (queries only)
        self.top_ordered = False

    # ------------------------------------------------------------ values

    def value(self, ty, nulls=0.15, typed=False):
        r = self.r
        if r.random() < nulls:
            return "NULL::%s" % ty if typed else "NULL"
        if ty == "int":
            return str(r.randint(-2, 8))
        if ty == "bigint":
            return str(r.choice([r.randint(-3, 6), r.randint(-3, 3) * 10000000000]))
        if ty == "numeric":
            return "%.2f" % (r.randint(-300, 900) / 100.0)
        if ty == "text":
            return quote(r.choice(TEXTS))
        if ty == "bool":
            return r.choice(["true", "false"])
        return "DATE " + quote("2024-01-%02d" % r.randint(1, 9))

    def alias(self, prefix):
        self.nalias += 1
        return "%s%d" % (prefix, self.nalias)

    # ------------------------------------------------------------ schema

    def schema(self):
        """The statements that create and fill the tables."""
        r = self.r
        out = []
        for i in range(r.randint(2, 4)):
            name = "t%d" % i
            ncols = r.randint(2, 5)
            keyed = r.random() < 0.4
            cols = [("k", "int")] if keyed else []
            for c in range(ncols):
                cols.append(("%s%d" % ("abcdefg"[c], i), r.choice(list(TYPE_OID))))
            decl = []
            for c, ty in cols:
                d = "%s %s" % (c, "numeric(10,2)" if ty == "numeric" else ty)
                if keyed and c == "k":
                    d += " PRIMARY KEY"
                decl.append(d)
            out.append("CREATE TABLE %s (%s)" % (name, ", ".join(decl)))
            self.tables.append((name, cols, "k" if keyed else None))
            self.keys[name] = set()
            out.extend(self.insert(name, r.randint(0, 12)))
        return out

    def insert(self, name, n):
        """INSERTs of n rows (duplicates on purpose where there is no key)."""
        cols, key = self.table(name)
        rows = []
        for _ in range(n):
            row = []
            for c, ty in cols:
                if c == key:
                    k = self.r.randint(0, 40)
                    while k in self.keys[name]:
                        k = self.r.randint(0, 40)
                    self.keys[name].add(k)
                    row.append(str(k))
                else:
                    row.append(self.value(ty))
            rows.append("(%s)" % ", ".join(row))
            if not key and self.r.random() < 0.2:
                rows.append(rows[-1])
        if not rows:
            return []
        return ["INSERT INTO %s VALUES %s" % (name, ", ".join(rows))]

    def table(self, name):
        for t, cols, key in self.tables:
            if t == name:
                return cols, key
        raise KeyError(name)

    def writes(self):
        """A batch of INSERT / UPDATE / DELETE over the tables."""
        r = self.r
        out = []
        for _ in range(r.randint(1, 4)):
            name, cols, key = r.choice(self.tables)
            scope = [(name, c, ty) for c, ty in cols]
            kind = r.random()
            if kind < 0.4:
                out.extend(self.insert(name, r.randint(1, 4)))
            elif kind < 0.7:
                settable = [(c, ty) for c, ty in cols if c != key]
                if not settable:
                    continue
                sets = []
                for c, ty in r.sample(settable, r.randint(1, min(2, len(settable)))):
                    sets.append("%s = %s" % (c, self.expr(scope, ty, 1)))
                out.append("UPDATE %s SET %s WHERE %s" % (name, ", ".join(sets), self.expr(scope, "bool", 1)))
            else:
                out.append("DELETE FROM %s WHERE %s" % (name, self.expr(scope, "bool", 1)))
        return out

    def create_view(self, i):
        """CREATE VIEW of a random query over the tables and the views made before it."""
        self.features = set()
        sql, cols = self.select(self.r.randint(0, 2))
        name = "v%d" % i
        return "CREATE VIEW %s AS %s" % (name, sql), name, cols, set(self.features)

    # ------------------------------------------------------------ expressions

    def cols_of(self, scope, types):
        return [(q, c, ty) for q, c, ty in scope if ty in types]

    def colref(self, scope, ty):
        cands = self.cols_of(scope, (ty,))
        if not cands:
            return None
        q, c, _ = self.r.choice(cands)
        return "%s.%s" % (q, c) if q else c

    def expr(self, scope, ty, depth, subq=True):
        """An expression of type ty over the columns in scope."""
        r = self.r
        if r.random() < self.fault_rate:
            # A mistake, for the errors to be compared (SQLSTATE): unknown names, a type with no
            # such operator or function, and constants that fail when folded.
            return r.choice(["nosuch_col", "f0.nosuch", "(1 / 0)", "'abc'::int", "length(1)", "(true + 1)",
                             "'2024-13-01'::date", "(2147483647 + 1)"])
        ref = self.colref(scope, ty)
        if depth <= 0 or r.random() < 0.35:
            if ref and r.random() < 0.8:
                return ref
            return self.value(ty, 0.1, typed=True)
        d = depth - 1
        e = lambda t: self.expr(scope, t, d, subq)
        pick = r.random()
        if pick < 0.12:
            return "CASE WHEN %s THEN %s ELSE %s END" % (e("bool"), e(ty), e(ty))
        if pick < 0.2:
            return "coalesce(%s, %s)" % (e(ty), self.value(ty, 0))
        if subq and pick < 0.25 and ty != "bool" and self.tables:
            return self.scalar_sub(scope, ty, d)
        if ty == "int":
            return r.choice(["(%s + %s)" % (e("int"), e("int")), "(%s - %s)" % (e("int"), e("int")),
                             "(%s * %d)" % (e("int"), r.randint(-2, 3)), "abs(%s)" % e("int"),
                             "length(%s)" % e("text"), "nullif(%s, %s)" % (e("int"), self.value("int", 0)),
                             "(%s %% nullif(%s, 0))" % (e("int"), e("int")),
                             "(%s / nullif(%s, 0))" % (e("int"), e("int")), "position(%s in %s)" % (e("text"), e("text")),
                             "greatest(%s, %s)" % (e("int"), e("int")), "least(%s, %s)" % (e("int"), e("int")),
                             "sign(%s)::int" % e("int"), "(%s - %s)" % (e("date"), e("date"))])
        if ty == "bigint":
            return r.choice(["(%s + %s)" % (e("bigint"), e("int")), "(%s)::bigint" % e("int"),
                             "(%s * 2)" % e("bigint")])
        if ty == "numeric":
            return r.choice(["(%s + %s)" % (e("numeric"), e("numeric")), "(%s * 1.5)" % e("int"),
                             "round(%s, 1)" % e("numeric"), "(%s / nullif(%s, 0))" % (e("numeric"), e("int")),
                             "abs(%s)" % e("numeric"), "(%s)::numeric" % e("bigint"),
                             "trunc(%s)" % e("numeric"), "ceil(%s)" % e("numeric"), "floor(%s)" % e("numeric"),
                             "mod(%s, 3)" % e("numeric"), "(%s - %s)" % (e("numeric"), e("int")),
                             "(%s)::numeric(6,1)" % e("numeric")])
        if ty == "text":
            return r.choice(["upper(%s)" % e("text"), "lower(%s)" % e("text"), "(%s || %s)" % (e("text"), e("text")),
                             "substr(%s, 1, 2)" % e("text"), "(%s)::text" % e("int"),
                             "coalesce(%s, 'none')" % e("text"), "replace(%s, 'a', 'Q')" % e("text"),
                             "trim(%s)" % e("text"), "concat(%s, '-', %s)" % (e("text"), e("int")),
                             "(%s)::text" % e("date"), "(%s)::text" % e("numeric"), "(%s)::text" % e("bool"),
                             "lpad(%s, 4, '*')" % e("text"), "left(%s, 1)" % e("text")])
        if ty == "date":
            return r.choice(["(%s + %s)" % (e("date"), e("int")), "(%s - 1)" % e("date"),
                             "greatest(%s, %s)" % (e("date"), e("date"))])
        return "(%s)" % self.predicate(scope, d, subq)

    def predicate(self, scope, depth, subq=True):
        r = self.r
        e = lambda t: self.expr(scope, t, depth, subq)
        pick = r.random()
        if pick < 0.3:
            ty = r.choice(list(TYPE_OID))
            return "%s %s %s" % (e(ty), r.choice(["=", "<>", "<", "<=", ">", ">="]), e(ty))
        if pick < 0.4:
            return "%s IS %sNULL" % (e(r.choice(list(TYPE_OID))), r.choice(["", "NOT "]))
        if pick < 0.5:
            return "(%s %s %s)" % (e("bool"), r.choice(["AND", "OR"]), e("bool"))
        if pick < 0.55:
            return "NOT %s" % e("bool")
        if pick < 0.6:
            return "%s BETWEEN %s AND %s" % (e("int"), self.value("int", 0), self.value("int", 0))
        if pick < 0.65:
            ty = r.choice(["int", "text"])
            return "%s IN (%s)" % (e(ty), ", ".join(self.value(ty, 0.1) for _ in range(r.randint(1, 3))))
        if pick < 0.7:
            return "%s LIKE %s" % (e("text"), quote(r.choice(["a%", "%b", "_", "%", "a\\%b"])))
        if pick < 0.75:
            ty = r.choice(list(TYPE_OID))
            return "%s IS DISTINCT FROM %s" % (e(ty), e(ty))
        if pick < 0.78:
            a, b = r.sample(NUMERIC, 2)
            return "%s %s %s" % (e(a), r.choice(["=", "<", ">="]), e(b))
        if subq and pick < 0.9 and self.tables:
            return self.sublink_pred(scope, depth)
        ref = self.colref(scope, "bool")
        return ref or r.choice(["true", "false"])

    def scalar_sub(self, scope, ty, depth):
        """(SELECT agg(x) FROM t WHERE correlation): one row always."""
        self.features.add("sublink")
        name, cols, _ = self.r.choice(self.tables)
        a = self.alias("s")
        inner = [(a, c, t) for c, t in cols]
        agg = "max" if ty != "bigint" else "count"
        arg = self.colref(inner, ty) if agg == "max" else "*"
        if arg is None:
            return self.value(ty, 0)
        where = self.correlation(inner, scope, depth)
        return "(SELECT %s(%s) FROM %s AS %s%s)" % (agg, arg, name, a, where)

    def correlation(self, inner, outer, depth):
        r = self.r
        if r.random() < 0.6:
            for ty in r.sample(list(TYPE_OID), len(TYPE_OID)):
                i, o = self.colref(inner, ty), self.colref(outer, ty)
                if i and o:
                    return " WHERE %s = %s" % (i, o)
        if r.random() < 0.5:
            return " WHERE " + self.predicate(inner, depth, False)
        return ""

    def sublink_pred(self, scope, depth):
        self.features.add("sublink")
        r = self.r
        name, cols, _ = r.choice(self.tables)
        a = self.alias("s")
        inner = [(a, c, t) for c, t in cols]
        if r.random() < 0.5:
            return "%sEXISTS (SELECT 1 FROM %s AS %s%s)" % (r.choice(["", "NOT "]), name, a,
                                                             self.correlation(inner, scope, depth))
        ty = r.choice([t for _, _, t in inner])
        if r.random() < 0.3:
            return "%s %s %s (SELECT %s FROM %s AS %s%s)" % (self.expr(scope, ty, depth, False),
                                                             r.choice(["=", "<>", "<", ">="]), r.choice(["ANY", "ALL"]),
                                                             self.colref(inner, ty), name, a,
                                                             self.correlation(inner, scope, depth))
        return "%s %sIN (SELECT %s FROM %s AS %s%s)" % (self.expr(scope, ty, depth, False), r.choice(["", "NOT "]),
                                                        self.colref(inner, ty), name, a,
                                                        self.correlation(inner, scope, depth))

    def aggregate(self, scope, ty):
        """An aggregate call yielding ty, or None."""
        r = self.r
        opts = []
        if ty == "bigint":
            opts = ["count(*)"]
            t = r.choice(list(TYPE_OID))
            ref = self.colref(scope, t)
            if ref:
                opts += ["count(%s)" % ref, "count(DISTINCT %s)" % ref]
            ref = self.colref(scope, "int")
            if ref:
                opts.append("sum(%s)" % ref)
        elif ty == "numeric":
            for t in NUMERIC:
                ref = self.colref(scope, t)
                if ref:
                    opts.append("avg(%s)" % ref)
                    if t != "int":
                        opts.append("sum(%s)" % ref)
        elif ty == "text":
            ref = self.colref(scope, "text")
            if ref:
                opts += ["min(%s)" % ref, "max(%s)" % ref, "string_agg(%s, ',' ORDER BY %s)" % (ref, ref)]
        elif ty == "bool":
            ref = self.colref(scope, "bool")
            if ref:
                opts += ["bool_and(%s)" % ref, "bool_or(%s)" % ref]
        else:
            ref = self.colref(scope, ty)
            if ref:
                opts += ["min(%s)" % ref, "max(%s)" % ref]
        if not opts:
            return None
        a = r.choice(opts)
        if r.random() < 0.15:
            a += " FILTER (WHERE %s)" % self.predicate(scope, 1, False)
        return a

    def window(self, scope):
        r = self.r
        self.features.add("window")
        parts = []
        if r.random() < 0.6:
            parts.append("PARTITION BY %s" % self.colref(scope, r.choice([t for _, _, t in scope])))
        order = self.colref(scope, r.choice([t for _, _, t in scope]))
        fn = r.choice(["rank()", "dense_rank()", "count(*)", "sum", "min", "max"])
        if fn in ("sum", "min", "max"):
            ref = self.colref(scope, "int")
            if not ref:
                fn, ref = "count(*)", None
            else:
                fn = "%s(%s)" % (fn, ref)
        ty = "int" if fn.startswith(("min", "max")) else "bigint"
        if fn.startswith("rank") or fn.startswith("dense") or r.random() < 0.6:
            parts.append("ORDER BY %s" % order)
        return "%s OVER (%s)" % (fn, " ".join(parts)), ty

    # ------------------------------------------------------------ FROM

    def from_item(self, depth, ctes):
        """A FROM item: (text, alias, [(col, type)])."""
        r = self.r
        pick = r.random()
        a = self.alias("f")
        if ctes and pick < 0.2:
            name, cols = r.choice(ctes)
            return "%s AS %s" % (name, a), a, cols
        if depth > 0 and pick < 0.32:
            sql, cols = self.select(depth - 1)
            return "(%s) AS %s" % (sql, a), a, cols
        if pick < 0.38:
            self.features.add("values")
            types = [r.choice(list(TYPE_OID)) for _ in range(r.randint(1, 3))]
            rows = []
            for i in range(r.randint(1, 4)):
                rows.append("(%s)" % ", ".join(self.value(t, 0 if i == 0 else 0.2) for t in types))
            cols = [("c%d" % i, t) for i, t in enumerate(types)]
            return ("(VALUES %s) AS %s(%s)" % (", ".join(rows), a, ", ".join(c for c, _ in cols)), a, cols)
        if pick < 0.43:
            self.features.add("srf")
            if r.random() < 0.5:
                return "generate_series(%d, %d) AS %s(x)" % (r.randint(-1, 2), r.randint(0, 5), a), a, [("x", "int")]
            vals = ", ".join(self.value("int", 0.2) for _ in range(r.randint(1, 4)))
            return "unnest(ARRAY[%s]::int[]) AS %s(x)" % (vals, a), a, [("x", "int")]
        if self.views and pick < 0.6:
            name, cols, used = r.choice(self.views)
            self.features |= used | {"view"}
            return "%s AS %s" % (name, a), a, cols
        name, cols, _ = r.choice(self.tables)
        return "%s AS %s" % (name, a), a, cols

    def from_clause(self, depth, ctes):
        """FROM with joins: (text, scope)."""
        r = self.r
        text, a, cols = self.from_item(depth, ctes)
        scope = [(a, c, t) for c, t in cols]
        njoins = r.choice([0, 0, 1, 1, 2])
        for j in range(njoins):
            t2, a2, cols2 = self.from_item(depth, ctes)
            right = [(a2, c, t) for c, t in cols2]
            # A comma binds looser than JOIN: only the last item may follow one.
            kinds = ["JOIN", "LEFT JOIN", "RIGHT JOIN", "FULL JOIN", "CROSS JOIN"] + ([","] if j == njoins - 1 else [])
            kind = r.choice(kinds)
            on = None
            if kind not in ("CROSS JOIN", ","):
                for ty in r.sample(list(TYPE_OID), len(TYPE_OID)):
                    x, y = self.colref(scope, ty), self.colref(right, ty)
                    if x and y:
                        on = "%s = %s" % (x, y)
                        break
                if on is None:
                    kind = "CROSS JOIN"
                elif kind != "FULL JOIN" and r.random() < 0.3:
                    on += " AND " + self.predicate(scope + right, 1, False)
            self.features.add({"JOIN": "join", "CROSS JOIN": "cross_join", ",": "cross_join"}.get(kind, "outer_join"))
            if kind == ",":
                text = "%s, %s" % (text, t2)
            elif on and r.random() < 0.3 and using(scope, right):
                text = "%s %s %s USING (%s)" % (text, kind, t2, using(scope, right))
            else:
                text = "%s %s %s%s" % (text, kind, t2, " ON " + on if on else "")
            scope = scope + right
        return text, scope

    # ------------------------------------------------------------ queries

    def select(self, depth, types=None, ctes=None, top=False):
        """A query: (sql, [(col, type)]). types: the output column types wanted (set operations)."""
        r = self.r
        ctes = list(ctes or [])
        with_sql = ""
        if types is None and depth > 0 and r.random() < 0.15:
            self.features.add("cte")
            items = []
            if r.random() < 0.4:
                self.features.add("recursive")
                name = self.alias("r")
                lim = r.randint(0, 5)
                items.append("%s(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM %s WHERE n < %d)" % (name, name, lim))
                ctes.append((name, [("n", "int")]))
                head = "WITH RECURSIVE "
            else:
                head = "WITH "
            name = self.alias("w")
            sql, cols = self.select(depth - 1, ctes=ctes)
            items.append("%s AS (%s)" % (name, sql))
            ctes.append((name, cols))
            with_sql = head + ", ".join(items) + " "
        if types is None and depth > 0 and r.random() < 0.15:
            sql, cols = self.select(depth - 1, ctes=ctes)
            op = r.choice(["UNION", "UNION ALL", "INTERSECT", "INTERSECT ALL", "EXCEPT", "EXCEPT ALL"])
            self.features.add(op.split()[0].lower())
            rsql, _ = self.select(depth - 1, types=[t for _, t in cols], ctes=ctes)
            return with_sql + "(%s) %s (%s)" % (sql, op, rsql), cols
        from_sql, scope = self.from_clause(depth, ctes)
        where = ""
        if r.random() < 0.5:
            self.features.add("filter")
            where = " WHERE " + self.predicate(scope, 2, depth > 0)
        items = []
        group = ""
        having = ""
        grouped = types is None and r.random() < 0.3
        if grouped:
            self.features.add("reduce")
            keys = [self.colref(scope, r.choice([t for _, _, t in scope])) for _ in range(r.randint(0, 2))]
            keys = list(dict.fromkeys(keys))
            for k in keys:
                ty = next(t for q, c, t in scope if "%s.%s" % (q, c) == k)
                items.append((k, ty))
            for _ in range(r.randint(1, 3)):
                ty = r.choice(list(TYPE_OID))
                a = self.aggregate(scope, ty)
                if a:
                    items.append((a, ty))
            if not items:
                items.append(("count(*)", "bigint"))
            if keys:
                group = " GROUP BY " + ", ".join(keys)
            if r.random() < 0.3:
                having = " HAVING count(*) %s %d" % (r.choice([">", ">=", "<"]), r.randint(0, 3))
        else:
            self.features.add("project")
            want = types or [r.choice(list(TYPE_OID)) for _ in range(r.randint(1, 4))]
            for ty in want:
                if types is None and r.random() < 0.1 and scope:
                    w, wty = self.window(scope)
                    items.append((w, wty))
                else:
                    items.append((self.expr(scope, ty, 2, depth > 0), ty))
        distinct = ""
        order = ""
        pick = r.random()
        n = len(items)
        if pick < 0.12:
            self.features.add("distinct")
            distinct = "DISTINCT "
        elif pick < 0.17 and not grouped:
            self.features.add("distinct_on")
            distinct = "DISTINCT ON (1) "
            order = " ORDER BY " + ", ".join(str(i + 1) for i in range(n))
        if (top or r.random() < 0.15) and not order:
            order = " ORDER BY " + ", ".join(str(i + 1) for i in range(n))
        if top:
            self.top_ordered = bool(order)
        if order and r.random() < 0.4:
            self.features.add("topk")
            order += " LIMIT %d" % r.randint(0, 4)
            if r.random() < 0.4:
                order += " OFFSET %d" % r.randint(0, 2)
        names = ["c%d" % i for i in range(n)]
        if top and r.random() < 0.3 and not types:
            sel = ", ".join(e for e, _ in items)   # PostgreSQL's names for them (FigureColname)
        else:
            sel = ", ".join("%s AS %s" % (e, c) for (e, _), c in zip(items, names))
        sql = "%sSELECT %s%s FROM %s%s%s%s%s" % (with_sql, distinct, sel, from_sql, where, group, having, order)
        return sql, [(c, t) for c, (_, t) in zip(names, items)]

    def query(self):
        """A top-level query, the operators it uses, and whether its order is fixed."""
        self.features = set()
        self.top_ordered = False
        self.fault_rate = 0.004
        sql, _ = self.select(self.r.choice([0, 1, 1, 1, 2, 2, 3]), top=self.r.random() < 0.3)
        self.fault_rate = 0.0
        return sql, set(self.features), self.top_ordered


# ------------------------------------------------------------ running and comparing

def answer(conn, sql):
    a = pq_answer.answer(conn, sql)
    if os.environ.get("GEN_TRACE") and a[0] == "error":
        sys.stderr.write("%s %s\n" % (a[1], a[2]))
    return a


def same(a, b, ordered):
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return a[1] == b[1]
    if a[0] == "rows":
        if a[1] != b[1]:
            return False
        if ordered:
            return a[2] == b[2]
        return sorted(a[2], key=pq_answer.row_key) == sorted(b[2], key=pq_answer.row_key)
    return a == b


def short(a):
    if a[0] == "rows":
        return "%s %d rows %r" % (a[1], len(a[2]), sorted(a[2], key=pq_answer.row_key)[:8])
    return repr(a)


class Run:
    def __init__(self, args):
        self.args = args
        self.conns = []
        for port in (args.eddy_port, args.pg_port):
            c = pq.PGconn.connect(conninfo(port))
            if c.status != pq.ConnStatus.OK:
                raise SystemExit("not ok gen %s: cannot connect to port %d: %s" %
                                 (args.label, port, c.error_message.decode()))
            self.conns.append(c)
        self.compared = self.errors = self.nonempty = self.skipped = self.mv_compared = self.mv_skipped = 0
        self.diffs = []

    def both(self, sql, ordered=False, count=True):
        e, p = (answer(c, sql) for c in self.conns)
        for c in self.conns:
            if c.status != pq.ConnStatus.OK:
                self.diffs.append("connection lost after: %s" % sql)
                raise SystemExit(self.finish())
        if count:
            self.compared += 1
            self.errors += p[0] == "error"
            self.nonempty += p[0] == "rows" and len(p[2]) > 0
        if not same(e, p, ordered):
            self.diffs.append("%s\n    eddy       %s\n    PostgreSQL %s" % (sql, short(e), short(p)))
        return e, p

    def finish(self):
        a = self.args
        counts = "%d statements compared (%d with rows, %d errors), %d differ" % (
            self.compared, self.nonempty, self.errors, len(self.diffs))
        if a.mode == "matview":
            counts += "; materialized views: %d compared, %d skipped" % (self.mv_compared, self.mv_skipped)
        print("%s gen %s seed=%d: %s" % ("not ok" if self.diffs else "ok", a.label, a.seed, counts))
        for d in self.diffs[:20]:
            print("  " + d.replace("\n", "\n  "))
        if a.out and self.diffs:
            with open(a.out, "a", encoding="utf-8") as f:
                for d in self.diffs:
                    f.write("-- seed %d (%s)\n%s\n\n" % (a.seed, a.label, d))
        for c in self.conns:
            c.finish()
        return 1 if self.diffs else 0


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("eddy_port", type=int)
    ap.add_argument("pg_port", type=int)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--rounds", type=int, default=2)
    ap.add_argument("--mode", choices=["adhoc", "matview"], default="adhoc")
    ap.add_argument("--mv-ops", default="", help="'all', or operators to switch on, comma separated")
    ap.add_argument("--out", default="")
    ap.add_argument("--label", default="")
    args = ap.parse_args()
    if args.mv_ops == "all":
        for k in MV_OPERATORS:
            MV_OPERATORS[k] = True
    elif args.mv_ops:
        for k in args.mv_ops.split(","):
            MV_OPERATORS[k] = True
    run = Run(args)
    g = Gen(args.seed)
    sch = "gen_%s_%d" % ("".join(ch for ch in args.label if ch.isalnum()) or "x", args.seed)
    for sql in ("DROP SCHEMA IF EXISTS %s CASCADE" % sch, "CREATE SCHEMA %s" % sch, "SET search_path = %s" % sch):
        run.both(sql, count=False)
    for c in run.conns:
        answer(c, "SET statement_timeout = '20s'")
    for sql in g.schema():
        run.both(sql)
    for i in range(g.r.randint(1, 4)):
        sql, name, cols, used = g.create_view(i)
        e, p = run.both(sql)
        if e[0] == p[0] == "command":
            g.views.append((name, cols, used))
    mvs = []   # (name, query) live in eddy
    per_round = max(1, args.queries // max(1, args.rounds))
    for rnd in range(args.rounds):
        for i in range(per_round):
            sql, features, ordered = g.query()
            e, p = run.both(sql, ordered)
            if args.mode == "matview" and p[0] == "rows":
                if not all(MV_OPERATORS.get(f, False) for f in features):
                    run.mv_skipped += 1
                    continue
                name = "mv_%d_%d" % (rnd, i)
                made = answer(run.conns[0], "CREATE MATERIALIZED VIEW %s AS %s" % (name, sql))
                if made[0] == "error" and made[1] == "0A000":
                    run.mv_skipped += 1
                    continue
                if made[0] != "command":
                    run.diffs.append("CREATE MATERIALIZED VIEW %s AS %s\n    eddy       %s\n    PostgreSQL "
                                     "creates it" % (name, sql, short(made)))
                    continue
                mvs.append((name, sql))
        if args.mode == "matview":
            check_views(run, mvs)
        for sql in g.writes():
            run.both(sql)
    if args.mode == "matview":
        check_views(run, mvs)
    run.both("DROP SCHEMA %s CASCADE" % sch, count=False)
    return run.finish()


def check_views(run, mvs):
    """Each live materialized view on eddy against the same query on PostgreSQL, now."""
    keep = []
    for name, sql in mvs:
        e = answer(run.conns[0], "SELECT * FROM %s" % name)
        if e[0] == "error" and e[1] == "0A000":
            run.mv_skipped += 1
            continue
        p = answer(run.conns[1], sql)
        run.mv_compared += 1
        if not same(e, p, False):
            run.diffs.append("materialized view %s AS %s\n    eddy       %s\n    PostgreSQL %s" %
                             (name, sql, short(e), short(p)))
        keep.append((name, sql))
    mvs[:] = keep


if __name__ == "__main__":
    sys.exit(main())
