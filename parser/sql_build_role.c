/*
 * sql_build_role.c: the role statements' nodes. Their options arrive as a
 * flat run of words, strings and numbers (the grammar takes ROLE,
 * PASSWORD, LOGIN, ... as plain words, as PostgreSQL's unreserved keywords
 * are); this file reads that run as PostgreSQL's CreateOptRoleElem /
 * AlterOptRoleElem do, with its messages.
 */
#include "parser/sql_int.h"

#include <string.h>

static const struct {
    const char *word;
    unsigned attr;
    bool value;
} role_words[] = {
    {"superuser", SQL_ROLE_SUPERUSER, true},     {"nosuperuser", SQL_ROLE_SUPERUSER, false},
    {"createrole", SQL_ROLE_CREATEROLE, true},   {"nocreaterole", SQL_ROLE_CREATEROLE, false},
    {"createdb", SQL_ROLE_CREATEDB, true},       {"nocreatedb", SQL_ROLE_CREATEDB, false},
    {"login", SQL_ROLE_LOGIN, true},             {"nologin", SQL_ROLE_LOGIN, false},
    {"inherit", SQL_ROLE_INHERIT, true},         {"noinherit", SQL_ROLE_INHERIT, false},
    {"replication", SQL_ROLE_REPLICATION, true}, {"noreplication", SQL_ROLE_REPLICATION, false},
    {"bypassrls", SQL_ROLE_BYPASSRLS, true},     {"nobypassrls", SQL_ROLE_BYPASSRLS, false},
};

static bool is_word(const sql_token_t *t, const char *w)
{
    return t && t->type == SQL_TOK_IDENT && !t->quoted && strcmp(t->str, w) == 0;
}

/* The same option twice: PostgreSQL's "conflicting or redundant options". */
static bool redundant(sql_pctx_t *ctx, sql_role_t *r, unsigned attr, const sql_token_t *at)
{
    if (r->set & attr)
        return sql__error_at(ctx, at->pos, CM_ERRCODE_SYNTAX_ERROR, "conflicting or redundant options");
    r->set |= attr;
    return true;
}

static bool role_options(sql_pctx_t *ctx, sql_role_t *r, sql_list_t *elems)
{
    int n = sql_list_len(elems);
    sql_token_t **e = n ? (sql_token_t **)elems->items : NULL;
    for (int i = 0; i < n; i++) {
        const sql_token_t *t = e[i];
        const sql_token_t *t1 = i + 1 < n ? e[i + 1] : NULL;
        const sql_token_t *t2 = i + 2 < n ? e[i + 2] : NULL;
        if (t->type != SQL_TOK_IDENT || t->quoted) {
            sql__syntax_error(ctx, t, t->type);
            return false;
        }
        bool done = false;
        for (size_t k = 0; k < CM_ARRAY_LEN(role_words) && !done; k++) {
            if (strcmp(t->str, role_words[k].word) != 0)
                continue;
            if (!redundant(ctx, r, role_words[k].attr, t))
                return false;
            if (role_words[k].value)
                r->flags |= role_words[k].attr;
            done = true;
        }
        if (done)
            continue;
        if ((is_word(t, "encrypted") || is_word(t, "unencrypted")) && is_word(t1, "password")) {
            if (is_word(t, "unencrypted"))
                return sql__error_at(ctx, t->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED,
                                     "UNENCRYPTED PASSWORD is no longer supported");
            t = t1, t1 = t2, i++;
        }
        if (is_word(t, "password")) {
            if (t1 && (t1->type == SQL_TOK_SCONST || t1->type == SQL_TOK_NULL)) {
                if (!redundant(ctx, r, SQL_ROLE_PASSWORD, t))
                    return false;
                r->password = t1->type == SQL_TOK_SCONST ? t1->str : NULL;
                i++;
                continue;
            }
        } else if (is_word(t, "connection") && t1 && t1->type == SQL_TOK_LIMIT) {
            bool neg = t2 && t2->type == SQL_TOK_MINUS;
            const sql_token_t *num = neg ? (i + 3 < n ? e[i + 3] : NULL) : t2;
            if (num && num->type == SQL_TOK_ICONST) {
                if (!redundant(ctx, r, SQL_ROLE_CONN_LIMIT, t))
                    return false;
                r->conn_limit = neg ? -num->ival : num->ival;
                i += neg ? 3 : 2;
                continue;
            }
            t = num ? num : t1;
        } else if (is_word(t, "valid") && is_word(t1, "until") && t2 && t2->type == SQL_TOK_SCONST) {
            if (!redundant(ctx, r, SQL_ROLE_VALID_UNTIL, t))
                return false;
            r->valid_until = t2->str;
            i += 2;
            continue;
        } else if (t1 == NULL || t1->type != SQL_TOK_SCONST) {
            return sql__error_at(ctx, t->pos, CM_ERRCODE_SYNTAX_ERROR, "unrecognized role option \"%s\"", t->str);
        }
        /* A word the options do not take here. */
        const sql_token_t *bad = t1 ? t1 : t;
        if (bad->type == 0 || t1 == NULL) {
            sql__error_at(ctx, (int)ctx->len, CM_ERRCODE_SYNTAX_ERROR, "syntax error at end of input");
            return false;
        }
        sql__syntax_error(ctx, bad, bad->type);
        return false;
    }
    return true;
}

sql_stmt_t *sql__role(sql_pctx_t *ctx, sql_stmt_kind_t kind, const sql_token_t *kw, const sql_token_t *name,
                      sql_list_t *elems, bool is_user)
{
    sql_stmt_t *s = sql__stmt_new(ctx, kind);
    sql_role_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    s->role = r;
    if (kw && !sql__word(ctx, kw, "role"))
        return s;
    r->is_user = is_user;
    r->name = name->str;
    r->name_pos = name->pos;
    r->conn_limit = -1;
    role_options(ctx, r, elems);
    return s;
}

sql_stmt_t *sql__role_setting(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *name, sql_stmt_t *setting,
                              bool is_user)
{
    sql_stmt_t *s = sql__role(ctx, SQL_STMT_ALTER_ROLE, kw, name, NULL, is_user);
    s->role->setting = setting;
    return s;
}

sql_stmt_t *sql__set_role(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *value)
{
    if (kw->quoted || strcmp(kw->str, "role") != 0) {
        sql_token_t at = {.type = 1, .pos = value->pos, .len = 1};
        /* The value's text as written: up to the next space or the end. */
        while (value->pos + at.len < (int)ctx->len && ctx->text[value->pos + at.len] != ' ' &&
               ctx->text[value->pos + at.len] != ';')
            at.len++;
        sql__syntax_error(ctx, &at, 1);
    }
    return sql__stmt_set(ctx, "role", sql__list1(ctx, value));
}

sql_stmt_t *sql__drop_role(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *names, bool if_exists)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_DROP_ROLE);
    sql_role_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    s->role = r;
    if (kw && !sql__word(ctx, kw, "role"))
        return s;
    r->is_user = kw == NULL;
    r->if_exists = if_exists;
    r->names = names;
    return s;
}

sql_stmt_t *sql__reassign_owned(sql_pctx_t *ctx, const sql_token_t *reassign, const sql_token_t *owned,
                                sql_list_t *owners, sql_rolespec_t *to)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_REASSIGN_OWNED);
    sql_role_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    s->role = r;
    if (!sql__word(ctx, reassign, "reassign") || !sql__word(ctx, owned, "owned"))
        return s;
    r->owners = owners;
    r->new_owner = to;
    return s;
}

sql_stmt_t *sql__drop_owned(sql_pctx_t *ctx, const sql_token_t *owned, sql_list_t *owners, int behavior)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_DROP_OWNED);
    sql_role_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    s->role = r;
    if (!sql__word(ctx, owned, "owned"))
        return s;
    r->owners = owners;
    r->behavior = behavior;
    return s;
}

sql_stmt_t *sql__grant_role(sql_pctx_t *ctx, bool revoke, sql_list_t *roles, sql_list_t *members,
                            const sql_token_t *with)
{
    sql_stmt_t *s = sql__stmt_new(ctx, revoke ? SQL_STMT_REVOKE_ROLE : SQL_STMT_GRANT_ROLE);
    sql_role_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    s->role = r;
    if (with) {
        sql__error_at(ctx, with->pos, CM_ERRCODE_FEATURE_NOT_SUPPORTED, "WITH %s OPTION is not supported yet",
                      with->str);
        return s;
    }
    /* The roles are the privilege list's words (GRANT's first list is shared). */
    r->names = NULL;
    for (int i = 0; i < sql_list_len(roles); i++) {
        const sql_priv_t *p = roles->items[i];
        if (p->cols)
            r->with_columns = true;
        r->names = r->names ? sql__list_add(ctx, r->names, (void *)p->name) : sql__list1(ctx, (void *)p->name);
    }
    r->members = members;
    return s;
}
