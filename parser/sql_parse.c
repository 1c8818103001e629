/*
 * sql_parse.c: the parser driver. It pulls tokens from the tokenizer, does
 * PostgreSQL's one-token look-ahead rewrites (NOT before BETWEEN/IN/LIKE
 * becomes NOT_LA, ...) and eddy's (SHOW before an object word becomes
 * SHOW_LA, OWNED after DROP becomes OWNED_LA, a first word REASSIGN
 * REASSIGN_LA), turns statements the grammar does not take yet into one
 * UNSUPPORTED token, pushes everything into the lemon parser, and words
 * syntax errors the way PostgreSQL does, with 1-based character positions.
 */
#include "parser/sql_int.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

int sql_char_position(const char *text, size_t len, int byte_offset)
{
    if (byte_offset < 0)
        return 0;
    if ((size_t)byte_offset > len)
        byte_offset = (int)len;
    return cm_utf8_chars(text, (size_t)byte_offset) + 1;
}

bool sql__error_at(sql_pctx_t *ctx, int byte_pos, const char *sqlstate, const char *fmt, ...)
{
    if (!ctx->failed && !ctx->err->set) {
        va_list ap;
        va_start(ap, fmt);
        cm_err_vset(ctx->err, sqlstate, fmt, ap);
        va_end(ap);
        ctx->err->position = sql_char_position(ctx->text, ctx->len, byte_pos);
    }
    ctx->failed = true;
    return false;
}

void sql__syntax_error(sql_pctx_t *ctx, const sql_token_t *tok, int major)
{
    if (major == 0)
        sql__error_at(ctx, (int)ctx->len, CM_ERRCODE_SYNTAX_ERROR, "syntax error at end of input");
    else
        sql__error_at(ctx, tok->pos, CM_ERRCODE_SYNTAX_ERROR, "syntax error at or near \"%.*s\"", tok->len,
                      ctx->text + tok->pos);
}

void sql__stack_overflow(sql_pctx_t *ctx)
{
    sql__error_at(ctx, ctx->cur_pos, CM_ERRCODE_STATEMENT_TOO_COMPLEX, "stack depth limit exceeded");
    ctx->err->position = 0;
}

/* ================================================= token look-ahead */

#define SQL_LOOKAHEAD_MAX 16   /* enough to find RENAME in ALTER MATERIALIZED VIEW IF EXISTS d.s.v RENAME */

typedef struct sql_feed {
    sql_lexer_t lx;
    sql_token_t queue[SQL_LOOKAHEAD_MAX];
    int queued;
    bool lex_failed;
} sql_feed_t;

/* Ensures at least n tokens are queued; false on a lexical error. */
static bool feed_fill(sql_feed_t *f, int n)
{
    while (f->queued < n) {
        sql_token_t *t = &f->queue[f->queued];
        if (f->queued > 0 && f->queue[f->queued - 1].type == 0) {
            *t = f->queue[f->queued - 1];   /* past the end: more end tokens */
        } else if (!sql__lex_next(&f->lx, t)) {
            f->lex_failed = true;
            return false;
        }
        f->queued++;
    }
    return true;
}

static bool feed_peek(sql_feed_t *f, int i, sql_token_t **out)
{
    if (!feed_fill(f, i + 1))
        return false;
    *out = &f->queue[i];
    return true;
}

static void feed_pop(sql_feed_t *f)
{
    memmove(f->queue, f->queue + 1, sizeof(sql_token_t) * (size_t)(f->queued - 1));
    f->queued--;
}

/* A plain word: an unquoted identifier or any keyword, whose text is its lower-case spelling. */
static const char *tok_word(const sql_token_t *t)
{
    if (t->type == 0 || t->quoted)
        return NULL;
    if (t->type == SQL_TOK_IDENT)
        return t->str;
    sql_kw_category_t cat;
    int token;
    if (sql__keyword_token(t->str, t->slen, &token, &cat))
        return t->str;
    return NULL;
}

static bool word_in(const char *w, const char *const *set)
{
    for (; w && *set; set++)
        if (strcmp(w, *set) == 0)
            return true;
    return false;
}

/* Statements that begin with these words are recognised but not implemented yet. */
static const char *const unsupported_leads[] = {
    "analyse", "analyze", "call", "checkpoint", "cluster", "comment", "do",
    "import", "listen", "load", "lock", "merge", "move", "notify", "refresh", "reindex", "release",
    "savepoint", "security", "tail", "unlisten", "vacuum", NULL,
};
/* Words between CREATE/DROP/ALTER and the object type that the name leaves out. */
static const char *const object_modifiers[] = {
    "or", "replace", "temp", "temporary", "unique", "if", "not", "exists", "default", NULL,
};
/* Modifiers of forms the grammar does not take (CREATE UNLOGGED TABLE, CREATE INDEX CONCURRENTLY). */
static const char *const unsupported_modifiers[] = {"unlogged", "global", "local", "concurrently", NULL};
/* The CREATE / DROP / ALTER forms the grammar takes (ALTER only with RENAME or OWNER TO). */
static const char *const ddl_supported[] = {
    "CREATE TABLE", "CREATE SOURCE", "CREATE VIEW", "CREATE MATERIALIZED VIEW", "CREATE INDEX", "CREATE SCHEMA",
    "CREATE DATABASE", "DROP TABLE", "DROP SOURCE", "DROP VIEW", "DROP MATERIALIZED VIEW", "DROP INDEX",
    "DROP SCHEMA", "DROP DATABASE", "ALTER TABLE", "ALTER SOURCE", "ALTER VIEW", "ALTER MATERIALIZED VIEW",
    "ALTER INDEX", "ALTER SCHEMA", "ALTER DATABASE", "CREATE ROLE", "CREATE USER", "ALTER ROLE", "ALTER USER", "DROP ROLE",
    "DROP USER", "DROP OWNED", NULL,
};
static const char *const default_privileges[] = {"privileges", NULL};
/* eddy's introspection statements, which share SHOW with SHOW variable. */
static const char *const show_objects[] = {
    "sources", "tables", "views", "materialized", "indexes", "index", "columns", "create", "objects", "schemas",
    "databases", NULL,
};
/* Materialize's SHOW forms for objects eddy does not have. */
static const char *const show_unsupported[] = {"sinks", "clusters", "secrets", "connections", NULL};

bool sql__show_object_word(const char *word)
{
    return word_in(word, show_objects);
}

static void name_add(cm_buf_t *b, const char *w)
{
    if (b->len)
        cm_buf_put_u8(b, ' ');
    for (; *w; w++)
        cm_buf_put_u8(b, (uint8_t)((*w >= 'a' && *w <= 'z') ? *w - 32 : *w));
}

/* True if the statement's next words (within the look-ahead window) include RENAME or OWNER,
 * the ALTER actions the grammar takes. */
static bool has_alter_action(sql_feed_t *f)
{
    sql_token_t *t;
    for (int i = 1; i < SQL_LOOKAHEAD_MAX && feed_peek(f, i, &t) && t->type != 0 && t->type != SQL_TOK_SEMI; i++)
        if (t->type == SQL_TOK_RENAME || (t->type == SQL_TOK_IDENT && !t->quoted && strcmp(t->str, "owner") == 0))
            return true;
    return false;
}

/*
 * If the statement starting at queue[0] is one the grammar does not take
 * yet, returns its display name ("CREATE FUNCTION", "ALTER TABLE",
 * "SHOW SINKS", "GRANT"); NULL otherwise. May lex ahead.
 */
static const char *unsupported_name(sql_feed_t *f, cm_arena_t *arena)
{
    const char *w0 = tok_word(&f->queue[0]);
    sql_token_t *t;
    if (!w0)
        return NULL;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    bool unsupported = false;
    if (strcmp(w0, "show") == 0) {
        if (feed_peek(f, 1, &t) && word_in(tok_word(t), show_unsupported)) {
            name_add(&b, "show");
            name_add(&b, tok_word(t));
            unsupported = true;
        }
    } else if (strcmp(w0, "alter") == 0 && feed_peek(f, 1, &t) && t->type == SQL_TOK_DEFAULT &&
               feed_peek(f, 2, &t) && word_in(tok_word(t), default_privileges)) {
        /* ALTER DEFAULT PRIVILEGES: the grammar takes it. */
    } else if (strcmp(w0, "create") == 0 || strcmp(w0, "drop") == 0 || strcmp(w0, "alter") == 0) {
        name_add(&b, w0);
        bool odd = false, object = false;
        /* Look past modifiers for the object type, within the look-ahead window. */
        for (int i = 1; i < SQL_LOOKAHEAD_MAX && feed_peek(f, i, &t); i++) {
            const char *w = tok_word(t);
            if (!w)
                break;
            if (word_in(w, unsupported_modifiers)) {
                odd = true;
                continue;
            }
            if (word_in(w, object_modifiers))
                continue;
            name_add(&b, w);
            object = true;
            if (strcmp(w, "materialized") != 0) {
                /* CREATE INDEX CONCURRENTLY: the modifier follows the object word. */
                if (feed_peek(f, i + 1, &t) && word_in(tok_word(t), unsupported_modifiers))
                    odd = true;
                break;
            }
        }
        if (object) {
            cm_buf_put_u8(&b, '\0');
            bool known = word_in((const char *)b.data, ddl_supported);
            b.len--;
            bool role = strcmp((const char *)b.data, "ALTER ROLE") == 0 || strcmp((const char *)b.data, "ALTER USER") == 0;
            unsupported = odd || !known || (strcmp(w0, "alter") == 0 && !role && !has_alter_action(f));
        }
    } else if (word_in(w0, unsupported_leads)) {
        name_add(&b, w0);
        unsupported = true;
    }
    const char *name = unsupported ? cm_arena_strndup(arena, (const char *)b.data, b.len) : NULL;
    cm_buf_free(&b);
    return name;
}

/* PostgreSQL's look-ahead rewrites that keep its grammar LALR(1). */
static bool lookahead_rewrite(sql_feed_t *f, sql_token_t *tok)
{
    sql_token_t *next;
    switch (tok->type) {
    case SQL_TOK_NOT:
        if (!feed_peek(f, 1, &next))
            return false;
        if (next->type == SQL_TOK_BETWEEN || next->type == SQL_TOK_IN || next->type == SQL_TOK_LIKE ||
            next->type == SQL_TOK_ILIKE || next->type == SQL_TOK_SIMILAR)
            tok->type = SQL_TOK_NOT_LA;
        break;
    case SQL_TOK_NULLS:
        if (!feed_peek(f, 1, &next))
            return false;
        if (next->type == SQL_TOK_FIRST || next->type == SQL_TOK_LAST)
            tok->type = SQL_TOK_NULLS_LA;
        break;
    case SQL_TOK_WITH:
        if (!feed_peek(f, 1, &next))
            return false;
        if (next->type == SQL_TOK_TIME || next->type == SQL_TOK_ORDINALITY)
            tok->type = SQL_TOK_WITH_LA;
        break;
    default:
        break;
    }
    return true;
}

/* ========================================================= the driver */

static void *parser_alloc(size_t n) { return cm_malloc(n); }

bool sql_parse(cm_arena_t *arena, const char *text, size_t len, sql_stmt_list_t *out, cm_err_t *err)
{
    /* The wire protocol ends strings at NUL; so does the SQL text. */
    const char *nul = memchr(text, '\0', len);
    if (nul)
        len = (size_t)(nul - text);

    sql_pctx_t ctx = {.arena = arena, .text = text, .len = len, .err = err};
    sql_feed_t feed = {0};
    sql__lex_init(&feed.lx, arena, text, len, err);
    void *parser = sql_parserAlloc(parser_alloc, &ctx);
    bool at_start = true;

    for (;;) {
        sql_token_t *tok;
        if (!feed_peek(&feed, 0, &tok))
            break;
        if (at_start && tok->type != SQL_TOK_SEMI && tok->type != 0) {
            at_start = false;
            ctx.stmt_pos = tok->pos;
            const char *name = unsupported_name(&feed, arena);
            if (feed.lex_failed)
                break;
            if (!name && tok->type == SQL_TOK_SHOW) {
                /* SHOW TABLES and friends: a distinct token keeps them apart from SHOW setting. */
                sql_token_t *next;
                if (!feed_peek(&feed, 1, &next))
                    break;
                if (word_in(tok_word(next), show_objects))   /* unquoted words only: SHOW "tables" is a setting */
                    tok->type = SQL_TOK_SHOW_LA;
            }
            if (!name && tok->type == SQL_TOK_IDENT && !tok->quoted && strcmp(tok->str, "reassign") == 0)
                tok->type = SQL_TOK_REASSIGN_LA;
            if (!name && tok->type == SQL_TOK_DROP) {
                sql_token_t *next;
                if (!feed_peek(&feed, 1, &next))
                    break;
                if (next->type == SQL_TOK_IDENT && !next->quoted && strcmp(next->str, "owned") == 0)
                    next->type = SQL_TOK_OWNED_LA;
            }
            if (name) {
                /* Skip to the statement's end; lexical errors inside still count. */
                sql_token_t unsup = *tok;
                unsup.type = SQL_TOK_UNSUPPORTED;
                unsup.str = name;
                while (feed_peek(&feed, 0, &tok) && tok->type != SQL_TOK_SEMI && tok->type != 0)
                    feed_pop(&feed);
                if (feed.lex_failed)
                    break;
                ctx.cur_pos = unsup.pos;
                sql_parser(parser, SQL_TOK_UNSUPPORTED, unsup);
                continue;
            }
        }
        if (!lookahead_rewrite(&feed, tok))
            break;
        sql_token_t cur = *tok;
        feed_pop(&feed);
        ctx.cur_pos = cur.type == 0 ? (int)len : cur.pos;
        sql_parser(parser, cur.type, cur);
        if (ctx.failed || cur.type == 0)
            break;
        if (cur.type == SQL_TOK_SEMI)
            at_start = true;
    }
    sql_parserFree(parser, free);

    if (feed.lex_failed || ctx.failed)
        return false;
    out->count = sql_list_len(ctx.stmts);
    out->items = out->count ? (sql_stmt_t **)ctx.stmts->items : NULL;
    return true;
}
