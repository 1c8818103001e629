/*
 * test_catalog_codec.c: the entry and object record format: round trips,
 * unknown fields skipped, newer formats refused, and a decoder that stays
 * inside its input on every truncation, every single-byte corruption and
 * random garbage (run under ASan by make check).
 */
#include <stdio.h>

#include "tests/unit/test_catalog_helpers.h"

static const cat_column_t cols[] = {
    {.name = "Col", .type = 23, .typmod = -1, .not_null = true, .default_sql = "42"},
    {.name = "b", .type = 1043, .typmod = 14},
    {.name = "c", .type = 1700, .typmod = 655366},
};
static const cat_id_t deps[] = {3, 5};

static cat_object_t sample_object(void)
{
    cat_object_t o = {.cls = CAT_CLASS_ITEM, .id = 9, .oid = 16416, .parent = 2, .name = "v \xc3\xa9",
                      .kind = CAT_ITEM_VIEW, .create_sql = "CREATE VIEW \"v \xc3\xa9\" AS SELECT 1",
                      .columns = (cat_column_t *)cols, .ncolumns = 3, .deps = (cat_id_t *)deps, .ndeps = 2};
    return o;
}

static void sample_entry(cm_buf_t *b)
{
    cat_op_t ops[3];
    memset(ops, 0, sizeof(ops));
    ops[0].kind = CAT_OP_DROP;
    ops[0].obj.cls = CAT_CLASS_ITEM;
    ops[0].obj.id = 4;
    ops[1].kind = CAT_OP_DROP;
    ops[1].obj.cls = CAT_CLASS_SCHEMA;
    ops[1].obj.id = 3;
    ops[2].kind = CAT_OP_CREATE;
    ops[2].obj = sample_object();
    cat_entry_t e = {.format = CAT_FORMAT, .index = 9, .kind = "CREATE VIEW", .sql = "CREATE VIEW v AS SELECT 1",
                     .ops = ops, .nops = 3, .deps = (cat_id_t *)deps, .ndeps = 2};
    for (int i = 0; i < 16; i++)
        e.request_uuid[i] = (uint8_t)(i * 17);
    cat_entry_encode(&e, b);
}

static void test_object_round_trip(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cat_object_t o = sample_object();
    cat_object_encode(&o, &b);
    UNIT_CHECK(memcmp(b.data, "EDDY\x01O", 6) == 0);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat_object_t d;
    cm_err_t err = {0};
    UNIT_CHECK(cat_object_decode(b.data, b.len, &a, &d, &err));
    UNIT_CHECK(d.cls == CAT_CLASS_ITEM && d.id == 9 && d.oid == 16416 && d.parent == 2);
    UNIT_CHECK_STR(d.name, "v \xc3\xa9");
    UNIT_CHECK(d.kind == CAT_ITEM_VIEW);
    UNIT_CHECK(d.ncolumns == 3 && d.ndeps == 2 && d.deps[0] == 3 && d.deps[1] == 5);
    UNIT_CHECK_STR(d.columns[0].name, "Col");
    UNIT_CHECK_STR(d.columns[0].default_sql, "42");
    UNIT_CHECK(d.columns[0].not_null && d.columns[0].typmod == -1 && d.columns[0].type == 23);
    UNIT_CHECK(d.columns[2].typmod == 655366 && d.columns[1].default_sql == NULL && !d.columns[1].not_null);
    /* Encoding is deterministic, so a decoded object re-encodes to the same bytes. */
    cm_buf_t b2;
    cm_buf_init(&b2, 0);
    cat_object_encode(&d, &b2);
    UNIT_CHECK(b2.len == b.len && memcmp(b2.data, b.data, b.len) == 0);
    cm_buf_free(&b2);
    cm_buf_free(&b);
    cm_arena_free(&a);
}

static void test_entry_round_trip_and_dump(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    sample_entry(&b);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat_entry_t e;
    cm_err_t err = {0};
    UNIT_CHECK(cat_entry_decode(b.data, b.len, &a, &e, &err));
    UNIT_CHECK(e.format == 1 && e.index == 9 && e.nops == 3 && e.ndeps == 2);
    UNIT_CHECK_STR(e.kind, "CREATE VIEW");
    UNIT_CHECK_STR(e.sql, "CREATE VIEW v AS SELECT 1");
    UNIT_CHECK(e.request_uuid[1] == 17 && e.request_uuid[15] == (uint8_t)(15 * 17));
    UNIT_CHECK(e.ops[0].kind == CAT_OP_DROP && e.ops[0].obj.cls == CAT_CLASS_ITEM && e.ops[0].obj.id == 4);
    UNIT_CHECK(e.ops[1].kind == CAT_OP_DROP && e.ops[1].obj.cls == CAT_CLASS_SCHEMA && e.ops[1].obj.id == 3);
    UNIT_CHECK(e.ops[2].kind == CAT_OP_CREATE && e.ops[2].obj.ncolumns == 3);
    UNIT_CHECK_STR(e.ops[2].obj.columns[1].name, "b");
    cm_buf_t d;
    cm_buf_init(&d, 0);
    UNIT_CHECK(cat_record_dump(b.data, b.len, &d));
    cm_buf_put_u8(&d, 0);
    UNIT_CHECK(strstr((const char *)d.data, "record E format 1\n") == (const char *)d.data);
    UNIT_CHECK(strstr((const char *)d.data, "  4: \"CREATE VIEW v AS SELECT 1\"\n") != NULL);
    UNIT_CHECK(strstr((const char *)d.data, "x'00112233") != NULL);
    cm_buf_free(&d);
    cm_buf_free(&b);
    cm_arena_free(&a);
}

static void test_unknown_fields_and_formats(void)
{
    /* A newer writer's extra field, in the entry and inside an object, is skipped. */
    cm_buf_t b;
    cm_buf_init(&b, 0);
    sample_entry(&b);
    cm_buf_put_be16(&b, 999);
    cm_buf_put_u8(&b, 2);
    cm_buf_put_be32(&b, 3);
    cm_buf_put(&b, "new", 3);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat_entry_t e;
    cm_err_t err = {0};
    UNIT_CHECK(cat_entry_decode(b.data, b.len, &a, &e, &err));
    UNIT_CHECK(e.nops == 3);
    /* A higher format is refused with a clear message, not misread. */
    b.data[4] = 2;
    UNIT_CHECK(!cat_entry_decode(b.data, b.len, &a, &e, &err));
    UNIT_CHECK_STR(err.sqlstate, "0A000");
    UNIT_CHECK_STR(err.message, "catalog record has format 2; this eddy reads formats up to 1");
    cm_err_clear(&err);
    /* An object is not an entry. */
    cm_buf_reset(&b);
    cat_object_t o = sample_object();
    cat_object_encode(&o, &b);
    UNIT_CHECK(!cat_entry_decode(b.data, b.len, &a, &e, &err));
    UNIT_CHECK_STR(err.sqlstate, "XX000");
    UNIT_CHECK_STR(err.message, "catalog record is corrupt: unexpected record type");
    cm_err_clear(&err);
    cm_buf_free(&b);
    cm_arena_free(&a);
}

/* Decodes anything; a return of either kind is fine, reading outside is not. */
static int decode_any(const uint8_t *p, size_t len)
{
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cm_err_t err = {0};
    cat_entry_t e;
    cat_object_t o;
    int ok = cat_entry_decode(p, len, &a, &e, &err);
    cm_err_clear(&err);
    ok += cat_object_decode(p, len, &a, &o, &err);
    cm_err_clear(&err);
    cm_buf_t d;
    cm_buf_init(&d, 0);
    cat_record_dump(p, len, &d);
    cm_buf_free(&d);
    cm_arena_free(&a);
    return ok;
}

/* Every prefix decoded from its own exact-size heap copy, so ASan sees any
 * read past the end. */
static void test_truncations_fail_cleanly(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    sample_entry(&b);
    int accepted = 0;
    for (size_t n = 0; n < b.len; n++) {
        uint8_t *copy = malloc(n ? n : 1);
        memcpy(copy, b.data, n);
        accepted += decode_any(copy, n) ? 1 : 0;
        free(copy);
    }
    /* A prefix that ends exactly between top-level fields is a valid, shorter
     * entry (fields are optional or checked as required), never a crash. */
    printf("  %zu prefixes, %d decoded as shorter records\n", b.len, accepted);
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat_entry_t e;
    cm_err_t err = {0};
    UNIT_CHECK(!cat_entry_decode(b.data, b.len - 1, &a, &e, &err));
    cm_err_clear(&err);
    UNIT_CHECK(!cat_entry_decode(b.data, 5, &a, &e, &err));
    cm_err_clear(&err);
    cm_arena_free(&a);
    cm_buf_free(&b);
}

static uint64_t rng_state = 0x9e3779b97f4a7c15u;
static uint32_t rng(void)
{
    rng_state ^= rng_state << 13;
    rng_state ^= rng_state >> 7;
    rng_state ^= rng_state << 17;
    return (uint32_t)rng_state;
}

static void test_corruption_and_garbage(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    sample_entry(&b);
    /* Every byte position set to a few telling values. */
    static const uint8_t vals[] = {0x00, 0x01, 0x04, 0x7f, 0x80, 0xff};
    for (size_t i = 0; i < b.len; i++) {
        for (size_t v = 0; v < CM_ARRAY_LEN(vals); v++) {
            uint8_t *copy = malloc(b.len);
            memcpy(copy, b.data, b.len);
            copy[i] = vals[v];
            decode_any(copy, b.len);
            free(copy);
        }
    }
    /* Random garbage, with and without a valid header. */
    for (int round = 0; round < 20000; round++) {
        size_t n = rng() % 200;
        uint8_t *p = malloc(n ? n : 1);
        for (size_t i = 0; i < n; i++)
            p[i] = (uint8_t)rng();
        if (round % 2 && n >= 6)
            memcpy(p, round % 4 == 1 ? "EDDY\x01" "E" : "EDDY\x01" "O", 6);
        decode_any(p, n);
        free(p);
    }
    /* Random splices of a valid record. */
    for (int round = 0; round < 5000; round++) {
        uint8_t *p = malloc(b.len);
        memcpy(p, b.data, b.len);
        int flips = 1 + (int)(rng() % 4);
        for (int f = 0; f < flips; f++)
            p[6 + rng() % (b.len - 6)] = (uint8_t)rng();
        decode_any(p, b.len);
        free(p);
    }
    /* Declared lengths larger than the input are caught before use. */
    uint8_t lie[] = {'E', 'D', 'D', 'Y', 1, 'E', 0, 1, 1, 0xff, 0xff, 0xff, 0xff, 0, 0, 0, 0};
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    cat_entry_t e;
    cm_err_t err = {0};
    UNIT_CHECK(!cat_entry_decode(lie, sizeof(lie), &a, &e, &err));
    UNIT_CHECK_STR(err.message, "catalog record is corrupt: field longer than its record");
    cm_err_clear(&err);
    /* Strings must be UTF-8: a name with a stray byte is refused. */
    cm_buf_t ob;
    cm_buf_init(&ob, 0);
    cat_object_t o = sample_object();
    o.name = "bad\xff";
    cat_object_encode(&o, &ob);
    cat_object_t d;
    UNIT_CHECK(!cat_object_decode(ob.data, ob.len, &a, &d, &err));
    UNIT_CHECK_STR(err.message, "catalog record is corrupt: string is not valid UTF-8");
    cm_err_clear(&err);
    cm_buf_free(&ob);
    cm_arena_free(&a);
    cm_buf_free(&b);
}

int main(void)
{
    UNIT_RUN(test_object_round_trip);
    UNIT_RUN(test_entry_round_trip_and_dump);
    UNIT_RUN(test_unknown_fields_and_formats);
    UNIT_RUN(test_truncations_fail_cleanly);
    UNIT_RUN(test_corruption_and_garbage);
    UNIT_EXIT();
}
