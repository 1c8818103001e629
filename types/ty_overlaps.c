/*
 * ty_overlaps.c: overlaps(start1, end1, start2, end2), the function behind
 * (s1, e1) OVERLAPS (s2, e2), for timestamptz, timestamp and time (all three
 * are int64 microseconds here, so one comparison serves them).
 *
 * It is not strict: PostgreSQL's timestamp_overlaps answers from the
 * non-NULL ends where it can (a period with one NULL end is a single point,
 * and the ends of a period may come in either order). The forms with an
 * interval as the second value of a pair are SQL functions in PostgreSQL
 * ((s, s + i)); the planner writes them that way before calling this.
 */
#include "types/ty_internal.h"

#define TZ TY_TIMESTAMPTZ
#define TS TY_TIMESTAMP

static bool ty__null(ty_datum_t *out)
{
    out->isnull = true;
    return true;
}

static bool ty__bool(ty_datum_t *out, bool v)
{
    out->isnull = false;
    out->v.b = v;
    return true;
}

/* Puts a period's ends in order; a NULL start takes the end's place. False if both are NULL. */
static bool ty__period(const ty_datum_t *s, const ty_datum_t *e, int64_t *start, int64_t *end, bool *end_null)
{
    if (s->isnull) {
        if (e->isnull)
            return false;
        *start = e->v.i;
        *end_null = true;
        return true;
    }
    *start = s->v.i;
    *end_null = e->isnull;
    if (!e->isnull) {
        *end = e->v.i;
        if (*start > *end) {
            int64_t t = *start;
            *start = *end;
            *end = t;
        }
    }
    return true;
}

static bool ty__overlaps(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *out)
{
    int64_t s1, e1 = 0, s2, e2 = 0;
    bool e1null, e2null;
    if (!ty__period(&a[0], &a[1], &s1, &e1, &e1null) || !ty__period(&a[2], &a[3], &s2, &e2, &e2null))
        return ty__null(out);
    if (s1 > s2) {
        /* s1 < e2 OR e1 < e2, which NULLs make not quite redundant */
        if (e2null)
            return ty__null(out);
        if (s1 < e2)
            return ty__bool(out, true);
        return e1null ? ty__null(out) : ty__bool(out, false);
    }
    if (s1 < s2) {
        if (e1null)
            return ty__null(out);
        if (s2 < e1)
            return ty__bool(out, true);
        return e2null ? ty__null(out) : ty__bool(out, false);
    }
    /* Equal starts overlap when both ends are known. */
    return e1null || e2null ? ty__null(out) : ty__bool(out, true);
}

static const ty_func_t ty__overlaps_funcs[] = {
    {"overlaps", 4, {TZ, TZ, TZ, TZ}, TY_BOOL, 0, ty__overlaps, 1304},
    {"overlaps", 4, {TS, TS, TS, TS}, TY_BOOL, 0, ty__overlaps, 2041},
    {"overlaps", 4, {TY_TIME, TY_TIME, TY_TIME, TY_TIME}, TY_BOOL, 0, ty__overlaps, 1308},
};

const ty_func_table_t ty_funcs_overlaps = {ty__overlaps_funcs, CM_ARRAY_LEN(ty__overlaps_funcs)};
