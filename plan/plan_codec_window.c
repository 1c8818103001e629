/*
 * plan_codec_window.c: a WINDOW operator's window in the plan codec
 * (plan_codec.c has the format around it):
 *
 *   u32 npart, PARTITION BY expressions; u32 norder, ORDER BY expressions
 *   and their sort keys; the frame: u8 mode, start, end, exclude, then the
 *   optional start offset, end offset, start bound and end bound; u32
 *   nfuncs and each function: u8 kind, str name, u32 type, i32 typmod,
 *   u32 nargs and the arguments, u8 0 | 1 and an aggregate.
 *
 * Decoding checks what the window executor and EXPLAIN rely on: an offset
 * where a bound has one, a RANGE bound over an ORDER BY value, each kind's
 * arguments (integers where it counts rows), and the output columns: the
 * input's, then one per function of the type it computes.
 */
#include "plan/plan_codec.h"

void plan__wr_window(plan__wr_t *w, const plan_window_t *win)
{
    if (!win) {
        plan__wr_fail(w, CM_ERRCODE_INTERNAL_ERROR, "a WINDOW operator without its window");
        return;
    }
    plan__wr_exprs(w, win->part, win->npart, true);
    plan__wr_exprs(w, win->order, win->norder, true);
    plan__wr_keys(w, win->keys, win->norder);
    const plan_frame_t *f = &win->frame;
    plan__wr_u8(w, (uint8_t)f->mode);
    plan__wr_u8(w, (uint8_t)f->start);
    plan__wr_u8(w, (uint8_t)f->end);
    plan__wr_u8(w, (uint8_t)f->exclude);
    plan__wr_expr(w, f->start_offset);
    plan__wr_expr(w, f->end_offset);
    plan__wr_expr(w, f->start_bound);
    plan__wr_expr(w, f->end_bound);
    plan__wr_u32(w, (uint32_t)win->nfuncs);
    for (int i = 0; i < win->nfuncs && !w->failed; i++) {
        const plan_wfunc_t *fn = win->funcs[i];
        if (!plan__wr_enter(w))
            return;
        plan__wr_u8(w, (uint8_t)fn->kind);
        plan__wr_str(w, fn->name);
        plan__wr_u32(w, fn->type);
        plan__wr_i32(w, fn->typmod);
        plan__wr_exprs(w, (ty_expr_t *const *)fn->args, fn->nargs, true);
        plan__wr_u8(w, fn->agg != NULL);
        if (fn->agg)
            plan__wr_agg(w, fn->agg);
        plan__wr_leave(w);
    }
}

static bool has_offset(plan_frame_bound_t k)
{
    return k == PLAN_BOUND_PRECEDING || k == PLAN_BOUND_FOLLOWING;
}

static bool frame_read(plan__rd_t *r, plan_window_t *win)
{
    plan_frame_t *f = &win->frame;
    f->mode = (plan_frame_mode_t)plan__rd_u8(r);
    f->start = (plan_frame_bound_t)plan__rd_u8(r);
    f->end = (plan_frame_bound_t)plan__rd_u8(r);
    f->exclude = (plan_frame_exclude_t)plan__rd_u8(r);
    if (r->failed)
        return false;
    if (f->mode < PLAN_FRAME_RANGE || f->mode > PLAN_FRAME_GROUPS || f->start < PLAN_BOUND_UNBOUNDED_PRECEDING ||
        f->start > PLAN_BOUND_UNBOUNDED_FOLLOWING || f->end > PLAN_BOUND_UNBOUNDED_FOLLOWING ||
        f->exclude > PLAN_EXCLUDE_TIES)
        return plan__rd_fail(r, "window frame %d %d %d %d", (int)f->mode, (int)f->start, (int)f->end, (int)f->exclude);
    /* Offsets are computed once, without a row; RANGE bounds over each input row. */
    const ty_oid_t *types = r->row_types;
    int width = r->row_width;
    plan__row_ctx_t saved = plan__row_set(r, NULL, 0);
    f->start_offset = plan__rd_expr(r, true);
    f->end_offset = plan__rd_expr(r, true);
    plan__row_set(r, types, width);
    f->start_bound = plan__rd_expr(r, true);
    f->end_bound = plan__rd_expr(r, true);
    plan__row_restore(r, saved);
    if (r->failed)
        return false;
    if (!f->start_offset != !has_offset(f->start) || !f->end_offset != !has_offset(f->end))
        return plan__rd_fail(r, "a window frame's offsets do not match its bounds");
    bool range = f->mode == PLAN_FRAME_RANGE;
    if (!f->start_bound != !(range && has_offset(f->start)) || !f->end_bound != !(range && has_offset(f->end)))
        return plan__rd_fail(r, "a RANGE frame's bounds do not match its offsets");
    if ((f->start_bound || f->end_bound) && win->norder != 1)
        return plan__rd_fail(r, "a RANGE frame with an offset over %d ORDER BY values", win->norder);
    return true;
}

/* The type shape a window function computes, or TY_INVALID after failing. */
static ty_oid_t wfunc_check(plan__rd_t *r, const plan_wfunc_t *fn)
{
    static const struct {
        int min, max;
    } arity[] = {
        [PLAN_WF_AGG] = {0, 3},         [PLAN_WF_ROW_NUMBER] = {0, 0}, [PLAN_WF_RANK] = {0, 0},
        [PLAN_WF_DENSE_RANK] = {0, 0},  [PLAN_WF_PERCENT_RANK] = {0, 0}, [PLAN_WF_CUME_DIST] = {0, 0},
        [PLAN_WF_NTILE] = {1, 1},       [PLAN_WF_LAG] = {1, 3},        [PLAN_WF_LEAD] = {1, 3},
        [PLAN_WF_FIRST_VALUE] = {1, 1}, [PLAN_WF_LAST_VALUE] = {1, 1}, [PLAN_WF_NTH_VALUE] = {2, 2},
    };
    if (fn->kind > PLAN_WF_NTH_VALUE || fn->nargs < arity[fn->kind].min || fn->nargs > arity[fn->kind].max ||
        (fn->kind == PLAN_WF_AGG) != (fn->agg != NULL) || (!fn->name && !fn->agg)) {
        plan__rd_fail(r, "window function of kind %d with %d arguments", (int)fn->kind, fn->nargs);
        return TY_INVALID;
    }
    /* The argument that counts rows (ntile's buckets, lag's offset, nth_value's n) is read as an integer. */
    int count_arg = fn->kind == PLAN_WF_NTILE ? 0 : fn->kind == PLAN_WF_NTH_VALUE || fn->nargs > 1 ? 1 : -1;
    if (fn->kind != PLAN_WF_AGG && count_arg >= 0 &&
        !plan__rd_check_shape(r, fn->args[count_arg]->type, TY_INT8, "a window function's count"))
        return TY_INVALID;
    switch (fn->kind) {
    case PLAN_WF_AGG:
        return fn->agg->type;
    case PLAN_WF_ROW_NUMBER:
    case PLAN_WF_RANK:
    case PLAN_WF_DENSE_RANK:
    case PLAN_WF_NTILE:
        return TY_INT8;
    case PLAN_WF_PERCENT_RANK:
    case PLAN_WF_CUME_DIST:
        return TY_FLOAT8;
    default:
        /* lag/lead's default stands in for the value */
        if (fn->nargs > 2 && !plan__rd_check_shape(r, fn->args[2]->type, fn->args[0]->type, "a default"))
            return TY_INVALID;
        return fn->args[0]->type;
    }
}

static plan_wfunc_t *wfunc_read(plan__rd_t *r)
{
    if (!plan__rd_enter(r))
        return NULL;
    plan_wfunc_t *fn = cm_arena_zalloc(r->arena, sizeof(*fn));
    fn->kind = (plan_wfunc_kind_t)plan__rd_u8(r);
    fn->name = plan__rd_str(r, "window function name");
    fn->type = plan__rd_type(r, false);
    fn->typmod = plan__rd_i32(r);
    fn->nargs = plan__rd_count(r, "window function arguments", 3, PLAN_CODEC_EXPR_MIN);
    for (int i = 0; i < fn->nargs && !r->failed; i++)
        fn->args[i] = plan__rd_expr(r, false);
    if (plan__rd_bool(r))
        fn->agg = plan__rd_agg(r);
    if (r->failed)
        return NULL;
    ty_oid_t t = wfunc_check(r, fn);
    if (r->failed || !plan__rd_check_shape(r, fn->type, t, "a window function's value"))
        return NULL;
    plan__rd_leave(r);
    return fn;
}

bool plan__rd_window(plan__rd_t *r, plan_rel_t *rel)
{
    const plan_rel_t *in = rel->input;
    plan_window_t *win = cm_arena_zalloc(r->arena, sizeof(*win));
    rel->window = win;
    plan__row_ctx_t saved = plan__row_set(r, in->types, in->ncols);
    win->npart = plan__rd_count(r, "PARTITION BY values", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (!r->failed)
        win->part = plan__rd_exprs(r, win->npart);
    win->norder = plan__rd_count(r, "window ORDER BY values", r->lim.nodes_max, PLAN_CODEC_EXPR_MIN);
    if (!r->failed)
        win->order = plan__rd_exprs(r, win->norder);
    if (r->failed) {
        plan__row_restore(r, saved);
        return false;
    }
    /* A key's column counts over the partition values, then the ORDER BY values. */
    int width = win->npart + win->norder;
    ty_oid_t *types = cm_arena_alloc(r->arena, sizeof(ty_oid_t) * (size_t)(width ? width : 1));
    for (int i = 0; i < width; i++)
        types[i] = i < win->npart ? win->part[i]->type : win->order[i - win->npart]->type;
    win->keys = plan__rd_keys(r, win->norder, types, width);
    if (!r->failed)
        frame_read(r, win);
    win->nfuncs = plan__rd_count(r, "window functions", r->lim.nodes_max, 15);
    if (!r->failed)
        win->funcs = cm_arena_zalloc(r->arena, sizeof(plan_wfunc_t *) * (size_t)(win->nfuncs ? win->nfuncs : 1));
    for (int i = 0; i < win->nfuncs && !r->failed; i++)
        win->funcs[i] = wfunc_read(r);
    plan__row_restore(r, saved);
    if (r->failed)
        return false;
    if (rel->ncols != in->ncols + win->nfuncs)
        return plan__rd_fail(r, "a window of %d columns over %d with %d functions", rel->ncols, in->ncols, win->nfuncs);
    for (int i = 0; i < rel->ncols && !r->failed; i++)
        plan__rd_check_shape(r, i < in->ncols ? in->types[i] : win->funcs[i - in->ncols]->type, rel->types[i],
                             "a window's column");
    return !r->failed;
}
