/*
 * test_rows.h: the text of query result rows that the planner unit tests
 * compare against expected answers, so every test writes a row the same way.
 */
#ifndef EDDY_TEST_ROWS_H
#define EDDY_TEST_ROWS_H

#include "common/common.h"
#include "planner/planner.h"

/* Appends a row's columns in their text form (NULL as "NULL") joined by sep. */
static __attribute__((unused)) bool tr_put_values(cm_buf_t *out, const pln_stmt_t *st, ty_ctx_t *ctx,
                                                  const ty_datum_t *row, int ncols, const char *sep)
{
    for (int i = 0; i < ncols; i++) {
        if (i)
            cm_buf_put_str(out, sep);
        if (row[i].isnull)
            cm_buf_put_str(out, "NULL");
        else if (!ty_datum_to_text(st->cols[i].type, &row[i], ctx, out))
            return false;
    }
    return true;
}

/* Where tr_row_line writes: the buffer, and what it needs to render the statement's rows. */
typedef struct tr_rows {
    cm_buf_t *out;
    ty_ctx_t *ctx;
    const pln_stmt_t *st;
} tr_rows_t;

/* An ex_run row callback (arg a tr_rows_t): one line per row, columns joined by " | ". */
static __attribute__((unused)) bool tr_row_line(void *arg, const ty_datum_t *row, int ncols)
{
    tr_rows_t *c = arg;
    if (!tr_put_values(c->out, c->st, c->ctx, row, ncols, " | "))
        return false;
    cm_buf_put_u8(c->out, '\n');
    return true;
}

#endif
