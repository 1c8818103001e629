#!/usr/bin/python3
"""privileges.py: the privilege matrix. The same roles, owners and grants are set up on eddy
and on PostgreSQL 15, then the same statements run as several roles, once through SET ROLE
in a superuser's session and once through each role's own login; every answer (command tag,
or SQLSTATE, message, detail and position) must be PostgreSQL's, and the counts of allowed
and denied statements are reported. Usage: privileges.py EDDY_PORT PG_PORT.
Roles are pv_*, objects live in schemas pv_*; all are dropped before and after (PostgreSQL's
roles are cluster-wide)."""
import sys

from psycopg import pq

ROLES = ["pv_owner", "pv_alice", "pv_bob", "pv_carol", "pv_grp", "pv_dave"]

SETUP = [
    # public as initdb makes it (another layer may have made it again on the shared PostgreSQL).
    "ALTER SCHEMA public OWNER TO pg_database_owner",
    "GRANT USAGE ON SCHEMA public TO PUBLIC",
    "CREATE ROLE pv_owner LOGIN",
    "CREATE ROLE pv_alice LOGIN",
    "CREATE ROLE pv_bob LOGIN",
    "CREATE ROLE pv_grp NOLOGIN",
    "CREATE ROLE pv_carol LOGIN NOINHERIT",
    "CREATE ROLE pv_dave LOGIN CREATEDB",
    "GRANT pv_grp TO pv_alice",
    "GRANT pv_grp TO pv_carol",
    "CREATE SCHEMA pv_s",
    "ALTER SCHEMA pv_s OWNER TO pv_owner",
    "CREATE SCHEMA pv_g",
    "ALTER SCHEMA pv_g OWNER TO pv_grp",
    "CREATE TABLE pv_s.t (a int, b text)",
    "ALTER TABLE pv_s.t OWNER TO pv_owner",
    "CREATE TABLE pv_s.u (a int)",
    "ALTER TABLE pv_s.u OWNER TO pv_alice",
    "CREATE VIEW pv_s.v AS SELECT a FROM pv_s.t",
    "ALTER VIEW pv_s.v OWNER TO pv_owner",
    "CREATE TABLE pv_g.gt (a int)",
    "ALTER TABLE pv_g.gt OWNER TO pv_grp",
    "CREATE INDEX pv_gi ON pv_g.gt (a)",
    "GRANT USAGE ON SCHEMA pv_s TO pv_alice, pv_carol",
    "INSERT INTO pv_s.t VALUES (1, 'x'), (2, 'y')",
]

# (role, statement): run as that role after the setup, in this order.
STEPS = [
    # Owners: who may drop, rename, re-own, index.
    ("pv_bob", "DROP TABLE pv_s.t"),
    ("pv_bob", "DROP VIEW pv_s.v"),
    ("pv_bob", "ALTER TABLE pv_s.t RENAME TO t2"),
    ("pv_bob", "ALTER TABLE pv_s.t RENAME COLUMN a TO c"),
    ("pv_bob", "ALTER TABLE pv_s.t OWNER TO pv_bob"),
    ("pv_bob", "ALTER VIEW pv_s.t OWNER TO pv_bob"),
    ("pv_bob", "CREATE INDEX pv_bi ON pv_s.t (a)"),
    ("pv_bob", "DROP SCHEMA pv_s"),
    ("pv_bob", "ALTER SCHEMA pv_s RENAME TO pv_x"),
    ("pv_bob", "ALTER SCHEMA pv_s OWNER TO pv_bob"),
    ("pv_bob", "ALTER DATABASE eddy OWNER TO pv_bob"),
    ("pv_bob", "DROP DATABASE eddy"),
    ("pv_bob", "DROP INDEX pv_g.pv_gi"),
    ("pv_bob", "DROP TABLE pv_catalog_nothing"),
    ("pv_bob", "DROP TABLE IF EXISTS pv_s.nothing"),
    ("pv_bob", "ALTER TABLE IF EXISTS pv_s.nothing OWNER TO pv_bob"),
    # Creating: schemas, tables in public (PostgreSQL 15: only its owner), databases.
    ("pv_bob", "CREATE TABLE pv_nope (a int)"),
    ("pv_bob", "CREATE TABLE IF NOT EXISTS pv_s.t (a int)"),
    ("pv_bob", "CREATE TABLE pv_s.bt (a int)"),
    ("pv_bob", "CREATE VIEW pv_s.bv AS SELECT 1 AS x"),
    ("pv_bob", "CREATE SCHEMA pv_bs"),
    ("pv_bob", "CREATE DATABASE pv_db"),
    ("pv_owner", "CREATE TABLE pv_s.ot (a int)"),
    ("pv_owner", "CREATE VIEW pv_s.ov AS SELECT 1 AS x"),
    ("pv_owner", "CREATE INDEX pv_oi ON pv_s.t (a)"),
    ("pv_owner", "CREATE INDEX pv_oi2 ON pv_s.u (a)"),
    # Members act for the roles they inherit from; NOINHERIT members do not.
    ("pv_alice", "CREATE TABLE pv_g.at (a int)"),
    ("pv_carol", "CREATE TABLE pv_g.ct (a int)"),
    ("pv_carol", "DROP TABLE pv_g.gt"),
    ("pv_alice", "ALTER TABLE pv_g.gt RENAME TO gt2"),
    ("pv_alice", "ALTER TABLE pv_g.gt2 RENAME TO gt"),
    # A schema's owner may drop what others own in it.
    ("pv_owner", "DROP TABLE pv_s.u"),
    ("pv_alice", "CREATE TABLE pv_s.u (a int)"),
    # OWNER TO: the owner must be a member of the new owner, which must be able to create there.
    ("pv_owner", "ALTER TABLE pv_s.t OWNER TO pv_bob"),
    ("pv_alice", "ALTER TABLE pv_g.gt OWNER TO pv_alice"),
    ("pv_alice", "ALTER TABLE pv_g.gt OWNER TO pv_grp"),
    ("pv_alice", "ALTER TABLE pv_g.at OWNER TO pv_grp"),
    ("pv_owner", "ALTER TABLE pv_s.t OWNER TO pv_owner"),
    ("pv_owner", "ALTER SCHEMA pv_s OWNER TO pv_alice"),
    ("pv_owner", "ALTER TABLE pv_s.t OWNER TO nobody_pv"),
    ("pv_owner", "ALTER INDEX pv_s.pv_oi OWNER TO pv_owner"),
    ("pv_owner", "ALTER VIEW pv_s.ov OWNER TO CURRENT_USER"),
    ("pv_owner", "DROP INDEX pv_s.pv_oi"),
    ("pv_owner", "ALTER TABLE pv_s.t RENAME TO t"),
    ("pv_owner", "DROP SCHEMA pv_s"),
    ("pv_dave", "CREATE SCHEMA pv_ds"),
    # GRANT / REVOKE on tables, and what reads and writes then need.
    ("pv_alice", "SELECT * FROM pv_s.t"),
    ("pv_alice", "SELECT nope FROM pv_s.t"),
    ("pv_owner", "GRANT SELECT ON pv_s.t TO pv_alice"),
    ("pv_alice", "SELECT a, b FROM pv_s.t ORDER BY a"),
    ("pv_alice", "INSERT INTO pv_s.t VALUES (3, 'z')"),
    ("pv_alice", "UPDATE pv_s.t SET b = 'q'"),
    ("pv_alice", "DELETE FROM pv_s.t"),
    ("pv_alice", "TRUNCATE pv_s.t"),
    ("pv_owner", "GRANT INSERT, UPDATE ON TABLE pv_s.t TO pv_alice"),
    ("pv_alice", "INSERT INTO pv_s.t VALUES (3, 'z')"),
    ("pv_alice", "UPDATE pv_s.t SET b = 'w' WHERE a = 3"),
    ("pv_owner", "REVOKE SELECT ON pv_s.t FROM pv_alice"),
    ("pv_alice", "UPDATE pv_s.t SET b = 'v'"),
    ("pv_alice", "UPDATE pv_s.t SET b = 'v' WHERE a = 3"),
    ("pv_alice", "UPDATE pv_s.t SET a = a + 1"),
    ("pv_alice", "INSERT INTO pv_s.t VALUES (4, 'k') RETURNING a"),
    ("pv_alice", "INSERT INTO pv_s.t SELECT a, b FROM pv_s.t"),
    ("pv_owner", "GRANT ALL ON pv_s.t TO pv_grp WITH GRANT OPTION"),
    ("pv_alice", "DELETE FROM pv_s.t WHERE a = 4"),
    ("pv_alice", "GRANT SELECT ON pv_s.t TO pv_bob"),
    ("pv_bob", "SELECT count(*) FROM pv_s.t"),
    ("pv_owner", "GRANT USAGE ON SCHEMA pv_s TO pv_bob"),
    ("pv_bob", "SELECT count(*) FROM pv_s.t"),
    ("pv_bob", "DELETE FROM pv_s.t"),
    ("pv_carol", "SELECT count(*) FROM pv_s.t"),
    ("pv_carol", "GRANT SELECT ON pv_s.t TO pv_dave"),
    ("pv_bob", "GRANT SELECT ON pv_s.t TO pv_dave"),
    ("pv_bob", "GRANT SELECT, INSERT ON pv_s.t TO pv_dave"),
    ("pv_owner", "REVOKE GRANT OPTION FOR SELECT ON pv_s.t FROM pv_grp"),
    ("pv_owner", "REVOKE GRANT OPTION FOR SELECT ON pv_s.t FROM pv_grp CASCADE"),
    ("pv_bob", "SELECT count(*) FROM pv_s.t"),
    ("pv_alice", "REVOKE DELETE ON pv_s.t FROM pv_owner"),
    ("pv_owner", "REVOKE DELETE ON pv_s.t FROM pv_owner"),
    ("pv_owner", "DELETE FROM pv_s.t WHERE a = 2"),
    ("pv_owner", "GRANT DELETE ON pv_s.t TO pv_owner"),
    ("pv_alice", "GRANT TRUNCATE ON pv_s.t TO pv_alice"),
    # A view reads with its owner's rights; reading it needs SELECT on it.
    ("pv_bob", "SELECT * FROM pv_s.v ORDER BY 1"),
    ("pv_owner", "GRANT SELECT ON pv_s.v TO pv_bob"),
    ("pv_bob", "SELECT * FROM pv_s.v ORDER BY 1"),
    ("pv_alice", "CREATE VIEW pv_g.av AS SELECT a FROM pv_s.t"),
    ("pv_alice", "SELECT * FROM pv_g.av ORDER BY a"),
    ("pv_alice", "GRANT SELECT ON pv_g.av TO pv_bob"),
    ("pv_bob", "SELECT * FROM pv_g.av"),
    ("pv_alice", "CREATE OR REPLACE VIEW pv_s.v AS SELECT a FROM pv_s.t"),
    # Errors of GRANT itself, in PostgreSQL's order.
    ("pv_owner", "GRANT SELECT ON pv_s.nope TO pv_bob"),
    ("pv_owner", "GRANT SELECT ON pv_s.t TO nobody_pv"),
    ("pv_owner", "GRANT USAGE ON pv_s.t TO pv_bob"),
    ("pv_owner", "GRANT CONNECT ON pv_s.t TO pv_bob"),
    ("pv_owner", "GRANT FROB ON pv_s.t TO pv_bob"),
    ("pv_owner", "GRANT SELECT ON pv_s.t TO PUBLIC WITH GRANT OPTION"),
    ("pv_owner", "GRANT SELECT ON pv_s.t, pv_s.nope TO pv_bob"),
    (None, "GRANT SELECT ON pv_g.pv_gi TO pv_bob"),
    ("pv_owner", "GRANT TEMP ON SCHEMA pv_s TO pv_bob"),
    ("pv_owner", "GRANT SELECT ON DATABASE eddy TO pv_bob"),
    ("pv_owner", "GRANT USAGE ON SCHEMA pv_nope TO pv_bob"),
    ("pv_owner", "GRANT CONNECT ON DATABASE pv_nope TO pv_bob"),
    ("pv_owner", "GRANT ALL PRIVILEGES ON pv_s.t TO pv_dave, PUBLIC"),
    ("pv_owner", "REVOKE ALL ON pv_s.t FROM PUBLIC"),
    # Schemas and databases.
    ("pv_owner", "GRANT CREATE ON SCHEMA pv_s TO pv_bob"),
    ("pv_bob", "CREATE TABLE pv_s.bt2 (a int)"),
    ("pv_bob", "DROP TABLE pv_s.bt2"),
    ("pv_bob", "CREATE SCHEMA pv_bs"),
    (None, "GRANT CREATE ON DATABASE eddy TO pv_bob"),
    ("pv_bob", "CREATE SCHEMA pv_bs"),
    ("pv_bob", "DROP SCHEMA pv_bs"),
    (None, "REVOKE CREATE ON DATABASE eddy FROM pv_bob"),
    ("pv_bob", "CREATE SCHEMA pv_bs"),
    ("pv_owner", "REVOKE USAGE ON SCHEMA pv_s FROM pv_bob"),
    ("pv_bob", "SELECT * FROM pv_s.v"),
    ("pv_owner", "GRANT USAGE ON SCHEMA pv_s TO pv_dave"),
    ("pv_owner", "GRANT SELECT ON ALL TABLES IN SCHEMA pv_s TO pv_dave"),
    (None, "GRANT SELECT ON ALL TABLES IN SCHEMA pv_s TO pv_dave"),
    ("pv_dave", "SELECT count(*) FROM pv_s.u"),
    # Default privileges: what a role creates starts with them.
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_s GRANT SELECT ON TABLES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT INSERT ON TABLES TO pv_alice WITH GRANT OPTION"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES FOR ROLE pv_alice GRANT SELECT ON TABLES TO pv_owner"),
    ("pv_alice", "ALTER DEFAULT PRIVILEGES FOR ROLE pv_grp IN SCHEMA pv_g GRANT SELECT ON TABLES TO pv_bob"),
    ("pv_alice", "ALTER DEFAULT PRIVILEGES FOR ROLE pv_grp REVOKE ALL ON TABLES FROM pv_grp"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_nope GRANT SELECT ON TABLES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT USAGE ON TABLES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO PUBLIC WITH GRANT OPTION"),
    ("pv_owner", "CREATE TABLE pv_s.dt (a int)"),
    ("pv_owner", "CREATE VIEW pv_s.dv AS SELECT 1 AS x"),
    ("pv_bob", "SELECT * FROM pv_s.dt"),
    ("pv_alice", "INSERT INTO pv_s.dt VALUES (1)"),
    ("pv_alice", "GRANT INSERT ON pv_s.dt TO pv_carol"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE INSERT ON TABLES FROM pv_alice"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE GRANT OPTION FOR INSERT ON TABLES FROM pv_alice"),
    ("pv_owner", "CREATE TABLE pv_s.dt2 (a int)"),
    ("pv_alice", "INSERT INTO pv_s.dt2 VALUES (1)"),
    (None, "DROP ROLE pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_s REVOKE SELECT ON TABLES FROM pv_bob"),
    # ... for schemas (only database-wide: no IN SCHEMA), and the entries for the kinds of objects
    # eddy does not have (sequences, functions, types), kept and listed as PostgreSQL's.
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT USAGE ON SCHEMAS TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT CREATE ON SCHEMAS TO pv_alice WITH GRANT OPTION"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_s GRANT USAGE ON SCHEMAS TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_nope GRANT USAGE ON SCHEMAS TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT SELECT ON SCHEMAS TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT ALL ON SCHEMAS TO pv_carol"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE ALL ON SCHEMAS FROM pv_owner"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT USAGE, SELECT ON SEQUENCES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_s GRANT UPDATE ON SEQUENCES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT DELETE ON SEQUENCES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE EXECUTE ON FUNCTIONS FROM PUBLIC"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT EXECUTE ON ROUTINES TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT USAGE ON FUNCTIONS TO pv_bob"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES IN SCHEMA pv_s GRANT USAGE ON TYPES TO pv_alice"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE USAGE ON TYPES FROM PUBLIC"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TYPES TO pv_bob"),
    (None, "GRANT CREATE ON DATABASE eddy TO pv_owner"),
    ("pv_owner", "CREATE SCHEMA pv_ns"),
    (None, "REVOKE CREATE ON DATABASE eddy FROM pv_owner"),
    ("pv_bob", "CREATE TABLE pv_ns.t (a int)"),
    ("pv_alice", "GRANT CREATE ON SCHEMA pv_ns TO pv_bob"),
    ("pv_bob", "CREATE TABLE pv_ns.t (a int)"),
    ("pv_bob", "DROP TABLE pv_ns.t"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES REVOKE GRANT OPTION FOR CREATE ON SCHEMAS FROM pv_alice"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT ALL ON SCHEMAS TO pv_owner"),
    (None, "DROP ROLE pv_bob"),
    # The functions that answer the same questions.
    ("pv_bob", "SELECT has_table_privilege('pv_s.t', 'select'), has_table_privilege('pv_alice', 'pv_s.t', 'INSERT, update'),"
               " has_table_privilege('pv_s.t', 'select with grant option'), has_schema_privilege('pv_s', 'usage'),"
               " has_schema_privilege('pv_carol', 'pv_g', 'CREATE'), has_database_privilege('eddy', 'connect'),"
               " has_database_privilege('pv_bob', 'eddy', 'create'), has_table_privilege('public', 'pv_s.t', 'select')"),
    ("pv_alice", "SELECT has_table_privilege('pv_s.t', 'select, delete'), has_table_privilege('pv_g.gt', 'truncate'),"
                 " has_table_privilege('pv_carol', 'pv_g.gt', 'truncate'), has_schema_privilege('pv_bob', 'pv_s', 'usage')"),
    ("pv_bob", "SELECT grantor, grantee, table_schema, table_name, privilege_type, is_grantable"
               " FROM information_schema.table_privileges WHERE table_schema LIKE 'pv\\_%' ORDER BY 1, 2, 3, 4, 5"),
    ("pv_alice", "SELECT grantor, grantee, table_schema, table_name, privilege_type, is_grantable, with_hierarchy"
                 " FROM information_schema.role_table_grants WHERE table_schema LIKE 'pv\\_%' ORDER BY 1, 2, 3, 4, 5"),
    ("pv_carol", "SELECT grantee, table_name, column_name, privilege_type FROM information_schema.column_privileges"
                 " WHERE table_schema LIKE 'pv\\_%' ORDER BY 1, 2, 3, 4"),
    ("pv_bob", "SELECT has_table_privilege('pv_s.t', 'frob')"),
    ("pv_bob", "SELECT has_table_privilege('nobody_pv', 'pv_s.t', 'select')"),
    ("pv_bob", "SELECT has_schema_privilege('pv_nope', 'usage')"),
    ("pv_bob", "SELECT has_table_privilege(0::oid, 'select'), has_schema_privilege(0::oid, 'usage')"),
    # Column privileges: GRANT / REVOKE priv (columns); reads need them on every column used
    # (WHERE and ORDER BY too; *: every column; count(*): any column), INSERT on its target columns,
    # UPDATE on the columns it sets; denial names the table, as PostgreSQL 15 does.
    ("pv_owner", "CREATE TABLE pv_s.c (a int, b text, c int)"),
    ("pv_owner", "INSERT INTO pv_s.c VALUES (1, 'x', 10), (2, 'y', 20)"),
    ("pv_owner", "GRANT SELECT (a, c) ON pv_s.c TO pv_alice"),
    ("pv_alice", "SELECT a, c FROM pv_s.c ORDER BY a"),
    ("pv_alice", "SELECT b FROM pv_s.c"),
    ("pv_alice", "SELECT * FROM pv_s.c"),
    ("pv_alice", "SELECT count(*) FROM pv_s.c"),
    ("pv_alice", "SELECT 1 FROM pv_s.c LIMIT 1"),
    ("pv_alice", "SELECT a FROM pv_s.c WHERE b = 'x'"),
    ("pv_alice", "SELECT a FROM pv_s.c ORDER BY b"),
    ("pv_alice", "SELECT c.a FROM pv_s.c JOIN pv_s.c d USING (a) ORDER BY 1"),
    ("pv_alice", "SELECT a FROM (SELECT * FROM pv_s.c) s ORDER BY a"),
    ("pv_alice", "SELECT (SELECT max(c) FROM pv_s.c WHERE c.a = u.a) FROM pv_s.u"),
    ("pv_alice", "SELECT count(*) FROM pv_s.u WHERE EXISTS (SELECT 1 FROM pv_s.c WHERE c.b = 'x')"),
    ("pv_alice", "WITH w AS (SELECT a FROM pv_s.c) SELECT count(*) FROM w"),
    ("pv_alice", "COPY pv_s.c (a, c) TO STDOUT"),
    ("pv_alice", "COPY pv_s.c TO STDOUT"),
    ("pv_bob", "SELECT count(*) FROM pv_s.c"),
    ("pv_owner", "GRANT INSERT (a, b), UPDATE (b) ON pv_s.c TO pv_alice"),
    ("pv_alice", "INSERT INTO pv_s.c (a, b) VALUES (3, 'z')"),
    ("pv_alice", "INSERT INTO pv_s.c VALUES (4)"),
    ("pv_alice", "INSERT INTO pv_s.c VALUES (4, 'k', 40)"),
    ("pv_alice", "INSERT INTO pv_s.c (c) VALUES (5)"),
    ("pv_alice", "INSERT INTO pv_s.c DEFAULT VALUES"),
    ("pv_alice", "INSERT INTO pv_s.c (a) VALUES (6) RETURNING a, c"),
    ("pv_alice", "INSERT INTO pv_s.c (a) VALUES (6) RETURNING b"),
    ("pv_alice", "INSERT INTO pv_s.c (a) VALUES (7) RETURNING 1"),
    ("pv_alice", "UPDATE pv_s.c SET b = 'u' WHERE a = 3"),
    ("pv_alice", "UPDATE pv_s.c SET b = b || '!'"),
    ("pv_alice", "UPDATE pv_s.c SET a = 1"),
    ("pv_alice", "UPDATE pv_s.c SET b = 'w' RETURNING *"),
    ("pv_alice", "DELETE FROM pv_s.c WHERE a = 7"),
    # Grant options per column, what may not be granted on a column, and the errors, in order.
    ("pv_owner", "GRANT USAGE ON SCHEMA pv_s TO pv_bob"),
    ("pv_owner", "GRANT ALL (b) ON pv_s.c TO pv_bob WITH GRANT OPTION"),
    ("pv_owner", "GRANT REFERENCES (a, c) ON pv_s.c TO pv_bob"),
    ("pv_bob", "GRANT SELECT (b) ON pv_s.c TO pv_carol"),
    ("pv_bob", "GRANT SELECT (a) ON pv_s.c TO pv_carol"),
    ("pv_bob", "GRANT UPDATE (b), SELECT (a) ON pv_s.c TO pv_carol"),
    ("pv_carol", "GRANT SELECT (b) ON pv_s.c TO pv_dave"),
    ("pv_owner", "GRANT DELETE (a) ON pv_s.c TO pv_bob"),
    ("pv_owner", "GRANT FROB (a) ON pv_s.c TO pv_bob"),
    ("pv_owner", "GRANT SELECT (nope) ON pv_s.c TO pv_bob"),
    ("pv_owner", "GRANT SELECT (a) ON pv_s.nope TO pv_bob"),
    ("pv_owner", "GRANT SELECT (a) ON SCHEMA pv_s TO pv_bob"),
    ("pv_owner", "GRANT SELECT (a) ON pv_s.c TO PUBLIC WITH GRANT OPTION"),
    ("pv_owner", "ALTER DEFAULT PRIVILEGES GRANT SELECT (a) ON TABLES TO pv_bob"),
    ("pv_owner", "GRANT pv_grp (a) TO pv_bob"),
    ("pv_owner", "GRANT rule ON pv_s.c TO pv_dave"),
    ("pv_owner", "GRANT SELECT (a), INSERT ON pv_s.c, pv_s.u TO pv_dave"),
    ("pv_owner", "GRANT SELECT (a) ON pv_s.v TO pv_dave"),
    ("pv_dave", "SELECT a FROM pv_s.v ORDER BY a"),
    ("pv_owner", "CREATE OR REPLACE VIEW pv_s.v AS SELECT a, 1 AS one FROM pv_s.t"),
    ("pv_dave", "SELECT a FROM pv_s.v ORDER BY a"),
    ("pv_dave", "SELECT one FROM pv_s.v"),
    ("pv_owner", "REVOKE ALL (b) ON pv_s.c FROM pv_bob"),
    ("pv_bob", "REVOKE SELECT (b) ON pv_s.c FROM pv_carol"),
    ("pv_bob", "REVOKE INSERT (b) ON pv_s.c FROM pv_carol"),
    ("pv_owner", "REVOKE UPDATE ON pv_s.c FROM pv_alice"),
    ("pv_alice", "UPDATE pv_s.c SET b = 'v' WHERE a = 3"),
    ("pv_owner", "REVOKE GRANT OPTION FOR SELECT (b) ON pv_s.c FROM pv_bob CASCADE"),
    ("pv_carol", "SELECT count(*) FROM pv_s.c"),
    ("pv_alice", "SELECT has_column_privilege('pv_s.c', 'a', 'select'), has_column_privilege('pv_s.c', 'b', 'SELECT'),"
                 " has_column_privilege('pv_s.c', 1::int2, 'select'), has_column_privilege('pv_s.c', 9::int2, 'select'),"
                 " has_column_privilege('pv_s.c', 'ctid', 'select'), has_column_privilege('pv_s.c', -1::int2, 'select'),"
                 " has_column_privilege('pv_bob', 'pv_s.c', 'b', 'update with grant option'),"
                 " has_column_privilege('pv_carol', 'pv_s.c', 'a', 'select, insert'),"
                 " has_any_column_privilege('pv_s.c', 'select'), has_any_column_privilege('pv_s.c', 'insert'),"
                 " has_any_column_privilege('pv_carol', 'pv_s.c', 'update'), has_any_column_privilege('pv_s.u', 'select'),"
                 " has_column_privilege('pv_dave', 'pv_s.v', 'a', 'select'), has_column_privilege('pg_class', 'relname', 'select')"),
    (None, "SELECT has_column_privilege(r.oid, c.oid, 'a', 'select'), has_column_privilege(r.oid, c.oid, 2::int2, 'select'),"
           " has_column_privilege('pv_alice', c.oid, 'c', 'select'), has_column_privilege('pv_alice', c.oid, 3::int2, 'update'),"
           " has_column_privilege(r.oid, 'pv_s.c', 'a', 'insert'), has_column_privilege(r.oid, 'pv_s.c', 1::int2, 'insert'),"
           " has_column_privilege('pv_alice', 'pv_s.c', 2::int2, 'insert'), has_any_column_privilege(r.oid, c.oid, 'update'),"
           " has_any_column_privilege(r.oid, 'pv_s.c', 'select'), has_any_column_privilege('pv_alice', c.oid, 'references')"
           " FROM pg_class c, pg_roles r WHERE c.relname = 'c' AND r.rolname = 'pv_alice'"),
    ("pv_alice", "SELECT has_column_privilege(c.oid, 'a', 'select'), has_column_privilege(c.oid, 2::int2, 'insert')"
                 " FROM pg_class c WHERE c.relname = 'c'"),
    ("pv_alice", "SELECT has_column_privilege('pv_s.c', 'nope', 'select')"),
    ("pv_alice", "SELECT has_column_privilege('pv_s.c', 'a', 'delete')"),
    ("pv_alice", "SELECT has_column_privilege('pv_s.nope', 'a', 'select')"),
    ("pv_alice", "SELECT has_column_privilege('pv_s.v', 'ctid', 'select')"),
    ("pv_alice", "SELECT has_any_column_privilege('pv_s.c', 'truncate')"),
    ("pv_alice", "SELECT has_column_privilege(0::oid, 'a', 'select'), has_column_privilege(0::oid, 1::int2, 'select'),"
                 " has_any_column_privilege(0::oid, 'select')"),
    ("pv_bob", "SELECT grantor, grantee, table_name, column_name, privilege_type, is_grantable"
               " FROM information_schema.column_privileges WHERE table_schema LIKE 'pv\\_%' ORDER BY 1, 2, 3, 4, 5"),
    ("pv_carol", "SELECT grantor, grantee, table_name, column_name, privilege_type, is_grantable"
                 " FROM information_schema.role_column_grants WHERE table_schema LIKE 'pv\\_%' ORDER BY 1, 2, 3, 4, 5"),
    # Privileges are checked when a statement runs, as whoever runs it: PREPARE as one role,
    # EXECUTE after SET ROLE (names were looked up once, at PREPARE).
    (None, "PREPARE pv_p AS SELECT a, c FROM pv_s.c ORDER BY a"),
    (None, "PREPARE pv_w (int) AS UPDATE pv_s.c SET b = 'p' WHERE a = $1"),
    (None, "SET ROLE pv_dave"),
    (None, "EXECUTE pv_p"),
    (None, "EXECUTE pv_w (1)"),
    (None, "PREPARE pv_q AS SELECT b FROM pv_s.c ORDER BY b"),
    (None, "SET ROLE pv_alice"),
    (None, "EXECUTE pv_p"),
    (None, "PREPARE pv_r AS SELECT b FROM pv_s.c ORDER BY b"),
    (None, "EXECUTE pv_r"),
    (None, "RESET ROLE"),
    (None, "EXECUTE pv_q"),
    (None, "EXECUTE pv_r"),
    (None, "EXECUTE pv_w (1)"),
    ("pv_owner", "GRANT SELECT (b) ON pv_s.c TO pv_alice"),
    (None, "SET ROLE pv_alice"),
    (None, "EXECUTE pv_r"),
    (None, "RESET ROLE"),
    (None, "DEALLOCATE ALL"),
    (None, "PARSE pv_e AS SELECT b FROM pv_s.c ORDER BY b"),
    (None, "SET ROLE pv_dave"),
    (None, "BIND pv_e"),
    (None, "PARSE pv_f AS SELECT count(*) FROM pv_s.c"),
    (None, "BIND pv_f"),
    (None, "RESET ROLE"),
    (None, "BIND pv_e"),
    (None, "DEALLOCATE ALL"),
    # A schema named that does not exist: 3F000 where PostgreSQL looks relations up as utilities do.
    (None, "CREATE TABLE pv_missing.t (a int)"),
    (None, "CREATE INDEX pv_mi ON pv_missing.x (a)"),
    (None, "CREATE INDEX ON pv_missing.x (a)"),
    (None, "CREATE INDEX pv_mi ON pv_s.nope (a)"),
    (None, "CREATE VIEW pv_missing.v AS SELECT 1 AS x"),
    (None, "CREATE TABLE pv_missing.t2 AS SELECT 1 AS a"),
    (None, "ALTER TABLE pv_missing.t RENAME TO u"),
    (None, "ALTER TABLE IF EXISTS pv_missing.t RENAME TO u"),
    (None, "ALTER TABLE pv_missing.t OWNER TO pv_bob"),
    (None, "ALTER TABLE pv_missing.t RENAME COLUMN a TO b"),
    (None, "GRANT SELECT ON pv_missing.t TO pv_bob"),
    (None, "TRUNCATE pv_missing.t"),
    (None, "COPY pv_missing.t FROM STDIN"),
    (None, "COPY pv_missing.t TO STDOUT"),
    (None, "DROP TABLE pv_missing.t"),
    (None, "SELECT * FROM pv_missing.t"),
    (None, "INSERT INTO pv_missing.t VALUES (1)"),
    # public is pg_database_owner's (PostgreSQL 15): whoever owns the database acts as its owner.
    (None, "SELECT nspname, pg_get_userbyid(nspowner), nspowner, nspacl::text FROM pg_namespace"
           " WHERE nspname = 'public'"),
    (None, "SELECT rolname, oid, rolsuper, rolinherit, rolcreaterole, rolcreatedb, rolcanlogin, rolreplication,"
           " rolconnlimit, rolbypassrls FROM pg_roles WHERE rolname = 'pg_database_owner'"),
    ("pv_bob", "SELECT schema_owner FROM information_schema.schemata WHERE schema_name = 'public'"),
    ("pv_bob", "CREATE TABLE public.pv_bt (a int)"),
    ("pv_bob", "GRANT CREATE ON SCHEMA public TO pv_alice"),
    (None, "ALTER DATABASE eddy OWNER TO pv_bob"),
    ("pv_bob", "CREATE TABLE public.pv_bt (a int)"),
    ("pv_bob", "GRANT CREATE ON SCHEMA public TO pv_alice WITH GRANT OPTION"),
    ("pv_alice", "CREATE TABLE public.pv_at (a int)"),
    ("pv_alice", "GRANT CREATE ON SCHEMA public TO pv_carol"),
    (None, "SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname = 'public'"),
    ("pv_alice", "SELECT has_schema_privilege('public', 'create'), has_schema_privilege('pv_bob', 'public', 'create'),"
                 " has_schema_privilege('pv_carol', 'public', 'create'), has_schema_privilege('pv_dave', 'public', 'usage')"),
    ("pv_bob", "REVOKE CREATE ON SCHEMA public FROM pv_alice"),
    ("pv_bob", "REVOKE CREATE ON SCHEMA public FROM pv_alice CASCADE"),
    ("pv_bob", "ALTER SCHEMA public RENAME TO pv_pub"),
    ("pv_bob", "ALTER SCHEMA pv_pub RENAME TO public"),
    ("pv_bob", "ALTER SCHEMA public OWNER TO pv_bob"),
    ("pv_alice", "DROP SCHEMA public"),
    (None, "ALTER SCHEMA public OWNER TO pv_alice"),
    (None, "SELECT nspname, pg_get_userbyid(nspowner), nspacl::text FROM pg_namespace WHERE nspname = 'public'"),
    (None, "ALTER SCHEMA public OWNER TO pg_database_owner"),
    (None, "SELECT nspname, pg_get_userbyid(nspowner), nspacl::text FROM pg_namespace WHERE nspname = 'public'"),
    (None, "DROP TABLE public.pv_bt, public.pv_at"),
    (None, "ALTER DATABASE eddy OWNER TO postgres"),
    ("pv_bob", "CREATE TABLE public.pv_bt (a int)"),
    # Password verifiers are the superuser's to read; pg_roles and pg_user mask them for everyone.
    ("pv_bob", "SELECT rolname, rolpassword FROM pg_authid WHERE rolname = 'pv_alice'"),
    ("pv_bob", "SELECT a.rolname FROM pg_catalog.pg_authid a JOIN pg_roles r USING (rolname) WHERE a.rolname = 'pv_bob'"),
    ("pv_bob", "SELECT rolname, rolpassword FROM pg_roles WHERE rolname = 'pv_alice'"),
    ("pv_bob", "SELECT usename, passwd FROM pg_user WHERE usename = 'pv_alice'"),
    (None, "SELECT rolname, rolpassword IS NULL FROM pg_authid WHERE rolname = 'pv_alice'"),
    # Roles that own objects cannot be dropped.
    (None, "DROP ROLE pv_owner"),
    (None, "DROP ROLE pv_grp"),
    (None, "DROP ROLE pv_bob, pv_alice"),
    (None, "DROP ROLE pv_dave"),
    (None, "ALTER TABLE pv_s.t OWNER TO pv_bob"),
    (None, "ALTER SCHEMA pv_g OWNER TO pv_bob"),
    (None, "DROP ROLE pv_grp"),
    (None, "DROP ROLE pv_carol"),
    # REASSIGN OWNED / DROP OWNED: the user must have the privileges of every role named.
    ("pv_bob", "REASSIGN OWNED BY pv_owner TO pv_bob"),
    ("pv_bob", "REASSIGN OWNED BY pv_bob TO pv_owner"),
    ("pv_bob", "DROP OWNED BY pv_bob, pv_owner"),
    ("pv_carol", "DROP OWNED BY pv_grp"),
    ("pv_bob", "REASSIGN OWNED BY nobody_pv, pv_owner TO pv_bob"),
    ("pv_bob", "REASSIGN OWNED BY pv_owner TO nobody_pv"),
    ("pv_bob", "DROP OWNED BY PUBLIC"),
    (None, "REASSIGN OWNED BY postgres TO pv_bob"),
    (None, "DROP OWNED BY postgres"),
    # REASSIGN OWNED: relations (their indexes follow) move whatever the schema allows the new owner;
    # a schema needs CREATE on the database; databases move too; default privileges stay.
    (None, "CREATE DATABASE pv_ddb"),
    (None, "ALTER DATABASE pv_ddb OWNER TO pv_dave"),
    (None, "GRANT CREATE ON DATABASE eddy TO pv_dave"),
    ("pv_dave", "CREATE SCHEMA pv_ds"),
    ("pv_dave", "CREATE TABLE pv_ds.dt (a int)"),
    ("pv_dave", "CREATE INDEX pv_ddi ON pv_ds.dt (a)"),
    ("pv_dave", "GRANT SELECT ON pv_ds.dt TO pv_bob WITH GRANT OPTION"),
    ("pv_dave", "ALTER DEFAULT PRIVILEGES GRANT SELECT ON TABLES TO pv_bob"),
    (None, "REVOKE CREATE ON DATABASE eddy FROM pv_dave"),
    (None, "GRANT pv_bob TO pv_dave"),
    ("pv_dave", "REASSIGN OWNED BY pv_dave TO pv_bob"),
    (None, "GRANT CREATE ON DATABASE eddy TO pv_dave"),
    ("pv_dave", "REASSIGN OWNED BY CURRENT_USER TO pv_bob"),
    ("pv_bob", "SELECT datname, pg_get_userbyid(datdba) FROM pg_database WHERE datname LIKE 'pv\\_%'"),
    ("pv_bob", "SELECT c.relname, pg_get_userbyid(c.relowner), c.relacl::text FROM pg_class c"
               " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = 'pv_ds' ORDER BY 1"),
    ("pv_dave", "REASSIGN OWNED BY pv_dave TO pv_bob"),
    (None, "DROP ROLE pv_dave"),
    (None, "REASSIGN OWNED BY pv_alice, pv_grp TO pv_owner"),
    # DROP OWNED: privileges granted to the role are revoked (by the user, as REVOKE ALL ... CASCADE,
    # with its warnings), its relations, schemas and default privileges dropped as one deletion;
    # others' objects that depend on them need CASCADE.
    ("pv_bob", "DROP OWNED BY pv_bob"),
    (None, "CREATE VIEW pv_ds.dv AS SELECT a FROM pv_s.t"),
    (None, "ALTER VIEW pv_ds.dv OWNER TO pv_alice"),
    (None, "DROP OWNED BY pv_owner"),
    (None, "DROP OWNED BY pv_owner, pv_bob RESTRICT"),
    (None, "DROP ROLE pv_owner"),
    (None, "DROP OWNED BY pv_owner CASCADE"),
    (None, "DROP ROLE pv_owner"),
    ("pv_bob", "DROP OWNED BY pv_bob CASCADE"),
    (None, "DROP OWNED BY pv_dave, pv_bob, pv_alice"),
    (None, "DROP ROLE pv_dave, pv_bob, pv_alice"),
    (None, "DROP DATABASE pv_ddb"),
    (None, "DROP ROLE pv_dave, pv_bob, pv_alice"),
]

# eddy's own relation behind pg_authid: the same rule, where PostgreSQL has no such relation.
EDDY_ONLY = [
    ("pv_bob", "SELECT name, password FROM eddy_catalog.roles", ("error", "42501", "permission denied for table roles")),
    (None, "SELECT count(*) > 0 FROM eddy_catalog.roles WHERE name = 'pv_bob'", ("rows", [("t",)])),
]

# What both servers list afterwards: owners as pg_catalog shows them.
LISTING = [
    "SELECT n.nspname, c.relname, c.relkind, pg_get_userbyid(c.relowner) FROM pg_class c"
    " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE 'pv\\_%' ORDER BY 1, 2",
    "SELECT nspname, pg_get_userbyid(nspowner) FROM pg_namespace WHERE nspname LIKE 'pv\\_%' ORDER BY 1",
    "SELECT tablename, tableowner FROM pg_tables WHERE schemaname LIKE 'pv\\_%' ORDER BY 1",
    "SELECT c.relname, c.relacl::text FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
    " WHERE n.nspname LIKE 'pv\\_%' ORDER BY 1",
    "SELECT nspname, nspacl::text FROM pg_namespace WHERE nspname LIKE 'pv\\_%' ORDER BY 1",
    "SELECT c.relname, a.attname, a.attacl::text FROM pg_attribute a JOIN pg_class c ON c.oid = a.attrelid"
    " JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname LIKE 'pv\\_%' AND a.attnum > 0 ORDER BY 1, 2",
    "SELECT pg_get_userbyid(d.defaclrole), n.nspname, d.defaclobjtype, d.defaclacl::text FROM pg_default_acl d"
    " LEFT JOIN pg_namespace n ON n.oid = d.defaclnamespace"
    " WHERE pg_get_userbyid(d.defaclrole) LIKE 'pv\\_%' ORDER BY 1, 2",
    "SELECT datname, pg_get_userbyid(datdba), datacl::text FROM pg_database WHERE datname LIKE 'pv\\_%' ORDER BY 1",
]

CLEANUP = [
    "DROP SCHEMA IF EXISTS pv_s, pv_g, pv_x, pv_bs, pv_ds, pv_ns CASCADE",
    "DROP DATABASE IF EXISTS pv_ddb",
    "ALTER DEFAULT PRIVILEGES FOR ROLE pv_owner REVOKE ALL ON TABLES FROM pv_alice",
    "ALTER DEFAULT PRIVILEGES FOR ROLE pv_alice REVOKE ALL ON TABLES FROM pv_owner",
    "ALTER DEFAULT PRIVILEGES FOR ROLE pv_grp GRANT ALL ON TABLES TO pv_grp",
    "DROP TABLE IF EXISTS public.pv_nope, public.pv_bt, public.pv_at",
    "ALTER DATABASE eddy OWNER TO postgres",
    "ALTER SCHEMA public OWNER TO pg_database_owner",
    "REVOKE ALL ON DATABASE eddy FROM " + ", ".join(ROLES),
] + ["DROP OWNED BY %s CASCADE" % r for r in ROLES] + [
    "DROP ROLE IF EXISTS " + ", ".join(ROLES),
]


def conninfo(port, user):
    return ("host=127.0.0.1 port=%d user=%s dbname=eddy connect_timeout=5 options='-c TimeZone=UTC'"
            % (port, user)).encode()


NOTICES = []


def connect(port, user):
    c = pq.PGconn.connect(conninfo(port, user))
    if c.status != pq.ConnStatus.OK:
        raise SystemExit("not ok privileges: cannot connect to %d as %s: %s"
                         % (port, user, c.error_message.decode()))

    def on_notice(res):
        NOTICES.append(((res.error_field(pq.DiagnosticField.SEVERITY_NONLOCALIZED) or b"").decode(),
                        (res.error_field(pq.DiagnosticField.SQLSTATE) or b"").decode(),
                        (res.error_field(pq.DiagnosticField.MESSAGE_PRIMARY) or b"").decode()))
    c.notice_handler = on_notice
    return c


def answer(conn, sql):
    """(("rows", rows) | ("command", tag) | ("error", sqlstate, message, detail, hint, position), notices)."""
    del NOTICES[:]
    return (reply(conn, sql), list(NOTICES))


def reply(conn, sql):
    # "PARSE name AS query" and "BIND name": the extended protocol's Parse, and Bind + Execute.
    if sql.startswith("PARSE "):
        name, query = sql[len("PARSE "):].split(" AS ", 1)
        res = conn.prepare(name.encode(), query.encode())
    elif sql.startswith("BIND "):
        res = conn.exec_prepared(sql[len("BIND "):].encode(), [])
    else:
        res = conn.exec_(sql.encode())
    if res.status == pq.ExecStatus.TUPLES_OK:
        return ("rows", [tuple(None if res.get_value(r, c) is None else res.get_value(r, c).decode()
                               for c in range(res.nfields)) for r in range(res.ntuples)])
    if res.status == pq.ExecStatus.COMMAND_OK:
        return ("command", (res.command_status or b"").decode())
    if res.status == pq.ExecStatus.FATAL_ERROR:
        f = lambda k: (res.error_field(k) or b"").decode()
        return ("error", f(pq.DiagnosticField.SQLSTATE), f(pq.DiagnosticField.MESSAGE_PRIMARY),
                f(pq.DiagnosticField.MESSAGE_DETAIL), f(pq.DiagnosticField.MESSAGE_HINT),
                f(pq.DiagnosticField.STATEMENT_POSITION))
    return ("status", str(res.status))


def must(conn, sql):
    a = reply(conn, sql)
    if a[0] == "error":
        raise SystemExit("not ok privileges: setup %r failed: %r" % (sql, a))


def run(port, mode, steps=None):
    """Every step's answer, the steps run through SET ROLE (mode "set role") or each role's login."""
    steps = STEPS if steps is None else steps
    su = connect(port, "postgres")
    for sql in CLEANUP + SETUP:
        if sql in SETUP:
            must(su, sql)
        else:
            answer(su, sql)
    logins = {}
    out = []
    for who, sql in steps:
        if who is None:
            out.append(answer(su, sql))
        elif mode == "set role":
            must(su, "SET ROLE " + who)
            out.append(answer(su, sql))
            must(su, "RESET ROLE")
        else:
            if who not in logins:
                logins[who] = connect(port, who)
            out.append(answer(logins[who], sql))
    for c in logins.values():
        c.finish()
    listing = [answer(su, q) for q in LISTING]
    for sql in CLEANUP:
        answer(su, sql)
    su.finish()
    return out, listing


def main():
    eddy_port, pg_port = int(sys.argv[1]), int(sys.argv[2])
    failed = allowed = denied = 0
    for mode in ("set role", "login"):
        got, got_list = run(eddy_port, mode)
        want, want_list = run(pg_port, mode)
        for (who, sql), a, b in zip(STEPS, got, want):
            if b[0][0] == "error":
                denied += 1
            else:
                allowed += 1
            if a != b:
                failed += 1
                print("not ok privileges: %s %s: %s\n  eddy:       %r\n  PostgreSQL: %r"
                      % (mode, who or "superuser", sql, a, b))
        if got_list != want_list:
            failed += 1
            print("not ok privileges: %s: the owners listed differ\n  eddy:       %r\n  PostgreSQL: %r"
                  % (mode, got_list, want_list))
    got, _ = run(eddy_port, "login", [(who, sql) for who, sql, _ in EDDY_ONLY])
    for (who, sql, want), a in zip(EDDY_ONLY, got):
        if a[0][:len(want)] != want:
            failed += 1
            print("not ok privileges: eddy %s: %s: %r, want %r" % (who or "superuser", sql, a[0], want))
    if failed == 0:
        print("ok privileges: %d statements as on PostgreSQL 15 (%d allowed, %d denied), through SET ROLE"
              " and through logins, and the owners pg_catalog lists" % (allowed + denied, allowed, denied))


if __name__ == "__main__":
    main()
