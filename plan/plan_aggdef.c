/*
 * plan_aggdef.c: the aggregate functions eddy knows, with PostgreSQL's
 * signatures and result types (sum(int4) is bigint, sum(int8) and
 * avg(integer) are numeric, avg(float4) is double precision, ...). The
 * planner resolves calls against this table and a plan names an
 * aggregate by its index here, so the executor and the workers find the
 * same entry without the planner; the codec writes an entry by name and
 * argument types, which are unique in the table.
 */
#include "plan/plan.h"

#include <string.h>

#define A1(N, T, R, OP, S) {{N, 1, {T}, R, 0, NULL, 0}, OP, S}
#define MINMAX(T) A1("min", T, T, PLAN_AGG_MIN, T), A1("max", T, T, PLAN_AGG_MAX, T)

static const plan_aggdef_t plan__aggdefs[] = {
    {{"count", 0, {0}, TY_INT8, 0, NULL, 2803}, PLAN_AGG_COUNT_STAR, 0},
    A1("count", TY_INVALID, TY_INT8, PLAN_AGG_COUNT, 0),
    A1("sum", TY_INT2, TY_INT8, PLAN_AGG_SUM, TY_INT8),
    A1("sum", TY_INT4, TY_INT8, PLAN_AGG_SUM, TY_INT8),
    A1("sum", TY_INT8, TY_NUMERIC, PLAN_AGG_SUM, TY_NUMERIC),
    A1("sum", TY_FLOAT4, TY_FLOAT4, PLAN_AGG_SUM, TY_FLOAT4),
    A1("sum", TY_FLOAT8, TY_FLOAT8, PLAN_AGG_SUM, TY_FLOAT8),
    A1("sum", TY_NUMERIC, TY_NUMERIC, PLAN_AGG_SUM, TY_NUMERIC),
    A1("sum", TY_INTERVAL, TY_INTERVAL, PLAN_AGG_SUM, TY_INTERVAL),
    A1("avg", TY_INT2, TY_NUMERIC, PLAN_AGG_AVG, TY_NUMERIC),
    A1("avg", TY_INT4, TY_NUMERIC, PLAN_AGG_AVG, TY_NUMERIC),
    A1("avg", TY_INT8, TY_NUMERIC, PLAN_AGG_AVG, TY_NUMERIC),
    A1("avg", TY_FLOAT4, TY_FLOAT8, PLAN_AGG_AVG, TY_FLOAT8),
    A1("avg", TY_FLOAT8, TY_FLOAT8, PLAN_AGG_AVG, TY_FLOAT8),
    A1("avg", TY_NUMERIC, TY_NUMERIC, PLAN_AGG_AVG, TY_NUMERIC),
    A1("avg", TY_INTERVAL, TY_INTERVAL, PLAN_AGG_AVG, TY_INTERVAL),
    MINMAX(TY_INT2), MINMAX(TY_INT4), MINMAX(TY_INT8), MINMAX(TY_FLOAT4), MINMAX(TY_FLOAT8),
    MINMAX(TY_NUMERIC), MINMAX(TY_TEXT), MINMAX(TY_BPCHAR), MINMAX(TY_DATE), MINMAX(TY_TIME),
    MINMAX(TY_TIMESTAMP), MINMAX(TY_TIMESTAMPTZ), MINMAX(TY_INTERVAL), MINMAX(TY_OID),
    A1("bool_and", TY_BOOL, TY_BOOL, PLAN_AGG_BOOL_AND, 0),
    A1("bool_or", TY_BOOL, TY_BOOL, PLAN_AGG_BOOL_OR, 0),
    A1("every", TY_BOOL, TY_BOOL, PLAN_AGG_BOOL_AND, 0),
    {{"string_agg", 2, {TY_TEXT, TY_TEXT}, TY_TEXT, 0, NULL, 3538}, PLAN_AGG_STRING_AGG, 0},
    {{"string_agg", 2, {TY_BYTEA, TY_BYTEA}, TY_BYTEA, 0, NULL, 3545}, PLAN_AGG_STRING_AGG, 0},
    /* Any element type: the result type is chosen after resolution (the planner's pln__bind_agg). */
    A1("array_agg", TY_INVALID, TY_INVALID, PLAN_AGG_ARRAY_AGG, 0),
    /* A decorrelated scalar subquery's value (the planner adds it); SQL cannot call it. */
    A1("single_value", TY_INVALID, TY_INVALID, PLAN_AGG_SINGLE, 0),
};

size_t plan_aggdef_count(void)
{
    return CM_ARRAY_LEN(plan__aggdefs);
}

const plan_aggdef_t *plan_aggdef_at(size_t i)
{
    CM_ASSERT(i < CM_ARRAY_LEN(plan__aggdefs));
    return &plan__aggdefs[i];
}

int plan_aggdef_find(const char *name, int nargs, const ty_oid_t *args)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(plan__aggdefs); i++) {
        const ty_func_t *f = &plan__aggdefs[i].sig;
        if (f->nargs != nargs || strcmp(f->name, name) != 0)
            continue;
        bool same = true;
        for (int k = 0; k < nargs && same; k++)
            same = f->args[k] == args[k];
        if (same)
            return (int)i;
    }
    return -1;
}

int plan_aggdef_of_op(plan_aggop_t op)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(plan__aggdefs); i++)
        if (plan__aggdefs[i].op == op)
            return (int)i;
    return -1;
}
