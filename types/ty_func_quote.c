/*
 * ty_func_quote.c: quote_ident, quote_literal and quote_nullable, and the
 * quoting helpers that format() shares.
 *
 * quote_ident must quote exactly what PostgreSQL's quote_identifier quotes:
 * anything but a lower-case ASCII identifier, and every keyword that is not
 * unreserved. The types module may not depend on the parser, so the list of
 * PostgreSQL 15's reserved, column-name and type/function-name keywords is
 * kept here (it changes only with a PostgreSQL major version).
 */
#include "types/ty_internal.h"

#include <stdlib.h>
#include <string.h>

#define S TY_FN_STRICT
#define T TY_TEXT

/* Sorted bytewise for bsearch. */
static const char *const ty__keywords[] = {
    "all", "analyse", "analyze", "and", "any", "array", "as", "asc", "asymmetric", "authorization",
    "between", "bigint", "binary", "bit", "boolean", "both", "case", "cast", "char", "character",
    "check", "coalesce", "collate", "collation", "column", "concurrently", "constraint", "create",
    "cross", "current_catalog", "current_date", "current_role", "current_schema", "current_time",
    "current_timestamp", "current_user", "dec", "decimal", "default", "deferrable", "desc", "distinct",
    "do", "else", "end", "except", "exists", "extract", "false", "fetch", "float", "for", "foreign",
    "freeze", "from", "full", "grant", "greatest", "group", "grouping", "having", "ilike", "in",
    "initially", "inner", "inout", "int", "integer", "intersect", "interval", "into", "is", "isnull",
    "join", "lateral", "leading", "least", "left", "like", "limit", "localtime", "localtimestamp",
    "national", "natural", "nchar", "none", "normalize", "not", "notnull", "null", "nullif", "numeric",
    "offset", "on", "only", "or", "order", "out", "outer", "overlaps", "overlay", "placing",
    "position", "precision", "primary", "real", "references", "returning", "right", "row", "select",
    "session_user", "setof", "similar", "smallint", "some", "substring", "symmetric", "table",
    "tablesample", "then", "time", "timestamp", "to", "trailing", "treat", "trim", "true", "union",
    "unique", "user", "using", "values", "varchar", "variadic", "verbose", "when", "where", "window",
    "with", "xmlattributes", "xmlconcat", "xmlelement", "xmlexists", "xmlforest", "xmlnamespaces",
    "xmlparse", "xmlpi", "xmlroot", "xmlserialize", "xmltable",
};

static int ty__kw_cmp(const void *key, const void *elem)
{
    return strcmp((const char *)key, *(const char *const *)elem);
}

void ty_quote_ident(const char *p, size_t len, cm_buf_t *out)
{
    bool safe = len > 0 && ((p[0] >= 'a' && p[0] <= 'z') || p[0] == '_');
    for (size_t i = 0; i < len && safe; i++) {
        char ch = p[i];
        safe = (ch >= 'a' && ch <= 'z') || (ch >= '0' && ch <= '9') || ch == '_';
    }
    if (safe && len < 64) {
        char word[64];
        memcpy(word, p, len);
        word[len] = 0;
        safe = bsearch(word, ty__keywords, CM_ARRAY_LEN(ty__keywords), sizeof(ty__keywords[0]), ty__kw_cmp) == NULL;
    }
    if (safe) {
        cm_buf_put(out, p, len);
        return;
    }
    cm_buf_put_u8(out, '"');
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '"')
            cm_buf_put_u8(out, '"');
        cm_buf_put_u8(out, (uint8_t)p[i]);
    }
    cm_buf_put_u8(out, '"');
}

/* Quotes and backslashes are doubled; a backslash also asks for the E'' form. */
void ty_quote_literal(const char *p, size_t len, cm_buf_t *out)
{
    if (memchr(p, '\\', len) != NULL)
        cm_buf_put_u8(out, 'E');
    cm_buf_put_u8(out, '\'');
    for (size_t i = 0; i < len; i++) {
        if (p[i] == '\'' || p[i] == '\\')
            cm_buf_put_u8(out, (uint8_t)p[i]);
        cm_buf_put_u8(out, (uint8_t)p[i]);
    }
    cm_buf_put_u8(out, '\'');
}

static bool ty__quote_ident(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_quote_ident(a[0].v.s.p, a[0].v.s.len, &b);
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

static bool ty__quote_literal(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    ty_quote_literal(a[0].v.s.p, a[0].v.s.len, &b);
    *o = ty_buf_datum(c->arena, &b);
    cm_buf_free(&b);
    return true;
}

/* Not strict: NULL becomes the unquoted word NULL. */
static bool ty__quote_nullable(ty_ctx_t *c, const ty_datum_t *a, int n, ty_datum_t *o)
{
    if (a[0].isnull) {
        *o = ty_text_datum(c->arena, "NULL", 4);
        return true;
    }
    return ty__quote_literal(c, a, n, o);
}

/*
 * quote_literal(anyelement) and quote_nullable(anyelement) are SQL functions
 * over the text forms in PostgreSQL; arguments declared "any" arrive here as
 * their text output, which is the same thing.
 */
static const ty_func_t ty__quote[] = {
    {"quote_ident", 1, {T}, T, S, ty__quote_ident, 1282},
    {"quote_literal", 1, {T}, T, S, ty__quote_literal, 1283},
    {"quote_literal", 1, {TY_INVALID}, T, S, ty__quote_literal, 1285},
    {"quote_nullable", 1, {T}, T, 0, ty__quote_nullable, 1289},
    {"quote_nullable", 1, {TY_INVALID}, T, 0, ty__quote_nullable, 1290},
};

const ty_func_table_t ty_funcs_quote = {ty__quote, CM_ARRAY_LEN(ty__quote)};
