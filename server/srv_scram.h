/*
 * srv_scram.h: SCRAM-SHA-256 (RFC 5802 / 7677) as PostgreSQL speaks it,
 * internal to server/. Verifiers use PostgreSQL's stored format
 * "SCRAM-SHA-256$<iter>:<salt>$<StoredKey>:<ServerKey>" so secrets made by a
 * real PostgreSQL work here unchanged. No I/O: the exchange is two calls that
 * turn client messages into server messages, so tests drive it directly.
 */
#ifndef EDDY_SRV_SCRAM_H
#define EDDY_SRV_SCRAM_H

#include "common/common.h"

#define SRV_SCRAM_KEY_LEN 32
#define SRV_SCRAM_SALT_MAX 64
#define SRV_SCRAM_ITERATIONS 4096   /* PostgreSQL's default scram_iterations */

typedef struct srv_scram_secret {
    int iterations;
    uint8_t salt[SRV_SCRAM_SALT_MAX];
    size_t salt_len;
    uint8_t stored_key[SRV_SCRAM_KEY_LEN];
    uint8_t server_key[SRV_SCRAM_KEY_LEN];
} srv_scram_secret_t;

bool srv_scram_secret_parse(const char *text, srv_scram_secret_t *out);
/* A new verifier with a random 16-byte salt; malloc'd, the caller frees. */
char *srv_scram_secret_build(const char *password, int iterations);
/* Cleartext check against a verifier, in constant time over the key. */
bool srv_scram_check_password(const srv_scram_secret_t *s, const char *password);
/*
 * A deterministic fake secret for a user that does not exist, so that the
 * exchange looks the same (same salt every time for one name) and fails only
 * at the end, as PostgreSQL's mock authentication does.
 */
void srv_scram_secret_mock(const char *user, srv_scram_secret_t *out);

typedef enum srv_scram_step {
    SRV_SCRAM_INIT = 0,
    SRV_SCRAM_SENT_FIRST,
    SRV_SCRAM_DONE,
} srv_scram_step_t;

typedef struct srv_scram {
    srv_scram_step_t step;
    srv_scram_secret_t secret;
    bool mock;                 /* the user does not exist: always fail at the end */
    char gs2_flag;             /* 'n', 'y' or 'p' (channel binding) */
    char *gs2_header;          /* "n,," or "p=tls-server-end-point,,": c= in client-final repeats it */
    /* Channel binding (set by the caller before the first message): the
     * tls-server-end-point hash when the connection offers SCRAM-SHA-256-PLUS,
     * and whether the client chose that mechanism. */
    uint8_t cbind[64];
    size_t cbind_len;
    bool plus;
    char *client_first_bare;   /* malloc'd */
    char *server_first;
    char *nonce;               /* client nonce + server nonce */
} srv_scram_t;

void srv_scram_init(srv_scram_t *s, const srv_scram_secret_t *secret, bool mock);
void srv_scram_free(srv_scram_t *s);
/* client-first-message → server-first-message (appended to reply). */
bool srv_scram_first(srv_scram_t *s, const uint8_t *msg, size_t len, cm_buf_t *reply, cm_err_t *err);
/*
 * client-final-message → server-final-message. A malformed message fails
 * with err; a wrong proof (or a mock user) returns true with *ok false.
 */
bool srv_scram_final(srv_scram_t *s, const uint8_t *msg, size_t len, cm_buf_t *reply, bool *ok,
                     cm_err_t *err);

/* Base64 helpers shared with the tests (standard alphabet, padded). */
void srv_base64_encode(const uint8_t *p, size_t n, cm_buf_t *out);
/* Returns the decoded length, or -1 if the text is not valid base64 or too long. */
int srv_base64_decode(const char *text, size_t n, uint8_t *out, size_t cap);

#endif
