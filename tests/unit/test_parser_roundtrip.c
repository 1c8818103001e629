/*
 * test_parser_roundtrip.c: parse -> deparse -> parse -> deparse must be a
 * fixed point for every statement the other tests use: the golden files in
 * tests/parser/ and tests/explain/, the differential queries in tests/diff/ (*.sql) and the
 * planner cases. The catalog stores view definitions as deparsed SQL and
 * parses them again, so a deparse that does not parse back (or parses to a
 * different tree) would corrupt a view; the fuzzer finds such texts at
 * random, this test checks every statement we already know about.
 *
 * Texts that do not parse in the first place (error cases) are skipped, as
 * are statements the grammar only names (UNSUPPORTED). One "ok"/"not ok"
 * line per source file.
 */
#include "common/common.h"
#include "parser/parser.h"
#include "tests/unit/unit.h"
#include "tests/unit/test_files.h"

#include <stdlib.h>

typedef struct pcase {
    const char *sql;
    const char *want;
} pcase_t;

static const pcase_t planner_cases[] = {
#include "tests/unit/test_planner_cases.h"
};

static int checked;

/* Checks one query string; prints the first text that breaks the fixed point. */
static void check_sql(const char *where, const char *sql, size_t len)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t list;
    if (!sql_parse(&arena, sql, len, &list, &err)) {
        cm_err_clear(&err);
        cm_arena_free(&arena);
        return;
    }
    for (int i = 0; i < list.count; i++) {
        if (list.items[i]->kind == SQL_STMT_UNSUPPORTED)
            continue;
        cm_buf_t once, twice;
        cm_buf_init(&once, 0);
        cm_buf_init(&twice, 0);
        sql_deparse_stmt(list.items[i], &once);
        cm_buf_put_u8(&once, 0);
        sql_stmt_list_t again;
        cm_err_t err2 = {0};
        checked++;
        if (!sql_parse(&arena, (const char *)once.data, once.len - 1, &again, &err2)) {
            printf("  %s: deparsed text does not parse (%s)\n    input:    %.*s\n    deparsed: %s\n", where,
                   err2.message, (int)len, sql, (const char *)once.data);
            unit__case_failed = 1;
        } else if (again.count != 1) {
            printf("  %s: deparsed text is %d statements\n    deparsed: %s\n", where, again.count,
                   (const char *)once.data);
            unit__case_failed = 1;
        } else {
            sql_deparse_stmt(again.items[0], &twice);
            cm_buf_put_u8(&twice, 0);
            if (strcmp((const char *)once.data, (const char *)twice.data) != 0) {
                printf("  %s: deparse is not a fixed point\n    first:  %s\n    second: %s\n", where,
                       (const char *)once.data, (const char *)twice.data);
                unit__case_failed = 1;
            }
        }
        cm_err_clear(&err2);
        cm_buf_free(&once);
        cm_buf_free(&twice);
    }
    cm_arena_free(&arena);
}

static char *read_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f)
        return NULL;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    char chunk[4096];
    size_t n;
    while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
        cm_buf_put(&b, chunk, n);
    fclose(f);
    cm_buf_put_u8(&b, 0);
    char *s = cm_strdup((const char *)b.data);
    cm_buf_free(&b);
    return s;
}

/* Golden files: "> sql" starts a case, "| more" continues it on a new line. */
static void check_golden(const char *path)
{
    char *text = read_file(path);
    UNIT_CHECK(text != NULL);
    if (!text)
        return;
    cm_buf_t sql;
    cm_buf_init(&sql, 0);
    bool in_case = false;
    int lineno = 0, case_line = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        bool cont = in_case && line[0] == '|' && (line[1] == ' ' || line[1] == '\0');
        if (in_case && !cont) {
            char where[1100];
            snprintf(where, sizeof where, "%s:%d", path, case_line);
            check_sql(where, (const char *)sql.data, sql.len);
            in_case = false;
        }
        if (line[0] == '>' && line[1] == ' ') {
            cm_buf_reset(&sql);
            cm_buf_put_str(&sql, line + 2);
            in_case = true;
            case_line = lineno;
        } else if (cont) {
            cm_buf_put_u8(&sql, '\n');
            cm_buf_put_str(&sql, line[1] ? line + 2 : "");
        }
        line = nl ? nl + 1 : NULL;
    }
    if (in_case) {
        char where[1100];
        snprintf(where, sizeof where, "%s:%d", path, case_line);
        check_sql(where, (const char *)sql.data, sql.len);
    }
    cm_buf_free(&sql);
    free(text);
}

/* Differential queries: one statement per line, "--" comments. */
static void check_lines(const char *path)
{
    char *text = read_file(path);
    UNIT_CHECK(text != NULL);
    if (!text)
        return;
    int lineno = 0;
    for (char *line = text; line && *line;) {
        char *nl = strchr(line, '\n');
        if (nl)
            *nl = '\0';
        lineno++;
        if (line[0] && strncmp(line, "--", 2) != 0) {
            char where[1100];
            snprintf(where, sizeof where, "%s:%d", path, lineno);
            check_sql(where, line, strlen(line));
        }
        line = nl ? nl + 1 : NULL;
    }
    free(text);
}

/* Calls fn for each file of dir whose name ends in suffix, in name order. */
static void each_file(const char *dir, const char *suffix, void (*fn)(const char *path))
{
    char *names[256];
    int count = tf_list(dir, suffix, names, 256);
    UNIT_CHECK(count >= 0);
    if (count < 0)
        return;
    UNIT_CHECK(count > 0);
    for (int i = 0; i < count; i++) {
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", dir, names[i]);
        fn(path);
        free(names[i]);
    }
}

static void test_golden_files_round_trip(void)
{
    each_file("tests/parser", ".txt", check_golden);
    each_file("tests/explain", ".txt", check_golden);   /* the same case format */
}

static void test_diff_queries_round_trip(void)
{
    each_file("tests/diff", ".sql", check_lines);
}

static void test_planner_cases_round_trip(void)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(planner_cases); i++) {
        char where[64];
        snprintf(where, sizeof where, "planner case %zu", i);
        check_sql(where, planner_cases[i].sql, strlen(planner_cases[i].sql));
    }
}

int main(void)
{
    UNIT_RUN(test_golden_files_round_trip);
    UNIT_RUN(test_diff_queries_round_trip);
    UNIT_RUN(test_planner_cases_round_trip);
    printf("# %d statements checked\n", checked);
    UNIT_EXIT();
}
