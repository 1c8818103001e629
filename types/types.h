/*
 * types.h: the public header of the types module (prefix ty_).
 *
 * Values (datums) and the type table with PostgreSQL's OIDs; text and binary
 * input/output exactly as PostgreSQL 15 formats them; typed scalar expression
 * trees and their evaluator; the table of scalar functions, operators and
 * casts that the planner binds against. Workers evaluate the same expression
 * trees, so nothing here may depend on the server, parser or catalog.
 */
#ifndef EDDY_TYPES_H
#define EDDY_TYPES_H

#include "common/common.h"

/* ------------------------------------------------------------ the types */

typedef uint32_t ty_oid_t;

enum {
    TY_INVALID = 0,
    TY_BOOL = 16,
    TY_BYTEA = 17,
    TY_CHAR = 18,          /* "char": one byte */
    TY_NAME = 19,
    TY_INT8 = 20,
    TY_INT2 = 21,
    TY_INT4 = 23,
    TY_REGPROC = 24,
    TY_TEXT = 25,
    TY_OID = 26,
    TY_JSON = 114,
    TY_FLOAT4 = 700,
    TY_FLOAT8 = 701,
    TY_UNKNOWN = 705,      /* untyped string literals before resolution */
    TY_BPCHAR = 1042,
    TY_VARCHAR = 1043,
    TY_DATE = 1082,
    TY_TIME = 1083,
    TY_TIMESTAMP = 1114,
    TY_TIMESTAMPTZ = 1184,
    TY_INTERVAL = 1186,
    TY_NUMERIC = 1700,
    TY_REGCLASS = 2205,
    TY_REGTYPE = 2206,
    TY_RECORD = 2249,
    TY_REGNAMESPACE = 4089,
    TY_VOID = 2278,
    TY_UUID = 2950,
    TY_JSONB = 3802,
};

/* Array types (pg_type's "_elem" rows) of the element types above that have one. */
enum {
    TY_JSON_ARRAY = 199,
    TY_BOOL_ARRAY = 1000,
    TY_BYTEA_ARRAY = 1001,
    TY_CHAR_ARRAY = 1002,
    TY_NAME_ARRAY = 1003,
    TY_INT2_ARRAY = 1005,
    TY_INT4_ARRAY = 1007,
    TY_TEXT_ARRAY = 1009,
    TY_BPCHAR_ARRAY = 1014,
    TY_VARCHAR_ARRAY = 1015,
    TY_INT8_ARRAY = 1016,
    TY_FLOAT4_ARRAY = 1021,
    TY_FLOAT8_ARRAY = 1022,
    TY_OID_ARRAY = 1028,
    TY_TIMESTAMP_ARRAY = 1115,
    TY_DATE_ARRAY = 1182,
    TY_TIME_ARRAY = 1183,
    TY_TIMESTAMPTZ_ARRAY = 1185,
    TY_INTERVAL_ARRAY = 1187,
    TY_NUMERIC_ARRAY = 1231,
    TY_REGTYPE_ARRAY = 2211,
    TY_UUID_ARRAY = 2951,
    TY_JSONB_ARRAY = 3807,
};

/* PostgreSQL's type categories (pg_type.typcategory), used for overload
 * resolution and implicit casts. */
enum {
    TY_CAT_BOOL = 'B',
    TY_CAT_DATETIME = 'D',
    TY_CAT_NUMERIC = 'N',
    TY_CAT_STRING = 'S',
    TY_CAT_TIMESPAN = 'T',
    TY_CAT_USER = 'U',
    TY_CAT_UNKNOWN = 'X',
    TY_CAT_PSEUDO = 'P',
    TY_CAT_ARRAY = 'A',
};

typedef struct ty_info {
    ty_oid_t oid;
    const char *name;        /* pg_type.typname, e.g. "int4" */
    const char *sql_name;    /* format_type() spelling, e.g. "integer" */
    int16_t typlen;          /* -1 varlena, -2 cstring/unknown */
    char category;           /* TY_CAT_* */
    bool preferred;          /* pg_type.typispreferred */
    ty_oid_t array_oid;
} ty_info_t;

const ty_info_t *ty_info(ty_oid_t oid);    /* NULL for an unsupported OID */
/* The supported types in table order, i from 0 until NULL (pg_type's rows). */
const ty_info_t *ty_info_at(size_t i);
/* The array type of an element type (TY_INT4 -> TY_INT4_ARRAY); TY_INVALID if none. */
ty_oid_t ty_array_type_of(ty_oid_t elem);
/* The element type of an array type; TY_INVALID if arr is not an array type. */
ty_oid_t ty_array_elem_type(ty_oid_t arr);
/*
 * Resolves a type name as written in SQL (case-insensitive, already
 * lower-cased by the parser): "int", "integer", "int4", "character varying",
 * "double precision", "timestamp with time zone", "bool", ... NULL if unknown.
 */
const ty_info_t *ty_info_by_name(const char *name);
/* format_type(oid, typmod): "character varying(10)", "numeric(10,2)". */
void ty_format_type(ty_oid_t oid, int32_t typmod, cm_buf_t *out);
/* pg_type's functions of a type as PostgreSQL 15 declares them (their OIDs; 0: none); false if
 * eddy lacks the type. ty_proc_name: the name of one of them, NULL for any other OID (ty_regproc.c). */
typedef struct ty_type_procs {
    uint32_t input, output, receive, send, modin, modout, analyze, subscript;
} ty_type_procs_t;
bool ty_type_procs(ty_oid_t type, ty_type_procs_t *out);
const char *ty_proc_name(uint32_t oid);

/* ----------------------------------------------------------- the values */

typedef struct ty_numeric ty_numeric_t;   /* arbitrary precision decimal, opaque */

typedef struct ty_interval {
    int64_t us;      /* time part in microseconds */
    int32_t days;
    int32_t months;
} ty_interval_t;

/*
 * A value. Which union member is live depends on the type, which travels
 * beside the datum (in the expression or the row description), not inside it:
 *   bool                            b
 *   int2 int4 int8 oid regclass...  i
 *   float4 float8                   f (float4 kept rounded to float)
 *   text varchar bpchar name bytea
 *   json jsonb "char" unknown       s (bytes, not NUL-terminated; owned by an arena)
 *   numeric                         n (arena)
 *   date                            i = days since 2000-01-01
 *   time                            i = microseconds since midnight
 *   timestamp timestamptz           i = microseconds since 2000-01-01 00:00 (UTC for tz)
 *   interval                        iv
 *   uuid                            uuid
 *   arrays (int4[], text[], ...)    arr (arena; see ty_array_t)
 *   record (ROW(...), (a, b))       rec (arena; see ty_record_t)
 */
typedef struct ty_datum {
    bool isnull;
    union {
        bool b;
        int64_t i;
        double f;
        struct {
            const char *p;
            uint32_t len;
        } s;
        ty_numeric_t *n;
        ty_interval_t iv;
        uint8_t uuid[16];
        const struct ty_array *arr;
        const struct ty_record *rec;
    } v;
} ty_datum_t;

/*
 * An array value, immutable once built and owned by an arena like strings.
 * Elements are datums of type elem in row-major order; a NULL element is a
 * datum with isnull set (there is no separate bitmap). The empty array has
 * ndim 0 and no items. Typmods of an array type apply to its elements.
 */
#define TY_ARRAY_MAXDIM 6
typedef struct ty_array {
    ty_oid_t elem;                  /* element type */
    int ndim;                       /* 0..TY_ARRAY_MAXDIM */
    int dims[TY_ARRAY_MAXDIM];      /* length of each dimension */
    int lbound[TY_ARRAY_MAXDIM];    /* lower bound of each dimension (1 unless written [lo:hi]=) */
    int nitems;                     /* product of dims (0 when ndim is 0) */
    bool hasnull;
    const ty_datum_t *items;
} ty_array_t;

/*
 * A record value (type record, an anonymous composite such as ROW(1, 'a')),
 * immutable once built and owned by an arena like strings. Each column
 * carries its own type, as PostgreSQL's blessed anonymous row types do, so
 * a record's text and binary forms and comparisons need nothing beside the
 * datum. A NULL column is a datum with isnull set.
 */
typedef struct ty_record {
    int ncols;
    const ty_oid_t *types;          /* ncols column types */
    const ty_datum_t *items;        /* ncols values */
} ty_record_t;

/* ------------------------------------------------- session settings */

typedef enum ty_datestyle {
    TY_DATESTYLE_ISO = 0,
    TY_DATESTYLE_POSTGRES,
    TY_DATESTYLE_SQL,
    TY_DATESTYLE_GERMAN,
} ty_datestyle_t;

typedef enum ty_dateorder {
    TY_DATEORDER_MDY = 0,
    TY_DATEORDER_DMY,
    TY_DATEORDER_YMD,
} ty_dateorder_t;

typedef enum ty_intervalstyle {
    TY_INTERVALSTYLE_POSTGRES = 0,
    TY_INTERVALSTYLE_POSTGRES_VERBOSE,
    TY_INTERVALSTYLE_SQL_STANDARD,
    TY_INTERVALSTYLE_ISO_8601,
} ty_intervalstyle_t;

/* A time zone: immutable once made and cached for the process, so sessions
 * and worker threads share them without locks. */
typedef struct ty_tz ty_tz_t;

/*
 * Looks a zone up by name as SET TIME ZONE accepts it: "UTC", "GMT", an IANA
 * name read from the system's zoneinfo ("Europe/Paris"), a POSIX-style or
 * ISO offset ("+02", "-05:30", "UTC+3"), or a number of hours. NULL and 22023
 * "invalid value for parameter \"TimeZone\": ..." on failure. Thread-safe.
 */
const ty_tz_t *ty_tz_lookup(const char *name, cm_err_t *err);
const char *ty_tz_name(const ty_tz_t *tz);   /* as SHOW TimeZone prints it */
const ty_tz_t *ty_tz_utc(void);

typedef struct ty_settings {
    int extra_float_digits;        /* -15..3, default 1 */
    ty_datestyle_t datestyle;
    ty_dateorder_t dateorder;
    ty_intervalstyle_t intervalstyle;
    const ty_tz_t *tz;
    bool bytea_output_escape;      /* false: hex (the default) */
} ty_settings_t;

void ty_settings_default(ty_settings_t *s);  /* ISO, MDY; postgres; UTC; 1 */
/* Parses a DateStyle value ("ISO, MDY", "german", "dmy") on top of the
 * current one; writes the canonical spelling ("ISO, DMY") to canonical. */
bool ty_datestyle_parse(const char *value, ty_settings_t *s, cm_buf_t *canonical, cm_err_t *err);
bool ty_intervalstyle_parse(const char *value, ty_settings_t *s, cm_err_t *err);
const char *ty_intervalstyle_name(ty_intervalstyle_t style);

/* ------------------------------------------------- evaluation context */

/*
 * What evaluation and I/O need from the statement around them. Results that
 * need memory (strings, numerics) are allocated in `arena`; errors go to `err`.
 */
typedef struct ty_ctx {
    cm_arena_t *arena;
    const ty_settings_t *settings;
    cm_err_t *err;
    int64_t xact_ts;                 /* transaction start: now(), current_timestamp */
    int64_t stmt_ts;                 /* statement start: statement_timestamp() */
    const volatile int *cancel;      /* nonzero: stop with 57014 at the next check */
    int64_t deadline_mono_us;        /* statement_timeout as a cm_now_mono_us() deadline; 0 none */
    const char *user;                /* current_user */
    const char *session_user;        /* session_user; NULL: user */
    const char *database;            /* current_database() */
    const char *schema;              /* current_schema() */
    const char *version;             /* version() */
    int32_t backend_pid;             /* pg_backend_pid(): the pid BackendKeyData gave the session */
    /*
     * The session's settings for current_setting() and set_config() (ty_setting_funcs.c);
     * NULL where there is no session (those functions then fail with 0A000).
     * setting_get appends the value as SHOW prints it to out and returns true; an
     * unknown name returns false with err unset when missing_ok, else with 42704 set.
     * setting_set changes the setting (value NULL: back to its default) for the
     * session, or until the transaction ends when is_local, as SET [LOCAL] does.
     */
    bool (*setting_get)(void *arg, const char *name, bool missing_ok, cm_buf_t *out, cm_err_t *err);
    bool (*setting_set)(void *arg, const char *name, const char *value, bool is_local, cm_err_t *err);
    void *setting_arg;
    /*
     * Rows of a relation the session holds rather than the catalog (the
     * planner names it and declares its columns: planner.h, "session
     * relations"): *rows gets *nrows rows of ncols datums each, all in arena.
     * NULL where there is no session: such a relation then has no rows.
     */
    bool (*session_rows)(void *arg, const char *relation, int ncols, cm_arena_t *arena, ty_datum_t ***rows,
                         int *nrows, cm_err_t *err);
    void *session_arg;
    /*
     * The catalog, for the functions and type I/O that read it (ty_catfn_t;
     * the planner answers them: pln_catalog_fn). NULL where there is none:
     * regclass then reads and prints bare OIDs and the functions answer as
     * for an empty catalog.
     */
    bool (*catalog_fn)(void *arg, int fn, const ty_datum_t *args, int nargs, struct ty_ctx *ctx, ty_datum_t *out);
    void *catalog_arg;
} ty_ctx_t;

/*
 * What ty_ctx_t.catalog_fn is asked. Arguments are never NULL; *out may be
 * set NULL. Each returns false with ctx->err set on an error.
 */
typedef enum ty_catfn {
    TY_CATFN_REGCLASS_IN = 1,    /* text (a relation name as SQL writes it) -> its OID, or 42P01 */
    TY_CATFN_REGCLASS_OUT,       /* oid -> text: the name, qualified when the search path does not find it; NULL: none */
    TY_CATFN_TABLE_IS_VISIBLE,   /* oid -> bool: the search path finds the relation by its name; NULL: no such relation */
    TY_CATFN_INDEXDEF,           /* oid, column int4, pretty bool -> text: CREATE INDEX ... or a key; NULL: no such index */
    TY_CATFN_VIEWDEF,            /* oid -> text: the view's query; NULL: no such view */
    TY_CATFN_CONSTRAINTDEF,      /* oid -> text: PRIMARY KEY (a), CHECK ((a > 0)), ...; NULL: no such constraint */
    TY_CATFN_CURRENT_SCHEMAS,    /* bool (with implicit schemas) -> name[] of the existing schemas searched */
    TY_CATFN_CURRENT_SCHEMA,     /* -> name: the first existing schema of the path; NULL: none */
    TY_CATFN_REGNAMESPACE_IN,    /* text (a schema name as SQL writes it) -> its OID, or 3F000 */
    TY_CATFN_REGNAMESPACE_OUT,   /* oid -> text: the schema's name, quoted as needed; NULL: none */
    TY_CATFN_PUBLISHABLE,        /* oid -> bool: a user's table (pg_relation_is_publishable); NULL: no such relation */
    TY_CATFN_KEYWORD,            /* int4 i -> text: pg_get_keywords' i-th row as its category code (U, C, T, R),
                                    B (bare label) or A (requires AS), then the word; NULL past the last */
    TY_CATFN_USERBYID,           /* oid -> text: the role's name (OID 10: the bootstrap superuser's) */
    TY_CATFN_PRIVILEGE,          /* form int, role, object, privileges text -> bool: has_*_privilege (TY_PRIV_*) */
} ty_catfn_t;

/* TY_CATFN_PRIVILEGE's form: object kind * 16 + role shape * 4 + object shape. */
enum { TY_PRIV_TABLE = 1, TY_PRIV_SCHEMA = 2, TY_PRIV_DATABASE = 3, TY_PRIV_COLUMN = 4, TY_PRIV_ANY_COLUMN = 5 };
/* has_column_privilege's column: args[4], a name, or (form + TY_PRIV_BY_ATTNUM) an int2 attnum. */
enum { TY_PRIV_BY_ATTNUM = 256 };
enum { TY_PRIV_CURRENT = 0, TY_PRIV_BY_NAME = 1, TY_PRIV_BY_OID = 2 };

/* Checks cancel and deadline; sets 57014 and returns false when either fired. */
bool ty_ctx_check_interrupt(ty_ctx_t *ctx);

/* ----------------------------------------------------------- text/binary I/O */

/*
 * Text input as PostgreSQL's typinput: bytes need not be NUL-terminated.
 * typmod -1 means none; otherwise it is applied (varchar(n) length check,
 * numeric(p,s) rounding, timestamp(p) precision). Errors: 22P02, 22003,
 * 22007, 22008, 22001, ...
 */
bool ty_datum_from_text(ty_oid_t type, int32_t typmod, const char *p, size_t len, ty_ctx_t *ctx,
                        ty_datum_t *out);
/* Text output as PostgreSQL's typoutput, honouring ctx->settings; appends to out. */
bool ty_datum_to_text(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
/* Binary receive/send as PostgreSQL's typreceive/typsend. Bad length or
 * content: 22P03 "incorrect binary data format". */
bool ty_datum_from_binary(ty_oid_t type, int32_t typmod, const uint8_t *p, size_t len, ty_ctx_t *ctx,
                          ty_datum_t *out);
bool ty_datum_to_binary(ty_oid_t type, const ty_datum_t *d, ty_ctx_t *ctx, cm_buf_t *out);
/* True if the type has binary send/receive here. */
bool ty_has_binary(ty_oid_t type);

/* -------------------------------------------------- functions and casts */

typedef struct ty_expr ty_expr_t;

/* Function flags. */
enum {
    TY_FN_STRICT = 1 << 0,     /* NULL in any argument gives NULL without a call */
    TY_FN_VOLATILE = 1 << 1,   /* not constant-foldable (now(), random()) */
    TY_FN_BLOCKING = 1 << 2,   /* may run long (pg_sleep): run off the event loop */
    TY_FN_OPERATOR = 1 << 3,   /* name is an operator symbol */
    TY_FN_VARIADIC = 1 << 4,   /* last declared argument repeats (concat) */
};

typedef bool (*ty_func_impl_t)(ty_ctx_t *ctx, const ty_datum_t *args, int nargs, ty_datum_t *out);

/* Most declared arguments of a function (make_interval has 7). */
#define TY_FUNC_ARGS_MAX 8

typedef struct ty_func {
    const char *name;          /* lower-case function name, or operator symbol ("+", "||", "~~") */
    int nargs;                 /* declared arguments (1 for a prefix operator) */
    ty_oid_t args[TY_FUNC_ARGS_MAX]; /* TY_INVALID (0) accepts any type (e.g. concat's "any") */
    ty_oid_t ret;
    unsigned flags;
    ty_func_impl_t impl;
    uint32_t oid;              /* a stable id (pg_proc.oid where there is one) */
} ty_func_t;

/* All functions or operators named `name` (operators: pass is_operator). */
size_t ty_func_candidates(const char *name, bool is_operator, const ty_func_t **out, size_t max);

/*
 * Set-returning functions (functions in FROM and in the select list). Each
 * call yields rows one at a time: next() is called with the call's
 * arguments and a state pointer that starts NULL and is the function's own
 * (in ctx->arena); it fills out[0..ncols) and returns true with *done
 * false, or sets *done when there are no more rows. A strict one yields no
 * rows when an argument is NULL (the caller checks, next() is not called).
 */
typedef bool (*ty_srf_next_t)(ty_ctx_t *ctx, const ty_datum_t *args, int nargs, void **state, ty_datum_t *out,
                              bool *done);

#define TY_SRF_COLS_MAX 5

typedef struct ty_srf {
    ty_func_t fn;              /* first, so a candidate found by ty_srf_candidates is its ty_srf_t;
                                  ret is the type of a single column, TY_RECORD when there are several */
    int ncols;
    const char *colnames[TY_SRF_COLS_MAX];   /* the OUT parameters' names (jsonb_each: key, value); NULL: none */
    ty_oid_t coltypes[TY_SRF_COLS_MAX];
    ty_srf_next_t next;
} ty_srf_t;

/* All set-returning functions named `name`, as ty_func_t for overload resolution. */
size_t ty_srf_candidates(const char *name, const ty_func_t **out, size_t max);
static inline const ty_srf_t *ty_srf_of(const ty_func_t *f) { return (const ty_srf_t *)f; }

typedef enum ty_cast_context {
    TY_CAST_IMPLICIT = 'i',
    TY_CAST_ASSIGNMENT = 'a',
    TY_CAST_EXPLICIT = 'e',
} ty_cast_context_t;

/*
 * The cast from `from` to `to` (pg_cast plus PostgreSQL's automatic I/O casts
 * to and from the string types). Returns false if there is none; otherwise
 * *context says in which contexts it applies.
 */
bool ty_cast_exists(ty_oid_t from, ty_oid_t to, ty_cast_context_t *context);
/* Converts a value; applies typmod (-1: none). Errors as the target's input does.
 * This is an explicit cast: a too long value for varchar(n)/char(n) is truncated. */
bool ty_cast_datum(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx,
                   ty_datum_t *out);
/* The same in assignment context (INSERT, UPDATE): too long is 22001
 * "value too long for type character varying(n)". */
bool ty_cast_datum_assign(ty_oid_t from, ty_oid_t to, int32_t typmod, const ty_datum_t *in, ty_ctx_t *ctx,
                          ty_datum_t *out);

/* ---------------------------------------------------------- expressions */

typedef enum ty_expr_kind {
    TY_EXPR_CONST,        /* value */
    TY_EXPR_PARAM,        /* $n: index is n-1 */
    TY_EXPR_COLUMN,       /* index-th column of the input row */
    TY_EXPR_CALL,         /* func(args...) */
    TY_EXPR_CAST,         /* args[0]::type(typmod); negated: assignment-context cast (no silent truncation) */
    TY_EXPR_AND,          /* args..., three-valued */
    TY_EXPR_OR,
    TY_EXPR_NOT,          /* args[0] */
    TY_EXPR_CASE,         /* args = when1, then1, when2, then2, ..., else (always present; NULL const if absent) */
    TY_EXPR_COALESCE,     /* args */
    TY_EXPR_GREATEST,     /* args, compared with func (the type's "<" ) */
    TY_EXPR_LEAST,
    TY_EXPR_NULLIF,       /* args[0], args[1]; func is "=" */
    TY_EXPR_IS_NULL,      /* args[0]; negated for IS NOT NULL */
    TY_EXPR_IS_DISTINCT,  /* args[0], args[1]; func is "="; negated for IS NOT DISTINCT FROM */
    TY_EXPR_IS_BOOL,      /* args[0] IS [NOT] TRUE/FALSE/UNKNOWN: bool_test */
    TY_EXPR_IN_LIST,      /* args[0] IN (args[1..]); func is "="; negated for NOT IN */
    TY_EXPR_ARRAY = 17,   /* ARRAY[args]: type is the array type; args are of its element type,
                             or all of the array type itself for ARRAY[[1,2],[3,4]] */
    TY_EXPR_ANY = 18,     /* args[0] op ANY (args[1]): args[1] is an array; func is the operator
                             (scalar, element) -> bool */
    TY_EXPR_ALL = 19,     /* args[0] op ALL (args[1]) */
    TY_EXPR_ROW = 20,     /* ROW(args) or (a, b, ...): type is TY_RECORD, one column per argument */
    TY_EXPR_ROW_COMPARE = 21, /* (l1, l2, ...) op (r1, r2, ...) for op <, <=, >= or > (index 0..3,
                             TY_ROWCMP_*): args = l1, r1, l2, r2, ..., each pair of one type;
                             compared column by column as PostgreSQL's RowCompareExpr: the first
                             unequal pair decides, a NULL met before that gives NULL */
    TY_EXPR_FIELD = 22,   /* (args[0]).name: column index of the record args[0] (NULL record: NULL);
                             value holds the name as text, for EXPLAIN */
} ty_expr_kind_t;

/* TY_EXPR_ROW_COMPARE's operator, in its index. */
enum { TY_ROWCMP_LT = 0, TY_ROWCMP_LE = 1, TY_ROWCMP_GE = 2, TY_ROWCMP_GT = 3 };

typedef enum ty_bool_test {
    TY_BOOLTEST_TRUE,
    TY_BOOLTEST_FALSE,
    TY_BOOLTEST_UNKNOWN,
} ty_bool_test_t;

struct ty_expr {
    ty_expr_kind_t kind;
    ty_oid_t type;             /* result type */
    int32_t typmod;            /* result typmod, -1 if none */
    int location;              /* byte offset of the expression in the statement text, -1 if none */
    bool negated;
    ty_bool_test_t bool_test;
    int index;                 /* PARAM, COLUMN; ROW_COMPARE: TY_ROWCMP_* */
    ty_datum_t value;          /* CONST */
    const ty_func_t *func;     /* CALL, NULLIF, IS_DISTINCT, IN_LIST, GREATEST, LEAST */
    int nargs;
    ty_expr_t **args;
};

/*
 * Evaluates e against one input row and the statement's parameters. On
 * error sets ctx->err (with the position of e when it has one, converted by
 * the caller) and returns false.
 */
bool ty_expr_eval(const ty_expr_t *e, ty_ctx_t *ctx, const ty_datum_t *row, const ty_datum_t *params,
                  ty_datum_t *out);
/* True if e contains a TY_FN_BLOCKING or TY_FN_VOLATILE call. */
bool ty_expr_has_flag(const ty_expr_t *e, unsigned flag);
/* Builders that allocate in an arena. */
ty_expr_t *ty_expr_new(cm_arena_t *a, ty_expr_kind_t kind, ty_oid_t type, int nargs);
ty_expr_t *ty_expr_const(cm_arena_t *a, ty_oid_t type, int32_t typmod, ty_datum_t value);

/* Comparison used by ORDER BY, DISTINCT and set operations: <0, 0, >0; NULLs last. */
int ty_datum_compare(ty_oid_t type, const ty_datum_t *a, const ty_datum_t *b);
/* Hash consistent with ty_datum_compare == 0 (1.0 and 1.00 hash alike); NULL hashes to 0. */
uint64_t ty_datum_hash(ty_oid_t type, const ty_datum_t *d);
/* Deep copy into another arena (strings and numerics are arena-owned). */
ty_datum_t ty_datum_copy(ty_oid_t type, const ty_datum_t *d, cm_arena_t *a);
/* Numeric helpers that other modules need. */
bool ty_numeric_from_text(const char *p, size_t len, ty_ctx_t *ctx, ty_numeric_t **out);
bool ty_numeric_to_int64(const ty_numeric_t *n, int64_t *out);

/* ---------------------------------------------------------------- arrays */

/* The array of a datum of an array type. */
static inline const ty_array_t *ty_array_get(const ty_datum_t *d) { return d->v.arr; }
/* Builds a one-dimensional array (lower bound 1) of n items copied from items;
 * n 0 gives the empty array. */
ty_datum_t ty_array_make(cm_arena_t *a, ty_oid_t elem, const ty_datum_t *items, int n);
/*
 * scalar op ANY (array) when all is false, op ALL when true, with SQL's
 * three-valued result: op is called as op(lhs, element) for each element
 * (strict: a NULL gives NULL without a call).
 */
bool ty_array_any(ty_ctx_t *ctx, const ty_func_t *op, const ty_datum_t *lhs, const ty_datum_t *array, bool all,
                  ty_datum_t *out);

#endif
