/*
 * test_parser_golden.c: runs the parser golden files in tests/parser/.
 *
 * Each *.txt file holds cases. A case starts with a line "> SQL"; further
 * lines "| more" continue the SQL after a newline. The expected result
 * follows: one deparsed statement per line, or a single line
 * "ERROR <sqlstate> <position> <message>" (position is PostgreSQL's 1-based
 * character position, 0 for none). Blank lines and lines starting with '#'
 * separate cases. One "ok"/"not ok" line is printed per case.
 *
 * With --print FILE the program prints FILE's cases with the actual results
 * instead, which is how new cases are drafted (then checked against
 * PostgreSQL before they are committed).
 */
#include "common/common.h"
#include "parser/parser.h"

#include "tests/unit/test_files.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

/* Parses sql and renders what a user would see: statements or the error. */
static char *render(const char *sql)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t list;
    cm_buf_t out;
    cm_buf_init(&out, 0);
    if (sql_parse(&arena, sql, strlen(sql), &list, &err)) {
        for (int i = 0; i < list.count; i++) {
            sql_deparse_stmt(list.items[i], &out);
            cm_buf_put_u8(&out, '\n');
        }
        if (list.count == 0)
            cm_buf_put_str(&out, "EMPTY\n");
    } else {
        cm_buf_printf(&out, "ERROR %s %d %s\n", err.sqlstate, err.position, err.message);
    }
    cm_err_clear(&err);
    cm_arena_free(&arena);
    cm_buf_put_u8(&out, '\0');
    char *s = cm_strdup((const char *)out.data);
    cm_buf_free(&out);
    return s;
}

/* A tf_case_fn: arg points at the bool that says whether to print instead of check. */
static void finish_case(void *arg, const char *file, int line, const char *sql, const char *expected)
{
    bool print = *(bool *)arg;
    char *got = render(sql);
    if (print) {
        for (const char *p = sql; *p;) {
            const char *nl = strchr(p, '\n');
            size_t n = nl ? (size_t)(nl - p) : strlen(p);
            printf("%s%.*s\n", p == sql ? "> " : "| ", (int)n, p);
            p += n + (nl ? 1 : 0);
        }
        printf("%s\n", got);
    } else if (strcmp(got, expected) == 0) {
        printf("ok %s:%d\n", file, line);
    } else {
        printf("not ok %s:%d\n  sql:      %s\n  expected: %s  got:      %s", file, line, sql, expected, got);
        failures++;
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
        failures++;
        return;
    }
    tf_golden_cases(f, name, finish_case, &print, print);
    fclose(f);
}

int main(int argc, char **argv)
{
    tf_golden_rc_t rc = tf_golden_main(argc, argv, "tests/parser", "parser", run_file);
    if (rc != TF_RAN)
        return rc == TF_PRINTED ? 0 : 1;
    return failures ? 1 : 0;
}
