/*
 * pln_enums.c: the parser's enums as the plan's. The plan (plan.h) has
 * its own set operations, join kinds, frames and subquery kinds so that
 * whoever runs a plan needs no parser; the binder translates here, once
 * per node it builds.
 */
#include "planner/pln_internal.h"

plan_setop_t pln__setop_of(sql_setop_t op)
{
    switch (op) {
    case SQL_SETOP_NONE: return PLAN_SETOP_NONE;
    case SQL_SETOP_UNION: return PLAN_SETOP_UNION;
    case SQL_SETOP_INTERSECT: return PLAN_SETOP_INTERSECT;
    case SQL_SETOP_EXCEPT: return PLAN_SETOP_EXCEPT;
    }
    CM_ASSERT(!"unknown set operation");
    return PLAN_SETOP_NONE;
}

plan_join_t pln__join_of(sql_join_kind_t kind)
{
    switch (kind) {
    case SQL_JOIN_INNER: return PLAN_JOIN_INNER;
    case SQL_JOIN_LEFT: return PLAN_JOIN_LEFT;
    case SQL_JOIN_RIGHT: return PLAN_JOIN_RIGHT;
    case SQL_JOIN_FULL: return PLAN_JOIN_FULL;
    case SQL_JOIN_CROSS: return PLAN_JOIN_CROSS;
    }
    CM_ASSERT(!"unknown join kind");
    return PLAN_JOIN_INNER;
}

plan_sublink_kind_t pln__sublink_of(sql_sublink_t kind)
{
    switch (kind) {
    case SQL_SUBLINK_EXPR: return PLAN_SUBLINK_EXPR;
    case SQL_SUBLINK_EXISTS: return PLAN_SUBLINK_EXISTS;
    case SQL_SUBLINK_IN: return PLAN_SUBLINK_IN;
    case SQL_SUBLINK_ARRAY: return PLAN_SUBLINK_ARRAY;
    case SQL_SUBLINK_ANY: return PLAN_SUBLINK_ANY;
    case SQL_SUBLINK_ALL: return PLAN_SUBLINK_ALL;
    }
    CM_ASSERT(!"unknown subquery kind");
    return PLAN_SUBLINK_EXPR;
}

plan_frame_mode_t pln__frame_mode_of(sql_frame_mode_t mode)
{
    switch (mode) {
    case SQL_FRAME_DEFAULT: return PLAN_FRAME_DEFAULT;
    case SQL_FRAME_RANGE: return PLAN_FRAME_RANGE;
    case SQL_FRAME_ROWS: return PLAN_FRAME_ROWS;
    case SQL_FRAME_GROUPS: return PLAN_FRAME_GROUPS;
    }
    CM_ASSERT(!"unknown frame mode");
    return PLAN_FRAME_DEFAULT;
}

plan_frame_bound_t pln__bound_of(sql_frame_bound_t bound)
{
    switch (bound) {
    case SQL_BOUND_NONE: return PLAN_BOUND_NONE;
    case SQL_BOUND_UNBOUNDED_PRECEDING: return PLAN_BOUND_UNBOUNDED_PRECEDING;
    case SQL_BOUND_PRECEDING: return PLAN_BOUND_PRECEDING;
    case SQL_BOUND_CURRENT_ROW: return PLAN_BOUND_CURRENT_ROW;
    case SQL_BOUND_FOLLOWING: return PLAN_BOUND_FOLLOWING;
    case SQL_BOUND_UNBOUNDED_FOLLOWING: return PLAN_BOUND_UNBOUNDED_FOLLOWING;
    }
    CM_ASSERT(!"unknown frame bound");
    return PLAN_BOUND_NONE;
}

plan_frame_exclude_t pln__exclude_of(sql_frame_exclude_t ex)
{
    switch (ex) {
    case SQL_EXCLUDE_DEFAULT: return PLAN_EXCLUDE_DEFAULT;
    case SQL_EXCLUDE_CURRENT_ROW: return PLAN_EXCLUDE_CURRENT_ROW;
    case SQL_EXCLUDE_GROUP: return PLAN_EXCLUDE_GROUP;
    case SQL_EXCLUDE_TIES: return PLAN_EXCLUDE_TIES;
    case SQL_EXCLUDE_NO_OTHERS: return PLAN_EXCLUDE_NO_OTHERS;
    }
    CM_ASSERT(!"unknown frame exclusion");
    return PLAN_EXCLUDE_DEFAULT;
}
