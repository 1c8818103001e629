/*
 * test_planner_dml.c: writes bound into their plan_write_t (planner/pln_dml*.c,
 * pln_copy.c) against an embedded catalog, the path a statement takes in the
 * server: the target and its columns, NOT NULL, DEFAULTs, keys and CHECKs; the
 * rows' plan (run where it reads no table, so that column order, defaults and
 * coercions are checked on its rows; printed where it does); RETURNING's
 * columns; parameters; COPY's options; TRUNCATE's tables; and the errors kept
 * for Bind or for when the write runs. tests/diff/dml/ compares the errors
 * themselves with PostgreSQL's.
 */
#include "exec/exec.h"
#include "plan/plan.h"
#include "planner/planner.h"
#include "tests/unit/test_catalog_helpers.h"

#include <stdio.h>
#include <string.h>

static ty_settings_t settings;

/* Runs DDL through plan, commit and the log into t's snapshot. */
static void ddl(tc_t *t, const char *sql)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
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
    if (!ok) {
        printf("  ddl failed: %s: %s %s\n", sql, err.sqlstate, err.message ? err.message : "");
        unit__case_failed = 1;
    }
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

static tc_t cat_t;
static cm_arena_t arena;
static cm_err_t err;

/* Binds sql (defer: as Parse does, keeping planning errors); NULL with err set on failure. */
static pln_stmt_t *bind_as(const char *sql, bool defer, const ty_oid_t *declared, int ndeclared)
{
    pln_catalog_t *cat = cm_arena_zalloc(&arena, sizeof(*cat));
    *cat = (pln_catalog_t){.snap = cat_t.snap, .search = cat_t.search};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    cm_err_clear(&err);
    if (!pln_parse(&arena, sql, strlen(sql), &raws, &err) ||
        !pln_bind_catalog(&arena, raws.items[0], sql, declared, ndeclared, &settings, cat, defer, &st, &err))
        return NULL;
    return st;
}

static const plan_write_t *bind_write(const char *sql)
{
    pln_stmt_t *st = bind_as(sql, false, NULL, 0);
    if (!st) {
        printf("  %s: %s %s\n", sql, err.sqlstate, err.message ? err.message : "");
        unit__case_failed = 1;
        return NULL;
    }
    if (st->kind != PLN_WRITE || !st->write) {
        printf("  %s: not a write\n", sql);
        unit__case_failed = 1;
        return NULL;
    }
    return st->write;
}

/* "SQLSTATE message" of binding sql, or "ok". */
static const char *bind_error(const char *sql)
{
    if (bind_as(sql, false, NULL, 0))
        return "ok";
    return cm_arena_printf(&arena, "%s %s", err.sqlstate, err.message ? err.message : "");
}

static const char *error_text(const plan_error_t *e)
{
    return e ? cm_arena_printf(&arena, "%s %s", e->sqlstate, e->message) : "none";
}

typedef struct rows {
    const plan_t *p;
    ty_ctx_t *ctx;
    cm_buf_t out;
} rows_t;

static bool row_cb(void *arg, const ty_datum_t *row, int ncols)
{
    rows_t *r = arg;
    if (r->out.len)
        cm_buf_put_str(&r->out, "; ");
    for (int i = 0; i < ncols; i++) {
        if (i)
            cm_buf_put_str(&r->out, ", ");
        if (row[i].isnull)
            cm_buf_put_str(&r->out, "NULL");
        else if (!ty_datum_to_text(r->p->cols[i].type, &row[i], r->ctx, &r->out))
            return false;
    }
    return true;
}

/* The rows a write's plan gives (one that reads no table), as "a, b; c, d". */
static const char *plan_rows(const plan_write_t *w, const ty_datum_t *params)
{
    if (!w || !w->plan)
        return "(no plan)";
    cm_err_t e = {0};
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &e};
    rows_t r = {.p = w->plan, .ctx = &ctx};
    cm_buf_init(&r.out, 0);
    const char *s;
    if (!ex_run(w->plan, NULL, params, &ctx, row_cb, &r))
        s = cm_arena_printf(&arena, "ERROR %s %s", e.sqlstate, e.message);
    else
        s = cm_arena_strndup(&arena, r.out.len ? (const char *)r.out.data : "", r.out.len);
    cm_buf_free(&r.out);
    cm_err_clear(&e);
    return s;
}

/* The plan as EXPLAIN prints it. */
static const char *plan_text(const plan_write_t *w)
{
    cm_buf_t out;
    cm_buf_init(&out, 0);
    plan_explain(w->plan, &settings, &arena, &out);
    const char *s = cm_arena_strndup(&arena, (const char *)out.data, out.len);
    cm_buf_free(&out);
    return s;
}

static bool contains(const char *s, const char *part)
{
    if (!strstr(s, part)) {
        printf("  \"%s\" not in:\n%s\n", part, s);
        return false;
    }
    return true;
}

/* A CHECK's verdict over a row of text values (NULL: SQL NULL), as "true", "false" or "null". */
static const char *check_over(const plan_write_t *w, int k, const char *const *values)
{
    cm_err_t e = {0};
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &e};
    ty_datum_t *row = cm_arena_zalloc(&arena, sizeof(ty_datum_t) * (size_t)w->ncols);
    for (int i = 0; i < w->ncols; i++) {
        if (!values[i]) {
            row[i].isnull = true;
        } else if (!ty_datum_from_text(w->cols[i].type, w->cols[i].typmod, values[i], strlen(values[i]), &ctx, &row[i])) {
            cm_err_clear(&e);
            return "bad value";
        }
    }
    ty_datum_t out = {0};
    if (!ty_expr_eval(w->checks[k].expr, &ctx, row, NULL, &out)) {
        cm_err_clear(&e);
        return "error";
    }
    return out.isnull ? "null" : out.v.b ? "true" : "false";
}

static void setup(void)
{
    ty_settings_default(&settings);
    tc_init(&cat_t);
    cm_arena_init(&arena, 4096);
    ddl(&cat_t, "CREATE TABLE t (a int NOT NULL, b text DEFAULT 'x', c numeric(5,2) CHECK (c > 0), d varchar(3), "
                "e int DEFAULT 7 + 1, PRIMARY KEY (a))");
    ddl(&cat_t, "CREATE TABLE k (x int, y int, z text UNIQUE, CONSTRAINT k_xy UNIQUE (x, y), CHECK (x < y), "
                "CONSTRAINT a_first CHECK (z <> ''))");
    ddl(&cat_t, "CREATE TABLE u (id int, v text)");
    ddl(&cat_t, "CREATE VIEW v AS SELECT a, b FROM t");
    ddl(&cat_t, "CREATE VIEW vg AS SELECT a, count(*) AS n FROM t GROUP BY a");
    ddl(&cat_t, "CREATE MATERIALIZED VIEW mv AS SELECT a FROM t");
    ddl(&cat_t, "CREATE SOURCE s FROM LOAD GENERATOR COUNTER");
    ddl(&cat_t, "CREATE SOURCE tp FROM LOAD GENERATOR TPCH");
    ddl(&cat_t, "CREATE TABLE nation FROM SOURCE tp (REFERENCE nation)");
}

/* The table as the write sees it: columns, NOT NULL, defaults, keys and checks. */
static void table_described(void)
{
    const plan_write_t *w = bind_write("INSERT INTO t (a) VALUES (1)");
    if (!w)
        return;
    UNIT_CHECK(w->kind == PLAN_WRITE_INSERT);
    UNIT_CHECK_STR(w->name, "t");
    UNIT_CHECK_STR(w->schema, "public");
    UNIT_CHECK_STR(w->relname, "eddy.public.t");
    UNIT_CHECK(w->item != 0 && w->table_oid >= 16384);
    UNIT_CHECK(w->ncols == 5);
    UNIT_CHECK_STR(w->cols[2].name, "c");
    UNIT_CHECK(w->cols[2].type == TY_NUMERIC && w->cols[2].typmod == ((5 << 16) | 2) + 4);
    UNIT_CHECK(w->cols[3].type == TY_VARCHAR && w->cols[3].typmod == 3 + 4);
    UNIT_CHECK(w->not_null[0] && !w->not_null[1] && !w->not_null[2]);
    UNIT_CHECK(w->defaults[0] == NULL && w->defaults[1] != NULL && w->defaults[4] != NULL);
    UNIT_CHECK(w->defaults[1] && w->defaults[1]->type == TY_TEXT);
    /* 7 + 1 is folded once bound, as PostgreSQL's planner folds the default it inserts. */
    UNIT_CHECK(w->defaults[4] && w->defaults[4]->kind == TY_EXPR_CONST && w->defaults[4]->value.v.i == 8);
    UNIT_CHECK(w->nkeys == 1);
    if (w->nkeys == 1) {
        UNIT_CHECK_STR(w->keys[0].name, "t_pkey");
        UNIT_CHECK(w->keys[0].primary && w->keys[0].ncols == 1 && w->keys[0].cols[0] == 0);
    }
    UNIT_CHECK(w->nchecks == 1);
    if (w->nchecks == 1) {
        UNIT_CHECK_STR(w->checks[0].name, "t_c_check");
        UNIT_CHECK(w->checks[0].expr->type == TY_BOOL);
        const char *neg[] = {"1", "x", "-1.5", NULL, "8"}, *pos[] = {"1", "x", "2", NULL, "8"},
                   *null[] = {"1", "x", NULL, NULL, "8"};
        UNIT_CHECK_STR(check_over(w, 0, neg), "false");
        UNIT_CHECK_STR(check_over(w, 0, pos), "true");
        UNIT_CHECK_STR(check_over(w, 0, null), "null");   /* NULL passes a CHECK */
    }
    UNIT_CHECK(w->plan && w->plan->ncols == 5 && w->nreturning == 0 && !w->each_value && !w->error);

    /* Keys in index order (the primary key first, then as declared); checks by name. */
    w = bind_write("INSERT INTO k VALUES (1, 2, 'z')");
    if (!w)
        return;
    UNIT_CHECK(w->nkeys == 2);
    if (w->nkeys == 2) {
        UNIT_CHECK_STR(w->keys[0].name, "k_z_key");
        UNIT_CHECK(!w->keys[0].primary && w->keys[0].ncols == 1 && w->keys[0].cols[0] == 2);
        UNIT_CHECK_STR(w->keys[1].name, "k_xy");
        UNIT_CHECK(w->keys[1].ncols == 2 && w->keys[1].cols[0] == 0 && w->keys[1].cols[1] == 1);
    }
    UNIT_CHECK(w->nchecks == 2);
    if (w->nchecks == 2) {
        UNIT_CHECK_STR(w->checks[0].name, "a_first");
        UNIT_CHECK_STR(w->checks[1].name, "k_check");
        const char *row[] = {"3", "2", "z"};
        UNIT_CHECK_STR(check_over(w, 1, row), "false");
        UNIT_CHECK_STR(check_over(w, 0, row), "true");
    }
}

/* INSERT's rows: the table's columns in order, listed ones coerced, the others defaulted. */
static void insert_rows(void)
{
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (a) VALUES (1)"), NULL), "1, x, NULL, NULL, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (d, a) VALUES ('ab', '2'), ('c', 3)"), NULL),
                   "2, x, NULL, ab, 8; 3, x, NULL, c, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t VALUES (1, DEFAULT, 1.005, DEFAULT, DEFAULT)"), NULL),
                   "1, x, 1.01, NULL, 8");   /* numeric(5,2) rounds */
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t VALUES (4, 'y')"), NULL), "4, y, NULL, NULL, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t DEFAULT VALUES"), NULL), "NULL, x, NULL, NULL, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (a, b) VALUES (1.6, 2), (2::int8, 3.5)"), NULL),
                   "2, 2, NULL, NULL, 8; 2, 3.5, NULL, NULL, 8");   /* assignment casts */
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (a) VALUES (generate_series(1, 3))"), NULL),
                   "1, x, NULL, NULL, 8; 2, x, NULL, NULL, 8; 3, x, NULL, NULL, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (e, a) SELECT 10, 1 UNION ALL SELECT 11, 2"), NULL),
                   "1, x, NULL, NULL, 10; 2, x, NULL, NULL, 11");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (a) SELECT '5'"), NULL), "5, x, NULL, NULL, 8");
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t (a) VALUES ((SELECT 6))"), NULL), "6, x, NULL, NULL, 8");
    /* A NULL for a NOT NULL column is the executor's to refuse (23502), as in PostgreSQL. */
    UNIT_CHECK_STR(plan_rows(bind_write("INSERT INTO t VALUES (NULL)"), NULL), "NULL, x, NULL, NULL, 8");
    /* A value too long for varchar(3) fails when planned (22001), so Parse keeps it for Bind. */
    UNIT_CHECK_STR(bind_error("INSERT INTO t (a, d) VALUES (1, 'abcd')"),
                   "22001 value too long for type character varying(3)");
    pln_stmt_t *st = bind_as("INSERT INTO t (a, d) VALUES (1, 'abcd')", true, NULL, 0);
    UNIT_CHECK(st && st->plan_error && strcmp(st->plan_error->sqlstate, "22001") == 0);
    /* INSERT ... SELECT reads its relations through the plan (GET), coerced on the way. */
    const plan_write_t *w = bind_write("INSERT INTO t (a, b) SELECT id, v FROM u WHERE id > 0");
    if (w)
        UNIT_CHECK(contains(plan_text(w), "Get eddy.public.u"));
}

/* RETURNING: columns after the table's, over the new row, with their origin for RowDescription. */
static void insert_returning(void)
{
    pln_stmt_t *st = bind_as("INSERT INTO t AS x (a, c) VALUES (1, 2) RETURNING x.a + 1 AS n, *, 'lit'", false,
                             NULL, 0);
    UNIT_CHECK(st != NULL);
    if (!st)
        return;
    const plan_write_t *w = st->write;
    UNIT_CHECK(st->ncols == 7 && w->nreturning == 7 && w->returning == st->cols);
    UNIT_CHECK_STR(st->cols[0].name, "n");
    UNIT_CHECK(st->cols[0].type == TY_INT4 && st->cols[0].table_oid == 0);
    UNIT_CHECK_STR(st->cols[1].name, "a");
    UNIT_CHECK(st->cols[1].table_oid == w->table_oid && st->cols[1].attnum == 1);
    UNIT_CHECK(st->cols[4].type == TY_VARCHAR && st->cols[4].typmod == 7);
    UNIT_CHECK_STR(st->cols[6].name, "?column?");
    UNIT_CHECK(st->cols[6].type == TY_TEXT);
    UNIT_CHECK(w->plan->ncols == 5 + 7);
    UNIT_CHECK_STR(plan_rows(w, NULL), "1, x, 2.00, NULL, 8, 2, 1, x, 2.00, NULL, 8, lit");
    UNIT_CHECK_STR(st->tag, "INSERT");
}

/* $n take the types of what they are assigned to. */
static void parameters(void)
{
    pln_stmt_t *st = bind_as("INSERT INTO t (d, a) VALUES ($1, $2) RETURNING $3", true, NULL, 0);
    UNIT_CHECK(st && st->nparams == 3);
    if (st && st->nparams == 3)
        UNIT_CHECK(st->param_types[0] == TY_VARCHAR && st->param_types[1] == TY_INT4 && st->param_types[2] == TY_TEXT);
    if (st) {
        ty_datum_t params[3] = {{.v.s = {.p = "ab", .len = 2}}, {.v.i = 9}, {.v.s = {.p = "r", .len = 1}}};
        UNIT_CHECK(st->write->plan->nparams == 3);
        UNIT_CHECK_STR(plan_rows(st->write, params), "9, x, NULL, ab, 8, r");
    }
    st = bind_as("UPDATE t SET c = $1 WHERE a = $2", true, NULL, 0);
    UNIT_CHECK(st && st->nparams == 2 && st->param_types[0] == TY_NUMERIC && st->param_types[1] == TY_INT4);
    /* A declared type is kept and coerced by assignment. */
    ty_oid_t declared[] = {TY_INT8};
    st = bind_as("INSERT INTO t (a) VALUES ($1)", true, declared, 1);
    UNIT_CHECK(st && st->param_types[0] == TY_INT8);
    st = bind_as("DELETE FROM t WHERE b = $1 RETURNING a", true, NULL, 0);
    UNIT_CHECK(st && st->nparams == 1 && st->param_types[0] == TY_TEXT && st->ncols == 1);
}

/* UPDATE's rows: old values, new values (SET coerced, DEFAULT filled), then RETURNING. */
static void update_rows(void)
{
    pln_stmt_t *st = bind_as("UPDATE t SET b = DEFAULT, (d, c) = ('p', 1), e = e + 1 WHERE a > 0 RETURNING a, d",
                             false, NULL, 0);
    UNIT_CHECK(st != NULL);
    if (!st)
        return;
    const plan_write_t *w = st->write;
    UNIT_CHECK(w->kind == PLAN_WRITE_UPDATE && !w->each_value && w->nreturning == 2);
    UNIT_CHECK(w->plan->ncols == 5 + 5 + 2);
    UNIT_CHECK_STR(w->plan->cols[5].name, "a");
    UNIT_CHECK_STR(st->cols[1].name, "d");
    UNIT_CHECK_STR(st->tag, "UPDATE");
    const char *p = plan_text(w);
    UNIT_CHECK(contains(p, "Get eddy.public.t"));
    UNIT_CHECK(contains(p, "(#0 > 0)"));
    UNIT_CHECK(contains(p, "'x'"));
    UNIT_CHECK(contains(p, "Map ('x', 1.00, 'p', #4 + 1)"));
    /* FROM: one row per distinct old row, whatever it was joined with. */
    const plan_write_t *f = bind_write("UPDATE t SET b = u.v FROM u WHERE u.id = t.a RETURNING u.id, t.b");
    if (f) {
        UNIT_CHECK(f->each_value && f->nreturning == 2);
        UNIT_CHECK(contains(plan_text(f), "TopK group_by=[#0, #1, #2, #3, #4] limit=1"));
        UNIT_CHECK(contains(plan_text(f), "Get eddy.public.u"));
    }
    UNIT_CHECK_STR(bind_error("UPDATE t SET b = 'p', (b) = ROW('q')"), "42601 multiple assignments to same column \"b\"");
    UNIT_CHECK_STR(bind_error("UPDATE t SET (b, d) = (SELECT 'p', 'q')"),
                   "0A000 a sub-SELECT as the source of a multiple-column UPDATE item is not supported yet");
    UNIT_CHECK_STR(bind_error("UPDATE t SET a.f = 1"),
                   "42804 cannot assign to field \"f\" of column \"a\" because its type integer is not a composite type");
}

static void delete_rows(void)
{
    pln_stmt_t *st = bind_as("DELETE FROM t AS x USING u WHERE u.id = x.a RETURNING x.*, u.v", false, NULL, 0);
    UNIT_CHECK(st != NULL);
    if (!st)
        return;
    const plan_write_t *w = st->write;
    UNIT_CHECK(w->kind == PLAN_WRITE_DELETE && w->each_value && w->nreturning == 6);
    UNIT_CHECK(w->plan->ncols == 5 + 6);
    UNIT_CHECK_STR(st->cols[5].name, "v");
    UNIT_CHECK_STR(st->tag, "DELETE");
    w = bind_write("DELETE FROM t WHERE a IN (SELECT id FROM u)");
    if (w)
        UNIT_CHECK(!w->each_value && w->plan->ncols == 5 && w->nreturning == 0);
}

/* What is not a table: each refusal at the moment PostgreSQL makes it. */
static void not_tables(void)
{
    /* A view: after analysis, at Parse (PostgreSQL's rewriter), with its reason. */
    UNIT_CHECK_STR(bind_error("INSERT INTO vg (nosuch) VALUES (1)"), "42703 column \"nosuch\" of relation \"vg\" does not exist");
    UNIT_CHECK_STR(bind_error("INSERT INTO vg VALUES (1)"), "55000 cannot insert into view \"vg\"");
    UNIT_CHECK_STR(err.detail, "Views containing GROUP BY are not automatically updatable.");
    UNIT_CHECK_STR(bind_error("DELETE FROM v"), "0A000 cannot delete from view \"v\"");
    /* A materialized view: binds and describes, refused when it runs. */
    const plan_write_t *w = bind_write("UPDATE mv SET a = 1");
    if (w)
        UNIT_CHECK_STR(error_text(w->error), "42809 cannot change materialized view \"mv\"");
    /* A source: refused when planned, kept for Bind by Parse. */
    UNIT_CHECK_STR(bind_error("INSERT INTO s VALUES (1)"), "55000 cannot insert into source \"s\"");
    pln_stmt_t *st = bind_as("INSERT INTO s VALUES (1)", true, NULL, 0);
    UNIT_CHECK(st && st->plan_error && strcmp(st->plan_error->sqlstate, "55000") == 0);
    UNIT_CHECK_STR(bind_error("INSERT INTO s VALUES ('x'::text)"),
                   "42804 column \"counter\" is of type bigint but expression is of type text");
    UNIT_CHECK_STR(bind_error("DELETE FROM nation"), "55000 cannot delete from table \"nation\"");
    UNIT_CHECK_STR(err.detail, "Its rows come from source \"tp\".");
    UNIT_CHECK_STR(bind_error("UPDATE pg_class SET relname = 'x'"), "42501 permission denied: \"pg_class\" is a system catalog");
    UNIT_CHECK_STR(bind_error("DELETE FROM pg_tables"), "55000 cannot delete from view \"pg_tables\"");
    UNIT_CHECK_STR(bind_error("INSERT INTO eddy_catalog.items VALUES (1)"),
                   "42501 permission denied: \"items\" is a system catalog");
    UNIT_CHECK_STR(bind_error("INSERT INTO nosuch VALUES (1)"), "42P01 relation \"nosuch\" does not exist");
    UNIT_CHECK(err.position == 13);
    UNIT_CHECK_STR(bind_error("INSERT INTO t VALUES (1) ON CONFLICT DO NOTHING"),
                   "0A000 INSERT ... ON CONFLICT is not supported yet");
    UNIT_CHECK_STR(bind_error("WITH q AS (SELECT 1) DELETE FROM t"), "0A000 WITH before DELETE is not supported yet");
    UNIT_CHECK_STR(bind_error("WITH q AS (DELETE FROM t RETURNING a) SELECT * FROM q"),
                   "0A000 data-modifying statements in WITH are not supported yet");
}

/* COPY FROM STDIN: its columns and options with PostgreSQL's defaults; its errors wait for it to run. */
static void copy_options(void)
{
    const plan_write_t *w = bind_write("COPY t (d, a) FROM STDIN");
    if (!w)
        return;
    const plan_copy_t *c = w->copy;
    UNIT_CHECK(w->kind == PLAN_WRITE_COPY && c && !w->error && !w->plan);
    if (!c)
        return;
    UNIT_CHECK(c->format == PLAN_COPY_TEXT && c->delimiter == '\t' && c->header == PLAN_COPY_HEADER_NONE);
    UNIT_CHECK_STR(c->null_string, "\\N");
    UNIT_CHECK(c->ncols == 2 && c->cols[0] == 3 && c->cols[1] == 0);
    UNIT_CHECK(w->defaults[1] != NULL);   /* the columns the input lacks take their DEFAULT */

    c = bind_write("COPY t FROM STDIN WITH (FORMAT csv, HEADER match, FORCE_NOT_NULL (b), FORCE_NULL (d))")->copy;
    UNIT_CHECK(c->format == PLAN_COPY_CSV && c->delimiter == ',' && c->quote == '"' && c->escape == '"');
    UNIT_CHECK(c->header == PLAN_COPY_HEADER_MATCH && c->null_string && c->null_string[0] == '\0');
    UNIT_CHECK(c->ncols == 5 && c->force_not_null && c->force_not_null[1] && !c->force_not_null[0]);
    UNIT_CHECK(c->force_null && c->force_null[3] && !c->force_null[1]);
    c = bind_write("COPY t FROM STDIN CSV HEADER DELIMITER ';' NULL 'nil' QUOTE '''' ESCAPE '\\'")->copy;
    UNIT_CHECK(c->format == PLAN_COPY_CSV && c->header == PLAN_COPY_HEADER_SKIP && c->delimiter == ';');
    UNIT_CHECK(c->quote == '\'' && c->escape == '\\');
    UNIT_CHECK_STR(c->null_string, "nil");
    c = bind_write("COPY t FROM STDIN (FORMAT binary, FREEZE)")->copy;
    UNIT_CHECK(c->format == PLAN_COPY_BINARY && c->freeze);

    /* Errors are PostgreSQL's, raised when the COPY runs. */
    struct {
        const char *sql, *want;
    } bad[] = {
        {"COPY nosuch FROM STDIN", "42P01 relation \"nosuch\" does not exist"},
        {"COPY t (a, a) FROM STDIN", "42701 column \"a\" specified more than once"},
        {"COPY t FROM STDIN (FORMAT xml)", "22023 COPY format \"xml\" not recognized"},
        {"COPY t FROM STDIN (DELIMITER ';;')", "0A000 COPY delimiter must be a single one-byte character"},
        {"COPY t FROM STDIN (FORMAT binary, NULL 'x')", "42601 cannot specify NULL in BINARY mode"},
        {"COPY t FROM STDIN (FORMAT csv, NULL 'a\"b')", "22023 CSV quote character must not appear in the NULL specification"},
        {"COPY t (a) FROM STDIN (FORMAT csv, FORCE_NULL (b))", "42P10 FORCE_NULL column \"b\" not referenced by COPY"},
        {"COPY t FROM STDIN (HEADER 'maybe')", "42601 header requires a Boolean value or \"match\""},
        {"COPY t FROM STDIN (FREEZE 2)", "42601 freeze requires a Boolean value"},
        {"COPY t FROM STDIN (DELIMITER)", "42601 delimiter requires a parameter"},
        {"COPY t FROM STDIN (ENCODING 'latin1')", "0A000 COPY with an encoding other than UTF8 is not supported yet"},
        {"COPY v FROM STDIN", "42809 cannot copy to view \"v\""},
        {"COPY mv FROM STDIN", "42809 cannot copy to materialized view \"mv\""},
        {"COPY s FROM STDIN", "55000 cannot copy to source \"s\""},
    };
    for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
        pln_stmt_t *st = bind_as(bad[i].sql, true, NULL, 0);
        if (!st || st->kind != PLN_WRITE) {
            printf("  %s: does not bind\n", bad[i].sql);
            unit__case_failed = 1;
            continue;
        }
        if (strcmp(error_text(st->write->error), bad[i].want) != 0) {
            printf("  %s: got %s, want %s\n", bad[i].sql, error_text(st->write->error), bad[i].want);
            unit__case_failed = 1;
        }
    }
}

static void truncate_tables(void)
{
    pln_stmt_t *st = bind_as("TRUNCATE TABLE t, ONLY u RESTART IDENTITY CASCADE", true, NULL, 0);
    UNIT_CHECK(st && st->kind == PLN_WRITE);
    if (!st)
        return;
    UNIT_CHECK_STR(st->tag, "TRUNCATE TABLE");
    const plan_write_t *w = st->write;
    UNIT_CHECK(w->kind == PLAN_WRITE_TRUNCATE && !w->error && !w->plan);
    UNIT_CHECK_STR(w->name, "t");
    UNIT_CHECK(w->next && strcmp(w->next->name, "u") == 0 && !w->next->next);
    st = bind_as("TRUNCATE u, v, nosuch", true, NULL, 0);
    UNIT_CHECK(st && strcmp(error_text(st->write->error), "42809 \"v\" is not a table") == 0);
}

/* PREPARE ... AS INSERT binds the write it names, parameters typed by their columns. */
static void prepared(void)
{
    const char *sql = "PREPARE p AS INSERT INTO t (a, b) VALUES ($1, $2) RETURNING a";
    pln_stmt_t *prep = bind_as(sql, false, NULL, 0);
    UNIT_CHECK(prep && prep->kind == PLN_PREPARE);
    if (!prep)
        return;
    pln_catalog_t cat = {.snap = cat_t.snap, .search = cat_t.search};
    pln_stmt_t *out = NULL;
    const char *text;
    size_t len;
    UNIT_CHECK(pln_prepare_bind(&arena, prep, sql, &settings, &cat, &out, &text, &len, &err));
    UNIT_CHECK(out && out->kind == PLN_WRITE && out->nparams == 2 && out->ncols == 1);
    if (out && out->nparams == 2)
        UNIT_CHECK(out->param_types[0] == TY_INT4 && out->param_types[1] == TY_TEXT);
}

int main(void)
{
    setup();
    UNIT_RUN(table_described);
    UNIT_RUN(insert_rows);
    UNIT_RUN(insert_returning);
    UNIT_RUN(parameters);
    UNIT_RUN(update_rows);
    UNIT_RUN(delete_rows);
    UNIT_RUN(not_tables);
    UNIT_RUN(copy_options);
    UNIT_RUN(truncate_tables);
    UNIT_RUN(prepared);
    cm_err_clear(&err);
    cm_arena_free(&arena);
    tc_free(&cat_t);
    UNIT_EXIT();
}
