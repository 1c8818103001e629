/*
 * srv_tls_conn.c: TLS on a connection: srv_tls.c's session wired to the
 * connection's input, output and close. Kept apart from srv_tls.c so that
 * the session and context link without the rest of the server (the fuzz
 * target of the TLS startup path builds on srv_tls.c alone).
 */
#include "server/srv_tls.h"

bool srv_tls_begin(srv_conn_t *c, bool direct)
{
    srv_tls_t *x = srv_tls_session_new(c->lp->srv->tls, direct);
    if (x == NULL)
        return false;
    /* The one-byte answer to SSLRequest is the last clear byte. */
    cm_buf_put(srv_tls_session_out(x), c->out.data, c->out.len);
    c->out.len = 0;
    c->tls = x;
    return true;
}

void srv_tls_free(srv_conn_t *c)
{
    srv_tls_stat_remove(c);
    srv_tls_session_free(c->tls);
    c->tls = NULL;
}

cm_buf_t *srv_tls_pending(srv_conn_t *c)
{
    return srv_tls_session_out(c->tls);
}

static bool srv__conn_plain(void *arg, const uint8_t *p, size_t n)
{
    srv_conn_t *c = arg;
    srv_conn_input(c, p, n);
    return c->state < SRV_CONN_CLOSING;
}

void srv_tls_input(srv_conn_t *c, const uint8_t *p, size_t n)
{
    switch (srv_tls_session_feed(c->tls, p, n, srv__conn_plain, c)) {
    case SRV_TLS_MORE:
        return;
    case SRV_TLS_CLOSED:
        srv_conn_close(c);
        return;
    case SRV_TLS_FAILED:
        c->out.len = 0;
        srv_conn_close_after_write(c);
        return;
    }
}

bool srv_tls_encrypt(srv_conn_t *c)
{
    srv_tls_t *x = c->tls;
    if (!srv_tls_session_established(x) || c->out.len == 0)
        return true;
    bool ok = srv_tls_session_write(x, c->out.data, c->out.len);
    c->out.len = 0;
    return ok;
}
