/*
 * srv_tls.h: TLS on a client connection (srv_tls.c), internal to server/.
 *
 * OpenSSL runs over memory BIOs: the connection's libuv reads feed
 * ciphertext in, decrypted bytes go to the same framing as a plaintext
 * connection's, and output is encrypted into a buffer that the usual write
 * path sends. Nothing here touches the socket, so a handshake never blocks
 * its loop. The server's context is re-read on SIGHUP; connections keep the
 * context they started with.
 */
#ifndef EDDY_SRV_TLS_H
#define EDDY_SRV_TLS_H

#include "server/srv_int.h"

typedef struct srv_tls srv_tls_t;              /* one connection's TLS */
typedef struct srv_tls_server srv_tls_server_t; /* the server's context and its reload */

/* Loads --tls-cert/--tls-key/--tls-ca (nothing when no certificate is configured). */
bool srv_tls_start(srv_server_t *srv, cm_err_t *err);
void srv_tls_stop(srv_server_t *srv);
/* Re-reads the files now (SIGHUP's work); false with err if they do not load. */
bool srv_tls_reload(srv_server_t *srv, cm_err_t *err);
bool srv_tls_enabled(const srv_server_t *srv);

/* The pure part, no connection or loop (the fuzz target drives it directly). */
srv_tls_server_t *srv_tls_server_new(const srv_config_t *cfg, cm_err_t *err);
void srv_tls_server_free(srv_tls_server_t *t);
typedef enum srv_tls_rc {
    SRV_TLS_MORE,     /* fine so far: send what srv_tls_session_out holds, read on */
    SRV_TLS_CLOSED,   /* the client sent close_notify */
    SRV_TLS_FAILED,   /* handshake or record failed: send the alert in the output, then close */
} srv_tls_rc_t;
/* Plaintext as it is decrypted; return false to stop decrypting for now. */
typedef bool (*srv_tls_plain_cb)(void *arg, const uint8_t *p, size_t n);
srv_tls_t *srv_tls_session_new(srv_tls_server_t *t, bool direct);
void srv_tls_session_free(srv_tls_t *x);
/* Ciphertext in: runs the handshake, then hands every plaintext record to cb. */
srv_tls_rc_t srv_tls_session_feed(srv_tls_t *x, const uint8_t *p, size_t n, srv_tls_plain_cb cb, void *arg);
/* Plaintext out, encrypted into srv_tls_session_out; false if TLS failed. */
bool srv_tls_session_write(srv_tls_t *x, const uint8_t *p, size_t n);
cm_buf_t *srv_tls_session_out(srv_tls_t *x);
bool srv_tls_session_established(const srv_tls_t *x);

/* srv_tls_conn.c: the session on a connection. */

/* Starts TLS on a connection: what is in c->out (the 'S' answer) goes out in clear first.
 * direct: the client began with a ClientHello (no SSLRequest), which needs ALPN "postgresql". */
bool srv_tls_begin(srv_conn_t *c, bool direct);
/* Ciphertext from the socket: runs the handshake, hands plaintext to srv_conn_input. */
void srv_tls_input(srv_conn_t *c, const uint8_t *p, size_t n);
/* Encrypts c->out into the buffer the connection writes; false if TLS failed. */
bool srv_tls_encrypt(srv_conn_t *c);
/* The ciphertext waiting to be written. */
cm_buf_t *srv_tls_pending(srv_conn_t *c);
void srv_tls_free(srv_conn_t *c);

/* What a session shows about its TLS (SHOW ssl, pg_stat_ssl). */
typedef struct srv_tls_info {
    bool ssl;
    char version[16];
    char cipher[64];
    int bits;
    char client_dn[256];     /* "" when the client sent no certificate */
    char client_serial[80];  /* decimal */
    char issuer_dn[256];
    char client_cn[256];     /* the certificate's CN, for --auth cert */
    bool client_verified;
} srv_tls_info_t;
void srv_tls_info(const srv_conn_t *c, srv_tls_info_t *out);
/* The tls-server-end-point channel binding data (RFC 5929) of the connection's
 * certificate: its hash length, or 0 when it cannot be computed. */
size_t srv_tls_endpoint_hash(const srv_conn_t *c, uint8_t out[64]);

/* srv_tls_stat.c: pg_stat_ssl. A session is listed from the end of its startup until it is freed. */
void srv_tls_stat_add(srv_conn_t *c);
void srv_tls_stat_remove(srv_conn_t *c);
/* The rows of pg_stat_ssl (planner.h's PLN_STAT_SSL columns) for every session of the process. */
bool srv_tls_stat_rows(int ncols, cm_arena_t *arena, ty_datum_t ***rows, int *nrows, cm_err_t *err);

#endif
