/*
 * exec.h: the public header of the exec module (prefix ex_): the pull
 * executor over a plan (plan/plan.h) on the caller's thread.
 *
 * It answers constant queries on the pgwire loops without touching the
 * workers (DESIGN §2), and is the place where results merged from the
 * workers' shards get their ORDER BY / LIMIT / OFFSET. Each operator is
 * an iterator that hands rows up one at a time, so rows reach the client
 * as they are made and LIMIT stops the work early (a LIMIT over an
 * endless WITH RECURSIVE ends). A relation read (GET) yields the rows the
 * caller gathered from the workers (ex_run_reading).
 */
#ifndef EDDY_EXEC_H
#define EDDY_EXEC_H

#include "common/common.h"
#include "plan/plan.h"
#include "types/types.h"

/* WITH RECURSIVE's iteration limit when the session has no max_recursive_iterations. */
#define EX_RECURSIVE_ITERATIONS_DEFAULT 1000000

/* Called once per result row; return false to stop (error already set in ctx). */
typedef bool (*ex_row_cb)(void *arg, const ty_datum_t *row, int ncols);

/*
 * Runs a plan: evaluates its rows in ctx (rows live in ctx->arena) and hands
 * each result row to cb. Literal conversions left for run time are checked
 * first, so a bad literal is reported at its position as PostgreSQL does at
 * parse time; positions in errors are 1-based characters into `sql`, the
 * text the plan was bound from (NULL: none).
 */
bool ex_run(const plan_t *p, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx, ex_row_cb cb, void *arg);

/*
 * Where the rows of a relation read (GET) come from: the rows the workers
 * sent for it at the read's step. *rows gets *nrows rows of ncols datums in
 * ctx->arena; false with ctx->err set.
 */
typedef bool (*ex_get_fn)(void *arg, uint64_t item, const ty_oid_t *types, int ncols, ty_ctx_t *ctx,
                          ty_datum_t ***rows, int *nrows);
/* ex_run with the relations' rows from get (NULL: a GET has no rows). */
bool ex_run_reading(const plan_t *p, const char *sql, const ty_datum_t *params, ty_ctx_t *ctx, ex_get_fn get,
                    void *get_arg, ex_row_cb cb, void *arg);

#endif
