/*
 * srv_codec.c: the pure pgwire codec: read cursor, framing, frontend message
 * decoders and backend message builders. See srv_codec.h for the contract;
 * nothing here does I/O or allocates from a size the peer declared.
 */
#include "server/srv_codec.h"

#include <stdio.h>
#include <string.h>

/* ------------------------------------------------------------ the cursor */

void srv_cur_init(srv_cur_t *c, const uint8_t *p, size_t len)
{
    c->p = p;
    c->len = len;
    c->off = 0;
    c->bad = false;
}

static bool srv__cur_need(srv_cur_t *c, size_t n)
{
    if (c->bad || n > c->len - c->off) {
        c->bad = true;
        return false;
    }
    return true;
}

uint8_t srv_cur_u8(srv_cur_t *c)
{
    if (!srv__cur_need(c, 1))
        return 0;
    return c->p[c->off++];
}

int16_t srv_cur_i16(srv_cur_t *c)
{
    if (!srv__cur_need(c, 2))
        return 0;
    uint16_t v = (uint16_t)((c->p[c->off] << 8) | c->p[c->off + 1]);
    c->off += 2;
    return (int16_t)v;
}

int32_t srv_cur_i32(srv_cur_t *c)
{
    if (!srv__cur_need(c, 4))
        return 0;
    uint32_t v = srv_be32_at(c->p + c->off, 0);
    c->off += 4;
    return (int32_t)v;
}

const char *srv_cur_cstr(srv_cur_t *c)
{
    if (c->bad)
        return NULL;
    const uint8_t *start = c->p + c->off;
    const uint8_t *nul = memchr(start, 0, c->len - c->off);
    if (nul == NULL) {
        c->bad = true;
        return NULL;
    }
    c->off += (size_t)(nul - start) + 1;
    return (const char *)start;
}

const uint8_t *srv_cur_bytes(srv_cur_t *c, size_t n)
{
    if (!srv__cur_need(c, n))
        return NULL;
    const uint8_t *r = c->p + c->off;
    c->off += n;
    return r;
}

size_t srv_cur_left(const srv_cur_t *c)
{
    return c->bad ? 0 : c->len - c->off;
}

bool srv_cur_done(const srv_cur_t *c)
{
    return !c->bad && c->off == c->len;
}

uint32_t srv_be32_at(const uint8_t *p, int i)
{
    p += (size_t)i * 4;
    return ((uint32_t)p[0] << 24) | ((uint32_t)p[1] << 16) | ((uint32_t)p[2] << 8) | p[3];
}

int16_t srv_be16_at(const uint8_t *p, int i)
{
    p += (size_t)i * 2;
    return (int16_t)(uint16_t)((p[0] << 8) | p[1]);
}

/* ------------------------------------------------------------ framing */

srv_frame_rc_t srv_frame_startup(const uint8_t *p, size_t avail, size_t max, srv_frame_t *out,
                                 cm_err_t *err)
{
    if (avail < 4)
        return SRV_FRAME_MORE;
    uint32_t len = srv_be32_at(p, 0);
    /* PostgreSQL drops such a peer without a word; the caller decides. */
    if (len < 8 || len > max) {
        cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
        return SRV_FRAME_BAD;
    }
    if (avail < len)
        return SRV_FRAME_MORE;
    out->type = 0;
    out->body = p + 4;
    out->body_len = len - 4;
    out->total = len;
    return SRV_FRAME_OK;
}

/* Which frontend types exist, and whether they get the small limit. */
static int srv__type_class(uint8_t t)
{
    switch (t) {
    case 'Q': case 'P': case 'B': case 'F': case 'd': case 'p':
        return 2;
    case 'C': case 'D': case 'E': case 'H': case 'S': case 'X': case 'c': case 'f':
        return 1;
    default:
        return 0;
    }
}

srv_frame_rc_t srv_frame_next(const uint8_t *p, size_t avail, size_t max, size_t max_small,
                              srv_frame_t *out, cm_err_t *err)
{
    if (avail < 1)
        return SRV_FRAME_MORE;
    int cls = srv__type_class(p[0]);
    if (cls == 0) {
        cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid frontend message type %d", p[0]);
        return SRV_FRAME_BAD;
    }
    if (avail < 5)
        return SRV_FRAME_MORE;
    uint32_t len = srv_be32_at(p + 1, 0);
    size_t limit = cls == 1 ? max_small : max;
    if (len < 4 || len - 4 > limit) {
        cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid message length");
        return SRV_FRAME_BAD;
    }
    if (avail - 1 < len)
        return SRV_FRAME_MORE;
    out->type = p[0];
    out->body = p + 5;
    out->body_len = len - 4;
    out->total = (size_t)len + 1;
    return SRV_FRAME_OK;
}

/* ------------------------------------------------------------ decoders */

static bool srv__malformed(cm_err_t *err, const char *what)
{
    return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid %s message format", what);
}

bool srv_decode_startup(const uint8_t *body, size_t len, srv_startup_t *out, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    uint32_t code = (uint32_t)srv_cur_i32(&c);
    out->nparams = 0;
    out->version = code;
    if (code == SRV_SSL_REQUEST_CODE || code == SRV_GSSENC_REQUEST_CODE) {
        out->kind = code == SRV_SSL_REQUEST_CODE ? SRV_STARTUP_SSL : SRV_STARTUP_GSSENC;
        if (!srv_cur_done(&c))
            return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
        return true;
    }
    if (code == SRV_CANCEL_REQUEST_CODE) {
        out->kind = SRV_STARTUP_CANCEL;
        out->cancel_pid = srv_cur_i32(&c);
        out->cancel_secret = srv_cur_i32(&c);
        if (!srv_cur_done(&c))
            return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid length of startup packet");
        return true;
    }
    out->kind = SRV_STARTUP_MESSAGE;
    if ((code >> 16) != 3)
        return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                          "unsupported frontend protocol %u.%u: server supports 3.0 to 3.0",
                          code >> 16, code & 0xffff);
    /* The pairs end with one NUL, which must be the very last byte. */
    if (len < 5 || body[len - 1] != 0)
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
                          "invalid startup packet layout: expected terminator as last byte");
    while (srv_cur_left(&c) > 1) {
        const char *name = srv_cur_cstr(&c);
        const char *value = srv_cur_cstr(&c);
        if (name == NULL || value == NULL || srv_cur_left(&c) < 1)
            return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
                              "invalid startup packet layout: expected terminator as last byte");
        if (out->nparams == SRV_STARTUP_PARAMS_MAX)
            return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "too many startup parameters");
        out->names[out->nparams] = name;
        out->values[out->nparams] = value;
        out->nparams++;
    }
    srv_cur_u8(&c);
    if (!srv_cur_done(&c))
        return srv__malformed(err, "startup");
    return true;
}

bool srv_decode_query(const uint8_t *body, size_t len, srv_msg_query_t *out, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->sql = srv_cur_cstr(&c);
    if (!srv_cur_done(&c))
        return srv__malformed(err, "Query");
    out->len = len - 1;
    return true;
}

bool srv_decode_parse(const uint8_t *body, size_t len, srv_msg_parse_t *out, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->name = srv_cur_cstr(&c);
    size_t sql_at = c.off;
    out->sql = srv_cur_cstr(&c);
    out->sql_len = c.bad ? 0 : c.off - sql_at - 1;
    int16_t n = srv_cur_i16(&c);
    if (n < 0)
        return srv__malformed(err, "Parse");
    out->nparams = n;
    out->param_types = srv_cur_bytes(&c, (size_t)n * 4);
    if (!srv_cur_done(&c))
        return srv__malformed(err, "Parse");
    return true;
}

static const uint8_t *srv__formats(srv_cur_t *c, int *n)
{
    int16_t k = srv_cur_i16(c);
    if (k < 0) {
        c->bad = true;
        return NULL;
    }
    *n = k;
    return srv_cur_bytes(c, (size_t)k * 2);
}

bool srv_decode_bind(const uint8_t *body, size_t len, srv_msg_bind_t *out, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->portal = srv_cur_cstr(&c);
    out->stmt = srv_cur_cstr(&c);
    out->formats = srv__formats(&c, &out->nformats);
    int16_t n = srv_cur_i16(&c);
    if (c.bad || n < 0)
        return srv__malformed(err, "Bind");
    out->nparams = n;
    size_t params_at = c.off;
    out->params = c.p + c.off;
    /* Walk the values once so later passes need no checks of their own. */
    for (int i = 0; i < n; i++) {
        int32_t vlen = srv_cur_i32(&c);
        if (vlen < -1)
            return srv__malformed(err, "Bind");
        if (vlen > 0)
            srv_cur_bytes(&c, (size_t)vlen);
        if (c.bad)
            return srv__malformed(err, "Bind");
    }
    out->params_len = c.off - params_at;
    out->result_formats = srv__formats(&c, &out->nresult_formats);
    if (!srv_cur_done(&c))
        return srv__malformed(err, "Bind");
    if (out->nformats > 1 && out->nformats != out->nparams)
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION,
                          "bind message has %d parameter formats but %d parameters", out->nformats,
                          out->nparams);
    return true;
}

void srv_bind_iter_init(srv_bind_iter_t *it, const srv_msg_bind_t *b)
{
    srv_cur_init(&it->cur, b->params, b->params_len);
    it->left = b->nparams;
}

bool srv_bind_iter_next(srv_bind_iter_t *it, const uint8_t **value, int32_t *len)
{
    if (it->left <= 0)
        return false;
    it->left--;
    int32_t n = srv_cur_i32(&it->cur);
    *len = n;
    *value = n >= 0 ? srv_cur_bytes(&it->cur, (size_t)n) : NULL;
    if (it->cur.bad) {
        /* Cannot happen after srv_decode_bind validated the values. */
        *len = -1;
        *value = NULL;
        return false;
    }
    return true;
}

int16_t srv_format_at(const uint8_t *formats, int nformats, int i)
{
    if (nformats == 0)
        return 0;
    if (nformats == 1)
        return srv_be16_at(formats, 0);
    return i < nformats ? srv_be16_at(formats, i) : 0;
}

static bool srv__decode_target(const uint8_t *body, size_t len, srv_msg_describe_t *out,
                               cm_err_t *err, const char *what)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->what = (char)srv_cur_u8(&c);
    out->name = srv_cur_cstr(&c);
    if (!srv_cur_done(&c))
        return srv__malformed(err, what);
    if (out->what != 'S' && out->what != 'P')
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid %s message subtype %d",
                          strcmp(what, "Close") == 0 ? "CLOSE" : "DESCRIBE", out->what);
    return true;
}

bool srv_decode_describe(const uint8_t *body, size_t len, srv_msg_describe_t *out, cm_err_t *err)
{
    return srv__decode_target(body, len, out, err, "Describe");
}

bool srv_decode_close(const uint8_t *body, size_t len, srv_msg_describe_t *out, cm_err_t *err)
{
    return srv__decode_target(body, len, out, err, "Close");
}

bool srv_decode_execute(const uint8_t *body, size_t len, srv_msg_execute_t *out, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->portal = srv_cur_cstr(&c);
    out->max_rows = srv_cur_i32(&c);
    if (!srv_cur_done(&c))
        return srv__malformed(err, "Execute");
    if (out->max_rows < 0)
        out->max_rows = 0;
    return true;
}

bool srv_decode_empty(const uint8_t *body, size_t len, cm_err_t *err)
{
    (void)body;
    if (len != 0)
        return srv__malformed(err, "frontend");
    return true;
}

bool srv_decode_password(const uint8_t *body, size_t len, const char **password, cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    *password = srv_cur_cstr(&c);
    if (!srv_cur_done(&c))
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "invalid password packet size");
    return true;
}

bool srv_decode_sasl_initial(const uint8_t *body, size_t len, srv_msg_sasl_initial_t *out,
                             cm_err_t *err)
{
    srv_cur_t c;
    srv_cur_init(&c, body, len);
    out->mechanism = srv_cur_cstr(&c);
    int32_t n = srv_cur_i32(&c);
    if (n < -1)
        c.bad = true;
    out->data_len = n > 0 ? (size_t)n : 0;
    out->data = n >= 0 ? srv_cur_bytes(&c, (size_t)n) : NULL;
    if (!srv_cur_done(&c))
        return cm_err_set(err, CM_ERRCODE_PROTOCOL_VIOLATION, "malformed SASLInitialResponse message");
    return true;
}

/* ------------------------------------------------------------ builders */

size_t srv_msg_begin(cm_buf_t *b, char type)
{
    cm_buf_put_u8(b, (uint8_t)type);
    size_t at = b->len;
    cm_buf_put_be32(b, 0);
    return at;
}

void srv_msg_finish(cm_buf_t *b, size_t at)
{
    if (b->failed)
        return;
    cm_buf_set_be32(b, at, (uint32_t)(b->len - at));
}

void srv_put_authentication(cm_buf_t *b, int32_t code, const void *data, size_t len)
{
    size_t at = srv_msg_begin(b, 'R');
    cm_buf_put_be32(b, (uint32_t)code);
    cm_buf_put(b, data, len);
    srv_msg_finish(b, at);
}

void srv_put_authentication_sasl(cm_buf_t *b, const char *mechanism)
{
    size_t at = srv_msg_begin(b, 'R');
    cm_buf_put_be32(b, 10);
    cm_buf_put_cstr(b, mechanism);
    cm_buf_put_u8(b, 0);
    srv_msg_finish(b, at);
}

void srv_put_authentication_sasl_mechs(cm_buf_t *b, const char *const *mechanisms, int n)
{
    size_t at = srv_msg_begin(b, 'R');
    cm_buf_put_be32(b, 10);
    for (int i = 0; i < n; i++)
        cm_buf_put_cstr(b, mechanisms[i]);
    cm_buf_put_u8(b, 0);
    srv_msg_finish(b, at);
}

void srv_put_parameter_status(cm_buf_t *b, const char *name, const char *value)
{
    size_t at = srv_msg_begin(b, 'S');
    cm_buf_put_cstr(b, name);
    cm_buf_put_cstr(b, value);
    srv_msg_finish(b, at);
}

void srv_put_backend_key_data(cm_buf_t *b, int32_t pid, int32_t secret)
{
    size_t at = srv_msg_begin(b, 'K');
    cm_buf_put_be32(b, (uint32_t)pid);
    cm_buf_put_be32(b, (uint32_t)secret);
    srv_msg_finish(b, at);
}

void srv_put_ready_for_query(cm_buf_t *b, char status)
{
    size_t at = srv_msg_begin(b, 'Z');
    cm_buf_put_u8(b, (uint8_t)status);
    srv_msg_finish(b, at);
}

void srv_put_command_complete(cm_buf_t *b, const char *tag)
{
    size_t at = srv_msg_begin(b, 'C');
    cm_buf_put_cstr(b, tag);
    srv_msg_finish(b, at);
}

void srv_put_empty_message(cm_buf_t *b, char type)
{
    size_t at = srv_msg_begin(b, type);
    srv_msg_finish(b, at);
}

void srv_put_negotiate_protocol_version(cm_buf_t *b, uint32_t newest, int n,
                                        const char *const *options)
{
    size_t at = srv_msg_begin(b, 'v');
    cm_buf_put_be32(b, newest);
    cm_buf_put_be32(b, (uint32_t)n);
    for (int i = 0; i < n; i++)
        cm_buf_put_cstr(b, options[i]);
    srv_msg_finish(b, at);
}

static void srv__put_field(cm_buf_t *b, char code, const char *value)
{
    if (value == NULL)
        return;
    cm_buf_put_u8(b, (uint8_t)code);
    cm_buf_put_cstr(b, value);
}

void srv_put_error(cm_buf_t *b, char type, const cm_err_t *e)
{
    size_t at = srv_msg_begin(b, type);
    const char *sev = cm_severity_name(e->severity);
    srv__put_field(b, 'S', sev);
    srv__put_field(b, 'V', sev);
    srv__put_field(b, 'C', e->sqlstate[0] ? e->sqlstate : CM_ERRCODE_INTERNAL_ERROR);
    srv__put_field(b, 'M', e->message ? e->message : "");
    srv__put_field(b, 'D', e->detail);
    srv__put_field(b, 'H', e->hint);
    srv__put_field(b, 'W', e->context);
    if (e->position > 0) {
        char pos[16];
        snprintf(pos, sizeof pos, "%d", e->position);
        srv__put_field(b, 'P', pos);
    }
    cm_buf_put_u8(b, 0);
    srv_msg_finish(b, at);
}

void srv_put_parameter_description(cm_buf_t *b, int n, const uint32_t *oids)
{
    size_t at = srv_msg_begin(b, 't');
    cm_buf_put_be16(b, (uint16_t)n);
    for (int i = 0; i < n; i++)
        cm_buf_put_be32(b, oids[i]);
    srv_msg_finish(b, at);
}

void srv_put_row_description(cm_buf_t *b, int n, const srv_field_t *f)
{
    size_t at = srv_msg_begin(b, 'T');
    cm_buf_put_be16(b, (uint16_t)n);
    for (int i = 0; i < n; i++) {
        cm_buf_put_cstr(b, f[i].name);
        cm_buf_put_be32(b, f[i].table_oid);
        cm_buf_put_be16(b, (uint16_t)f[i].attnum);
        cm_buf_put_be32(b, f[i].type_oid);
        cm_buf_put_be16(b, (uint16_t)f[i].typlen);
        cm_buf_put_be32(b, (uint32_t)f[i].typmod);
        cm_buf_put_be16(b, (uint16_t)f[i].format);
    }
    srv_msg_finish(b, at);
}

size_t srv_data_row_begin(cm_buf_t *b, int ncols)
{
    size_t at = srv_msg_begin(b, 'D');
    cm_buf_put_be16(b, (uint16_t)ncols);
    return at;
}

void srv_data_row_null(cm_buf_t *b)
{
    cm_buf_put_be32(b, 0xffffffffu);
}

size_t srv_data_row_value_begin(cm_buf_t *b)
{
    size_t at = b->len;
    cm_buf_put_be32(b, 0);
    return at;
}

void srv_data_row_value_finish(cm_buf_t *b, size_t at)
{
    if (b->failed)
        return;
    cm_buf_set_be32(b, at, (uint32_t)(b->len - at - 4));
}
