/*
 * plan_frame.c: window frames, PostgreSQL's semantics, over rows already
 * in the window's order (plan.h, plan_frame_rows_t): ROWS counts rows,
 * GROUPS counts peer groups, RANGE compares the single ORDER BY value
 * with the current row's plus or minus the offset; then EXCLUDE takes the
 * current row, its group or its ties out. Every executor of a window
 * computes its frames here.
 */
#include "plan/plan.h"

/* RANGE with offset: does value v lie on the frame's side of bound (start: at or after, end: at or before)? */
static bool plan__range_in(const plan_frame_rows_t *f, const ty_datum_t *v, const ty_datum_t *bound, bool start)
{
    if (v->isnull || bound->isnull)
        return false;
    int c = ty_datum_compare(f->bound_type, v, bound);
    if (f->w->keys[0].desc)
        c = -c;
    return start ? c >= 0 : c <= 0;
}

/*
 * Where an offset bound (n PRECEDING / n FOLLOWING, d the signed offset) of
 * row i's frame falls in the partition [ps, pe): start and end differ only
 * in taking a group's first or last row and in which way a RANGE scan runs,
 * so one function answers both. A start past the rows is pe, an end before
 * them ps - 1 (an empty frame); frame_of clamps the rest.
 */
static int64_t plan__offset_bound(const plan_frame_rows_t *f, int ps, int pe, int i, int64_t d, bool start)
{
    plan_frame_mode_t mode = f->w->frame.mode;
    int g = f->group[i], ngroups = f->group[pe - 1] + 1;
    const int *edge = start ? f->gstart : f->gend;
    if (mode == PLAN_FRAME_ROWS)
        return i + d;
    if (mode == PLAN_FRAME_GROUPS) {
        int64_t gg = g + d;
        if (gg < 0)
            return start ? ps : ps - 1;
        return gg >= ngroups ? (start ? pe : pe - 1) : edge[gg];
    }
    if (f->w->norder == 1 && f->rv[i].isnull)
        return edge[g]; /* RANGE from a NULL key: its peers */
    if (start) {
        for (int j = ps; j < pe; j++)
            if (plan__range_in(f, &f->rv[j], &f->sb[i], true))
                return j;
        return pe;
    }
    for (int j = pe - 1; j >= ps; j--)
        if (plan__range_in(f, &f->rv[j], &f->eb[i], false))
            return j;
    return ps - 1;
}

/* Where the start (or the end) of row i's frame falls: one function for
 * both, since they differ only in which edge of the partition or of a peer
 * group they take. The partition's edge is the answer for UNBOUNDED. */
static int64_t plan__frame_bound(const plan_frame_rows_t *f, int ps, int pe, int i, plan_frame_bound_t kind, int64_t off, bool start)
{
    int64_t cur = f->w->frame.mode == PLAN_FRAME_ROWS ? i : (start ? f->gstart : f->gend)[f->group[i]];
    switch (kind) {
    case PLAN_BOUND_PRECEDING:
    case PLAN_BOUND_FOLLOWING:
        return plan__offset_bound(f, ps, pe, i, kind == PLAN_BOUND_PRECEDING ? -off : off, start);
    case PLAN_BOUND_CURRENT_ROW:
        return cur;
    case PLAN_BOUND_NONE: /* an end left out is CURRENT ROW */
        if (!start)
            return cur;
        break;
    default:
        break;
    }
    return start ? ps : pe - 1;
}

void plan_frame_of(const plan_frame_rows_t *f, int ps, int pe, int i, int *fs, int *fe)
{
    const plan_frame_t *fr = &f->w->frame;
    int64_t s = plan__frame_bound(f, ps, pe, i, fr->start, f->soff, true);
    int64_t e = plan__frame_bound(f, ps, pe, i, fr->end, f->eoff, false);
    if (s < ps)
        s = ps;
    if (e > pe - 1)
        e = pe - 1;
    if (s > pe)
        s = pe;
    if (e < ps - 1)
        e = ps - 1;
    *fs = (int)s;
    *fe = (int)e;
}

bool plan_frame_excluded(const plan_frame_rows_t *f, int i, int j)
{
    switch (f->w->frame.exclude) {
    case PLAN_EXCLUDE_CURRENT_ROW:
        return j == i;
    case PLAN_EXCLUDE_GROUP:
        return f->group[j] == f->group[i];
    case PLAN_EXCLUDE_TIES:
        return j != i && f->group[j] == f->group[i];
    default:
        return false;
    }
}

int plan_frame_row(const plan_frame_rows_t *f, int i, int fs, int fe, int64_t n, bool last)
{
    if (last) {
        for (int j = fe; j >= fs; j--)
            if (!plan_frame_excluded(f, i, j) && n-- == 0)
                return j;
    } else {
        for (int j = fs; j <= fe; j++)
            if (!plan_frame_excluded(f, i, j) && n-- == 0)
                return j;
    }
    return -1;
}

