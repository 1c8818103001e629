/*
 * test_plan_codec.c: the plan codec on its own (plan.h, plan_encode /
 * plan_decode), as a worker uses it.
 *
 * This binary links only the objects of plan/, types/ and common/ (the
 * Makefile's rule for test_plan_*), so that its link proves decoding and
 * encoding a plan need nothing of the planner, the parser or the catalog.
 * Its plans are the fuzz corpus's seeds, tests/fuzz/corpus/plan/seed-*:
 * the encoded plans of every EXPLAIN golden query and every differential
 * query, written by `test_planner_codec --seeds DIR` and named by the
 * FNV-1a hash of their bytes. Each must decode into a plan_t that is
 * whole (result columns over its root, operators, subqueries in range),
 * print as EXPLAIN does (plan_explain) and encode again to exactly its bytes. Truncations, a byte too many, a
 * wrong header or version and tight limits must fail with XX001 (decoding)
 * or 54001 (encoding).
 */
#include "plan/plan.h"
#include "tests/unit/unit.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define CORPUS "tests/fuzz/corpus/plan"
#define SEEDS_MAX 4096

typedef struct seed {
    char *name;
    uint8_t *bytes;
    size_t len;
} seed_t;

static seed_t seeds[SEEDS_MAX];
static int nseeds;

static int seed_cmp(const void *a, const void *b)
{
    return strcmp(((const seed_t *)a)->name, ((const seed_t *)b)->name);
}

/* Reads every seed-* of the corpus, in name order. */
static void seeds_load(void)
{
    DIR *d = opendir(CORPUS);
    if (!d)
        return;
    struct dirent *e;
    while ((e = readdir(d)) != NULL && nseeds < SEEDS_MAX) {
        if (strncmp(e->d_name, "seed-", 5) != 0)
            continue;
        char path[1024];
        snprintf(path, sizeof path, "%s/%s", CORPUS, e->d_name);
        FILE *f = fopen(path, "rb");
        if (!f)
            continue;
        cm_buf_t b;
        cm_buf_init(&b, 0);
        char chunk[4096];
        size_t n;
        while ((n = fread(chunk, 1, sizeof chunk, f)) > 0)
            cm_buf_put(&b, chunk, n);
        fclose(f);
        seeds[nseeds++] = (seed_t){cm_strdup(e->d_name), b.data, b.len};
    }
    closedir(d);
    qsort(seeds, (size_t)nseeds, sizeof(seed_t), seed_cmp);
}

static uint64_t fnv1a(const uint8_t *p, size_t n)
{
    uint64_t h = 14695981039346656037ull;
    for (size_t i = 0; i < n; i++)
        h = (h ^ p[i]) * 1099511628211ull;
    return h;
}

/* Decoding fails with XX001, a message naming `want` and no plan. */
static bool fails_cleanly(const uint8_t *p, size_t n, const plan_limits_t *lim, const char *want)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    plan_t *q = (plan_t *)&arena;   /* must be reset to NULL */
    bool ok = !plan_decode(&arena, p, n, lim, &q, &err) && q == NULL && strcmp(err.sqlstate, "XX001") == 0 &&
              err.message && strncmp(err.message, "invalid query plan at byte ", 27) == 0 &&
              strstr(err.message, want) != NULL;
    if (!ok)
        printf("  decode of %zu bytes: want XX001 \"%s\", got %s \"%s\"\n", n, want, err.set ? err.sqlstate : "success",
               err.message ? err.message : "");
    cm_err_clear(&err);
    cm_arena_free(&arena);
    return ok;
}

static int session_reads(const plan_rel_t *r)
{
    if (!r)
        return 0;
    int n = (r->kind == PLAN_REL_SESSION) + session_reads(r->input) + session_reads(r->right);
    for (int i = 0; i < r->nctes; i++)
        n += session_reads(r->ctes[i]->def) + session_reads(r->ctes[i]->rec);
    return n;
}

/* Whether the plan prints as EXPLAIN does: the header, then an operator's line. */
static bool explains(cm_arena_t *arena, const plan_t *q)
{
    cm_buf_t out;
    cm_buf_init(&out, 0);
    plan_explain(q, NULL, arena, &out);
    static const char head[] = "Explained Query:\n  ";
    bool ok = out.len > sizeof head && memcmp(out.data, head, sizeof head - 1) == 0 && out.data[out.len - 1] == '\n';
    cm_buf_free(&out);
    return ok;
}

/* ============================================================ the corpus */

static void test_every_seed_decodes_and_encodes_to_its_bytes(void)
{
    UNIT_CHECK(nseeds >= 500);
    int64_t operators = 0;
    int with_subqueries = 0, with_params = 0, with_error = 0, with_sessions = 0, reading_catalog = 0;
    for (int i = 0; i < nseeds; i++) {
        const seed_t *s = &seeds[i];
        char want[32];
        snprintf(want, sizeof want, "seed-%016llx", (unsigned long long)fnv1a(s->bytes, s->len));
        if (strcmp(want, s->name) != 0) {
            printf("  %s: its bytes hash to %s (not a seed test_planner_codec --seeds wrote)\n", s->name, want);
            unit__case_failed = 1;
        }
        cm_arena_t arena;
        cm_arena_init(&arena, 4096);
        cm_err_t err = {0};
        plan_t *q = NULL;
        cm_buf_t again;
        cm_buf_init(&again, 0);
        if (!plan_decode(&arena, s->bytes, s->len, NULL, &q, &err)) {
            printf("  %s: %s %s\n", s->name, err.sqlstate, err.message);
            unit__case_failed = 1;
        } else if (!q->root || q->root->ncols != q->ncols || (q->ncols > 0 && !q->cols) ||
                   plan_operator_count(q) < 1) {
            printf("  %s: decoded into a plan that is not whole\n", s->name);
            unit__case_failed = 1;
        } else if (!explains(&arena, q)) {
            printf("  %s: the decoded plan does not print\n", s->name);
            unit__case_failed = 1;
        } else if (!plan_encode(q, NULL, &again, &err) || again.len != s->len ||
                   memcmp(again.data, s->bytes, s->len) != 0) {
            printf("  %s: encoding the decoded plan gives other bytes (%zu, %zu) %s\n", s->name, s->len, again.len,
                   err.message ? err.message : "");
            unit__case_failed = 1;
        } else {
            operators += plan_operator_count(q);
            with_subqueries += q->nsublinks > 0;
            with_params += q->nparams > 0;
            with_error += q->error != NULL;
            reading_catalog += q->catalog_index != 0;
            int sess = session_reads(q->root);
            for (int k = 0; k < q->nsublinks; k++)
                sess += session_reads(q->sublinks[k].rel);
            with_sessions += sess > 0;
        }
        cm_err_clear(&err);
        cm_buf_free(&again);
        cm_arena_free(&arena);
    }
    /* The corpus holds every part of the format, so the round trip above covers it. */
    UNIT_CHECK(with_subqueries > 0 && with_params > 0 && with_error > 0 && with_sessions > 0 && reading_catalog > 0);
    printf("  %d plans, %lld operators; %d with subqueries, %d with parameters, %d with a kept error, %d reading "
           "session relations, %d bound at a catalog index\n",
           nseeds, (long long)operators, with_subqueries, with_params, with_error, with_sessions, reading_catalog);
}

/* ============================================================ malformed input */

static void test_truncations_fail_cleanly(void)
{
    int tried = 0, every = 0;
    for (int i = 0; i < nseeds; i++) {
        const seed_t *s = &seeds[i];
        /* Every length of the first plans of some size; a few of every other one. */
        bool all = every < 16 && s->len > 120;
        every += all;
        for (size_t n = 0; n < s->len; n++) {
            if (!all && n != 0 && n != 7 && n != s->len / 2 && n != s->len - 1)
                continue;
            tried++;
            if (!fails_cleanly(s->bytes, n, NULL, "")) {
                printf("  (%s truncated to %zu bytes)\n", s->name, n);
                unit__case_failed = 1;
                break;
            }
        }
        /* One byte more is as wrong as one less. */
        cm_buf_t b;
        cm_buf_init(&b, 0);
        cm_buf_put(&b, s->bytes, s->len);
        cm_buf_put_u8(&b, 0);
        if (!fails_cleanly(b.data, b.len, NULL, "1 bytes after the plan"))
            unit__case_failed = 1;
        cm_buf_free(&b);
    }
    UNIT_CHECK(every == 16);
    printf("  %d truncations of %d plans\n", tried, nseeds);
}

static void test_headers_and_limits(void)
{
    /* The largest seed: the deepest and widest plan the corpus has. */
    const seed_t *big = NULL;
    for (int i = 0; i < nseeds; i++)
        if (!big || seeds[i].len > big->len)
            big = &seeds[i];
    UNIT_CHECK(big != NULL);
    if (!big)
        return;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put(&b, big->bytes, big->len);
    b.data[0] = 'X';
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "no EDPL header"));
    b.data[0] = 'E';
    b.data[7] = 4;
    UNIT_CHECK(fails_cleanly(b.data, b.len, NULL, "plan format version 4; this eddy reads version 3"));
    cm_buf_free(&b);
    /* Limits hold both ways: decoding refuses what encoding would not write. */
    UNIT_CHECK(fails_cleanly(big->bytes, big->len, &(plan_limits_t){1000, 3}, "more than 3 nodes"));
    UNIT_CHECK(fails_cleanly(big->bytes, big->len, &(plan_limits_t){2, 1000000}, "nested more than 2 levels"));
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    plan_t *q = NULL;
    UNIT_CHECK(plan_decode(&arena, big->bytes, big->len, NULL, &q, &err));
    if (q) {
        cm_buf_t out;
        cm_buf_init(&out, 0);
        UNIT_CHECK(!plan_encode(q, &(plan_limits_t){1000, 3}, &out, &err) && strcmp(err.sqlstate, "54001") == 0);
        cm_err_clear(&err);
        cm_buf_reset(&out);
        UNIT_CHECK(!plan_encode(q, &(plan_limits_t){2, 1000000}, &out, &err) && strcmp(err.sqlstate, "54001") == 0);
        cm_err_clear(&err);
        cm_buf_free(&out);
    }
    cm_arena_free(&arena);
}

/*
 * Which session relations exist is not the plan's to know: a read of one
 * decodes by its names, whatever they are (the planner checks the relation
 * when it adopts a decoded plan; a worker never reads one).
 */
static void test_session_reads_decode_by_name(void)
{
    static const char name[] = "pg_prepared_statements";
    const size_t n = sizeof name - 1;
    int tried = 0;
    for (int i = 0; i < nseeds && tried < 3; i++) {
        const seed_t *s = &seeds[i];
        /* The name the session is asked for comes right after the relation's qualified name. */
        const uint8_t *at = NULL;
        for (size_t k = 0; k + n <= s->len; k++)
            if (memcmp(s->bytes + k, name, n) == 0)
                at = s->bytes + k;
        if (!at || at - s->bytes < 4 + 11 + (long)n || memcmp(at - 4 - 11 - n, "pg_catalog.", 11) != 0)
            continue;
        tried++;
        cm_buf_t b;
        cm_buf_init(&b, 0);
        cm_buf_put(&b, s->bytes, s->len);
        b.data[(size_t)(at - s->bytes) + n - 1] = 'X';
        cm_arena_t arena;
        cm_arena_init(&arena, 4096);
        cm_err_t err = {0};
        plan_t *q = NULL;
        UNIT_CHECK(plan_decode(&arena, b.data, b.len, NULL, &q, &err));
        if (err.set)
            printf("  %s: %s\n", s->name, err.message);
        cm_err_clear(&err);
        cm_arena_free(&arena);
        cm_buf_free(&b);
    }
    UNIT_CHECK(tried > 0);
}

int main(void)
{
    seeds_load();
    UNIT_RUN(test_every_seed_decodes_and_encodes_to_its_bytes);
    UNIT_RUN(test_truncations_fail_cleanly);
    UNIT_RUN(test_headers_and_limits);
    UNIT_RUN(test_session_reads_decode_by_name);
    for (int i = 0; i < nseeds; i++) {
        free(seeds[i].name);
        free(seeds[i].bytes);
    }
    UNIT_EXIT();
}
