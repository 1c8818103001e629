/*
 * ty_dt_units.c: PostgreSQL's spellings of date/time units ("days", "hrs",
 * "msec", "qtr", "timezone_m", "jd", ...) mapped to one canonical name per
 * unit, for extract(), date_part() and date_trunc().
 *
 * PostgreSQL looks a unit up first in its table of interval units
 * (deltatktbl) and, for extract only, then in its table of date tokens
 * (datetktbl). Only the first ten characters take part in the lookup
 * (TOKMAXLEN), so "microseconds" is found as "microsecon". A unit found in
 * neither table is "not recognized" (22023); one found but not meaningful
 * for the type is "not supported" (0A000), which the callers decide.
 */
#include "types/ty_internal.h"

#include <string.h>

#define TY_TOKMAXLEN 10

typedef struct ty_unit_alias {
    const char *token;
    const char *canon;
} ty_unit_alias_t;

/* PostgreSQL 15's deltatktbl (the UNITS entries), in its order. */
static const ty_unit_alias_t ty__delta_units[] = {
    {"c", "century"}, {"cent", "century"}, {"centuries", "century"}, {"century", "century"},
    {"d", "day"}, {"day", "day"}, {"days", "day"},
    {"dec", "decade"}, {"decade", "decade"}, {"decades", "decade"}, {"decs", "decade"},
    {"h", "hour"}, {"hour", "hour"}, {"hours", "hour"}, {"hr", "hour"}, {"hrs", "hour"},
    {"m", "minute"}, {"microsecon", "microseconds"},
    {"mil", "millennium"}, {"millennia", "millennium"}, {"millennium", "millennium"},
    {"millisecon", "milliseconds"}, {"mils", "millennium"},
    {"min", "minute"}, {"mins", "minute"}, {"minute", "minute"}, {"minutes", "minute"},
    {"mon", "month"}, {"mons", "month"}, {"month", "month"}, {"months", "month"},
    {"ms", "milliseconds"}, {"msec", "milliseconds"}, {"msecond", "milliseconds"},
    {"mseconds", "milliseconds"}, {"msecs", "milliseconds"},
    {"qtr", "quarter"}, {"quarter", "quarter"},
    {"s", "second"}, {"sec", "second"}, {"second", "second"}, {"seconds", "second"}, {"secs", "second"},
    {"timezone", "timezone"}, {"timezone_h", "timezone_hour"}, {"timezone_m", "timezone_minute"},
    {"us", "microseconds"}, {"usec", "microseconds"}, {"usecond", "microseconds"},
    {"useconds", "microseconds"}, {"usecs", "microseconds"},
    {"w", "week"}, {"week", "week"}, {"weeks", "week"},
    {"y", "year"}, {"year", "year"}, {"years", "year"}, {"yr", "year"}, {"yrs", "year"},
};

/*
 * The UNITS and RESERV entries of datetktbl that deltatktbl lacks. Reserved
 * words other than epoch are recognized but never supported, so they map to
 * a name no caller accepts.
 */
static const ty_unit_alias_t ty__date_tokens[] = {
    {"-infinity", "-"}, {"allballs", "-"}, {"dow", "dow"}, {"doy", "doy"}, {"epoch", "epoch"},
    {"infinity", "-"}, {"isodow", "isodow"}, {"isoyear", "isoyear"}, {"j", "julian"}, {"jd", "julian"},
    {"julian", "julian"}, {"mm", "minute"}, {"now", "-"}, {"today", "-"}, {"tomorrow", "-"},
    {"yesterday", "-"},
};

static const char *ty__find(const ty_unit_alias_t *tab, size_t n, const char *low)
{
    for (size_t i = 0; i < n; i++)
        if (strncmp(low, tab[i].token, TY_TOKMAXLEN) == 0)
            return tab[i].canon;
    return NULL;
}

const char *ty_dt_unit(cm_arena_t *a, const ty_datum_t *d, bool for_extract, const char **low)
{
    char *s = ty_datum_cstr(a, d);
    cm_str_lower(s);
    *low = s;
    const char *c = ty__find(ty__delta_units, CM_ARRAY_LEN(ty__delta_units), s);
    if (c == NULL && for_extract)
        c = ty__find(ty__date_tokens, CM_ARRAY_LEN(ty__date_tokens), s);
    return c;
}

bool ty_dt_unit_unrecognized(ty_ctx_t *c, const char *low, const char *type_name)
{
    return cm_err_set(c->err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unit \"%s\" not recognized for type %s", low,
                      type_name);
}

bool ty_dt_unit_unsupported(ty_ctx_t *c, const char *low, const char *type_name)
{
    return cm_err_set(c->err, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "unit \"%s\" not supported for type %s", low,
                      type_name);
}
