/*
 * srv_scram.c: SCRAM-SHA-256 server side on OpenSSL's PBKDF2, HMAC and
 * SHA-256, following RFC 5802 and PostgreSQL's choices: the user name in the
 * client-first message is ignored (the startup packet's is used), channel
 * binding only as tls-server-end-point (SCRAM-SHA-256-PLUS, over TLS),
 * authzid and extensions are refused,
 * and unknown users get a mock exchange that fails only at the end.
 */
#include "server/srv_scram.h"

#include <openssl/crypto.h>
#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/rand.h>
#include <openssl/sha.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ------------------------------------------------------------ base64 */

void srv_base64_encode(const uint8_t *p, size_t n, cm_buf_t *out)
{
    size_t need = 4 * ((n + 2) / 3) + 1;
    if (!cm_buf_reserve(out, need))
        return;
    int w = EVP_EncodeBlock(out->data + out->len, p, (int)n);
    out->len += (size_t)w;
}

int srv_base64_decode(const char *text, size_t n, uint8_t *out, size_t cap)
{
    if (n % 4 != 0 || n / 4 * 3 > cap + 2 || n > 4096)
        return -1;
    uint8_t tmp[3072 + 4];
    int w = EVP_DecodeBlock(tmp, (const uint8_t *)text, (int)n);
    if (w < 0)
        return -1;
    /* EVP_DecodeBlock counts padding as zero bytes; PostgreSQL's does not. */
    if (n > 0 && text[n - 1] == '=')
        w--;
    if (n > 1 && text[n - 2] == '=')
        w--;
    if ((size_t)w > cap)
        return -1;
    memcpy(out, tmp, (size_t)w);
    return w;
}

/* ------------------------------------------------------------ secrets */

static void srv__hmac(const uint8_t *key, size_t klen, const void *msg, size_t mlen, uint8_t out[32])
{
    unsigned int olen = 32;
    HMAC(EVP_sha256(), key, (int)klen, msg, mlen, out, &olen);
}

static bool srv__salted(const char *password, const uint8_t *salt, size_t salt_len, int iterations,
                        uint8_t out[32])
{
    /* PostgreSQL applies SASLprep first; for ASCII passwords it changes nothing. */
    return PKCS5_PBKDF2_HMAC(password, (int)strlen(password), salt, (int)salt_len, iterations,
                             EVP_sha256(), 32, out) == 1;
}

static void srv__keys(const uint8_t salted[32], uint8_t stored[32], uint8_t server[32])
{
    uint8_t client_key[32];
    srv__hmac(salted, 32, "Client Key", 10, client_key);
    SHA256(client_key, 32, stored);
    srv__hmac(salted, 32, "Server Key", 10, server);
    OPENSSL_cleanse(client_key, sizeof client_key);
}

bool srv_scram_secret_parse(const char *text, srv_scram_secret_t *out)
{
    const char *prefix = "SCRAM-SHA-256$";
    if (strncmp(text, prefix, strlen(prefix)) != 0)
        return false;
    const char *p = text + strlen(prefix);
    char *end;
    long iter = strtol(p, &end, 10);
    if (end == p || *end != ':' || iter < 1 || iter > 100000000)
        return false;
    out->iterations = (int)iter;
    const char *salt = end + 1;
    const char *dollar = strchr(salt, '$');
    if (dollar == NULL)
        return false;
    int n = srv_base64_decode(salt, (size_t)(dollar - salt), out->salt, sizeof out->salt);
    if (n <= 0)
        return false;
    out->salt_len = (size_t)n;
    const char *stored = dollar + 1;
    const char *colon = strchr(stored, ':');
    if (colon == NULL)
        return false;
    if (srv_base64_decode(stored, (size_t)(colon - stored), out->stored_key, 32) != 32)
        return false;
    const char *server = colon + 1;
    if (srv_base64_decode(server, strlen(server), out->server_key, 32) != 32)
        return false;
    return true;
}

char *srv_scram_secret_build(const char *password, int iterations)
{
    uint8_t salt[16], salted[32], stored[32], server[32];
    if (RAND_bytes(salt, sizeof salt) != 1 || !srv__salted(password, salt, sizeof salt, iterations, salted))
        return NULL;
    srv__keys(salted, stored, server);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_printf(&b, "SCRAM-SHA-256$%d:", iterations);
    srv_base64_encode(salt, sizeof salt, &b);
    cm_buf_put_u8(&b, '$');
    srv_base64_encode(stored, 32, &b);
    cm_buf_put_u8(&b, ':');
    srv_base64_encode(server, 32, &b);
    cm_buf_put_u8(&b, 0);
    OPENSSL_cleanse(salted, sizeof salted);
    return (char *)b.data;
}

bool srv_scram_check_password(const srv_scram_secret_t *s, const char *password)
{
    uint8_t salted[32], stored[32], server[32];
    if (!srv__salted(password, s->salt, s->salt_len, s->iterations, salted))
        return false;
    srv__keys(salted, stored, server);
    OPENSSL_cleanse(salted, sizeof salted);
    return CRYPTO_memcmp(stored, s->stored_key, 32) == 0;
}

/* One random key per process, so mock salts cannot be predicted across restarts. */
static uint8_t srv__mock_key[32];
static pthread_once_t srv__mock_once = PTHREAD_ONCE_INIT;

static void srv__mock_init(void)
{
    if (RAND_bytes(srv__mock_key, sizeof srv__mock_key) != 1)
        cm_panic(__FILE__, __LINE__, "RAND_bytes failed");
}

void srv_scram_secret_mock(const char *user, srv_scram_secret_t *out)
{
    uint8_t h[32];
    pthread_once(&srv__mock_once, srv__mock_init);
    srv__hmac(srv__mock_key, sizeof srv__mock_key, user, strlen(user), h);
    out->iterations = SRV_SCRAM_ITERATIONS;
    memcpy(out->salt, h, 16);
    out->salt_len = 16;
    RAND_bytes(out->stored_key, 32);
    RAND_bytes(out->server_key, 32);
}

/* ------------------------------------------------------------ exchange */

void srv_scram_init(srv_scram_t *s, const srv_scram_secret_t *secret, bool mock)
{
    memset(s, 0, sizeof *s);
    s->secret = *secret;
    s->mock = mock;
}

void srv_scram_free(srv_scram_t *s)
{
    free(s->client_first_bare);
    free(s->server_first);
    free(s->nonce);
    free(s->gs2_header);
    OPENSSL_cleanse(&s->secret, sizeof s->secret);
    s->client_first_bare = s->server_first = s->nonce = s->gs2_header = NULL;
}

static bool srv__malformed(cm_err_t *err, const char *detail)
{
    cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "malformed SCRAM message");
    cm_err_set_detail(err, "%s", detail);
    return false;
}

static bool srv__printable(const char *p, size_t n)
{
    for (size_t i = 0; i < n; i++)
        if (p[i] < 0x21 || p[i] > 0x7e || p[i] == ',')
            return false;
    return true;
}

bool srv_scram_first(srv_scram_t *s, const uint8_t *msg, size_t len, cm_buf_t *reply, cm_err_t *err)
{
    if (s->step != SRV_SCRAM_INIT || msg == NULL)
        return srv__malformed(err, "Unexpected SCRAM message.");
    /* Work on a NUL-terminated copy; a NUL inside the message is malformed. */
    if (memchr(msg, 0, len) != NULL || len < 3)
        return srv__malformed(err, "The message is empty or contains NUL.");
    char *m = cm_strndup((const char *)msg, len);
    bool ok = false;
    char flag = m[0];
    /* q: after the channel-binding flag and its comma. */
    const char *q = m + 2;
    if (flag == 'p') {
        if (!s->plus) {
            srv__malformed(err, "The client selected SCRAM-SHA-256 without channel binding, but the SCRAM "
                                "message includes channel binding data.");
            goto out;
        }
        const char *comma = strchr(m, ',');
        if (m[1] != '=' || comma == NULL) {
            srv__malformed(err, "Unexpected channel-binding flag.");
            goto out;
        }
        if ((size_t)(comma - m - 2) != strlen("tls-server-end-point") ||
            strncmp(m + 2, "tls-server-end-point", (size_t)(comma - m - 2)) != 0) {
            cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "unsupported SCRAM channel-binding type \"%.*s\"",
                       (int)(comma - m - 2), m + 2);
            goto out;
        }
        q = comma + 1;
    } else if ((flag != 'n' && flag != 'y') || m[1] != ',') {
        srv__malformed(err, "Unexpected channel-binding flag.");
        goto out;
    } else if (s->plus) {
        srv__malformed(err, "The client selected SCRAM-SHA-256-PLUS, but the SCRAM message does not include "
                            "channel binding data.");
        goto out;
    } else if (flag == 'y' && s->cbind_len > 0) {
        cm_err_set(err, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "SCRAM channel binding negotiation error");
        cm_err_set_detail(err, "The client supports SCRAM channel binding but thinks the server does not.  "
                               "However, this server does support channel binding.");
        goto out;
    }
    if (q[0] == 'a' && q[1] == '=') {
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                   "client uses authorization identity, but it is not supported");
        goto out;
    }
    if (q[0] != ',') {
        srv__malformed(err, "Unexpected attribute in client-first-message.");
        goto out;
    }
    const char *bare = q + 1;
    const char *p = bare;
    if (p[0] == 'm' && p[1] == '=') {
        cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "client requires an unsupported SCRAM extension");
        goto out;
    }
    if (p[0] != 'n' || p[1] != '=') {
        srv__malformed(err, "Expected attribute \"n\".");
        goto out;
    }
    p = strchr(p, ',');
    if (p == NULL || p[1] != 'r' || p[2] != '=') {
        srv__malformed(err, "Expected attribute \"r\".");
        goto out;
    }
    const char *cnonce = p + 3;
    size_t cn = strcspn(cnonce, ",");
    if (cn == 0 || !srv__printable(cnonce, cn)) {
        srv__malformed(err, "non-printable characters in SCRAM nonce");
        goto out;
    }
    uint8_t raw[18];
    if (RAND_bytes(raw, sizeof raw) != 1) {
        cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "could not generate random nonce");
        goto out;
    }
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put(&b, cnonce, cn);
    srv_base64_encode(raw, sizeof raw, &b);
    cm_buf_put_u8(&b, 0);
    s->nonce = (char *)b.data;
    cm_buf_init(&b, 0);
    cm_buf_printf(&b, "r=%s,s=", s->nonce);
    srv_base64_encode(s->secret.salt, s->secret.salt_len, &b);
    cm_buf_printf(&b, ",i=%d", s->secret.iterations);
    cm_buf_put_u8(&b, 0);
    s->server_first = (char *)b.data;
    s->client_first_bare = cm_strdup(bare);
    s->gs2_header = cm_strndup(m, (size_t)(bare - m));
    s->gs2_flag = flag;
    cm_buf_put_str(reply, s->server_first);
    s->step = SRV_SCRAM_SENT_FIRST;
    ok = true;
out:
    free(m);
    return ok;
}

bool srv_scram_final(srv_scram_t *s, const uint8_t *msg, size_t len, cm_buf_t *reply, bool *ok,
                     cm_err_t *err)
{
    *ok = false;
    if (s->step != SRV_SCRAM_SENT_FIRST || msg == NULL || memchr(msg, 0, len) != NULL)
        return srv__malformed(err, "Unexpected SCRAM message.");
    s->step = SRV_SCRAM_DONE;
    char *m = cm_strndup((const char *)msg, len);
    bool rc = false;
    /* c= is base64 of the gs2 header, followed by the certificate hash when bound. */
    cm_buf_t cb, want;
    cm_buf_init(&cb, 0);
    cm_buf_init(&want, 0);
    cm_buf_put_str(&cb, s->gs2_header);
    if (s->gs2_flag == 'p')
        cm_buf_put(&cb, s->cbind, s->cbind_len);
    cm_buf_put_str(&want, "c=");
    srv_base64_encode(cb.data, cb.len, &want);
    cm_buf_put_u8(&want, ',');
    bool c_ok = strncmp(m, (const char *)want.data, want.len) == 0;
    size_t c_len = want.len;
    cm_buf_free(&cb);
    cm_buf_free(&want);
    if (!c_ok) {
        if (s->gs2_flag == 'p')
            cm_err_set(err, CM_ERRCODE_INVALID_AUTHORIZATION_SPECIFICATION, "SCRAM channel binding check failed");
        else
            srv__malformed(err, "SCRAM channel binding check failed.");
        goto out;
    }
    const char *r = m + c_len;
    size_t nlen = strlen(s->nonce);
    if (strncmp(r, "r=", 2) != 0 || strncmp(r + 2, s->nonce, nlen) != 0 || r[2 + nlen] != ',') {
        cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid SCRAM response");
        cm_err_set_detail(err, "Nonce does not match.");
        goto out;
    }
    const char *proof_at = strstr(r, ",p=");
    if (proof_at == NULL || strchr(proof_at + 3, ',') != NULL) {
        srv__malformed(err, "Could not find proof in client-final-message.");
        goto out;
    }
    uint8_t proof[32];
    const char *pb64 = proof_at + 3;
    if (srv_base64_decode(pb64, strlen(pb64), proof, sizeof proof) != 32) {
        srv__malformed(err, "Malformed proof in client-final-message.");
        goto out;
    }
    cm_buf_t auth;
    cm_buf_init(&auth, 0);
    cm_buf_printf(&auth, "%s,%s,", s->client_first_bare, s->server_first);
    cm_buf_put(&auth, m, (size_t)(proof_at - m));
    uint8_t sig[32], client_key[32], h[32];
    srv__hmac(s->secret.stored_key, 32, auth.data, auth.len, sig);
    for (int i = 0; i < 32; i++)
        client_key[i] = proof[i] ^ sig[i];
    SHA256(client_key, 32, h);
    /* Compute everything even for a mock user, so timing tells nothing. */
    bool match = CRYPTO_memcmp(h, s->secret.stored_key, 32) == 0 && !s->mock;
    if (match) {
        uint8_t server_sig[32];
        srv__hmac(s->secret.server_key, 32, auth.data, auth.len, server_sig);
        cm_buf_put_str(reply, "v=");
        srv_base64_encode(server_sig, 32, reply);
        *ok = true;
    }
    cm_buf_free(&auth);
    rc = true;
out:
    free(m);
    return rc;
}
