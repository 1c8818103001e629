/*
 * srv_startup.c: the untyped first packets of a connection: SSLRequest
 * ('S' and TLS when it is configured, else 'N' and the next packet in
 * clear), GSSENCRequest ('N'), CancelRequest (no reply, then close), and
 * the StartupMessage whose parameters become session settings before
 * authentication starts (and the `options` parameter's `-c name=value` and
 * `--name=value` switches, as PostgreSQL reads them); --tls-mode require
 * refuses a startup in clear.
 */
#include "server/srv_int.h"
#include "server/srv_tls.h"

#include <netinet/in.h>
#include <openssl/rand.h>
#include <string.h>
#include <sys/socket.h>

/*
 * The startup parameter `options` (libpq's options=, PGOPTIONS): words
 * split at unescaped whitespace, a backslash keeping the next character, as
 * pg_split_opts does; `-c name=value`, `-cname=value` and `--name=value`
 * set parameters like startup parameters. Other switches (command-line
 * options of a PostgreSQL backend) mean nothing here and are ignored.
 */
static void srv__startup_options(srv_conn_t *c, const char *opts)
{
    char word[1024];
    bool want_c = false;
    const char *p = opts;
    for (;;) {
        while (*p == ' ' || *p == '\t' || *p == '\n' || *p == '\r')
            p++;
        if (*p == 0)
            break;
        size_t n = 0;
        while (*p != 0 && *p != ' ' && *p != '\t' && *p != '\n' && *p != '\r') {
            if (*p == '\\' && p[1] != 0)
                p++;
            if (n + 1 < sizeof word)
                word[n++] = *p;
            p++;
        }
        word[n] = 0;
        const char *setting = NULL;
        if (want_c) {
            setting = word;
            want_c = false;
        } else if (strcmp(word, "-c") == 0) {
            want_c = true;
        } else if (strncmp(word, "-c", 2) == 0) {
            setting = word + 2;
        } else if (strncmp(word, "--", 2) == 0) {
            setting = word + 2;
        }
        char *eq = setting != NULL ? strchr(setting, '=') : NULL;
        if (eq == NULL) {
            if (setting != NULL || (!want_c && word[0] != 0))
                cm_log_info("startup option \"%s\" ignored", word);
            continue;
        }
        *eq = 0;
        /* PostgreSQL's ParseLongOption: a '-' in the name is '_'. */
        for (char *q = (char *)setting; q < eq; q++)
            if (*q == '-')
                *q = '_';
        srv_session_set_startup(&c->sess, setting, eq + 1);
    }
}

/* The client's address as pg_hba messages show it. */
static void srv__peer_host(const srv_conn_t *c, char *out, size_t cap)
{
    struct sockaddr_storage ss;
    int len = sizeof ss;
    snprintf(out, cap, "[local]");
    if (uv_tcp_getpeername(&c->tcp, (struct sockaddr *)&ss, &len) != 0)
        return;
    if (ss.ss_family == AF_INET)
        uv_ip4_name((struct sockaddr_in *)&ss, out, cap);
    else if (ss.ss_family == AF_INET6)
        uv_ip6_name((struct sockaddr_in6 *)&ss, out, cap);
}

void srv_startup_packet(srv_conn_t *c, const srv_frame_t *f)
{
    srv_startup_t st;
    cm_err_t err = {0};
    if (!srv_decode_startup(f->body, f->body_len, &st, &err)) {
        srv_conn_fatal_err(c, &err);
        return;
    }
    switch (st.kind) {
    case SRV_STARTUP_SSL:
        if (c->tls != NULL) {
            /* One TLS layer only: PostgreSQL treats a second request as an unknown protocol. */
            srv_conn_fatal(c, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                           "unsupported frontend protocol 1234.5679: server supports 3.0 to 3.0");
            return;
        }
        if (srv_tls_enabled(c->lp->srv)) {
            cm_buf_put_u8(&c->out, 'S');
            c->tls_pending = true;   /* srv_conn.c starts TLS after this packet */
            return;
        }
        cm_buf_put_u8(&c->out, 'N');
        return;
    case SRV_STARTUP_GSSENC:
        /* No TLS yet: one unframed 'N', and the client continues in clear. */
        cm_buf_put_u8(&c->out, 'N');
        return;
    case SRV_STARTUP_CANCEL:
        srv_cancel_request(st.cancel_pid, st.cancel_secret);
        srv_conn_close(c);
        return;
    case SRV_STARTUP_MESSAGE:
        break;
    default:
        cm_panic(__FILE__, __LINE__, "unknown startup packet kind %d", (int)st.kind);
    }
    if (c->over_limit) {
        srv_conn_fatal(c, CM_ERRCODE_TOO_MANY_CONNECTIONS, "sorry, too many clients already");
        return;
    }
    const char *user = NULL, *database = NULL;
    const char *unknown_opts[SRV_STARTUP_PARAMS_MAX];
    int nunknown = 0;
    for (int i = 0; i < st.nparams; i++) {
        if (strcmp(st.names[i], "user") == 0)
            user = st.values[i];
        else if (strcmp(st.names[i], "database") == 0)
            database = st.values[i];
        else if (strncmp(st.names[i], "_pq_.", 5) == 0)
            unknown_opts[nunknown++] = st.names[i];
    }
    if (user == NULL || user[0] == 0) {
        srv_conn_fatal(c, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                       "no PostgreSQL user name specified in startup packet");
        return;
    }
    const srv_config_t *cfg = &c->lp->srv->cfg;
    srv__peer_host(c, c->peer, sizeof c->peer);
    if (c->tls == NULL && (cfg->tls_mode == SRV_TLS_REQUIRE || cfg->auth == SRV_AUTH_CERT)) {
        srv_conn_fatal(c, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION,
                       "no pg_hba.conf entry for host \"%s\", user \"%s\", database \"%s\", no encryption", c->peer,
                       user, database != NULL && database[0] != 0 ? database : user);
        return;
    }
    /* A newer minor version or protocol options we do not know: say what we speak. */
    if ((st.version & 0xffff) > 0 || nunknown > 0)
        srv_put_negotiate_protocol_version(&c->out, SRV_PROTO_3_0, nunknown, unknown_opts);
    c->user = cm_strdup(user);
    srv_session_init(&c->sess, user);
    if (srv_tls_enabled(c->lp->srv))
        srv_session_boot(&c->sess, "ssl", "on");
    for (int i = 0; i < st.nparams; i++) {
        const char *n = st.names[i];
        if (strcmp(n, "user") == 0 || strcmp(n, "database") == 0 || strcmp(n, "replication") == 0 ||
            strncmp(n, "_pq_.", 5) == 0)
            continue;
        if (strcmp(n, "options") == 0)
            srv__startup_options(c, st.values[i]);
        else
            srv_session_set_startup(&c->sess, n, st.values[i]);
    }
    c->sess_database_asked = database != NULL && database[0] != 0 && strcmp(database, "eddy") != 0;
    if (c->sess_database_asked) {
        free(c->database_asked);
        c->database_asked = cm_strdup(database);
    }
    srv_conn_set_state(c, SRV_CONN_AUTH);
    srv_auth_begin(c);
}

/* After authentication succeeded: the session's parameters, its key, and ready. */
void srv_startup_finish(srv_conn_t *c)
{
    if (!srv_roles_login_ok(c))
        return;
    srv_put_authentication(&c->out, 0, NULL, 0);
    srv_session_report(&c->sess, &c->out, true);
    srv_cancel_register(&c->cancel);
    srv_tls_stat_add(c);
    srv_put_backend_key_data(&c->out, c->cancel.pid, c->cancel.secret);
    if (c->sess_database_asked)
        srv_conn_send_notice(c, CM_ERRCODE_SUCCESSFUL_COMPLETION, CM_SEV_NOTICE,
                             "database \"%s\" does not exist here; using the default database \"eddy\"",
                             c->database_asked);
    if (c->scram != NULL) {
        srv_scram_free(c->scram);
        free(c->scram);
        c->scram = NULL;
    }
    srv_conn_set_state(c, SRV_CONN_READY);
    srv_put_ready_for_query(&c->out, 'I');
}
