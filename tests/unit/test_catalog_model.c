/*
 * test_catalog_model.c: the catalog model through the path a statement
 * takes: plan against a snapshot, commit to the store, follow the log.
 *
 * Expected messages, details, hints and notices are what PostgreSQL 15.18
 * answered for the same statements (run against the reference server with
 * \set VERBOSITY verbose); the comment above each check names the statement.
 */
#include <stdio.h>

#include "tests/unit/test_catalog_helpers.h"

#define HINT_CASCADE "Use DROP ... CASCADE to drop the dependent objects too."

static void check_err(tc_t *t, const char *state, const char *msg, const char *detail, const char *hint)
{
    UNIT_CHECK(t->err.set);
    UNIT_CHECK_STR(t->err.sqlstate, state);
    UNIT_CHECK_STR(t->err.message, msg);
    if (detail)
        UNIT_CHECK_STR(t->err.detail, detail);
    else
        UNIT_CHECK(t->err.detail == NULL);
    if (hint)
        UNIT_CHECK_STR(t->err.hint, hint);
    else
        UNIT_CHECK(t->err.hint == NULL);
}

static const cat_item_t *find(tc_t *t, const char *written)
{
    char b[256];
    cat_qname_t q = tc_qname(written, b, sizeof(b));
    cm_err_t err = {0};
    const cat_item_t *it = cat_resolve_item(t->snap, &t->search, &q, &err);
    cm_err_clear(&err);
    return it;
}

static void test_bootstrap_objects(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(cat_snap_index(t.snap) == 1);
    const cat_database_t *db = cat_snap_database(t.snap, "eddy");
    UNIT_CHECK(db && db->id == 1 && db->oid == 16387);
    const cat_schema_t *pub = cat_snap_schema(t.snap, db, "public");
    UNIT_CHECK(pub && pub->id == 1 && pub->oid == 16386 && pub->database == db);
    const char *sys[] = {"pg_catalog", "information_schema", "eddy_catalog", "eddy_internal"};
    for (size_t i = 0; i < 4; i++) {
        const cat_schema_t *sc = cat_snap_schema(t.snap, db, sys[i]);
        UNIT_CHECK(sc && sc->database == NULL && cat_id_is_system(sc->id));
    }
    UNIT_CHECK(cat_snap_schema(t.snap, db, "pg_catalog")->oid == 11);
    UNIT_CHECK(find(&t, "eddy_catalog.items") != NULL);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    const cat_item_t *it = find(&t, "t");
    /* ID = creating index, OID from the index: never reused, equal everywhere. */
    UNIT_CHECK(it && it->id == 2 && it->oid == 16384 + 4 && t.last_index == 2);
    UNIT_CHECK(cat_snap_item_by_oid(t.snap, 16388) == it && cat_snap_item_by_id(t.snap, 2) == it);
    UNIT_CHECK(find(&t, "eddy.public.t") == it && find(&t, "public.t") == it);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "t", false, false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    it = find(&t, "t");
    UNIT_CHECK(it && it->id == 4 && it->oid == 16384 + 12);
    tc_free(&t);
}

static void test_drop_restrict_and_cascade(void)
{
    tc_t t;
    tc_init(&t);
    /* create table t; create view v as select * from t; create view w as
     * select * from v; create materialized view mv as select * from t;
     * create index i on t(a); */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v", "t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "w", "v"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_MATVIEW, "mv", "t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_INDEX, "i", "t"));
    uint64_t before = cat_snap_index(t.snap);
    /* drop table t; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "t", false, false));
    check_err(&t, "2BP01", "cannot drop table t because other objects depend on it",
              "view v depends on table t\nview w depends on view v\nmaterialized view mv depends on table t",
              HINT_CASCADE);
    UNIT_CHECK(cat_snap_index(t.snap) == before);
    /* drop view v; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_VIEW, "v", false, false));
    check_err(&t, "2BP01", "cannot drop view v because other objects depend on it", "view w depends on view v",
              HINT_CASCADE);
    /* drop table t cascade; (the index goes silently, as PostgreSQL's auto dependency) */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "t", false, true));
    UNIT_CHECK_STR(tc_notices(&t), "drop cascades to 3 other objects|drop cascades to view v\ndrop cascades to view "
                                   "w\ndrop cascades to materialized view mv");
    UNIT_CHECK(cat_snap_index(t.snap) == before + 1);   /* one entry for the whole cascade */
    UNIT_CHECK(!find(&t, "t") && !find(&t, "v") && !find(&t, "w") && !find(&t, "mv") && !find(&t, "i"));
    /* drop index i; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_INDEX, "i", false, false));
    check_err(&t, "42704", "index \"i\" does not exist", NULL, NULL);
    /* drop view v; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_VIEW, "v", false, false));
    check_err(&t, "42P01", "view \"v\" does not exist", NULL, NULL);
    tc_free(&t);
}

static void test_dependent_order_as_postgres(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v1", "t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v2", "t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v3", "t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "w1", "v1"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "w3", "v3"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "x", "v1,v3"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "t", false, false));
    check_err(&t, "2BP01", "cannot drop table t because other objects depend on it",
              "view v1 depends on table t\nview w1 depends on view v1\nview v2 depends on table t\n"
              "view v3 depends on table t\nview w3 depends on view v3\nview x depends on view v3",
              HINT_CASCADE);
    const cat_item_t *deps[8];
    UNIT_CHECK(cat_snap_dependents(t.snap, find(&t, "t")->id, deps, 8) == 3);
    UNIT_CHECK_STR(deps[0]->name, "v1");
    UNIT_CHECK_STR(deps[2]->name, "v3");
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "t", false, true));
    UNIT_CHECK_STR(tc_notices(&t), "drop cascades to 6 other objects|drop cascades to view v1\ndrop cascades to "
                                   "view w1\ndrop cascades to view v2\ndrop cascades to view v3\ndrop cascades to "
                                   "view w3\ndrop cascades to view x");
    /* create table u; create table u2; create view uv as select * from u, u2;
     * create view uv2 as select * from u2; drop table u, u2; */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "u", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "u2", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "uv", "u,u2"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "uv2", "u2"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "u,u2", false, false));
    check_err(&t, "2BP01", "cannot drop desired object(s) because other objects depend on them",
              "view uv2 depends on table u2\nview uv depends on table u", HINT_CASCADE);
    /* drop table u2 cascade; */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "u2", false, true));
    UNIT_CHECK_STR(tc_notices(&t), "drop cascades to 2 other objects|drop cascades to view uv\ndrop cascades to view uv2");
    /* create view q1 on u; drop table u, q1 names a view as a table. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "q1", "u"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "u,q1", false, false));
    check_err(&t, "42809", "\"q1\" is not a table", NULL, "Use DROP VIEW to remove a view.");
    /* drop table u cascade; one dependent: a notice without detail. */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "u", false, true));
    UNIT_CHECK_STR(tc_notices(&t), "drop cascades to view q1");
    /* Dropping a view and what depends on it in one statement needs no CASCADE. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "a", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "b", "a"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "c", "b"));
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_VIEW, "b,c", false, false));
    UNIT_CHECK_STR(tc_notices(&t), "");
    tc_free(&t);
}

static void test_if_exists_and_wrong_kinds(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v", "t"));
    /* drop table if exists nope; */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "nope", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "table \"nope\" does not exist, skipping");
    UNIT_CHECK_STR(cat_change_notice(t.last, 0)->sqlstate, "00000");
    /* drop table nope; drop table public.nope; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "nope", false, false));
    check_err(&t, "42P01", "table \"nope\" does not exist", NULL, NULL);
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "public.nope", false, false));
    check_err(&t, "42P01", "table \"nope\" does not exist", NULL, NULL);
    /* drop view if exists nope, t; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_VIEW, "nope,t", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "view \"nope\" does not exist, skipping");
    check_err(&t, "42809", "\"t\" is not a view", NULL, "Use DROP TABLE to remove a table.");
    /* drop table v; drop index t; drop materialized view nope; */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "v", false, false));
    check_err(&t, "42809", "\"v\" is not a table", NULL, "Use DROP VIEW to remove a view.");
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_INDEX, "t", false, false));
    check_err(&t, "42809", "\"t\" is not an index", NULL, "Use DROP TABLE to remove a table.");
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_MATVIEW, "nope", false, false));
    check_err(&t, "42P01", "materialized view \"nope\" does not exist", NULL, NULL);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_MATVIEW, "nope", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "materialized view \"nope\" does not exist, skipping");
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_INDEX, "nope", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "index \"nope\" does not exist, skipping");
    /* drop table if exists s.nope; drop table s.nope; */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "s.nope", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "schema \"s\" does not exist, skipping");
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "s.nope", false, false));
    check_err(&t, "3F000", "schema \"s\" does not exist", NULL, NULL);
    /* drop view if exists v, v; the second is skipped after the first found it:
     * both name one object, dropped once. */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_VIEW, "v,v", false, false));
    UNIT_CHECK(!find(&t, "v"));
    tc_free(&t);
}

static void test_create_errors(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_INDEX, "i", "t"));
    /* create table t (b int); create view t as select 1; create index i on t(a); */
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    check_err(&t, "42P07", "relation \"t\" already exists", NULL, NULL);
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_VIEW, "t", NULL));
    check_err(&t, "42P07", "relation \"t\" already exists", NULL, NULL);
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_INDEX, "i", "t"));
    check_err(&t, "42P07", "relation \"i\" already exists", NULL, NULL);
    /* create table if not exists t (b int); */
    uint64_t before = cat_snap_index(t.snap);
    UNIT_CHECK(tc_create_cols(&t, CAT_ITEM_TABLE, "t", NULL, NULL, 0, true));
    UNIT_CHECK_STR(tc_notices(&t), "relation \"t\" already exists, skipping");
    UNIT_CHECK_STR(cat_change_notice(t.last, 0)->sqlstate, "42P07");
    UNIT_CHECK(cat_change_op_count(t.last) == 0 && cat_snap_index(t.snap) == before);
    /* create table s2.x (a int); select * from s2.x; */
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "s2.x", NULL));
    check_err(&t, "3F000", "schema \"s2\" does not exist", NULL, NULL);
    char qb[64];
    cat_qname_t q = tc_qname("s2.x", qb, sizeof(qb));
    cm_err_clear(&t.err);
    UNIT_CHECK(!cat_resolve_item(t.snap, &t.search, &q, &t.err));
    check_err(&t, "42P01", "relation \"s2.x\" does not exist", NULL, NULL);
    q = tc_qname("nodb.public.x", qb, sizeof(qb));
    cm_err_clear(&t.err);
    UNIT_CHECK(!cat_resolve_item(t.snap, &t.search, &q, &t.err));
    check_err(&t, "42P01", "relation \"nodb.public.x\" does not exist", NULL, NULL);
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "nodb.public.x", NULL));
    check_err(&t, "3D000", "database \"nodb\" does not exist", NULL, NULL);
    /* create table t2(a int, a int); */
    static const cat_column_t dup[] = {{.name = "a", .type = 23, .typmod = -1}, {.name = "a", .type = 23, .typmod = -1}};
    UNIT_CHECK(!tc_create_cols(&t, CAT_ITEM_TABLE, "t2", NULL, dup, 2, false));
    check_err(&t, "42701", "column \"a\" specified more than once", NULL, NULL);
    /* create table pg_catalog.foo (a int); drop table pg_catalog.pg_class; */
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "pg_catalog.foo", NULL));
    check_err(&t, "42501", "permission denied to create \"pg_catalog.foo\"",
              "System catalog modifications are currently disallowed.", NULL);
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "eddy_catalog.items", false, false));
    check_err(&t, "42501", "permission denied: \"items\" is a system catalog", NULL, NULL);
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_VIEW, "eddy_catalog.items", false, false));
    check_err(&t, "42809", "\"items\" is not a view", NULL, "Use DROP TABLE to remove a table.");
    /* set search_path = nothere; create table zz(a int); */
    const char *nothere[] = {"nothere"};
    cat_search_t saved = t.search;
    t.search.path = nothere;
    t.search.npath = 1;
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "zz", NULL));
    check_err(&t, "3F000", "no schema has been selected to create in", NULL, NULL);
    /* pg_catalog is searched first even when the path does not name it. */
    UNIT_CHECK(find(&t, "items") == NULL && find(&t, "t") == NULL);
    t.search = saved;
    tc_free(&t);
}

static void test_schemas(void)
{
    tc_t t;
    tc_init(&t);
    /* create schema s; create schema s; create schema if not exists s; */
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    UNIT_CHECK(!tc_create_schema(&t, "s", false));
    check_err(&t, "42P06", "schema \"s\" already exists", NULL, NULL);
    UNIT_CHECK(tc_create_schema(&t, "s", true));
    UNIT_CHECK_STR(tc_notices(&t), "schema \"s\" already exists, skipping");
    UNIT_CHECK_STR(cat_change_notice(t.last, 0)->sqlstate, "42P06");
    /* create schema information_schema; create schema pg_foo; */
    UNIT_CHECK(!tc_create_schema(&t, "information_schema", false));
    check_err(&t, "42P06", "schema \"information_schema\" already exists", NULL, NULL);
    UNIT_CHECK(!tc_create_schema(&t, "pg_foo", false));
    check_err(&t, "42939", "unacceptable schema name \"pg_foo\"", "The prefix \"pg_\" is reserved for system schemas.",
              NULL);
    /* drop schema s2; drop schema if exists s2; drop schema pg_catalog; */
    UNIT_CHECK(!tc_drop_schema(&t, "s2", false, false));
    check_err(&t, "3F000", "schema \"s2\" does not exist", NULL, NULL);
    UNIT_CHECK(tc_drop_schema(&t, "s2", true, false));
    UNIT_CHECK_STR(tc_notices(&t), "schema \"s2\" does not exist, skipping");
    UNIT_CHECK(!tc_drop_schema(&t, "pg_catalog", false, false));
    check_err(&t, "2BP01", "cannot drop schema pg_catalog because it is required by the database system", NULL, NULL);
    /* create table s.x (a int); create view s.y as select * from s.x;
     * create view vx as select * from s.x; drop table s.x; */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.x", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "s.y", "s.x"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "vx", "s.x"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "s.x", false, false));
    check_err(&t, "2BP01", "cannot drop table s.x because other objects depend on it",
              "view s.y depends on table s.x\nview vx depends on table s.x", HINT_CASCADE);
    /* drop schema s; */
    UNIT_CHECK(!tc_drop_schema(&t, "s", false, false));
    check_err(&t, "2BP01", "cannot drop schema s because other objects depend on it",
              "table s.x depends on schema s\nview vx depends on table s.x\nview s.y depends on schema s",
              HINT_CASCADE);
    /* drop schema s, s; */
    UNIT_CHECK(!tc_drop_schema(&t, "s,s", false, false));
    check_err(&t, "2BP01", "cannot drop desired object(s) because other objects depend on them",
              "table s.x depends on schema s\nview vx depends on table s.x\nview s.y depends on schema s",
              HINT_CASCADE);
    /* drop schema nope, s; */
    UNIT_CHECK(!tc_drop_schema(&t, "nope,s", false, false));
    check_err(&t, "3F000", "schema \"nope\" does not exist", NULL, NULL);
    /* drop schema s cascade; */
    UNIT_CHECK(tc_drop_schema(&t, "s", false, true));
    UNIT_CHECK_STR(tc_notices(&t), "drop cascades to 3 other objects|drop cascades to table s.x\ndrop cascades to "
                                   "view vx\ndrop cascades to view s.y");
    UNIT_CHECK(!find(&t, "vx") && !cat_snap_schema(t.snap, cat_snap_database(t.snap, "eddy"), "s"));
    /* An item in a schema on the search path is described unqualified. */
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.x", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "vx", "s.x"));
    const char *path[] = {"public", "s"};
    t.search.path = path;
    t.search.npath = 2;
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "x", false, false));
    check_err(&t, "2BP01", "cannot drop table x because other objects depend on it", "view vx depends on table x",
              HINT_CASCADE);
    tc_free(&t);
}

/* A keyword-aware quoter as the server installs from the parser. */
static void quote_with_keywords(const char *ident, cm_buf_t *out)
{
    if (strcmp(ident, "select") == 0) {
        cm_buf_put_str(out, "\"select\"");
        return;
    }
    cat_set_quote_ident(NULL);
    cat_quote_ident(ident, out);
    cat_set_quote_ident(quote_with_keywords);
}

static void test_quoting(void)
{
    tc_t t;
    tc_init(&t);
    cat_set_quote_ident(quote_with_keywords);
    /* create table "select" (a int); create view "Ab" as select * from "select"; */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "select", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "Ab", "select"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "select", false, false));
    check_err(&t, "2BP01", "cannot drop table \"select\" because other objects depend on it",
              "view \"Ab\" depends on table \"select\"", HINT_CASCADE);
    /* create schema "A b"; create table "A b"."T x"(a int);
     * create view "v""q" as select * from "A b"."T x"; */
    UNIT_CHECK(tc_create_schema(&t, "A b", false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "A b.T x", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v\"q", "A b.T x"));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "A b.T x", false, false));
    check_err(&t, "2BP01", "cannot drop table \"A b\".\"T x\" because other objects depend on it",
              "view \"v\"\"q\" depends on table \"A b\".\"T x\"", HINT_CASCADE);
    UNIT_CHECK(!tc_drop_schema(&t, "A b", false, false));
    check_err(&t, "2BP01", "cannot drop schema A b because other objects depend on it",
              "table \"A b\".\"T x\" depends on schema A b\nview \"v\"\"q\" depends on table \"A b\".\"T x\"",
              HINT_CASCADE);
    cat_set_quote_ident(NULL);
    tc_free(&t);
}

static void test_reported_dependents_are_capped(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "big", NULL));
    for (int i = 1; i <= 103; i++) {
        char name[16];
        snprintf(name, sizeof(name), "v%d", i);
        UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, name, "big"));
    }
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "big", false, false));
    UNIT_CHECK(t.err.detail && strncmp(t.err.detail, "view v1 depends on table big\nview v2 depends", 44) == 0);
    const char *tail = "\nview v100 depends on table big\nand 3 other objects (see server log for list)";
    UNIT_CHECK(t.err.detail && strlen(t.err.detail) > strlen(tail) &&
               strcmp(t.err.detail + strlen(t.err.detail) - strlen(tail), tail) == 0);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "big", false, true));
    const cm_err_t *n = cat_change_notice(t.last, 0);
    UNIT_CHECK_STR(n->message, "drop cascades to 103 other objects");
    const char *ctail = "\ndrop cascades to view v100\nand 3 other objects (see server log for list)";
    UNIT_CHECK(n->detail && strcmp(n->detail + strlen(n->detail) - strlen(ctail), ctail) == 0);
    UNIT_CHECK(cat_snap_item_count(t.snap) == cat_builtin_count());
    tc_free(&t);
}

static void test_databases(void)
{
    tc_t t;
    tc_init(&t);
    cat_change_t *ch = cat_change_new();
    /* create database eddy; */
    UNIT_CHECK(!cat_plan_create_database(t.snap, NULL, "eddy", false, ch, &t.err));
    check_err(&t, "42P04", "database \"eddy\" already exists", NULL, NULL);
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_create_database(t.snap, NULL, "eddy", true, ch, &t.err));
    UNIT_CHECK_STR(cat_change_notice(ch, 0)->message, "database \"eddy\" already exists, skipping");
    UNIT_CHECK(cat_change_op_count(ch) == 0);
    cat_change_free(ch);
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_create_database(t.snap, NULL, "d2", false, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    const cat_database_t *d2 = cat_snap_database(t.snap, "d2");
    uint64_t ix = cat_snap_index(t.snap);
    UNIT_CHECK(d2 && d2->id == ix && d2->oid == CAT_OID_FIRST_USER + 4 * (ix - 1) + 3);
    const cat_schema_t *pub2 = cat_snap_schema(t.snap, d2, "public");
    UNIT_CHECK(pub2 && pub2->id == ix && pub2->database == d2);
    /* Objects in d2, and one in eddy reading one of them. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "d2.public.t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "d2.public.v", "d2.public.t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "outside", "d2.public.t"));
    const char *names[] = {"nope"};
    ch = cat_change_new();
    cm_err_clear(&t.err);
    /* drop database nope; drop database if exists nope; */
    UNIT_CHECK(!cat_plan_drop_databases(t.snap, &t.search, names, 1, false, ch, &t.err));
    check_err(&t, "3D000", "database \"nope\" does not exist", NULL, NULL);
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_drop_databases(t.snap, &t.search, names, 1, true, ch, &t.err));
    UNIT_CHECK_STR(cat_change_notice(ch, 0)->message, "database \"nope\" does not exist, skipping");
    cat_change_free(ch);
    /* The session's own database cannot go. */
    const char *cur[] = {"eddy"};
    ch = cat_change_new();
    UNIT_CHECK(!cat_plan_drop_databases(t.snap, &t.search, cur, 1, false, ch, &t.err));
    check_err(&t, "55006", "cannot drop the currently open database", NULL, NULL);
    cm_err_clear(&t.err);
    cat_change_free(ch);
    /* Something outside reads d2: refused, since DROP DATABASE has no CASCADE. */
    const char *dn[] = {"d2"};
    ch = cat_change_new();
    UNIT_CHECK(!cat_plan_drop_databases(t.snap, &t.search, dn, 1, false, ch, &t.err));
    check_err(&t, "2BP01", "cannot drop database d2 because other objects depend on it",
              "view outside depends on table public.t", HINT_CASCADE);
    cm_err_clear(&t.err);
    cat_change_free(ch);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_VIEW, "outside", false, false));
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_drop_databases(t.snap, &t.search, dn, 1, false, ch, &t.err));
    UNIT_CHECK(cat_change_notice_count(ch) == 0);   /* contents go silently, as in PostgreSQL */
    cat_id_t dropped[8];
    UNIT_CHECK(cat_change_dropped(ch, CAT_CLASS_ITEM, dropped, 8) == 2);
    UNIT_CHECK(tc_commit_change(&t, ch, "DROP DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(!cat_snap_database(t.snap, "d2") && cat_snap_database_at(t.snap, 1) == NULL);
    tc_free(&t);
}

static void test_conflict_then_revalidate(void)
{
    /* Two front ends, each with its own handle and snapshot, plan the same
     * CREATE at the same head: one commits, the other conflicts, catches up
     * and re-validates into 42P07. */
    tc_t a;
    tc_init(&a);
    tc_t b = a;
    b.st = cat_store_mem_open(a.db, NULL, NULL, NULL);
    b.snap = cat_snap_new();
    b.last = NULL;
    memset(&b.err, 0, sizeof(b.err));
    b.next_uuid = 1000;
    UNIT_CHECK(tc_sync(&b));
    cat_change_t *cb = cat_change_new();
    char nb[16];
    cat_item_def_t def = {.kind = CAT_ITEM_TABLE, .name = tc_qname("t", nb, sizeof(nb)), .create_sql = "CREATE TABLE t"};
    UNIT_CHECK(cat_plan_create_item(b.snap, &b.search, &def, false, cb, &b.err));
    tc_res_t h = {0};
    cm_err_t err = {0};
    cat_store_head(b.st, tc_head_cb, &h, &err);
    cat_store_dispatch(b.st);
    uint8_t uuid[16] = {9, 9};
    cat_commit_t *c = cat_commit_build(cb, b.snap, &h.head, uuid, "CREATE TABLE", "CREATE TABLE t", NULL, &err);
    UNIT_CHECK(c != NULL);
    UNIT_CHECK(tc_create(&a, CAT_ITEM_TABLE, "t", NULL));
    tc_res_t r = {0};
    UNIT_CHECK(cat_store_commit(b.st, cat_commit_store(c), tc_commit_cb, &r, &err) == 0);
    cat_store_dispatch(b.st);
    UNIT_CHECK(r.calls == 1 && r.st == CAT_STORE_CONFLICT);
    cat_commit_free(c);
    cat_change_free(cb);
    UNIT_CHECK(tc_sync(&b));
    UNIT_CHECK(cat_snap_index(b.snap) == cat_snap_index(a.snap));
    cb = cat_change_new();
    UNIT_CHECK(!cat_plan_create_item(b.snap, &b.search, &def, false, cb, &b.err));
    UNIT_CHECK_STR(b.err.sqlstate, "42P07");
    cat_change_free(cb);
    cm_err_clear(&b.err);
    cat_snap_free(b.snap);
    cat_store_close(b.st);
    tc_free(&a);
}

static void test_apply_is_atomic(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "t", NULL));
    /* Re-applying an entry, or applying one out of order, changes nothing. */
    tc_res_t lg = {0};
    cm_err_t err = {0};
    cat_store_log_read(t.st, 1, 0, tc_log_cb, &lg, &err);
    cat_store_dispatch(t.st);
    UNIT_CHECK(lg.n == 2);
    cm_buf_t before, after;
    cm_buf_init(&before, 0);
    cm_buf_init(&after, 0);
    cat_snap_dump(t.snap, &before);
    UNIT_CHECK(!cat_snap_apply(t.snap, lg.data[1], lg.len[1], &err));
    UNIT_CHECK_STR(err.message, "catalog log entry 2 does not follow index 2");
    cm_err_clear(&err);
    /* A well-formed entry whose second op does not fit: the first is not applied. */
    cat_op_t ops[2];
    memset(ops, 0, sizeof(ops));
    ops[0].kind = CAT_OP_CREATE;
    ops[0].obj = (cat_object_t){.cls = CAT_CLASS_ITEM, .id = 3, .oid = 16392, .parent = 1, .name = "n",
                                .kind = CAT_ITEM_TABLE, .create_sql = "x"};
    ops[1].kind = CAT_OP_DROP;
    ops[1].obj = (cat_object_t){.cls = CAT_CLASS_ITEM, .id = 77};
    cat_entry_t e = {.index = 3, .kind = "X", .sql = "", .ops = ops, .nops = 2};
    cm_buf_t eb;
    cm_buf_init(&eb, 0);
    cat_entry_encode(&e, &eb);
    UNIT_CHECK(!cat_snap_apply(t.snap, eb.data, eb.len, &err));
    UNIT_CHECK_STR(err.sqlstate, "XX000");
    cm_err_clear(&err);
    /* Dropping a table that a view reads, without the view, does not fit either. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v", "t"));
    cm_buf_reset(&before);
    cat_snap_dump(t.snap, &before);
    ops[0].kind = CAT_OP_DROP;
    ops[0].obj = (cat_object_t){.cls = CAT_CLASS_ITEM, .id = 2};
    e.index = 4;
    e.nops = 1;
    cm_buf_reset(&eb);
    cat_entry_encode(&e, &eb);
    UNIT_CHECK(!cat_snap_apply(t.snap, eb.data, eb.len, &err));
    cm_err_clear(&err);
    cat_snap_dump(t.snap, &after);
    UNIT_CHECK(before.len == after.len && memcmp(before.data, after.data, before.len) == 0);
    cm_buf_free(&eb);
    cm_buf_free(&before);
    cm_buf_free(&after);
    tc_res_clear(&lg);
    tc_free(&t);
}

typedef struct snapcopy {
    uint64_t head;
    cat_kv_t *objs;
    size_t n;
} snapcopy_t;

static void copy_snap_cb(void *arg, cat_store_status_t st, const cat_head_t *head, const cat_kv_t *o, size_t n,
                         const cm_err_t *err)
{
    snapcopy_t *c = arg;
    c->head = head->index;
    c->n = n;
    c->objs = calloc(n ? n : 1, sizeof(cat_kv_t));
    for (size_t i = 0; i < n; i++) {
        uint8_t *d = malloc(o[i].len);
        memcpy(d, o[i].data, o[i].len);
        c->objs[i] = (cat_kv_t){strdup(o[i].key), d, o[i].len};
    }
}

static void snapcopy_free(snapcopy_t *c)
{
    for (size_t i = 0; i < c->n; i++) {
        free((void *)c->objs[i].key);
        free((void *)c->objs[i].data);
    }
    free(c->objs);
}

/* The snapshot built by replaying the log equals one loaded from the store's
 * objects (the bootstrap path), dump for dump. */
static bool replay_equals_bootstrap(tc_t *t, double *load_ms)
{
    snapcopy_t c = {0};
    cm_err_t err = {0};
    cat_store_snapshot(t->st, copy_snap_cb, &c, &err);
    cat_store_dispatch(t->st);
    cat_snap_t *boot = cat_snap_new();
    int64_t t0 = cm_now_mono_us();
    bool ok = cat_snap_load(boot, c.head, c.objs, c.n, &err);
    if (load_ms)
        *load_ms = (double)(cm_now_mono_us() - t0) / 1000.0;
    if (!ok)
        printf("  load failed: %s\n", err.message);
    cm_err_clear(&err);
    cm_buf_t a, b;
    cm_buf_init(&a, 0);
    cm_buf_init(&b, 0);
    cat_snap_dump(t->snap, &a);
    cat_snap_dump(boot, &b);
    ok = ok && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
    cm_buf_free(&a);
    cm_buf_free(&b);
    cat_snap_free(boot);
    snapcopy_free(&c);
    return ok;
}

static void test_replay_equals_snapshot(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    static const cat_column_t cols[] = {
        {.name = "Col", .type = 23, .typmod = -1, .not_null = true, .default_sql = "42"},
        {.name = "b", .type = 1043, .typmod = 14},
    };
    UNIT_CHECK(tc_create_cols(&t, CAT_ITEM_TABLE, "s.t", NULL, cols, 2, false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "v", "s.t,s.t"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_INDEX, "i", "v"));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_SOURCE, "src", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_MATVIEW, "mv", "v,src"));
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_SOURCE, "src", false, true));
    /* A rename keeps ID and OID and moves the name: replay, load and the
     * store's name index agree, and the old name is free again. */
    const cat_item_t *tb = find(&t, "s.t");
    uint64_t tid = tb->id;
    uint32_t toid = tb->oid;
    cat_change_t *rn = cat_change_new();
    UNIT_CHECK(!cat_plan_rename_item(t.snap, tb, "t", "CREATE TABLE s.t ()", rn, &t.err));
    UNIT_CHECK_STR(t.err.sqlstate, "42P07");
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_rename_item(t.snap, tb, "t2", "CREATE TABLE s.t2 ()", rn, &t.err));
    UNIT_CHECK(tc_commit_change(&t, rn, "ALTER TABLE") == CAT_STORE_OK);
    cat_change_free(rn);
    const cat_item_t *t2 = find(&t, "s.t2");
    UNIT_CHECK(t2 && t2->id == tid && t2->oid == toid && strcmp(t2->create_sql, "CREATE TABLE s.t2 ()") == 0);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.t", NULL));
    cat_change_t *ch = cat_change_new();
    UNIT_CHECK(cat_plan_create_database(t.snap, NULL, "other", false, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    /* A third follower replaying from index 1 agrees too. */
    tc_t r = t;
    r.snap = cat_snap_new();
    UNIT_CHECK(tc_sync(&r));
    cm_buf_t a, b;
    cm_buf_init(&a, 0);
    cm_buf_init(&b, 0);
    cat_snap_dump(t.snap, &a);
    cat_snap_dump(r.snap, &b);
    UNIT_CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
    cm_buf_free(&a);
    cm_buf_free(&b);
    cat_snap_free(r.snap);
    /* A store object with a key that does not match its record is refused. */
    snapcopy_t c = {0};
    cm_err_t err = {0};
    cat_store_snapshot(t.st, copy_snap_cb, &c, &err);
    cat_store_dispatch(t.st);
    free((void *)c.objs[0].key);
    c.objs[0].key = strdup("i999");
    cat_snap_t *boot = cat_snap_new();
    UNIT_CHECK(!cat_snap_load(boot, c.head, c.objs, c.n, &err));
    UNIT_CHECK_STR(err.sqlstate, "XX000");
    cm_err_clear(&err);
    cat_snap_free(boot);
    snapcopy_free(&c);
    tc_free(&t);
}

/* Dumps of a snapshot replayed from index 1 and of the live one agree. */
static bool replay_agrees(tc_t *t)
{
    tc_t r = *t;
    r.snap = cat_snap_new();
    bool ok = tc_sync(&r);
    cm_buf_t a, b;
    cm_buf_init(&a, 0);
    cm_buf_init(&b, 0);
    cat_snap_dump(t->snap, &a);
    cat_snap_dump(r.snap, &b);
    ok = ok && a.len == b.len && memcmp(a.data, b.data, a.len) == 0;
    cm_buf_free(&a);
    cm_buf_free(&b);
    cat_snap_free(r.snap);
    return ok;
}

/* Renaming a schema and a database moves every name inside them in one
 * commit; redefining an item replaces its columns and dependencies. */
static void test_rename_containers_and_redefine(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.t", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.u", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "s.v", "s.t"));
    const cat_schema_t *sc = find(&t, "s.t")->schema;
    uint64_t sid = sc->id;
    cat_change_t *ch = cat_change_new();
    UNIT_CHECK(!cat_plan_rename_schema(t.snap, NULL, sc, "pg_x", ch, &t.err));
    UNIT_CHECK_STR(t.err.sqlstate, "42939");
    cm_err_clear(&t.err);
    UNIT_CHECK(!cat_plan_rename_schema(t.snap, NULL, sc, "public", ch, &t.err));
    UNIT_CHECK_STR(t.err.sqlstate, "42P06");
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_rename_schema(t.snap, NULL, sc, "s2", ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "ALTER SCHEMA") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(find(&t, "s2.t") && find(&t, "s2.v") && !find(&t, "s.t"));
    cm_err_clear(&t.err);
    UNIT_CHECK(find(&t, "s2.t")->schema->id == sid);
    /* The old schema name and the old item names are free in the store's name index. */
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.t", NULL));
    /* v now reads u instead of t, with one column: the dependents move with it. */
    const cat_item_t *v = find(&t, "s2.v");
    const cat_item_t *u = find(&t, "s2.u");
    static const cat_column_t one[] = {{.name = "x", .type = 23, .typmod = -1}};
    cat_id_t dep = u->id;
    cat_item_def_t def = {.kind = CAT_ITEM_VIEW, .create_sql = "CREATE VIEW s2.v AS SELECT 1 AS x FROM s2.u",
                          .columns = one, .ncolumns = 1, .deps = &dep, .ndeps = 1};
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_alter_item(t.snap, v, &def, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE VIEW") == CAT_STORE_OK);
    cat_change_free(ch);
    v = find(&t, "s2.v");
    const cat_item_t *out[4];
    UNIT_CHECK(v->ncolumns == 1 && strcmp(v->columns[0].name, "x") == 0 && v->ndeps == 1 && v->deps[0] == dep);
    UNIT_CHECK(cat_snap_dependents(t.snap, find(&t, "s2.t")->id, out, 4) == 0);
    UNIT_CHECK(cat_snap_dependents(t.snap, dep, out, 4) == 1 && out[0] == v);
    /* Redefined to read an item newer than itself: loading the store's objects still works. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s2.newer", NULL));
    cat_id_t dep2[2] = {u->id, find(&t, "s2.newer")->id};
    cat_item_def_t def2 = {.kind = CAT_ITEM_VIEW, .create_sql = "CREATE VIEW s2.v AS SELECT 1 AS x FROM s2.u, s2.newer",
                           .columns = one, .ncolumns = 1, .deps = dep2, .ndeps = 2};
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_alter_item(t.snap, find(&t, "s2.v"), &def2, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE VIEW") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    def2.ndeps = 1;
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_alter_item(t.snap, find(&t, "s2.v"), &def2, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE VIEW") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "s2.newer", false, false));
    /* t can go now; u cannot. */
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_TABLE, "s2.t", false, false));
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "s2.u", false, false));
    cm_err_clear(&t.err);
    /* A database with schemas and items is renamed; the session's own one is not. */
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_create_database(t.snap, NULL, "other", false, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "other.public.ot", NULL));
    cat_search_t here = {.database = "eddy"};
    ch = cat_change_new();
    UNIT_CHECK(!cat_plan_rename_database(t.snap, &here, "eddy", "e2", ch, &t.err));
    UNIT_CHECK_STR(t.err.sqlstate, "0A000");
    cm_err_clear(&t.err);
    UNIT_CHECK(!cat_plan_rename_database(t.snap, &here, "other", "eddy", ch, &t.err));
    UNIT_CHECK_STR(t.err.sqlstate, "42P04");
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_rename_database(t.snap, &here, "other", "third", ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "ALTER DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(find(&t, "third.public.ot") != NULL);
    cm_err_clear(&t.err);
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_create_database(t.snap, NULL, "other", false, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "CREATE DATABASE") == CAT_STORE_OK);
    cat_change_free(ch);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "other.public.ot", NULL));
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    UNIT_CHECK(replay_agrees(&t));
    tc_free(&t);
}

/* Several statements' changes as one entry: later ones see the earlier ones, the store gets one
 * commit, and replay, bootstrap and the transaction's own view agree. */
static void test_transaction_one_entry(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "old", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_VIEW, "oldv", "old"));
    uint64_t before = cat_snap_index(t.snap);
    cat_txn_t *x = cat_txn_new(t.snap);
    cat_search_t search = {.database = "eddy", .path = (const char *const[]){"public"}, .npath = 1};
    static const cat_column_t one[] = {{.name = "a", .type = 23, .typmod = -1}};
    /* CREATE SCHEMA s; CREATE TABLE s.t; CREATE VIEW s.v reading it; DROP TABLE old CASCADE;
     * CREATE TABLE gone; DROP TABLE gone. */
    cat_change_t *ch = cat_change_new();
    cat_qname_t sq = {.schema = "s"};
    UNIT_CHECK(cat_plan_create_schema(cat_txn_snap(x), &search, &sq, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "CREATE SCHEMA", "CREATE SCHEMA s", &t.err));
    cat_change_free(ch);
    ch = cat_change_new();
    cat_item_def_t td = {.kind = CAT_ITEM_TABLE, .name = {.schema = "s", .name = "t"}, .create_sql = "CREATE TABLE s.t",
                         .columns = one, .ncolumns = 1};
    UNIT_CHECK(cat_plan_create_item(cat_txn_snap(x), &search, &td, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "CREATE TABLE", "CREATE TABLE s.t", &t.err));
    cat_change_free(ch);
    const cat_schema_t *s_in = cat_snap_schema(cat_txn_snap(x), cat_snap_database(cat_txn_snap(x), "eddy"), "s");
    const cat_item_t *t_in = s_in ? cat_snap_item(cat_txn_snap(x), s_in, "t") : NULL;
    UNIT_CHECK(t_in != NULL);
    cat_id_t dep = t_in ? t_in->id : 0;
    ch = cat_change_new();
    cat_item_def_t vd = {.kind = CAT_ITEM_VIEW, .name = {.schema = "s", .name = "v"}, .create_sql = "CREATE VIEW s.v",
                         .columns = one, .ncolumns = 1, .deps = &dep, .ndeps = 1};
    UNIT_CHECK(cat_plan_create_item(cat_txn_snap(x), &search, &vd, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "CREATE VIEW", "CREATE VIEW s.v", &t.err));
    cat_change_free(ch);
    ch = cat_change_new();
    cat_qname_t oq = {.name = "old"};
    UNIT_CHECK(cat_plan_drop_items(cat_txn_snap(x), &search, CAT_ITEM_TABLE, &oq, 1, false, true, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "DROP TABLE", "DROP TABLE old CASCADE", &t.err));
    cat_change_free(ch);
    ch = cat_change_new();
    cat_item_def_t gd = {.kind = CAT_ITEM_TABLE, .name = {.name = "gone"}, .create_sql = "CREATE TABLE gone",
                         .columns = one, .ncolumns = 1};
    UNIT_CHECK(cat_plan_create_item(cat_txn_snap(x), &search, &gd, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "CREATE TABLE", "CREATE TABLE gone", &t.err));
    cat_change_free(ch);
    ch = cat_change_new();
    cat_qname_t gq = {.name = "gone"};
    UNIT_CHECK(cat_plan_drop_items(cat_txn_snap(x), &search, CAT_ITEM_TABLE, &gq, 1, false, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "DROP TABLE", "DROP TABLE gone", &t.err));
    cat_change_free(ch);
    /* Nothing reached the store yet. */
    UNIT_CHECK(cat_snap_index(t.snap) == before && find(&t, "old") != NULL);
    cm_err_clear(&t.err);
    cat_head_t head = {.index = before, .version = (int64_t)before};
    uint8_t uuid[16];
    tc_uuid(&t, uuid);
    cat_commit_t *c = cat_txn_commit(x, &head, uuid, NULL, &t.err);
    UNIT_CHECK(c != NULL);
    tc_res_t r = {0};
    cm_err_t err = {0};
    UNIT_CHECK(c && cat_store_commit(t.st, cat_commit_store(c), tc_commit_cb, &r, &err) == 0);
    cat_store_dispatch(t.st);
    UNIT_CHECK(r.st == CAT_STORE_OK);
    cat_commit_free(c);
    UNIT_CHECK(tc_sync(&t));
    UNIT_CHECK(cat_snap_index(t.snap) == before + 1);
    UNIT_CHECK(find(&t, "s.t") && find(&t, "s.v") && !find(&t, "old") && !find(&t, "oldv") && !find(&t, "gone"));
    cm_err_clear(&t.err);
    UNIT_CHECK(find(&t, "s.v")->deps[0] == find(&t, "s.t")->id);
    UNIT_CHECK(find(&t, "s.t")->oid != find(&t, "s.v")->oid);
    cat_txn_free(x);
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    UNIT_CHECK(replay_agrees(&t));
    /* The names are free and taken in the store as in the snapshot. */
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "old", NULL));
    UNIT_CHECK(!tc_create(&t, CAT_ITEM_TABLE, "s.t", NULL));
    cm_err_clear(&t.err);
    tc_free(&t);
}

static void test_ten_thousand_objects(void)
{
    tc_t t;
    tc_init(&t);
    enum { N = 10000 };
    int64_t t0 = cm_now_mono_us();
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "base", NULL));
    bool ok = true;
    for (int i = 1; i < N && ok; i++) {
        char name[32];
        snprintf(name, sizeof(name), "v%d", i);
        ok = tc_create(&t, CAT_ITEM_VIEW, name, "base");
    }
    UNIT_CHECK(ok);
    int64_t t1 = cm_now_mono_us();
    UNIT_CHECK(cat_snap_item_count(t.snap) == N + cat_builtin_count());
    /* Lookups by name (through the search path), by ID and by OID. */
    int found = 0;
    for (int round = 0; round < 10; round++) {
        for (int i = 1; i < N; i++) {
            char name[32];
            snprintf(name, sizeof(name), "v%d", i);
            const cat_item_t *it = find(&t, name);
            found += it && cat_snap_item_by_id(t.snap, it->id) == it && cat_snap_item_by_oid(t.snap, it->oid) == it;
        }
    }
    int64_t t2 = cm_now_mono_us();
    UNIT_CHECK(found == 10 * (N - 1));
    double load_ms = 0;
    UNIT_CHECK(replay_equals_bootstrap(&t, &load_ms));
    /* Restrict lists 100 of 9999 dependents; cascade drops all in one entry. */
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "base", false, false));
    UNIT_CHECK(t.err.detail && strstr(t.err.detail, "and 9899 other objects (see server log for list)"));
    int64_t t3 = cm_now_mono_us();
    cat_change_t *ch = cat_change_new();
    char qb[16];
    cat_qname_t q = tc_qname("base", qb, sizeof(qb));
    cm_err_clear(&t.err);
    UNIT_CHECK(cat_plan_drop_items(t.snap, &t.search, CAT_ITEM_TABLE, &q, 1, false, true, ch, &t.err));
    UNIT_CHECK(cat_change_op_count(ch) == N);
    /* 10,000 drops exceed the entry limit (and one ZooKeeper multi): 54000. */
    tc_res_t h = {0};
    cm_err_t err = {0};
    cat_store_head(t.st, tc_head_cb, &h, &err);
    cat_store_dispatch(t.st);
    uint8_t uuid[16] = {1};
    cat_commit_t *c = cat_commit_build(ch, t.snap, &h.head, uuid, "DROP TABLE", "DROP TABLE base CASCADE",
                                       &t.st->limits, &err);
    UNIT_CHECK(c == NULL);
    UNIT_CHECK_STR(err.sqlstate, "54000");
    UNIT_CHECK_STR(err.message, "catalog entry is too large");
    cm_err_clear(&err);
    /* With the limit raised (a knob), the cascade is one entry. */
    t.st->limits.commit_max_bytes = 64 * 1024 * 1024;
    t.st->limits.entry_max_bytes = 64 * 1024 * 1024;
    UNIT_CHECK(tc_commit_change(&t, ch, "DROP TABLE") == CAT_STORE_OK);
    int64_t t4 = cm_now_mono_us();
    cat_change_free(ch);
    UNIT_CHECK(cat_snap_item_count(t.snap) == cat_builtin_count());
    printf("  10,000 objects: created through the store in %.1f ms (%.1f us each), %d lookups in %.1f ms "
           "(%.2f us each), loaded from the store's objects in %.1f ms, cascade drop planned, committed and "
           "applied in %.1f ms\n",
           (double)(t1 - t0) / 1000.0, (double)(t1 - t0) / N, 10 * (N - 1), (double)(t2 - t1) / 1000.0,
           (double)(t2 - t1) / (10.0 * (N - 1)), load_ms, (double)(t4 - t3) / 1000.0);
    tc_free(&t);
}

static void test_chain_of_views(void)
{
    /* A chain 3000 deep: the walk is iterative, and every link is reported. */
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "c0", NULL));
    bool ok = true;
    for (int i = 1; i <= 3000 && ok; i++) {
        char name[16], prev[16];
        snprintf(name, sizeof(name), "c%d", i);
        snprintf(prev, sizeof(prev), "c%d", i - 1);
        ok = tc_create(&t, CAT_ITEM_VIEW, name, prev);
    }
    UNIT_CHECK(ok);
    UNIT_CHECK(!tc_drop(&t, CAT_ITEM_TABLE, "c0", false, false));
    UNIT_CHECK(t.err.detail && strncmp(t.err.detail, "view c1 depends on table c0\nview c2 depends on view c1\n", 55) == 0);
    t.st->limits.commit_max_bytes = 64 * 1024 * 1024;
    UNIT_CHECK(tc_drop(&t, CAT_ITEM_VIEW, "c1", false, true));
    UNIT_CHECK(find(&t, "c0") && !find(&t, "c3000"));
    tc_free(&t);
}

static bool role_create(tc_t *t, const char *name, uint32_t flags)
{
    cat_change_t *ch = cat_change_new();
    cat_role_def_t def = {.name = name, .flags = flags, .conn_limit = -1, .password = "SCRAM-SHA-256$1:x$y:z"};
    bool ok = cat_plan_create_role(t->snap, NULL, &def, ch, &t->err) && tc_commit_change(t, ch, "CREATE ROLE") == CAT_STORE_OK;
    cat_change_free(ch);
    return ok;
}

static bool role_grant(tc_t *t, const char *role, const char *member, bool revoke)
{
    cat_change_t *ch = cat_change_new();
    bool ok = cat_plan_grant_roles(t->snap, NULL, &role, 1, &member, 1, revoke, ch, &t->err) &&
              tc_commit_change(t, ch, revoke ? "REVOKE ROLE" : "GRANT ROLE") == CAT_STORE_OK;
    cat_change_free(ch);
    return ok;
}

/* Roles: created, redefined by membership changes and dropped with the
 * memberships naming them; a replay, a load of the objects and a
 * transaction's one entry all agree. */
static void test_roles(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(role_create(&t, "a", CAT_ROLE_LOGIN));
    UNIT_CHECK(role_create(&t, "b", 0));
    UNIT_CHECK(!role_create(&t, "a", 0));
    UNIT_CHECK_STR(t.err.sqlstate, "42710");
    cm_err_clear(&t.err);
    UNIT_CHECK(role_grant(&t, "a", "b", false));
    UNIT_CHECK(!role_grant(&t, "b", "a", false));   /* b is a member of a already */
    UNIT_CHECK_STR(t.err.sqlstate, "0LP01");
    cm_err_clear(&t.err);
    const cat_role_t *a = cat_snap_role(t.snap, "a"), *b = cat_snap_role(t.snap, "b");
    UNIT_CHECK(a && b && a->oid % 4 == 1 && b->nmember_of == 1 && b->member_of[0] == a->id);
    UNIT_CHECK(cat_role_is_member(t.snap, b, a) && !cat_role_is_member(t.snap, a, b));
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    /* A role that is not superuser may not create one; one without CREATEROLE none at all. */
    cat_change_t *ch = cat_change_new();
    cat_role_def_t def = {.name = "c", .flags = CAT_ROLE_SUPERUSER, .conn_limit = -1};
    UNIT_CHECK(!cat_plan_create_role(t.snap, a, &def, ch, &t.err));
    UNIT_CHECK_STR(t.err.message, "must be superuser to create superusers");
    cm_err_clear(&t.err);
    def.flags = 0;
    UNIT_CHECK(!cat_plan_create_role(t.snap, a, &def, ch, &t.err));
    UNIT_CHECK_STR(t.err.message, "permission denied to create role");
    cm_err_clear(&t.err);
    cat_change_free(ch);
    /* Two roles and a membership in one transaction entry. */
    cat_txn_t *x = cat_txn_new(t.snap);
    const char *names[] = {"c", "d"};
    for (int i = 0; i < 2; i++) {
        ch = cat_change_new();
        cat_role_def_t d = {.name = names[i], .conn_limit = 3};
        UNIT_CHECK(cat_plan_create_role(cat_txn_snap(x), NULL, &d, ch, &t.err));
        UNIT_CHECK(cat_txn_add(x, ch, "CREATE ROLE", "CREATE ROLE", &t.err));
        cat_change_free(ch);
    }
    ch = cat_change_new();
    const char *r1 = "c", *m1 = "d";
    UNIT_CHECK(cat_plan_grant_roles(cat_txn_snap(x), NULL, &r1, 1, &m1, 1, false, ch, &t.err));
    UNIT_CHECK(cat_txn_add(x, ch, "GRANT ROLE", "GRANT ROLE", &t.err));
    cat_change_free(ch);
    tc_res_t h = {0};
    cm_err_t err = {0};
    cat_store_head(t.st, tc_head_cb, &h, &err);
    cat_store_dispatch(t.st);
    uint8_t uuid[16];
    tc_uuid(&t, uuid);
    cat_commit_t *c = cat_txn_commit(x, &h.head, uuid, NULL, &t.err);
    UNIT_CHECK(c != NULL);
    tc_res_t r = {0};
    cat_store_commit(t.st, cat_commit_store(c), tc_commit_cb, &r, &err);
    cat_store_dispatch(t.st);
    UNIT_CHECK(r.st == CAT_STORE_OK);
    cat_commit_free(c);
    cat_txn_free(x);
    tc_sync(&t);
    const cat_role_t *d = cat_snap_role(t.snap, "d");
    UNIT_CHECK(d && d->conn_limit == 3 && d->nmember_of == 1 && d->member_of[0] == cat_snap_role(t.snap, "c")->id);
    /* DROP ROLE a: b's membership goes with it; the current user may not be dropped. */
    ch = cat_change_new();
    const char *drop[] = {"a"};
    UNIT_CHECK(!cat_plan_drop_roles(t.snap, NULL, cat_snap_role(t.snap, "a"), NULL, drop, 1, false, ch, &t.err));
    cm_err_clear(&t.err);
    cat_change_free(ch);
    ch = cat_change_new();
    UNIT_CHECK(cat_plan_drop_roles(t.snap, NULL, NULL, NULL, drop, 1, false, ch, &t.err));
    UNIT_CHECK(tc_commit_change(&t, ch, "DROP ROLE") == CAT_STORE_OK);
    cat_change_free(ch);
    b = cat_snap_role(t.snap, "b");
    UNIT_CHECK(!cat_snap_role(t.snap, "a") && b && b->nmember_of == 0 && cat_snap_role_count(t.snap) == 3);
    UNIT_CHECK(replay_equals_bootstrap(&t, NULL));
    UNIT_CHECK(replay_agrees(&t));
    tc_free(&t);
}

int main(void)
{
    UNIT_RUN(test_bootstrap_objects);
    UNIT_RUN(test_roles);
    UNIT_RUN(test_rename_containers_and_redefine);
    UNIT_RUN(test_transaction_one_entry);
    UNIT_RUN(test_drop_restrict_and_cascade);
    UNIT_RUN(test_dependent_order_as_postgres);
    UNIT_RUN(test_if_exists_and_wrong_kinds);
    UNIT_RUN(test_create_errors);
    UNIT_RUN(test_schemas);
    UNIT_RUN(test_quoting);
    UNIT_RUN(test_reported_dependents_are_capped);
    UNIT_RUN(test_databases);
    UNIT_RUN(test_conflict_then_revalidate);
    UNIT_RUN(test_apply_is_atomic);
    UNIT_RUN(test_replay_equals_snapshot);
    UNIT_RUN(test_ten_thousand_objects);
    UNIT_RUN(test_chain_of_views);
    UNIT_EXIT();
}
