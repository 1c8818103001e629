/*
 * srv_exec_int.h: what the files of statement execution (srv_exec.c and
 * srv_exec_*.c) share and nothing else in the server needs: a statement to
 * run and how running it ended, the row sink, and the functions one of these
 * files calls in another.
 */
#ifndef EDDY_SRV_EXEC_INT_H
#define EDDY_SRV_EXEC_INT_H

#include "server/srv_int.h"

typedef enum srv_run_rc {
    SRV_RUN_OK,
    SRV_RUN_ERROR,   /* err is set */
    SRV_RUN_BUSY,    /* went to the thread pool or the catalog store; its completion continues */
} srv_run_rc_t;

/* One bound statement to run. */
typedef struct srv_run {
    const pln_stmt_t *st;
    const char *sql;
    const ty_datum_t *params;
    srv_portal_t *portal;     /* extended protocol; NULL for a simple Query */
    int raw_off;              /* byte offset of the statement in sql (a Query's string may hold several) */
    const srv_cols_t *cols;   /* extended: the statement's; NULL: built here */
    int32_t max_rows;
} srv_run_t;

/* srv_exec_txn.c: transactions. */
/* The first statement of a transaction starts it (its timestamp). */
void srv__xact_touch(srv_conn_t *c);
/* COMMIT (commit) or ROLLBACK: SETs kept or undone, portals dropped, status 'I'. */
void srv__xact_end(srv_conn_t *c, bool commit);
/* Whether DDL now runs inside the implicit transaction of a query string or a Sync group. */
bool srv__implicit_block(const srv_conn_t *c);
/* End of a Query or of a Sync group: the implicit transaction, if any, ends. */
void srv__implicit_end(srv_conn_t *c);
/* ParameterStatus for changed settings, then ReadyForQuery. */
void srv__ready(srv_conn_t *c);
/* Sends err (and clears it); an explicit block is aborted, the implicit one fails. */
void srv__fail(srv_conn_t *c, cm_err_t *err);
/* srv__fail, then discard messages until Sync. */
void srv__fail_extended(srv_conn_t *c, cm_err_t *err);
/* COMMIT or ROLLBACK: what an aborted transaction still runs. */
bool srv__is_exit_stmt(const pln_stmt_t *st);
/* Sets 25P02 and returns false. */
bool srv__aborted(cm_err_t *err);
/* A transaction's DDL (NULL: none, OK) as one catalog commit; takes ddl. BUSY: done answers. */
srv_run_rc_t srv__commit_ddl(srv_conn_t *c, srv_txn_t *ddl, srv_ddl_done_cb done, cm_err_t *err);
/* The implicit transaction's DDL commits; true while that is out (ReadyForQuery waits). */
bool srv__implicit_commit(srv_conn_t *c);

/* srv_exec_rows.c: result rows. */
typedef struct srv_sink {
    cm_buf_t *out;          /* rows up to the limit */
    cm_buf_t *spill;        /* rows beyond it (a portal's) */
    int32_t limit;          /* 0: none */
    uint64_t n;
    const ty_oid_t *types;
    const int16_t *formats; /* per column; NULL: all text */
    ty_ctx_t *ctx;
    srv_conn_t *c;          /* set when running on the loop: flush early */
    size_t max;             /* unsent bytes one statement may leave behind */
    const plan_copy_t *copy;   /* COPY TO: each row is a CopyData line in this format (srv_copy_out.c) */
} srv_sink_t;
/* srv_subscribe.c: SUBSCRIBE streams its view's changes until an error or a cancel ends it. */
typedef struct srv_subscribe srv_subscribe_t;
srv_run_rc_t srv_subscribe_run(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err);
/* srv_cursor.c: DECLARE ... CURSOR FOR SUBSCRIBE, FETCH (BUSY while it waits for a row), CLOSE. */
srv_run_rc_t srv_cursor_declare(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err);
srv_run_rc_t srv_cursor_fetch(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err);
bool srv_cursor_close(srv_conn_t *c, const pln_stmt_t *st, cm_err_t *err);
/* srv_copy_out.c: COPY TO's CopyOutResponse (and header line), a row as CopyData, CopyDone. */
void srv_copy_out_begin(cm_buf_t *out, const pln_stmt_t *st);
bool srv_copy_out_row(srv_sink_t *k, cm_buf_t *b, const ty_datum_t *row, int ncols);
void srv_copy_out_end(cm_buf_t *out);
/* A row callback (arg: an srv_sink_t) for ex_run and the SHOW rows. */
bool srv__row_cb(void *arg, const ty_datum_t *row, int ncols);
/* The tag of a row-returning statement when it is not "SELECT n" (NULL: SELECT n). */
const char *srv__rows_tag(const pln_stmt_t *st);
/* CommandComplete with this tag, counted by kind for the metrics (srv_metrics.h). */
void srv__complete(srv_conn_t *c, const char *tag);
/* PortalSuspended at the row limit, else CommandComplete with fixed or "SELECT n". */
void srv__complete_rows(srv_conn_t *c, srv_portal_t *portal, int32_t max_rows, uint64_t emitted,
                        const char *fixed);
/* A portal that ran before answers from its kept rows (true), else false. */
bool srv__portal_resume(srv_conn_t *c, srv_portal_t *p, int32_t max_rows);

/* srv_exec_run.c: running one statement. */
/* The evaluation context of a statement of this connection. */
void srv__ctx_init(srv_conn_t *c, ty_ctx_t *ctx, cm_arena_t *a, cm_err_t *err);
/* Runs r (describe: a simple Query's RowDescription goes first). */
srv_run_rc_t srv__run(srv_conn_t *c, const srv_run_t *r, bool describe, cm_err_t *err);
/* A transaction's writes (tx, taken) commit off the loop; done answers with tag or the error. */
srv_run_rc_t srv__run_commit(srv_conn_t *c, srv_wtxn_t *tx, srv_ddl_done_cb done, const char *tag, cm_err_t *err);
/* A COPY FROM STDIN's end runs off the loop (srv_copy_in_run), then srv__stmt_done answers. */
srv_run_rc_t srv__run_copy(srv_conn_t *c, struct srv_copy_in *cp, cm_err_t *err);
/* The INSERT that copies a CREATE TABLE AS's rows (ins) runs off the loop; done answers "SELECT n" or the error. */
srv_run_rc_t srv__run_ctas_copy(srv_conn_t *c, const pln_stmt_t *ins, const char *sql, srv_ddl_done_cb done,
                                cm_err_t *err);
/* r on the thread pool; rep: the workers' answer to its read already, rest what runs over it
 * (NULL: the whole statement runs there). */
srv_run_rc_t srv__run_answered(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, df_reply_t *rep,
                               const plan_t *rest, cm_err_t *err);
/* The end of a statement that was BUSY, on the loop, its rows in c->out: its tag (NULL: "SELECT
 * n") or err, then the Query goes on. */
void srv__busy_end(srv_conn_t *c, bool ok, const ty_ctx_t *ctx, cm_err_t *err, srv_portal_t *portal, int32_t max_rows,
                   uint64_t nrows, const char *tag);
/* srv_exec_ask.c: a read of tables, or an INSERT of VALUES outside a transaction
 * (srv__insert_on_loop), sent to the workers from the loop and answered there. */
srv_run_rc_t srv__run_read_ask(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err);
bool srv__insert_on_loop(const srv_conn_t *c, const pln_stmt_t *st);
srv_run_rc_t srv__run_insert_ask(srv_conn_t *c, const srv_run_t *r, const srv_cols_t *cols, cm_err_t *err);
/* A statement that went busy is answered: its tag (err NULL) or its error, then the Query goes on. */
void srv__stmt_done(srv_conn_t *c, cm_err_t *err, const char *tag);
/* A name missing from the catalog, which cluster mode looks for again at the store's head. */
bool srv__name_missing(const cm_err_t *err);

/* srv_ctas.c: CREATE TABLE AS / SELECT INTO with rows, outside a transaction block (nothing held yet). */
bool srv_ctas_applies(const srv_conn_t *c, const pln_stmt_t *st);
srv_run_rc_t srv_ctas_run(srv_conn_t *c, const pln_stmt_t *st, const char *sql, cm_err_t *err);

/* srv_exec_simple.c: the simple query protocol. */
void srv__exec_query(srv_conn_t *c, const srv_frame_t *f);
/* The query string goes on after a statement that was busy. */
void srv__query_continue(srv_conn_t *c);

/* srv_exec_extended.c: the extended query protocol. */
void srv__exec_parse(srv_conn_t *c, const srv_frame_t *f);
void srv__exec_bind(srv_conn_t *c, const srv_frame_t *f);
void srv__exec_describe(srv_conn_t *c, const srv_frame_t *f);
void srv__exec_execute(srv_conn_t *c, const srv_frame_t *f);
void srv__exec_close(srv_conn_t *c, const srv_frame_t *f);

#endif
