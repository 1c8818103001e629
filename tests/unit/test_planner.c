/*
 * test_planner.c: end-to-end tests of parse + bind + run for constant
 * queries and session commands. Each case renders what a client would see
 * (column names, format_type of the column types, rows as text, or the
 * error's SQLSTATE, position and message) in the same shape as a libpq
 * client printing PostgreSQL 15's answer, and the expected strings were
 * taken from PostgreSQL 15 itself.
 *
 * With --print the program prints the rendering of each case's SQL instead.
 */
#include "common/common.h"
#include "exec/exec.h"
#include "planner/planner.h"
#include "tests/unit/test_rows.h"
#include "tests/unit/unit.h"

#include <stdlib.h>
#include <strings.h>

typedef struct render_ctx {
    cm_buf_t *out;
    ty_ctx_t *ctx;
    const pln_stmt_t *st;
    int rows;
} render_ctx_t;

static bool render_row(void *arg, const ty_datum_t *row, int ncols)
{
    render_ctx_t *r = arg;
    if (r->rows++ >= 5)
        return true;
    cm_buf_put_str(r->out, " [");
    if (!tr_put_values(r->out, r->st, r->ctx, row, ncols, ","))
        return false;
    cm_buf_put_u8(r->out, ']');
    return true;
}

/* A stand-in for the server's session settings behind current_setting() and set_config(). */
static const char *test_names[] = {"DateStyle", "application_name", "TimeZone", "max_recursive_iterations"};
static char test_values[4][64] = {"ISO, MDY", "", "UTC", "100"};

static int test_setting_find(const char *name)
{
    for (int i = 0; i < 4; i++)
        if (strcasecmp(test_names[i], name) == 0)
            return i;
    return -1;
}

static bool test_setting_get(void *arg, const char *name, bool missing_ok, cm_buf_t *out, cm_err_t *err)
{
    int i = test_setting_find(name);
    if (i < 0) {
        if (!missing_ok)
            cm_err_set(err, "42704", "unrecognized configuration parameter \"%s\"", name);
        return false;
    }
    cm_buf_put_str(out, test_values[i]);
    return true;
}

static bool test_setting_set(void *arg, const char *name, const char *value, bool is_local, cm_err_t *err)
{
    int i = test_setting_find(name);
    if (i < 0)
        return cm_err_set(err, "42704", "unrecognized configuration parameter \"%s\"", name);
    snprintf(test_values[i], sizeof test_values[i], "%s", value ? value : "");
    return true;
}

/* Renders one statement's result the way the reference client prints it. */
static char *run_sql(const char *sql, const ty_oid_t *declared, int ndeclared, const ty_datum_t *params)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    cm_buf_t out;
    cm_buf_init(&out, 0);
    ty_settings_t settings;
    ty_settings_default(&settings);
    /* One transaction timestamp for the statement, as the server sets it (now() - now() is 0). */
    int64_t ts = cm_now_wall_us() - INT64_C(946684800000000);
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &err, .user = "postgres",
                    .database = "postgres", .schema = "public", .version = "eddy", .xact_ts = ts, .stmt_ts = ts,
                    .setting_get = test_setting_get, .setting_set = test_setting_set};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    if (!pln_parse(&arena, sql, strlen(sql), &raws, &err) ||
        !pln_bind_session(&arena, raws.items[0], sql, declared, ndeclared, &settings, &st, &err)) {
        goto error;
    }
    if (st->kind == PLN_QUERY) {
        for (int i = 0; i < st->ncols; i++) {
            cm_buf_printf(&out, "%s:", st->cols[i].name);
            ty_format_type(st->cols[i].type, st->cols[i].typmod, &out);
            cm_buf_printf(&out, "(%u,%d) ", st->cols[i].type, st->cols[i].typmod);
        }
        cm_buf_put_u8(&out, '|');
        render_ctx_t rc = {.out = &out, .ctx = &ctx, .st = st};
        if (!ex_run(st->query, sql, params, &ctx, render_row, &rc)) {
            /* After RowDescription: the client sees the columns, the rows sent, then the error. */
            cm_buf_put_u8(&out, ' ');
            goto run_error;
        }
    } else {
        cm_buf_printf(&out, "%s", st->tag);
        if (st->var_name)
            cm_buf_printf(&out, " name=%s", st->var_name);
        if (st->kind == PLN_SET)
            cm_buf_printf(&out, " value=%s local=%d", st->var_value ? st->var_value : "DEFAULT", st->set_local);
        if (st->isolation)
            cm_buf_printf(&out, " isolation=%s", st->isolation);
        if (st->read_only)
            cm_buf_put_str(&out, " read_only");
    }
    goto done;
error:
    cm_buf_reset(&out);
run_error:
    cm_buf_printf(&out, "ERROR %s pos=%d %s", err.sqlstate, err.position, err.message);
    if (err.hint)
        cm_buf_printf(&out, " HINT: %s", err.hint);
done:
    cm_buf_put_u8(&out, '\0');
    char *s = cm_strdup((const char *)out.data);
    cm_buf_free(&out);
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return s;
}

typedef struct pcase {
    const char *sql;
    const char *want;
} pcase_t;

/* Expected answers are PostgreSQL 15's (column names, types, values, errors). */
static const pcase_t cases[] = {
#include "tests/unit/test_planner_cases.h"
};

static bool print_mode;

static void test_cases(void)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        char *got = run_sql(cases[i].sql, NULL, 0, NULL);
        if (print_mode)
            printf("%s\n  %s\n", cases[i].sql, got);
        else if (strcmp(got, cases[i].want) != 0) {
            printf("  case: %s\n    want: %s\n    got:  %s\n", cases[i].sql, cases[i].want, got);
            unit__case_failed = 1;
        }
        free(got);
    }
}

static void test_select_one_fast_path(void)
{
    char *got = run_sql("SELECT 1", NULL, 0, NULL);
    UNIT_CHECK_STR(got, "?column?:integer(23,-1) | [1]");
    free(got);
}

static void test_parameters_declared_and_inferred(void)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    pln_raw_list_t raws;
    pln_stmt_t *st;
    const char *sql = "select $1 + 1, $2";
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    ty_oid_t declared[1] = {0};
    UNIT_CHECK(pln_bind(&arena, raws.items[0], sql, declared, 1, &st, &err));
    UNIT_CHECK(st->nparams == 2 && st->param_types[0] == TY_INT4 && st->param_types[1] == TY_TEXT);
    UNIT_CHECK(st->cols[0].type == TY_INT4 && st->cols[1].type == TY_TEXT);

    /* A declared type wins over inference. */
    sql = "select $1 + 1";
    ty_oid_t int8[1] = {TY_INT8};
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(pln_bind(&arena, raws.items[0], sql, int8, 1, &st, &err));
    UNIT_CHECK(st->param_types[0] == TY_INT8 && st->cols[0].type == TY_INT8);

    /* Run with a value. */
    ty_datum_t p = {.v.i = 41};
    char *got = run_sql("select $1 + 1 as answer", int8, 1, &p);
    UNIT_CHECK_STR(got, "answer:bigint(20,-1) | [42]");
    free(got);

    /* Nothing says what $1 is. */
    sql = "select $1 is null";
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(!pln_bind(&arena, raws.items[0], sql, NULL, 0, &st, &err));
    UNIT_CHECK_STR(err.sqlstate, "42P18");
    UNIT_CHECK_STR(err.message, "could not determine data type of parameter $1");
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

/* Without the session's settings a datetime literal waits for run time, and so does a folding error. */
static void test_fold_without_settings(void)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    pln_raw_list_t raws;
    pln_stmt_t *st;
    const char *sql = "select 1/0, date 'foo'";
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(pln_bind(&arena, raws.items[0], sql, NULL, 0, &st, &err));
    ty_settings_t settings;
    ty_settings_default(&settings);
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &err};
    UNIT_CHECK(!ex_run(st->query, sql, NULL, &ctx, render_row, NULL));
    UNIT_CHECK_STR(err.sqlstate, "22007");
    UNIT_CHECK(err.position == 18);
    cm_err_clear(&err);
    sql = "select 1/0";
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(!pln_bind(&arena, raws.items[0], sql, NULL, 0, &st, &err));
    UNIT_CHECK_STR(err.sqlstate, "22012");
    UNIT_CHECK(err.position == 0);
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

/* WITH RECURSIVE stops at max_recursive_iterations (100 here) with 54000, and reaches it exactly. */
static void test_recursion_limit(void)
{
    char *got = run_sql("with recursive t(n) as (select 1 union all select n + 1 from t where n < 100) "
                        "select count(*), max(n) from t", NULL, 0, NULL);
    UNIT_CHECK_STR(got, "count:bigint(20,-1) max:integer(23,-1) | [100,100]");
    free(got);
    got = run_sql("with recursive t(n) as (select 1 union all select n + 1 from t where n < 101) select count(*) from t",
                  NULL, 0, NULL);
    UNIT_CHECK_STR(got, "count:bigint(20,-1) | ERROR 54000 pos=0 recursive query \"t\" did not finish within 100 iterations "
                        "HINT: Check the recursive term's stop condition, or raise max_recursive_iterations.");
    free(got);
    /* Reading only part of an endless recursion never reaches the limit. */
    got = run_sql("with recursive t(n) as (select 1 union all select n + 1 from t) select n from t limit 3", NULL, 0,
                  NULL);
    UNIT_CHECK_STR(got, "n:integer(23,-1) | [1] [2] [3]");
    free(got);
}

static void test_commands(void)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    pln_raw_list_t raws;
    const char *sql = "set local search_path = a, 'b'; show all; begin isolation level serializable read only; "
                      "rollback; discard all; reset all; ";
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(raws.count == 6);
    pln_stmt_t *st[6];
    for (int i = 0; i < raws.count && i < 6; i++)
        UNIT_CHECK(pln_bind(&arena, raws.items[i], sql, NULL, 0, &st[i], &err));
    UNIT_CHECK(st[0]->kind == PLN_SET && st[0]->set_local);
    UNIT_CHECK_STR(st[0]->var_value, "a, b");
    UNIT_CHECK(st[1]->kind == PLN_SHOW && st[1]->ncols == 3);
    UNIT_CHECK(st[2]->kind == PLN_BEGIN && st[2]->read_only);
    UNIT_CHECK_STR(st[2]->isolation, "serializable");
    UNIT_CHECK(st[3]->kind == PLN_ROLLBACK);
    UNIT_CHECK_STR(st[4]->tag, "DISCARD ALL");
    UNIT_CHECK(st[5]->kind == PLN_RESET && st[5]->var_name == NULL);
    int off, len;
    pln_raw_span(raws.items[1], &off, &len);
    UNIT_CHECK(off == 32 && len == 8);

    /* The empty string is one empty statement. */
    UNIT_CHECK(pln_parse(&arena, " -- nothing\n", 12, &raws, &err) && raws.count == 1);
    UNIT_CHECK(pln_bind(&arena, raws.items[0], " -- nothing\n", NULL, 0, &st[0], &err));
    UNIT_CHECK(st[0]->kind == PLN_EMPTY);

    /* A syntax error anywhere fails the whole string, with PostgreSQL's position. */
    sql = "select 1; select 'ü' +";
    UNIT_CHECK(!pln_parse(&arena, sql, strlen(sql), &raws, &err));
    UNIT_CHECK(err.position == 23);
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

static void put_c_string(const char *before, const char *s, const char *after)
{
    printf("%s\"", before);
    for (; *s; s++)
        printf(*s == '"' || *s == '\\' ? "\\%c" : "%c", *s);
    printf("\"%s", after);
}

int main(int argc, char **argv)
{
    if (argc > 1 && strcmp(argv[1], "--stdin") == 0) {
        /* One statement per input line, printed as a case: for comparing with PostgreSQL by hand. */
        char line[8192];
        while (fgets(line, sizeof line, stdin)) {
            line[strcspn(line, "\n")] = '\0';
            if (!line[0] || strncmp(line, "--", 2) == 0)
                continue;
            char *got = run_sql(line, NULL, 0, NULL);
            put_c_string("{", line, ",\n ");
            put_c_string("", got, "},\n");
            free(got);
        }
        return 0;
    }
    print_mode = argc > 1 && strcmp(argv[1], "--print") == 0;
    if (print_mode) {
        test_cases();
        return 0;
    }
    UNIT_RUN(test_select_one_fast_path);
    UNIT_RUN(test_parameters_declared_and_inferred);
    UNIT_RUN(test_fold_without_settings);
    UNIT_RUN(test_commands);
    UNIT_RUN(test_recursion_limit);
    UNIT_RUN(test_cases);
    UNIT_EXIT();
}
