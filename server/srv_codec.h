/*
 * srv_codec.h: the pure pgwire codec (protocol 3.0), internal to server/.
 *
 * No I/O, no libuv, no allocation from peer-declared sizes before they are
 * checked: a fuzzer links this file alone (with common/). Peer bytes are read
 * only through srv_cur_t, a bounds-checked cursor with a sticky failure flag;
 * every decoder ends by checking that its message was consumed exactly.
 * Backend messages are built with begin / put / finish into a cm_buf_t, whose
 * own sticky flag records a failed put (DESIGN §10.1-10.3).
 */
#ifndef EDDY_SRV_CODEC_H
#define EDDY_SRV_CODEC_H

#include "common/common.h"

/* Protocol constants, as PostgreSQL's pqcomm.h names them. */
#define SRV_PROTO_3_0 196608u                 /* 3 << 16 */
#define SRV_CANCEL_REQUEST_CODE 80877102u     /* 1234 << 16 | 5678 */
#define SRV_SSL_REQUEST_CODE 80877103u
#define SRV_GSSENC_REQUEST_CODE 80877104u
#define SRV_STARTUP_MAX 10000u                /* MAX_STARTUP_PACKET_LENGTH */
#define SRV_SMALL_MESSAGE_MAX 10000u          /* PQ_SMALL_MESSAGE_LIMIT */
#define SRV_AUTH_TOKEN_MAX 65535u             /* PG_MAX_AUTH_TOKEN_LENGTH */
#define SRV_STARTUP_PARAMS_MAX 64             /* name/value pairs kept from a startup packet */
#define SRV_FORMATS_MAX 1664                  /* PostgreSQL's MaxTupleAttributeNumber */
#define SRV_PARAMS_MAX 65535                  /* Int16 count on the wire */

/* ------------------------------------------------------------ the cursor */

/*
 * A read cursor over one message body. Every read checks bounds; a read past
 * the end sets `bad` and returns zero / NULL, and `bad` never clears, so a
 * decoder may read all fields and check once.
 */
typedef struct srv_cur {
    const uint8_t *p;
    size_t len;
    size_t off;
    bool bad;
} srv_cur_t;

void srv_cur_init(srv_cur_t *c, const uint8_t *p, size_t len);
uint8_t srv_cur_u8(srv_cur_t *c);
int16_t srv_cur_i16(srv_cur_t *c);
int32_t srv_cur_i32(srv_cur_t *c);
/* A NUL-terminated string inside the body: points into it, never past it. */
const char *srv_cur_cstr(srv_cur_t *c);
/* n raw bytes (points into the body). */
const uint8_t *srv_cur_bytes(srv_cur_t *c, size_t n);
size_t srv_cur_left(const srv_cur_t *c);
/* "Fully consumed": nothing bad happened and nothing is left over. */
bool srv_cur_done(const srv_cur_t *c);

/* ------------------------------------------------------------ framing */

typedef enum srv_frame_rc {
    SRV_FRAME_MORE = 0,   /* not a whole message yet */
    SRV_FRAME_OK,
    SRV_FRAME_BAD,        /* err says why; the connection cannot resynchronise */
} srv_frame_rc_t;

typedef struct srv_frame {
    uint8_t type;          /* 0 for the untyped first packets */
    const uint8_t *body;   /* after the length word */
    size_t body_len;
    size_t total;          /* bytes this frame occupies in the input */
} srv_frame_t;

/*
 * The first packets of a connection have no type byte: Int32 len | body.
 * 8 <= len <= max (PostgreSQL: 10000), checked before anything else is read.
 */
srv_frame_rc_t srv_frame_startup(const uint8_t *p, size_t avail, size_t max, srv_frame_t *out,
                                 cm_err_t *err);

/*
 * A typed frontend message: the type byte is checked before the length (an
 * unknown type means the length is garbage too); then 4 <= len and len-4 <=
 * the limit for that type (`max_small` for Sync, Flush, Close, Describe,
 * Execute, Terminate, CopyDone, CopyFail; `max` for the rest).
 */
srv_frame_rc_t srv_frame_next(const uint8_t *p, size_t avail, size_t max, size_t max_small,
                              srv_frame_t *out, cm_err_t *err);

/* ------------------------------------------------------------ decoders */

/* Decoders return false with err set (08P01 unless stated) on malformed input. */

typedef enum srv_startup_kind {
    SRV_STARTUP_MESSAGE,
    SRV_STARTUP_SSL,
    SRV_STARTUP_GSSENC,
    SRV_STARTUP_CANCEL,
} srv_startup_kind_t;

typedef struct srv_startup {
    srv_startup_kind_t kind;
    uint32_t version;                 /* SRV_STARTUP_MESSAGE */
    int nparams;                      /* name/value pairs, pointing into the body */
    const char *names[SRV_STARTUP_PARAMS_MAX];
    const char *values[SRV_STARTUP_PARAMS_MAX];
    int32_t cancel_pid;               /* SRV_STARTUP_CANCEL */
    int32_t cancel_secret;
} srv_startup_t;

/*
 * Decodes the body of an untyped first packet. An unsupported major version
 * fails with 0A000; more than SRV_STARTUP_PARAMS_MAX pairs with 08P01.
 */
bool srv_decode_startup(const uint8_t *body, size_t len, srv_startup_t *out, cm_err_t *err);

typedef struct srv_msg_query {
    const char *sql;
    size_t len;
} srv_msg_query_t;
bool srv_decode_query(const uint8_t *body, size_t len, srv_msg_query_t *out, cm_err_t *err);

typedef struct srv_msg_parse {
    const char *name;
    const char *sql;
    size_t sql_len;
    int nparams;
    const uint8_t *param_types;   /* nparams big-endian Int32 OIDs: read with srv_be32_at */
} srv_msg_parse_t;
bool srv_decode_parse(const uint8_t *body, size_t len, srv_msg_parse_t *out, cm_err_t *err);

typedef struct srv_msg_bind {
    const char *portal;
    const char *stmt;
    int nformats;                 /* 0, 1 or nparams */
    const uint8_t *formats;       /* big-endian Int16s */
    int nparams;
    const uint8_t *params;        /* nparams of {Int32 len | -1, bytes}, already validated */
    size_t params_len;            /* bytes those values occupy */
    int nresult_formats;
    const uint8_t *result_formats;
} srv_msg_bind_t;
bool srv_decode_bind(const uint8_t *body, size_t len, srv_msg_bind_t *out, cm_err_t *err);

/* Walks the validated parameter values of a Bind; returns false at the end. */
typedef struct srv_bind_iter {
    srv_cur_t cur;
    int left;
} srv_bind_iter_t;
void srv_bind_iter_init(srv_bind_iter_t *it, const srv_msg_bind_t *b);
bool srv_bind_iter_next(srv_bind_iter_t *it, const uint8_t **value, int32_t *len);

/* Format code of parameter / column i under the 0 / 1 / N rule. */
int16_t srv_format_at(const uint8_t *formats, int nformats, int i);

typedef struct srv_msg_describe {
    char what;                    /* 'S' statement or 'P' portal */
    const char *name;
} srv_msg_describe_t;
bool srv_decode_describe(const uint8_t *body, size_t len, srv_msg_describe_t *out, cm_err_t *err);
/* Close has the same layout as Describe. */
bool srv_decode_close(const uint8_t *body, size_t len, srv_msg_describe_t *out, cm_err_t *err);

typedef struct srv_msg_execute {
    const char *portal;
    int32_t max_rows;             /* 0 = all; negative is treated as all, as PostgreSQL does */
} srv_msg_execute_t;
bool srv_decode_execute(const uint8_t *body, size_t len, srv_msg_execute_t *out, cm_err_t *err);

/* Sync, Flush, Terminate: an empty body. */
bool srv_decode_empty(const uint8_t *body, size_t len, cm_err_t *err);

/* PasswordMessage 'p' carrying a cleartext password: exactly strlen + 1 bytes. */
bool srv_decode_password(const uint8_t *body, size_t len, const char **password, cm_err_t *err);

typedef struct srv_msg_sasl_initial {
    const char *mechanism;
    const uint8_t *data;          /* NULL when the client sent length -1 */
    size_t data_len;
} srv_msg_sasl_initial_t;
bool srv_decode_sasl_initial(const uint8_t *body, size_t len, srv_msg_sasl_initial_t *out,
                             cm_err_t *err);

/* Unaligned big-endian reads of arrays already inside a validated body. */
uint32_t srv_be32_at(const uint8_t *p, int i);
int16_t srv_be16_at(const uint8_t *p, int i);

/* ------------------------------------------------------------ builders */

/*
 * begin / put / finish: begin writes the type byte and a placeholder length
 * and returns where the length lives; finish patches it. Puts are cm_buf_*
 * calls; a failed put (buffer cap) leaves b->failed set for the caller.
 */
size_t srv_msg_begin(cm_buf_t *b, char type);
void srv_msg_finish(cm_buf_t *b, size_t at);

/* Backend messages, named as PostgreSQL names them. */
void srv_put_authentication(cm_buf_t *b, int32_t code, const void *data, size_t len);
void srv_put_authentication_sasl(cm_buf_t *b, const char *mechanism);
/* AuthenticationSASL listing several mechanisms, the preferred first. */
void srv_put_authentication_sasl_mechs(cm_buf_t *b, const char *const *mechanisms, int n);
void srv_put_parameter_status(cm_buf_t *b, const char *name, const char *value);
void srv_put_backend_key_data(cm_buf_t *b, int32_t pid, int32_t secret);
void srv_put_ready_for_query(cm_buf_t *b, char status);
void srv_put_command_complete(cm_buf_t *b, const char *tag);
/* ParseComplete '1', BindComplete '2', CloseComplete '3', NoData 'n',
 * EmptyQueryResponse 'I', PortalSuspended 's': a type and length 4. */
void srv_put_empty_message(cm_buf_t *b, char type);
/* `newest` is the whole protocol number the server speaks (3.0: SRV_PROTO_3_0),
 * as PostgreSQL sends it, not only its minor part. */
void srv_put_negotiate_protocol_version(cm_buf_t *b, uint32_t newest, int n,
                                        const char *const *options);
/* ErrorResponse 'E' or NoticeResponse 'N' from an error record (S, V, C, M, D, H, P). */
void srv_put_error(cm_buf_t *b, char type, const cm_err_t *e);
void srv_put_parameter_description(cm_buf_t *b, int n, const uint32_t *oids);

typedef struct srv_field {
    const char *name;
    uint32_t table_oid;
    int16_t attnum;
    uint32_t type_oid;
    int16_t typlen;
    int32_t typmod;
    int16_t format;
} srv_field_t;
void srv_put_row_description(cm_buf_t *b, int n, const srv_field_t *fields);

/* DataRow: begin, then per column null or begin/finish around the value bytes. */
size_t srv_data_row_begin(cm_buf_t *b, int ncols);
void srv_data_row_null(cm_buf_t *b);
size_t srv_data_row_value_begin(cm_buf_t *b);
void srv_data_row_value_finish(cm_buf_t *b, size_t at);

/* ------------------------------------------------------------ fuzzing */

/*
 * Drives every decoder and builder with arbitrary bytes: first an untyped
 * startup packet, then typed messages until the input ends or is malformed.
 * Never crashes, never reads out of bounds, returns the number of frames
 * decoded (a fuzzer ignores it; tests use it).
 */
int srv_codec_fuzz_one(const uint8_t *data, size_t len);

#endif
