/* test_parser.c: unit tests of the parser API: node positions, limits, keywords, spans, the statement
 * parts the binder reads, statement names. */
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

/* The parts the binder reads: names with positions, IF [NOT] EXISTS, options, constraints. */
static void test_statement_parts(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t l;
    const char *sql = "create table if not exists s.t (a int not null default 1, primary key (a)) with (retain = 5);"
                      "drop view if exists a, b.c cascade;"
                      "create source src from load generator counter (tick interval '1s');"
                      "insert into t (b) values (default) returning b;"
                      "show indexes from t;"
                      "select sum(x) over (partition by y) from t";
    UNIT_CHECK(sql_parse(&a, sql, strlen(sql), &l, &err));
    UNIT_CHECK(l.count == 6);
    const sql_create_table_t *ct = l.items[0]->create_table;
    UNIT_CHECK(l.items[0]->kind == SQL_STMT_CREATE_TABLE && ct->if_not_exists && ct->name->pos == 27);
    UNIT_CHECK(sql_list_len(ct->name->names) == 2 && strcmp(sql_list_at(ct->name->names, 1), "t") == 0);
    const sql_column_def_t *col = sql_list_at(ct->columns, 0);
    UNIT_CHECK(strcmp(col->name, "a") == 0 && strcmp(sql_list_at(col->type->names, 0), "int4") == 0);
    UNIT_CHECK(sql_list_len(col->constraints) == 2);
    UNIT_CHECK(((sql_constraint_t *)sql_list_at(col->constraints, 1))->kind == SQL_CONSTR_DEFAULT);
    UNIT_CHECK(((sql_constraint_t *)sql_list_at(ct->constraints, 0))->kind == SQL_CONSTR_PRIMARY_KEY);
    const sql_option_t *o = sql_list_at(ct->with, 0);
    UNIT_CHECK(strcmp(o->name, "retain") == 0 && o->value->ival == 5);
    const sql_drop_t *d = l.items[1]->drop;
    UNIT_CHECK(d->object == SQL_OBJ_VIEW && d->if_exists && d->behavior == SQL_DROP_CASCADE);
    UNIT_CHECK(sql_list_len(d->names) == 2);
    const sql_create_source_t *src = l.items[2]->create_source;
    UNIT_CHECK(src->connector == SQL_CONNECTOR_LOAD_GENERATOR && src->generator == SQL_GEN_COUNTER);
    UNIT_CHECK(strcmp(((sql_option_t *)sql_list_at(src->options, 0))->name, "tick interval") == 0);
    const sql_insert_t *ins = l.items[3]->insert;
    const sql_list_t *row = sql_list_at(ins->query->values, 0);
    UNIT_CHECK(((sql_expr_t *)sql_list_at(row, 0))->kind == SQL_EXPR_DEFAULT && sql_list_len(ins->returning) == 1);
    const sql_show_t *sh = l.items[4]->show;
    UNIT_CHECK(sh->object == SQL_OBJ_INDEX && sh->on && !sh->from);   /* SHOW INDEXES FROM t names the relation */
    const sql_target_t *t = sql_list_at(l.items[5]->select->targets, 0);
    UNIT_CHECK(t->expr->over && t->expr->over->spec && sql_list_len(t->expr->over->partition_by) == 1);
    cm_arena_free(&a);
}

/* The planner words "<name> is not supported yet" with these. */
static void test_statement_names(void)
{
    static const struct {
        const char *sql, *name;
    } cases[] = {
        {"create materialized view v as select 1", "CREATE MATERIALIZED VIEW"},
        {"create table t as select 1", "CREATE TABLE AS"},
        {"select 1 into t", "CREATE TABLE AS"},                 /* SELECT INTO is CREATE TABLE AS */
        {"select * into table s.t from u union select 1", "CREATE TABLE AS"},
        {"select 1 union select 2 into t", "SELECT"},           /* refused by the binder, at the name */
        {"drop source s", "DROP SOURCE"},
        {"alter materialized view v rename to w", "ALTER MATERIALIZED VIEW"},
        {"show materialized views", "SHOW MATERIALIZED VIEWS"},
        {"show create source s", "SHOW CREATE SOURCE"},
        {"copy (subscribe v) to stdout", "COPY"},
        {"grant select on t to u", "GRANT"},
        {"deallocate all", "DEALLOCATE"},
        {"declare c cursor for subscribe v", "DECLARE CURSOR"},
        {"fetch all c", "FETCH"},
        {"close all", "CLOSE"},
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        cm_arena_t a;
        cm_arena_init(&a, 4096);
        cm_err_t err = {0};
        sql_stmt_list_t l;
        UNIT_CHECK(sql_parse(&a, cases[i].sql, strlen(cases[i].sql), &l, &err) && l.count == 1);
        UNIT_CHECK(strcmp(sql_stmt_name(l.items[0]), cases[i].name) == 0);
        cm_arena_free(&a);
    }
    cm_arena_t a;
    cm_arena_init(&a, 4096);
    cm_err_t err = {0};
    sql_stmt_list_t l;
    UNIT_CHECK(sql_parse(&a, "show sources", 12, &l, &err) && l.items[0]->kind == SQL_STMT_SHOW_OBJECTS);
    UNIT_CHECK(sql_parse(&a, "show \"sources\"", 14, &l, &err) && l.items[0]->kind == SQL_STMT_SHOW);
    cm_arena_free(&a);
}

int main(void)
{
    UNIT_RUN(test_positions_are_bytes_of_the_text);
    UNIT_RUN(test_statement_spans);
    UNIT_RUN(test_nesting_limit_is_an_error_not_a_crash);
    UNIT_RUN(test_keywords_and_quoting);
    UNIT_RUN(test_deparse_round_trip);
    UNIT_RUN(test_statement_parts);
    UNIT_RUN(test_statement_names);
    UNIT_EXIT();
}
