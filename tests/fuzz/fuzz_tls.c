/*
 * fuzz_tls.c: libFuzzer target for the TLS startup path (server/srv_tls.h):
 * the server context eddy builds and its session over memory BIOs, then the
 * startup framing of what it decrypts.
 *
 * The first byte picks a mode. 0 and 1: the rest is what a client sends on
 * the wire after SSLRequest (0) or directly (1), fed in two pieces split where
 * the second byte says; a ClientHello is the only thing it can get right, so
 * this is the handshake parser and eddy's ALPN choice. 2: a real OpenSSL
 * client completes a handshake in memory and sends the rest as plaintext;
 * the server must decrypt exactly those bytes, which then go through the
 * codec as a connection's first packets, and a reply must reach the client.
 * The certificate and key are made at the first call (a temp dir, mode 0600).
 */
#include "server/srv_codec.h"
#include "server/srv_tls.h"
#include "tests/fuzz/fuzz.h"

#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

static srv_tls_server_t *fz__server;
static SSL_CTX *fz__client;

static void fz__make_files(char *cert_path, char *key_path)
{
    char dir[] = "/tmp/eddy-fuzz-tls.XXXXXX";
    if (mkdtemp(dir) == NULL)
        abort();
    snprintf(cert_path, 256, "%s/cert.pem", dir);
    snprintf(key_path, 256, "%s/key.pem", dir);
    EVP_PKEY *key = EVP_EC_gen("P-256");
    X509 *x = X509_new();
    if (key == NULL || x == NULL)
        abort();
    ASN1_INTEGER_set(X509_get_serialNumber(x), 1);
    X509_gmtime_adj(X509_getm_notBefore(x), -60);
    X509_gmtime_adj(X509_getm_notAfter(x), 3600L * 24 * 365);
    X509_set_pubkey(x, key);
    X509_NAME *n = X509_get_subject_name(x);
    X509_NAME_add_entry_by_txt(n, "CN", MBSTRING_ASC, (const unsigned char *)"localhost", -1, -1, 0);
    X509_set_issuer_name(x, n);
    X509_sign(x, key, EVP_sha256());
    FILE *f = fopen(cert_path, "w");
    PEM_write_X509(f, x);
    fclose(f);
    f = fopen(key_path, "w");
    chmod(key_path, 0600);
    PEM_write_PrivateKey(f, key, NULL, NULL, 0, NULL, NULL);
    fclose(f);
    X509_free(x);
    EVP_PKEY_free(key);
}

static void fz__init(void)
{
    if (fz__server != NULL)
        return;
    char cert[256], key[256];
    fz__make_files(cert, key);
    srv_config_t cfg;
    memset(&cfg, 0, sizeof cfg);
    cfg.tls_cert = cert;
    cfg.tls_key = key;
    cm_err_t err = {0};
    fz__server = srv_tls_server_new(&cfg, &err);
    if (fz__server == NULL) {
        fprintf(stderr, "fuzz_tls: %s\n", err.message);
        abort();
    }
    unlink(cert);
    unlink(key);
    *strrchr(cert, '/') = 0;
    rmdir(cert);
    fz__client = SSL_CTX_new(TLS_client_method());
    SSL_CTX_set_verify(fz__client, SSL_VERIFY_NONE, NULL);
    static const unsigned char alpn[] = {10, 'p', 'o', 's', 't', 'g', 'r', 'e', 's', 'q', 'l'};
    SSL_CTX_set_alpn_protos(fz__client, alpn, sizeof alpn);
}

static bool fz__collect(void *arg, const uint8_t *p, size_t n)
{
    cm_buf_put(arg, p, n);
    return true;
}

/* Moves bytes between the client's memory BIOs and the server session until neither has more. */
static bool fz__pump(SSL *cl, BIO *c_in, BIO *c_out, srv_tls_t *sv, cm_buf_t *plain)
{
    for (int round = 0; round < 16; round++) {
        uint8_t buf[16384];
        int k;
        bool moved = false;
        while ((k = BIO_read(c_out, buf, sizeof buf)) > 0) {
            if (srv_tls_session_feed(sv, buf, (size_t)k, fz__collect, plain) != SRV_TLS_MORE)
                return false;
            moved = true;
        }
        cm_buf_t *out = srv_tls_session_out(sv);
        if (out->len > 0) {
            BIO_write(c_in, out->data, (int)out->len);
            out->len = 0;
            moved = true;
        }
        if (!SSL_is_init_finished(cl))
            SSL_do_handshake(cl);
        if (!moved && SSL_is_init_finished(cl))
            return true;
    }
    return true;
}

static void fz__tunnel(const uint8_t *data, size_t size)
{
    srv_tls_t *sv = srv_tls_session_new(fz__server, false);
    SSL *cl = SSL_new(fz__client);
    BIO *c_in = BIO_new(BIO_s_mem()), *c_out = BIO_new(BIO_s_mem());
    SSL_set_bio(cl, c_in, c_out);
    SSL_set_connect_state(cl);
    SSL_do_handshake(cl);
    cm_buf_t plain;
    cm_buf_init(&plain, 0);
    if (!fz__pump(cl, c_in, c_out, sv, &plain) || !SSL_is_init_finished(cl))
        abort();   /* a well-behaved client must get through */
    if (size > 0 && SSL_write(cl, data, (int)size) != (int)size)
        abort();
    if (!fz__pump(cl, c_in, c_out, sv, &plain))
        abort();
    if (plain.len != size || (size > 0 && memcmp(plain.data, data, size) != 0))
        abort();   /* TLS delivered other bytes than were sent */
    (void)srv_codec_fuzz_one(plain.data, plain.len);
    static const uint8_t reply[] = "reply";
    if (!srv_tls_session_write(sv, reply, sizeof reply))
        abort();
    cm_buf_t *out = srv_tls_session_out(sv);
    BIO_write(c_in, out->data, (int)out->len);
    out->len = 0;
    uint8_t got[sizeof reply];
    if (SSL_read(cl, got, sizeof got) != (int)sizeof reply || memcmp(got, reply, sizeof reply) != 0)
        abort();
    cm_buf_free(&plain);
    SSL_free(cl);
    srv_tls_session_free(sv);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    fz__init();
    if (size < 2)
        return 0;
    int mode = data[0] % 3;
    if (mode == 2) {
        fz__tunnel(data + 1, size - 1 > 20000 ? 20000 : size - 1);
        return 0;
    }
    const uint8_t *p = data + 2;
    size_t n = size - 2, split = n > 0 ? data[1] % (n + 1) : 0;
    srv_tls_t *sv = srv_tls_session_new(fz__server, mode == 1);
    cm_buf_t plain;
    cm_buf_init(&plain, 0);
    if (srv_tls_session_feed(sv, p, split, fz__collect, &plain) == SRV_TLS_MORE)
        (void)srv_tls_session_feed(sv, p + split, n - split, fz__collect, &plain);
    if (plain.len > 0)
        (void)srv_codec_fuzz_one(plain.data, plain.len);
    cm_buf_free(&plain);
    srv_tls_session_free(sv);
    return 0;
}
