/*
 * test_planner_explain.c: runs the EXPLAIN golden files in tests/explain/.
 *
 * The files use the parser golden files' case format: a case starts with
 * "> SQL", lines "| more" continue the SQL, and the expected result
 * follows; blank lines and lines starting with '#' end a case. Cases run
 * in order against one embedded catalog, the path a statement takes in
 * the server (bind with the catalog; DDL planned, committed and followed
 * into the snapshot), so a file creates its tables and views first. A
 * result is the command tag for DDL, the rows of a query one per line
 * (columns joined by " | "), or "ERROR <sqlstate> <position> <message>".
 * Every EXPLAIN must also describe one text column named "Optimized Plan"
 * ("Physical Plan" for EXPLAIN PHYSICAL PLAN, whose operators come from the
 * dataflow engine through the server's adapter, as in the server).
 *
 * With --print FILE the program prints FILE with the actual results
 * instead, which is how new cases are drafted (then read line by line
 * before they are committed).
 */
#include "exec/exec.h"
#include "planner/planner.h"
#include "server/server.h"
#include "tests/unit/test_catalog_helpers.h"

#include "tests/unit/test_files.h"
#include "tests/unit/test_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static bool is_explain(const char *sql)
{
    while (*sql == ' ' || *sql == '\n')
        sql++;
    return strncasecmp(sql, "explain", 7) == 0;
}

/* Runs one statement against the catalog and renders what a client would see. */
static char *render(tc_t *t, const char *sql)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    cm_buf_t out;
    cm_buf_init(&out, 0);
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_catalog_t cat = {.snap = t->snap, .search = t->search};
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    bool ok = pln_parse(&arena, sql, strlen(sql), &raws, &err) &&
              pln_bind_catalog(&arena, raws.items[0], sql, NULL, 0, &settings, &cat, false, &st, &err);
    if (ok && st->kind == PLN_DDL) {
        tc_begin(t);
        ok = pln_ddl_plan(&arena, st, sql, &settings, &cat, t->last, &err);
        if (ok && tc_commit_change(t, t->last, st->tag) != CAT_STORE_OK) {
            cm_buf_printf(&out, "ERROR commit failed: %s\n", t->err.message ? t->err.message : "");
            ok = true;
        } else if (ok) {
            cm_buf_printf(&out, "%s\n", st->tag);
        }
    } else if (ok && st->kind == PLN_QUERY) {
        const char *col = strcasestr(sql, "physical plan") ? "Physical Plan" : "Optimized Plan";
        if (is_explain(sql) && (st->ncols != 1 || strcmp(st->cols[0].name, col) != 0 || st->cols[0].type != TY_TEXT))
            cm_buf_printf(&out, "(not one text column named \"%s\")\n", col);
        ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &err};
        tr_rows_t c = {.out = &out, .ctx = &ctx, .st = st};
        ok = ex_run(st->query, sql, NULL, &ctx, tr_row_line, &c);
    } else if (ok) {
        cm_buf_printf(&out, "%s\n", st->tag);
    }
    if (!ok) {
        cm_buf_reset(&out);
        cm_buf_printf(&out, "ERROR %s %d %s\n", err.sqlstate, err.position, err.message);
    }
    cm_err_clear(&err);
    cm_arena_free(&arena);
    cm_buf_put_u8(&out, '\0');
    char *s = cm_strdup((const char *)out.data);
    cm_buf_free(&out);
    return s;
}

static void print_sql(const char *sql)
{
    for (const char *p = sql; *p;) {
        const char *nl = strchr(p, '\n');
        size_t n = nl ? (size_t)(nl - p) : strlen(p);
        printf("%s%.*s\n", p == sql ? "> " : "| ", (int)n, p);
        p += n + (nl ? 1 : 0);
    }
}

/* What finish_case needs besides the case: the file's catalog and whether to print instead of check. */
typedef struct file_run {
    tc_t *t;
    bool print;
} file_run_t;

/* A tf_case_fn: arg is a file_run_t. */
static void finish_case(void *arg, const char *file, int line, const char *sql, const char *expected)
{
    file_run_t *run = arg;
    tc_t *t = run->t;
    bool print = run->print;
    char *got = render(t, sql);
    if (print) {
        print_sql(sql);
        printf("%s\n", got);
    } else if (strcmp(got, expected) == 0) {
        printf("ok %s:%d\n", file, line);
    } else {
        printf("not ok %s:%d\n  sql: %s\n  expected:\n%s  got:\n%s", file, line, sql, expected, got);
        unit__failed_cases++;
    }
    free(got);
}

static void run_file(const char *dir, const char *name, bool print)
{
    char path[1024];
    snprintf(path, sizeof path, "%s%s%s", dir, *dir ? "/" : "", name);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("not ok %s (cannot open)\n", path);
        unit__failed_cases++;
        return;
    }
    tc_t t;
    tc_init(&t);
    file_run_t run = {&t, print};
    tf_golden_cases(f, name, finish_case, &run, print);
    fclose(f);
    tc_free(&t);
}

int main(int argc, char **argv)
{
    pln_set_physical(srv_physical_operators);
    tf_golden_rc_t rc = tf_golden_main(argc, argv, "tests/explain", "explain", run_file);
    if (rc != TF_RAN)
        return rc == TF_PRINTED ? 0 : 1;
    (void)unit__case_failed;   /* cases are counted per file line, not through UNIT_RUN */
    return unit__failed_cases ? 1 : 0;
}
