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
    SQL_EXPR_DEFAULT,     /* DEFAULT as a value: INSERT ... VALUES (DEFAULT), UPDATE ... SET a = DEFAULT */
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
    SQL_EXPR_FIELD,       /* (arg).str: a field of a composite value */
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
typedef struct sql_window sql_window_t;

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

    sql_list_t *names;        /* COLUMN / FUNC / COLLATE: qualified name (const char *); OP written as
                                 OPERATOR(schema.op): the whole name, operator last (str is the operator) */
    bool star;                /* COLUMN: a.*; FUNC: count(*) */
    bool distinct;            /* FUNC: agg(DISTINCT ...) */
    sql_func_syntax_t syntax; /* FUNC */
    sql_list_t *agg_order;    /* FUNC: agg(args ORDER BY ...): sql_sort_t * */
    bool within_group;        /* FUNC: agg_order came from WITHIN GROUP (ORDER BY ...) */
    sql_window_t *over;       /* FUNC: f(...) OVER ...: a window function; NULL otherwise */
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

/* Window frames (PostgreSQL's frame options, spelled out). */
typedef enum sql_frame_mode { SQL_FRAME_DEFAULT, SQL_FRAME_RANGE, SQL_FRAME_ROWS, SQL_FRAME_GROUPS } sql_frame_mode_t;
typedef enum sql_frame_bound {
    SQL_BOUND_NONE,               /* no end bound (the frame was not written with BETWEEN) */
    SQL_BOUND_UNBOUNDED_PRECEDING,
    SQL_BOUND_PRECEDING,          /* offset PRECEDING */
    SQL_BOUND_CURRENT_ROW,
    SQL_BOUND_FOLLOWING,          /* offset FOLLOWING */
    SQL_BOUND_UNBOUNDED_FOLLOWING,
} sql_frame_bound_t;
typedef enum sql_frame_exclude {
    SQL_EXCLUDE_DEFAULT, SQL_EXCLUDE_CURRENT_ROW, SQL_EXCLUDE_GROUP, SQL_EXCLUDE_TIES, SQL_EXCLUDE_NO_OTHERS,
} sql_frame_exclude_t;

/*
 * A window: OVER (...) of a window function, or one definition of a
 * WINDOW clause. As in PostgreSQL, `OVER w` is a window with only `name`
 * set, while `OVER (w ORDER BY x)` copies window w (`refname`).
 */
struct sql_window {
    int pos;
    const char *name;             /* WINDOW name AS (...), or OVER name */
    const char *refname;          /* OVER (refname ...): the window definition it starts from */
    bool spec;                    /* written as a parenthesised specification */
    sql_list_t *partition_by;     /* sql_expr_t * */
    sql_list_t *order_by;         /* sql_sort_t * */
    sql_frame_mode_t frame_mode;  /* DEFAULT: no frame clause */
    sql_frame_bound_t start, end; /* end is NONE unless written BETWEEN start AND end */
    sql_expr_t *start_offset, *end_offset;
    sql_frame_exclude_t exclude;
};

/* WITH name [(cols)] AS [[NOT] MATERIALIZED] (query) */
typedef struct sql_cte {
    int pos;
    const char *name;
    sql_list_t *columns;          /* const char *; NULL if none */
    int materialized;             /* -1 not given, 0 NOT MATERIALIZED, 1 MATERIALIZED */
    sql_select_t *query;          /* NULL when dml is set */
    struct sql_stmt *dml;         /* name AS (INSERT / UPDATE / DELETE ...): a data-modifying WITH query */
} sql_cte_t;

typedef enum sql_from_kind {
    SQL_FROM_RELATION,
    SQL_FROM_SUBQUERY,
    SQL_FROM_JOIN,
    SQL_FROM_FUNCTION,            /* a table function: func (FUNC node), ordinality */
} sql_from_kind_t;
typedef enum sql_join_kind { SQL_JOIN_INNER, SQL_JOIN_LEFT, SQL_JOIN_RIGHT, SQL_JOIN_FULL, SQL_JOIN_CROSS } sql_join_kind_t;

typedef struct sql_from sql_from_t;
struct sql_from {
    sql_from_kind_t kind;
    int pos;
    sql_list_t *names;        /* RELATION: qualified name */
    sql_select_t *select;     /* SUBQUERY */
    sql_expr_t *func;         /* FUNCTION: the call */
    bool ordinality;          /* FUNCTION ... WITH ORDINALITY */
    bool lateral;             /* LATERAL (SUBQUERY, FUNCTION) */
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
    sql_list_t *with;         /* WITH: sql_cte_t *; NULL if none */
    bool with_recursive;      /* WITH RECURSIVE */
    int with_pos;             /* byte offset of WITH (its errors point there) */
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
    sql_list_t *windows;      /* WINDOW clause: sql_window_t * with names */
    struct sql_qname *into;   /* SELECT ... INTO [TABLE] name: the table; NULL if none. A statement's
                                 first SELECT's becomes CREATE TABLE name AS (the rest are errors) */

    sql_list_t *order_by;     /* sql_sort_t * */
    sql_expr_t *limit;        /* NULL if none or LIMIT ALL; FETCH FIRST n ROWS ONLY lands here too */
    sql_expr_t *offset;
};

/* ------------------------------------------------------ statement parts */

/* A name as written, with where it was written (for 42P01 / 42P07 positions). */
typedef struct sql_qname {
    int pos;
    sql_list_t *names;        /* const char *: [database.][schema.]name */
} sql_qname_t;

/*
 * One option of a list. eddy's lists (CREATE SOURCE ... WITH (tail = true),
 * LOAD GENERATOR (TICK INTERVAL '1s'), SUBSCRIBE ... WITH (snapshot = false))
 * take names of several words and "name = value"; PostgreSQL's (COPY ...
 * WITH (FORMAT csv), EXPLAIN (ANALYZE)) take one word and a value without "=".
 */
typedef struct sql_option {
    int pos;
    const char *name;         /* lower-case words joined by one space: "tail", "tick interval", "up to" */
    sql_expr_t *value;        /* CONST: string (bare words become strings), number or boolean; NULL if none */
    sql_list_t *names;        /* COPY's name (a, b): the names (const char *); NULL if none */
    bool star;                /* COPY's name *: every column */
} sql_option_t;

/* Catalog object kinds, as statements name them. */
typedef enum sql_object_kind {
    SQL_OBJ_TABLE,
    SQL_OBJ_SOURCE,
    SQL_OBJ_VIEW,
    SQL_OBJ_MATERIALIZED_VIEW,
    SQL_OBJ_INDEX,
    SQL_OBJ_SCHEMA,
    SQL_OBJ_DATABASE,
    SQL_OBJ_OBJECT,           /* SHOW OBJECTS: every item */
} sql_object_kind_t;

/* Upper-case display names: "TABLE", "MATERIALIZED VIEW", ... (plural for SHOW: "TABLES"). */
const char *sql_object_name(sql_object_kind_t kind, bool plural);

typedef enum sql_constraint_kind {
    SQL_CONSTR_NULL,          /* NULL (explicitly nullable) */
    SQL_CONSTR_NOT_NULL,
    SQL_CONSTR_DEFAULT,       /* DEFAULT expr */
    SQL_CONSTR_PRIMARY_KEY,
    SQL_CONSTR_UNIQUE,
    SQL_CONSTR_CHECK,         /* CHECK (expr) */
} sql_constraint_kind_t;

/* A column constraint, or a table constraint (then `columns` is set for PRIMARY KEY / UNIQUE). */
typedef struct sql_constraint {
    sql_constraint_kind_t kind;
    int pos;                  /* the constraint's keyword (or CONSTRAINT) */
    const char *name;         /* CONSTRAINT name; NULL if none */
    sql_expr_t *expr;         /* DEFAULT value, CHECK condition */
    sql_list_t *columns;      /* table constraints PRIMARY KEY (...) / UNIQUE (...): const char * */
} sql_constraint_t;

typedef struct sql_column_def {
    int pos;
    const char *name;
    sql_typename_t *type;
    sql_list_t *constraints;  /* sql_constraint_t *, as written */
} sql_column_def_t;

/* CREATE [TEMP] TABLE [IF NOT EXISTS] name (cols, constraints) [WITH (...)] | name [(cols)] AS query [WITH [NO] DATA] */
typedef struct sql_create_table {
    sql_qname_t *name;
    bool if_not_exists;
    bool temporary;
    sql_list_t *columns;      /* sql_column_def_t * */
    sql_list_t *constraints;  /* table constraints: sql_constraint_t * */
    sql_list_t *with;         /* sql_option_t *; NULL if none */
    sql_list_t *as_columns;   /* AS form: column names (const char *); NULL if none */
    sql_select_t *query;      /* AS form: the query; NULL for a plain CREATE TABLE */
    int with_data;            /* AS form: WITH DATA 1, WITH NO DATA 0, not written -1 */
    sql_qname_t *source;      /* FROM SOURCE src (REFERENCE ref) form (Materialize): the source; NULL if not */
    const char *reference;    /* ... and the relation of it the table stands for */
    int reference_pos;
} sql_create_table_t;

typedef enum sql_connector { SQL_CONNECTOR_FILE, SQL_CONNECTOR_LOAD_GENERATOR, SQL_CONNECTOR_KAFKA } sql_connector_t;
typedef enum sql_format {
    SQL_FORMAT_NONE,          /* no FORMAT clause (load generators) */
    SQL_FORMAT_CSV,
    SQL_FORMAT_TEXT,
    SQL_FORMAT_REGEX,
    SQL_FORMAT_JSON,
    SQL_FORMAT_BYTES,
} sql_format_t;
typedef enum sql_load_generator { SQL_GEN_COUNTER, SQL_GEN_AUCTION, SQL_GEN_TPCH } sql_load_generator_t;

/*
 * CREATE SOURCE [IF NOT EXISTS] name [(cols)] FROM
 *   FILE 'path' [WITH (...)] FORMAT f
 * | LOAD GENERATOR {COUNTER | AUCTION | TPCH} [(...)]
 * | KAFKA BROKER 'b' TOPIC 't' [WITH (...)] FORMAT f
 * with f = CSV [WITH HEADER | WITH n COLUMNS] [DELIMITED BY 'c'] | TEXT | REGEX '...' | JSON | BYTES.
 * The grammar takes any format with either connector; the binder checks the pairs and the options.
 */
typedef struct sql_create_source {
    sql_qname_t *name;
    bool if_not_exists;
    sql_list_t *columns;      /* (a, b, c): const char *; NULL if none */
    sql_connector_t connector;
    const char *path;         /* FILE */
    int path_pos;
    sql_load_generator_t generator; /* LOAD GENERATOR */
    const char *broker;       /* KAFKA */
    const char *topic;
    sql_list_t *options;      /* FILE/KAFKA ... WITH (...), LOAD GENERATOR ... (...): sql_option_t * */
    sql_format_t format;
    int format_pos;
    bool csv_header;          /* CSV WITH HEADER */
    int64_t csv_columns;      /* CSV WITH n COLUMNS; 0 if not given */
    const char *delimiter;    /* CSV ... DELIMITED BY 'c'; NULL if not given */
    const char *regex;        /* REGEX '...' */
} sql_create_source_t;

/* CREATE [OR REPLACE] [TEMP] [MATERIALIZED] VIEW [IF NOT EXISTS] name [(cols)] AS query */
typedef struct sql_create_view {
    sql_qname_t *name;
    bool materialized;
    bool or_replace;
    bool if_not_exists;
    bool temporary;
    sql_list_t *columns;      /* const char *; NULL if none */
    sql_select_t *query;
} sql_create_view_t;

/*
 * CREATE [UNIQUE] INDEX [IF NOT EXISTS] [name] ON obj [USING method] (keys)   (PostgreSQL, Materialize)
 * CREATE DEFAULT INDEX ON obj                                                (Materialize)
 */
typedef struct sql_create_index {
    const char *name;         /* NULL if not named */
    bool is_default;          /* CREATE DEFAULT INDEX */
    bool unique;
    bool if_not_exists;
    sql_qname_t *on;
    const char *method;       /* USING method; NULL if none */
    sql_list_t *keys;         /* sql_sort_t * (expression, ASC/DESC, NULLS); NULL for a DEFAULT INDEX */
} sql_create_index_t;

/* CREATE SCHEMA / CREATE DATABASE [IF NOT EXISTS] name */
typedef struct sql_create_schema {
    sql_qname_t *name;        /* schema: [database.]schema; database: one name */
    bool if_not_exists;
} sql_create_schema_t;

typedef enum sql_drop_behavior { SQL_DROP_DEFAULT, SQL_DROP_CASCADE, SQL_DROP_RESTRICT } sql_drop_behavior_t;

/* DROP object [IF EXISTS] a, b [CASCADE | RESTRICT] */
typedef struct sql_drop {
    sql_object_kind_t object;
    bool if_exists;
    sql_list_t *names;        /* sql_qname_t * */
    sql_drop_behavior_t behavior;
} sql_drop_t;

/* ALTER object [IF EXISTS] name RENAME TO new; ALTER TABLE name RENAME [COLUMN] col TO new */
/* A role as GRANT, OWNER TO and FOR ROLE name it (PostgreSQL's RoleSpec). */
typedef enum sql_rolespec_kind {
    SQL_ROLESPEC_NAME,
    SQL_ROLESPEC_CURRENT_USER,   /* CURRENT_USER and CURRENT_ROLE */
    SQL_ROLESPEC_SESSION_USER,
    SQL_ROLESPEC_PUBLIC,         /* the word public, quoted or not, as PostgreSQL reads it */
} sql_rolespec_kind_t;

typedef struct sql_rolespec {
    sql_rolespec_kind_t kind;
    const char *name;         /* SQL_ROLESPEC_NAME */
    int pos;
} sql_rolespec_t;

/* GRANT / REVOKE privileges ON objects (and, later, ALTER DEFAULT PRIVILEGES). */
typedef enum sql_grant_target {
    SQL_GRANT_TABLE,          /* [TABLE] a, b: objects are sql_qname_t * */
    SQL_GRANT_ALL_TABLES,     /* ALL TABLES IN SCHEMA s, t: const char * */
    SQL_GRANT_SCHEMA,         /* const char * */
    SQL_GRANT_DATABASE,       /* const char * */
    SQL_GRANT_DEFAULT_TABLES, /* ALTER DEFAULT PRIVILEGES ... ON objects of defacl_objtype: no objects */
} sql_grant_target_t;

/* One privilege of GRANT's list: a word (lower case as written; NULL for ALL (columns)) and
 * the columns it is for (NULL: the whole object). */
typedef struct sql_priv {
    const char *name;
    sql_list_t *cols;         /* const char * */
} sql_priv_t;

typedef struct sql_grant {
    bool revoke;
    bool grant_option;        /* WITH GRANT OPTION; REVOKE GRANT OPTION FOR */
    sql_list_t *privs;        /* sql_priv_t *; NULL: ALL [PRIVILEGES] */
    sql_grant_target_t target;
    sql_list_t *objects;
    sql_list_t *grantees;     /* sql_rolespec_t * */
    int behavior;             /* SQL_DROP_* */
    sql_list_t *for_roles;    /* ALTER DEFAULT PRIVILEGES FOR ROLE: sql_rolespec_t *; NULL: the current user */
    sql_list_t *in_schemas;   /* ... IN SCHEMA: const char *; NULL: the database's own entry */
    char defacl_objtype;      /* ... ON TABLES 'r', SEQUENCES 'S', FUNCTIONS / ROUTINES 'f', TYPES 'T', SCHEMAS 'n' */
    bool defacl_routines;     /* written ROUTINES (for the text written back) */
} sql_grant_t;

typedef struct sql_alter_rename {
    sql_object_kind_t object;
    bool if_exists;
    sql_qname_t *name;
    const char *column;       /* RENAME COLUMN: the column; NULL when the object itself is renamed */
    const char *new_name;     /* NULL for OWNER TO */
    sql_rolespec_t *owner;    /* ALTER ... OWNER TO: the new owner */
} sql_alter_rename_t;

/*
 * `column = value` of UPDATE ... SET; a column of INSERT's list (value NULL).
 * SET (a, b) = value: column is NULL, columns lists the targets (each an
 * sql_assign_t with value NULL) and value is the row or subquery they take.
 */
typedef struct sql_assign {
    int pos;
    const char *column;
    sql_expr_t *value;
    sql_list_t *columns;
    const char *field;        /* SET a.f = ..., INSERT ... (a.f): a field of the column; NULL if none */
} sql_assign_t;

/*
 * INSERT ... ON CONFLICT [(keys) [WHERE ...] | ON CONSTRAINT name]
 *   DO NOTHING | DO UPDATE SET ... [WHERE ...]
 */
typedef struct sql_on_conflict {
    int pos;                  /* of ON */
    sql_list_t *keys;         /* sql_sort_t *: the arbiter index's columns or expressions; NULL if none */
    sql_expr_t *keys_where;   /* the arbiter's partial-index predicate */
    const char *constraint;   /* ON CONSTRAINT name; NULL if not given */
    bool do_update;           /* DO UPDATE; false: DO NOTHING */
    sql_list_t *set;          /* DO UPDATE SET: sql_assign_t * */
    sql_expr_t *where;        /* DO UPDATE ... WHERE */
} sql_on_conflict_t;

/*
 * The WITH clause written before INSERT, UPDATE or DELETE is kept in an
 * sql_select_t of which only with, with_recursive and pos are set (as the
 * grammar builds it).
 */

/* [WITH ...] INSERT INTO t [AS alias] [(cols)] {query | DEFAULT VALUES} [ON CONFLICT ...] [RETURNING ...] */
typedef struct sql_insert {
    sql_qname_t *table;
    const char *alias;
    sql_list_t *columns;      /* sql_assign_t * (value NULL); NULL if none */
    sql_select_t *query;      /* VALUES or a query; NULL for DEFAULT VALUES */
    sql_on_conflict_t *on_conflict; /* NULL if none */
    sql_list_t *returning;    /* sql_target_t *; NULL if none */
    sql_select_t *with;       /* WITH before INSERT; NULL if none */
} sql_insert_t;

/* [WITH ...] UPDATE t [[AS] alias] SET a = x, (b, c) = y, ... [FROM ...] [WHERE ...] [RETURNING ...] */
typedef struct sql_update {
    sql_qname_t *table;
    const char *alias;
    sql_list_t *set;          /* sql_assign_t * */
    sql_list_t *from;         /* sql_from_t *; NULL if none */
    sql_expr_t *where;
    sql_list_t *returning;
    sql_select_t *with;       /* WITH before UPDATE; NULL if none */
} sql_update_t;

/* [WITH ...] DELETE FROM t [[AS] alias] [USING ...] [WHERE ...] [RETURNING ...] */
typedef struct sql_delete {
    sql_qname_t *table;
    const char *alias;
    sql_list_t *using_from;   /* sql_from_t *; NULL if none */
    sql_expr_t *where;
    sql_list_t *returning;
    sql_select_t *with;       /* WITH before DELETE; NULL if none */
} sql_delete_t;

/* TRUNCATE [TABLE] [ONLY] t [*], ... [RESTART IDENTITY | CONTINUE IDENTITY] [CASCADE | RESTRICT] */
typedef struct sql_truncate {
    sql_list_t *tables;       /* sql_qname_t * */
    bool restart_identity;
    sql_drop_behavior_t behavior;
} sql_truncate_t;

typedef struct sql_subscribe sql_subscribe_t;

/* COPY t [(cols)] FROM STDIN | COPY t [(cols)] TO STDOUT | COPY (query) TO STDOUT | COPY (SUBSCRIBE ...) TO STDOUT */
typedef struct sql_copy {
    sql_qname_t *table;       /* NULL for COPY (query) */
    sql_list_t *columns;      /* const char *; NULL if none */
    sql_select_t *query;      /* COPY (query) TO */
    sql_subscribe_t *subscribe; /* COPY (SUBSCRIBE ...) TO */
    bool to;                  /* TO STDOUT; false: FROM STDIN */
    sql_list_t *options;      /* [WITH] (format csv, header true, ...): sql_option_t * */
} sql_copy_t;

/* SUBSCRIBE [TO] {obj | (query)} [WITH (...)] */
struct sql_subscribe {
    sql_qname_t *object;      /* NULL for a query */
    sql_select_t *query;
    sql_list_t *options;      /* sql_option_t * */
};

/*
 * SHOW objects [FROM schema] [LIKE 'p' | WHERE e]; SHOW INDEXES {ON | FROM | IN} x;
 * SHOW COLUMNS {FROM | IN} x; SHOW CREATE object x.
 */
typedef struct sql_show {
    sql_object_kind_t object; /* SHOW <objects>, SHOW CREATE <object> */
    sql_qname_t *from;        /* SHOW <objects> FROM/IN schema */
    sql_qname_t *on;          /* the relation of SHOW INDEXES ON/FROM and SHOW COLUMNS; the object of SHOW CREATE */
    sql_expr_t *like;         /* LIKE 'pattern': a string CONST */
    sql_expr_t *where;
} sql_show_t;

typedef struct sql_stmt sql_stmt_t;

/*
 * EXPLAIN [ANALYZE] [VERBOSE] stmt | EXPLAIN (options) stmt | EXPLAIN PLAN FOR stmt
 * | EXPLAIN [PLAN FOR] {VIEW | MATERIALIZED VIEW | INDEX} name
 */
typedef struct sql_explain {
    sql_list_t *options;      /* sql_option_t *; ANALYZE / VERBOSE keywords become options too; NULL if none */
    bool plan_for;            /* EXPLAIN PLAN FOR (Materialize) */
    bool physical;            /* EXPLAIN PHYSICAL PLAN FOR: the dataflow's operators and arrangements */
    sql_stmt_t *stmt;         /* SELECT / INSERT / UPDATE / DELETE / CREATE VIEW / CREATE INDEX / EXECUTE */
    sql_object_kind_t object; /* EXPLAIN VIEW v: SQL_OBJ_VIEW / MATERIALIZED_VIEW / INDEX with name set */
    sql_qname_t *name;        /* NULL when a statement is explained */
} sql_explain_t;

/* PREPARE name [(types)] AS stmt; EXECUTE name [(args)]; DEALLOCATE [PREPARE] {name | ALL} */
typedef struct sql_prepare {
    const char *name;         /* DEALLOCATE ALL: NULL */
    sql_list_t *types;        /* PREPARE: sql_typename_t *; NULL if none */
    sql_stmt_t *stmt;         /* PREPARE: SELECT / INSERT / UPDATE / DELETE */
    sql_list_t *args;         /* EXECUTE: sql_expr_t *; NULL if none */
} sql_prepare_t;

/* DECLARE name [NO SCROLL] CURSOR [WITH[OUT] HOLD] FOR {SUBSCRIBE ... | query};
 * FETCH [FORWARD] [count | ALL | NEXT] [FROM | IN] name [WITH (timeout = ...)]; CLOSE {name | ALL} */
typedef struct sql_cursor {
    const char *name;         /* CLOSE ALL: NULL */
    sql_subscribe_t *subscribe; /* DECLARE ... FOR SUBSCRIBE */
    sql_select_t *query;      /* DECLARE ... FOR a query */
    bool hold;                /* DECLARE ... WITH HOLD */
    int64_t count;            /* FETCH: how many rows; -1: ALL */
    sql_list_t *options;      /* FETCH ... WITH (...): sql_option_t * */
} sql_cursor_t;

/*
 * CREATE ROLE / USER name [WITH] options; ALTER ROLE / USER name [WITH]
 * options; DROP ROLE / USER [IF EXISTS] names; GRANT roles TO members;
 * REVOKE roles FROM members; ALTER ROLE / USER name SET var {TO|=} value |
 * RESET var | RESET ALL (`setting`). Options set `set` bits (the sql_role_attr
 * flags named) with their values in `flags`; PASSWORD NULL leaves
 * password NULL with SQL_ROLE_PASSWORD set.
 */
enum sql_role_attr {
    SQL_ROLE_SUPERUSER = 0x01,
    SQL_ROLE_INHERIT = 0x02,
    SQL_ROLE_CREATEROLE = 0x04,
    SQL_ROLE_CREATEDB = 0x08,
    SQL_ROLE_LOGIN = 0x10,
    SQL_ROLE_REPLICATION = 0x20,
    SQL_ROLE_BYPASSRLS = 0x40,
    SQL_ROLE_PASSWORD = 0x100,
    SQL_ROLE_CONN_LIMIT = 0x200,
    SQL_ROLE_VALID_UNTIL = 0x400,
};

typedef struct sql_role {
    bool is_user;             /* CREATE / ALTER / DROP USER */
    const char *name;         /* CREATE / ALTER */
    int name_pos;
    unsigned set;             /* enum sql_role_attr: what the options name */
    unsigned flags;           /* their values */
    const char *password;
    int64_t conn_limit;
    const char *valid_until;  /* the timestamptz text */
    sql_list_t *names;        /* DROP: const char *; GRANT / REVOKE: the roles granted */
    sql_list_t *members;      /* GRANT / REVOKE: const char * */
    bool with_columns;        /* GRANT / REVOKE role (columns): refused when planned, as PostgreSQL's GrantRole */
    bool if_exists;
    struct sql_stmt *setting; /* ALTER ROLE name SET ... / RESET ...: that SET or RESET */
    sql_list_t *owners;       /* REASSIGN / DROP OWNED BY: sql_rolespec_t * */
    sql_rolespec_t *new_owner; /* REASSIGN OWNED ... TO */
    int behavior;             /* DROP OWNED: SQL_DROP_* */
} sql_role_t;

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
    SQL_STMT_CREATE_TABLE,    /* create_table */
    SQL_STMT_CREATE_SOURCE,   /* create_source */
    SQL_STMT_CREATE_VIEW,     /* create_view (materialized or not) */
    SQL_STMT_CREATE_INDEX,    /* create_index */
    SQL_STMT_CREATE_SCHEMA,   /* create_schema */
    SQL_STMT_CREATE_DATABASE, /* create_schema (the same parts) */
    SQL_STMT_DROP,            /* drop */
    SQL_STMT_ALTER_RENAME,    /* alter_rename */
    SQL_STMT_INSERT,          /* insert */
    SQL_STMT_UPDATE,          /* update */
    SQL_STMT_DELETE,          /* delete_ */
    SQL_STMT_COPY,            /* copy */
    SQL_STMT_TRUNCATE,        /* truncate */
    SQL_STMT_SUBSCRIBE,       /* subscribe */
    SQL_STMT_SHOW_OBJECTS,    /* show: SHOW SOURCES / TABLES / VIEWS / MATERIALIZED VIEWS / INDEXES / OBJECTS / ... */
    SQL_STMT_SHOW_COLUMNS,    /* show: SHOW COLUMNS FROM x */
    SQL_STMT_SHOW_CREATE,     /* show: SHOW CREATE {TABLE | SOURCE | VIEW | MATERIALIZED VIEW | INDEX} x */
    SQL_STMT_EXPLAIN,         /* explain */
    SQL_STMT_PREPARE,         /* prepare */
    SQL_STMT_EXECUTE,         /* prepare (name, args) */
    SQL_STMT_DEALLOCATE,      /* prepare (name; NULL for ALL) */
    SQL_STMT_DECLARE,         /* cursor */
    SQL_STMT_FETCH,           /* cursor */
    SQL_STMT_CLOSE,           /* cursor (name; NULL for ALL) */
    SQL_STMT_CREATE_ROLE,     /* role */
    SQL_STMT_ALTER_ROLE,      /* role */
    SQL_STMT_DROP_ROLE,       /* role */
    SQL_STMT_GRANT,           /* grant: GRANT / REVOKE privileges ON objects */
    SQL_STMT_GRANT_ROLE,      /* role */
    SQL_STMT_REVOKE_ROLE,     /* role */
    SQL_STMT_REASSIGN_OWNED,  /* role: owners, new_owner */
    SQL_STMT_DROP_OWNED,      /* role: owners, behavior */
    SQL_STMT_UNSUPPORTED,     /* a statement the grammar does not take yet: name says which */
} sql_stmt_kind_t;

typedef enum sql_discard { SQL_DISCARD_ALL, SQL_DISCARD_PLANS, SQL_DISCARD_SEQUENCES, SQL_DISCARD_TEMP } sql_discard_t;

/* Transaction modes of BEGIN / START TRANSACTION / SET TRANSACTION. */
typedef struct sql_txn_modes {
    const char *isolation;    /* "serializable", "repeatable read", "read committed", "read uncommitted", NULL */
    int read_only;            /* -1 not given, 0 READ WRITE, 1 READ ONLY */
    int deferrable;           /* -1 not given, 0 NOT DEFERRABLE, 1 DEFERRABLE */
} sql_txn_modes_t;

struct sql_stmt {
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

    const char *unsupported;  /* UNSUPPORTED: "ALTER TABLE", "GRANT", ... */

    /* The other statements keep their parts in one struct each (the comment on the kind says which). */
    sql_create_table_t *create_table;
    sql_create_source_t *create_source;
    sql_create_view_t *create_view;
    sql_create_index_t *create_index;
    sql_create_schema_t *create_schema;
    sql_drop_t *drop;
    sql_alter_rename_t *alter_rename;
    sql_insert_t *insert;
    sql_update_t *update;
    sql_delete_t *delete_;
    sql_copy_t *copy;
    sql_truncate_t *truncate;
    sql_subscribe_t *subscribe;
    sql_show_t *show;
    sql_explain_t *explain;
    sql_prepare_t *prepare;
    sql_cursor_t *cursor;
    sql_role_t *role;
    sql_grant_t *grant;
};

/*
 * The statement's display name, upper case: "CREATE MATERIALIZED VIEW",
 * "DROP TABLE", "SHOW SOURCES", "INSERT", ... (for UNSUPPORTED, the name it
 * carries). The planner words "<name> is not supported yet" with it.
 */
const char *sql_stmt_name(const sql_stmt_t *s);

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
/* GRANT's and OWNER TO's role: a name, CURRENT_USER, SESSION_USER or PUBLIC. */
void sql_deparse_rolespec(const sql_rolespec_t *r, cm_buf_t *out);

/* ------------------------------------------------------------- keywords */

typedef enum sql_kw_category {
    SQL_KW_UNRESERVED,
    SQL_KW_COL_NAME,          /* usable as a column name, not as a function or type name */
    SQL_KW_TYPE_FUNC_NAME,    /* usable as a function or type name, not as a column name */
    SQL_KW_RESERVED,
} sql_kw_category_t;

/* Looks up a keyword (lower-case); false if `word` is not one. */
bool sql_keyword_lookup(const char *word, size_t len, sql_kw_category_t *category);
/* The i-th of PostgreSQL 15's keywords, in order of the word (pg_get_keywords' rows); false past
 * the last. *bare_label: usable as a column label without AS (PostgreSQL's BARE_LABEL). */
bool sql_keyword_at(size_t i, const char **word, sql_kw_category_t *category, bool *bare_label);

#endif
