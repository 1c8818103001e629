/*
 * pln_source.c: CREATE SOURCE as a catalog change. A source is committed
 * like a table: its connector, format and options are checked here (a
 * misspelt option or an unreadable file fails at CREATE, not later when
 * ingestion starts) and its columns follow from the format. Ingestion is
 * not built yet, so reading a source answers 0A000 as any relation does.
 */
#include "planner/pln_internal.h"

#include <errno.h>
#include <fcntl.h>
#include <regex.h>
#include <string.h>
#include <strings.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#define ERRCODE_UNDEFINED_FILE "58P01"
#define ERRCODE_INSUFFICIENT_PRIVILEGE "42501"
#define ERRCODE_WRONG_OBJECT_TYPE "42809"

typedef struct src_cols {
    cat_column_t *cols;
    uint32_t n;
} src_cols_t;

static void add_col(pln_binder_t *b, src_cols_t *c, const char *name, ty_oid_t type)
{
    cat_column_t *grown = cm_arena_zalloc(b->arena, sizeof(cat_column_t) * (c->n + 1));
    if (c->n)
        memcpy(grown, c->cols, sizeof(cat_column_t) * c->n);
    grown[c->n] = (cat_column_t){.name = name, .type = type, .typmod = -1};
    c->cols = grown;
    c->n++;
}

/* ------------------------------------------------------------ options */

static const sql_option_t *find_option(const sql_list_t *opts, const char *name)
{
    for (int i = 0; i < sql_list_len(opts); i++) {
        const sql_option_t *o = opts->items[i];
        if (strcmp(o->name, name) == 0)
            return o;
    }
    return NULL;
}

/* Every option must be one the connector knows: a typo would otherwise be ignored silently. */
static bool check_known(pln_binder_t *b, const sql_list_t *opts, const char *what, const char *const *known)
{
    for (int i = 0; i < sql_list_len(opts); i++) {
        const sql_option_t *o = opts->items[i];
        bool ok = false;
        for (int k = 0; known[k]; k++)
            ok |= strcmp(o->name, known[k]) == 0;
        for (int j = 0; j < i && ok; j++)
            if (strcmp(((const sql_option_t *)opts->items[j])->name, o->name) == 0)
                return pln__error(b, o->pos, CM_ERRCODE_SYNTAX_ERROR, "option \"%s\" specified more than once",
                                  o->name);
        if (!ok)
            return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "unrecognized %s option \"%s\"", what,
                              o->name);
    }
    return true;
}

static bool option_bool(pln_binder_t *b, const sql_option_t *o)
{
    const sql_expr_t *v = o->value;
    if (!v)
        return true;   /* "WITH (tail)" means true, as PostgreSQL's boolean options */
    if (v->kind == SQL_EXPR_CONST && v->const_kind == SQL_CONST_BOOL)
        return true;
    if (v->kind == SQL_EXPR_CONST && v->const_kind == SQL_CONST_STRING && v->str) {
        /* The spellings PostgreSQL's parse_bool takes (whole words only). */
        static const char *const words[] = {"true", "false", "on", "off", "yes", "no", "t", "f", "1", "0", NULL};
        for (int i = 0; words[i]; i++)
            if (strcasecmp(v->str, words[i]) == 0)
                return true;
    }
    return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "%s requires a Boolean value", o->name);
}

static bool option_string(pln_binder_t *b, const sql_option_t *o)
{
    const sql_expr_t *v = o->value;
    if (v && v->kind == SQL_EXPR_CONST && (v->const_kind == SQL_CONST_STRING || v->const_kind == SQL_CONST_INTEGER ||
                                           v->const_kind == SQL_CONST_NUMERIC) && v->str && v->str[0])
        return true;
    return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "%s requires a non-empty value", o->name);
}

static bool option_positive(pln_binder_t *b, const sql_option_t *o, bool integral)
{
    const sql_expr_t *v = o->value;
    if (v && v->kind == SQL_EXPR_CONST && v->str &&
        (v->const_kind == SQL_CONST_INTEGER || (!integral && v->const_kind == SQL_CONST_NUMERIC))) {
        char *end;
        double d = strtod(v->str, &end);
        if (*end == '\0' && d > 0)
            return true;
    }
    return pln__error(b, o->pos, CM_ERRCODE_INVALID_PARAMETER_VALUE, "%s requires a positive %s", o->name,
                      integral ? "integer" : "number");
}

/* ------------------------------------------------------------ connectors */

/* PostgreSQL's wording and codes for a file it cannot open (COPY FROM, pg_read_file). */
static bool check_file(pln_binder_t *b, const sql_create_source_t *cs)
{
    int fd = open(cs->path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        int e = errno;
        const char *code = e == EACCES || e == EPERM ? ERRCODE_INSUFFICIENT_PRIVILEGE
                           : e == ENOENT || e == ENOTDIR ? ERRCODE_UNDEFINED_FILE
                                                         : CM_ERRCODE_DATA_EXCEPTION;
        return pln__error(b, cs->path_pos, code, "could not open file \"%s\" for reading: %s", cs->path, strerror(e));
    }
    struct stat st;
    bool dir = fstat(fd, &st) == 0 && S_ISDIR(st.st_mode);
    close(fd);
    if (dir)
        return pln__error(b, cs->path_pos, ERRCODE_WRONG_OBJECT_TYPE, "\"%s\" is a directory", cs->path);
    return true;
}

static bool check_generator(pln_binder_t *b, const sql_create_source_t *cs, src_cols_t *c)
{
    static const char *const counter[] = {"tick interval", "up to", NULL};
    static const char *const auction[] = {"tick interval", "scale factor", NULL};
    static const char *const tpch[] = {"tick interval", "scale factor", NULL};
    static const char *const *const known[] = {counter, auction, tpch};
    static const char *const names[] = {"COUNTER", "AUCTION", "TPCH"};
    if (cs->format != SQL_FORMAT_NONE)
        return pln__error(b, cs->format_pos, CM_ERRCODE_SYNTAX_ERROR, "LOAD GENERATOR sources take no FORMAT");
    if (!check_known(b, cs->options, cm_arena_printf(b->arena, "LOAD GENERATOR %s", names[cs->generator]),
                     known[cs->generator]))
        return false;
    const sql_option_t *o;
    if ((o = find_option(cs->options, "tick interval")) && !option_string(b, o))
        return false;
    if ((o = find_option(cs->options, "up to")) && !option_positive(b, o, true))
        return false;
    if ((o = find_option(cs->options, "scale factor")) && !option_positive(b, o, false))
        return false;
    switch (cs->generator) {
    case SQL_GEN_COUNTER:
        add_col(b, c, "counter", TY_INT8);
        return true;
    case SQL_GEN_AUCTION:
        /* The bids stream: the relation an auction generator is read through. */
        add_col(b, c, "id", TY_INT8);
        add_col(b, c, "buyer", TY_INT8);
        add_col(b, c, "auction_id", TY_INT8);
        add_col(b, c, "amount", TY_INT4);
        add_col(b, c, "bid_time", TY_TIMESTAMPTZ);
        return true;
    case SQL_GEN_TPCH:
        /* TPC-H's eight relations are tables FROM SOURCE (pln_source_ref.c); the source
         * itself is its progress, as in Materialize: the offset generated up to. */
        add_col(b, c, "offset", TY_INT8);
        return true;
    }
    return pln__error(b, -1, CM_ERRCODE_INTERNAL_ERROR, "unknown load generator");
}

/* ------------------------------------------------------------ formats */

/*
 * POSIX regcomp knows no named groups, so (?<name>...) and (?P<name>...)
 * are rewritten to plain groups; names[i] is group i+1's name or NULL.
 */
static char *strip_group_names(pln_binder_t *b, const char *re, const char ***names, int *nnames)
{
    size_t len = strlen(re);
    char *out = cm_arena_alloc(b->arena, len + 1);
    size_t o = 0;
    const char **nm = cm_arena_zalloc(b->arena, sizeof(char *) * (len + 1));
    int group = 0;
    for (size_t i = 0; i < len; i++) {
        if (re[i] == '\\' && i + 1 < len) {
            out[o++] = re[i++];
            out[o++] = re[i];
            continue;
        }
        if (re[i] == '(') {
            const char *p = re + i + 1;
            size_t skip = 0;
            if (strncmp(p, "?P<", 3) == 0)
                skip = 3;
            else if (strncmp(p, "?<", 2) == 0 && p[2] != '=' && p[2] != '!')
                skip = 2;
            const char *close = skip ? strchr(p + skip, '>') : NULL;
            if (close) {
                nm[group] = cm_arena_strndup(b->arena, p + skip, (size_t)(close - p - skip));
                i = (size_t)(close - re);
            }
            group++;
            out[o++] = '(';
            continue;
        }
        out[o++] = re[i];
    }
    out[o] = '\0';
    *names = nm;
    *nnames = group;
    return out;
}

static bool regex_columns(pln_binder_t *b, const sql_create_source_t *cs, src_cols_t *c)
{
    const char **names;
    int nnames;
    char *plain = strip_group_names(b, cs->regex, &names, &nnames);
    regex_t re;
    int rc = regcomp(&re, plain, REG_EXTENDED);
    if (rc != 0) {
        char msg[256];
        regerror(rc, &re, msg, sizeof(msg));
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_REGULAR_EXPRESSION, "invalid regular expression: %s",
                          msg);
    }
    size_t ngroups = re.re_nsub;
    regfree(&re);
    if (ngroups == 0)
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_REGULAR_EXPRESSION,
                          "a REGEX format needs at least one capture group");
    for (size_t i = 0; i < ngroups; i++) {
        const char *n = (int)i < nnames && names[i] && names[i][0] ? names[i]
                                                                  : cm_arena_printf(b->arena, "column%zu", i + 1);
        add_col(b, c, n, TY_TEXT);
    }
    return true;
}

static bool format_columns(pln_binder_t *b, const sql_create_source_t *cs, src_cols_t *c)
{
    int declared = sql_list_len(cs->columns);
    switch (cs->format) {
    case SQL_FORMAT_NONE:
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "%s sources need a FORMAT",
                          cs->connector == SQL_CONNECTOR_FILE ? "FILE" : "KAFKA");
    case SQL_FORMAT_TEXT:
        add_col(b, c, "text", TY_TEXT);
        return true;
    case SQL_FORMAT_BYTES:
        add_col(b, c, "data", TY_BYTEA);
        return true;
    case SQL_FORMAT_JSON:
        add_col(b, c, "data", TY_JSONB);
        return true;
    case SQL_FORMAT_REGEX:
        return regex_columns(b, cs, c);
    case SQL_FORMAT_CSV:
        break;
    }
    if (cs->delimiter && strlen(cs->delimiter) != 1)
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "CSV delimiter must be a single one-byte character");
    int64_t n = cs->csv_columns;
    if (!cs->csv_header && n < 1 && !declared)
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "CSV WITH n COLUMNS needs n of at least 1");
    if (cs->csv_header && !declared)
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "CSV WITH HEADER needs a column list");
    if (n > 1600)   /* PostgreSQL's MaxHeapAttributeNumber */
        return pln__error(b, cs->format_pos, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED, "sources can have at most 1600 columns");
    if (n > 0 && declared && n != declared)
        return pln__error(b, cs->format_pos, CM_ERRCODE_INVALID_PARAMETER_VALUE,
                          "CSV WITH %lld COLUMNS does not match the %d columns declared", (long long)n, declared);
    if (n < 1)
        n = declared;
    for (int64_t i = 0; i < n; i++)
        add_col(b, c, cm_arena_printf(b->arena, "column%lld", (long long)(i + 1)), TY_TEXT);
    return true;
}

/* ------------------------------------------------------------ entry */

bool pln__plan_create_source(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out)
{
    const sql_create_source_t *cs = s->create_source;
    cat_qname_t qn;
    if (!pln__qname(b, cs->name->names, cs->name->pos, &qn))
        return false;
    src_cols_t c = {0};
    switch (cs->connector) {
    case SQL_CONNECTOR_FILE: {
        static const char *const file_opts[] = {"tail", NULL};
        if (!check_known(b, cs->options, "FILE", file_opts))
            return false;
        const sql_option_t *tail = find_option(cs->options, "tail");
        if (tail && !option_bool(b, tail))
            return false;
        if (!check_file(b, cs) || !format_columns(b, cs, &c))
            return false;
        break;
    }
    case SQL_CONNECTOR_KAFKA: {
        /* Accepted for its syntax only: nothing connects to a broker yet. */
        static const char *const kafka_opts[] = {NULL};
        if (!cs->broker || !cs->broker[0])
            return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE, "KAFKA BROKER must not be empty");
        if (!cs->topic || !cs->topic[0])
            return pln__error(b, -1, CM_ERRCODE_INVALID_PARAMETER_VALUE, "KAFKA TOPIC must not be empty");
        if (!check_known(b, cs->options, "KAFKA", kafka_opts) || !format_columns(b, cs, &c))
            return false;
        break;
    }
    case SQL_CONNECTOR_LOAD_GENERATOR:
        if (!check_generator(b, cs, &c))
            return false;
        break;
    }
    /* A declared column list names the columns in order, as a view's does. */
    int declared = sql_list_len(cs->columns);
    if ((uint32_t)declared > c.n)
        return pln__error(b, -1, CM_ERRCODE_SYNTAX_ERROR, "CREATE SOURCE specifies %d column names, but the format has %u columns",
                          declared, c.n);
    for (int i = 0; i < declared; i++)
        c.cols[i].name = cs->columns->items[i];
    for (uint32_t i = 0; i < c.n; i++)
        for (uint32_t j = 0; j < i; j++)
            if (strcmp(c.cols[i].name, c.cols[j].name) == 0)
                return pln__error(b, -1, "42701", "column \"%s\" specified more than once", c.cols[i].name);
    cat_item_def_t def = {.kind = CAT_ITEM_SOURCE, .name = qn, .create_sql = pln__source_create_sql(b, s, &qn),
                          .columns = c.cols, .ncolumns = c.n};
    return cat_plan_create_item(b->cat->snap, &b->cat->search, &def, cs->if_not_exists, out, b->err);
}
