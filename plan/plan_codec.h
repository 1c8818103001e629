/*
 * plan_codec.h: what the plan codec's files share (plan_codec.c: statements
 * and operators; plan_codec_expr.c: expressions, constants, function keys).
 * The format is described in plan_codec.c and docs/architecture.md.
 */
#ifndef EDDY_PLAN_CODEC_H
#define EDDY_PLAN_CODEC_H

#include "plan/plan.h"

#define PLAN_CODEC_MAGIC "EDPL"
#define PLAN_CODEC_VERSION 3
#define PLAN_CODEC_STR_NULL 0xFFFFFFFFu   /* a string length standing for NULL */

/* The writer: appends to a buffer; the first problem sets err and stops it. */
typedef struct plan__wr {
    cm_buf_t *b;
    cm_err_t *err;
    ty_ctx_t ctx;                 /* constants' binary forms */
    ty_settings_t settings;
    int depth;
    int64_t nodes;
    plan_limits_t lim;
    bool failed;
} plan__wr_t;

/*
 * The reader: a cursor over the input that never reads past its end, and
 * what the expressions being read may refer to. The first problem sets err
 * (XX001) and `failed`; every read after that returns zeros.
 */
typedef struct plan__rd {
    const uint8_t *p;
    size_t n, pos;
    cm_arena_t *arena;
    cm_err_t *err;
    ty_ctx_t ctx;
    ty_settings_t settings;
    int depth;
    int64_t nodes;
    plan_limits_t lim;
    bool failed;
    int nparams;                  /* $n: 0 <= index < nparams */
    int sublinks;                 /* sublink placeholders: 0 <= k < sublinks */
    const plan_sublink_t *subs;    /* the sublinks read so far */
    const ty_oid_t *param_types;
    const ty_oid_t *row_types;    /* COLUMN: 0 <= index < row_width, of these types */
    int row_width;
    int nctes, ctes_cap;          /* WITH queries read so far, and the ids they were written with */
    plan_cte_t **ctes;
    uint32_t *cte_keys;
    size_t *cte_spans;            /* per WITH query read: where its entry starts in the input and its length */
    int nrefs, refs_cap;          /* reads of WITH queries, tied to them at the end (plan_codec_cte.c) */
    plan_rel_t **cte_refs;
    uint32_t *ref_keys;
} plan__rd_t;

/* The fewest bytes an encoded expression takes: what a count of them is checked with. */
#define PLAN_CODEC_EXPR_MIN 25

/* ------------------------------------------------------------ writing */
void plan__wr_fail(plan__wr_t *w, const char *sqlstate, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void plan__wr_u8(plan__wr_t *w, uint8_t v);
void plan__wr_u32(plan__wr_t *w, uint32_t v);
void plan__wr_i32(plan__wr_t *w, int32_t v);
void plan__wr_u64(plan__wr_t *w, uint64_t v);
void plan__wr_str(plan__wr_t *w, const char *s);         /* NULL allowed */
bool plan__wr_enter(plan__wr_t *w);                      /* one node deeper; false past the limits */
void plan__wr_leave(plan__wr_t *w);
void plan__wr_expr(plan__wr_t *w, const ty_expr_t *e);   /* NULL allowed */
void plan__wr_func(plan__wr_t *w, const ty_func_t *f);   /* NULL allowed */

/* ------------------------------------------------------------ reading */
bool plan__rd_fail(plan__rd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint8_t plan__rd_u8(plan__rd_t *r);
uint32_t plan__rd_u32(plan__rd_t *r);
int32_t plan__rd_i32(plan__rd_t *r);
const uint8_t *plan__rd_bytes(plan__rd_t *r, size_t n, const char *what);   /* NULL: failed */
uint64_t plan__rd_u64(plan__rd_t *r);
bool plan__rd_bool(plan__rd_t *r);
/* A string in the arena (NULL stands for NULL; check r->failed). */
const char *plan__rd_str(plan__rd_t *r, const char *what);
/* A count of items of at least min_bytes each: at most max and no more than the rest of the input holds. */
int plan__rd_count(plan__rd_t *r, const char *what, int max, size_t min_bytes);
/* A type OID the type table knows (0 only if allow_invalid). */
ty_oid_t plan__rd_type(plan__rd_t *r, bool allow_invalid);
bool plan__rd_enter(plan__rd_t *r);
void plan__rd_leave(plan__rd_t *r);
/* An expression (NULL only if optional) over a row of r->row_width columns. */
ty_expr_t *plan__rd_expr(plan__rd_t *r, bool optional);
const ty_func_t *plan__rd_func(plan__rd_t *r);
/* Whether values of a and b are held in the same member of ty_datum_t (types.h), so one can stand for the other. */
bool plan__same_shape(ty_oid_t a, ty_oid_t b);
bool plan__rd_check_shape(plan__rd_t *r, ty_oid_t have, ty_oid_t want, const char *what);

/* plan_codec.c: parts of operators that plan_codec_window.c shares. */
void plan__wr_exprs(plan__wr_t *w, ty_expr_t *const *es, int n, bool counted);
void plan__wr_keys(plan__wr_t *w, const plan_sortkey_t *k, int n);
void plan__wr_agg(plan__wr_t *w, const plan_agg_t *a);
ty_expr_t **plan__rd_exprs(plan__rd_t *r, int n);
/* Sort keys over columns of these types (col < width). */
plan_sortkey_t *plan__rd_keys(plan__rd_t *r, int n, const ty_oid_t *types, int width);
plan_agg_t *plan__rd_agg(plan__rd_t *r);   /* over r's row */
/* Expressions read after plan__row_set are over a row of these columns, until plan__row_restore. */
typedef struct plan__row_ctx {
    const ty_oid_t *types;
    int width;
} plan__row_ctx_t;
plan__row_ctx_t plan__row_set(plan__rd_t *r, const ty_oid_t *types, int width);
void plan__row_restore(plan__rd_t *r, plan__row_ctx_t saved);

/* Operators, for the kinds written in other files. */
void plan__wr_rel(plan__wr_t *w, const plan_rel_t *rel);
plan_rel_t *plan__rd_rel(plan__rd_t *r);

/* plan_codec_cte.c: LET, CTE and FLATMAP (after kind, columns and types). */
void plan__wr_let(plan__wr_t *w, const plan_rel_t *rel);
void plan__wr_cteref(plan__wr_t *w, const plan_rel_t *rel);
void plan__wr_flatmap(plan__wr_t *w, const plan_rel_t *rel);
bool plan__rd_let(plan__rd_t *r, plan_rel_t *rel);
bool plan__rd_cteref(plan__rd_t *r, plan_rel_t *rel);
bool plan__rd_flatmap(plan__rd_t *r, plan_rel_t *rel);
/* Ties every CTE read to its CTE once the whole plan is read. */
bool plan__rd_ctes_resolve(plan__rd_t *r);

/* plan_codec_window.c: a WINDOW operator's window (its input is written and read before). */
void plan__wr_window(plan__wr_t *w, const plan_window_t *win);
bool plan__rd_window(plan__rd_t *r, plan_rel_t *rel);

#endif
