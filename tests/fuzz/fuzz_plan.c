/*
 * fuzz_plan.c: libFuzzer target for the query plan decoder (planner.h,
 * pln_plan_decode).
 *
 * Any bytes: decoding must return without crashing; a failure is XX001
 * with a message and no plan. A plan that decodes is one the rest of the
 * planner can take: it explains, and it encodes to bytes that decode
 * again and encode to the same bytes (the first encoding may differ from
 * the input only where the input was not in canonical form, such as a
 * numeric's binary digits). Seeds are the encoded plans of the unit
 * test's queries (test_planner_codec --seeds).
 */
#include "planner/planner.h"
#include "tests/fuzz/fuzz.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void fuzz__fail(const char *what, const cm_err_t *err)
{
    fprintf(stderr, "fuzz_plan: %s: %s %s\n", what, err->set ? err->sqlstate : "", err->message ? err->message : "");
    abort();
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    pln_stmt_t *st = NULL;
    if (!pln_plan_decode(&arena, data, size, NULL, &st, &err)) {
        if (st != NULL || !err.set || strcmp(err.sqlstate, "XX001") != 0 || !err.message || !*err.message)
            fuzz__fail("decode failed without a clean XX001", &err);
        cm_err_clear(&err);
        cm_arena_free(&arena);
        return 0;
    }
    cm_buf_t text, once, twice;
    cm_buf_init(&text, 0);
    cm_buf_init(&once, 0);
    cm_buf_init(&twice, 0);
    plan_explain(st->query, NULL, &arena, &text);
    if (!pln_plan_encode(st, NULL, &once, &err))
        fuzz__fail("a decoded plan does not encode", &err);
    pln_stmt_t *again = NULL;
    if (!pln_plan_decode(&arena, once.data, once.len, NULL, &again, &err))
        fuzz__fail("an encoded plan does not decode", &err);
    if (!pln_plan_encode(again, NULL, &twice, &err))
        fuzz__fail("a decoded plan does not encode", &err);
    if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
        fuzz__fail("encoding is not a fixed point", &err);
    cm_buf_free(&text);
    cm_buf_free(&once);
    cm_buf_free(&twice);
    cm_arena_free(&arena);
    return 0;
}
