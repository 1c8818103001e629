/*
 * fuzz_parser.c: libFuzzer target for the SQL parser (parser/parser.h).
 *
 * Any bytes: sql_parse must return without crashing; on failure the error has
 * a SQLSTATE and a position inside the text (1 .. characters + 1). On success
 * every statement is deparsed, and the canonical text must parse again and
 * deparse to the same text (deparse is a fixed point), since the catalog
 * stores deparsed SQL and re-parses it. Statements the grammar marks as
 * unsupported are only recognised, not represented, so they are skipped.
 */
#include "parser/parser.h"
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fuzz__fail(const char *what, const char *a, const char *b)
{
    fprintf(stderr, "fuzz_parser: %s\n  first:  %s\n  second: %s\n", what, a ? a : "", b ? b : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    if (size > 1 << 16)
        return 0;
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    sql_stmt_list_t list = {0};
    cm_err_t err = {0};
    const char *text = (const char *)data;
    if (!sql_parse(&arena, text, size, &list, &err)) {
        if (!err.set || strlen(err.sqlstate) != 5)
            fuzz__fail("parse failed without an error record", NULL, NULL);
        int chars = sql_char_position(text, size, (int)size);
        if (err.position < 0 || err.position > chars + 1)
            fuzz__fail("error position outside the text", err.message, NULL);
        cm_err_clear(&err);
        cm_arena_free(&arena);
        return 0;
    }
    for (int i = 0; i < list.count; i++) {
        /* Statements the grammar only names (not supported yet) have no SQL form. */
        if (list.items[i]->kind == SQL_STMT_UNSUPPORTED)
            continue;
        cm_buf_t once, twice;
        cm_buf_init(&once, 0);
        cm_buf_init(&twice, 0);
        sql_deparse_stmt(list.items[i], &once);
        cm_buf_put_u8(&once, 0);
        sql_stmt_list_t again = {0};
        cm_err_t err2 = {0};
        bool reparsed = sql_parse(&arena, (const char *)once.data, once.len - 1, &again, &err2);
        /* Deparse adds parentheses, so a statement just under the nesting
         * limit may exceed it when read back: that is the limit working. */
        if (!reparsed && strcmp(err2.sqlstate, CM_ERRCODE_STATEMENT_TOO_COMPLEX) == 0) {
            cm_err_clear(&err2);
            cm_buf_free(&once);
            cm_buf_free(&twice);
            continue;
        }
        if (!reparsed)
            fuzz__fail("deparsed text does not parse", (const char *)once.data, err2.message);
        if (again.count != 1)
            fuzz__fail("deparsed text is not one statement", (const char *)once.data, NULL);
        sql_deparse_stmt(again.items[0], &twice);
        cm_buf_put_u8(&twice, 0);
        if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
            fuzz__fail("deparse is not a fixed point", (const char *)once.data, (const char *)twice.data);
        cm_err_clear(&err2);
        cm_buf_free(&once);
        cm_buf_free(&twice);
    }
    cm_arena_free(&arena);
    return 0;
}
