#!/usr/bin/python3
"""make_seeds.py: writes the seed corpora under tests/fuzz/corpus/ (committed).

codec/: a startup packet followed by typed messages: every frontend message
type, well-formed and broken (bad lengths, truncated, missing NULs).
parser/: every query of tests/diff/queries.sql and a few extra statements."""
import hashlib
import os
import struct
import sys

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "wire"))
from pgw import (Bind, Close, Describe, Execute, Flush, Parse, Query, Sync, Terminate,  # noqa: E402
                 cancel_request, frame, gss_request, ssl_request, startup)

HERE = os.path.dirname(os.path.abspath(__file__))


def write(target, data):
    d = os.path.join(HERE, "corpus", target)
    os.makedirs(d, exist_ok=True)
    name = "seed-" + hashlib.sha1(data).hexdigest()[:16]
    with open(os.path.join(d, name), "wb") as f:
        f.write(data)


def codec_seeds():
    s = startup({"user": "u", "database": "d", "application_name": "fuzz"})
    msgs = [
        Query("SELECT 1"), Query(""), Parse("SELECT $1::int4", "s", (23,)),
        Bind("s", "p", ["42", None, b"\x00\x01"], (0, 1, 1), (1,)), Describe("S", "s"),
        Describe("P", "p"), Execute("p", 10), Close("S", "s"), Close("P", ""), Flush(), Sync(),
        Terminate(), frame("p", b"secret\0"),
        frame("p", b"SCRAM-SHA-256\0" + struct.pack("!i", 9) + b"n,,n=,r=x"),
        frame("p", b"SCRAM-SHA-256\0" + struct.pack("!i", -1)),
        frame("d", b"1\t2\n"), frame("c"), frame("f", b"oops\0"),
        frame("F", struct.pack("!ihhh", 1, 0, 0, 0)),
    ]
    for m in msgs:
        write("codec", s + m)
    write("codec", s + b"".join(msgs))
    write("codec", ssl_request() + gss_request() + s + Query("SELECT 2"))
    write("codec", cancel_request(1234, 5678))
    write("codec", struct.pack("!ii", 8, 196608))
    write("codec", s[:-1])                                   # no final NUL
    write("codec", struct.pack("!i", 10005) + b"\0" * 8)    # startup over the limit
    write("codec", s + b"Q" + struct.pack("!i", 3))          # length below 4
    write("codec", s + b"Q" + struct.pack("!i", 0x7fffffff) + b"SELECT")
    write("codec", s + b"S" + struct.pack("!i", 20000))      # small message over its limit
    write("codec", s + frame("Q", b"no terminator"))
    write("codec", s + frame("P", b"s\0SELECT 1\0" + struct.pack("!h", 5) + b"\0\0"))
    write("codec", s + frame("B", b"\0\0" + struct.pack("!hh", 1, 0) + struct.pack("!h", 2) +
                              struct.pack("!i", 100) + b"x"))
    write("codec", s + frame("B", b"\0\0" + struct.pack("!h", -1) + struct.pack("!h", -1)))
    write("codec", s + frame("D", b"X\0") + frame("C", b"Q"))
    write("codec", s + frame("E", b"p\0" + struct.pack("!i", -5)))
    write("codec", s + frame("@", b"junk"))
    write("codec", struct.pack("!i", 0x0A000000 | 8) + struct.pack("!i", 0x00020000))
    write("codec", s + (Parse("SELECT 1") + Bind() + Execute()) * 20 + Sync())


def parser_seeds():
    q = os.path.join(HERE, "..", "diff", "queries.sql")
    with open(q, encoding="utf-8") as f:
        for line in f:
            line = line.rstrip("\n")
            if line and not line.startswith("--"):
                write("parser", line.encode())
    extra = [
        "SELECT a.b, c.* FROM t AS a JOIN u c ON a.id = c.id LEFT JOIN v USING (x) WHERE a.b > 1 GROUP BY 1 HAVING count(*) > 2 ORDER BY 2 DESC NULLS FIRST LIMIT 10 OFFSET 5",
        "WITH x AS (SELECT 1 AS a) SELECT * FROM x WHERE a IN (SELECT 1) AND EXISTS (SELECT 1)",
        "BEGIN; SET LOCAL TimeZone = 'UTC'; COMMIT AND CHAIN; ROLLBACK",
        "START TRANSACTION ISOLATION LEVEL SERIALIZABLE, READ ONLY",
        "SHOW ALL; RESET ALL; DISCARD ALL; SET SESSION CHARACTERISTICS AS TRANSACTION READ WRITE",
        "SELECT $1::int4[], $2::numeric(10,2), interval '1' day to second, x::double precision",
        "SELECT U&'d\\0061t\\+000061' UESCAPE '\\', E'\\xZZ', B'0101', X'1f'",
        "SELECT ((((((((((1))))))))))", "SELECT " + "-" * 200 + "1", "SELECT 'unterminated",
        "SELECT /* nested /* comment */ */ 1", "SELECT \"quoted \"\"ident\"\"\" FROM \"T\"",
        "CREATE MATERIALIZED VIEW v AS SELECT 1", "CREATE SOURCE s FROM FILE '/x' FORMAT CSV WITH HEADER",
        "SELECT x COLLATE \"C\", y AT TIME ZONE 'UTC', overlay('abc' placing 'x' from 2 for 1)",
        "SELECT CASE WHEN a THEN b END, NULLIF(a, b), GREATEST(1, 2), a IS NOT DISTINCT FROM b",
        "SELECT ARRAY[1, 2][1], ROW(1, 2), (1, 2), a NOT BETWEEN SYMMETRIC 1 AND 2",
        "SELECT trim(both from x), substring(x from 1 for 2), position('a' in x), extract(epoch from x)",
        "VALUES (1), (2) UNION ALL SELECT 3 INTERSECT SELECT 4 EXCEPT ALL SELECT 5",
        "SELECT 1 \\; SELECT 2", "\x00\xff\xfe SELECT", "SELECT 'äöü€' FRUM x",
    ]
    for e in extra:
        write("parser", e.encode("utf-8", "surrogateescape"))


if __name__ == "__main__":
    codec_seeds()
    parser_seeds()
