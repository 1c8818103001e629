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
    ex_get_fn get;                /* where a GET's rows come from; NULL: it has none */
    void *get_arg;
} ex_exec_t;

/* The iterator of one operator (ex_iter.c); the fields name the operators that use them. */
typedef struct ex_iter ex_iter_t;
struct ex_iter {
    const plan_rel_t *rel;
    ex_iter_t *in, *right;
    bool started;
    bool left_done;               /* UNION: reading the right side */
    int pos;
    ty_expr_t **inst;             /* the operator's expressions, sublinks replaced */
    ty_datum_t **buf;             /* SORT, REDUCE, SESSION, INTERSECT/EXCEPT: the output rows */
    int nbuf;
    int64_t repeat;               /* INTERSECT/EXCEPT ALL: copies of buf[pos] still to give */
    ty_datum_t *cur;              /* PRODUCT: the left row */
    ty_datum_t **rrows;           /* PRODUCT: the right side */
    int nr;
    plan_rowset_t *set;            /* DISTINCT, UNION, INTERSECT/EXCEPT */
    plan_rowent_t *ent;            /* INTERSECT/EXCEPT: next entry to give */
    int64_t limit, skip, sent;
    bool cur_matched;             /* JOIN: the left row met a right row */
    bool *rmatched;               /* RIGHT/FULL JOIN: which right rows met a left row */
    plan_rowset_t *hash;           /* JOIN with equality keys: the right rows by key (entries' state: a cands_t) */
    int nkeys, *lkeys, *rkeys;    /* JOIN: the key columns of each side (right ones counted in the right row) */
    bool *null_keys;              /* JOIN: a key compared by IS NOT DISTINCT FROM, where NULL meets NULL */
    const int *cand;              /* JOIN: the current left row's candidate right rows (hash); NULL: all */
    int ncand;
    void *ext;                    /* CTE, FLATMAP: the state of operators run in their own files */
};

ex_iter_t *ex__iter_new(ex_exec_t *x, const plan_rel_t *rel);
bool ex__iter_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row);   /* *row NULL: no more */
/* All rows of rel (at most max_rows; -1: no limit). */
bool ex__collect(ex_exec_t *x, const plan_rel_t *rel, int max_rows, ty_datum_t ***rows, int *nrows);

/* ex_iter.c: helpers of the operators in other files. */
bool ex__eval(ex_exec_t *x, ty_expr_t *e, const ty_datum_t *row, ty_datum_t *out);
/* The operator's expressions with sublinks replaced (it->inst), made when its first row needs them. */
bool ex__inst_all(ex_exec_t *x, ex_iter_t *it, ty_expr_t **es, int n);
ty_datum_t *ex__new_row(ex_exec_t *x, int n);
/* Reads at most max rows of an input (-1: all) into an array. */
bool ex__drain(ex_exec_t *x, ex_iter_t *in, int max, ty_datum_t ***rows, int *n);

/* ex_reduce.c: GROUP BY: every group's row into it->buf. */
bool ex__reduce(ex_exec_t *x, ex_iter_t *it);
/* ex_setop.c: UNION / INTERSECT / EXCEPT [ALL]. */
bool ex__setop_start(ex_exec_t *x, ex_iter_t *it);
bool ex__setop_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row);
/* ex_join.c: JOIN with its right side read (it->rrows): a hash on its equality keys, then the rows. */
void ex__join_hash(ex_exec_t *x, ex_iter_t *it);
bool ex__join_next(ex_exec_t *x, ex_iter_t *it, ty_datum_t **row);

/* ex_run.c: a 1-based character position in the statement text for a byte offset (0: none). */
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
