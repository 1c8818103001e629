/*
 * slt.h: the sqllogictest runner's shared types. A script is read whole into
 * records (slt_script.c), each record runs against one server connection
 * (slt_conn.c, which also starts and restarts an owned eddy), query results
 * are formatted, sorted and hashed as SQLite's reference runner does
 * (slt_value.c), and slt_main.c ties them together per file and reports.
 */
#ifndef SLT_H
#define SLT_H

#include <stdbool.h>
#include <stddef.h>
#include <sys/types.h>

/* ---- records (slt_script.c) ---- */

typedef enum {
    SLT_REC_STATEMENT,    /* statement ok | error */
    SLT_REC_QUERY,        /* query <types> [sort] [label] */
    SLT_REC_THRESHOLD,    /* hash-threshold N */
    SLT_REC_HALT,         /* halt: the rest of the file is not run */
    SLT_REC_UNKNOWN,      /* a record the format does not define: fails and stops the file */
} slt_rec_kind_t;

typedef enum { SLT_SORT_NONE, SLT_SORT_ROW, SLT_SORT_VALUE } slt_sort_t;

typedef struct {
    slt_rec_kind_t kind;
    int line;             /* line of the record's first line (its first condition, if any) */
    bool skip;            /* a skipif / onlyif condition excludes the engine */
    bool expect_error;    /* statement error */
    bool bad_header;      /* an unknown statement mode, type letter or sort mode */
    char *sql;            /* the SQL text, lines joined with '\n' */
    char *types;          /* query: one of I T R per column */
    slt_sort_t sort;
    char label[24];       /* query: label, at most 20 characters as the reference keeps */
    int threshold;        /* hash-threshold */
    /* Expected results: either a list of values or a hash line. */
    bool has_expect;      /* there was a ---- line */
    bool expect_hashed;   /* "N values hashing to H" */
    int expect_n;         /* value count (hashed or listed) */
    char expect_md5[33];
    char **expect_vals;   /* listed values (NULL when hashed) */
} slt_rec_t;

typedef struct {
    char *text;           /* the whole file; records point into it */
    slt_rec_t *recs;
    int nrecs;
} slt_script_t;

/* Reads PATH; false with a message in ERR on I/O failure. ENGINE names the
 * engine skipif/onlyif compare with (case-insensitively). */
bool slt_script_read(const char *path, const char *engine, slt_script_t *out, char *err, size_t errlen);
void slt_script_free(slt_script_t *s);

/* ---- values (slt_value.c) ---- */

typedef struct {
    char **vals;          /* formatted values, row-major */
    int n;
    int cap;
} slt_vals_t;

void slt_vals_push(slt_vals_t *v, const char *s);
void slt_vals_clear(slt_vals_t *v);
/* Formats one result value for type letter TYPE (I, T or R); ISNULL gives
 * "NULL"; IS_BOOL says the column is boolean ('t'/'f' in text). */
char *slt_value_format(char type, const char *text, bool isnull, bool is_bool);
void slt_vals_sort(slt_vals_t *v, slt_sort_t sort, int ncols);
/* MD5 over every value followed by "\n", as lowercase hex into OUT[33]. */
void slt_vals_md5(char *const *vals, int n, char out[33]);

/* ---- the server and its connection (slt_conn.c) ---- */

typedef enum {
    SLT_EXEC_OK,          /* the statement completed */
    SLT_EXEC_ERROR,       /* the server answered an error (sqlstate, message set) */
    SLT_EXEC_LOST,        /* the connection broke: the server crashed or closed it */
    SLT_EXEC_HANG,        /* no answer within the statement timeout plus its grace */
} slt_exec_status_t;

typedef struct {
    slt_exec_status_t status;
    char sqlstate[6];
    char message[512];
    int nfields;
    int ntuples;
    struct pg_result *res; /* the last result with rows (PGresult), owned */
} slt_exec_t;

typedef struct {
    /* An owned server: started from eddy_bin with eddy_args on a free port. */
    const char *eddy_bin;
    char **eddy_args;
    int neddy_args;
    const char *server_log;
    pid_t pid;
    int port;
    /* Or a given one. */
    const char *dsn;
    const char *user;
    const char *dbname;
    int stmt_timeout_ms;  /* also sent as statement_timeout */
    int grace_ms;         /* how long past it a silent server counts as hung */
    struct pg_conn *conn;
    char last_exit[128];  /* how the owned server ended, for reports */
} slt_server_t;

bool slt_server_start(slt_server_t *s, char *err, size_t errlen);
/* Stops an owned server (SIGTERM, then SIGKILL after a while). */
void slt_server_stop(slt_server_t *s);
/* Kills an owned server at once (SIGKILL): one that hangs, or is stopped,
 * would not act on SIGTERM. */
void slt_server_kill(slt_server_t *s);
/* True while the owned server process lives (always true for a given one). */
bool slt_server_alive(slt_server_t *s);
bool slt_conn_open(slt_server_t *s, char *err, size_t errlen);
void slt_conn_close(slt_server_t *s);
/* Runs SQL (simple protocol) within the statement timeout. */
void slt_conn_exec(slt_server_t *s, const char *sql, slt_exec_t *out);
void slt_exec_clear(slt_exec_t *e);

#endif
