/* test_server_paramref.c: unit tests of srv_paramref_first (the first $n in SQL text outside literals). */
#include "common/common.h"
#include "server/srv_int.h"
#include "tests/unit/unit.h"

/* The first reference's number and byte offset, or -1 / -1 when there is none. */
static void first(const char *sql, int *number, long *offset)
{
    size_t at = 0;
    int n = 0;
    if (srv_paramref_first(sql, strlen(sql), &n, &at)) {
        *number = n;
        *offset = (long)at;
    } else {
        *number = -1;
        *offset = -1;
    }
}

static void test_plain_references(void)
{
    int n;
    long at;
    first("SELECT $1", &n, &at);
    UNIT_CHECK(n == 1 && at == 7);
    first("SELECT $12 + $3", &n, &at);
    UNIT_CHECK(n == 12 && at == 7);
    first("SELECT 1+$2", &n, &at);
    UNIT_CHECK(n == 2 && at == 9);
    first("SELECT ($4)::int", &n, &at);
    UNIT_CHECK(n == 4 && at == 8);
    first("SELECT 1", &n, &at);
    UNIT_CHECK(n == -1 && at == -1);
    first("", &n, &at);
    UNIT_CHECK(n == -1);
    first("SELECT $", &n, &at);
    UNIT_CHECK(n == -1);
}

static void test_hidden_dollars(void)
{
    int n;
    long at;
    /* Strings, doubled quotes, E'' escapes, quoted identifiers. */
    first("SELECT '$1', 'it''s $2', $3", &n, &at);
    UNIT_CHECK(n == 3 && at == 25);
    first("SELECT E'\\' $1', $2", &n, &at);
    UNIT_CHECK(n == 2 && at == 17);
    first("SELECT '\\', $1", &n, &at);   /* standard strings: the backslash is a plain byte */
    UNIT_CHECK(n == 1 && at == 12);
    first("SELECT \"$1\"\"x\", $2", &n, &at);
    UNIT_CHECK(n == 2 && at == 16);
    /* Comments, nested block comments. */
    first("SELECT -- $1\n $2", &n, &at);
    UNIT_CHECK(n == 2 && at == 14);
    first("/* $1 /* $2 */ $3 */ SELECT $4", &n, &at);
    UNIT_CHECK(n == 4 && at == 28);
    /* Dollar quotes, empty and tagged; a tag inside another does not end it. */
    first("SELECT $$ $1 $$, $2", &n, &at);
    UNIT_CHECK(n == 2 && at == 17);
    first("SELECT $a$ $$ $1 $a$ || $b_1$x$b_1$, $3", &n, &at);
    UNIT_CHECK(n == 3 && at == 37);
    /* A '$' inside an identifier or after a number is not a parameter. */
    first("SELECT a$1, x1$2 FROM t", &n, &at);
    UNIT_CHECK(n == -1);
    /* Unterminated quotes swallow the rest. */
    first("SELECT '$1", &n, &at);
    UNIT_CHECK(n == -1);
    first("SELECT $q$ $1", &n, &at);
    UNIT_CHECK(n == -1);
}

int main(void)
{
    UNIT_RUN(test_plain_references);
    UNIT_RUN(test_hidden_dollars);
    UNIT_EXIT();
}
