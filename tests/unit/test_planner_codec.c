/*
 * test_planner_codec.c: the planner's query plans as bytes and back
 * (plan_encode / plan_decode, then pln_stmt_of_plan to describe and run them).
 *
 * Every query of the EXPLAIN golden files (the .txt files of tests/explain; a CREATE
 * VIEW's query too) and every line of the differential layer's constant
 * queries (tests/diff/queries.sql) is bound, encoded and decoded, and then:
 * the decoded plan explains exactly as the original, encoding it again
 * gives the same bytes, its result columns and parameters are the same,
 * and for the constant queries running it gives the same rows (or the same
 * error) as running the original. The golden files' expected EXPLAIN
 * output must also be what plan_explain prints for the original.
 * Malformed input (every truncation of real plans, a wrong header or
 * version, huge counts, deep nesting, references out of range) must fail
 * with XX001 and a message, and limits apply to encoding too. A decoded
 * plan's session relations are checked when the planner adopts it.
 * (tests/unit/test_plan_codec.c decodes the same plans without the planner.)
 *
 * With --seeds DIR the program writes every encoded plan to DIR instead
 * (the fuzz corpus's seeds, tests/fuzz/corpus/plan).
 */
#include "exec/exec.h"
#include "plan/plan.h"
#include "planner/planner.h"
#include "tests/unit/test_catalog_helpers.h"

#include "tests/unit/test_files.h"
#include "tests/unit/test_rows.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *seeds_dir;     /* --seeds: where encoded plans go */
static int nseeds;

/* Encoded plans kept for the malformed-input cases. */
#define KEEP_MAX 16
static cm_buf_t kept[KEEP_MAX];
static int nkept;

static int nplans, nruns;

/* ============================================================ helpers */

static void write_seed(const cm_buf_t *b)
{
    /* Named by content (FNV-1a), so the same plan is one file and regenerating changes nothing. */
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < b->len; i++)
        h = (h ^ b->data[i]) * 1099511628211ull;
    char path[1024];
    snprintf(path, sizeof path, "%s/seed-%016llx", seeds_dir, (unsigned long long)h);
    nseeds++;
    FILE *f = fopen(path, "wb");
    if (!f) {
        printf("not ok cannot write %s\n", path);
        unit__case_failed = 1;
        return;
    }
    fwrite(b->data, 1, b->len, f);
    fclose(f);
}

/* The rows a plan gives, or its error, as text (malloc'd). */
static char *run(const pln_stmt_t *st, const char *sql)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    ty_ctx_t ctx = {.arena = &arena, .settings = &settings, .err = &err, .xact_ts = 1000000, .stmt_ts = 1000000,
                    .user = "postgres", .database = "eddy", .schema = "public", .version = "eddy"};
    cm_buf_t out;
    cm_buf_init(&out, 0);
    tr_rows_t c = {.out = &out, .ctx = &ctx, .st = st};
    if (!ex_run(st->query, sql, NULL, &ctx, tr_row_line, &c)) {
        cm_buf_reset(&out);
        cm_buf_printf(&out, "ERROR %s %d %s\n", err.sqlstate, err.position, err.message ? err.message : "");
    }
    cm_buf_put_u8(&out, '\0');
    char *s = cm_strdup((const char *)out.data);
    cm_buf_free(&out);
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return s;
}

static char *explain(cm_arena_t *arena, const pln_stmt_t *st)
{
    cm_buf_t out;
    cm_buf_init(&out, 0);
    plan_explain(st->query, NULL, arena, &out);
    cm_buf_put_u8(&out, '\0');
    char *s = cm_strdup((const char *)out.data);
    cm_buf_free(&out);
    return s;
}

static bool same_columns(const pln_stmt_t *a, const pln_stmt_t *b)
{
    if (a->ncols != b->ncols || a->nparams != b->nparams || a->blocking != b->blocking ||
        a->catalog_index != b->catalog_index || (a->plan_error == NULL) != (b->plan_error == NULL))
        return false;
    for (int i = 0; i < a->ncols; i++)
        if (strcmp(a->cols[i].name, b->cols[i].name) != 0 || a->cols[i].type != b->cols[i].type ||
            a->cols[i].typmod != b->cols[i].typmod)
            return false;
    for (int i = 0; i < a->nparams; i++)
        if (a->param_types[i] != b->param_types[i])
            return false;
    return true;
}

/*
 * Whether a plan is whole: folding that failed (1/0) leaves holes in a plan
 * kept for Bind to raise the error; reading a relation (0A000 until the
 * dataflow engine exists) leaves the plan whole.
 */
static bool plan_whole(const pln_stmt_t *st)
{
    cm_err_t err = {0};
    bool whole = pln_plan_error_raise(st, &err) || strcmp(err.sqlstate, CM_ERRCODE_FEATURE_NOT_SUPPORTED) == 0;
    cm_err_clear(&err);
    return whole;
}

/* Decodes a plan and adopts it as a statement; NULL with err. */
static pln_stmt_t *decode(cm_arena_t *arena, const uint8_t *p, size_t n, const plan_limits_t *lim, cm_err_t *err)
{
    plan_t *q = NULL;
    pln_stmt_t *st = NULL;
    if (!plan_decode(arena, p, n, lim, &q, err) || !pln_stmt_of_plan(arena, q, &st, err))
        return NULL;
    return st;
}

/*
 * Encodes st, decodes it and checks what the header comment promises; rows
 * too when `rows` (constant queries). Failures print under `label`.
 */
static void roundtrip(const char *label, const pln_stmt_t *st, const char *sql, bool rows)
{
    if (!plan_whole(st))
        return;
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    cm_buf_t enc, again;
    cm_buf_init(&enc, 0);
    cm_buf_init(&again, 0);
    pln_stmt_t *dec = NULL;
    char *e1 = NULL, *e2 = NULL;
    nplans++;
    if (!plan_encode(st->query, NULL, &enc, &err)) {
        printf("  %s: encode failed: %s %s\n", label, err.sqlstate, err.message);
        unit__case_failed = 1;
        goto done;
    }
    if (seeds_dir)
        write_seed(&enc);
    if (nkept < KEEP_MAX && enc.len > 120) {
        cm_buf_init(&kept[nkept], 0);
        cm_buf_put(&kept[nkept++], enc.data, enc.len);
    }
    if (!(dec = decode(&arena, enc.data, enc.len, NULL, &err))) {
        printf("  %s: decode failed: %s %s\n", label, err.sqlstate, err.message);
        unit__case_failed = 1;
        goto done;
    }
    e1 = explain(&arena, st);
    e2 = explain(&arena, dec);
    if (strcmp(e1, e2) != 0) {
        printf("  %s: EXPLAIN differs after decoding:\n%s  --- decoded:\n%s", label, e1, e2);
        unit__case_failed = 1;
    }
    if (!same_columns(st, dec)) {
        printf("  %s: columns, parameters or planning error differ after decoding\n", label);
        unit__case_failed = 1;
    }
    if (!plan_encode(dec->query, NULL, &again, &err) || again.len != enc.len ||
        memcmp(again.data, enc.data, enc.len) != 0) {
        printf("  %s: encoding the decoded plan gives other bytes (%zu, %zu)\n", label, enc.len, again.len);
        unit__case_failed = 1;
    }
    if (rows && !st->blocking && !st->plan_error) {
        char *r1 = run(st, sql), *r2 = run(dec, sql);
        if (strcmp(r1, r2) != 0) {
            /* A volatile function (random(), clock_timestamp()) differs from run to run anyway. */
            char *r3 = run(st, sql);
            if (strcmp(r1, r3) == 0) {
                printf("  %s: rows differ after decoding:\n%s  --- decoded:\n%s", label, r1, r2);
                unit__case_failed = 1;
            }
            free(r3);
        }
        nruns++;
        free(r1);
        free(r2);
    }
done:
    free(e1);
    free(e2);
    cm_err_clear(&err);
    cm_buf_free(&enc);
    cm_buf_free(&again);
    cm_arena_free(&arena);
}

/* ============================================================ the EXPLAIN golden files */

static const char *skip_word(const char *s, const char *word)
{
    while (*s == ' ' || *s == '\n')
        s++;
    size_t n = strlen(word);
    if (strncasecmp(s, word, n) == 0 && (s[n] == ' ' || s[n] == '\n' || s[n] == '\0'))
        return s + n;
    return NULL;
}

/* The query a case plans: EXPLAIN [PLAN FOR] query, or the query of CREATE [MATERIALIZED] VIEW. */
static const char *query_of(const char *sql, bool *is_explain)
{
    const char *q;
    *is_explain = false;
    if ((q = skip_word(sql, "EXPLAIN"))) {
        const char *p = skip_word(q, "PLAN");
        if (p && (p = skip_word(p, "FOR")))
            q = p;
        if (skip_word(q, "VIEW") || skip_word(q, "MATERIALIZED") || skip_word(q, "INDEX") ||
            skip_word(q, "ANALYZE"))
            return NULL;
        *is_explain = true;
        return q;
    }
    if ((q = skip_word(sql, "CREATE"))) {
        const char *as = strstr(q, " AS ");
        if ((skip_word(q, "VIEW") || skip_word(q, "MATERIALIZED")) && as)
            return as + 4;
        return NULL;
    }
    return skip_word(sql, "SELECT") || skip_word(sql, "VALUES") ? sql : NULL;
}

/* A tf_case_fn: arg is the tc_t the file's cases share. */
static void golden_case(void *arg, const char *file, int line, const char *sql, const char *expected)
{
    tc_t *t = arg;
    char label[256];
    snprintf(label, sizeof label, "%s:%d", file, line);
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_catalog_t cat = {.snap = t->snap, .search = t->search};
    bool is_explain;
    const char *q = query_of(sql, &is_explain);
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    /* Plans that read relations keep their 0A000 for Bind (defer), as Parse does. */
    if (q && pln_parse(&arena, q, strlen(q), &raws, &err) &&
        pln_bind_catalog(&arena, raws.items[0], q, NULL, 0, &settings, &cat, true, &st, &err) &&
        st->kind == PLN_QUERY && plan_whole(st)) {
        roundtrip(label, st, q, false);
        char *got = explain(&arena, st);
        if (is_explain && strncmp(expected, "ERROR", 5) != 0 && strcmp(got, expected) != 0) {
            printf("  %s: plan_explain differs from EXPLAIN:\n%s  --- EXPLAIN:\n%s", label, got, expected);
            unit__case_failed = 1;
        }
        free(got);
    }
    cm_err_clear(&err);
    /* DDL runs, so later cases see its tables and views. */
    if (pln_parse(&arena, sql, strlen(sql), &raws, &err) &&
        pln_bind_catalog(&arena, raws.items[0], sql, NULL, 0, &settings, &cat, false, &st, &err) &&
        st->kind == PLN_DDL) {
        tc_begin(t);
        if (pln_ddl_plan(&arena, st, sql, &settings, &cat, t->last, &err))
            tc_commit_change(t, t->last, st->tag);
    }
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

static void golden_file(const char *dir, const char *name)
{
    char path[1024];
    snprintf(path, sizeof path, "%s/%s", dir, name);
    FILE *f = fopen(path, "r");
    if (!f) {
        printf("  cannot open %s\n", path);
        unit__case_failed = 1;
        return;
    }
    tc_t t;
    tc_init(&t);
    tf_golden_cases(f, name, golden_case, &t, false);
    fclose(f);
    tc_free(&t);
}

static void test_explain_golden_plans(void)
{
    const char *dir = "tests/explain";
    char *names[256];
    int count = tf_list(dir, ".txt", names, 256);
    UNIT_CHECK(count > 0);
    int before = nplans;
    for (int i = 0; i < count; i++) {
        golden_file(dir, names[i]);
        free(names[i]);
    }
    UNIT_CHECK(nplans - before >= 30);
    printf("  %d golden plans\n", nplans - before);
}

/* ============================================================ constant queries */

static void query_line(const char *sql, int lineno)
{
    char label[64];
    snprintf(label, sizeof label, "queries.sql:%d", lineno);
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    pln_raw_list_t raws;
    if (pln_parse(&arena, sql, strlen(sql), &raws, &err)) {
        for (int i = 0; i < raws.count; i++) {
            pln_stmt_t *st = NULL;
            cm_err_clear(&err);
            if (pln_bind_prepare(&arena, raws.items[i], sql, NULL, 0, &settings, &st, &err) &&
                st->kind == PLN_QUERY)
                roundtrip(label, st, sql, true);
        }
    }
    cm_err_clear(&err);
    cm_arena_free(&arena);
}

static void test_constant_queries(void)
{
    FILE *f = fopen("tests/diff/queries.sql", "r");
    UNIT_CHECK(f != NULL);
    if (!f)
        return;
    int before = nplans, runs = nruns, lineno = 0;
    char line[65536];
    while (fgets(line, sizeof line, f)) {
        lineno++;
        size_t n = strlen(line);
        while (n && (line[n - 1] == '\n' || line[n - 1] == '\r'))
            line[--n] = '\0';
        if (n == 0 || strncmp(line, "--", 2) == 0)
            continue;
        query_line(line, lineno);
    }
    fclose(f);
    UNIT_CHECK(nruns - runs >= 200);
    printf("  %d constant plans, %d run\n", nplans - before, nruns - runs);
}

/* Constants of every kind of datum, each through a plan and back. */
static void test_every_datum_kind(void)
{
    static const char *const queries[] = {
        "SELECT 1::int2, 2, 3::int8, 1.5::float4, -2.5e300::float8, 'NaN'::float8, '-Infinity'::float4, -0.0::float8",
        "SELECT 1.2300, -0.000001::numeric(10,7), 'NaN'::numeric, 12345678901234567890123456789.5",
        "SELECT 'abc', 'x'::varchar(5), 'ab'::char(4), 'n'::name, '\\x00ff'::bytea, 'q'::\"char\", 'é'::text",
        "SELECT true, false, NULL::int4, NULL, NULL::int4[]",
        "SELECT date '2020-01-02', 'infinity'::date, time '12:34:56.789', timestamp '2020-01-02 03:04:05.678',"
        " timestamptz '2020-01-02 03:04:05+02', '-infinity'::timestamp, interval '1 year 2 days 03:04:05.5'",
        "SELECT '{1,NULL,3}'::int4[], '[0:1]={a,b}'::text[], '{{1,2},{3,4}}'::int8[], '{}'::numeric[]",
        "SELECT ROW(1, 'a', NULL), ROW(ROW(1.5, '{x}'::text[]), date '2001-01-01')",
        "SELECT '{\"a\": [1, 2.50, null], \"b\": {\"c\": \"d\"}}'::jsonb, '{\"b\":1,  \"a\":2}'::json",
        "SELECT 'a0eebc99-9c0b-4ef8-bb6d-6bb9bd380a11'::uuid, 'int4'::regtype, 1::oid, '{int4,text}'::regtype[]",
        "SELECT x, y FROM (VALUES (1, 'a'), (2, 'b'), (NULL, NULL)) v(x, y) WHERE x IS NOT NULL ORDER BY x DESC",
        "SELECT count(*), sum(x), avg(x), min(x), max(y), string_agg(y, ',' ORDER BY y DESC), array_agg(x),"
        " bool_and(x > 0), count(DISTINCT x) FILTER (WHERE x < 3) FROM (VALUES (1, 'a'), (2, 'b'), (2, 'c')) v(x, y)",
        "SELECT avg(i), sum(i) FROM (VALUES (interval '1 day'), (interval '3 hours')) v(i)",
        "SELECT x FROM (VALUES (1), (2)) a(x) WHERE x IN (SELECT 1) AND EXISTS (SELECT 1)"
        " AND x < ALL (SELECT 5) AND x = (SELECT max(y) FROM (VALUES (1), (2)) b(y) WHERE y > (SELECT 1))",
        "SELECT * FROM (VALUES (1)) a(x) FULL JOIN (VALUES (2)) b(y) ON x = y LEFT JOIN (VALUES (3)) c(z) ON true",
        "SELECT 1 UNION SELECT 2 INTERSECT SELECT 2 EXCEPT ALL SELECT 3 ORDER BY 1 LIMIT 5 OFFSET 0",
        "SELECT DISTINCT ON (x % 2) x FROM (VALUES (1), (2), (3)) v(x) ORDER BY x % 2, x DESC",
        "SELECT greatest(1, 2), least('a', 'b'), nullif(1, 1), coalesce(NULL, 2), 1 IS DISTINCT FROM 2,"
        " (1, 2) < (1, 3), 3 = ANY ('{1,2,3}'), 'x' IN ('y', 'z'), CASE WHEN random() < 2 THEN 1 END,"
        " true IS NOT UNKNOWN, ARRAY[[1,2],[3,4]], concat('a', 1, NULL), format('%s-%s', 1, 'b')",
        /* Decorrelating the sublink copies the subquery holding the WITH: one query in two LETs. */
        "SELECT * FROM (WITH w AS (SELECT 1 AS a) SELECT a FROM w) s"
        " WHERE s.a IN (SELECT k FROM (VALUES (1), (2)) t(k) WHERE t.k = s.a)",
        "SELECT name, statement FROM pg_prepared_statements",
        "SELECT $1::int4 + $2, $3::text",
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(queries); i++) {
        cm_arena_t arena;
        cm_arena_init(&arena, 4096);
        cm_err_t err = {0};
        ty_settings_t settings;
        ty_settings_default(&settings);
        pln_raw_list_t raws;
        pln_stmt_t *st = NULL;
        const char *sql = queries[i];
        bool ok = pln_parse(&arena, sql, strlen(sql), &raws, &err) &&
                  pln_bind_prepare(&arena, raws.items[0], sql, NULL, 0, &settings, &st, &err);
        if (!ok || st->kind != PLN_QUERY || st->plan_error) {
            printf("  cannot plan %s: %s\n", sql, err.message ? err.message : "(planning error)");
            unit__case_failed = 1;
        } else {
            char label[32];
            snprintf(label, sizeof label, "datum query %zu", i);
            roundtrip(label, st, sql, st->nparams == 0);
        }
        cm_err_clear(&err);
        cm_arena_free(&arena);
    }
}

/* ============================================================ malformed input */

static bool fails_cleanly(const uint8_t *p, size_t n, const plan_limits_t *lim, const char *want)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    plan_t *st = (plan_t *)&arena;   /* must be reset to NULL */
    bool ok = !plan_decode(&arena, p, n, lim, &st, &err) && st == NULL && strcmp(err.sqlstate, "XX001") == 0 &&
              err.message && strstr(err.message, want) != NULL;
    if (!ok)
        printf("  decode of %zu bytes: want XX001 \"%s\", got %s \"%s\"\n", n, want, err.set ? err.sqlstate : "success",
               err.message ? err.message : "");
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return ok;
}

static void test_truncations(void)
{
    UNIT_CHECK(nkept > 0);
    int tried = 0;
    for (int k = 0; k < nkept; k++)
        for (size_t n = 0; n < kept[k].len; n++, tried++)
            if (!fails_cleanly(kept[k].data, n, NULL, "")) {
                unit__case_failed = 1;
                break;
            }
    /* One byte more is as wrong as one less. */
    cm_buf_put_u8(&kept[0], 0);
    UNIT_CHECK(fails_cleanly(kept[0].data, kept[0].len, NULL, "1 bytes after the plan"));
    kept[0].len--;
    printf("  %d truncations of %d plans\n", tried, nkept);
}

/* The plan format these hand-made plans are written in. */
#define FORMAT 3

static void put32(cm_buf_t *b, uint32_t v)
{
    cm_buf_put_be32(b, v);
}

/* A statement of no columns and parameters up to its first subquery count. */
static void stmt_head(cm_buf_t *b, uint32_t version)
{
    cm_buf_put(b, "EDPL", 4);
    put32(b, version);
    put32(b, 0);           /* result columns */
    put32(b, 0);           /* parameters */
    cm_buf_put_be64(b, 0); /* catalog index */
    cm_buf_put_u8(b, 0);   /* no planning error */
}

static void test_bad_headers(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    stmt_head(&b, FORMAT);
    b.data[0] = 'X';
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "no EDPL header"));
    cm_buf_reset(&b);
    stmt_head(&b, FORMAT + 1);
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "format version 4"));
    cm_buf_reset(&b);
    stmt_head(&b, 0);
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "format version 0"));
    cm_buf_free(&b);
}

static void test_huge_counts(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    stmt_head(&b, FORMAT);
    put32(&b, 0x7fffffff);   /* subqueries */
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "more than the limit"));

    cm_buf_reset(&b);
    stmt_head(&b, FORMAT);
    put32(&b, 1000);         /* subqueries that the input cannot hold */
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "do not fit"));

    /* Rows of no columns take no bytes: they count against the node limit instead. */
    cm_buf_reset(&b);
    stmt_head(&b, FORMAT);
    put32(&b, 0);            /* subqueries */
    cm_buf_put_u8(&b, 0);    /* VALUES */
    put32(&b, 0);            /* columns */
    put32(&b, 900000);       /* rows */
    UNIT_CHECK(fails_cleanly(b.data, b.len, &(plan_limits_t){100, 1000}, "900000 rows, more than the limit of 1000"));
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "truncated"));   /* allowed, then the plan ends early */

    cm_buf_reset(&b);
    stmt_head(&b, FORMAT);
    b.data[11] = 200;        /* 200 result columns announced, none there */
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "do not fit"));
    cm_buf_free(&b);
}

/* A VALUES row of one boolean: NOT (NOT (... true)) `depth` deep. */
static void deep_plan(cm_buf_t *b, int depth)
{
    cm_buf_put(b, "EDPL", 4);
    put32(b, FORMAT);
    put32(b, 1);             /* one result column */
    put32(b, 1);
    cm_buf_put_u8(b, 'x');
    put32(b, 16);            /* bool */
    put32(b, 0xFFFFFFFF);    /* typmod -1 */
    put32(b, 0);             /* parameters */
    cm_buf_put_be64(b, 0);
    cm_buf_put_u8(b, 0);
    put32(b, 0);             /* subqueries */
    cm_buf_put_u8(b, 0);     /* VALUES */
    put32(b, 1);
    put32(b, 16);
    put32(b, 1);             /* one row */
    for (int i = 0; i <= depth; i++) {
        bool leaf = i == depth;
        cm_buf_put_u8(b, 1);
        cm_buf_put_u8(b, leaf ? 0 : 7);   /* CONST or NOT */
        put32(b, 16);
        put32(b, 0xFFFFFFFF);
        put32(b, 0xFFFFFFFF);
        cm_buf_put_u8(b, 0);
        cm_buf_put_u8(b, 0);
        put32(b, 0);
        cm_buf_put_u8(b, 0);              /* no function */
        put32(b, leaf ? 0 : 1);
    }
    cm_buf_put_u8(b, 0);                  /* not NULL */
    put32(b, 1);
    cm_buf_put_u8(b, 1);                  /* true */
    put32(b, 1);                          /* query columns */
    put32(b, 0);                          /* literals */
}

static void test_deep_nesting(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    deep_plan(&b, 50);
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    /* The hand-made plan is a real one: it decodes, runs and encodes to the same bytes. */
    pln_stmt_t *st = decode(&arena, b.data, b.len, NULL, &err);
    UNIT_CHECK(st != NULL);
    if (st) {
        char *rows = run(st, "");
        UNIT_CHECK_STR(rows, "t\n");
        free(rows);
        cm_buf_t again;
        cm_buf_init(&again, 0);
        UNIT_CHECK(plan_encode(st->query, NULL, &again, &err) && again.len == b.len &&
                   memcmp(again.data, b.data, b.len) == 0);
        cm_buf_reset(&again);
        /* Limits hold for encoding too. */
        UNIT_CHECK(!plan_encode(st->query, &(plan_limits_t){20, 1000}, &again, &err));
        UNIT_CHECK(strcmp(err.sqlstate, "54001") == 0);
        cm_err_clear(&err);
        cm_buf_free(&again);
    }
    UNIT_CHECK(fails_cleanly(b.data, b.len, &(plan_limits_t){20, 1000}, "nested more than 20 levels"));
    UNIT_CHECK(fails_cleanly(b.data, b.len, &(plan_limits_t){1000, 30}, "more than 30 nodes"));
    cm_buf_reset(&b);
    deep_plan(&b, 100000);
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "nested more than 10000 levels"));
    cm_err_clear(&err);
    cm_arena_free(&arena);
    cm_buf_free(&b);
}

/* Changes one byte of a one-constant plan: each must be caught by what it breaks. */
static void test_bad_references(void)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    deep_plan(&b, 0);
    /* The plan ends with the constant's node (25 bytes), its value (6) and two counts (8). */
    size_t node = b.len - 39, value = b.len - 14;
    UNIT_CHECK(b.data[node] == 1 && b.data[node + 1] == 0 && b.data[value + 5] == 1);
    struct {
        size_t at;
        uint8_t v;
        const char *want;
    } cases[] = {
        {node + 1, 2, "column #0 of a row of 0"},        /* a COLUMN in a VALUES row */
        {node + 1, 1, "parameter $1 of 0"},              /* a PARAM without parameters */
        {node + 1, 99, "unknown expression kind 99"},
        {node + 5, 17, "a value of type bytea where bool is read"},
        {node + 5, 99, "unknown type 99"},
        {node + 14, 2, "expression flags 2"},
        {node + 15, 3, "boolean test 3"},
        {node + 20, 2, "function tag 2"},
        {node + 24, 1, "do not fit"},                    /* an argument that is not there */
        {value, 2, "NULL flag 2"},
        {value + 4, 200, "truncated constant"},
        {value + 4, 2, "a constant of type bool"},       /* the type's own check of its binary form */
        {b.len - 5, 2, "query of 2 columns"},
        {b.len - 1, 7, "do not fit"},                    /* 7 literals in no bytes */
    };
    for (size_t i = 0; i < CM_ARRAY_LEN(cases); i++) {
        cm_buf_t c;
        cm_buf_init(&c, 0);
        cm_buf_put(&c, b.data, b.len);
        c.data[cases[i].at] = cases[i].v;
        if (!fails_cleanly(c.data, c.len, NULL, cases[i].want)) {
            printf("  (case %zu)\n", i);
            unit__case_failed = 1;
        }
        cm_buf_free(&c);
    }
    cm_buf_free(&b);
}

/* The first session relation read in rel's tree. */
static plan_rel_t *session_rel(plan_rel_t *rel)
{
    if (!rel || rel->kind == PLAN_REL_SESSION)
        return rel;
    plan_rel_t *in = session_rel(rel->input);
    return in ? in : session_rel(rel->right);
}

static bool adopt_fails(cm_arena_t *arena, plan_t *q, const char *want)
{
    cm_err_t err = {0};
    pln_stmt_t *st = (pln_stmt_t *)arena;   /* must be reset to NULL */
    bool ok = !pln_stmt_of_plan(arena, q, &st, &err) && st == NULL && strcmp(err.sqlstate, "XX001") == 0 &&
              strstr(err.message, want) != NULL;
    if (!ok)
        printf("  adopting the plan: want XX001 \"%s\", got %s \"%s\"\n", want, err.set ? err.sqlstate : "success",
               err.message ? err.message : "");
    cm_err_clear(&err);
    return ok;
}

/*
 * Which session relations exist is the planner's to know: a plan naming one
 * it does not bind (or with other columns) decodes, and the planner refuses
 * it before it runs or prints.
 */
static void test_session_relations(void)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    ty_settings_t settings;
    ty_settings_default(&settings);
    const char *sql = "SELECT name, statement FROM pg_prepared_statements";
    pln_raw_list_t raws;
    pln_stmt_t *st = NULL;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    UNIT_CHECK(pln_parse(&arena, sql, strlen(sql), &raws, &err) &&
               pln_bind_prepare(&arena, raws.items[0], sql, NULL, 0, &settings, &st, &err) &&
               plan_encode(st->query, NULL, &b, &err));
    /* The name the session is asked for is the plan's last occurrence of it: change its last letter. */
    const char *name = "pg_prepared_statements";
    size_t at = 0;
    for (size_t i = 0; i + strlen(name) <= b.len; i++)
        if (memcmp(b.data + i, name, strlen(name)) == 0)
            at = i + strlen(name) - 1;
    UNIT_CHECK(at > 0);
    plan_t *q = NULL;
    UNIT_CHECK(plan_decode(&arena, b.data, b.len, NULL, &q, &err));
    UNIT_CHECK(q && pln_stmt_of_plan(&arena, q, &st, &err) && st->query == q);
    b.data[at] = 'X';
    q = NULL;
    UNIT_CHECK(plan_decode(&arena, b.data, b.len, NULL, &q, &err));
    UNIT_CHECK(q && adopt_fails(&arena, q, "unknown session relation"));
    b.data[at] = 's';
    UNIT_CHECK(plan_decode(&arena, b.data, b.len, NULL, &q, &err));
    plan_rel_t *rel = q ? session_rel(q->root) : NULL;
    UNIT_CHECK(rel != NULL);
    if (rel) {
        ty_oid_t t = rel->types[0];
        rel->types[0] = TY_INT8;
        UNIT_CHECK(adopt_fails(&arena, q, "session relation pg_prepared_statements with column 0 of type 20"));
        rel->types[0] = t;
        rel->ncols--;
        UNIT_CHECK(adopt_fails(&arena, q, "unknown session relation"));
    }
    if (err.set)
        printf("  %s\n", err.message);
    cm_err_clear(&err);
    cm_buf_free(&b);
    cm_arena_free(&arena);
}

int main(int argc, char **argv)
{
    if (argc == 3 && strcmp(argv[1], "--seeds") == 0)
        seeds_dir = argv[2];
    UNIT_RUN(test_explain_golden_plans);
    UNIT_RUN(test_constant_queries);
    UNIT_RUN(test_every_datum_kind);
    if (seeds_dir) {
        printf("%d seeds written to %s\n", nseeds, seeds_dir);
        UNIT_EXIT();
    }
    UNIT_RUN(test_truncations);
    UNIT_RUN(test_bad_headers);
    UNIT_RUN(test_huge_counts);
    UNIT_RUN(test_deep_nesting);
    UNIT_RUN(test_bad_references);
    UNIT_RUN(test_session_relations);
    for (int i = 0; i < nkept; i++)
        cm_buf_free(&kept[i]);
    UNIT_EXIT();
}
