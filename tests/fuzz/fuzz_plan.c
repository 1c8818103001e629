/*
 * fuzz_plan.c: libFuzzer target for the query plan decoder (plan.h,
 * plan_decode).
 *
 * Any bytes: decoding must return without crashing; a failure is XX001
 * with a message and no plan. A plan that decodes is one the rest of
 * eddy can take: the planner adopts it (pln_stmt_of_plan, which checks its
 * session relations and may refuse them with XX001 too) and explains it,
 * and it encodes to bytes that decode again and encode to the same bytes
 * (the first encoding may differ from the input only where the input was
 * not in canonical form, such as a numeric's binary digits). Seeds are the
 * encoded plans of the unit test's queries (test_planner_codec --seeds).
 */
#include "plan/plan.h"
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

/* A clean refusal: XX001 with a message, and nothing made. */
static int fuzz__refused(cm_arena_t *arena, cm_err_t *err, bool made)
{
    if (made || !err->set || strcmp(err->sqlstate, "XX001") != 0 || !err->message || !*err->message)
        fuzz__fail("decode failed without a clean XX001", err);
    cm_err_clear(err);
    cm_arena_free(arena);
    return 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
    cm_arena_t arena;
    cm_arena_init(&arena, 4096);
    cm_err_t err = {0};
    plan_t *p = NULL;
    if (!plan_decode(&arena, data, size, NULL, &p, &err))
        return fuzz__refused(&arena, &err, p != NULL);
    pln_stmt_t *st = NULL;
    if (!pln_stmt_of_plan(&arena, p, &st, &err))
        return fuzz__refused(&arena, &err, st != NULL);
    cm_buf_t text, once, twice;
    cm_buf_init(&text, 0);
    cm_buf_init(&once, 0);
    cm_buf_init(&twice, 0);
    plan_explain(p, NULL, &arena, &text);
    if (!plan_encode(p, NULL, &once, &err))
        fuzz__fail("a decoded plan does not encode", &err);
    plan_t *again = NULL;
    if (!plan_decode(&arena, once.data, once.len, NULL, &again, &err))
        fuzz__fail("an encoded plan does not decode", &err);
    if (!plan_encode(again, NULL, &twice, &err))
        fuzz__fail("a decoded plan does not encode", &err);
    if (once.len != twice.len || memcmp(once.data, twice.data, once.len) != 0)
        fuzz__fail("encoding is not a fixed point", &err);
    cm_buf_free(&text);
    cm_buf_free(&once);
    cm_buf_free(&twice);
    cm_arena_free(&arena);
    return 0;
}
