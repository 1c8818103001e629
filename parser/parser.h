/*
 * parser.h: the public header of the parser module (prefix sql_).
 *
 * Turns SQL text into a list of statement trees (the AST). A hand-written
 * tokenizer following PostgreSQL's lexical rules feeds a lemon grammar
 * (parser/sql.y); grammar actions build the nodes declared here in the
 * caller's arena. Every node keeps the byte offset of the text it came from,
 * so later phases can report PostgreSQL's 1-based character positions.
 * sql_deparse_* turn trees back into canonical SQL text.
 */
#ifndef EDDY_PARSER_H
#define EDDY_PARSER_H

#include "common/common.h"

/* Limits: beyond them parsing fails with 54001 instead of exhausting a stack. */
#define SQL_EXPR_DEPTH_MAX 4000   /* nesting of expression nodes */
#define SQL_NAME_LEN_MAX 63       /* identifiers are truncated to this many bytes, as PostgreSQL does */

/* ------------------------------------------------------------------ lists */

/* An arena-backed growable array of node pointers. */
typedef struct sql_list {
    int count;
    int cap;
    void **items;
} sql_list_t;

static inline int sql_list_len(const sql_list_t *l) { return l ? l->count : 0; }
static inline void *sql_list_at(const sql_list_t *l, int i) { return l->items[i]; }

/* ------------------------------------------------------------ type names */

/*
 * A type as written. SQL-standard spellings are mapped to PostgreSQL's
 * internal names by the grammar ("integer" -> "int4", "double precision" ->
 * "float8", "timestamp with time zone" -> "timestamptz") and marked `system`.
 */
typedef struct sql_typename {
    int pos;                  /* byte offset of the type name */
    sql_list_t *names;        /* const char *: qualified name, last element is the type */
    sql_list_t *typmods;      /* sql_expr_t *: modifiers as written, e.g. (10, 2) */
    int array_bounds;         /* number of [] after the name */
    bool system;              /* spelled with SQL-standard syntax; names has one element */
    int interval_fields;      /* INTERVAL ... YEAR TO MONTH etc.: SQL_INTERVAL_* mask, 0 if none */
    int interval_precision;   /* INTERVAL(p) / SECOND(p); -1 if none */
} sql_typename_t;

/* Interval field bits (as PostgreSQL's datetime field masks). */
enum {
    SQL_INTERVAL_MONTH = 1 << 1,
    SQL_INTERVAL_YEAR = 1 << 2,
    SQL_INTERVAL_DAY = 1 << 3,
    SQL_INTERVAL_HOUR = 1 << 10,
    SQL_INTERVAL_MINUTE = 1 << 11,
    SQL_INTERVAL_SECOND = 1 << 12,
};

/* ------------------------------------------------------------ expressions */

typedef enum sql_expr_kind {
    SQL_EXPR_CONST,       /* literal: see sql_const_kind_t */
    SQL_EXPR_PARAM,       /* $n: number */
    SQL_EXPR_COLUMN,      /* a.b.c or a.* : names, star */
    SQL_EXPR_STAR,        /* bare * in a target list */
    SQL_EXPR_OP,          /* left op right, or op right (left NULL): name is the operator */
    SQL_EXPR_AND,         /* args */
    SQL_EXPR_OR,          /* args */
    SQL_EXPR_NOT,         /* arg */
    SQL_EXPR_FUNC,        /* name(args): names, args, star, distinct, syntax */
    SQL_EXPR_CAST,        /* CAST(arg AS type), arg::type, type 'literal' (cast_form) */
    SQL_EXPR_CASE,        /* CASE [arg] WHEN .. THEN .. [ELSE def] END: args = when, then, ... */
    SQL_EXPR_COALESCE,    /* args */
    SQL_EXPR_GREATEST,    /* args */
    SQL_EXPR_LEAST,       /* args */
    SQL_EXPR_NULLIF,      /* args[0], args[1] */
    SQL_EXPR_NULL_TEST,   /* arg IS [NOT] NULL (negated), ISNULL, NOTNULL */
    SQL_EXPR_BOOL_TEST,   /* arg IS [NOT] TRUE/FALSE/UNKNOWN: bool_test, negated */
    SQL_EXPR_DISTINCT,    /* left IS [NOT] DISTINCT FROM right */
    SQL_EXPR_BETWEEN,     /* arg [NOT] BETWEEN [SYMMETRIC] args[0] AND args[1] */
    SQL_EXPR_IN,          /* arg [NOT] IN (args) */
    SQL_EXPR_LIKE,        /* left [NOT] LIKE/ILIKE/SIMILAR TO right [ESCAPE def]: like_kind */
    SQL_EXPR_SQLVALUE,    /* CURRENT_DATE, CURRENT_USER, ...: svf, precision */
    SQL_EXPR_SUBQUERY,    /* (SELECT ...), EXISTS (...), x IN (SELECT ...): sublink, select */
    SQL_EXPR_ROW,         /* ROW(args) or (a, b, ...) */
    SQL_EXPR_ARRAY,       /* ARRAY[args] */
    SQL_EXPR_COLLATE,     /* arg COLLATE names */
    SQL_EXPR_NAMED_ARG,   /* a function argument given by name: str => arg (also str := arg) */
    SQL_EXPR_SUBSCRIPT,   /* arg[left] or, when slice, arg[left:right] (left/right NULL where omitted) */
    SQL_EXPR_ARRAY_CMP,   /* left str ANY/SOME (right) when sublink is SQL_SUBLINK_ANY, ALL when SQL_SUBLINK_ALL */
} sql_expr_kind_t;

typedef enum sql_const_kind {
    SQL_CONST_NULL,
    SQL_CONST_BOOL,       /* TRUE / FALSE: boolval */
    SQL_CONST_INTEGER,    /* fits int4: ival; str is the text */
    SQL_CONST_NUMERIC,    /* any other number: str as written (int8 or numeric decided by the planner) */
    SQL_CONST_STRING,     /* str/len, decoded; untyped (unknown) */
    SQL_CONST_BITSTRING,  /* B'...' ("b0101") or X'...' ("x1f") */
} sql_const_kind_t;

typedef enum sql_func_syntax {
    SQL_FUNC_PLAIN,       /* name(args) */
    SQL_FUNC_SUBSTRING,   /* substring(a FROM b [FOR c]) */
    SQL_FUNC_POSITION,    /* position(a IN b): args are (b, a) */
    SQL_FUNC_TRIM,        /* trim([BOTH|LEADING|TRAILING] [x] FROM y): name btrim/ltrim/rtrim */
    SQL_FUNC_EXTRACT,     /* extract(field FROM x) */
    SQL_FUNC_OVERLAY,     /* overlay(a PLACING b FROM c [FOR d]) */
    SQL_FUNC_AT_TIME_ZONE,/* x AT TIME ZONE z: timezone(z, x) */
    SQL_FUNC_OVERLAPS,    /* (a, b) OVERLAPS (c, d): overlaps(a, b, c, d) */
} sql_func_syntax_t;

typedef enum sql_cast_form {
    SQL_CAST_FUNC,        /* CAST(x AS t) */
    SQL_CAST_COLONS,      /* x::t */
    SQL_CAST_LITERAL,     /* t 'literal' */
} sql_cast_form_t;

typedef enum sql_like_kind {
    SQL_LIKE,
    SQL_ILIKE,
    SQL_SIMILAR,
} sql_like_kind_t;

typedef enum sql_bool_test {
    SQL_IS_TRUE,
    SQL_IS_FALSE,
    SQL_IS_UNKNOWN,
} sql_bool_test_t;

/* SQL-standard value functions that take no parentheses. */
typedef enum sql_svf {
    SQL_SVF_CURRENT_DATE,
    SQL_SVF_CURRENT_TIME,
    SQL_SVF_CURRENT_TIMESTAMP,
    SQL_SVF_LOCALTIME,
    SQL_SVF_LOCALTIMESTAMP,
    SQL_SVF_CURRENT_ROLE,
    SQL_SVF_CURRENT_USER,
    SQL_SVF_USER,
    SQL_SVF_SESSION_USER,
    SQL_SVF_CURRENT_CATALOG,
    SQL_SVF_CURRENT_SCHEMA,
} sql_svf_t;

typedef enum sql_sublink {
    SQL_SUBLINK_EXPR,     /* (SELECT ...) */
    SQL_SUBLINK_EXISTS,   /* EXISTS (SELECT ...) */
    SQL_SUBLINK_IN,       /* left [NOT] IN (SELECT ...) */
    SQL_SUBLINK_ARRAY,    /* ARRAY(SELECT ...) */
    SQL_SUBLINK_ANY,      /* arg str ANY/SOME (SELECT ...) (also names the quantifier of SQL_EXPR_ARRAY_CMP) */
    SQL_SUBLINK_ALL,      /* arg str ALL (SELECT ...) */
} sql_sublink_t;

typedef struct sql_select sql_select_t;
typedef struct sql_expr sql_expr_t;

struct sql_expr {
    sql_expr_kind_t kind;
    int pos;                  /* byte offset where PostgreSQL would point an error at it */
    int depth;                /* nesting depth, for SQL_EXPR_DEPTH_MAX */
    bool negated;             /* NOT / IS NOT / NOT IN / NOT LIKE / NOT BETWEEN */

    /* CONST */
    sql_const_kind_t const_kind;
    const char *str;          /* CONST: text or decoded string (NUL-terminated); OP: operator name */
    size_t len;               /* CONST string length in bytes */
    int64_t ival;             /* CONST INTEGER value; PARAM number */
    bool boolval;

    sql_list_t *names;        /* COLUMN / FUNC / COLLATE: qualified name (const char *) */
    bool star;                /* COLUMN: a.*; FUNC: count(*) */
    bool distinct;            /* FUNC: agg(DISTINCT ...) */
    sql_func_syntax_t syntax; /* FUNC */
    sql_list_t *agg_order;    /* FUNC: agg(args ORDER BY ...): sql_sort_t * */
    struct sql_expr *agg_filter; /* FUNC: agg(...) FILTER (WHERE agg_filter) */

    sql_expr_t *arg;          /* unary operand, CAST/CASE/test subject */
    sql_expr_t *left;         /* binary left operand (NULL for a prefix operator) */
    sql_expr_t *right;        /* binary right operand */
    sql_expr_t *def;          /* CASE ELSE, LIKE ESCAPE */
    sql_list_t *args;         /* sql_expr_t *: function arguments, CASE when/then pairs, IN list ... */

    sql_typename_t *type;     /* CAST */
    sql_cast_form_t cast_form;
    sql_like_kind_t like_kind;
    sql_bool_test_t bool_test;
    bool symmetric;           /* BETWEEN SYMMETRIC */
    sql_svf_t svf;            /* SQLVALUE */
    int precision;            /* SQLVALUE: CURRENT_TIMESTAMP(p); -1 if none */
    sql_sublink_t sublink;    /* SUBQUERY */
    sql_select_t *select;     /* SUBQUERY */
    bool slice;               /* SUBSCRIPT: [lower:upper] rather than [index] */
};

/* -------------------------------------------------------------- queries */

typedef struct sql_target {
    int pos;                  /* byte offset of the expression */
    sql_expr_t *expr;
    const char *alias;        /* AS alias or bare label; NULL if none */
} sql_target_t;

typedef enum sql_sort_dir { SQL_SORT_DEFAULT, SQL_SORT_ASC, SQL_SORT_DESC } sql_sort_dir_t;
typedef enum sql_sort_nulls { SQL_NULLS_DEFAULT, SQL_NULLS_FIRST, SQL_NULLS_LAST } sql_sort_nulls_t;

typedef struct sql_sort {
    sql_expr_t *expr;
    sql_sort_dir_t dir;
    sql_sort_nulls_t nulls;
} sql_sort_t;

typedef enum sql_from_kind { SQL_FROM_RELATION, SQL_FROM_SUBQUERY, SQL_FROM_JOIN } sql_from_kind_t;
typedef enum sql_join_kind { SQL_JOIN_INNER, SQL_JOIN_LEFT, SQL_JOIN_RIGHT, SQL_JOIN_FULL, SQL_JOIN_CROSS } sql_join_kind_t;

typedef struct sql_from sql_from_t;
struct sql_from {
    sql_from_kind_t kind;
    int pos;
    sql_list_t *names;        /* RELATION: qualified name */
    sql_select_t *select;     /* SUBQUERY */
    const char *alias;        /* AS alias, NULL if none */
    sql_list_t *col_aliases;  /* alias(a, b): const char * */
    sql_join_kind_t join;     /* JOIN */
    bool natural;
    sql_from_t *larg, *rarg;
    sql_expr_t *on;           /* JOIN ... ON */
    sql_list_t *using_cols;   /* JOIN ... USING (const char *) */
};

typedef enum sql_setop { SQL_SETOP_NONE, SQL_SETOP_UNION, SQL_SETOP_INTERSECT, SQL_SETOP_EXCEPT } sql_setop_t;

/*
 * A query: a simple SELECT, a VALUES list, or a set operation of two
 * queries. ORDER BY / LIMIT / OFFSET apply to the whole node.
 */
struct sql_select {
    int pos;
    int paren_pos;            /* byte offset of the outermost '(' around it; -1 if none */
    sql_setop_t op;           /* NONE: a simple SELECT or VALUES */
    bool set_all;             /* UNION ALL ... */
    sql_select_t *larg, *rarg;

    bool distinct;            /* SELECT DISTINCT */
    sql_list_t *distinct_on;  /* DISTINCT ON (exprs) */
    sql_list_t *targets;      /* sql_target_t *; may be empty (SELECT;) */
    sql_list_t *from;         /* sql_from_t * */
    sql_expr_t *where;
    sql_list_t *group_by;     /* sql_expr_t * */
    sql_expr_t *having;
    sql_list_t *values;       /* VALUES: sql_list_t * rows of sql_expr_t *; NULL otherwise */

    sql_list_t *order_by;     /* sql_sort_t * */
    sql_expr_t *limit;        /* NULL if none or LIMIT ALL */
    sql_expr_t *offset;
};

/* ----------------------------------------------------------- statements */

typedef enum sql_stmt_kind {
    SQL_STMT_EMPTY,           /* nothing but whitespace/comments */
    SQL_STMT_SELECT,          /* select */
    SQL_STMT_SET,             /* SET name TO values / DEFAULT; SET TIME ZONE; SET NAMES */
    SQL_STMT_SET_TRANSACTION, /* SET TRANSACTION modes; SET SESSION CHARACTERISTICS AS TRANSACTION modes */
    SQL_STMT_SHOW,            /* SHOW name / ALL */
    SQL_STMT_RESET,           /* RESET name / ALL */
    SQL_STMT_BEGIN,           /* BEGIN / START TRANSACTION [modes] */
    SQL_STMT_COMMIT,          /* COMMIT / END */
    SQL_STMT_ROLLBACK,        /* ROLLBACK / ABORT */
    SQL_STMT_DISCARD,         /* DISCARD ALL | PLANS | SEQUENCES | TEMP */
    SQL_STMT_UNSUPPORTED,     /* a statement the grammar does not take yet: name says which */
} sql_stmt_kind_t;

typedef enum sql_discard { SQL_DISCARD_ALL, SQL_DISCARD_PLANS, SQL_DISCARD_SEQUENCES, SQL_DISCARD_TEMP } sql_discard_t;

/* Transaction modes of BEGIN / START TRANSACTION / SET TRANSACTION. */
typedef struct sql_txn_modes {
    const char *isolation;    /* "serializable", "repeatable read", "read committed", "read uncommitted", NULL */
    int read_only;            /* -1 not given, 0 READ WRITE, 1 READ ONLY */
    int deferrable;           /* -1 not given, 0 NOT DEFERRABLE, 1 DEFERRABLE */
} sql_txn_modes_t;

typedef struct sql_stmt {
    sql_stmt_kind_t kind;
    int pos;                  /* byte offset of the statement's first token */
    int len;                  /* bytes up to (not including) the terminating ';' or the end */

    sql_select_t *select;     /* SELECT */

    /* SET / SHOW / RESET */
    const char *var_name;     /* lower-case, dotted names joined with '.'; NULL for RESET ALL */
    sql_list_t *var_values;   /* SET: sql_expr_t * constants (identifiers become string constants) */
    bool set_default;         /* SET x TO DEFAULT, SET TIME ZONE LOCAL/DEFAULT */
    bool set_local;           /* SET LOCAL */
    bool session_chars;       /* SET SESSION CHARACTERISTICS AS TRANSACTION */

    sql_txn_modes_t modes;    /* BEGIN / START / SET TRANSACTION */
    bool start_transaction;   /* START TRANSACTION rather than BEGIN */
    bool chain;               /* COMMIT/ROLLBACK AND CHAIN */

    sql_discard_t discard;    /* DISCARD */

    const char *unsupported;  /* UNSUPPORTED: "CREATE TABLE", "INSERT", ... */
} sql_stmt_t;

typedef struct sql_stmt_list {
    int count;
    sql_stmt_t **items;
} sql_stmt_list_t;

/*
 * Parses a whole query string into its statements (empty statements between
 * semicolons are dropped, as PostgreSQL does). Everything is allocated in
 * `arena`, which must outlive the result. On failure returns false and sets
 * err to 42601 (syntax error), 54001 (too deeply nested) or 22xxx (bad
 * escape) with a 1-based character position into text.
 */
bool sql_parse(cm_arena_t *arena, const char *text, size_t len, sql_stmt_list_t *out, cm_err_t *err);

/* Converts a byte offset into text to PostgreSQL's 1-based character position. */
int sql_char_position(const char *text, size_t len, int byte_offset);

/* --------------------------------------------------------------- deparse */

/* Appends canonical SQL for a node: fully parenthesised, keywords upper case,
 * identifiers quoted only where needed. */
void sql_deparse_expr(const sql_expr_t *e, cm_buf_t *out);
void sql_deparse_select(const sql_select_t *s, cm_buf_t *out);
void sql_deparse_stmt(const sql_stmt_t *s, cm_buf_t *out);
void sql_deparse_typename(const sql_typename_t *t, cm_buf_t *out);
/* Appends an identifier, double-quoted if it is not a plain lower-case name or is a keyword. */
void sql_deparse_ident(const char *name, cm_buf_t *out);

/* ------------------------------------------------------------- keywords */

typedef enum sql_kw_category {
    SQL_KW_UNRESERVED,
    SQL_KW_COL_NAME,          /* usable as a column name, not as a function or type name */
    SQL_KW_TYPE_FUNC_NAME,    /* usable as a function or type name, not as a column name */
    SQL_KW_RESERVED,
} sql_kw_category_t;

/* Looks up a keyword (lower-case); false if `word` is not one. */
bool sql_keyword_lookup(const char *word, size_t len, sql_kw_category_t *category);

#endif
