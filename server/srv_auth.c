/*
 * srv_auth.c: authentication after the startup packet: trust, cleartext
 * password and SCRAM-SHA-256 (with channel binding, SCRAM-SHA-256-PLUS,
 * over TLS) against the catalog's roles' SCRAM verifiers (else the --users file's), a TLS client
 * certificate whose CN is the user name, plus the authentication timeout. A wrong password and an unknown user end
 * the same way (28P01), and SCRAM runs a mock exchange for unknown users so
 * the two cannot be told apart. With --auth-fail-delay-ms, an address whose
 * logins failed waits (a timer on the loop) before its authentication
 * begins (srv_auth_delay.c keeps the waits).
 */
#include "server/srv_int.h"
#include "server/srv_tls.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

typedef struct srv_auth_wait {
    uv_timer_t timer;
    srv_conn_t *c;            /* NULL once the connection closed */
} srv_auth_wait_t;

static void srv__auth_start(srv_conn_t *c);

static void srv__auth_failed(srv_conn_t *c)
{
    cm_log_info("password authentication failed for user \"%s\"", c->user);
    srv_auth_delay_failed(&c->lp->srv->cfg, c->peer);
    srv_conn_fatal(c, CM_ERRCODE_INVALID_PASSWORD, "password authentication failed for user \"%s\"", c->user);
}

/* Authentication succeeded: the address is no longer slowed; then the session starts. */
static void srv__auth_ok(srv_conn_t *c)
{
    if (c->lp->srv->cfg.auth_fail_delay_ms > 0)
        srv_auth_delay_succeeded(c->peer);
    srv_startup_finish(c);
}

static void srv__auth_wait_closed(uv_handle_t *h)
{
    free(h->data);
}

static void srv__auth_wait_done(srv_auth_wait_t *w)
{
    if (w->c != NULL)
        w->c->auth_wait = NULL;
    w->c = NULL;
    uv_timer_stop(&w->timer);
    uv_close((uv_handle_t *)&w->timer, srv__auth_wait_closed);
}

static void srv__auth_wait_cb(uv_timer_t *t)
{
    srv_auth_wait_t *w = t->data;
    srv_conn_t *c = w->c;
    srv__auth_wait_done(w);
    if (c == NULL || c->state != SRV_CONN_AUTH)
        return;
    srv__auth_start(c);
    srv_conn_resume(c);   /* whatever the client sent meanwhile, then the output */
}

void srv_auth_conn_closed(srv_conn_t *c)
{
    if (c->auth_wait != NULL)
        srv__auth_wait_done(c->auth_wait);
}

void srv_auth_begin(srv_conn_t *c)
{
    const srv_config_t *cfg = &c->lp->srv->cfg;
    int ms = cfg->auth_fail_delay_ms > 0 && cfg->auth != SRV_AUTH_TRUST ? srv_auth_delay_ms(c->peer) : 0;
    if (ms <= 0) {
        srv__auth_start(c);
        return;
    }
    srv_auth_wait_t *w = cm_calloc(1, sizeof *w);
    w->c = c;
    w->timer.data = w;
    uv_timer_init(&c->lp->uv, &w->timer);
    uv_update_time(&c->lp->uv);   /* the wait counts from now, not from this iteration's start */
    uv_timer_start(&w->timer, srv__auth_wait_cb, (uint64_t)ms, 0);
    c->auth_wait = w;
}

static void srv__auth_start(srv_conn_t *c)
{
    srv_server_t *srv = c->lp->srv;
    switch (srv->cfg.auth) {
    case SRV_AUTH_TRUST:
        srv_startup_finish(c);
        return;
    case SRV_AUTH_PASSWORD:
        c->auth_step = SRV_AUTH_STEP_PASSWORD;
        srv_put_authentication(&c->out, 3, NULL, 0);
        return;
    case SRV_AUTH_SCRAM: {
        srv_scram_secret_t secret, mock;
        c->scram = cm_malloc(sizeof *c->scram);
        if (srv_roles_secret(c, &secret)) {
            srv_scram_init(c->scram, &secret, false);
        } else {
            srv_scram_secret_mock(c->user, &mock);
            srv_scram_init(c->scram, &mock, true);
        }
        c->auth_step = SRV_AUTH_STEP_SASL_INITIAL;
        /* Over TLS the exchange can be bound to the server's certificate, which
         * libpq then does by default; PostgreSQL lists -PLUS first. */
        c->scram->cbind_len = srv_tls_endpoint_hash(c, c->scram->cbind);
        static const char *const mechs[] = {"SCRAM-SHA-256-PLUS", "SCRAM-SHA-256"};
        if (c->scram->cbind_len > 0)
            srv_put_authentication_sasl_mechs(&c->out, mechs, 2);
        else
            srv_put_authentication_sasl(&c->out, "SCRAM-SHA-256");
        return;
    }
    case SRV_AUTH_CERT: {
        /* The startup packet checked that the connection is TLS. */
        srv_tls_info_t ti;
        srv_tls_info(c, &ti);
        if (ti.client_dn[0] == 0 || !ti.client_verified) {
            srv_conn_fatal(c, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                           "connection requires a valid client certificate");
            return;
        }
        if (ti.client_cn[0] == 0 || strcmp(ti.client_cn, c->user) != 0) {
            cm_log_info("provided user name (%s) and authenticated user name (%s) do not match", c->user,
                        ti.client_cn);
            srv_auth_delay_failed(&c->lp->srv->cfg, c->peer);
            srv_conn_fatal(c, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                           "certificate authentication failed for user \"%s\"", c->user);
            return;
        }
        srv__auth_ok(c);
        return;
    }
    default:
        cm_panic(__FILE__, __LINE__, "unknown auth method %d", (int)srv->cfg.auth);
    }
}

static void srv__auth_sasl(srv_conn_t *c, const srv_frame_t *f)
{
    cm_err_t err = {0};
    cm_buf_t reply;
    cm_buf_init(&reply, 0);
    if (c->auth_step == SRV_AUTH_STEP_SASL_INITIAL) {
        srv_msg_sasl_initial_t m;
        bool ok = srv_decode_sasl_initial(f->body, f->body_len, &m, &err);
        bool plus = ok && strcmp(m.mechanism, "SCRAM-SHA-256-PLUS") == 0 && c->scram->cbind_len > 0;
        c->scram->plus = plus;
        if (!ok) {
            srv_conn_fatal_err(c, &err);
        } else if (!plus && strcmp(m.mechanism, "SCRAM-SHA-256") != 0) {
            srv_conn_fatal(c, CM_ERRCODE_PROTOCOL_VIOLATION,
                           "client selected an invalid SASL authentication mechanism");
        } else if (!srv_scram_first(c->scram, m.data, m.data_len, &reply, &err)) {
            srv_conn_fatal_err(c, &err);
        } else {
            srv_put_authentication(&c->out, 11, reply.data, reply.len);
            c->auth_step = SRV_AUTH_STEP_SASL_FINAL;
        }
    } else {
        bool ok;
        if (!srv_scram_final(c->scram, f->body, f->body_len, &reply, &ok, &err)) {
            srv_conn_fatal_err(c, &err);
        } else if (!ok) {
            srv__auth_failed(c);
        } else {
            srv_put_authentication(&c->out, 12, reply.data, reply.len);
            srv__auth_ok(c);
        }
    }
    cm_buf_free(&reply);
}

void srv_auth_message(srv_conn_t *c, const srv_frame_t *f)
{
    cm_err_t err = {0};
    if (f->type != 'p') {
        if (f->type == 'X') {
            srv_conn_close(c);
            return;
        }
        srv_conn_fatal(c, CM_ERRCODE_PROTOCOL_VIOLATION, "expected password response, got message type %d",
                       f->type);
        return;
    }
    if (c->auth_step != SRV_AUTH_STEP_PASSWORD) {
        srv__auth_sasl(c, f);
        return;
    }
    const char *pw;
    if (!srv_decode_password(f->body, f->body_len, &pw, &err)) {
        srv_conn_fatal_err(c, &err);
        return;
    }
    if (pw[0] == 0) {
        srv_auth_delay_failed(&c->lp->srv->cfg, c->peer);
        srv_conn_fatal(c, CM_ERRCODE_INVALID_PASSWORD, "empty password returned by client");
        return;
    }
    srv_scram_secret_t secret;
    if (!srv_roles_secret(c, &secret) || !srv_scram_check_password(&secret, pw)) {
        srv__auth_failed(c);
        return;
    }
    srv__auth_ok(c);
}

void srv_auth_tick(srv_conn_t *c, int64_t now_us)
{
    if ((c->state == SRV_CONN_STARTUP || c->state == SRV_CONN_AUTH) && now_us > c->auth_deadline_us) {
        if (c->state == SRV_CONN_AUTH)
            srv_conn_fatal(c, "08006", "canceling authentication due to timeout");
        else
            srv_conn_close(c);
    }
}

int srv_hash_password(FILE *in, FILE *out)
{
    char line[1024];
    if (fgets(line, sizeof line, in) == NULL) {
        fprintf(stderr, "eddy: no password on standard input\n");
        return 1;
    }
    line[strcspn(line, "\r\n")] = 0;
    if (line[0] == 0) {
        fprintf(stderr, "eddy: empty password\n");
        return 1;
    }
    char *v = srv_scram_secret_build(line, SRV_SCRAM_ITERATIONS);
    if (v == NULL) {
        fprintf(stderr, "eddy: could not build a SCRAM verifier\n");
        return 1;
    }
    fprintf(out, "%s\n", v);
    free(v);
    return 0;
}
