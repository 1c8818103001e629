/*
 * ty_settings.c: the session settings that shape value I/O (DateStyle,
 * IntervalStyle, TimeZone, extra_float_digits) and the interrupt check that
 * long-running functions call.
 */
#include "types/ty_internal.h"

#include <ctype.h>
#include <string.h>

void ty_settings_default(ty_settings_t *s)
{
    memset(s, 0, sizeof(*s));
    s->extra_float_digits = 1;
    s->datestyle = TY_DATESTYLE_ISO;
    s->dateorder = TY_DATEORDER_MDY;
    s->intervalstyle = TY_INTERVALSTYLE_POSTGRES;
    s->tz = ty_tz_utc();
    s->bytea_output_escape = false;
}

static const char *ty__datestyle_name(ty_datestyle_t d)
{
    switch (d) {
    case TY_DATESTYLE_POSTGRES: return "Postgres";
    case TY_DATESTYLE_SQL: return "SQL";
    case TY_DATESTYLE_GERMAN: return "German";
    default: return "ISO";
    }
}

static const char *ty__dateorder_name(ty_dateorder_t o)
{
    switch (o) {
    case TY_DATEORDER_DMY: return "DMY";
    case TY_DATEORDER_YMD: return "YMD";
    default: return "MDY";
    }
}

/*
 * PostgreSQL's check_datestyle: a comma- or space-separated list of a style
 * and an order; "German" implies DMY unless an order is given, "European"
 * and "NonEuropean"/"US" set the order; conflicting entries are an error.
 */
bool ty_datestyle_parse(const char *value, ty_settings_t *s, cm_buf_t *canonical, cm_err_t *err)
{
    ty_datestyle_t style = s->datestyle;
    ty_dateorder_t order = s->dateorder;
    int have_style = 0, have_order = 0;
    const char *p = value;
    while (*p) {
        while (*p == ' ' || *p == ',' || *p == '\t')
            p++;
        if (!*p)
            break;
        char tok[32];
        size_t n = 0;
        while (*p && *p != ' ' && *p != ',' && *p != '\t') {
            if (n < sizeof(tok) - 1)
                tok[n++] = (char)tolower((unsigned char)*p);
            p++;
        }
        tok[n] = 0;
        ty_datestyle_t new_style = style;
        ty_dateorder_t new_order = order;
        bool is_style = false, is_order = false;
        if (strcmp(tok, "iso") == 0) {
            new_style = TY_DATESTYLE_ISO;
            is_style = true;
        } else if (strcmp(tok, "sql") == 0) {
            new_style = TY_DATESTYLE_SQL;
            is_style = true;
        } else if (strncmp(tok, "postgres", 8) == 0) {
            new_style = TY_DATESTYLE_POSTGRES;
            is_style = true;
        } else if (strcmp(tok, "german") == 0) {
            new_style = TY_DATESTYLE_GERMAN;
            is_style = true;
            if (!have_order)
                order = TY_DATEORDER_DMY;
            new_order = order;
        } else if (strcmp(tok, "ymd") == 0) {
            new_order = TY_DATEORDER_YMD;
            is_order = true;
        } else if (strcmp(tok, "dmy") == 0 || strncmp(tok, "euro", 4) == 0) {
            new_order = TY_DATEORDER_DMY;
            is_order = true;
        } else if (strcmp(tok, "mdy") == 0 || strcmp(tok, "us") == 0 || strncmp(tok, "noneuro", 7) == 0) {
            new_order = TY_DATEORDER_MDY;
            is_order = true;
        } else if (strcmp(tok, "default") == 0) {
            new_style = TY_DATESTYLE_ISO;
            new_order = TY_DATEORDER_MDY;
            is_style = is_order = true;
        } else {
            cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"DateStyle\": \"%s\"",
                       value);
            cm_err_set_detail(err, "Unrecognized key word: \"%s\".", tok);
            return false;
        }
        if ((is_style && have_style && new_style != style) || (is_order && have_order && new_order != order)) {
            cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"DateStyle\": \"%s\"",
                       value);
            cm_err_set_detail(err, "Conflicting \"datestyle\" specifications.");
            return false;
        }
        if (is_style) {
            style = new_style;
            have_style = 1;
        }
        if (is_order) {
            order = new_order;
            have_order = 1;
        }
    }
    s->datestyle = style;
    s->dateorder = order;
    if (canonical != NULL)
        cm_buf_printf(canonical, "%s, %s", ty__datestyle_name(style), ty__dateorder_name(order));
    return true;
}

bool ty_intervalstyle_parse(const char *value, ty_settings_t *s, cm_err_t *err)
{
    static const char *names[] = {"postgres", "postgres_verbose", "sql_standard", "iso_8601"};
    for (int i = 0; i < 4; i++) {
        if (cm_strcasecmp(value, names[i]) == 0) {
            s->intervalstyle = (ty_intervalstyle_t)i;
            return true;
        }
    }
    cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"IntervalStyle\": \"%s\"", value);
    cm_err_set_hint(err, "Available values: postgres, postgres_verbose, sql_standard, iso_8601.");
    return false;
}

const char *ty_intervalstyle_name(ty_intervalstyle_t style)
{
    switch (style) {
    case TY_INTERVALSTYLE_POSTGRES_VERBOSE: return "postgres_verbose";
    case TY_INTERVALSTYLE_SQL_STANDARD: return "sql_standard";
    case TY_INTERVALSTYLE_ISO_8601: return "iso_8601";
    default: return "postgres";
    }
}

bool ty_ctx_check_interrupt(ty_ctx_t *ctx)
{
    /* The flag is set by another thread (a CancelRequest on another loop): read it atomically. */
    if (ctx->cancel != NULL && __atomic_load_n(ctx->cancel, __ATOMIC_ACQUIRE))
        return cm_err_set(ctx->err, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to user request");
    if (ctx->deadline_mono_us != 0 && cm_now_mono_us() >= ctx->deadline_mono_us)
        return cm_err_set(ctx->err, CM_ERRCODE_QUERY_CANCELED, "canceling statement due to statement timeout");
    return true;
}

bool ty_err_div0(ty_ctx_t *ctx)
{
    return cm_err_set(ctx->err, CM_ERRCODE_DIVISION_BY_ZERO, "division by zero");
}

bool ty_err_syntax(ty_ctx_t *ctx, const char *type_sql_name, const char *p, size_t len)
{
    return cm_err_set(ctx->err, CM_ERRCODE_INVALID_TEXT_REPRESENTATION, "invalid input syntax for type %s: \"%.*s\"",
                      type_sql_name, (int)len, p);
}
