/*
 * ex_int.h: what the executor's files share: one execution of a plan
 * (ex_exec_t), the iterators over its operators (ex_iter.c), and the
 * operators that live in files of their own (joins, grouping, set
 * operations, windows, WITH, functions in FROM, subqueries).
 */
#ifndef EDDY_EX_INT_H
#define EDDY_EX_INT_H

#include "exec/exec.h"

/* One execution of a plan. */
typedef struct ex_exec {
    ty_ctx_t *ctx;
    const char *sql;
    const ty_datum_t *params;
    const plan_t *q;
    bool *sub_done;               /* per sublink: computed in this execution */
    ty_expr_t **sub_value;        /* EXPR, EXISTS and ARRAY: the constant */
    ty_datum_t **sub_rows;        /* IN: the values */
    int *sub_nrows;
    int nctes;                    /* CTE results, made when first read (ex_cte.c) */
    struct ex_cterun **ctes;
    struct ex_session_rows *sessions;   /* session relations read so far: each read once per execution */
} ex_exec_t;

/* The iterator of one operator (ex_iter.c). */
typedef struct ex_iter ex_iter_t;
ex_iter_t *ex__iter_new(ex_exec_t *x, const plan_rel_t *rel);
bool ex__iter_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row);   /* *row NULL: no more */
/* All rows of rel (at most max_rows; -1: no limit). */
bool ex__collect(ex_exec_t *x, const plan_rel_t *rel, int max_rows, ty_datum_t ***rows, int *nrows);

/* A 1-based character position in the statement text for a byte offset (0: none). */
int ex__char_pos(const char *sql, int byte_pos);

/* ex_sublink.c: the expression with every sublink replaced by its value for this execution (computed on first use). */
ty_expr_t *ex__instantiate(ex_exec_t *x, ty_expr_t *e);
/* ex_window.c: the rows of a WINDOW over its input's (all of them, in the window's order). */
bool ex__window_run(ex_exec_t *x, const plan_rel_t *rel, ty_datum_t **in, int n, ty_datum_t ***out);
/* ex_cte.c: the next row of a read of a WITH query. */
bool ex__cte_next(ex_exec_t *x, const plan_rel_t *rel, void **state, ty_datum_t **row);
/* ex_flatmap.c: the next row of a FLATMAP over its input. */
bool ex__flatmap_next(ex_exec_t *x, const plan_rel_t *rel, ex_iter_t *in, void **state, ty_datum_t **row);

#endif
