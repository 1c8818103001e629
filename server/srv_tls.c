/*
 * srv_tls.c: TLS for client connections on OpenSSL memory BIOs (see
 * srv_tls.h): the server context (TLS 1.2 and 1.3 only, forward-secret AEAD
 * ciphers, no compression, renegotiation, tickets or session cache, ALPN
 * "postgresql"), its reload on SIGHUP, and each connection's handshake,
 * decryption and encryption driven by the connection's own reads and writes.
 *
 * Session resumption stays off as in PostgreSQL: a resumed session would
 * skip the client-certificate check of a reloaded CA.
 */
#include "server/srv_tls.h"

#include <errno.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509v3.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

struct srv_tls_server {
    pthread_mutex_t mu;     /* guards ctx against a reload while loops start connections */
    SSL_CTX *ctx;
};

struct srv_tls {
    SSL *ssl;
    BIO *rbio, *wbio;       /* owned by ssl */
    cm_buf_t raw;           /* ciphertext (and the clear 'S' before it) waiting to be written */
    bool direct;
    bool established;
};

#define SRV__CONFIG_FILE_ERROR "F0000"
#define SRV_TLS_PLAIN_CHUNK (16 * 1024)   /* one TLS record's worth of plaintext at a time */
#define SRV_TLS_WRITE_CHUNK (256 * 1024)

static const uint8_t srv__alpn[] = {10, 'p', 'o', 's', 't', 'g', 'r', 'e', 's', 'q', 'l'};

/* ------------------------------------------------------------ context */

static void srv__openssl_err(cm_err_t *err, const char *what, const char *path)
{
    unsigned long e = ERR_get_error();
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    cm_err_set(err, SRV__CONFIG_FILE_ERROR, "could not load %s \"%s\": %s", what, path,
               e != 0 ? buf : "no details");
}

/* A private key others can read is refused, as PostgreSQL does (root-owned: group may read). */
static bool srv__key_file_ok(const char *path, cm_err_t *err)
{
    struct stat st;
    if (stat(path, &st) != 0)
        return cm_err_set(err, SRV__CONFIG_FILE_ERROR, "could not access private key file \"%s\": %s", path,
                          strerror(errno));
    if (!S_ISREG(st.st_mode))
        return cm_err_set(err, SRV__CONFIG_FILE_ERROR, "private key file \"%s\" is not a regular file",
                          path);
    bool bad = st.st_uid == 0 ? (st.st_mode & (S_IWGRP | S_IXGRP | S_IRWXO)) != 0
                              : (st.st_mode & (S_IRWXG | S_IRWXO)) != 0;
    if (bad) {
        cm_err_set(err, SRV__CONFIG_FILE_ERROR, "private key file \"%s\" has group or world access", path);
        cm_err_set_detail(err, "File must have permissions u=rw (0600) or less if owned by the eddy user, or "
                               "permissions u=rw,g=r (0640) or less if owned by root.");
        return false;
    }
    return true;
}

static int srv__alpn_cb(SSL *ssl, const unsigned char **out, unsigned char *outlen, const unsigned char *in,
                        unsigned int inlen, void *arg)
{
    (void)ssl;
    (void)arg;
    unsigned char *sel;
    if (SSL_select_next_proto(&sel, outlen, srv__alpn, sizeof srv__alpn, in, inlen) == OPENSSL_NPN_NEGOTIATED) {
        *out = sel;
        return SSL_TLSEXT_ERR_OK;
    }
    /* A client that asks for some other protocol is not a PostgreSQL client. */
    return SSL_TLSEXT_ERR_ALERT_FATAL;
}

static SSL_CTX *srv__ctx_build(const srv_config_t *cfg, cm_err_t *err)
{
    if (!srv__key_file_ok(cfg->tls_key, err))
        return NULL;
    SSL_CTX *ctx = SSL_CTX_new(TLS_server_method());
    if (ctx == NULL) {
        srv__openssl_err(err, "TLS context", "");
        return NULL;
    }
    SSL_CTX_set_min_proto_version(ctx, TLS1_2_VERSION);
    SSL_CTX_set_max_proto_version(ctx, TLS1_3_VERSION);
    SSL_CTX_set_options(ctx, SSL_OP_NO_COMPRESSION | SSL_OP_NO_RENEGOTIATION | SSL_OP_CIPHER_SERVER_PREFERENCE |
                                 SSL_OP_NO_TICKET | SSL_OP_SINGLE_DH_USE);
    SSL_CTX_set_session_cache_mode(ctx, SSL_SESS_CACHE_OFF);
    SSL_CTX_set_num_tickets(ctx, 0);
    SSL_CTX_set_mode(ctx, SSL_MODE_RELEASE_BUFFERS);
    if (SSL_CTX_set_cipher_list(ctx, "ECDHE+AESGCM:ECDHE+CHACHA20:!aNULL:!SHA1") != 1) {
        srv__openssl_err(err, "cipher list", "");
        goto fail;
    }
    SSL_CTX_set_alpn_select_cb(ctx, srv__alpn_cb, NULL);
    if (SSL_CTX_use_certificate_chain_file(ctx, cfg->tls_cert) != 1) {
        srv__openssl_err(err, "server certificate file", cfg->tls_cert);
        goto fail;
    }
    if (SSL_CTX_use_PrivateKey_file(ctx, cfg->tls_key, SSL_FILETYPE_PEM) != 1) {
        srv__openssl_err(err, "private key file", cfg->tls_key);
        goto fail;
    }
    if (SSL_CTX_check_private_key(ctx) != 1) {
        srv__openssl_err(err, "private key file (it does not match the certificate)", cfg->tls_key);
        goto fail;
    }
    if (cfg->tls_ca != NULL) {
        STACK_OF(X509_NAME) *names = SSL_load_client_CA_file(cfg->tls_ca);
        if (SSL_CTX_load_verify_locations(ctx, cfg->tls_ca, NULL) != 1 || names == NULL) {
            srv__openssl_err(err, "root certificate file", cfg->tls_ca);
            goto fail;
        }
        SSL_CTX_set_client_CA_list(ctx, names);
        /* A certificate the client sends must verify; sending none is allowed
         * (--auth cert refuses such a client after the handshake). */
        SSL_CTX_set_verify(ctx, SSL_VERIFY_PEER | SSL_VERIFY_CLIENT_ONCE, NULL);
    }
    return ctx;
fail:
    SSL_CTX_free(ctx);
    return NULL;
}

srv_tls_server_t *srv_tls_server_new(const srv_config_t *cfg, cm_err_t *err)
{
    SSL_CTX *ctx = srv__ctx_build(cfg, err);
    if (ctx == NULL)
        return NULL;
    srv_tls_server_t *t = cm_calloc(1, sizeof *t);
    pthread_mutex_init(&t->mu, NULL);
    t->ctx = ctx;
    return t;
}

void srv_tls_server_free(srv_tls_server_t *t)
{
    if (t == NULL)
        return;
    SSL_CTX_free(t->ctx);
    pthread_mutex_destroy(&t->mu);
    free(t);
}

bool srv_tls_start(srv_server_t *srv, cm_err_t *err)
{
    if (srv->cfg.tls_cert == NULL)
        return true;
    srv->tls = srv_tls_server_new(&srv->cfg, err);
    return srv->tls != NULL;
}

bool srv_tls_reload(srv_server_t *srv, cm_err_t *err)
{
    srv_tls_server_t *t = srv->tls;
    if (t == NULL)
        return true;
    SSL_CTX *ctx = srv__ctx_build(&srv->cfg, err);
    if (ctx == NULL)
        return false;
    pthread_mutex_lock(&t->mu);
    SSL_CTX *old = t->ctx;
    t->ctx = ctx;
    pthread_mutex_unlock(&t->mu);
    SSL_CTX_free(old);   /* connections hold their own references */
    return true;
}

void srv_tls_stop(srv_server_t *srv)
{
    srv_tls_server_free(srv->tls);
    srv->tls = NULL;
}

bool srv_tls_enabled(const srv_server_t *srv)
{
    return srv->tls != NULL;
}

/* ------------------------------------------------------------ session */

srv_tls_t *srv_tls_session_new(srv_tls_server_t *t, bool direct)
{
    pthread_mutex_lock(&t->mu);
    SSL *ssl = SSL_new(t->ctx);
    pthread_mutex_unlock(&t->mu);
    if (ssl == NULL) {
        ERR_clear_error();
        return NULL;
    }
    srv_tls_t *x = cm_calloc(1, sizeof *x);
    x->ssl = ssl;
    x->rbio = BIO_new(BIO_s_mem());
    x->wbio = BIO_new(BIO_s_mem());
    BIO_set_mem_eof_return(x->rbio, -1);
    BIO_set_mem_eof_return(x->wbio, -1);
    SSL_set_bio(ssl, x->rbio, x->wbio);
    SSL_set_accept_state(ssl);
    x->direct = direct;
    cm_buf_init(&x->raw, 0);
    return x;
}

void srv_tls_session_free(srv_tls_t *x)
{
    if (x == NULL)
        return;
    SSL_free(x->ssl);
    cm_buf_free(&x->raw);
    free(x);
}

cm_buf_t *srv_tls_session_out(srv_tls_t *x)
{
    return &x->raw;
}

bool srv_tls_session_established(const srv_tls_t *x)
{
    return x->established;
}

/* Moves what OpenSSL wrote into the memory BIO to the bytes to send. */
static void srv__drain(srv_tls_t *x)
{
    size_t n = BIO_ctrl_pending(x->wbio);
    if (n == 0)
        return;
    if (!cm_buf_reserve(&x->raw, n))
        return;
    int got = BIO_read(x->wbio, x->raw.data + x->raw.len, (int)n);
    if (got > 0)
        x->raw.len += (size_t)got;
}

static srv_tls_rc_t srv__failed(srv_tls_t *x, const char *what)
{
    unsigned long e = ERR_peek_error();
    char buf[256];
    ERR_error_string_n(e, buf, sizeof buf);
    ERR_clear_error();
    cm_log_debug("TLS %s failed: %s", what, e != 0 ? buf : "connection closed");
    srv__drain(x);   /* the alert OpenSSL wrote, if any, still goes out */
    return SRV_TLS_FAILED;
}

srv_tls_rc_t srv_tls_session_feed(srv_tls_t *x, const uint8_t *p, size_t n, srv_tls_plain_cb cb, void *arg)
{
    if (n > 0 && BIO_write(x->rbio, p, (int)n) != (int)n)
        return srv__failed(x, "input");
    if (!x->established) {
        int r = SSL_do_handshake(x->ssl);
        if (r != 1) {
            if (SSL_get_error(x->ssl, r) == SSL_ERROR_WANT_READ) {
                srv__drain(x);
                return SRV_TLS_MORE;
            }
            return srv__failed(x, "handshake");
        }
        x->established = true;
        const unsigned char *alpn;
        unsigned alen;
        SSL_get0_alpn_selected(x->ssl, &alpn, &alen);
        srv__drain(x);
        if (x->direct && alen == 0) {
            /* Without the ALPN a direct connection could be another protocol's. */
            cm_log_debug("direct TLS connection without ALPN \"postgresql\" refused");
            return SRV_TLS_FAILED;
        }
    }
    uint8_t plain[SRV_TLS_PLAIN_CHUNK];
    for (;;) {
        int r = SSL_read(x->ssl, plain, sizeof plain);
        if (r > 0) {
            if (!cb(arg, plain, (size_t)r))
                break;
            continue;
        }
        int e = SSL_get_error(x->ssl, r);
        if (e == SSL_ERROR_WANT_READ)
            break;
        if (e == SSL_ERROR_ZERO_RETURN) {
            srv__drain(x);
            return SRV_TLS_CLOSED;   /* close_notify: the client is done */
        }
        return srv__failed(x, "read");
    }
    srv__drain(x);
    return SRV_TLS_MORE;
}

bool srv_tls_session_write(srv_tls_t *x, const uint8_t *p, size_t n)
{
    size_t off = 0;
    while (off < n) {
        size_t k = n - off;
        if (k > SRV_TLS_WRITE_CHUNK)
            k = SRV_TLS_WRITE_CHUNK;
        int r = SSL_write(x->ssl, p + off, (int)k);
        if (r <= 0) {
            ERR_clear_error();
            return false;
        }
        off += (size_t)r;
        srv__drain(x);
    }
    return true;
}

/* ------------------------------------------------------------ what it shows */

static void srv__name(X509_NAME *n, char *out, size_t cap)
{
    out[0] = 0;
    /* "/C=../CN=.." in the certificate's order, as PostgreSQL 15's pg_stat_ssl shows it. */
    if (n != NULL)
        X509_NAME_oneline(n, out, (int)cap);
}

void srv_tls_info(const srv_conn_t *c, srv_tls_info_t *out)
{
    memset(out, 0, sizeof *out);
    const srv_tls_t *x = c->tls;
    if (x == NULL || !x->established)
        return;
    out->ssl = true;
    snprintf(out->version, sizeof out->version, "%s", SSL_get_version(x->ssl));
    const SSL_CIPHER *ci = SSL_get_current_cipher(x->ssl);
    snprintf(out->cipher, sizeof out->cipher, "%s", ci != NULL ? SSL_CIPHER_get_name(ci) : "");
    out->bits = ci != NULL ? SSL_CIPHER_get_bits(ci, NULL) : 0;
    X509 *peer = SSL_get0_peer_certificate(x->ssl);
    if (peer == NULL)
        return;
    out->client_verified = SSL_get_verify_result(x->ssl) == X509_V_OK;
    srv__name(X509_get_subject_name(peer), out->client_dn, sizeof out->client_dn);
    srv__name(X509_get_issuer_name(peer), out->issuer_dn, sizeof out->issuer_dn);
    BIGNUM *bn = ASN1_INTEGER_to_BN(X509_get0_serialNumber(peer), NULL);
    if (bn != NULL) {
        char *dec = BN_bn2dec(bn);
        if (dec != NULL)
            snprintf(out->client_serial, sizeof out->client_serial, "%s", dec);
        OPENSSL_free(dec);
        BN_free(bn);
    }
    int k = X509_NAME_get_text_by_NID(X509_get_subject_name(peer), NID_commonName, out->client_cn,
                                      (int)sizeof out->client_cn);
    if (k < 0 || (size_t)k != strlen(out->client_cn))
        out->client_cn[0] = 0;   /* absent, or an embedded NUL: no name to match */
}

size_t srv_tls_endpoint_hash(const srv_conn_t *c, uint8_t out[64])
{
    const srv_tls_t *x = c->tls;
    if (x == NULL || !x->established)
        return 0;
    X509 *cert = SSL_get_certificate(x->ssl);
    if (cert == NULL)
        return 0;
    int md_nid, pk_nid;
    if (!OBJ_find_sigid_algs(X509_get_signature_nid(cert), &md_nid, &pk_nid))
        return 0;
    /* RFC 5929: the certificate's signature hash, SHA-256 in place of MD5 and SHA-1. */
    const EVP_MD *md = md_nid == NID_md5 || md_nid == NID_sha1 ? EVP_sha256() : EVP_get_digestbynid(md_nid);
    unsigned len = 0;
    if (md == NULL || X509_digest(cert, md, out, &len) != 1 || len > 64)
        return 0;
    return len;
}
