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

static void finish_case(const char *file, int line, const char *sql, const char *expected, bool print)
{
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
    cm_buf_t sql, expected;
    cm_buf_init(&sql, 0);
    cm_buf_init(&expected, 0);
    bool in_case = false;
    int case_line = 0, lineno = 0;
    char line[65536];
    for (;;) {
        char *got = fgets(line, sizeof line, f);
        if (got)
            lineno++;
        size_t n = got ? strlen(line) : 0;
        if (n && line[n - 1] == '\n')
            line[--n] = '\0';
        bool boundary = !got || n == 0 || line[0] == '#' || (line[0] == '>' && line[1] == ' ');
        if (boundary && in_case) {
            cm_buf_put_u8(&sql, '\0');
            cm_buf_put_u8(&expected, '\0');
            finish_case(name, case_line, (const char *)sql.data, (const char *)expected.data, print);
            in_case = false;
        }
        if (!got)
            break;
        if (line[0] == '>' && line[1] == ' ') {
            cm_buf_reset(&sql);
            cm_buf_reset(&expected);
            cm_buf_put_str(&sql, line + 2);
            in_case = true;
            case_line = lineno;
        } else if (in_case && line[0] == '|' && (line[1] == ' ' || line[1] == '\0') && expected.len == 0) {
            cm_buf_put_u8(&sql, '\n');
            cm_buf_put_str(&sql, line[1] ? line + 2 : "");
        } else if (in_case) {
            cm_buf_put_str(&expected, line);
            cm_buf_put_u8(&expected, '\n');
        } else if (print) {
            printf("%s\n", line);
        }
    }
    cm_buf_free(&sql);
    cm_buf_free(&expected);
    fclose(f);
}

int main(int argc, char **argv)
{
    const char *dir = "tests/parser";
    if (argc == 3 && strcmp(argv[1], "--print") == 0) {
        run_file(argv[2][0] == '/' ? "" : ".", argv[2], true);
        return 0;
    }
    char *names[256];
    int count = tf_list(dir, ".txt", names, 256);
    if (count < 0) {
        printf("not ok parser golden files: cannot open %s\n", dir);
        return 1;
    }
    for (int i = 0; i < count; i++) {
        run_file(dir, names[i], false);
        free(names[i]);
    }
    if (count == 0) {
        printf("not ok parser golden files: none found\n");
        return 1;
    }
    return failures ? 1 : 0;
}
