/* test_parser.c: unit tests of the parser API: node positions, limits, keywords, spans. */
#include "common/common.h"
#include "parser/parser.h"
#include "tests/unit/unit.h"

#include <stdlib.h>

static void test_positions_are_bytes_of_the_text(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t l;
    const char *sql = "select 'é' + x";
    UNIT_CHECK(sql_parse(&a, sql, strlen(sql), &l, &err));
    const sql_target_t *t = l.items[0]->select->targets->items[0];
    UNIT_CHECK(t->expr->kind == SQL_EXPR_OP && t->expr->pos == 12);   /* the '+', after a 2-byte é */
    UNIT_CHECK(t->expr->left->pos == 7 && t->expr->right->pos == 14);
    UNIT_CHECK(sql_char_position(sql, strlen(sql), 12) == 12);
    cm_arena_free(&a);
}

static void test_statement_spans(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t l;
    const char *sql = "  select 1 ;\n show x;;";
    UNIT_CHECK(sql_parse(&a, sql, strlen(sql), &l, &err));
    UNIT_CHECK(l.count == 2);
    UNIT_CHECK(l.items[0]->pos == 2 && l.items[0]->len == 8);
    UNIT_CHECK(l.items[1]->pos == 14 && l.items[1]->len == 6);
    cm_arena_free(&a);
}

static void test_nesting_limit_is_an_error_not_a_crash(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t l;
    /* Deep parentheses overflow the parser stack; long operator chains nest expression nodes. */
    size_t n = 5000;
    char *sql = malloc(n * 2 + 16);
    strcpy(sql, "select ");
    memset(sql + 7, '(', n);
    sql[7 + n] = '1';
    memset(sql + 8 + n, ')', n);
    sql[8 + 2 * n] = '\0';
    UNIT_CHECK(!sql_parse(&a, sql, strlen(sql), &l, &err));
    UNIT_CHECK_STR(err.sqlstate, "54001");
    cm_err_clear(&err);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_str(&b, "select 1");
    for (int i = 0; i < 3000; i++)
        cm_buf_put_str(&b, " + 1");
    UNIT_CHECK(sql_parse(&a, (const char *)b.data, b.len, &l, &err));   /* long but legal */
    for (int i = 0; i < 2000; i++)
        cm_buf_put_str(&b, " + 1");
    UNIT_CHECK(!sql_parse(&a, (const char *)b.data, b.len, &l, &err));
    UNIT_CHECK_STR(err.sqlstate, "54001");
    cm_err_clear(&err);
    cm_buf_free(&b);
    free(sql);
    cm_arena_free(&a);
}

static void test_keywords_and_quoting(void)
{
    sql_kw_category_t c;
    UNIT_CHECK(sql_keyword_lookup("select", 6, &c) && c == SQL_KW_RESERVED);
    UNIT_CHECK(sql_keyword_lookup("value", 5, &c) && c == SQL_KW_UNRESERVED);
    UNIT_CHECK(sql_keyword_lookup("between", 7, &c) && c == SQL_KW_COL_NAME);
    UNIT_CHECK(sql_keyword_lookup("ilike", 5, &c) && c == SQL_KW_TYPE_FUNC_NAME);
    UNIT_CHECK(!sql_keyword_lookup("selects", 7, &c));
    cm_buf_t b;
    cm_buf_init(&b, 0);
    sql_deparse_ident("value", &b);
    cm_buf_put_u8(&b, ' ');
    sql_deparse_ident("from", &b);
    cm_buf_put_u8(&b, ' ');
    sql_deparse_ident("Mixed\"q", &b);
    cm_buf_put_u8(&b, '\0');
    UNIT_CHECK_STR((const char *)b.data, "value \"from\" \"Mixed\"\"q\"");
    cm_buf_free(&b);
}

static void test_deparse_round_trip(void)
{
    const char *sqls[] = {
        "select a between 1 and 2 and not b is null, -x ^ 2, 'it''s'::text, date '2020-01-01'",
        "select case when a then 1 else 2 end, trim(leading 'x' from y), substring(s from 1 for 2) as sub",
        "values (1, 2), (3, 4) order by 1 desc nulls first limit 1 offset 1",
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(sqls); i++) {
        cm_arena_t a;
        cm_arena_init(&a, 4096);
        cm_err_t err = {0};
        sql_stmt_list_t l1, l2;
        cm_buf_t d1, d2;
        cm_buf_init(&d1, 0);
        cm_buf_init(&d2, 0);
        UNIT_CHECK(sql_parse(&a, sqls[i], strlen(sqls[i]), &l1, &err));
        sql_deparse_stmt(l1.items[0], &d1);
        UNIT_CHECK(sql_parse(&a, (const char *)d1.data, d1.len, &l2, &err));
        sql_deparse_stmt(l2.items[0], &d2);
        UNIT_CHECK(d1.len == d2.len && memcmp(d1.data, d2.data, d1.len) == 0);
        cm_buf_free(&d1);
        cm_buf_free(&d2);
        cm_err_clear(&err);
        cm_arena_free(&a);
    }
}

int main(void)
{
    UNIT_RUN(test_positions_are_bytes_of_the_text);
    UNIT_RUN(test_statement_spans);
    UNIT_RUN(test_nesting_limit_is_an_error_not_a_crash);
    UNIT_RUN(test_keywords_and_quoting);
    UNIT_RUN(test_deparse_round_trip);
    UNIT_EXIT();
}
