"""pq_answer.py: what the differential scripts of tests/diff share: how they connect to eddy
and to PostgreSQL 15 (libpq through psycopg's pq module, loopback, database eddy, UTC), a
statement's answer reduced to what is compared (column names and type OIDs and rows as text,
a command tag, or an error's SQLSTATE and message), and an order for rows as multisets."""
from psycopg import pq


def conninfo(port, connect_timeout=5):
    return ("host=127.0.0.1 port=%d user=postgres dbname=eddy connect_timeout=%d "
            "options='-c TimeZone=UTC'" % (port, connect_timeout)).encode()


def answer(conn, sql):
    """("rows", [(name, type oid)], [row as text tuples]) | ("command", tag) |
    ("error", sqlstate, message) | ("status", what)."""
    res = conn.exec_(sql.encode())
    st = res.status
    if st == pq.ExecStatus.TUPLES_OK:
        cols = [(res.fname(i).decode(), res.ftype(i)) for i in range(res.nfields)]
        rows = [tuple(None if res.get_value(r, c) is None else res.get_value(r, c).decode()
                      for c in range(res.nfields)) for r in range(res.ntuples)]
        return ("rows", cols, rows)
    if st == pq.ExecStatus.COMMAND_OK:
        return ("command", (res.command_status or b"").decode())
    if st == pq.ExecStatus.FATAL_ERROR:
        m = res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY)
        return ("error", (res.error_field(pq.DiagnosticField.SQLSTATE) or b"?").decode(), m.decode() if m else "")
    return ("status", str(st))


def row_key(row):
    """Sorts rows of text values with NULLs (None) after every value."""
    return tuple((v is None, v or "") for v in row)
