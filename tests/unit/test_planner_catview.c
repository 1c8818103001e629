/*
 * test_planner_catview.c: every pg_catalog and information_schema view
 * (pln_catview_*.c) binds, survives the plan codec (a user's view may read
 * one) and runs over a catalog with a table, a view and an index, with
 * eddy_catalog's rows fed as the server feeds them; and the catalog
 * functions (regclass, pg_table_is_visible, current_schemas) read the
 * catalog they are given.
 */
#include "plan/plan.h"
#include "planner/pln_catview.h"
#include "exec/exec.h"
#include "planner/planner.h"
#include "tests/unit/test_catalog_helpers.h"

#include <stdio.h>
#include <string.h>

typedef struct rows_ctx {
    const cat_snap_t *snap;
} rows_ctx_t;

/* ty_ctx_t.session_rows as srv_internal.c answers eddy_catalog's relations (the only ones the views read). */
static bool session_rows(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                         int *nrows, cm_err_t *err)
{
    rows_ctx_t *rc = arg;
    if (strcmp(relation, PLN_CATALOG_CONSTRAINTS) == 0)
        return pln_constraint_rows(rc->snap, ncols, arena, rows, nrows, err);
    return cat_builtin_read(rc->snap, NULL, strchr(relation, '.') + 1, ncols, arena, rows, nrows, err);
}

typedef struct collect {
    int nrows;
    cm_buf_t text;   /* the first column of every row, as text, ';'-separated */
    ty_ctx_t *ctx;
    ty_oid_t type;
} collect_t;

static bool collect_row(void *arg, const ty_datum_t *row, int ncols)
{
    collect_t *c = arg;
    c->nrows++;
    if (row[0].isnull)
        cm_buf_put_str(&c->text, "NULL");
    else if (!ty_datum_to_text(c->type, &row[0], c->ctx, &c->text))
        return false;
    cm_buf_put_u8(&c->text, ';');
    return true;
}

/* Binds and runs sql over t's catalog; the first column's values, ';'-separated, in out (NUL-ended). */
static bool run(tc_t *t, const char *sql, cm_buf_t *out, cm_err_t *err, pln_stmt_t **stmt, cm_arena_t *arena)
{
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_catalog_t cat = {.snap = t->snap, .search = t->search};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    if (!pln_parse(arena, sql, strlen(sql), &raws, err) ||
        !pln_bind_catalog(arena, raws.items[0], sql, NULL, 0, &settings, &cat, false, &st, err))
        return false;
    if (stmt)
        *stmt = st;
    rows_ctx_t rc = {.snap = t->snap};
    ty_ctx_t ctx = {.arena = arena, .settings = &settings, .err = err, .user = "alice", .database = "eddy",
                    .session_rows = session_rows, .session_arg = &rc, .catalog_fn = pln_catalog_fn,
                    .catalog_arg = &cat};
    collect_t c = {.ctx = &ctx, .type = st->ncols > 0 ? st->cols[0].type : TY_INVALID};
    cm_buf_init(&c.text, 0);
    bool ok = st->kind == PLN_QUERY && ex_run(st->query, sql, NULL, &ctx, collect_row, &c);
    cm_buf_put_u8(&c.text, 0);
    cm_buf_reset(out);
    cm_buf_put(out, c.text.data, c.text.len);
    cm_buf_free(&c.text);
    return ok;
}

static void make_objects(tc_t *t)
{
    static const cat_column_t cols[] = {
        {.name = "a", .type = TY_INT4, .typmod = -1, .not_null = true},
        {.name = "b", .type = TY_TEXT, .typmod = -1, .default_sql = "'x'::text"},
    };
    static const cat_column_t keys[] = {{.name = "b", .type = TY_TEXT, .typmod = -1}};
    UNIT_CHECK(tc_create_cols(t, CAT_ITEM_TABLE, "t", NULL, cols, 2, false));
    UNIT_CHECK(tc_create(t, CAT_ITEM_VIEW, "v", "t"));
    UNIT_CHECK(tc_create_cols(t, CAT_ITEM_INDEX, "t_b", "t", keys, 1, false));
}

static void every_view_binds_encodes_and_runs(void)
{
    tc_t t;
    tc_init(&t);
    make_objects(&t);
    const pln_catview_t *v;
    int n = 0;
    for (size_t i = 0; (v = pln__catview_at(i)); i++, n++) {
        char sql[256];
        snprintf(sql, sizeof sql, "SELECT * FROM %s.%s", v->schema, v->name);
        cm_arena_t arena;
        cm_arena_init(&arena, 4096);
        cm_err_t err = {0};
        cm_buf_t out, enc;
        cm_buf_init(&out, 0);
        cm_buf_init(&enc, 0);
        pln_stmt_t *st = NULL, *dec = NULL;
        plan_t *decoded = NULL;
        if (!run(&t, sql, &out, &err, &st, &arena)) {
            printf("  %s: %s %s\n", sql, err.sqlstate, err.message);
            unit__case_failed = 1;
        } else if (!plan_encode(st->query, NULL, &enc, &err) ||
                   !plan_decode(&arena, enc.data, enc.len, NULL, &decoded, &err) ||
                   !pln_stmt_of_plan(&arena, decoded, &dec, &err)) {
            printf("  %s: the plan codec: %s %s\n", sql, err.sqlstate, err.message);
            unit__case_failed = 1;
        }
        cm_err_clear(&err);
        cm_buf_free(&out);
        cm_buf_free(&enc);
        cm_arena_free(&arena);
    }
    UNIT_CHECK(n >= 10);
    tc_free(&t);
}

/* expect(t, sql, first column's values) */
static void expect(tc_t *t, const char *sql, const char *want)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    cm_buf_t out;
    cm_buf_init(&out, 0);
    if (!run(t, sql, &out, &err, NULL, &arena)) {
        printf("  %s: %s %s\n", sql, err.sqlstate, err.message);
        unit__case_failed = 1;
    } else if (strcmp((const char *)out.data, want) != 0) {
        printf("  %s: got %s, want %s\n", sql, (const char *)out.data, want);
        unit__case_failed = 1;
    }
    cm_err_clear(&err);
    cm_buf_free(&out);
    cm_arena_free(&arena);
}

static void the_views_show_the_catalog(void)
{
    tc_t t;
    tc_init(&t);
    make_objects(&t);
    expect(&t, "SELECT c.relname || ':' || c.relkind::text || ':' || c.relnatts || ':' || c.relhasindex"
               " FROM pg_class c JOIN pg_namespace n ON n.oid = c.relnamespace"
               " WHERE n.nspname = 'public' ORDER BY 1",
           "t:r:2:true;t_b:i:1:false;v:v:1:false;");
    expect(&t, "SELECT a.attname || ':' || a.attnum || ':' || format_type(a.atttypid, a.atttypmod) || ':' ||"
               " a.attnotnull || ':' || a.atthasdef FROM pg_attribute a WHERE a.attrelid = 't'::regclass"
               " ORDER BY a.attnum",
           "a:1:integer:true:false;b:2:text:false:true;");
    expect(&t, "SELECT pg_get_expr(d.adbin, d.adrelid) FROM pg_attrdef d WHERE d.adrelid = 't'::regclass",
           "'x'::text;");
    expect(&t, "SELECT i.indkey::text FROM pg_index i WHERE i.indrelid = 't'::regclass", "{2};");
    expect(&t, "SELECT 't'::regclass::oid = (SELECT oid FROM pg_class WHERE relname = 't')", "t;");
    expect(&t, "SELECT 'pg_class'::regclass::oid", "1259;");
    expect(&t, "SELECT pg_table_is_visible('t'::regclass)", "t;");
    expect(&t, "SELECT current_schemas(true)::text || ' ' || current_schema()", "{pg_catalog,public} public;");
    /* What a session whose user is no catalog role creates is the bootstrap superuser's, named as that user. */
    expect(&t, "SELECT pg_get_userbyid(relowner) FROM pg_class WHERE relname = 't'", "postgres;");
    expect(&t, "SELECT tablename FROM pg_tables WHERE schemaname = 'public'", "t;");
    tc_free(&t);
}

/*
 * information_schema where eddy answers for itself (tests/diff/information_schema.sql compares the
 * rest with PostgreSQL): views are never updatable, a source is a foreign table that takes no INSERT,
 * materialized views are left out as PostgreSQL leaves them out, and the NOT NULL constraint is
 * named after the OIDs of this catalog.
 */
static void information_schema_answers_for_eddy(void)
{
    tc_t t;
    tc_init(&t);
    make_objects(&t);
    UNIT_CHECK(tc_create(&t, CAT_ITEM_SOURCE, "src", NULL));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_MATVIEW, "mv", "t"));
    expect(&t, "SELECT table_name || ':' || table_type || ':' || is_insertable_into FROM information_schema.tables"
               " WHERE table_schema = 'public' ORDER BY 1",
           "src:FOREIGN:NO;t:BASE TABLE:YES;v:VIEW:NO;");
    expect(&t, "SELECT table_name || ':' || column_name || ':' || is_updatable FROM information_schema.columns"
               " WHERE table_schema = 'public' ORDER BY 1",
           "src:a:NO;t:a:YES;t:b:YES;v:a:NO;");
    expect(&t, "SELECT is_updatable || is_insertable_into FROM information_schema.views WHERE table_name = 'v'",
           "NONO;");
    expect(&t, "SELECT constraint_name = (SELECT oid::text FROM pg_namespace WHERE nspname = 'public') || '_' ||"
               " 't'::regclass::oid::text || '_1_not_null' FROM information_schema.table_constraints"
               " WHERE table_name = 't'",
           "t;");
    expect(&t, "SELECT check_clause FROM information_schema.check_constraints WHERE constraint_schema = 'public'",
           "a IS NOT NULL;");
    expect(&t, "SELECT count(*) FROM information_schema.table_privileges WHERE table_name IN ('t', 'v', 'src', 'mv')",
           "21;");
    expect(&t, "SELECT grantee || ':' || count(*) FROM information_schema.column_privileges"
               " WHERE table_name = 't' GROUP BY grantee",
           "postgres:8;");
    expect(&t, "SELECT role_name FROM information_schema.enabled_roles", "alice;");
    expect(&t, "SELECT count(*) FROM information_schema.applicable_roles", "0;");
    tc_free(&t);
}

/* A schema off the search path: its relations print qualified and are not visible. */
static void names_off_the_path(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(tc_create_schema(&t, "s", false));
    UNIT_CHECK(tc_create(&t, CAT_ITEM_TABLE, "s.x", NULL));
    expect(&t, "SELECT 's.x'::regclass::text || ' ' || pg_table_is_visible('s.x'::regclass)", "s.x false;");
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    cm_buf_t out;
    cm_buf_init(&out, 0);
    UNIT_CHECK(!run(&t, "SELECT 'x'::regclass", &out, &err, NULL, &arena));
    UNIT_CHECK_STR(err.sqlstate, "42P01");
    cm_err_clear(&err);
    UNIT_CHECK(!run(&t, "SELECT 'a.b.c.d'::regclass", &out, &err, NULL, &arena));
    UNIT_CHECK_STR(err.sqlstate, "42601");
    cm_err_clear(&err);
    UNIT_CHECK(!run(&t, "SELECT 'a..b'::regclass", &out, &err, NULL, &arena));
    UNIT_CHECK_STR(err.sqlstate, "42602");
    cm_err_clear(&err);
    cm_buf_free(&out);
    cm_arena_free(&arena);
    tc_free(&t);
}

/* Runs one DDL statement through the planner and the catalog, as the server does. */
static bool ddl(tc_t *t, const char *sql)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_catalog_t cat = {.snap = t->snap, .search = t->search};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    bool ok = pln_parse(&arena, sql, strlen(sql), &raws, &err) &&
              pln_bind_catalog(&arena, raws.items[0], sql, NULL, 0, &settings, &cat, false, &st, &err) &&
              st->kind == PLN_DDL;
    if (ok) {
        tc_begin(t);
        ok = pln_ddl_plan(&arena, st, sql, &settings, &cat, t->last, &err) &&
             tc_commit_change(t, t->last, st->tag) == CAT_STORE_OK;
    }
    if (!ok)
        printf("  %s: %s %s\n", sql, err.sqlstate, err.message ? err.message : "");
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return ok;
}

/* Constraint names as PostgreSQL chooses them, OIDs that stay apart, and the limits of both. */
static void constraints_from_the_create_text(void)
{
    tc_t t;
    tc_init(&t);
    UNIT_CHECK(ddl(&t, "CREATE TABLE k (id int PRIMARY KEY, a int UNIQUE, b int, c int CHECK (c > 0),"
                       " CONSTRAINT k_a_key1 CHECK (b < 5), UNIQUE (a), UNIQUE (a, b), UNIQUE (b))"));
    UNIT_CHECK(ddl(&t, "CREATE TABLE plain (x int NOT NULL)"));
    /* a's second UNIQUE steps over the CHECK that took k_a_key1; the fourth key index has no OID left. */
    expect(&t, "SELECT conname || ':' || contype::text || ':' || (conindid <> 0)::text FROM pg_constraint"
               " ORDER BY oid",
           "k_pkey:p:true;k_a_key:u:true;k_c_check:c:false;k_a_key1:c:false;k_a_key2:u:true;"
           "k_a_b_key:u:false;k_b_key:u:false;");
    expect(&t, "SELECT count(DISTINCT oid) = count(*) FROM pg_constraint", "t;");
    expect(&t, "SELECT count(*) FROM pg_class c WHERE c.oid IN (SELECT conindid FROM pg_constraint)", "3;");
    expect(&t, "SELECT count(DISTINCT oid) = count(*) FROM pg_class", "t;");
    expect(&t, "SELECT pg_get_constraintdef(oid) FROM pg_constraint WHERE conname = 'k_a_b_key'", "UNIQUE (a, b);");
    expect(&t, "SELECT pg_get_indexdef('k_pkey'::regclass)",
           "CREATE UNIQUE INDEX k_pkey ON public.k USING btree (id);");
    expect(&t, "SELECT relchecks::text || ' ' || relhasindex::text FROM pg_class WHERE relname IN ('k', 'plain')"
               " ORDER BY relname",
           "2 true;0 false;");
    /* A table's constraints past the eighth are not listed (the OID scheme, pln_constraint.c). */
    UNIT_CHECK(ddl(&t, "CREATE TABLE many (a int CHECK (a > 1) CHECK (a > 2) CHECK (a > 3) CHECK (a > 4)"
                       " CHECK (a > 5) CHECK (a > 6) CHECK (a > 7) CHECK (a > 8) CHECK (a > 9))"));
    expect(&t, "SELECT count(*) FROM pg_constraint WHERE conrelid = 'many'::regclass", "8;");
    tc_free(&t);
}

int main(void)
{
    UNIT_RUN(every_view_binds_encodes_and_runs);
    UNIT_RUN(the_views_show_the_catalog);
    UNIT_RUN(names_off_the_path);
    UNIT_RUN(constraints_from_the_create_text);
    UNIT_RUN(information_schema_answers_for_eddy);
    UNIT_EXIT();
}
