/* test_common.c: unit tests of the common module (arenas, buffers, errors, UTF-8). */
#include "common/common.h"
#include "tests/unit/unit.h"

static void test_arena_alloc_and_reset(void)
{
    cm_arena_t a;
    cm_arena_init(&a, 1024);
    char *s = cm_arena_strdup(&a, "hello");
    UNIT_CHECK_STR(s, "hello");
    void *big = cm_arena_alloc(&a, 10000);   /* a dedicated block */
    memset(big, 1, 10000);
    char *t = cm_arena_printf(&a, "%d-%s", 42, "x");
    UNIT_CHECK_STR(t, "42-x");
    UNIT_CHECK(((uintptr_t)cm_arena_alloc(&a, 3) & 15) == 0);
    cm_arena_reset(&a);
    UNIT_CHECK(a.bytes_total <= 1024 + 64);
    cm_arena_free(&a);
}

static void test_buf_cap_is_sticky(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 8);
    cm_buf_put_be32(&b, 0x01020304);
    UNIT_CHECK(b.len == 4 && b.data[0] == 1 && b.data[3] == 4);
    cm_buf_put_be64(&b, 1);   /* would exceed 8 bytes */
    UNIT_CHECK(b.failed);
    cm_buf_put_u8(&b, 9);     /* stays failed, nothing written */
    UNIT_CHECK(b.len == 4);
    cm_buf_reset(&b);
    cm_buf_printf(&b, "%s", "abc");
    UNIT_CHECK(!b.failed && b.len == 3);
    cm_buf_consume(&b, 1);
    UNIT_CHECK(b.len == 2 && b.data[0] == 'b');
    cm_buf_free(&b);
}

static void test_err_first_wins(void)
{
    cm_err_t e = {0};
    cm_err_set(&e, "22012", "division by zero");
    cm_err_set(&e, "42601", "later error");
    UNIT_CHECK_STR(e.sqlstate, "22012");
    UNIT_CHECK_STR(e.message, "division by zero");
    cm_err_set_hint(&e, "try %d", 1);
    UNIT_CHECK_STR(e.hint, "try 1");
    cm_err_clear(&e);
    UNIT_CHECK(!e.set && e.message == NULL);
}

static void test_utf8(void)
{
    UNIT_CHECK(cm_utf8_chars("h\xc3\xa9llo", 6) == 5);
    UNIT_CHECK(cm_utf8_valid("h\xc3\xa9llo", 6));
    UNIT_CHECK(!cm_utf8_valid("\xc3", 1));          /* truncated */
    UNIT_CHECK(!cm_utf8_valid("\xc0\xaf", 2));      /* overlong */
    UNIT_CHECK(!cm_utf8_valid("\xed\xa0\x80", 3));  /* surrogate */
    UNIT_CHECK(cm_utf8_valid("\xf0\x9f\x98\x80", 4));
    UNIT_CHECK(cm_strcasecmp("DateStyle", "datestyle") == 0);
}

static void test_utf8_check_names_the_bytes(void)
{
    cm_err_t e = {0};
    UNIT_CHECK(cm_utf8_check("h\xc3\xa9", 3, &e) && !e.set);
    UNIT_CHECK(!cm_utf8_check("ab\xe2\x28\xa1z", 6, &e));
    UNIT_CHECK_STR(e.sqlstate, "22021");
    UNIT_CHECK_STR(e.message, "invalid byte sequence for encoding \"UTF8\": 0xe2 0x28 0xa1");
    cm_err_clear(&e);
    UNIT_CHECK(!cm_utf8_check("a\xe2", 2, &e));   /* truncated: only what is there */
    UNIT_CHECK_STR(e.message, "invalid byte sequence for encoding \"UTF8\": 0xe2");
    cm_err_clear(&e);
    UNIT_CHECK(!cm_utf8_check("a\0b", 3, &e));
    UNIT_CHECK_STR(e.message, "invalid byte sequence for encoding \"UTF8\": 0x00");
    cm_err_clear(&e);
}

int main(void)
{
    UNIT_RUN(test_arena_alloc_and_reset);
    UNIT_RUN(test_buf_cap_is_sticky);
    UNIT_RUN(test_err_first_wins);
    UNIT_RUN(test_utf8);
    UNIT_RUN(test_utf8_check_names_the_bytes);
    UNIT_EXIT();
}
