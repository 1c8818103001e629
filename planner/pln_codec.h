/*
 * pln_codec.h: what the plan codec's files share (pln_codec.c: statements
 * and operators; pln_codec_expr.c: expressions, constants, function keys).
 * The format is described in pln_codec.c and docs/architecture.md.
 */
#ifndef EDDY_PLN_CODEC_H
#define EDDY_PLN_CODEC_H

#include "planner/pln_internal.h"

#define PLN_CODEC_MAGIC "EDPL"
#define PLN_CODEC_VERSION 2
#define PLN_CODEC_STR_NULL 0xFFFFFFFFu   /* a string length standing for NULL */

/* The writer: appends to a buffer; the first problem sets err and stops it. */
typedef struct pln_wr {
    cm_buf_t *b;
    cm_err_t *err;
    ty_ctx_t ctx;                 /* constants' binary forms */
    ty_settings_t settings;
    int depth;
    int64_t nodes;
    pln_plan_limits_t lim;
    bool failed;
} pln_wr_t;

/*
 * The reader: a cursor over the input that never reads past its end, and
 * what the expressions being read may refer to. The first problem sets err
 * (XX001) and `failed`; every read after that returns zeros.
 */
typedef struct pln_rd {
    const uint8_t *p;
    size_t n, pos;
    cm_arena_t *arena;
    cm_err_t *err;
    ty_ctx_t ctx;
    ty_settings_t settings;
    int depth;
    int64_t nodes;
    pln_plan_limits_t lim;
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
    int nrefs, refs_cap;          /* reads of WITH queries, tied to them at the end (pln_codec_cte.c) */
    plan_rel_t **cte_refs;
    uint32_t *ref_keys;
} pln_rd_t;

/* The fewest bytes an encoded expression takes: what a count of them is checked with. */
#define PLN_CODEC_EXPR_MIN 25

/* ------------------------------------------------------------ writing */
void pln__wr_fail(pln_wr_t *w, const char *sqlstate, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
void pln__wr_u8(pln_wr_t *w, uint8_t v);
void pln__wr_u32(pln_wr_t *w, uint32_t v);
void pln__wr_i32(pln_wr_t *w, int32_t v);
void pln__wr_u64(pln_wr_t *w, uint64_t v);
void pln__wr_str(pln_wr_t *w, const char *s);         /* NULL allowed */
bool pln__wr_enter(pln_wr_t *w);                      /* one node deeper; false past the limits */
void pln__wr_leave(pln_wr_t *w);
void pln__wr_expr(pln_wr_t *w, const ty_expr_t *e);   /* NULL allowed */
void pln__wr_func(pln_wr_t *w, const ty_func_t *f);   /* NULL allowed */

/* ------------------------------------------------------------ reading */
bool pln__rd_fail(pln_rd_t *r, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
uint8_t pln__rd_u8(pln_rd_t *r);
uint32_t pln__rd_u32(pln_rd_t *r);
int32_t pln__rd_i32(pln_rd_t *r);
const uint8_t *pln__rd_bytes(pln_rd_t *r, size_t n, const char *what);   /* NULL: failed */
uint64_t pln__rd_u64(pln_rd_t *r);
bool pln__rd_bool(pln_rd_t *r);
/* A string in the arena (NULL stands for NULL; check r->failed). */
const char *pln__rd_str(pln_rd_t *r, const char *what);
/* A count of items of at least min_bytes each: at most max and no more than the rest of the input holds. */
int pln__rd_count(pln_rd_t *r, const char *what, int max, size_t min_bytes);
/* A type OID the type table knows (0 only if allow_invalid). */
ty_oid_t pln__rd_type(pln_rd_t *r, bool allow_invalid);
bool pln__rd_enter(pln_rd_t *r);
void pln__rd_leave(pln_rd_t *r);
/* An expression (NULL only if optional) over a row of r->row_width columns. */
ty_expr_t *pln__rd_expr(pln_rd_t *r, bool optional);
const ty_func_t *pln__rd_func(pln_rd_t *r);
/* Whether values of a and b are held in the same member of ty_datum_t (types.h), so one can stand for the other. */
bool pln__same_shape(ty_oid_t a, ty_oid_t b);
bool pln__rd_check_shape(pln_rd_t *r, ty_oid_t have, ty_oid_t want, const char *what);

/* pln_codec.c: parts of operators that pln_codec_window.c shares. */
void pln__wr_exprs(pln_wr_t *w, ty_expr_t *const *es, int n, bool counted);
void pln__wr_keys(pln_wr_t *w, const plan_sortkey_t *k, int n);
void pln__wr_agg(pln_wr_t *w, const plan_agg_t *a);
ty_expr_t **pln__rd_exprs(pln_rd_t *r, int n);
/* Sort keys over columns of these types (col < width). */
plan_sortkey_t *pln__rd_keys(pln_rd_t *r, int n, const ty_oid_t *types, int width);
plan_agg_t *pln__rd_agg(pln_rd_t *r);   /* over r's row */
/* Expressions read after pln__row_set are over a row of these columns, until pln__row_restore. */
typedef struct pln_row_ctx {
    const ty_oid_t *types;
    int width;
} pln_row_ctx_t;
pln_row_ctx_t pln__row_set(pln_rd_t *r, const ty_oid_t *types, int width);
void pln__row_restore(pln_rd_t *r, pln_row_ctx_t saved);

/* Operators, for the kinds written in other files. */
void pln__wr_rel(pln_wr_t *w, const plan_rel_t *rel);
plan_rel_t *pln__rd_rel(pln_rd_t *r);

/* pln_codec_cte.c: LET, CTE and FLATMAP (after kind, columns and types). */
void pln__wr_let(pln_wr_t *w, const plan_rel_t *rel);
void pln__wr_cteref(pln_wr_t *w, const plan_rel_t *rel);
void pln__wr_flatmap(pln_wr_t *w, const plan_rel_t *rel);
bool pln__rd_let(pln_rd_t *r, plan_rel_t *rel);
bool pln__rd_cteref(pln_rd_t *r, plan_rel_t *rel);
bool pln__rd_flatmap(pln_rd_t *r, plan_rel_t *rel);
/* Ties every CTE read to its CTE once the whole plan is read. */
bool pln__rd_ctes_resolve(pln_rd_t *r);

/* pln_codec_window.c: a WINDOW operator's window (its input is written and read before). */
void pln__wr_window(pln_wr_t *w, const plan_window_t *win);
bool pln__rd_window(pln_rd_t *r, plan_rel_t *rel);

#endif
