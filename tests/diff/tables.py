#!/usr/bin/python3
"""tables.py: the queries of a tests/diff/*.sql file over constants, run again over tables.

  tables.py EDDY_PORT PG_PORT FILE.sql

Every query line whose FROM reads `(VALUES ...) [AS] name[(cols)]` is rewritten to read a
table holding the same rows instead: the table's columns are named and typed as PostgreSQL
resolves the VALUES (CREATE TABLE AS there, then pg_attribute), it is created and filled
(INSERT ... SELECT of the same VALUES) on both servers, and the rewritten query runs on both.
The answers must agree (names, type OIDs, rows as a multiset, or the SQLSTATE). With diff.py
(eddy over constants against PostgreSQL) this makes three oracles for each such query:
PostgreSQL, eddy's executor over constants and eddy's executor over tables; and where eddy's
CREATE MATERIALIZED VIEW takes the query, the dataflow too: the view is made while its tables
are empty, compared after the INSERTs fill them and again after DELETEs empty them (refusals
are counted by reason).

Lines left alone, as their answer over a table is not determined by the rows or they do not
run over a table: those with LIMIT / OFFSET / FETCH or order-dependent functions, volatile
functions, VALUES that read outer columns (LATERAL), and columns of pseudo-types. One
"ok"/"not ok" line per query rewritten, then a count."""
import os
import re
import sys

from psycopg import pq

from pq_answer import answer, conninfo, row_key

SKIP = re.compile(r"\b(limit|offset|fetch|row_number|lag|lead|first_value|last_value|nth_value|"
                  r"array_agg|string_agg|json_agg|jsonb_agg|json_object_agg|jsonb_object_agg|xmlagg|"
                  r"random|now|clock_timestamp|statement_timestamp|timeofday|nextval|setseed|"
                  r"pg_sleep|current_|lateral|ntile|percent_rank|cume_dist|distinct\s+on)\b", re.I)
IDENT = re.compile(r'\s*(?:AS\s+)?((?:"[^"]+"|[A-Za-z_][A-Za-z0-9_$]*))', re.I)


def same(a, b):
    if a[0] != b[0]:
        return False
    if a[0] == "error":
        return a[1] == b[1]
    if a[0] == "rows":
        return a[1] == b[1] and sorted(a[2], key=row_key) == sorted(b[2], key=row_key)
    return a == b


def same_unnamed(a, b):
    """same() with the column names left out (the view names its columns c1..cN)."""
    if a[0] == "rows" and b[0] == "rows":
        return same(("rows", [t for _, t in a[1]], a[2]), ("rows", [t for _, t in b[1]], b[2]))
    return same(a, b)


def report(ok, label, sql, a, b):
    """Prints the ok / not ok line; 1 if it differs."""
    if ok:
        print("ok " + label)
        return 0
    print("not ok " + label)
    print("  " + sql)
    print("  eddy       %r" % (a if a[0] != "rows" else (a[1], sorted(a[2], key=row_key)[:10])))
    print("  PostgreSQL %r" % (b if b[0] != "rows" else (b[1], sorted(b[2], key=row_key)[:10])))
    return 1


def closing(sql, i):
    """The index of the parenthesis closing the one at i (quotes skipped), or -1."""
    depth = 0
    k = i
    while k < len(sql):
        ch = sql[k]
        if ch == "'":
            k = sql.find("'", k + 1)
            while k >= 0 and k + 1 < len(sql) and sql[k + 1] == "'":
                k = sql.find("'", k + 2)
            if k < 0:
                return -1
        elif ch == '"':
            k = sql.find('"', k + 1)
            if k < 0:
                return -1
        elif ch == "(":
            depth += 1
        elif ch == ")":
            depth -= 1
            if depth == 0:
                return k
        k += 1
    return -1


def occurrences(sql):
    """Each FROM item (VALUES ...) alias[(cols)]: (start, end, values text, alias text)."""
    out = []
    for m in re.finditer(r"\(\s*VALUES\b", sql, re.I):
        start = m.start()
        end = closing(sql, start)
        if end < 0:
            continue
        before = sql[:start].rstrip()
        if not re.search(r"(\bFROM|\bJOIN|,)$", before, re.I):
            continue   # IN (VALUES ...), a sublink or a set operation's arm: not a FROM item
        a = IDENT.match(sql, end + 1)
        if not a or a.group(1).upper() in ("ON", "WHERE", "JOIN", "CROSS", "LEFT", "RIGHT", "FULL", "INNER",
                                            "NATURAL", "GROUP", "ORDER", "UNION", "EXCEPT", "INTERSECT",
                                            "HAVING", "WINDOW", "USING"):
            continue
        stop = a.end()
        rest = sql[stop:]
        if rest.lstrip().startswith("("):
            p = stop + (len(rest) - len(rest.lstrip()))
            q = closing(sql, p)
            if q < 0:
                continue
            stop = q + 1
        out.append((start, stop, sql[start:end + 1], sql[end + 1:stop].strip()))
    return out


def main():
    tport, rport, path = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]
    conns = [pq.PGconn.connect(conninfo(p)) for p in (tport, rport)]
    for c in conns:
        if c.status != pq.ConnStatus.OK:
            print("not ok tables %s: cannot connect: %s" % (path, c.error_message.decode()))
            return 1
    eddy, pg = conns
    base = os.path.basename(path)
    sch = "tbl_" + re.sub(r"\W", "_", base[:-4])
    for c in conns:
        answer(c, "DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        answer(c, "CREATE SCHEMA %s" % sch)
    with open(path, encoding="utf-8") as f:
        lines = [(i + 1, l.rstrip("\n")) for i, l in enumerate(f)]
    ntab = compared = skipped = failed = nview = views = refused = 0
    reasons = {}
    for n, sql in lines:
        head = sql.lstrip().split(None, 1)[0].upper() if sql.strip() else ""
        if head not in ("SELECT", "WITH") or SKIP.search(sql):
            continue
        occ = occurrences(sql)
        if not occ:
            continue
        # Settings a file's earlier lines made (SET) apply to its constant queries; here only defaults.
        new = sql
        ok = True
        fills = []
        for start, stop, values, alias in reversed(occ):
            ntab += 1
            t = "%s.t%d" % (sch, ntab)
            made = answer(pg, "CREATE TABLE %s AS SELECT * FROM %s %s" % (t, values, alias))
            if made[0] != "command":
                ok = False
                break
            cols = answer(pg, "SELECT quote_ident(attname), format_type(atttypid, atttypmod) FROM pg_attribute "
                              "WHERE attrelid = '%s'::regclass AND attnum > 0 ORDER BY attnum" % t)
            answer(pg, "DROP TABLE %s" % t)
            if cols[0] != "rows" or not cols[2] or any(ty in ("unknown", "record") or ty.startswith("any")
                                                        for _, ty in cols[2]):
                ok = False
                break
            decl = ", ".join("%s %s" % (c, ty) for c, ty in cols[2])
            for c in conns:
                r1 = answer(c, "CREATE TABLE %s (%s)" % (t, decl))
                if r1[0] != "command":
                    ok = False
                    if c is eddy:
                        print("not ok %s:%d cannot make a table for the rows of %s: %r" % (base, n, values[:60], r1))
                        failed += 1
            if not ok:
                break
            fills.append((t, values, alias))
            new = new[:start] + "%s AS %s" % (t, re.sub(r"^AS\s+", "", alias, flags=re.I)) + new[stop:]
        if not ok:
            skipped += 1
            continue
        # The third oracle's view leg: the same query as a materialized view on eddy, made while
        # its tables are empty, so that the rows reach it as changes (the INSERTs), and checked
        # again once the rows are deleted (the retractions).
        nview += 1
        mv = "%s.mv%d" % (sch, nview)
        # Columns named c1..cN: a query may name two columns alike, which a view cannot.
        shape = answer(pg, new)
        names = "(%s)" % ", ".join("c%d" % (i + 1) for i in range(len(shape[1]))) if shape[0] == "rows" else ""
        made = answer(eddy, "CREATE MATERIALIZED VIEW %s %s AS %s" % (mv, names, new))
        maintained = made[0] == "command"
        if not maintained:
            refused += 1
            why = made[2] if made[0] == "error" else str(made)
            reasons[why] = reasons.get(why, 0) + 1
        for t, values, alias in fills:
            for c in conns:
                r = answer(c, "INSERT INTO %s SELECT * FROM %s %s" % (t, values, alias))
                if r[0] != "command":
                    ok = False
                    if c is eddy:
                        print("not ok %s:%d cannot hold the rows of %s in a table: %r" % (base, n, values[:60], r))
                        failed += 1
        if not ok:
            skipped += 1
            continue
        compared += 1
        a, b = answer(eddy, new), answer(pg, new)
        failed += report(same(a, b), "%s:%d over tables %s" % (base, n, sql[:50]), new, a, b)
        if maintained:
            views += 1
            v = answer(eddy, "SELECT * FROM %s" % mv)
            failed += report(same_unnamed(v, b), "%s:%d as a view %s" % (base, n, sql[:50]), new, v, b)
            for t, _, _ in fills:
                for c in conns:
                    answer(c, "DELETE FROM %s" % t)
            v, b = answer(eddy, "SELECT * FROM %s" % mv), answer(pg, new)
            failed += report(same_unnamed(v, b), "%s:%d as a view, rows deleted %s" % (base, n, sql[:50]), new, v, b)
    for c in conns:
        answer(c, "DROP SCHEMA IF EXISTS %s CASCADE" % sch)
        c.finish()
    print("# tables %s: %d queries over tables compared, %d not rewritable; %d also as materialized views "
          "(%d refused by CREATE MATERIALIZED VIEW); %d differ" % (base, compared, skipped, views, refused, failed))
    for why, k in sorted(reasons.items(), key=lambda x: -x[1]):
        print("#   refused %d: %s" % (k, why))
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
