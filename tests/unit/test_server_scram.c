/* test_server_scram.c: SCRAM-SHA-256 against a verifier made by a real PostgreSQL 15, and a full exchange. */
#include "common/common.h"
#include "server/srv_scram.h"
#include "tests/unit/unit.h"

#include <openssl/evp.h>
#include <openssl/hmac.h>
#include <openssl/sha.h>
#include <stdlib.h>

/* `create role t login password 'secret'` with password_encryption scram-sha-256, PostgreSQL 15. */
static const char *pg_verifier =
    "SCRAM-SHA-256$4096:7i5gWLKIrdL+rhKyH0TEcw==$6pMvD8keAsFtq7aKilAlTjUX3YnET9IgDNu5Pu9YXsY=:"
    "a1wJXpNKcaiXPnPP4ZD4Xh2JOtqI5AkUx1maaF2yiJ8=";

static void test_parse_pg_verifier(void)
{
    srv_scram_secret_t s;
    UNIT_CHECK(srv_scram_secret_parse(pg_verifier, &s));
    UNIT_CHECK(s.iterations == 4096 && s.salt_len == 16);
    UNIT_CHECK(srv_scram_check_password(&s, "secret"));
    UNIT_CHECK(!srv_scram_check_password(&s, "Secret"));
    UNIT_CHECK(!srv_scram_secret_parse("SCRAM-SHA-256$x:abc$def:ghi", &s));
    UNIT_CHECK(!srv_scram_secret_parse("md5abcdef", &s));
    UNIT_CHECK(!srv_scram_secret_parse("SCRAM-SHA-256$4096:7i5gWLKIrdL+rhKyH0TEcw==$AAAA:AAAA", &s));
}

static void test_build_roundtrip(void)
{
    char *v = srv_scram_secret_build("p@ss word", 4096);
    srv_scram_secret_t s;
    UNIT_CHECK(v != NULL && srv_scram_secret_parse(v, &s));
    UNIT_CHECK(srv_scram_check_password(&s, "p@ss word"));
    UNIT_CHECK(!srv_scram_check_password(&s, "p@ss"));
    free(v);
}

/* Plays the client side of the exchange with password pw; returns whether the server accepted. */
static bool exchange(const srv_scram_secret_t *sec, bool mock, const char *pw, bool tamper_nonce)
{
    srv_scram_t s;
    cm_buf_t reply;
    cm_err_t err = {0};
    bool ok = false;
    srv_scram_init(&s, sec, mock);
    cm_buf_init(&reply, 0);
    const char *cfirst = "n,,n=,r=rOprNGfwEbeRWgbNEkqO";
    if (!srv_scram_first(&s, (const uint8_t *)cfirst, strlen(cfirst), &reply, &err))
        goto out;
    cm_buf_put_u8(&reply, 0);
    char sfirst[256];
    snprintf(sfirst, sizeof sfirst, "%s", (char *)reply.data);
    /* r=<nonce>,s=<salt>,i=<iter> */
    char nonce[128], salt64[128];
    int iter;
    if (sscanf(sfirst, "r=%127[^,],s=%127[^,],i=%d", nonce, salt64, &iter) != 3)
        goto out;
    uint8_t salt[64];
    int sl = srv_base64_decode(salt64, strlen(salt64), salt, sizeof salt);
    uint8_t salted[32], ckey[32], stored[32], sig[32], proof[32];
    unsigned int n = 32;
    PKCS5_PBKDF2_HMAC(pw, (int)strlen(pw), salt, sl, iter, EVP_sha256(), 32, salted);
    HMAC(EVP_sha256(), salted, 32, (const uint8_t *)"Client Key", 10, ckey, &n);
    SHA256(ckey, 32, stored);
    char without_proof[256];
    snprintf(without_proof, sizeof without_proof, "c=biws,r=%s%s", nonce, tamper_nonce ? "x" : "");
    char auth[1024];
    snprintf(auth, sizeof auth, "%s,%s,%s", cfirst + 3, sfirst, without_proof);
    HMAC(EVP_sha256(), stored, 32, (const uint8_t *)auth, strlen(auth), sig, &n);
    for (int i = 0; i < 32; i++)
        proof[i] = ckey[i] ^ sig[i];
    cm_buf_t fin;
    cm_buf_init(&fin, 0);
    cm_buf_printf(&fin, "%s,p=", without_proof);
    srv_base64_encode(proof, 32, &fin);
    cm_buf_reset(&reply);
    bool accepted = false;
    if (srv_scram_final(&s, fin.data, fin.len, &reply, &accepted, &err))
        ok = accepted && reply.len > 2 && memcmp(reply.data, "v=", 2) == 0;
    cm_buf_free(&fin);
out:
    cm_err_clear(&err);
    cm_buf_free(&reply);
    srv_scram_free(&s);
    return ok;
}

static void test_exchange(void)
{
    srv_scram_secret_t s, m;
    UNIT_CHECK(srv_scram_secret_parse(pg_verifier, &s));
    UNIT_CHECK(exchange(&s, false, "secret", false));
    UNIT_CHECK(!exchange(&s, false, "wrong", false));
    UNIT_CHECK(!exchange(&s, false, "secret", true));
    srv_scram_secret_mock("nobody", &m);
    UNIT_CHECK(!exchange(&m, true, "secret", false));
    srv_scram_secret_t m2;
    srv_scram_secret_mock("nobody", &m2);
    UNIT_CHECK(memcmp(m.salt, m2.salt, 16) == 0);   /* the same user always sees the same salt */
}

static void test_first_message_errors(void)
{
    srv_scram_secret_t s;
    srv_scram_t x;
    cm_buf_t r;
    cm_err_t e = {0};
    srv_scram_secret_parse(pg_verifier, &s);
    cm_buf_init(&r, 0);
    const char *bad[] = {"p=tls-server-end-point,,n=,r=abc", "n,a=bob,n=,r=abc", "n,,n=,r=a\x01", "x,,n=,r=a",
                         "n,,m=ext,n=,r=a", "n,,n="};
    const char *codes[] = {"08P01", "0A000", "08P01", "08P01", "0A000", "08P01"};
    for (size_t i = 0; i < CM_ARRAY_LEN(bad); i++) {
        srv_scram_init(&x, &s, false);
        UNIT_CHECK(!srv_scram_first(&x, (const uint8_t *)bad[i], strlen(bad[i]), &r, &e));
        UNIT_CHECK_STR(e.sqlstate, codes[i]);
        cm_err_clear(&e);
        srv_scram_free(&x);
    }
    cm_buf_free(&r);
}

int main(void)
{
    UNIT_RUN(test_parse_pg_verifier);
    UNIT_RUN(test_build_roundtrip);
    UNIT_RUN(test_exchange);
    UNIT_RUN(test_first_message_errors);
    UNIT_EXIT();
}
