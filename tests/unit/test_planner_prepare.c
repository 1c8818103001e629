/*
 * test_planner_prepare.c: the planner's side of SQL-level prepared
 * statements: how PREPARE, EXECUTE and DEALLOCATE bind, how
 * pln_prepare_bind binds the named statement in its own arena with error
 * positions in the whole query string, and how pln_execute_params turns
 * EXECUTE's arguments into parameter values. Expected errors are
 * PostgreSQL 15's.
 */
#include "common/common.h"
#include "planner/planner.h"
#include "tests/unit/unit.h"

#include <stdlib.h>

/* Parses sql and binds its statement number `index`. */
static pln_stmt_t *bind_at(cm_arena_t *a, const char *sql, int index, cm_err_t *err)
{
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    if (!pln_parse(a, sql, strlen(sql), &raws, err) || index >= raws.count ||
        !pln_bind(a, raws.items[index], sql, NULL, 0, &st, err))
        return NULL;
    return st;
}

static void test_commands_bind(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    const char *sql = "prepare p (int) as select $1; execute p(1); deallocate prepare p; deallocate all";
    pln_stmt_t *st = bind_at(&a, sql, 0, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_PREPARE && st->nparams == 0);
    UNIT_CHECK_STR(st->tag, "PREPARE");
    UNIT_CHECK_STR(st->prep_name, "p");
    st = bind_at(&a, sql, 1, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_EXECUTE && st->nparams == 0);
    UNIT_CHECK_STR(st->prep_name, "p");
    st = bind_at(&a, sql, 2, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_DEALLOCATE);
    UNIT_CHECK_STR(st->tag, "DEALLOCATE");
    st = bind_at(&a, sql, 3, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_DEALLOCATE && st->prep_name == NULL);
    UNIT_CHECK_STR(st->tag, "DEALLOCATE ALL");
    /* The named statement is not analysed yet: an error in it waits for the PREPARE to run. */
    st = bind_at(&a, "prepare q as select nosuch", 0, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_PREPARE);
    cm_err_clear(&err);
    cm_arena_free(&a);
}

/* Runs pln_prepare_bind for the PREPARE at `index` of sql into a fresh arena. */
static pln_stmt_t *prepare(cm_arena_t *keep, const char *sql, int index, const char **text, cm_err_t *err)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_stmt_t *out = NULL;
    size_t len = 0;
    pln_stmt_t *st = bind_at(&a, sql, index, err);
    if (st == NULL || !pln_prepare_bind(keep, st, sql, &settings, NULL, &out, text, &len, err))
        out = NULL;
    /* What the prepared statement holds must outlive the command's arena. */
    cm_arena_free(&a);
    return out;
}

static void test_prepare_bind(void)
{
    cm_arena_t keep;
    cm_arena_init(&keep, 4096);
    cm_err_t err = {0};
    const char *text = NULL;
    pln_stmt_t *st = prepare(&keep, "select 1; prepare p(int8, varchar(3)) as select $1 + 1 as n, $2, $3 || 'x'", 1,
                             &text, &err);
    UNIT_CHECK(st != NULL && st->kind == PLN_QUERY && st->nparams == 3);
    if (st != NULL && st->nparams == 3) {
        UNIT_CHECK(st->param_types[0] == TY_INT8 && st->param_types[1] == TY_VARCHAR && st->param_types[2] == TY_TEXT);
        UNIT_CHECK_STR(st->cols[0].name, "n");
        UNIT_CHECK(st->cols[0].type == TY_INT8 && st->cols[1].typmod == -1);
    }
    UNIT_CHECK_STR(text, "prepare p(int8, varchar(3)) as select $1 + 1 as n, $2, $3 || 'x'");

    /* Positions count in the whole string, in characters. */
    UNIT_CHECK(prepare(&keep, "SELECT 'ü'; PREPARE e1 AS SELECT nosuch", 1, &text, &err) == NULL);
    UNIT_CHECK_STR(err.sqlstate, "42703");
    UNIT_CHECK(err.position == 34);
    cm_err_clear(&err);
    UNIT_CHECK(prepare(&keep, "SELECT 1; PREPARE e2(int, nosuchtype) AS SELECT 1", 1, &text, &err) == NULL);
    UNIT_CHECK_STR(err.message, "type \"nosuchtype\" does not exist");
    UNIT_CHECK(err.position == 27);
    cm_err_clear(&err);
    /* PrepareQuery's check of parameter types has no position. */
    UNIT_CHECK(prepare(&keep, "PREPARE e3(int) AS SELECT $1, $3", 0, &text, &err) == NULL);
    UNIT_CHECK_STR(err.message, "could not determine data type of parameter $2");
    UNIT_CHECK(err.position == 0);
    cm_err_clear(&err);
    /* A constant that fails to fold is a planning error: kept for EXECUTE. */
    st = prepare(&keep, "PREPARE dz AS SELECT 1/0", 0, &text, &err);
    UNIT_CHECK(st != NULL && st->plan_error != NULL);
    UNIT_CHECK(st != NULL && !pln_plan_error_raise(st, &err));
    UNIT_CHECK_STR(err.sqlstate, "22012");
    cm_err_clear(&err);
    cm_arena_free(&keep);
}

/* pln_execute_params for the EXECUTE sql against parameters of `types`. */
static bool execute(const char *sql, const ty_oid_t *types, int n, cm_arena_t *a, cm_err_t *err, ty_datum_t **vals)
{
    static ty_settings_t settings;
    ty_settings_default(&settings);
    ty_ctx_t ctx = {.arena = a, .settings = &settings, .err = err};
    pln_stmt_t *st = bind_at(a, sql, 0, err);
    return st != NULL && pln_execute_params(st, sql, types, n, &ctx, vals);
}

static void test_execute_params(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    ty_datum_t *vals = NULL;
    const ty_oid_t types[3] = {TY_INT4, TY_TEXT, TY_INT2};
    /* Assignment rules: unknown literals convert, numeric rounds to int2, int4 becomes text. */
    UNIT_CHECK(execute("execute p('12', 3, 1.5)", types, 3, &a, &err, &vals));
    if (vals != NULL) {
        UNIT_CHECK(!vals[0].isnull && vals[0].v.i == 12);
        UNIT_CHECK(vals[1].v.s.len == 1 && vals[1].v.s.p[0] == '3');
        UNIT_CHECK(vals[2].v.i == 2);
    }
    UNIT_CHECK(!execute("execute p(1, 2)", types, 3, &a, &err, &vals));
    UNIT_CHECK_STR(err.sqlstate, "42601");
    UNIT_CHECK_STR(err.message, "wrong number of parameters for prepared statement \"p\"");
    UNIT_CHECK_STR(err.detail, "Expected 3 parameters but got 2.");
    cm_err_clear(&err);
    UNIT_CHECK(!execute("execute p(1, 'a', true)", types, 3, &a, &err, &vals));
    UNIT_CHECK_STR(err.message, "parameter $3 of type boolean cannot be coerced to the expected type smallint");
    UNIT_CHECK_STR(err.hint, "You will need to rewrite or cast the expression.");
    UNIT_CHECK(err.position == 19);
    cm_err_clear(&err);
    UNIT_CHECK(!execute("execute p('x', 'a', 1)", types, 3, &a, &err, &vals));
    UNIT_CHECK_STR(err.sqlstate, "22P02");
    UNIT_CHECK(err.position == 11);
    cm_err_clear(&err);
    /* Expressions over nothing. */
    static const char *const refused[][2] = {
        {"execute p(x, 'a', 1)", "42703"},    {"execute p($1, 'a', 1)", "42P02"},
        {"execute p((select 1), 'a', 1)", "0A000"}, {"execute p(count(*), 'a', 1)", "42803"},
        {"execute p(row_number() over (), 'a', 1)", "42P20"}, {"execute p(1/0, 'a', 1)", "22012"},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(refused); i++) {
        UNIT_CHECK(!execute(refused[i][0], types, 3, &a, &err, &vals));
        UNIT_CHECK_STR(err.sqlstate, refused[i][1]);
        cm_err_clear(&err);
    }
    /* PostgreSQL 15 looks at no argument of a statement without parameters. */
    UNIT_CHECK(execute("execute p(1/0, nosuch)", NULL, 0, &a, &err, &vals) && vals == NULL);
    cm_arena_free(&a);
}

int main(void)
{
    UNIT_RUN(test_commands_bind);
    UNIT_RUN(test_prepare_bind);
    UNIT_RUN(test_execute_params);
    UNIT_EXIT();
}
