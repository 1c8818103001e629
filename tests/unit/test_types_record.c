/*
 * test_types_record.c: record values built by TY_EXPR_ROW: record_out's
 * quoting, record_send's bytes, the order ORDER BY and DISTINCT use, row
 * IS [NOT] NULL, TY_EXPR_ROW_COMPARE's NULL rules, and the refusal to read
 * anonymous records. Expectations come from a PostgreSQL 15 server
 * (SELECT ROW(...), record_send(ROW(...)), ...).
 */
#include "tests/unit/test_types_helpers.h"

/* A constant of type t from its text ("NULL" for NULL). */
static ty_expr_t *c(ty_oid_t t, const char *text)
{
    ty_datum_t d;
    if (strcmp(text, "NULL") == 0) {
        memset(&d, 0, sizeof(d));
        d.isnull = true;
    } else if (t == TY_UNKNOWN) {
        memset(&d, 0, sizeof(d));
        d.v.s.p = text;
        d.v.s.len = (uint32_t)strlen(text);
    } else {
        d = tt_in(t, text);
    }
    return ty_expr_const(&tt_arena, t, -1, d);
}

static ty_expr_t *row(int n, ty_expr_t **args)
{
    ty_expr_t *e = ty_expr_new(&tt_arena, TY_EXPR_ROW, TY_RECORD, n);
    for (int i = 0; i < n; i++)
        e->args[i] = args[i];
    return e;
}

static ty_datum_t eval(const ty_expr_t *e)
{
    ty_datum_t d;
    cm_err_clear(&tt_err);
    if (!ty_expr_eval(e, &tt_ctx, NULL, NULL, &d)) {
        printf("  eval failed: %s\n", tt_err.message);
        memset(&d, 0, sizeof(d));
        d.isnull = true;
    }
    return d;
}

static const char *row_text(int n, ty_expr_t **args)
{
    ty_datum_t d = eval(row(n, args));
    return tt_out(TY_RECORD, &d);
}

static const char *row_hex(int n, ty_expr_t **args)
{
    ty_datum_t d = eval(row(n, args));
    cm_buf_t b;
    cm_buf_init(&b, 0);
    if (!ty_datum_to_binary(TY_RECORD, &d, &tt_ctx, &b)) {
        cm_buf_free(&b);
        return "<error>";
    }
    char *s = cm_arena_alloc(&tt_arena, b.len * 2 + 1);
    for (size_t i = 0; i < b.len; i++)
        sprintf(s + 2 * i, "%02x", b.data[i]);
    s[b.len * 2] = '\0';
    cm_buf_free(&b);
    return s;
}

static void test_record_out(void)
{
    tt_setup();
    /* SELECT ROW(1, 'a'), ROW(1, 'a b'), ROW(1, ''), ROW(NULL, 1), ROW(), ROW(1) */
    UNIT_CHECK_STR(row_text(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_UNKNOWN, "a")}), "(1,a)");
    UNIT_CHECK_STR(row_text(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_TEXT, "a b")}), "(1,\"a b\")");
    UNIT_CHECK_STR(row_text(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_TEXT, "")}), "(1,\"\")");
    UNIT_CHECK_STR(row_text(2, (ty_expr_t *[]){c(TY_INT4, "NULL"), c(TY_INT4, "1")}), "(,1)");
    UNIT_CHECK_STR(row_text(0, NULL), "()");
    UNIT_CHECK_STR(row_text(1, (ty_expr_t *[]){c(TY_INT4, "1")}), "(1)");
    /* SELECT ROW('a,b', 'x"y', 'p\q', '(z)'): quotes and backslashes are doubled inside quotes. */
    UNIT_CHECK_STR(row_text(4, (ty_expr_t *[]){c(TY_TEXT, "a,b"), c(TY_TEXT, "x\"y"), c(TY_TEXT, "p\\q"),
                                               c(TY_TEXT, "(z)")}),
                   "(\"a,b\",\"x\"\"y\",\"p\\\\q\",\"(z)\")");
    /* SELECT ROW(1.5, true, '2024-01-01'::date, NULL::int, ARRAY[1,2]) */
    UNIT_CHECK_STR(row_text(5, (ty_expr_t *[]){c(TY_NUMERIC, "1.5"), c(TY_BOOL, "t"), c(TY_DATE, "2024-01-01"),
                                               c(TY_INT4, "NULL"), c(TY_INT4_ARRAY, "{1,2}")}),
                   "(1.5,t,2024-01-01,,\"{1,2}\")");
    /* SELECT ROW(ROW(1, 2), 'a'): a nested record is quoted like any text with parentheses. */
    ty_expr_t *inner = row(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "2")});
    UNIT_CHECK_STR(row_text(2, (ty_expr_t *[]){inner, c(TY_UNKNOWN, "a")}), "(\"(1,2)\",a)");
}

static void test_record_send(void)
{
    tt_setup();
    /* SELECT record_send(ROW(1, 'a'::text)), record_send(ROW(1, 'a')), ... */
    UNIT_CHECK_STR(row_hex(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_TEXT, "a")}),
                   "00000002000000170000000400000001000000190000000161");
    UNIT_CHECK_STR(row_hex(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_UNKNOWN, "a")}),
                   "00000002000000170000000400000001000002c10000000161");
    UNIT_CHECK_STR(row_hex(2, (ty_expr_t *[]){c(TY_INT4, "NULL"), c(TY_INT8, "2")}),
                   "0000000200000017ffffffff00000014000000080000000000000002");
    UNIT_CHECK_STR(row_hex(0, NULL), "00000000");
    UNIT_CHECK(ty_has_binary(TY_RECORD));
}

static void test_record_input_refused(void)
{
    tt_setup();
    /* SELECT '(1,2)'::record: 0A000 input of anonymous composite types is not implemented */
    UNIT_CHECK_STR(tt_rt(TY_RECORD, -1, "(1,2)"), "<error 0A000>");
}

static void test_record_order(void)
{
    tt_setup();
    ty_datum_t a = eval(row(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "2")}));
    ty_datum_t b = eval(row(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "3")}));
    ty_datum_t n = eval(row(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "NULL")}));
    ty_datum_t a2 = eval(row(2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "2")}));
    UNIT_CHECK(ty_datum_compare(TY_RECORD, &a, &b) < 0);
    UNIT_CHECK(ty_datum_compare(TY_RECORD, &b, &a) > 0);
    /* record_cmp: a NULL column sorts after any value and equals another NULL. */
    UNIT_CHECK(ty_datum_compare(TY_RECORD, &b, &n) < 0);
    UNIT_CHECK(ty_datum_compare(TY_RECORD, &n, &n) == 0);
    UNIT_CHECK(ty_datum_compare(TY_RECORD, &a, &a2) == 0);
    UNIT_CHECK(ty_datum_hash(TY_RECORD, &a) == ty_datum_hash(TY_RECORD, &a2));
    ty_datum_t copy = ty_datum_copy(TY_RECORD, &b, &tt_arena);
    UNIT_CHECK_STR(tt_out(TY_RECORD, &copy), "(1,3)");
}

static const char *is_null(bool negated, int n, ty_expr_t **args)
{
    ty_expr_t *e = ty_expr_new(&tt_arena, TY_EXPR_IS_NULL, TY_BOOL, 1);
    e->args[0] = row(n, args);
    e->negated = negated;
    ty_datum_t d = eval(e);
    return tt_out(TY_BOOL, &d);
}

static void test_record_is_null(void)
{
    tt_setup();
    /* SELECT (1,2) IS NULL, (NULL,NULL) IS NULL, (1,NULL) IS NULL, (1,2) IS NOT NULL,
     *        (1,NULL) IS NOT NULL, (NULL,NULL) IS NOT NULL, ROW() IS NULL, ROW() IS NOT NULL: f t f t f f t t */
    UNIT_CHECK_STR(is_null(false, 2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "2")}), "f");
    UNIT_CHECK_STR(is_null(false, 2, (ty_expr_t *[]){c(TY_INT4, "NULL"), c(TY_INT4, "NULL")}), "t");
    UNIT_CHECK_STR(is_null(false, 2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "NULL")}), "f");
    UNIT_CHECK_STR(is_null(true, 2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "2")}), "t");
    UNIT_CHECK_STR(is_null(true, 2, (ty_expr_t *[]){c(TY_INT4, "1"), c(TY_INT4, "NULL")}), "f");
    UNIT_CHECK_STR(is_null(true, 2, (ty_expr_t *[]){c(TY_INT4, "NULL"), c(TY_INT4, "NULL")}), "f");
    UNIT_CHECK_STR(is_null(false, 0, NULL), "t");
    UNIT_CHECK_STR(is_null(true, 0, NULL), "t");
}

/* (l1, l2) op (r1, r2) over int4 constants ("NULL" for NULL). */
static const char *rowcmp(int op, const char *l1, const char *l2, const char *r1, const char *r2)
{
    ty_expr_t *e = ty_expr_new(&tt_arena, TY_EXPR_ROW_COMPARE, TY_BOOL, 4);
    e->args[0] = c(TY_INT4, l1);
    e->args[1] = c(TY_INT4, r1);
    e->args[2] = c(TY_INT4, l2);
    e->args[3] = c(TY_INT4, r2);
    e->index = op;
    ty_datum_t d = eval(e);
    return d.isnull ? "NULL" : tt_out(TY_BOOL, &d);
}

static void test_row_compare(void)
{
    tt_setup();
    /* SELECT (1,2) < (1,3), (1,NULL) < (2,0), (1,NULL) < (1,2), (1,2) <= (1,2), (1,2) >= (1,2),
     *        (1,2) > (1,2), (1,2) < (1,2), (2,1) > (1,9): t t NULL t t f f t */
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_LT, "1", "2", "1", "3"), "t");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_LT, "1", "NULL", "2", "0"), "t");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_LT, "1", "NULL", "1", "2"), "NULL");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_LE, "1", "2", "1", "2"), "t");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_GE, "1", "2", "1", "2"), "t");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_GT, "1", "2", "1", "2"), "f");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_LT, "1", "2", "1", "2"), "f");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_GT, "2", "1", "1", "9"), "t");
    UNIT_CHECK_STR(rowcmp(TY_ROWCMP_GT, "NULL", "1", "1", "9"), "NULL");
}

int main(void)
{
    UNIT_RUN(test_record_out);
    UNIT_RUN(test_record_send);
    UNIT_RUN(test_record_input_refused);
    UNIT_RUN(test_record_order);
    UNIT_RUN(test_record_is_null);
    UNIT_RUN(test_row_compare);
    UNIT_EXIT();
}
