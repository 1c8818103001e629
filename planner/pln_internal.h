/*
 * pln_internal.h: the planner module's internal header: the raw statement
 * wrapper, the constant-query plan that pln_exec.c runs, and the binder
 * state shared by statement binding (pln_bind.c), expression binding
 * (pln_expr.c) and PostgreSQL's type resolution rules (pln_coerce.c).
 */
#ifndef EDDY_PLN_INTERNAL_H
#define EDDY_PLN_INTERNAL_H

#include "parser/parser.h"
#include "planner/planner.h"

#define PLN_PARAMS_MAX 65535      /* $n beyond this is an error, as in PostgreSQL's protocol */
#define PLN_BIND_DEPTH_MAX 4100   /* recursion guard for expression binding */

struct pln_raw {
    sql_stmt_t *stmt;             /* NULL for an empty query string */
    int offset;                   /* byte span in the text */
    int length;
};

typedef struct pln_sortkey {
    int col;                      /* index into a row's values (may be a hidden column) */
    ty_oid_t type;
    const ty_func_t *lt;          /* the type's "<", NULL: ty_datum_compare */
    bool desc;
    bool nulls_first;
} pln_sortkey_t;

/* A query over constant rows: SELECT without FROM, or VALUES. */
struct pln_query {
    int ncols;                    /* visible columns */
    int nvals;                    /* values per row: visible plus hidden sort columns */
    int nrows;
    ty_expr_t ***rows;            /* rows[r][0..nvals) */
    ty_expr_t *where;             /* NULL: every row */
    int nsort;
    pln_sortkey_t *sort;
    ty_expr_t *limit;             /* int8; NULL: none */
    ty_expr_t *offset;            /* int8; NULL: none */
    bool distinct;
    int nlits;                    /* literal coercions, checked first so errors point at the literal */
    ty_expr_t **lits;
};

/* Binder state for one statement. */
typedef struct pln_binder {
    cm_arena_t *arena;
    const char *sql;
    size_t sql_len;
    cm_err_t *err;
    ty_settings_t settings;
    ty_ctx_t ctx;                 /* for bind-time conversions (numeric literals) */
    int nparams;                  /* highest $n seen or declared */
    int params_cap;
    ty_oid_t *param_types;        /* 0 = not yet known */
    int nparam_nodes;
    int param_nodes_cap;
    ty_expr_t **param_nodes;      /* every PARAM node, fixed up at the end */
    int nlits;
    int lits_cap;
    ty_expr_t **lits;
    int nlits_pending;            /* literal conversions left for run time (settings unknown) */
    bool settings_known;          /* settings are the session's: settings-dependent literals fold */
    int depth;
} pln_binder_t;

/* Errors at a byte offset of the statement text (-1: no position). */
bool pln__error(pln_binder_t *b, int byte_pos, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int pln__char_pos(const char *sql, int byte_pos);
const char *pln__type_name(pln_binder_t *b, ty_oid_t type);   /* format_type(type, -1) */

/* pln_expr.c */
ty_expr_t *pln__bind_expr(pln_binder_t *b, const sql_expr_t *e);
/* PostgreSQL's FigureColname: the column name a target gets without an alias. */
const char *pln__colname(const sql_expr_t *e);
bool pln__resolve_typename(pln_binder_t *b, const sql_typename_t *t, ty_oid_t *oid, int32_t *typmod);

/* pln_coerce.c */
typedef enum pln_ccontext { PLN_CC_IMPLICIT, PLN_CC_ASSIGNMENT, PLN_CC_EXPLICIT } pln_ccontext_t;
bool pln__can_coerce(ty_oid_t from, ty_oid_t to, pln_ccontext_t cc);
/* Coerces e to type/typmod; NULL (error set, at `pos` or e's location) if impossible. */
ty_expr_t *pln__coerce(pln_binder_t *b, ty_expr_t *e, ty_oid_t type, int32_t typmod, pln_ccontext_t cc, int pos);
/* WHERE/AND/OR/NOT/CASE WHEN arguments: "argument of %s must be type boolean". */
ty_expr_t *pln__coerce_bool(pln_binder_t *b, ty_expr_t *e, const char *what);
/* select_common_type + coercion of every element; context names the construct ("CASE", "VALUES"). */
bool pln__common_type(pln_binder_t *b, ty_expr_t **es, int n, const int *positions, const char *context,
                      ty_oid_t *type, int32_t *typmod);
bool pln__coerce_all(pln_binder_t *b, ty_expr_t **es, int n, ty_oid_t type, int32_t typmod, const char *context);
/* Operator and function resolution (func_select_candidate); args may be coerced in place. */
const ty_func_t *pln__resolve(pln_binder_t *b, const char *name, bool is_operator, ty_expr_t **args, int nargs,
                              int pos, bool report);
/* Builds name(args) or left op right with resolution and coercion. */
ty_expr_t *pln__make_op(pln_binder_t *b, const char *op, ty_expr_t *l, ty_expr_t *r, int pos);
ty_expr_t *pln__make_call(pln_binder_t *b, const char *name, ty_expr_t **args, int nargs, int pos);
/* Resolves remaining unknown-typed expressions (literals, NULL) to text. */
ty_expr_t *pln__resolve_unknown(pln_binder_t *b, ty_expr_t *e);
void pln__note_literal(pln_binder_t *b, ty_expr_t *cast);

/* pln_fold.c */
bool pln__func_immutable(const ty_func_t *f);
/* Converts the noted literals now where their input does not depend on unknown settings. */
bool pln__fold_literals(pln_binder_t *b);
/* Folds constant subtrees of e; NULL (error set) if evaluating one failed. */
ty_expr_t *pln__fold(pln_binder_t *b, ty_expr_t *e);

#endif
