/*
 * srv_conn.c: one client connection on a libuv loop: the state machine,
 * reading and framing, output buffering with back-pressure, and the close
 * sequence.
 *
 * Reads land in the loop's shared buffer; complete messages are handled
 * straight from it and only an incomplete tail is copied into the
 * connection, so an idle connection holds no input memory. All output of a
 * batch of messages is collected and written once (uv_try_write first, a
 * queued uv_write for what the socket did not take). While unsent output is
 * above the limit the connection stops reading, so a client that does not
 * read its results stops being served instead of being buffered for.
 */
#include "server/srv_int.h"
#include "server/srv_metrics.h"
#include "server/srv_tls.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

static void srv__conn_process(srv_conn_t *c);
static void srv__conn_read_start(srv_conn_t *c);

/* ------------------------------------------------------------ state */

void srv_conn_set_state(srv_conn_t *c, srv_conn_state_t to)
{
    srv_conn_state_t from = c->state;
    bool ok;
    switch (to) {
    case SRV_CONN_STARTUP:
        ok = false;   /* only the initial state */
        break;
    case SRV_CONN_AUTH:
        ok = from == SRV_CONN_STARTUP;
        break;
    case SRV_CONN_READY:
        ok = from == SRV_CONN_STARTUP || from == SRV_CONN_AUTH || from == SRV_CONN_BUSY;
        break;
    case SRV_CONN_BUSY:
        ok = from == SRV_CONN_READY;
        break;
    case SRV_CONN_CLOSING:
        ok = from != SRV_CONN_CLOSED;
        break;
    case SRV_CONN_CLOSED:
        ok = true;
        break;
    default:
        cm_panic(__FILE__, __LINE__, "unknown connection state %d", (int)to);
    }
    if (!ok)
        cm_panic(__FILE__, __LINE__, "bad connection state change %d -> %d", (int)from, (int)to);
    c->state = to;
}

/* ------------------------------------------------------------ accept */

static void srv__conn_alloc_cb(uv_handle_t *h, size_t suggested, uv_buf_t *buf)
{
    srv_conn_t *c = h->data;
    (void)suggested;
    buf->base = (char *)c->lp->rbuf;
    buf->len = sizeof c->lp->rbuf;
}

static void srv__conn_read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf);

void srv_conn_accept(srv_loop_t *lp, int fd)
{
    srv_conn_t *c = cm_calloc(1, sizeof *c);
    c->lp = lp;
    if (uv_tcp_init(&lp->uv, &c->tcp) != 0) {
        free(c);
        close(fd);
        return;
    }
    c->tcp.data = c;
    if (uv_tcp_open(&c->tcp, fd) != 0) {
        close(fd);
        c->state = SRV_CONN_CLOSED;
        uv_close((uv_handle_t *)&c->tcp, (uv_close_cb)free);
        return;
    }
    uv_tcp_nodelay(&c->tcp, 1);
    c->state = SRV_CONN_STARTUP;
    c->xact = 'I';
    cm_buf_init(&c->in, 0);
    cm_buf_init(&c->out, 0);
    cm_buf_init(&c->wbuf, 0);
    cm_arena_init(&c->arena, 4096);
    c->auth_deadline_us = cm_now_mono_us() + (int64_t)lp->srv->cfg.auth_timeout_ms * 1000;
    int n = atomic_fetch_add(&lp->srv->nconns, 1) + 1;
    srv_metrics_connection();
    c->counted = true;
    c->over_limit = n > lp->srv->cfg.max_connections;
    c->next = lp->conns;
    if (lp->conns != NULL)
        lp->conns->prev = c;
    lp->conns = c;
    srv_catalog_loop_quiet(lp);
    srv__conn_read_start(c);
}

/* ------------------------------------------------------------ reading */

static void srv__conn_read_start(srv_conn_t *c)
{
    if (c->reading || c->state >= SRV_CONN_CLOSING)
        return;
    if (uv_read_start((uv_stream_t *)&c->tcp, srv__conn_alloc_cb, srv__conn_read_cb) == 0)
        c->reading = true;
}

static void srv__conn_read_stop(srv_conn_t *c)
{
    if (!c->reading)
        return;
    uv_read_stop((uv_stream_t *)&c->tcp);
    c->reading = false;
}

/*
 * While its statement runs, a connection's next messages are read ahead into
 * its input, up to this much: stopping and starting the reads would cost two
 * system calls a statement. An end of input seen meanwhile is seen again
 * when reading starts after the statement.
 */
#define SRV_READ_AHEAD_BYTES ((size_t)64 << 10)

static bool srv__conn_reads_ahead(const srv_conn_t *c)
{
    return c->state == SRV_CONN_BUSY && !c->paused_output && c->auth_wait == NULL && c->in.len < SRV_READ_AHEAD_BYTES;
}

/* True while the connection may take another message from its input. */
static bool srv__conn_can_process(const srv_conn_t *c)
{
    if (c->paused_output || c->auth_wait != NULL)
        return false;
    return c->state == SRV_CONN_STARTUP || c->state == SRV_CONN_AUTH || c->state == SRV_CONN_READY;
}

/*
 * Handles every complete message in p[0..n); returns the bytes consumed.
 * Stops early when the connection becomes busy, paused or closing.
 */
static size_t srv__conn_consume_frames(srv_conn_t *c, const uint8_t *p, size_t n);

/* Statements run from here (after a read, or when a paused connection goes on): the loop is
 * marked busy meanwhile, so that the acceptor hands new connections to another (srv_loop_t). */
static size_t srv__conn_consume(srv_conn_t *c, const uint8_t *p, size_t n)
{
    srv_loop_t *lp = c->lp;
    int64_t outer = __atomic_load_n(&lp->busy_since_us, __ATOMIC_RELAXED);
    if (outer == 0)
        __atomic_store_n(&lp->busy_since_us, cm_now_mono_us(), __ATOMIC_RELAXED);
    size_t used = srv__conn_consume_frames(c, p, n);
    if (outer == 0)
        __atomic_store_n(&lp->busy_since_us, 0, __ATOMIC_RELAXED);
    return used;
}

/* A statement's clock starts at its Query, or at the first Parse, Bind or Execute after a Sync;
 * its text is the Query's or Parse's SQL, or the prepared statement a Bind names. */
static void srv__conn_stmt_begin(srv_conn_t *c, const srv_frame_t *f)
{
    c->stmt_start_us = cm_now_mono_us();
    if (c->lp->srv->cfg.log_slow_statements_ms < 0)
        return;   /* the clock is for the latency histogram only */
    const char *body = (const char *)f->body;
    size_t blen = f->body_len;
    const char *what = "";
    if (f->type == 'P' || f->type == 'B') {
        /* Parse: name, SQL. Bind: portal, statement name. */
        size_t skip = strnlen(body, blen);
        skip = skip < blen ? skip + 1 : blen;
        if (f->type == 'B')
            what = "(prepared statement) ";
        body += skip;
        blen -= skip;
    } else if (f->type == 'E') {
        what = "(portal) ";
    }
    size_t n = strnlen(body, blen);
    snprintf(c->stmt_text, sizeof c->stmt_text, "%s%.*s", what, (int)n, body);
}

void srv_conn_stmt_end(srv_conn_t *c)
{
    if (c->stmt_start_us == 0)
        return;
    int64_t us = cm_now_mono_us() - c->stmt_start_us;
    c->stmt_start_us = 0;
    srv_metrics_observe(SRV_HIST_QUERY, us);
    int limit = c->lp->srv->cfg.log_slow_statements_ms;
    if (limit < 0 || us < (int64_t)limit * 1000)
        return;
    char ms[32], pid[16];
    snprintf(ms, sizeof ms, "%.3f", (double)us / 1000.0);
    snprintf(pid, sizeof pid, "%d", (int)c->cancel.pid);
    const char *kv[] = {"duration_ms", ms, "conn", pid, "user", c->user != NULL ? c->user : "", "statement", c->stmt_text};
    cm_log_fields(CM_LOG_WARN, "slow statement", kv, CM_ARRAY_LEN(kv) / 2);
}

static size_t srv__conn_consume_frames(srv_conn_t *c, const uint8_t *p, size_t n)
{
    const srv_config_t *cfg = &c->lp->srv->cfg;
    size_t used = 0;
    while (srv__conn_can_process(c)) {
        srv_frame_t f;
        cm_err_t err = {0};
        srv_frame_rc_t rc;
        if (c->state == SRV_CONN_STARTUP)
            rc = srv_frame_startup(p + used, n - used, SRV_STARTUP_MAX, &f, &err);
        else if (c->state == SRV_CONN_AUTH)
            rc = srv_frame_next(p + used, n - used, cfg->auth_message_max_bytes, SRV_SMALL_MESSAGE_MAX, &f, &err);
        else
            rc = srv_frame_next(p + used, n - used, cfg->message_max_bytes, SRV_SMALL_MESSAGE_MAX, &f, &err);
        if (rc == SRV_FRAME_MORE)
            break;
        if (rc == SRV_FRAME_BAD) {
            /* A garbage startup length gets no answer, as in PostgreSQL. */
            if (c->state == SRV_CONN_STARTUP) {
                cm_log_debug("connection dropped: %s", err.message);
                cm_err_clear(&err);
                srv_conn_close(c);
            } else {
                err.severity = CM_SEV_FATAL;
                srv_conn_fatal_err(c, &err);
            }
            break;
        }
        /* A statement waits (the frame stays unread) until this loop's catalog
         * holds every DDL already acknowledged to any session, and the workers
         * applied it and the session's own DDL. */
        if (c->state == SRV_CONN_READY && (f.type == 'Q' || f.type == 'P') &&
            (srv_ddl_hold(c) || srv_sync_hold(c)))
            break;
        if (c->state == SRV_CONN_STARTUP) {
            srv_startup_packet(c, &f);
            if (c->tls_pending) {
                /* After 'S' every byte belongs to TLS: clear bytes already sent
                 * behind the SSLRequest would be injected into the session. */
                c->tls_pending = false;
                used += f.total;
                if (used < n)
                    srv_conn_fatal(c, CM_ERRCODE_PROTOCOL_VIOLATION, "received unencrypted data after SSL request");
                else if (!srv_tls_begin(c, false))
                    srv_conn_close(c);
                return used;
            }
        } else if (c->state == SRV_CONN_AUTH) {
            srv_auth_message(c, &f);
        } else {
            if (f.type == 'Q' || f.type == 'P') {
                /* The text a fatal signal logs: a Query's SQL, or a Parse's name and SQL. */
                const char *body = (const char *)f.body;
                size_t blen = f.type == 'Q' ? strnlen(body, f.body_len) : f.body_len;
                srv_crash_note(f.type == 'Q' ? "" : "(Parse) ", body, blen);
            }
            if (c->stmt_start_us == 0 &&
                (f.type == 'Q' || f.type == 'P' || f.type == 'B' || f.type == 'E'))
                srv__conn_stmt_begin(c, &f);
            srv_exec_message(c, &f);
            srv_crash_note_clear();
            if (c->frame_again) {
                /* A Parse waits for the catalog (srv_ddl_recheck): its
                 * frame stays unread and runs again once the wait ends. */
                c->frame_again = false;
                break;
            }
        }
        used += f.total;
        if (c->out.len >= SRV_FLUSH_BYTES)
            srv_conn_flush(c);
    }
    return used;
}

static void srv__conn_keep_tail(srv_conn_t *c, const uint8_t *p, size_t n)
{
    cm_buf_put(&c->in, p, n);
}

/* Plaintext from the socket, or decrypted by TLS: handled, and an incomplete tail kept. */
void srv_conn_input(srv_conn_t *c, const uint8_t *p, size_t n)
{
    if (c->state >= SRV_CONN_CLOSING)
        return;
    if (c->in.len == 0) {
        size_t used = srv__conn_consume(c, p, n);
        if (used < n && c->state < SRV_CONN_CLOSING)
            srv__conn_keep_tail(c, p + used, n - used);
    } else {
        cm_buf_put(&c->in, p, n);
        size_t used = srv__conn_consume(c, c->in.data, c->in.len);
        if (c->state < SRV_CONN_CLOSING)
            cm_buf_consume(&c->in, used);
    }
}

static void srv__conn_really_close(srv_conn_t *c);

/*
 * While a statement's command is with the workers (or answered on the loop's
 * next turn) what it wrote so far (BindComplete, RowDescription) waits for its
 * rows: one write and one wake-up of the client per cycle instead of two, as
 * PostgreSQL flushes at ReadyForQuery. A cycle already complete in the output,
 * or a full buffer, goes at once; the statement's end flushes the rest.
 */
static void srv__conn_flush_unless_asking(srv_conn_t *c)
{
    if (c->state == SRV_CONN_BUSY && c->ask != NULL && !c->out_ready && c->out.len < SRV_FLUSH_BYTES)
        return;
    srv_conn_flush(c);
}

static void srv__conn_read_cb(uv_stream_t *s, ssize_t nread, const uv_buf_t *buf)
{
    srv_conn_t *c = s->data;
    if (c->lingering) {
        /* What a client sends after its FATAL is dropped; its close ends the connection. */
        if (nread < 0)
            srv__conn_really_close(c);
        return;
    }
    if (nread < 0) {
        /* EOF during authentication is normal: psql reconnects after a prompt. A statement
         * running sees the end when it is over, but a SUBSCRIBE, or a FETCH waiting for its rows,
         * has nothing to finish: its subscription ends with the connection. */
        srv__conn_read_stop(c);
        if (c->state < SRV_CONN_CLOSING &&
            (c->state != SRV_CONN_BUSY || c->subscription != NULL || c->fetch != NULL))
            srv_conn_close(c);
        return;
    }
    if (nread == 0)
        return;
    const uint8_t *p = (const uint8_t *)buf->base;
    size_t n = (size_t)nread;
    /* A first byte 0x16 is a TLS ClientHello without SSLRequest (direct TLS). */
    if (c->tls == NULL && !c->any_input && p[0] == 0x16 && srv_tls_enabled(c->lp->srv) &&
        !srv_tls_begin(c, true)) {
        srv_conn_close(c);
        return;
    }
    c->any_input = true;
    if (c->tls != NULL)
        srv_tls_input(c, p, n);
    else
        srv_conn_input(c, p, n);
    if (c->state == SRV_CONN_CLOSED)
        return;
    if (c->in.len == 0)
        cm_buf_shrink(&c->in, SRV_BUF_KEEP);
    if (!srv__conn_can_process(c) && !srv__conn_reads_ahead(c))
        srv__conn_read_stop(c);
    srv__conn_flush_unless_asking(c);
}

/* Runs what is buffered (after a pause) and then reads again. */
static void srv__conn_process(srv_conn_t *c)
{
    if (c->in.len > 0) {
        size_t used = srv__conn_consume(c, c->in.data, c->in.len);
        if (c->state < SRV_CONN_CLOSING)
            cm_buf_consume(&c->in, used);
    }
    if (srv__conn_can_process(c))
        srv__conn_read_start(c);
    srv__conn_flush_unless_asking(c);
}

void srv_conn_resume(srv_conn_t *c)
{
    if (!srv_loop_conn_resumed(c))
        srv__conn_process(c);
}

/* ------------------------------------------------------------ writing */

static void srv__conn_really_close(srv_conn_t *c);

/*
 * While the server stops, a session's FATAL 57P01 often follows the answer to
 * its statement at once, and the client may already be sending the next one.
 * Closing a socket that holds unread input sends a reset, and a reset makes
 * the client's kernel drop what it had not read yet, the FATAL with it: the
 * client would see a connection cut instead of 57P01. So the server only
 * half-closes (the FATAL, then FIN) and reads on, dropping the input, until
 * the client closes; a client that never does is cut off when the shutdown
 * timeout has passed (srv_listen.c).
 */
static bool srv__conn_linger(srv_conn_t *c)
{
    uv_os_fd_t fd;
    if (uv_fileno((uv_handle_t *)&c->tcp, &fd) != 0 || shutdown(fd, SHUT_WR) != 0)
        return false;
    c->lingering = true;
    if (!c->reading && uv_read_start((uv_stream_t *)&c->tcp, srv__conn_alloc_cb, srv__conn_read_cb) == 0)
        c->reading = true;
    return c->reading;
}

static void srv__conn_write_cb(uv_write_t *req, int status)
{
    srv_conn_t *c = req->data;
    c->writing = false;
    c->wbuf.len = 0;
    cm_buf_shrink(&c->wbuf, SRV_BUF_KEEP);
    if (status < 0) {
        c->out.len = 0;
        if (c->state < SRV_CONN_CLOSED)
            srv__conn_really_close(c);
        return;
    }
    if (c->state == SRV_CONN_CLOSED)
        return;
    srv_conn_flush(c);
    if (c->paused_output && !c->writing) {
        c->paused_output = false;
        if (c->state == SRV_CONN_READY)
            srv__conn_process(c);
    }
}

void srv_conn_flush(srv_conn_t *c)
{
    if (c->state == SRV_CONN_CLOSED)
        return;
    c->out_ready = false;
    /* What goes to the socket: the output itself, or under TLS its ciphertext. */
    cm_buf_t *send = &c->out;
    if (c->tls != NULL) {
        if (!srv_tls_encrypt(c)) {
            srv__conn_really_close(c);
            return;
        }
        send = srv_tls_pending(c);
    }
    if (!c->writing && send->len > 0) {
        uv_buf_t b = uv_buf_init((char *)send->data, (unsigned)send->len);
        int n = uv_try_write((uv_stream_t *)&c->tcp, &b, 1);
        if (n == (int)send->len) {
            send->len = 0;
        } else if (n < 0 && n != UV_EAGAIN) {
            send->len = 0;
            srv__conn_really_close(c);
            return;
        } else {
            /* Hand the unsent rest to a queued write; keep building into the other buffer. */
            size_t sent = n > 0 ? (size_t)n : 0;
            cm_buf_t t = c->wbuf;
            c->wbuf = *send;
            *send = t;
            send->len = 0;
            cm_buf_consume(&c->wbuf, sent);
            c->wreq.data = c;
            b = uv_buf_init((char *)c->wbuf.data, (unsigned)c->wbuf.len);
            if (uv_write(&c->wreq, (uv_stream_t *)&c->tcp, &b, 1, srv__conn_write_cb) != 0) {
                c->wbuf.len = 0;
                srv__conn_really_close(c);
                return;
            }
            c->writing = true;
        }
    }
    if (c->out.len == 0)
        cm_buf_shrink(&c->out, SRV_BUF_KEEP);
    if (send != &c->out && send->len == 0)
        cm_buf_shrink(send, SRV_BUF_KEEP);
    size_t unsent = c->wbuf.len + c->out.len + (send != &c->out ? send->len : 0);
    if (c->writing && unsent > c->lp->srv->cfg.output_max_bytes && !c->paused_output) {
        c->paused_output = true;
        srv__conn_read_stop(c);
    }
    if (c->state == SRV_CONN_CLOSING && !c->writing && c->out.len == 0 && send->len == 0 && !c->lingering) {
        if (c->lp->stopping && c->tls == NULL && srv__conn_linger(c))
            return;
        srv__conn_really_close(c);
    }
}

/* ------------------------------------------------------------ errors */

void srv_conn_send_error(srv_conn_t *c, cm_err_t *err)
{
    bool error = err->severity == CM_SEV_ERROR || err->severity == CM_SEV_FATAL || err->severity == CM_SEV_PANIC;
    if (error)
        srv_metrics_error(err->sqlstate);
    srv_put_error(&c->out, error ? 'E' : 'N', err);
}

void srv_conn_send_notice(srv_conn_t *c, const char *sqlstate, cm_severity_t sev, const char *fmt, ...)
{
    cm_err_t e = {0};
    va_list ap;
    va_start(ap, fmt);
    cm_err_vset(&e, sqlstate, fmt, ap);
    va_end(ap);
    e.severity = sev;
    srv_put_error(&c->out, 'N', &e);
    cm_err_clear(&e);
}

void srv_conn_fatal_err(srv_conn_t *c, cm_err_t *err)
{
    if (c->state >= SRV_CONN_CLOSING) {
        cm_err_clear(err);
        return;
    }
    err->severity = CM_SEV_FATAL;
    srv_metrics_error(err->sqlstate);
    srv_put_error(&c->out, 'E', err);
    cm_err_clear(err);
    srv_conn_set_state(c, SRV_CONN_CLOSING);
    srv__conn_read_stop(c);
    srv_conn_flush(c);
}

void srv_conn_close_after_write(srv_conn_t *c)
{
    if (c->state >= SRV_CONN_CLOSING)
        return;
    srv_conn_set_state(c, SRV_CONN_CLOSING);
    srv__conn_read_stop(c);
    srv_conn_flush(c);
}

void srv_conn_fatal(srv_conn_t *c, const char *sqlstate, const char *fmt, ...)
{
    cm_err_t e = {0};
    va_list ap;
    va_start(ap, fmt);
    cm_err_vset(&e, sqlstate, fmt, ap);
    va_end(ap);
    srv_conn_fatal_err(c, &e);
}

/* ------------------------------------------------------------ closing */

void srv_conn_close(srv_conn_t *c)
{
    if (c->state >= SRV_CONN_CLOSING)
        return;
    srv_conn_set_state(c, SRV_CONN_CLOSING);
    c->out.len = 0;
    srv__conn_read_stop(c);
    if (!c->writing)
        srv__conn_really_close(c);
}

static void srv__conn_free(srv_conn_t *c)
{
    srv_exec_conn_free(c);
    if (c->scram != NULL) {
        srv_scram_free(c->scram);
        free(c->scram);
    }
    srv_tls_free(c);
    free(c->user);
    free(c->database_asked);
    cm_buf_free(&c->in);
    cm_buf_free(&c->out);
    cm_buf_free(&c->wbuf);
    cm_arena_free(&c->arena);
    free(c);
}

static void srv__conn_close_cb(uv_handle_t *h)
{
    srv_conn_t *c = h->data;
    c->handle_closed = true;
    /* A statement still running on the thread pool owns part of the
     * connection; the work's completion frees it instead. */
    if (c->work != NULL && c->work->inflight)
        return;
    srv__conn_free(c);
}

void srv_conn_free_orphan(srv_conn_t *c)
{
    srv__conn_free(c);
}

static void srv__conn_really_close(srv_conn_t *c)
{
    if (c->state == SRV_CONN_CLOSED)
        return;
    srv_conn_set_state(c, SRV_CONN_CLOSED);
    srv__conn_read_stop(c);
    srv_loop_t *lp = c->lp;
    if (c->prev != NULL)
        c->prev->next = c->next;
    else
        lp->conns = c->next;
    if (c->next != NULL)
        c->next->prev = c->prev;
    c->prev = c->next = NULL;
    if (c->counted)
        atomic_fetch_sub(&lp->srv->nconns, 1);
    c->counted = false;
    if (c->role_counted != 0)
        srv_role_conns_release(c->role_counted);
    c->role_counted = 0;
    srv_auth_conn_closed(c);
    if (c->cancel.pid != 0) {
        /* Stop the statement if one runs, then forget the key. */
        __atomic_store_n(&c->cancel.cancel, 1, __ATOMIC_RELEASE);
        srv_cancel_unregister(&c->cancel);
        c->cancel.pid = 0;
    }
    uv_close((uv_handle_t *)&c->tcp, srv__conn_close_cb);
    srv_loop_conn_gone(lp);
}

void srv_conn_abort(srv_conn_t *c)
{
    c->out.len = 0;
    srv__conn_really_close(c);
}
