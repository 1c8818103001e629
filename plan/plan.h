/*
 * plan.h: the public header of the plan module (prefix plan_).
 *
 * The plan is what crosses from the planner to whoever runs it: the
 * relational operators of a bound query (with enums of their own, so that
 * nothing here depends on the parser), aggregates named by their entry in
 * this module's aggregate table, sort keys, window frames, subqueries and
 * WITH queries. It holds no pointer into the planner or the catalog: a
 * relation is read by catalog ID (PLAN_REL_GET). The pull executor
 * (exec/) and the dataflow workers (dataflow/) run the same plan_t; the
 * kernels both need (aggregate step and finish, row sets, stable sort,
 * window frames) live here so that semantics are written once. The codec
 * (plan_encode / plan_decode) and the printer EXPLAIN uses are here too.
 */
#ifndef EDDY_PLAN_H
#define EDDY_PLAN_H

#include "common/common.h"
#include "types/types.h"

/*
 * A result column, or a column of a relation read. Where a result column is
 * read straight from a table or view (through subqueries and WITH queries,
 * as PostgreSQL's markTargetListOrigins): its OID and column number, which
 * RowDescription carries and drivers look up in pg_attribute; 0 otherwise.
 */
typedef struct plan_column {
    const char *name;     /* as PostgreSQL derives it: alias, column name, function name, ?column? */
    ty_oid_t type;
    int32_t typmod;
    uint32_t table_oid;
    int16_t attnum;
} plan_column_t;

/* The operators' own enums. Their numbers are the codec's: append, never renumber. */
typedef enum plan_setop { PLAN_SETOP_NONE, PLAN_SETOP_UNION, PLAN_SETOP_INTERSECT, PLAN_SETOP_EXCEPT } plan_setop_t;
typedef enum plan_join { PLAN_JOIN_INNER, PLAN_JOIN_LEFT, PLAN_JOIN_RIGHT, PLAN_JOIN_FULL, PLAN_JOIN_CROSS } plan_join_t;
typedef enum plan_frame_mode { PLAN_FRAME_DEFAULT, PLAN_FRAME_RANGE, PLAN_FRAME_ROWS, PLAN_FRAME_GROUPS } plan_frame_mode_t;
typedef enum plan_frame_bound {
    PLAN_BOUND_NONE,              /* no end bound written: CURRENT ROW */
    PLAN_BOUND_UNBOUNDED_PRECEDING,
    PLAN_BOUND_PRECEDING,         /* offset PRECEDING */
    PLAN_BOUND_CURRENT_ROW,
    PLAN_BOUND_FOLLOWING,         /* offset FOLLOWING */
    PLAN_BOUND_UNBOUNDED_FOLLOWING,
} plan_frame_bound_t;
typedef enum plan_frame_exclude {
    PLAN_EXCLUDE_DEFAULT, PLAN_EXCLUDE_CURRENT_ROW, PLAN_EXCLUDE_GROUP, PLAN_EXCLUDE_TIES, PLAN_EXCLUDE_NO_OTHERS,
} plan_frame_exclude_t;
typedef enum plan_sublink_kind {
    PLAN_SUBLINK_EXPR,            /* (SELECT ...) */
    PLAN_SUBLINK_EXISTS,          /* EXISTS (SELECT ...) */
    PLAN_SUBLINK_IN,              /* left [NOT] IN (SELECT ...) */
    PLAN_SUBLINK_ARRAY,           /* ARRAY(SELECT ...) */
    PLAN_SUBLINK_ANY,             /* left op ANY (SELECT ...) */
    PLAN_SUBLINK_ALL,             /* left op ALL (SELECT ...) */
} plan_sublink_kind_t;

typedef struct plan_sortkey {
    int col;                      /* index into a row's values (may be a hidden column) */
    ty_oid_t type;
    const ty_func_t *lt;          /* the type's "<", NULL: ty_datum_compare */
    bool desc;
    bool nulls_first;
} plan_sortkey_t;

/*
 * A relational plan: a tree of logical operators. Expressions refer to the
 * input row's columns (a JOIN's or PRODUCT's row: the left's, then the right's).
 */
typedef enum plan_rel_kind {
    PLAN_REL_VALUES,    /* rows of expressions without input (VALUES; one empty row for SELECT without FROM) */
    PLAN_REL_PRODUCT,   /* each input row joined with each right row (FROM a, b; JOIN ... ON is a filter above) */
    PLAN_REL_FILTER,    /* input rows for which pred is true (WHERE, HAVING, ON) */
    PLAN_REL_PROJECT,   /* exprs evaluated over each input row */
    PLAN_REL_REDUCE,    /* GROUP BY: one row per group of key values: keys, then aggregate results */
    PLAN_REL_SORT,      /* input ordered by sort keys, stable */
    PLAN_REL_DISTINCT,  /* the first input row of each set of equal rows (DISTINCT ON: of equal sort[].col values) */
    PLAN_REL_LIMIT,     /* OFFSET, then LIMIT */
    PLAN_REL_SETOP,     /* UNION / INTERSECT / EXCEPT [ALL] of input and right */
    PLAN_REL_JOIN,      /* input JOIN right ON pred (NULL: true), join says INNER/LEFT/RIGHT/FULL */
    PLAN_REL_SESSION,   /* the rows of a session relation (session), asked of the session each run */
    PLAN_REL_WINDOW,    /* input columns, then one per window function over one window */
    PLAN_REL_LET,       /* WITH: the input (the query) with the CTEs it reads (ctes), each computed once */
    PLAN_REL_CTE,       /* the rows of a CTE (cte); worktable: a recursive term's read of the last iteration's rows */
    PLAN_REL_FLATMAP,   /* each input row with the rows of functions of it (funcs), zipped; NULLs pad */
    PLAN_REL_GET,       /* the rows of a catalog relation: item, relname, item_cols */
    /* A new kind needs its case in the codec (plan_codec.c), which fails loudly without one. */
} plan_rel_kind_t;

/* What an aggregate computes. */
typedef enum plan_aggop {
    PLAN_AGG_COUNT_STAR,
    PLAN_AGG_COUNT,
    PLAN_AGG_SUM,
    PLAN_AGG_AVG,
    PLAN_AGG_MIN,
    PLAN_AGG_MAX,
    PLAN_AGG_BOOL_AND,
    PLAN_AGG_BOOL_OR,
    PLAN_AGG_STRING_AGG,
    PLAN_AGG_ARRAY_AGG,           /* keeps NULLs; of arrays: one dimension more */
    PLAN_AGG_SINGLE,              /* the only row's value (a decorrelated scalar subquery): 21000 on a second */
} plan_aggop_t;

/*
 * The aggregates eddy knows (plan_aggdef.c), with PostgreSQL's signatures
 * and result types. A plan names one by its index in this table.
 */
typedef struct plan_aggdef {
    ty_func_t sig;                /* name and argument types; ret is the result type (TY_INVALID: chosen at bind) */
    plan_aggop_t op;
    ty_oid_t state;               /* sum/avg: the type values are added in */
} plan_aggdef_t;
size_t plan_aggdef_count(void);
const plan_aggdef_t *plan_aggdef_at(size_t i);
/* The entry with this name and these argument types; -1: none. */
int plan_aggdef_find(const char *name, int nargs, const ty_oid_t *args);
/* The first entry computing op (for aggregates the planner adds itself); -1: none. */
int plan_aggdef_of_op(plan_aggop_t op);

/* One aggregate call of a REDUCE (or of a window function over a frame). */
typedef struct plan_agg {
    int fn;                       /* its entry in the aggregate table (plan_aggdef_at) */
    plan_aggop_t op;
    ty_oid_t state;               /* sum/avg: the type values are added in */
    ty_expr_t *args[2];           /* over input rows; none for count(*) */
    int nargs;
    bool distinct;                /* agg(DISTINCT x) */
    ty_expr_t *filter;            /* agg(...) FILTER (WHERE filter): rows where it is not true are skipped */
    int norder;                   /* agg(... ORDER BY order[0], ...): values are fed in that order */
    ty_expr_t **order;
    plan_sortkey_t *keys;         /* col counts from the first order value, after the arguments */
    ty_oid_t type;                /* result type */
    const ty_func_t *add;         /* sum/avg: state + state */
    const ty_func_t *div;         /* avg: state / count */
} plan_agg_t;

typedef struct plan_cte plan_cte_t;
typedef struct plan_srfcall plan_srfcall_t;
typedef struct plan_window plan_window_t;

typedef struct plan_rel plan_rel_t;
struct plan_rel {
    plan_rel_kind_t kind;
    int ncols;
    ty_oid_t *types;              /* of each output column */
    plan_rel_t *input, *right;
    int nrows;                    /* VALUES */
    ty_expr_t ***rows;            /* VALUES: rows[r][0..ncols) */
    const char *relname;          /* GET, SESSION: the relation's qualified name (what EXPLAIN prints) */
    uint64_t item;                /* GET: its catalog item id */
    const plan_column_t *item_cols; /* GET: its ncols columns as the catalog defines them (NULL: not known) */
    int nitem_keys;               /* GET of a table: its key columns (PRIMARY KEY, else its first UNIQUE
                                     key), by index into its columns; 0: none, its rows are the key */
    int *item_keys;
    ty_expr_t *pred;              /* FILTER, JOIN */
    ty_expr_t **exprs;            /* PROJECT: ncols */
    int nkeys;                    /* REDUCE */
    ty_expr_t **keys;
    int naggs;
    plan_agg_t **aggs;
    int nsort;                    /* SORT, DISTINCT ON */
    plan_sortkey_t *sort;
    ty_expr_t *limit;             /* LIMIT: int8, NULL: none */
    ty_expr_t *offset;
    plan_setop_t setop;           /* SETOP */
    bool all;
    plan_join_t join;             /* JOIN */
    const char *session;          /* SESSION: the relation's name for ty_ctx_t.session_rows */
    plan_window_t *window;        /* WINDOW */
    int nctes;                    /* LET: the CTEs read in input, in dependency order */
    plan_cte_t **ctes;
    plan_cte_t *cte;              /* CTE */
    bool worktable;
    int nfuncs;                   /* FLATMAP: its columns are the input's, then each function's */
    plan_srfcall_t **funcs;
    bool ordinality;              /* FLATMAP: then an int8 counting each input row's rows from 1;
                                     join LEFT: a row pred never held for is kept once, NULL-padded */
};

/* A catalog or session relation read (GET, SESSION): what EXPLAIN prints as Get. */
static inline bool plan_rel_is_read(const plan_rel_t *r)
{
    return r->kind == PLAN_REL_GET || r->kind == PLAN_REL_SESSION;
}

/*
 * Expressions and predicates of a plan (plan_expr.c), for whoever rewrites
 * or prints one (the planner's optimizer passes, the printer). Rewrites
 * copy the nodes they change and share the rest: one node may sit in
 * several trees of a plan.
 */
/* A list of conjuncts (predicates joined by AND), in evaluation order. */
typedef struct plan_conj {
    int n, cap;
    ty_expr_t **e;
} plan_conj_t;
void plan_conj_add(cm_arena_t *a, plan_conj_t *l, ty_expr_t *e);
/* Adds the conjuncts of p (nested ANDs flattened, NULL adds none). */
void plan_conj_split(cm_arena_t *a, plan_conj_t *l, ty_expr_t *p);
/* The conjuncts as one predicate (NULL when there are none). */
ty_expr_t *plan_conj_and(cm_arena_t *a, ty_expr_t *const *es, int n);
/* The lowest and highest column e reads (lo > hi: none). */
void plan_expr_cols(const ty_expr_t *e, int *lo, int *hi);
/* Marks used[i] for each column i that e reads. */
void plan_expr_mark(const ty_expr_t *e, bool *used);
/* Calls random(), clock_timestamp(), pg_sleep() ...: never moved, duplicated or dropped. */
bool plan_expr_volatile(const ty_expr_t *e);
/* e with column i read as column map[i]. */
ty_expr_t *plan_expr_remap(cm_arena_t *a, ty_expr_t *e, const int *map);
/* e with column i read as column i + delta. */
ty_expr_t *plan_expr_shift(cm_arena_t *a, ty_expr_t *e, int delta);
/* e with column i replaced by the expression with[i]. */
ty_expr_t *plan_expr_subst(cm_arena_t *a, ty_expr_t *e, ty_expr_t *const *with);
ty_expr_t *plan_expr_column(cm_arena_t *a, int index, ty_oid_t type);
/* a = b where both are columns of one type compared by that type's "=": *l and *r are their indexes. */
bool plan_expr_col_eq(const ty_expr_t *e, int *l, int *r);
/* column = constant (either way round, the constant not NULL) of one type's "=". */
bool plan_expr_col_const(const ty_expr_t *e, int *col, ty_expr_t **value);
/* l = r with the given "=" operator. */
ty_expr_t *plan_expr_eq(cm_arena_t *a, const ty_func_t *eq, ty_expr_t *l, ty_expr_t *r);

/* One WITH query, bound once and read by every reference to it. */
struct plan_cte {
    int id;                       /* l<id> in EXPLAIN; its slot in an execution's CTE results */
    const char *name;
    plan_rel_t *def;              /* the query; WITH RECURSIVE: its non-recursive term */
    plan_rel_t *rec;              /* WITH RECURSIVE: the recursive term (its worktable reads); NULL otherwise */
    bool all;                     /* recursive with UNION ALL; with UNION, rows seen before are dropped */
    int ncols;
    ty_oid_t *types;
    int nrefs;                    /* references (an unread CTE is not planned, as in PostgreSQL) */
};

/* One function of a FLATMAP: a set-returning call, or a scalar expression giving one row. */
struct plan_srfcall {
    const ty_srf_t *srf;          /* NULL: expr is one row's only value */
    ty_expr_t *expr;
    int nargs;                    /* srf: arguments over the FLATMAP's input row */
    ty_expr_t **args;
    int ncols;                    /* columns it adds */
    int location;
};

/* ---------------------------------------------------- window functions */

typedef enum plan_wfunc_kind {
    PLAN_WF_AGG,                  /* an aggregate over the frame */
    PLAN_WF_ROW_NUMBER, PLAN_WF_RANK, PLAN_WF_DENSE_RANK, PLAN_WF_PERCENT_RANK, PLAN_WF_CUME_DIST, PLAN_WF_NTILE,
    PLAN_WF_LAG, PLAN_WF_LEAD,    /* args: value [, offset int4 [, default]] */
    PLAN_WF_FIRST_VALUE, PLAN_WF_LAST_VALUE, PLAN_WF_NTH_VALUE,
} plan_wfunc_kind_t;

/* One window function call of a WINDOW; its arguments are over the input row. */
typedef struct plan_wfunc {
    plan_wfunc_kind_t kind;
    const char *name;
    ty_oid_t type;
    int32_t typmod;
    int nargs;
    ty_expr_t *args[3];
    plan_agg_t *agg;              /* AGG: its arguments and FILTER are the aggregate's */
} plan_wfunc_t;

/*
 * A window's frame, PostgreSQL's semantics: ROWS counts rows, GROUPS peer
 * groups, RANGE compares the single ORDER BY value with the current row's
 * plus or minus the offset (start_bound / end_bound: that value, computed
 * over the current row; the other rows' values are cast to its type).
 */
typedef struct plan_frame {
    plan_frame_mode_t mode;       /* ROWS, RANGE or GROUPS (no frame clause: RANGE) */
    plan_frame_bound_t start, end; /* end is never NONE */
    ty_expr_t *start_offset, *end_offset;   /* n PRECEDING / FOLLOWING: var-free */
    ty_expr_t *start_bound, *end_bound;     /* RANGE with an offset */
    plan_frame_exclude_t exclude;
} plan_frame_t;

struct plan_window {
    int npart;
    ty_expr_t **part;             /* PARTITION BY */
    int norder;
    ty_expr_t **order;            /* ORDER BY; keys[i].col is npart + i */
    plan_sortkey_t *keys;
    plan_frame_t frame;
    int nfuncs;
    plan_wfunc_t **funcs;
};

/*
 * A subquery used as an expression, run once per execution. In
 * expressions, its value is a PARAM with a negative index: -(k + 1) for
 * sublink k of the plan.
 */
typedef struct plan_sublink {
    plan_sublink_kind_t kind;
    plan_rel_t *rel;
    ty_oid_t type;                /* EXPR, ARRAY: the value's type; IN: the operator's right type */
    int32_t typmod;
    int location;
    bool joined;                  /* decorrelated into the query's plan: never run on its own */
} plan_sublink_t;

#define PLAN_SUBLINK_PARAM(k) (-(k)-1)
#define PLAN_SUBLINK_OF(index) (-(index)-1)

/* An error PostgreSQL raises while planning, kept in the plan to be raised when it runs. */
typedef struct plan_error {
    char sqlstate[6];
    const char *message;
    const char *detail;
    const char *hint;
    int position;
} plan_error_t;
/* Moves err into an arena copy; err is cleared. */
const plan_error_t *plan_error_keep(cm_arena_t *arena, cm_err_t *err);
/* Copies e into err and returns false; NULL: returns true. */
bool plan_error_raise(const plan_error_t *e, cm_err_t *err);

/*
 * A bound query (SELECT, VALUES, a set operation): the operator tree, its
 * result columns and parameters, the subqueries its expressions read, and
 * the literal conversions left for run time (checked first, positioned).
 */
typedef struct plan {
    plan_rel_t *root;             /* exactly ncols columns */
    int ncols;
    plan_column_t *cols;
    int nparams;                  /* $1..$n */
    const ty_oid_t *param_types;
    int nlits;
    ty_expr_t **lits;
    int nsublinks;
    plan_sublink_t *sublinks;
    uint64_t catalog_index;       /* the catalog index it was bound at; 0: it read no catalog */
    const plan_error_t *error;    /* a planning error to raise when it runs; NULL: none */
    bool blocking;                /* contains a call that may sleep (pg_sleep): run off the loop */
    bool reads;                   /* reads a catalog relation (plan_reads_relations): its rows come from the workers */
} plan_t;

/* ------------------------------------------------------------ writes
 * A bound INSERT, UPDATE, DELETE, COPY ... FROM STDIN or TRUNCATE: what a
 * write does to one table, and everything its executor checks on the way,
 * with nothing that points into the planner or the catalog. Expressions
 * are ty_expr_t over the row they say (COLUMN i = the table's column i).
 * docs/architecture.md ("Writes: binding") says how to run one. */

typedef enum plan_write_kind {
    PLAN_WRITE_INSERT,            /* INSERT ... VALUES | SELECT | DEFAULT VALUES */
    PLAN_WRITE_UPDATE,            /* UPDATE ... SET ... [FROM ...] [WHERE ...] */
    PLAN_WRITE_DELETE,            /* DELETE ... [USING ...] [WHERE ...] */
    PLAN_WRITE_TRUNCATE,          /* TRUNCATE: every row goes (one plan_write_t per table, through next) */
    PLAN_WRITE_COPY,              /* COPY t [(cols)] FROM STDIN: rows parsed from the client's data */
} plan_write_kind_t;

/*
 * A PRIMARY KEY or UNIQUE constraint. No two rows of the table may agree
 * on all of cols, or the write fails with 23505 `duplicate key value
 * violates unique constraint "<name>"`, detail `Key (a, b)=(1, x) already
 * exists.` (the columns' names, the values as text). A row with a NULL in
 * any of cols never conflicts (PostgreSQL's NULLS DISTINCT).
 */
typedef struct plan_write_key {
    const char *name;             /* t_pkey, t_a_key, t_a_b_key or the declared name (the index's name) */
    bool primary;
    int ncols;
    const int *cols;              /* the key's columns, 0-based table column indexes, in key order */
} plan_write_key_t;

/*
 * A CHECK constraint: expr (boolean, over the table's row) must not be
 * false for a written row, or the write fails with 23514 `new row for
 * relation "<table>" violates check constraint "<name>"`, detail `Failing
 * row contains (<the row's values as text, NULL as null>).`. NULL passes.
 */
typedef struct plan_write_check {
    const char *name;
    ty_expr_t *expr;
} plan_write_check_t;

typedef enum plan_copy_format { PLAN_COPY_TEXT, PLAN_COPY_CSV, PLAN_COPY_BINARY } plan_copy_format_t;
typedef enum plan_copy_header { PLAN_COPY_HEADER_NONE, PLAN_COPY_HEADER_SKIP, PLAN_COPY_HEADER_MATCH } plan_copy_header_t;

/*
 * COPY FROM STDIN's options, validated and with PostgreSQL's defaults
 * filled in (ProcessCopyOptions): text uses delimiter '\t' and null "\N";
 * csv ',' and "" with quote '"' and escape = quote. Strings are
 * NUL-terminated; delimiter, quote and escape are one byte each.
 */
typedef struct plan_copy {
    plan_copy_format_t format;
    plan_copy_header_t header;    /* SKIP: the first line is skipped; MATCH: its fields must be the column names */
    char delimiter;
    const char *null_string;      /* a field equal to it (unquoted, in csv) is NULL */
    char quote;                   /* csv only */
    char escape;                  /* csv only */
    bool freeze;                  /* FREEZE was asked for (eddy has nothing to freeze) */
    int ncols;
    const int *cols;              /* the input's fields in order: the table columns they fill; the others get defaults */
    const bool *force_not_null;   /* csv, per input field: an unquoted null_string is not NULL; NULL: none */
    const bool *force_null;       /* csv, per input field: a quoted null_string is NULL too; NULL: none */
    const bool *force_quote;      /* COPY TO, csv, per output column: quoted even when it needs not be; NULL: none */
} plan_copy_t;

typedef struct plan_write plan_write_t;
struct plan_write {
    plan_write_kind_t kind;
    uint64_t item;                /* the table's catalog item id */
    uint32_t table_oid;
    const char *relname;          /* database.schema.name, quoted where needed (what EXPLAIN prints) */
    const char *schema;           /* the table's schema and */
    const char *name;             /* name, as PostgreSQL's messages and error fields (schema, table) name it */
    int ncols;                    /* the table's columns, in order */
    const plan_column_t *cols;
    const bool *not_null;         /* per column: a NULL fails the write with 23502 `null value in column "a"
                                     of relation "t" violates not-null constraint` + the Failing row detail */
    ty_expr_t **defaults;         /* per column: its DEFAULT, coerced to the column (no columns, may be volatile);
                                     NULL: none (NULL). INSERT and UPDATE plans have them in place already */
    int nkeys;
    const plan_write_key_t *keys; /* PRIMARY KEY first, then UNIQUE, in the order they were declared */
    int nchecks;
    const plan_write_check_t *checks; /* in name order, the order PostgreSQL checks them in */

    /*
     * The rows, one plan run per execution (parameters are the statement's):
     *   INSERT: each row to insert: the table's ncols columns (coerced,
     *           DEFAULTs filled in), then the nreturning RETURNING values.
     *   UPDATE: each row to change: its old values (ncols), its new ones
     *           (ncols, coerced; SET a = DEFAULT filled in), then RETURNING.
     *   DELETE: each row to delete: its values (ncols), then RETURNING.
     * The old values of UPDATE and DELETE come from a GET of the table,
     * filtered by WHERE and joined with FROM / USING. NULL for TRUNCATE and COPY.
     */
    plan_t *plan;
    /*
     * UPDATE ... FROM and DELETE ... USING: plan gives each distinct old row
     * once (DISTINCT ON the old values, PostgreSQL's "first match"), and it
     * stands for every copy of that row in the table. Otherwise plan gives
     * one row per table row it changes (a table without a key may hold equal rows).
     */
    bool each_value;
    int nreturning;               /* RETURNING: its columns, computed by plan after the table's; 0: none */
    const plan_column_t *returning;

    const plan_copy_t *copy;      /* COPY */
    const plan_write_t *next;     /* TRUNCATE a, b: b's; NULL at the end */

    /*
     * An error PostgreSQL raises only once the write runs (COPY's and
     * TRUNCATE's checks, which it makes at execution; a write to a
     * materialized view, refused at executor start): raised before
     * anything is read or written. NULL: none.
     */
    const plan_error_t *error;
};

/* ------------------------------------------------------------ kernels
 * What every executor of a plan shares, so that the semantics of
 * aggregates, DISTINCT and set operations, ORDER BY and window frames are
 * written once (plan_agg.c, plan_rowset.c, plan_sort.c, plan_frame.c, plan_flatmap.c). */

/* One aggregate's running state (plan_agg.c), in ctx->arena. */
typedef struct plan_aggstate plan_aggstate_t;
plan_aggstate_t *plan_agg_start(const plan_agg_t *a, ty_ctx_t *ctx);
/* The expressions an aggregate evaluates per input row: its FILTER if any,
 * its arguments, then its ORDER BY values (plan_agg_exprs fills es, returns how many). */
int plan_agg_nexprs(const plan_agg_t *a);
int plan_agg_exprs(const plan_agg_t *a, ty_expr_t **es);
/* vals: the arguments, then the ORDER BY values (the FILTER was checked by the caller). */
bool plan_agg_step(const plan_agg_t *a, plan_aggstate_t *st, const ty_datum_t *vals, ty_ctx_t *ctx);
bool plan_agg_finish(const plan_agg_t *a, plan_aggstate_t *st, ty_ctx_t *ctx, ty_datum_t *out);
/*
 * Retractable count / sum / avg (a materialized view's groups; plan_agg.c): a count of the
 * values held and their sum in the state type; rows are added with diff +n and leave with
 * -n. plan_agg_accumulates says which calls are exact this way (count, sums of integers and
 * intervals, without DISTINCT or ORDER BY); the rest recompute from their rows.
 */
typedef struct plan_aggacc {
    int64_t count;
    ty_datum_t sum;               /* valid while has_sum (sum, avg) */
    bool has_sum;                 /* a value was added: a partial state (+5, -3) has count 0 and sum 2 */
} plan_aggacc_t;
bool plan_agg_accumulates(const plan_agg_t *a);
/* arg: the call's argument over the row (ignored by count(*)); the FILTER was checked by the caller. */
bool plan_agg_acc_add(const plan_agg_t *a, plan_aggacc_t *s, const ty_datum_t *arg, int64_t diff, ty_ctx_t *ctx);
bool plan_agg_acc_result(const plan_agg_t *a, const plan_aggacc_t *s, ty_ctx_t *ctx, ty_datum_t *out);
/* s += p: a partial state of other rows (one worker's share of a step, before the exchange). */
bool plan_agg_acc_merge(const plan_agg_t *a, plan_aggacc_t *s, const plan_aggacc_t *p, ty_ctx_t *ctx);
/* An array of n values of type elem; type is its array type, or elem when arrays stack. */
bool plan_array_of(ty_ctx_t *ctx, ty_oid_t elem, ty_oid_t type, const ty_datum_t *items, int n, ty_datum_t *out);

/* A hash set of rows compared as DISTINCT does, NULLs equal (plan_rowset.c). */
typedef struct plan_rowset plan_rowset_t;
typedef struct plan_rowent {
    ty_datum_t *row;
    uint64_t hash;
    int64_t count[2];             /* set operations: occurrences on each side */
    void *state;                  /* REDUCE: the group's aggregate states */
    struct plan_rowent *next;     /* hash chain */
    struct plan_rowent *order;    /* insertion order */
} plan_rowent_t;
plan_rowset_t *plan_rowset_new(cm_arena_t *a, int ncols, const ty_oid_t *types);
/* Finds row; adds a copy of it when absent (*added). */
plan_rowent_t *plan_rowset_find(plan_rowset_t *s, const ty_datum_t *row, bool add, bool *added);
plan_rowent_t *plan_rowset_first(const plan_rowset_t *s);
/* How many copies of a row a set operation gives when its left input holds l and its right r
 * (PostgreSQL's: INTERSECT ALL min(l, r), EXCEPT ALL max(l - r, 0), without ALL 0 or 1). */
int64_t plan_setop_copies(plan_setop_t op, bool all, int64_t l, int64_t r);

/* Rows compared by sort keys (NULLS FIRST/LAST, DESC): <0, 0, >0 (plan_sort.c). */
int plan_rows_compare(const plan_sortkey_t *keys, int nkeys, const ty_datum_t *a, const ty_datum_t *b);
/* Stable merge sort of rows by keys; tmp holds n pointers. */
void plan_rows_sort(const plan_sortkey_t *keys, int nkeys, ty_datum_t **rows, ty_datum_t **tmp, int n);

/*
 * The rows of a FLATMAP of one input row (plan_flatmap.c): begin with the
 * row, then next until *row is NULL. args[i] / exprs[i] are function i's
 * arguments or its scalar expression, pred the LEFT join's condition (NULL:
 * none), as the caller evaluates them (the plan's, or copies of them).
 * Rows and the row given to begin must stay valid until the next begin.
 */
typedef struct plan_flatmap {
    const plan_rel_t *rel;
    ty_expr_t ***args, **exprs, *pred;
    const ty_datum_t *row;
    ty_datum_t **vals;            /* per function: its argument values for this row */
    void **st;                    /* per function: its own state */
    bool *done;
    bool matched, finished;
    int64_t ord;
    uint64_t made;                /* rows tried, for interrupt checks */
} plan_flatmap_t;
plan_flatmap_t *plan_flatmap_new(cm_arena_t *a, const plan_rel_t *rel, ty_expr_t ***args, ty_expr_t **exprs,
                                 ty_expr_t *pred);
bool plan_flatmap_begin(plan_flatmap_t *s, const ty_datum_t *row, const ty_datum_t *params, ty_ctx_t *ctx);
bool plan_flatmap_next(plan_flatmap_t *s, const ty_datum_t *params, ty_ctx_t *ctx, ty_datum_t **row);

/*
 * A window's frames over one sorted input (plan_frame.c): the rows in the
 * window's order, each with its peer group (rows of equal ORDER BY values,
 * numbered from 0 in each partition) and, for RANGE with an offset, its
 * ORDER BY value in the bounds' type (rv) and its own start and end bound
 * values (sb, eb).
 */
typedef struct plan_frame_rows {
    const plan_window_t *w;
    ty_oid_t bound_type;          /* RANGE with offset: the bounds' type; TY_INVALID: none */
    int64_t soff, eoff;           /* ROWS / GROUPS: the start and end offsets */
    const ty_datum_t *rv, *sb, *eb;   /* per row (rv also for a single ORDER BY value without offset) */
    const int *group;             /* per row: its peer group in its partition */
    const int *gstart, *gend;     /* per peer group of the current partition: first and last row */
} plan_frame_rows_t;
/* The frame of row i of the partition [ps, pe) as rows [*fs, *fe] (empty when *fs > *fe). */
void plan_frame_of(const plan_frame_rows_t *f, int ps, int pe, int i, int *fs, int *fe);
/* Whether the frame's EXCLUDE takes row j out of row i's frame. */
bool plan_frame_excluded(const plan_frame_rows_t *f, int i, int j);
/* The n-th (0-based; from the end when last) row of [fs, fe] after exclusion, or -1. */
int plan_frame_row(const plan_frame_rows_t *f, int i, int fs, int fe, int64_t n, bool last);

/*
 * One WINDOW over a set of rows (plan_window.c), for every executor: the
 * expressions it evaluates (the plan's, or an executor's copies with
 * subqueries replaced: map, NULL for the plan's own), then the run, whose
 * output rows (in[i]'s columns, then one per function) are in the window's
 * order, everything in ctx->arena.
 */
typedef struct plan_window_exprs {
    ty_expr_t **part, **order;    /* PARTITION BY, ORDER BY */
    ty_expr_t *start_offset, *end_offset, *start_bound, *end_bound;
    ty_expr_t ***args;            /* per function: an aggregate's plan_agg_exprs, else its arguments */
    int *nargs;
} plan_window_exprs_t;
bool plan_window_exprs(const plan_window_t *w, cm_arena_t *a, ty_expr_t *(*map)(void *, ty_expr_t *), void *arg,
                       plan_window_exprs_t *out);
/* The ROWS / GROUPS offsets, checked as PostgreSQL checks them before any row (NULL, negative);
 * a RANGE offset is checked for NULL only, and *range_negative says whether it is below zero,
 * which PostgreSQL's in_range refuses once it compares rows (plan_window_run). */
bool plan_window_offsets(const plan_window_t *w, const plan_window_exprs_t *e, const ty_datum_t *params, ty_ctx_t *ctx,
                         int64_t *soff, int64_t *eoff, bool *range_negative);
bool plan_window_run(const plan_rel_t *rel, const plan_window_exprs_t *e, ty_datum_t **in, int n,
                     const ty_datum_t *params, ty_ctx_t *ctx, ty_datum_t ***out);

/*
 * The plan printer (plan_explain.c): the plan as EXPLAIN shows it, in
 * Materialize's indented text: header, each operator on its own line with
 * its inputs two spaces deeper, then the plan of each subquery run on its
 * own under "Subquery k:". *lines gets the lines (without '\n') in arena;
 * returns how many. Constants are written as ctx writes them (its settings
 * and catalog hook: DateStyle, regclass names); ctx NULL: the default
 * settings and no catalog. Only ctx's settings and hooks are read.
 */
int plan_explain_lines(const plan_t *p, const char *header, const ty_ctx_t *ctx, cm_arena_t *arena,
                       const char ***lines);
/* "Explained Query:" and the lines below it, each ending in '\n', appended to out; settings NULL: the defaults. */
void plan_explain(const plan_t *p, const ty_settings_t *settings, cm_arena_t *arena, cm_buf_t *out);

/*
 * Plans as bytes (plan_codec*.c; the format: docs/architecture.md), so that
 * a worker or the ZooKeeper log can carry a plan and decode it without the
 * statement text, the catalog or this process's pointers: functions are
 * named by name and signature, aggregates by their entry in the aggregate
 * table, relations read by catalog id, qualified name and columns.
 * plan_decode builds the plan in arena; it checks every count, length,
 * reference and constant before it allocates and answers XX001 ("invalid
 * query plan at byte N: ...") saying what is wrong, with *out NULL.
 * plan_encode fails (54001) for a plan beyond the same limits. limits NULL:
 * the defaults below. Which session relations exist is not the plan's to
 * know: a SESSION read decodes with any name (pln_stmt_of_plan checks it).
 */
typedef struct plan_limits {
    int depth_max;                /* operators and expressions nested in one another */
    int nodes_max;                /* operators, expressions and aggregates in all */
} plan_limits_t;
#define PLAN_DEPTH_MAX 10000
#define PLAN_NODES_MAX 1000000
#define PLAN_PARAMS_MAX 65535     /* $n beyond this is an error, as in PostgreSQL's protocol */
bool plan_encode(const plan_t *p, const plan_limits_t *limits, cm_buf_t *out, cm_err_t *err);
bool plan_decode(cm_arena_t *arena, const uint8_t *bytes, size_t n, const plan_limits_t *limits, plan_t **out,
                 cm_err_t *err);

/*
 * Whether pred holds for an expression anywhere in rel's tree: its inputs,
 * WITH queries, functions in FROM, VALUES rows, projections, conditions,
 * grouping keys, aggregates, windows, LIMIT and OFFSET (plan_walk.c).
 * Subqueries are trees of their own (plan_t.sublinks).
 */
bool plan_rel_any(const plan_rel_t *rel, bool (*pred)(const ty_expr_t *e));
/* False if an expression anywhere in rel reads a column the row it is evaluated over lacks
 * (plan_check.c): a planner bug, to be refused before the plan is rewritten or run. */
bool plan_rel_columns_ok(const plan_rel_t *rel);
/* The operators of a plan: its tree's, its WITH queries' and those of the subqueries that run on their own. */
int64_t plan_operator_count(const plan_t *p);
/* Whether the plan reads a catalog relation (a GET anywhere, subqueries and WITH included). */
bool plan_reads_relations(const plan_t *p);
/* The distinct relations (catalog item ids) it reads, into items[0..max); -1: more than max. */
int plan_read_items(const plan_t *p, uint64_t *items, int max);
/* Whether the dataflow workers can maintain p's result incrementally (plan_maintain.c); else 0A000
 * "materialized views with <what> are not supported yet". CREATE MATERIALIZED VIEW asks. */
bool plan_maintainable(const plan_t *p, cm_err_t *err);
/* A read cut where the workers can compute it (plan_split.c): *sub, the reduction they compute
 * (a plan plan_maintainable accepts, needing nothing of the session), and *rest, p with *sub
 * replaced by a Get of item, its rows. False: no such cut, p runs whole over what it reads. */
bool plan_split_computed(const plan_t *p, cm_arena_t *a, uint64_t item, plan_t **sub, plan_t **rest);

#endif
