/*
 * srv_codec_fuzz.c: one entry point that drives the whole codec with
 * arbitrary bytes, for the libFuzzer target in tests/fuzz and for unit tests.
 * It mirrors how a connection uses the codec (one startup packet, then typed
 * messages) without any I/O, and exercises the builders on decoded fields so
 * that a string the decoder let through is also safe to echo back.
 */
#include "server/srv_codec.h"

#include <string.h>

static void srv__fuzz_message(const srv_frame_t *f, cm_buf_t *out, cm_err_t *err)
{
    switch (f->type) {
    case 'Q': {
        srv_msg_query_t q;
        if (srv_decode_query(f->body, f->body_len, &q, err))
            srv_put_command_complete(out, q.sql);
        break;
    }
    case 'P': {
        srv_msg_parse_t p;
        if (srv_decode_parse(f->body, f->body_len, &p, err)) {
            uint32_t oids[8];
            int n = p.nparams < 8 ? p.nparams : 8;
            for (int i = 0; i < n; i++)
                oids[i] = srv_be32_at(p.param_types, i);
            srv_put_parameter_description(out, n, oids);
        }
        break;
    }
    case 'B': {
        srv_msg_bind_t b;
        if (srv_decode_bind(f->body, f->body_len, &b, err)) {
            srv_bind_iter_t it;
            const uint8_t *v;
            int32_t len;
            int i = 0;
            size_t row = srv_data_row_begin(out, b.nparams);
            srv_bind_iter_init(&it, &b);
            while (srv_bind_iter_next(&it, &v, &len)) {
                (void)srv_format_at(b.formats, b.nformats, i++);
                if (len < 0) {
                    srv_data_row_null(out);
                } else {
                    size_t at = srv_data_row_value_begin(out);
                    cm_buf_put(out, v, (size_t)len);
                    srv_data_row_value_finish(out, at);
                }
            }
            srv_msg_finish(out, row);
            for (int k = 0; k < b.nresult_formats; k++)
                (void)srv_format_at(b.result_formats, b.nresult_formats, k);
        }
        break;
    }
    case 'D':
    case 'C': {
        srv_msg_describe_t d;
        bool ok = f->type == 'D' ? srv_decode_describe(f->body, f->body_len, &d, err)
                                 : srv_decode_close(f->body, f->body_len, &d, err);
        if (ok) {
            srv_field_t fld = {.name = d.name, .type_oid = 25, .typlen = -1, .typmod = -1};
            srv_put_row_description(out, 1, &fld);
        }
        break;
    }
    case 'E': {
        srv_msg_execute_t e;
        if (srv_decode_execute(f->body, f->body_len, &e, err))
            srv_put_parameter_status(out, e.portal, "x");
        break;
    }
    case 'p': {
        const char *pw;
        srv_msg_sasl_initial_t s;
        if (srv_decode_password(f->body, f->body_len, &pw, err))
            srv_put_parameter_status(out, "password", pw);
        cm_err_clear(err);
        if (srv_decode_sasl_initial(f->body, f->body_len, &s, err))
            srv_put_authentication(out, 11, s.data, s.data_len);
        break;
    }
    default:
        srv_decode_empty(f->body, f->body_len, err);
        break;
    }
}

int srv_codec_fuzz_one(const uint8_t *data, size_t len)
{
    cm_buf_t out;
    cm_err_t err = {0};
    srv_frame_t f;
    int frames = 0;
    cm_buf_init(&out, 1 << 20);
    if (srv_frame_startup(data, len, SRV_STARTUP_MAX, &f, &err) == SRV_FRAME_OK) {
        srv_startup_t st;
        frames++;
        if (srv_decode_startup(f.body, f.body_len, &st, &err)) {
            for (int i = 0; i < st.nparams; i++)
                srv_put_parameter_status(&out, st.names[i], st.values[i]);
            srv_put_negotiate_protocol_version(&out, SRV_PROTO_3_0, st.nparams, st.names);
        } else {
            srv_put_error(&out, 'E', &err);
        }
        cm_err_clear(&err);
        data += f.total;
        len -= f.total;
        while (srv_frame_next(data, len, 1 << 20, SRV_SMALL_MESSAGE_MAX, &f, &err) == SRV_FRAME_OK) {
            frames++;
            srv__fuzz_message(&f, &out, &err);
            if (err.set)
                srv_put_error(&out, 'E', &err);
            cm_err_clear(&err);
            cm_buf_reset(&out);
            data += f.total;
            len -= f.total;
        }
    }
    cm_err_clear(&err);
    cm_buf_free(&out);
    return frames;
}
