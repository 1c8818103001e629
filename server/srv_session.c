/*
 * srv_session.c: session settings (GUCs) for SET, SHOW, RESET and the
 * ParameterStatus messages.
 *
 * The table holds what drivers and BI tools set or ask for. Values are kept
 * in PostgreSQL's canonical spelling so SHOW prints what PostgreSQL prints.
 * Every SET is recorded against the current transaction (explicit or the
 * implicit one around a Query or a Sync group) so that a rollback undoes it
 * and SET LOCAL ends with its transaction, as in PostgreSQL.
 */
#include "server/srv_int.h"

#include <errno.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define SRV_ERRCODE_CANT_CHANGE_RUNTIME_PARAM "55P02"

typedef enum srv_guc_kind {
    SRV_GUC_STRING,
    SRV_GUC_BOOL,
    SRV_GUC_INT,
    SRV_GUC_MS,        /* a duration in milliseconds, units accepted */
    SRV_GUC_ENUM,
    SRV_GUC_CUSTOM,    /* parsed by a hook below */
} srv_guc_kind_t;

typedef struct srv_guc {
    const char *name;          /* as SHOW ALL and the SHOW column spell it */
    const char *boot;          /* default; NULL: filled in at session start */
    unsigned flags;
    srv_guc_kind_t kind;
    int min, max;              /* SRV_GUC_INT */
    const char *const *enums;  /* SRV_GUC_ENUM, NULL-terminated, canonical spelling */
    const char *desc;
} srv_guc_t;

static const char *const srv__isolations[] = {"serializable", "repeatable read", "read committed",
                                              "read uncommitted", NULL};
static const char *const srv__levels[] = {"debug5", "debug4", "debug3", "debug2", "debug1", "log",
                                          "notice", "warning", "error", NULL};
static const char *const srv__bytea[] = {"hex", "escape", NULL};
static const char *const srv__sync[] = {"local", "remote_write", "remote_apply", "on", "off", NULL};
static const char *const srv__xml[] = {"content", "document", NULL};
static const char *const srv__pwenc[] = {"md5", "scram-sha-256", NULL};

#define SRV_SERVER_VERSION "15.0 (eddy " EDDY_VERSION ")"

/* Sorted case-insensitively by name, so SHOW ALL needs no sort. */
static const srv_guc_t srv__gucs[] = {
    {"application_name", "", SRV_GUC_REPORT, SRV_GUC_STRING, 0, 0, NULL,
     "Sets the application name to be reported in statistics and logs."},
    {"block_size", "8192", SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the size of a disk block."},
    {"bytea_output", "hex", 0, SRV_GUC_ENUM, 0, 0, srv__bytea, "Sets the output format for bytea."},
    {"client_encoding", "UTF8", SRV_GUC_REPORT, SRV_GUC_CUSTOM, 0, 0, NULL,
     "Sets the client's character set encoding."},
    {"client_min_messages", "notice", 0, SRV_GUC_ENUM, 0, 0, srv__levels,
     "Sets the message levels that are sent to the client."},
    {"DateStyle", "ISO, MDY", SRV_GUC_REPORT, SRV_GUC_CUSTOM, 0, 0, NULL,
     "Sets the display format for date and time values."},
    {"default_transaction_isolation", "read committed", 0, SRV_GUC_ENUM, 0, 0, srv__isolations,
     "Sets the transaction isolation level of each new transaction."},
    {"default_transaction_read_only", "off", SRV_GUC_REPORT, SRV_GUC_BOOL, 0, 0, NULL,
     "Sets the default read-only status of new transactions."},
    {"escape_string_warning", "on", 0, SRV_GUC_BOOL, 0, 0, NULL,
     "Warn about backslash escapes in ordinary string literals."},
    {"extra_float_digits", "1", 0, SRV_GUC_INT, -15, 3, NULL,
     "Sets the number of digits displayed for floating-point values."},
    {"geqo", "on", 0, SRV_GUC_BOOL, 0, 0, NULL, "Enables genetic query optimization."},
    {"idle_in_transaction_session_timeout", "0", 0, SRV_GUC_MS, 0, 0, NULL,
     "Sets the maximum allowed idle time between queries, when in a transaction."},
    {"idle_session_timeout", "0", 0, SRV_GUC_MS, 0, 0, NULL,
     "Sets the maximum allowed idle time between queries, when not in a transaction."},
    {"in_hot_standby", "off", SRV_GUC_REPORT | SRV_GUC_READONLY, SRV_GUC_BOOL, 0, 0, NULL,
     "Shows whether hot standby is currently active."},
    {"integer_datetimes", "on", SRV_GUC_REPORT | SRV_GUC_READONLY, SRV_GUC_BOOL, 0, 0, NULL,
     "Shows whether datetimes are integer based."},
    {"IntervalStyle", "postgres", SRV_GUC_REPORT, SRV_GUC_CUSTOM, 0, 0, NULL,
     "Sets the display format for interval values."},
    {"is_superuser", "on", SRV_GUC_REPORT | SRV_GUC_READONLY, SRV_GUC_BOOL, 0, 0, NULL,
     "Shows whether the current user is a superuser."},
    {"jit", "on", 0, SRV_GUC_BOOL, 0, 0, NULL, "Allow JIT compilation."},
    {"lc_collate", "C", SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the collation order locale."},
    {"lc_ctype", "C", SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the character classification and case conversion locale."},
    {"lc_messages", "C", 0, SRV_GUC_STRING, 0, 0, NULL, "Sets the language in which messages are displayed."},
    {"lc_monetary", "C", 0, SRV_GUC_STRING, 0, 0, NULL, "Sets the locale for formatting monetary amounts."},
    {"lc_numeric", "C", 0, SRV_GUC_STRING, 0, 0, NULL, "Sets the locale for formatting numbers."},
    {"lc_time", "C", 0, SRV_GUC_STRING, 0, 0, NULL, "Sets the locale for formatting date and time values."},
    {"lock_timeout", "0", 0, SRV_GUC_MS, 0, 0, NULL,
     "Sets the maximum allowed duration of any wait for a lock."},
    {"max_identifier_length", "63", SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the maximum identifier length."},
    {"max_index_keys", "32", SRV_GUC_READONLY, SRV_GUC_INT, 32, 32, NULL,
     "Shows the maximum number of index keys."},
    {"max_recursive_iterations", "1000000", 0, SRV_GUC_INT, 1, 2147483647, NULL,
     "Sets the most iterations a WITH RECURSIVE query may run before it fails (eddy)."},
    {"password_encryption", "scram-sha-256", 0, SRV_GUC_ENUM, 0, 0, srv__pwenc,
     "Chooses the algorithm for encrypting passwords."},
    {"role", "none", 0, SRV_GUC_STRING, 0, 0, NULL, "Sets the current role."},
    {"row_security", "on", 0, SRV_GUC_BOOL, 0, 0, NULL, "Enable row security."},
    {"search_path", "\"$user\", public", 0, SRV_GUC_STRING, 0, 0, NULL,
     "Sets the schema search order for names that are not schema-qualified."},
    {"server_encoding", "UTF8", SRV_GUC_REPORT | SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the server (database) character set encoding."},
    {"server_version", SRV_SERVER_VERSION, SRV_GUC_REPORT | SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the server version."},
    {"server_version_num", "150000", SRV_GUC_READONLY, SRV_GUC_STRING, 0, 0, NULL,
     "Shows the server version as an integer."},
    {"session_authorization", NULL, SRV_GUC_REPORT, SRV_GUC_STRING, 0, 0, NULL,
     "Sets the session user name."},
    {"ssl", "off", SRV_GUC_READONLY, SRV_GUC_BOOL, 0, 0, NULL, "Enables SSL connections."},
    {"standard_conforming_strings", "on", SRV_GUC_REPORT, SRV_GUC_CUSTOM, 0, 0, NULL,
     "Causes '...' strings to treat backslashes literally."},
    {"statement_timeout", "0", 0, SRV_GUC_MS, 0, 0, NULL,
     "Sets the maximum allowed duration of any statement."},
    {"synchronous_commit", "on", 0, SRV_GUC_ENUM, 0, 0, srv__sync,
     "Sets the current transaction's synchronization level."},
    {"TimeZone", "UTC", SRV_GUC_REPORT, SRV_GUC_CUSTOM, 0, 0, NULL,
     "Sets the time zone for displaying and interpreting time stamps."},
    {"timezone_abbreviations", "Default", 0, SRV_GUC_STRING, 0, 0, NULL,
     "Selects a file of time zone abbreviations."},
    {"transaction_isolation", "read committed", 0, SRV_GUC_ENUM, 0, 0, srv__isolations,
     "Sets the current transaction's isolation level."},
    {"transaction_read_only", "off", 0, SRV_GUC_BOOL, 0, 0, NULL,
     "Sets the current transaction's read-only status."},
    {"work_mem", "4MB", 0, SRV_GUC_STRING, 0, 0, NULL,
     "Sets the maximum memory to be used for query workspaces."},
    {"xmloption", "content", 0, SRV_GUC_ENUM, 0, 0, srv__xml,
     "Sets whether XML data in implicit parsing and serialization operations is to be considered as "
     "documents or content fragments."},
};

#define SRV_NGUCS ((int)CM_ARRAY_LEN(srv__gucs))
_Static_assert(CM_ARRAY_LEN(srv__gucs) <= SRV_GUC_MAX, "raise SRV_GUC_MAX");

/* Spellings the grammar produces for multi-word names, and SET NAMES. */
static const struct {
    const char *alias, *name;
} srv__aliases[] = {
    {"time zone", "TimeZone"},
    {"transaction isolation level", "transaction_isolation"},
    {"session authorization", "session_authorization"},
    {"names", "client_encoding"},
};

/* The settings' indexes in case-insensitive order of their names, made once: every statement
 * looks several settings up (search_path, the role, ...). */
static int srv__guc_sorted[SRV_NGUCS];
static pthread_once_t srv__guc_sorted_once = PTHREAD_ONCE_INIT;

static int srv__guc_name_cmp(const void *a, const void *b)
{
    return cm_strcasecmp(srv__gucs[*(const int *)a].name, srv__gucs[*(const int *)b].name);
}

static void srv__guc_sort(void)
{
    for (int i = 0; i < SRV_NGUCS; i++)
        srv__guc_sorted[i] = i;
    qsort(srv__guc_sorted, SRV_NGUCS, sizeof srv__guc_sorted[0], srv__guc_name_cmp);
}

static int srv__guc_find(const char *name)
{
    for (size_t i = 0; i < CM_ARRAY_LEN(srv__aliases); i++)
        if (cm_strcasecmp(name, srv__aliases[i].alias) == 0)
            name = srv__aliases[i].name;
    pthread_once(&srv__guc_sorted_once, srv__guc_sort);
    int lo = 0, hi = SRV_NGUCS;
    while (lo < hi) {
        int mid = lo + (hi - lo) / 2;
        int c = cm_strcasecmp(name, srv__gucs[srv__guc_sorted[mid]].name);
        if (c == 0)
            return srv__guc_sorted[mid];
        if (c > 0)
            lo = mid + 1;
        else
            hi = mid;
    }
    return -1;
}

static int srv__guc_index(const char *name)
{
    int i = srv__guc_find(name);
    CM_ASSERT(i >= 0);
    return i;
}

/* ------------------------------------------------------------ value parsing */

static bool srv__invalid(cm_err_t *err, const srv_guc_t *g, const char *value)
{
    return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "invalid value for parameter \"%s\": \"%s\"",
                      g->name, value);
}

static bool srv__parse_bool(const char *v, bool *out)
{
    static const char *const yes[] = {"on", "true", "yes", "1", "t", "y"};
    static const char *const no[] = {"off", "false", "no", "0", "f", "n"};
    for (size_t i = 0; i < CM_ARRAY_LEN(yes); i++) {
        if (cm_strcasecmp(v, yes[i]) == 0) {
            *out = true;
            return true;
        }
        if (cm_strcasecmp(v, no[i]) == 0) {
            *out = false;
            return true;
        }
    }
    return false;
}

/* A duration as PostgreSQL accepts it for a GUC_UNIT_MS parameter. */
static bool srv__parse_ms(const char *v, int64_t *out)
{
    errno = 0;
    char *end;
    double n = strtod(v, &end);
    if (end == v || errno != 0)
        return false;
    while (*end == ' ')
        end++;
    double mult = 1;
    if (*end == 0 || strcmp(end, "ms") == 0)
        mult = 1;
    else if (strcmp(end, "s") == 0)
        mult = 1000;
    else if (strcmp(end, "min") == 0)
        mult = 60000;
    else if (strcmp(end, "h") == 0)
        mult = 3600000;
    else if (strcmp(end, "d") == 0)
        mult = 86400000;
    else if (strcmp(end, "us") == 0)
        mult = 0.001;
    else
        return false;
    double ms = n * mult + (n >= 0 ? 0.5 : -0.5);
    if (ms < 0 || ms > 2147483647.0)
        return false;
    *out = (int64_t)ms;
    return true;
}

/* SHOW prints a duration in the largest unit that divides it evenly. */
static void srv__format_ms(int64_t ms, char *buf, size_t cap)
{
    static const struct {
        int64_t n;
        const char *u;
    } units[] = {{86400000, "d"}, {3600000, "h"}, {60000, "min"}, {1000, "s"}};
    if (ms == 0) {
        snprintf(buf, cap, "0");
        return;
    }
    for (size_t i = 0; i < CM_ARRAY_LEN(units); i++) {
        if (ms % units[i].n == 0) {
            snprintf(buf, cap, "%lld%s", (long long)(ms / units[i].n), units[i].u);
            return;
        }
    }
    snprintf(buf, cap, "%lldms", (long long)ms);
}

static bool srv__encoding_ok(const char *v, const char **canonical)
{
    static const char *const utf8[] = {"UTF8", "UTF-8", "unicode"};
    for (size_t i = 0; i < CM_ARRAY_LEN(utf8); i++) {
        if (cm_strcasecmp(v, utf8[i]) == 0) {
            *canonical = "UTF8";
            return true;
        }
    }
    /* psql in a C locale asks for SQL_ASCII: no conversion is needed for it. */
    if (cm_strcasecmp(v, "SQL_ASCII") == 0) {
        *canonical = "SQL_ASCII";
        return true;
    }
    return false;
}

/*
 * Checks value for parameter i, writes its canonical spelling to canon and
 * applies side effects to `settings` (the caller passes a scratch copy when
 * it only validates).
 */
static bool srv__canonical(srv_session_t *s, int i, const char *value, cm_buf_t *canon,
                           ty_settings_t *settings, int64_t *timeout_ms, cm_err_t *err)
{
    const srv_guc_t *g = &srv__gucs[i];
    switch (g->kind) {
    case SRV_GUC_STRING:
        cm_buf_put_str(canon, value);
        return true;
    case SRV_GUC_BOOL: {
        bool b;
        if (!srv__parse_bool(value, &b))
            return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "parameter \"%s\" requires a Boolean value",
                              g->name);
        cm_buf_put_str(canon, b ? "on" : "off");
        return true;
    }
    case SRV_GUC_INT: {
        char *end;
        errno = 0;
        long n = strtol(value, &end, 10);
        if (end == value || *end != 0 || errno != 0)
            return srv__invalid(err, g, value);
        if (n < g->min || n > g->max)
            return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                              "%ld is outside the valid range for parameter \"%s\" (%d .. %d)", n, g->name,
                              g->min, g->max);
        if (strcmp(g->name, "extra_float_digits") == 0)
            settings->extra_float_digits = (int)n;
        cm_buf_printf(canon, "%ld", n);
        return true;
    }
    case SRV_GUC_MS: {
        int64_t ms;
        char text[32];
        if (!srv__parse_ms(value, &ms))
            return srv__invalid(err, g, value);
        if (strcmp(g->name, "statement_timeout") == 0)
            *timeout_ms = ms;
        srv__format_ms(ms, text, sizeof text);
        cm_buf_put_str(canon, text);
        return true;
    }
    case SRV_GUC_ENUM:
        for (int k = 0; g->enums[k] != NULL; k++) {
            if (cm_strcasecmp(value, g->enums[k]) == 0) {
                if (strcmp(g->name, "bytea_output") == 0)
                    settings->bytea_output_escape = k == 1;
                cm_buf_put_str(canon, g->enums[k]);
                return true;
            }
        }
        return srv__invalid(err, g, value);
    case SRV_GUC_CUSTOM:
        break;
    }
    if (strcmp(g->name, "client_encoding") == 0) {
        const char *c;
        if (!srv__encoding_ok(value, &c))
            return srv__invalid(err, g, value);
        cm_buf_put_str(canon, c);
        return true;
    }
    if (strcmp(g->name, "DateStyle") == 0)
        return ty_datestyle_parse(value, settings, canon, err);
    if (strcmp(g->name, "IntervalStyle") == 0) {
        if (!ty_intervalstyle_parse(value, settings, err))
            return false;
        cm_buf_put_str(canon, ty_intervalstyle_name(settings->intervalstyle));
        return true;
    }
    if (strcmp(g->name, "TimeZone") == 0) {
        const ty_tz_t *tz = ty_tz_lookup(value, err);
        if (tz == NULL)
            return false;
        settings->tz = tz;
        cm_buf_put_str(canon, ty_tz_name(tz));
        return true;
    }
    if (strcmp(g->name, "standard_conforming_strings") == 0) {
        bool b;
        if (!srv__parse_bool(value, &b))
            return cm_err_set(err, CM_ERRCODE_INVALID_PARAMETER_VALUE, "parameter \"%s\" requires a Boolean value",
                              g->name);
        if (!b)
            return cm_err_set(err, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                              "non-standard string literals are not supported");
        cm_buf_put_str(canon, "on");
        return true;
    }
    (void)s;
    cm_panic(__FILE__, __LINE__, "custom parameter %s has no parser", g->name);
}

/* ------------------------------------------------------------ the session */

/* The value RESET and SET ... DEFAULT return to: the startup packet's or the role's, else the default. */
static const char *srv__boot(const srv_session_t *s, int i)
{
    if (s->reset_val[i] != NULL)
        return s->reset_val[i];
    return srv__gucs[i].boot != NULL ? srv__gucs[i].boot : s->user;
}

static void srv__replace(char **slot, const char *v)
{
    char *n = v != NULL ? cm_strdup(v) : NULL;
    free(*slot);
    *slot = n;
}

/*
 * Every change of a current value goes through here: it moves the settings
 * generation (cached plans bound under other settings are not reused) and
 * marks a reported parameter for the next ParameterStatus round.
 */
static void srv__val_set(srv_session_t *s, int i, const char *v)
{
    srv__replace(&s->val[i], v);
    s->settings_gen++;
    if (srv__gucs[i].flags & SRV_GUC_REPORT)
        s->report_pending = true;
}

/* Re-applies a canonical value that was valid before (rollback, reset). */
static void srv__apply_known(srv_session_t *s, int i, const char *value)
{
    cm_buf_t canon;
    cm_err_t err = {0};
    cm_buf_init(&canon, 0);
    if (!srv__canonical(s, i, value, &canon, &s->settings, &s->statement_timeout_ms, &err))
        cm_log_warn("restoring %s = '%s' failed: %s", srv__gucs[i].name, value, err.message);
    cm_err_clear(&err);
    cm_buf_free(&canon);
    srv__val_set(s, i, value);
}

void srv_session_init(srv_session_t *s, const char *user)
{
    memset(s, 0, sizeof *s);
    s->user = cm_strdup(user);
    s->database = cm_strdup("eddy");
    ty_settings_default(&s->settings);
    for (int i = 0; i < SRV_NGUCS; i++)
        s->val[i] = cm_strdup(srv__boot(s, i));
}

void srv_session_boot(srv_session_t *s, const char *name, const char *value)
{
    int i = srv__guc_index(name);
    srv__replace(&s->val[i], value);
}

void srv_session_free(srv_session_t *s)
{
    for (int i = 0; i < SRV_NGUCS; i++) {
        free(s->val[i]);
        free(s->reported[i]);
        free(s->xact_orig[i]);
        free(s->xact_sess[i]);
        free(s->reset_val[i]);
    }
    free(s->user);
    free(s->database);
    memset(s, 0, sizeof *s);
}

static void srv__set_value(srv_session_t *s, int i, const char *canon, bool local)
{
    if (!s->xact_saved[i]) {
        s->xact_saved[i] = true;
        s->xact_touched = true;
        srv__replace(&s->xact_orig[i], s->val[i]);
        srv__replace(&s->xact_sess[i], NULL);
    }
    srv__val_set(s, i, canon);
    if (!local)
        srv__replace(&s->xact_sess[i], canon);
}

bool srv_session_set(srv_session_t *s, const char *name, const char *value, bool local, cm_err_t *err)
{
    int i = srv__guc_find(name);
    if (i < 0)
        return cm_err_set(err, CM_ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
    const srv_guc_t *g = &srv__gucs[i];
    if (g->flags & SRV_GUC_READONLY)
        return cm_err_set(err, SRV_ERRCODE_CANT_CHANGE_RUNTIME_PARAM, "parameter \"%s\" cannot be changed",
                          g->name);
    if (value == NULL)
        value = srv__boot(s, i);
    /* Validate on copies so a failed SET changes nothing. */
    ty_settings_t settings = s->settings;
    int64_t timeout = s->statement_timeout_ms;
    cm_buf_t canon;
    cm_buf_init(&canon, 0);
    bool ok = srv__canonical(s, i, value, &canon, &settings, &timeout, err);
    if (ok) {
        cm_buf_put_u8(&canon, 0);
        s->settings = settings;
        s->statement_timeout_ms = timeout;
        srv__set_value(s, i, (const char *)canon.data, local);
    }
    cm_buf_free(&canon);
    return ok;
}

/* A value set before the session's first statement becomes what RESET returns to. */
static bool srv__set_default(srv_session_t *s, int i, const char *name, const char *value, const char *from)
{
    cm_err_t err = {0};
    bool ok = srv_session_set(s, name, value, false, &err);
    if (!ok)
        cm_log_info("%s %s = '%s' ignored: %s", from, name, value, err.message);
    cm_err_clear(&err);
    /* Startup values are the session's defaults, not part of a transaction. */
    s->xact_saved[i] = false;
    srv__replace(&s->xact_orig[i], NULL);
    srv__replace(&s->xact_sess[i], NULL);
    if (ok)
        srv__replace(&s->reset_val[i], s->val[i]);
    return ok;
}

void srv_session_set_startup(srv_session_t *s, const char *name, const char *value)
{
    int i = srv__guc_find(name);
    if (i < 0 || (srv__gucs[i].flags & SRV_GUC_READONLY))
        return;
    if (srv__set_default(s, i, name, value, "startup parameter"))
        s->from_client[i] = true;
}

void srv_session_set_role_default(srv_session_t *s, const char *name, const char *value)
{
    int i = srv__guc_find(name);
    if (i < 0 || (srv__gucs[i].flags & SRV_GUC_READONLY) || s->from_client[i])
        return;
    srv__set_default(s, i, name, value, "role setting");
}

bool srv_session_check_setting(const char **name, const char *value, cm_err_t *err)
{
    int i = srv__guc_find(*name);
    if (i < 0)
        return cm_err_set(err, CM_ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", *name);
    if (srv__gucs[i].flags & SRV_GUC_READONLY)
        return cm_err_set(err, SRV_ERRCODE_CANT_CHANGE_RUNTIME_PARAM, "parameter \"%s\" cannot be changed",
                          srv__gucs[i].name);
    *name = srv__gucs[i].name;
    if (value == NULL)
        return true;
    srv_session_t scratch;
    srv_session_init(&scratch, "");
    bool ok = srv_session_set(&scratch, *name, value, false, err);
    srv_session_free(&scratch);
    return ok;
}

void srv_session_reset_all(srv_session_t *s)
{
    for (int i = 0; i < SRV_NGUCS; i++) {
        if (srv__gucs[i].flags & SRV_GUC_READONLY)
            continue;
        if (strcmp(s->val[i], srv__boot(s, i)) == 0)
            continue;
        cm_err_t err = {0};
        srv_session_set(s, srv__gucs[i].name, NULL, false, &err);
        cm_err_clear(&err);
    }
}

bool srv_session_show(srv_session_t *s, const char *name, const char **value, const char **canonical,
                      cm_err_t *err)
{
    int i = srv__guc_find(name);
    if (i < 0)
        return cm_err_set(err, CM_ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
    *value = s->val[i];
    *canonical = srv__gucs[i].name;
    return true;
}

bool srv_session_setting_get(void *arg, const char *name, bool missing_ok, cm_buf_t *out, cm_err_t *err)
{
    srv_session_t *s = arg;
    int i = srv__guc_find(name);
    if (i < 0) {
        if (!missing_ok)
            cm_err_set(err, CM_ERRCODE_UNDEFINED_OBJECT, "unrecognized configuration parameter \"%s\"", name);
        return false;
    }
    cm_buf_put_str(out, s->val[i]);
    return true;
}

bool srv_session_setting_set(void *arg, const char *name, const char *value, bool is_local, cm_err_t *err)
{
    return srv_session_set(arg, name, value, is_local, err);
}

void srv_session_show_all(srv_session_t *s, srv_guc_visit_cb cb, void *arg)
{
    for (int i = 0; i < SRV_NGUCS; i++)
        cb(arg, srv__gucs[i].name, s->val[i], srv__gucs[i].desc);
}

static ty_datum_t srv__text_datum(cm_arena_t *a, const char *v)
{
    ty_datum_t d = {0};
    if (v == NULL) {
        d.isnull = true;
        return d;
    }
    d.v.s.p = cm_arena_strdup(a, v);
    d.v.s.len = (uint32_t)strlen(v);
    return d;
}

/* A duration parameter's value in its unit (ms), as pg_settings.setting shows it. */
static const char *srv__in_ms(cm_arena_t *a, const char *v)
{
    int64_t ms;
    return v != NULL && srv__parse_ms(v, &ms) ? cm_arena_printf(a, "%lld", (long long)ms) : v;
}

bool srv_session_settings_rows(srv_session_t *s, cm_arena_t *arena, int ncols, ty_datum_t ***rows, int *nrows,
                               cm_err_t *err)
{
    if (ncols != 17)
        return cm_err_set(err, CM_ERRCODE_INTERNAL_ERROR, "pg_settings has 17 columns, not %d", ncols);
    static const char *const vartypes[] = {[SRV_GUC_STRING] = "string", [SRV_GUC_BOOL] = "bool",
                                           [SRV_GUC_INT] = "integer", [SRV_GUC_MS] = "integer",
                                           [SRV_GUC_ENUM] = "enum", [SRV_GUC_CUSTOM] = "string"};
    ty_datum_t **out = cm_arena_alloc(arena, sizeof *out * (size_t)SRV_NGUCS);
    for (int i = 0; i < SRV_NGUCS; i++) {
        const srv_guc_t *g = &srv__gucs[i];
        bool ms = g->kind == SRV_GUC_MS;
        const char *boot = g->boot != NULL ? g->boot : s->val[i];   /* filled in at session start */
        ty_datum_t *r = cm_arena_zalloc(arena, sizeof *r * 17);
        r[0] = srv__text_datum(arena, g->name);
        r[1] = srv__text_datum(arena, ms ? srv__in_ms(arena, s->val[i]) : s->val[i]);
        r[2] = srv__text_datum(arena, ms ? "ms" : NULL);
        r[3] = srv__text_datum(arena, NULL);   /* category: eddy does not group its parameters */
        r[4] = srv__text_datum(arena, g->desc);
        r[5] = srv__text_datum(arena, NULL);
        r[6] = srv__text_datum(arena, g->flags & SRV_GUC_READONLY ? "internal" : "user");
        r[7] = srv__text_datum(arena, vartypes[g->kind]);
        r[8] = srv__text_datum(arena, strcmp(s->val[i], boot) == 0 ? "default" : "session");
        bool ranged = g->kind == SRV_GUC_INT || ms;
        r[9] = srv__text_datum(arena, ranged ? cm_arena_printf(arena, "%d", ms ? 0 : g->min) : NULL);
        r[10] = srv__text_datum(arena, ranged ? cm_arena_printf(arena, "%d", ms ? INT32_MAX : g->max) : NULL);
        if (g->kind == SRV_GUC_ENUM) {
            int n = 0;
            while (g->enums[n] != NULL)
                n++;
            ty_datum_t *items = cm_arena_zalloc(arena, sizeof *items * (size_t)n);
            for (int k = 0; k < n; k++)
                items[k] = srv__text_datum(arena, g->enums[k]);
            r[11] = ty_array_make(arena, TY_TEXT, items, n);
        } else {
            r[11].isnull = true;
        }
        r[12] = srv__text_datum(arena, ms ? srv__in_ms(arena, boot) : boot);
        r[13] = r[12];   /* RESET goes back to the default */
        r[14].isnull = r[15].isnull = true;   /* no configuration file */
        r[16].v.b = false;
        out[i] = r;
    }
    *rows = out;
    *nrows = SRV_NGUCS;
    return true;
}

void srv_session_xact_end(srv_session_t *s, bool commit)
{
    if (!s->xact_touched)
        return;
    for (int i = 0; i < SRV_NGUCS; i++) {
        if (!s->xact_saved[i])
            continue;
        const char *target = commit && s->xact_sess[i] != NULL ? s->xact_sess[i] : s->xact_orig[i];
        if (strcmp(target, s->val[i]) != 0)
            srv__apply_known(s, i, target);
        s->xact_saved[i] = false;
        srv__replace(&s->xact_orig[i], NULL);
        srv__replace(&s->xact_sess[i], NULL);
    }
    s->xact_touched = false;
}

void srv_session_report(srv_session_t *s, cm_buf_t *out, bool all)
{
    /* Most ReadyForQuery rounds follow statements that changed nothing. */
    if (!all && !s->report_pending)
        return;
    s->report_pending = false;
    for (int i = 0; i < SRV_NGUCS; i++) {
        if (!(srv__gucs[i].flags & SRV_GUC_REPORT))
            continue;
        if (!all && s->reported[i] != NULL && strcmp(s->reported[i], s->val[i]) == 0)
            continue;
        srv_put_parameter_status(out, srv__gucs[i].name, s->val[i]);
        srv__replace(&s->reported[i], s->val[i]);
    }
}

const char *srv_session_get(srv_session_t *s, const char *name)
{
    return s->val[srv__guc_index(name)];
}
