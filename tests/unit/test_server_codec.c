/* test_server_codec.c: unit tests of the pgwire codec (framing, length checks, decoders, builders). */
#include "common/common.h"
#include "server/srv_codec.h"
#include "tests/unit/unit.h"

#include <stdlib.h>

/* Builds a typed frontend message in b: type, length, then body bytes. */
static void msg(cm_buf_t *b, char type, const void *body, size_t n)
{
    cm_buf_put_u8(b, (uint8_t)type);
    cm_buf_put_be32(b, (uint32_t)(n + 4));
    cm_buf_put(b, body, n);
}

static void test_cursor_bounds(void)
{
    const uint8_t d[] = {0, 1, 0, 0, 0, 2, 'a', 'b', 0, 'c'};
    srv_cur_t c;
    srv_cur_init(&c, d, sizeof d);
    UNIT_CHECK(srv_cur_i16(&c) == 1);
    UNIT_CHECK(srv_cur_i32(&c) == 2);
    UNIT_CHECK_STR(srv_cur_cstr(&c), "ab");
    UNIT_CHECK(!srv_cur_done(&c));
    UNIT_CHECK(srv_cur_cstr(&c) == NULL);   /* "c" has no terminator inside the body */
    UNIT_CHECK(c.bad && !srv_cur_done(&c));
    UNIT_CHECK(srv_cur_u8(&c) == 0);        /* sticky */
    srv_cur_init(&c, d, 3);
    UNIT_CHECK(srv_cur_i32(&c) == 0 && c.bad);
    srv_cur_init(&c, d, 2);
    UNIT_CHECK(srv_cur_bytes(&c, 3) == NULL && c.bad);
}

static void test_frame_startup_lengths(void)
{
    cm_err_t e = {0};
    srv_frame_t f;
    uint8_t p[16] = {0, 0, 0, 8, 4, 0xd2, 0x16, 0x2f};   /* SSLRequest */
    UNIT_CHECK(srv_frame_startup(p, 3, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_MORE);
    UNIT_CHECK(srv_frame_startup(p, 7, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_MORE);
    UNIT_CHECK(srv_frame_startup(p, 8, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_OK);
    UNIT_CHECK(f.total == 8 && f.body_len == 4);
    srv_startup_t st;
    UNIT_CHECK(srv_decode_startup(f.body, f.body_len, &st, &e) && st.kind == SRV_STARTUP_SSL);
    p[3] = 7;   /* below the minimum */
    UNIT_CHECK(srv_frame_startup(p, 8, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_BAD);
    UNIT_CHECK_STR(e.sqlstate, "08P01");
    cm_err_clear(&e);
    uint8_t big[4] = {0, 0, 0x27, 0x11};   /* 10001 */
    UNIT_CHECK(srv_frame_startup(big, 4, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
    uint8_t huge[4] = {0xff, 0xff, 0xff, 0xff};
    UNIT_CHECK(srv_frame_startup(huge, 4, SRV_STARTUP_MAX, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
}

static void test_decode_startup_message(void)
{
    cm_buf_t b;
    cm_err_t e = {0};
    srv_startup_t st;
    cm_buf_init(&b, 0);
    cm_buf_put_be32(&b, SRV_PROTO_3_0);
    cm_buf_put_cstr(&b, "user");
    cm_buf_put_cstr(&b, "alice");
    cm_buf_put_cstr(&b, "database");
    cm_buf_put_cstr(&b, "eddy");
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(srv_decode_startup(b.data, b.len, &st, &e));
    UNIT_CHECK(st.kind == SRV_STARTUP_MESSAGE && st.nparams == 2);
    UNIT_CHECK_STR(st.names[0], "user");
    UNIT_CHECK_STR(st.values[1], "eddy");
    /* Missing final terminator. */
    UNIT_CHECK(!srv_decode_startup(b.data, b.len - 1, &st, &e));
    UNIT_CHECK_STR(e.sqlstate, "08P01");
    cm_err_clear(&e);
    /* A name without a value. */
    cm_buf_reset(&b);
    cm_buf_put_be32(&b, SRV_PROTO_3_0);
    cm_buf_put_cstr(&b, "user");
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(!srv_decode_startup(b.data, b.len, &st, &e));
    cm_err_clear(&e);
    /* Protocol 2.0 and 4.0 are refused with 0A000. */
    cm_buf_reset(&b);
    cm_buf_put_be32(&b, 2u << 16);
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(!srv_decode_startup(b.data, b.len, &st, &e));
    UNIT_CHECK_STR(e.sqlstate, "0A000");
    cm_err_clear(&e);
    /* 3.2 decodes; the caller negotiates the minor version down. */
    cm_buf_reset(&b);
    cm_buf_put_be32(&b, SRV_PROTO_3_0 | 2);
    cm_buf_put_cstr(&b, "user");
    cm_buf_put_cstr(&b, "x");
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(srv_decode_startup(b.data, b.len, &st, &e) && (st.version & 0xffff) == 2);
    /* CancelRequest must be exactly 16 bytes. */
    cm_buf_reset(&b);
    cm_buf_put_be32(&b, SRV_CANCEL_REQUEST_CODE);
    cm_buf_put_be32(&b, 7);
    cm_buf_put_be32(&b, 0xdeadbeef);
    UNIT_CHECK(srv_decode_startup(b.data, b.len, &st, &e) && st.kind == SRV_STARTUP_CANCEL);
    UNIT_CHECK(st.cancel_pid == 7 && (uint32_t)st.cancel_secret == 0xdeadbeef);
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(!srv_decode_startup(b.data, b.len, &st, &e));
    cm_err_clear(&e);
    /* Too many parameters. */
    cm_buf_reset(&b);
    cm_buf_put_be32(&b, SRV_PROTO_3_0);
    for (int i = 0; i < SRV_STARTUP_PARAMS_MAX + 1; i++) {
        cm_buf_put_cstr(&b, "a");
        cm_buf_put_cstr(&b, "b");
    }
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(!srv_decode_startup(b.data, b.len, &st, &e));
    cm_err_clear(&e);
    cm_buf_free(&b);
}

static void test_frame_typed(void)
{
    cm_buf_t b;
    cm_err_t e = {0};
    srv_frame_t f;
    cm_buf_init(&b, 0);
    msg(&b, 'Q', "SELECT 1", 9);
    msg(&b, 'S', NULL, 0);
    UNIT_CHECK(srv_frame_next(b.data, 4, 100, 10, &f, &e) == SRV_FRAME_MORE);
    UNIT_CHECK(srv_frame_next(b.data, 13, 100, 10, &f, &e) == SRV_FRAME_MORE);
    UNIT_CHECK(srv_frame_next(b.data, b.len, 100, 10, &f, &e) == SRV_FRAME_OK);
    UNIT_CHECK(f.type == 'Q' && f.body_len == 9 && f.total == 14);
    srv_msg_query_t q;
    UNIT_CHECK(srv_decode_query(f.body, f.body_len, &q, &e) && q.len == 8);
    UNIT_CHECK(srv_frame_next(b.data + 14, b.len - 14, 100, 10, &f, &e) == SRV_FRAME_OK);
    UNIT_CHECK(f.type == 'S' && f.body_len == 0 && srv_decode_empty(f.body, 0, &e));
    /* Unknown type is refused before the length is looked at. */
    uint8_t bad[1] = {'?'};
    UNIT_CHECK(srv_frame_next(bad, 1, 100, 10, &f, &e) == SRV_FRAME_BAD);
    UNIT_CHECK(strstr(e.message, "invalid frontend message type 63") != NULL);
    cm_err_clear(&e);
    /* Length below 4, above the limit, and the small limit for Sync. */
    uint8_t l3[5] = {'Q', 0, 0, 0, 3};
    UNIT_CHECK(srv_frame_next(l3, 5, 100, 10, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
    uint8_t l105[5] = {'Q', 0, 0, 0, 105};
    UNIT_CHECK(srv_frame_next(l105, 5, 100, 10, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
    uint8_t l104[5] = {'Q', 0, 0, 0, 104};
    UNIT_CHECK(srv_frame_next(l104, 5, 100, 10, &f, &e) == SRV_FRAME_MORE);
    uint8_t s15[5] = {'S', 0, 0, 0, 15};
    UNIT_CHECK(srv_frame_next(s15, 5, 100, 10, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
    uint8_t neg[5] = {'P', 0x80, 0, 0, 0};
    UNIT_CHECK(srv_frame_next(neg, 5, 100, 10, &f, &e) == SRV_FRAME_BAD);
    cm_err_clear(&e);
    /* Query text without its terminator, and with bytes after it. */
    UNIT_CHECK(!srv_decode_query((const uint8_t *)"abc", 3, &q, &e));
    cm_err_clear(&e);
    UNIT_CHECK(!srv_decode_query((const uint8_t *)"a\0b", 3, &q, &e));
    cm_err_clear(&e);
    /* Sync with a body. */
    UNIT_CHECK(!srv_decode_empty((const uint8_t *)"x", 1, &e));
    cm_err_clear(&e);
    cm_buf_free(&b);
}

static void test_decode_parse(void)
{
    cm_buf_t b;
    cm_err_t e = {0};
    srv_msg_parse_t p;
    cm_buf_init(&b, 0);
    cm_buf_put_cstr(&b, "s1");
    cm_buf_put_cstr(&b, "SELECT $1");
    cm_buf_put_be16(&b, 2);
    cm_buf_put_be32(&b, 23);
    cm_buf_put_be32(&b, 0);
    UNIT_CHECK(srv_decode_parse(b.data, b.len, &p, &e));
    UNIT_CHECK_STR(p.name, "s1");
    UNIT_CHECK(p.sql_len == 9 && p.nparams == 2 && srv_be32_at(p.param_types, 0) == 23);
    UNIT_CHECK(!srv_decode_parse(b.data, b.len - 1, &p, &e));   /* truncated OID */
    cm_err_clear(&e);
    cm_buf_put_u8(&b, 0);
    UNIT_CHECK(!srv_decode_parse(b.data, b.len, &p, &e));       /* trailing byte */
    cm_err_clear(&e);
    /* A count that claims more OIDs than the body holds. */
    cm_buf_reset(&b);
    cm_buf_put_cstr(&b, "");
    cm_buf_put_cstr(&b, "x");
    cm_buf_put_be16(&b, 30000);
    UNIT_CHECK(!srv_decode_parse(b.data, b.len, &p, &e));
    cm_err_clear(&e);
    cm_buf_reset(&b);
    cm_buf_put_cstr(&b, "");
    cm_buf_put_cstr(&b, "x");
    cm_buf_put_be16(&b, 0xffff);   /* negative */
    UNIT_CHECK(!srv_decode_parse(b.data, b.len, &p, &e));
    cm_err_clear(&e);
    cm_buf_free(&b);
}

static void test_decode_bind(void)
{
    cm_buf_t b;
    cm_err_t e = {0};
    srv_msg_bind_t m;
    cm_buf_init(&b, 0);
    cm_buf_put_cstr(&b, "p");
    cm_buf_put_cstr(&b, "s");
    cm_buf_put_be16(&b, 1);
    cm_buf_put_be16(&b, 1);        /* all binary */
    cm_buf_put_be16(&b, 3);
    cm_buf_put_be32(&b, 4);
    cm_buf_put_be32(&b, 42);
    cm_buf_put_be32(&b, 0xffffffffu);   /* NULL */
    cm_buf_put_be32(&b, 0);             /* empty */
    cm_buf_put_be16(&b, 2);
    cm_buf_put_be16(&b, 0);
    cm_buf_put_be16(&b, 1);
    UNIT_CHECK(srv_decode_bind(b.data, b.len, &m, &e));
    UNIT_CHECK(m.nparams == 3 && m.nformats == 1 && m.nresult_formats == 2);
    UNIT_CHECK(srv_format_at(m.formats, m.nformats, 2) == 1);
    UNIT_CHECK(srv_format_at(m.result_formats, m.nresult_formats, 1) == 1);
    UNIT_CHECK(srv_format_at(NULL, 0, 5) == 0);
    srv_bind_iter_t it;
    const uint8_t *v;
    int32_t len;
    srv_bind_iter_init(&it, &m);
    UNIT_CHECK(srv_bind_iter_next(&it, &v, &len) && len == 4 && srv_be32_at(v, 0) == 42);
    UNIT_CHECK(srv_bind_iter_next(&it, &v, &len) && len == -1 && v == NULL);
    UNIT_CHECK(srv_bind_iter_next(&it, &v, &len) && len == 0);
    UNIT_CHECK(!srv_bind_iter_next(&it, &v, &len));
    /* Every truncation point of the message fails cleanly. */
    for (size_t n = 0; n < b.len; n++) {
        UNIT_CHECK(!srv_decode_bind(b.data, n, &m, &e));
        cm_err_clear(&e);
    }
    /* A value length beyond the body, and a length below -1. */
    cm_buf_reset(&b);
    cm_buf_put_cstr(&b, "");
    cm_buf_put_cstr(&b, "");
    cm_buf_put_be16(&b, 0);
    cm_buf_put_be16(&b, 1);
    cm_buf_put_be32(&b, 0x7fffffff);
    cm_buf_put_be16(&b, 0);
    UNIT_CHECK(!srv_decode_bind(b.data, b.len, &m, &e));
    cm_err_clear(&e);
    cm_buf_set_be32(&b, 6, 0xfffffffe);
    UNIT_CHECK(!srv_decode_bind(b.data, b.len, &m, &e));
    cm_err_clear(&e);
    /* Two formats for three parameters. */
    cm_buf_reset(&b);
    cm_buf_put_cstr(&b, "");
    cm_buf_put_cstr(&b, "");
    cm_buf_put_be16(&b, 2);
    cm_buf_put_be16(&b, 0);
    cm_buf_put_be16(&b, 0);
    cm_buf_put_be16(&b, 3);
    for (int i = 0; i < 3; i++)
        cm_buf_put_be32(&b, 0xffffffffu);
    cm_buf_put_be16(&b, 0);
    UNIT_CHECK(!srv_decode_bind(b.data, b.len, &m, &e));
    UNIT_CHECK(e.message && strstr(e.message, "2 parameter formats but 3 parameters"));
    cm_err_clear(&e);
    cm_buf_free(&b);
}

static void test_decode_describe_execute_close(void)
{
    cm_err_t e = {0};
    srv_msg_describe_t d;
    srv_msg_execute_t x;
    UNIT_CHECK(srv_decode_describe((const uint8_t *)"Sname", 6, &d, &e) && d.what == 'S');
    UNIT_CHECK_STR(d.name, "name");
    UNIT_CHECK(!srv_decode_describe((const uint8_t *)"Xname", 6, &d, &e));
    UNIT_CHECK_STR(e.sqlstate, "08P01");
    cm_err_clear(&e);
    UNIT_CHECK(!srv_decode_close((const uint8_t *)"P", 1, &d, &e));
    cm_err_clear(&e);
    UNIT_CHECK(srv_decode_close((const uint8_t *)"P", 2, &d, &e) && d.what == 'P' && d.name[0] == 0);
    const uint8_t ex[] = {'p', 0, 0, 0, 0, 5};
    UNIT_CHECK(srv_decode_execute(ex, sizeof ex, &x, &e) && x.max_rows == 5);
    UNIT_CHECK(!srv_decode_execute(ex, sizeof ex - 1, &x, &e));
    cm_err_clear(&e);
}

static void test_decode_auth_messages(void)
{
    cm_err_t e = {0};
    const char *pw;
    UNIT_CHECK(srv_decode_password((const uint8_t *)"secret", 7, &pw, &e));
    UNIT_CHECK_STR(pw, "secret");
    UNIT_CHECK(!srv_decode_password((const uint8_t *)"secret\0x", 8, &pw, &e));
    cm_err_clear(&e);
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_cstr(&b, "SCRAM-SHA-256");
    cm_buf_put_be32(&b, 3);
    cm_buf_put(&b, "n,,", 3);
    srv_msg_sasl_initial_t s;
    UNIT_CHECK(srv_decode_sasl_initial(b.data, b.len, &s, &e) && s.data_len == 3);
    UNIT_CHECK(!srv_decode_sasl_initial(b.data, b.len - 1, &s, &e));
    cm_err_clear(&e);
    cm_buf_reset(&b);
    cm_buf_put_cstr(&b, "SCRAM-SHA-256");
    cm_buf_put_be32(&b, 0xffffffffu);
    UNIT_CHECK(srv_decode_sasl_initial(b.data, b.len, &s, &e) && s.data == NULL);
    cm_buf_free(&b);
}

static void test_builders(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    srv_put_ready_for_query(&b, 'I');
    UNIT_CHECK(b.len == 6 && memcmp(b.data, "Z\0\0\0\5I", 6) == 0);
    cm_buf_reset(&b);
    srv_put_authentication(&b, 0, NULL, 0);
    UNIT_CHECK(b.len == 9 && memcmp(b.data, "R\0\0\0\10\0\0\0\0", 9) == 0);
    cm_buf_reset(&b);
    srv_put_empty_message(&b, '1');
    UNIT_CHECK(b.len == 5 && memcmp(b.data, "1\0\0\0\4", 5) == 0);
    cm_buf_reset(&b);
    srv_put_command_complete(&b, "SELECT 1");
    UNIT_CHECK(b.len == 14 && srv_be32_at(b.data + 1, 0) == 13);
    cm_buf_reset(&b);
    cm_err_t e = {0};
    cm_err_set(&e, "42601", "syntax error at or near \"x\"");
    e.position = 8;
    srv_put_error(&b, 'E', &e);
    UNIT_CHECK(b.data[0] == 'E' && srv_be32_at(b.data + 1, 0) == b.len - 1);
    UNIT_CHECK(memmem(b.data, b.len, "SERROR\0VERROR\0C42601\0M", 22) != NULL);
    UNIT_CHECK(memmem(b.data, b.len, "P8\0\0", 4) != NULL);
    cm_err_clear(&e);
    cm_buf_reset(&b);
    srv_field_t f = {.name = "?column?", .type_oid = 23, .typlen = 4, .typmod = -1};
    srv_put_row_description(&b, 1, &f);
    UNIT_CHECK(b.len == 1 + 4 + 2 + 9 + 18);
    cm_buf_reset(&b);
    size_t row = srv_data_row_begin(&b, 2);
    size_t v = srv_data_row_value_begin(&b);
    cm_buf_put(&b, "1", 1);
    srv_data_row_value_finish(&b, v);
    srv_data_row_null(&b);
    srv_msg_finish(&b, row);
    UNIT_CHECK(b.len == 1 + 4 + 2 + 5 + 4);
    UNIT_CHECK(memcmp(b.data, "D\0\0\0\17\0\2\0\0\0\1" "1\377\377\377\377", 16) == 0);
    cm_buf_reset(&b);
    const char *opts[] = {"_pq_.x"};
    srv_put_negotiate_protocol_version(&b, SRV_PROTO_3_0, 1, opts);
    UNIT_CHECK(b.data[0] == 'v' && b.len == 1 + 4 + 8 + 7);
    /* PostgreSQL sends the whole newest version (3.0 = 196608), not just its minor part. */
    UNIT_CHECK(memcmp(b.data + 5, "\0\3\0\0\0\0\0\1_pq_.x", 15) == 0);
    cm_buf_free(&b);
    /* A capped buffer: the failure is sticky and finish does not patch. */
    cm_buf_init(&b, 8);
    srv_put_parameter_status(&b, "application_name", "psql");
    UNIT_CHECK(b.failed);
    cm_buf_free(&b);
}

static void test_fuzz_entry(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_be32(&b, 16);
    cm_buf_put_be32(&b, SRV_PROTO_3_0);
    cm_buf_put_cstr(&b, "user");
    cm_buf_put_cstr(&b, "x");
    cm_buf_put_u8(&b, 0);
    msg(&b, 'Q', "SELECT 1", 9);
    msg(&b, 'H', NULL, 0);
    UNIT_CHECK(srv_codec_fuzz_one(b.data, b.len) == 3);
    /* Random bytes, and every prefix of a valid stream, never crash. */
    srand(1);
    uint8_t r[256];
    for (int i = 0; i < 20000; i++) {
        size_t n = (size_t)(rand() % (int)sizeof r);
        for (size_t k = 0; k < n; k++)
            r[k] = (uint8_t)rand();
        if (n >= 8 && (i & 1)) {
            memcpy(r, b.data, 8);
            r[3] = (uint8_t)(n > 20 ? 17 : n);
        }
        srv_codec_fuzz_one(r, n);
    }
    for (size_t n = 0; n <= b.len; n++)
        srv_codec_fuzz_one(b.data, n);
    cm_buf_free(&b);
}

int main(void)
{
    UNIT_RUN(test_cursor_bounds);
    UNIT_RUN(test_frame_startup_lengths);
    UNIT_RUN(test_decode_startup_message);
    UNIT_RUN(test_frame_typed);
    UNIT_RUN(test_decode_parse);
    UNIT_RUN(test_decode_bind);
    UNIT_RUN(test_decode_describe_execute_close);
    UNIT_RUN(test_decode_auth_messages);
    UNIT_RUN(test_builders);
    UNIT_RUN(test_fuzz_entry);
    UNIT_EXIT();
}
