/*
 * test_server_stmt.c: unit tests of what makes re-running a statement cheap:
 * the cached RowDescription of a statement (srv_stmt.c), statement and
 * portal recycling, and the session's settings generation and pending
 * ParameterStatus flag (srv_session.c).
 */
#include "common/common.h"
#include "server/srv_int.h"
#include "tests/unit/unit.h"

#include <stdlib.h>

static srv_conn_t *conn_new(void)
{
    srv_conn_t *c = cm_calloc(1, sizeof *c);
    srv_session_init(&c->sess, "tester");
    return c;
}

static void conn_free(srv_conn_t *c)
{
    srv_portal_free_all(c);
    srv_stmt_free_all(c);
    srv_session_free(&c->sess);
    free(c);
}

/* A bound "SELECT 1 AS a, 'x' AS b" as the planner would hand it over. */
static pln_stmt_t *plan_two_columns(cm_arena_t *a)
{
    pln_stmt_t *p = cm_arena_zalloc(a, sizeof *p);
    p->kind = PLN_QUERY;
    p->tag = "SELECT";
    p->ncols = 2;
    p->cols = cm_arena_zalloc(a, sizeof *p->cols * 2);
    p->cols[0] = (plan_column_t){.name = "a", .type = TY_INT4, .typmod = -1};
    p->cols[1] = (plan_column_t){.name = "b", .type = TY_TEXT, .typmod = -1};
    return p;
}

/* The RowDescription srv_put_row_description builds for the two columns and formats. */
static void want_rowdesc(cm_buf_t *b, int16_t f0, int16_t f1)
{
    srv_field_t f[2] = {
        {.name = "a", .type_oid = TY_INT4, .typlen = 4, .typmod = -1, .format = f0},
        {.name = "b", .type_oid = TY_TEXT, .typlen = -1, .typmod = -1, .format = f1},
    };
    cm_buf_reset(b);
    srv_put_row_description(b, 2, f);
}

static bool same(const cm_buf_t *a, const cm_buf_t *b)
{
    return a->len == b->len && memcmp(a->data, b->data, a->len) == 0;
}

static void test_row_description_cache(void)
{
    srv_conn_t *c = conn_new();
    srv_stmt_t *st = srv_stmt_new(c);
    st->plan = plan_two_columns(&st->arena);
    srv_stmt_ready(c, st);
    UNIT_CHECK(st->cols.n == 2 && st->cols.types[0] == TY_INT4 && st->cols.types[1] == TY_TEXT);
    cm_buf_t got, want;
    cm_buf_init(&got, 0);
    cm_buf_init(&want, 0);
    srv_stmt_put_row_description(st, &got, NULL);
    want_rowdesc(&want, 0, 0);
    UNIT_CHECK(same(&got, &want));
    /* Other formats build another description; all-zero formats equal NULL. */
    int16_t bin[2] = {0, 1}, text[2] = {0, 0};
    cm_buf_reset(&got);
    srv_stmt_put_row_description(st, &got, bin);
    want_rowdesc(&want, 0, 1);
    UNIT_CHECK(same(&got, &want));
    cm_buf_reset(&got);
    srv_stmt_put_row_description(st, &got, bin);
    UNIT_CHECK(same(&got, &want));
    cm_buf_reset(&got);
    srv_stmt_put_row_description(st, &got, text);
    want_rowdesc(&want, 0, 0);
    UNIT_CHECK(same(&got, &want));
    cm_buf_reset(&got);
    srv_stmt_put_row_description(st, &got, NULL);
    UNIT_CHECK(same(&got, &want));
    /* Appends after what the output already holds. */
    cm_buf_reset(&got);
    cm_buf_put_u8(&got, 'x');
    srv_stmt_put_row_description(st, &got, NULL);
    UNIT_CHECK(got.len == want.len + 1 && memcmp(got.data + 1, want.data, want.len) == 0);
    srv_stmt_release(c, st);
    cm_buf_free(&got);
    cm_buf_free(&want);
    conn_free(c);
}

static void test_recycling(void)
{
    srv_conn_t *c = conn_new();
    srv_stmt_t *st = srv_stmt_new(c);
    st->name = cm_arena_strdup(&st->arena, "s1");
    st->plan = plan_two_columns(&st->arena);
    srv_stmt_ready(c, st);
    cm_buf_t out;
    cm_buf_init(&out, 0);
    srv_stmt_put_row_description(st, &out, NULL);
    st->next = c->stmts;
    c->stmts = st;
    UNIT_CHECK(srv_stmt_find(c, "s1") == st && srv_stmt_find(c, "s2") == NULL && srv_stmt_find(c, "") == NULL);
    /* A portal holds the statement after it is closed. */
    srv_portal_t *p = srv_portal_new(c);
    p->name = cm_arena_strdup(&p->arena, "p1");
    p->stmt = st;
    st->refs++;
    p->next = c->portals;
    c->portals = p;
    srv_stmt_drop(c, "s1");
    UNIT_CHECK(srv_stmt_find(c, "s1") == NULL && c->spare_stmt == NULL && st->refs == 1);
    UNIT_CHECK(srv_portal_find(c, "p1") == p);
    srv_portal_drop(c, "p1");
    UNIT_CHECK(srv_portal_find(c, "p1") == NULL && c->spare_portal == p);
    /* The last reference recycles it, and a recycled statement starts clean. */
    UNIT_CHECK(c->spare_stmt == st);
    srv_stmt_t *again = srv_stmt_new(c);
    UNIT_CHECK(again == st && c->spare_stmt == NULL);
    UNIT_CHECK(again->plan == NULL && again->cols.n == 0 && !again->rowdesc_valid && again->refs == 1);
    UNIT_CHECK(again->rowdesc_formats == NULL && again->declared == NULL && again->sql_len == 0);
    srv_portal_t *p2 = srv_portal_new(c);
    UNIT_CHECK(p2 == p && p2->formats == NULL && !p2->started && !p2->done);
    srv_portal_free(c, p2);
    srv_stmt_release(c, again);
    cm_buf_free(&out);
    conn_free(c);
}

static void test_settings_generation_and_reports(void)
{
    srv_session_t s;
    srv_session_init(&s, "tester");
    cm_buf_t out;
    cm_buf_init(&out, 0);
    srv_session_report(&s, &out, true);
    UNIT_CHECK(out.len > 0);
    cm_buf_reset(&out);
    srv_session_report(&s, &out, false);
    UNIT_CHECK(out.len == 0);
    cm_err_t err = {0};
    /* A parameter that is not reported still moves the generation. */
    uint64_t gen = s.settings_gen;
    UNIT_CHECK(srv_session_set(&s, "extra_float_digits", "2", false, &err));
    UNIT_CHECK(s.settings_gen != gen);
    srv_session_report(&s, &out, false);
    UNIT_CHECK(out.len == 0);
    /* A reported one is sent once. */
    gen = s.settings_gen;
    UNIT_CHECK(srv_session_set(&s, "DateStyle", "ISO, DMY", false, &err));
    UNIT_CHECK(s.settings_gen != gen);
    srv_session_report(&s, &out, false);
    UNIT_CHECK(out.len > 0 && out.data[0] == 'S');
    cm_buf_reset(&out);
    srv_session_report(&s, &out, false);
    UNIT_CHECK(out.len == 0);
    /* A rollback restores it: a new generation and a new report. */
    gen = s.settings_gen;
    srv_session_xact_end(&s, false);
    UNIT_CHECK(s.settings_gen != gen);
    UNIT_CHECK_STR(srv_session_get(&s, "DateStyle"), "ISO, MDY");
    srv_session_report(&s, &out, false);
    UNIT_CHECK(out.len > 0);
    /* A failed SET changes nothing. */
    gen = s.settings_gen;
    UNIT_CHECK(!srv_session_set(&s, "DateStyle", "nonsense", false, &err));
    cm_err_clear(&err);
    UNIT_CHECK(s.settings_gen == gen);
    cm_buf_free(&out);
    srv_session_free(&s);
}

int main(void)
{
    UNIT_RUN(test_row_description_cache);
    UNIT_RUN(test_recycling);
    UNIT_RUN(test_settings_generation_and_reports);
    UNIT_EXIT();
}
