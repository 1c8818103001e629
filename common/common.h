/*
 * common.h: the public header of the common module (prefix cm_).
 *
 * Everything every other module leans on: per-statement arenas, growable byte
 * buffers, the user-visible error record with its SQLSTATE, logging and a few
 * helpers. Only libc is used here, so every module (and every fuzzer) may link it.
 */
#ifndef EDDY_COMMON_H
#define EDDY_COMMON_H

#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define EDDY_VERSION "0.1.0"

/* Programmer errors abort with a location; operating errors are cm_err_t. */
#define CM_ASSERT(cond)                                                        \
    do {                                                                       \
        if (!(cond))                                                           \
            cm_panic(__FILE__, __LINE__, "assertion failed: %s", #cond);      \
    } while (0)
#define CM_ARRAY_LEN(a) (sizeof(a) / sizeof((a)[0]))

void cm_panic(const char *file, int line, const char *fmt, ...)
    __attribute__((noreturn, format(printf, 3, 4)));

/* Allocation that cannot fail quietly: out of memory aborts the process. */
void *cm_malloc(size_t size);
void *cm_calloc(size_t n, size_t size);
void *cm_realloc(void *p, size_t size);
char *cm_strdup(const char *s);
char *cm_strndup(const char *s, size_t n);
/* Gives memory freed inside the allocator back to the kernel when more than keep bytes are free. */
void cm_alloc_release_free(size_t keep);

/* ---------------------------------------------------------------- arenas */

/*
 * A region allocator: many small allocations, one free. A statement's AST,
 * plan scratch and evaluated values live in one arena that is reset after
 * the statement, so no per-node free is ever needed.
 */
typedef struct cm_arena_block cm_arena_block_t;
typedef struct cm_arena {
    cm_arena_block_t *head;   /* block currently being carved */
    size_t block_size;        /* size of the next ordinary block */
    size_t bytes_total;       /* bytes obtained from malloc, for accounting */
} cm_arena_t;

void cm_arena_init(cm_arena_t *a, size_t block_size);
void *cm_arena_alloc(cm_arena_t *a, size_t size);      /* 16-byte aligned, not zeroed */
void *cm_arena_zalloc(cm_arena_t *a, size_t size);     /* zeroed */
char *cm_arena_strdup(cm_arena_t *a, const char *s);
char *cm_arena_strndup(cm_arena_t *a, const char *s, size_t n);
char *cm_arena_printf(cm_arena_t *a, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Frees every block but the first, which is kept for reuse. */
void cm_arena_reset(cm_arena_t *a);
void cm_arena_free(cm_arena_t *a);

/* --------------------------------------------------------------- buffers */

/*
 * A growable byte buffer with a sticky failure flag: once a put would exceed
 * `max`, the buffer stops growing and `failed` stays set, so a builder can
 * check once at the end instead of after every put.
 */
typedef struct cm_buf {
    uint8_t *data;
    size_t len;
    size_t cap;
    size_t max;    /* 0 = unlimited */
    bool failed;
} cm_buf_t;

void cm_buf_init(cm_buf_t *b, size_t max);
void cm_buf_free(cm_buf_t *b);
void cm_buf_reset(cm_buf_t *b);                 /* len = 0, failed = false, memory kept */
bool cm_buf_reserve(cm_buf_t *b, size_t extra); /* false (and failed) if over max */
void cm_buf_put(cm_buf_t *b, const void *p, size_t n);
void cm_buf_put_u8(cm_buf_t *b, uint8_t v);
void cm_buf_put_be16(cm_buf_t *b, uint16_t v);
void cm_buf_put_be32(cm_buf_t *b, uint32_t v);
void cm_buf_put_be64(cm_buf_t *b, uint64_t v);
void cm_buf_put_str(cm_buf_t *b, const char *s);   /* without the NUL */
void cm_buf_put_cstr(cm_buf_t *b, const char *s);  /* with the NUL */
void cm_buf_printf(cm_buf_t *b, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cm_buf_vprintf(cm_buf_t *b, const char *fmt, va_list ap);
void cm_buf_set_be32(cm_buf_t *b, size_t at, uint32_t v);  /* patch a length word */
/* Drops the first n bytes (consumed input), moving the rest to the front. */
void cm_buf_consume(cm_buf_t *b, size_t n);
/* Gives memory back when a buffer that grew large is empty again. */
void cm_buf_shrink(cm_buf_t *b, size_t keep);

/* ---------------------------------------------------------------- errors */

typedef enum cm_severity {
    CM_SEV_ERROR = 0,   /* zero so a zeroed record is an ERROR */
    CM_SEV_FATAL,
    CM_SEV_PANIC,
    CM_SEV_WARNING,
    CM_SEV_NOTICE,
    CM_SEV_DEBUG,
    CM_SEV_INFO,
    CM_SEV_LOG,
} cm_severity_t;

/*
 * The user-visible error record (DESIGN §10.9): what an ErrorResponse or a
 * NoticeResponse carries. `position` is a 1-based character (not byte)
 * position into the statement text, 0 when there is none. Strings are owned
 * by the record (cm_err_clear frees them).
 */
typedef struct cm_err {
    bool set;
    cm_severity_t severity;
    char sqlstate[6];
    char *message;
    char *detail;
    char *hint;
    char *context;      /* where it happened (ErrorResponse's W field), e.g. "COPY t, line 3" */
    int position;
} cm_err_t;

/* Sets err (if not yet set: the first error wins) and returns false. */
bool cm_err_set(cm_err_t *err, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 3, 4)));
bool cm_err_vset(cm_err_t *err, const char *sqlstate, const char *fmt, va_list ap);
void cm_err_set_detail(cm_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cm_err_set_hint(cm_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cm_err_set_context(cm_err_t *err, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
void cm_err_clear(cm_err_t *err);
void cm_err_move(cm_err_t *dst, cm_err_t *src);   /* dst takes src's strings; src is cleared */
const char *cm_severity_name(cm_severity_t s);

/* The SQLSTATEs used across modules, named as PostgreSQL's errcodes.txt does. */
#define CM_ERRCODE_SUCCESSFUL_COMPLETION "00000"
#define CM_ERRCODE_WARNING "01000"
#define CM_ERRCODE_CONNECTION_FAILURE "08006"
#define CM_ERRCODE_PROTOCOL_VIOLATION "08P01"
#define CM_ERRCODE_FEATURE_NOT_SUPPORTED "0A000"
#define CM_ERRCODE_CARDINALITY_VIOLATION "21000"
#define CM_ERRCODE_DATA_EXCEPTION "22000"
#define CM_ERRCODE_STRING_DATA_RIGHT_TRUNCATION "22001"
#define CM_ERRCODE_NUMERIC_VALUE_OUT_OF_RANGE "22003"
#define CM_ERRCODE_INVALID_DATETIME_FORMAT "22007"
#define CM_ERRCODE_DATETIME_FIELD_OVERFLOW "22008"
#define CM_ERRCODE_INVALID_TIME_ZONE_DISPLACEMENT_VALUE "22009"
#define CM_ERRCODE_INVALID_PARAMETER_VALUE "22023"
#define CM_ERRCODE_DIVISION_BY_ZERO "22012"
#define CM_ERRCODE_INVALID_ARGUMENT_FOR_POWER_FUNCTION "2201F"
#define CM_ERRCODE_INVALID_ARGUMENT_FOR_LOG "2201E"
#define CM_ERRCODE_INVALID_ESCAPE_SEQUENCE "22025"
#define CM_ERRCODE_INVALID_TEXT_REPRESENTATION "22P02"
#define CM_ERRCODE_INVALID_BINARY_REPRESENTATION "22P03"
#define CM_ERRCODE_UNTRANSLATABLE_CHARACTER "22P05"
#define CM_ERRCODE_CHARACTER_NOT_IN_REPERTOIRE "22021"
#define CM_ERRCODE_NULL_VALUE_NOT_ALLOWED "22004"
#define CM_ERRCODE_INVALID_REGULAR_EXPRESSION "2201B"
#define CM_ERRCODE_INVALID_TRANSACTION_STATE "25000"
#define CM_ERRCODE_ACTIVE_SQL_TRANSACTION "25001"
#define CM_ERRCODE_NO_ACTIVE_SQL_TRANSACTION "25P01"
#define CM_ERRCODE_IN_FAILED_SQL_TRANSACTION "25P02"
#define CM_ERRCODE_INVALID_SQL_STATEMENT_NAME "26000"
#define CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION "28000"
#define CM_ERRCODE_INVALID_PASSWORD "28P01"
#define CM_ERRCODE_INVALID_CURSOR_NAME "34000"
#define CM_ERRCODE_INVALID_CATALOG_NAME "3D000"
#define CM_ERRCODE_SYNTAX_ERROR "42601"
#define CM_ERRCODE_UNDEFINED_COLUMN "42703"
#define CM_ERRCODE_UNDEFINED_FUNCTION "42883"
#define CM_ERRCODE_UNDEFINED_TABLE "42P01"
#define CM_ERRCODE_UNDEFINED_PARAMETER "42P02"
#define CM_ERRCODE_UNDEFINED_OBJECT "42704"
#define CM_ERRCODE_DATATYPE_MISMATCH "42804"
#define CM_ERRCODE_CANNOT_COERCE "42846"
#define CM_ERRCODE_AMBIGUOUS_FUNCTION "42725"
#define CM_ERRCODE_AMBIGUOUS_COLUMN "42702"
#define CM_ERRCODE_INDETERMINATE_DATATYPE "42P18"
#define CM_ERRCODE_GROUPING_ERROR "42803"
#define CM_ERRCODE_DUPLICATE_PREPARED_STATEMENT "42P05"
#define CM_ERRCODE_DUPLICATE_CURSOR "42P03"
#define CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED "54000"
#define CM_ERRCODE_STATEMENT_TOO_COMPLEX "54001"
#define CM_ERRCODE_TOO_MANY_CONNECTIONS "53300"
#define CM_ERRCODE_OUT_OF_MEMORY "53200"
#define CM_ERRCODE_QUERY_CANCELED "57014"
#define CM_ERRCODE_ADMIN_SHUTDOWN "57P01"
#define CM_ERRCODE_INTERNAL_ERROR "XX000"

/* --------------------------------------------------------------- logging */

typedef enum cm_log_level {
    CM_LOG_ERROR = 0,
    CM_LOG_WARN,
    CM_LOG_INFO,
    CM_LOG_DEBUG,
} cm_log_level_t;

/* A line per event: ts=... level=... msg="..." then key=value fields, or the same as one JSON object. */
typedef enum cm_log_format {
    CM_LOG_TEXT = 0,
    CM_LOG_JSON,
} cm_log_format_t;

extern cm_log_level_t cm_log_level;
extern cm_log_format_t cm_log_format;
bool cm_log_level_parse(const char *name, cm_log_level_t *out);
bool cm_log_format_parse(const char *name, cm_log_format_t *out);
void cm_log(cm_log_level_t level, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* One event with fields: kv holds nkv (key, value) pairs of strings. */
void cm_log_fields(cm_log_level_t level, const char *msg, const char *const *kv, size_t nkv);
#define cm_log_error(...) cm_log(CM_LOG_ERROR, __VA_ARGS__)
#define cm_log_warn(...) cm_log(CM_LOG_WARN, __VA_ARGS__)
#define cm_log_info(...) do { if (cm_log_level >= CM_LOG_INFO) cm_log(CM_LOG_INFO, __VA_ARGS__); } while (0)
#define cm_log_debug(...) do { if (cm_log_level >= CM_LOG_DEBUG) cm_log(CM_LOG_DEBUG, __VA_ARGS__); } while (0)

/* ---------------------------------------------------------------- strings */

/* ASCII-only case folding, as PostgreSQL folds unquoted identifiers and keywords. */
int cm_strcasecmp(const char *a, const char *b);
int cm_strncasecmp(const char *a, const char *b, size_t n);
void cm_str_lower(char *s);
/* Number of UTF-8 characters in the first `bytes` bytes of s (continuation bytes not counted). */
int cm_utf8_chars(const char *s, size_t bytes);
/* True if s[0..len) is valid UTF-8 (no overlongs, no surrogates, no NUL). */
bool cm_utf8_valid(const char *s, size_t len);
/*
 * Checks s[0..len) as PostgreSQL checks client text: on the first invalid
 * sequence sets 22021 `invalid byte sequence for encoding "UTF8": 0xe2 0x28`
 * (as many bytes as the lead byte announces) and returns false.
 */
bool cm_utf8_check(const char *s, size_t len, cm_err_t *err);

/* Monotonic clock and wall clock in microseconds. */
int64_t cm_now_mono_us(void);
int64_t cm_now_wall_us(void);   /* since the Unix epoch */

#endif
