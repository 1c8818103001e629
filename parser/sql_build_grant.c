/*
 * sql_build_grant.c: the nodes of GRANT / REVOKE privileges ON objects, as
 * PostgreSQL's GrantStmt: the privileges as written (lower case; checked
 * against the object kind by the planner, which knows PostgreSQL's order of
 * errors), the target, the grantees as RoleSpecs, WITH GRANT OPTION / REVOKE
 * GRANT OPTION FOR and CASCADE / RESTRICT. OPTION and PRIVILEGES are plain
 * words here, checked when built (PostgreSQL's are unreserved keywords).
 */
#include "parser/sql_int.h"

#include <string.h>

bool sql__word_is(sql_pctx_t *ctx, const sql_token_t *word, const char *want)
{
    if (word->quoted || strcmp(word->str, want) != 0)
        sql__syntax_error(ctx, word, word->type);
    return true;
}

sql_list_t *sql__all_privileges(sql_pctx_t *ctx, const sql_token_t *word)
{
    sql__word_is(ctx, word, "privileges");
    return NULL;
}

sql_priv_t *sql__priv(sql_pctx_t *ctx, const char *name, sql_list_t *cols)
{
    sql_priv_t *p = cm_arena_zalloc(ctx->arena, sizeof(*p));
    p->name = name;
    p->cols = cols;
    return p;
}

char sql__defacl_objtype(sql_pctx_t *ctx, const sql_token_t *word)
{
    if (!word->quoted && strcmp(word->str, "functions") == 0)
        return 'f';
    if (!word->quoted && strcmp(word->str, "routines") == 0)
        return 'F';   /* functions, written ROUTINES */
    if (!word->quoted && strcmp(word->str, "types") == 0)
        return 'T';
    sql__syntax_error(ctx, word, word->type);
    return 'r';
}

sql_grant_t *sql__grant_target(sql_pctx_t *ctx, sql_grant_target_t target, sql_list_t *objects)
{
    sql_grant_t *g = cm_arena_zalloc(ctx->arena, sizeof(*g));
    g->target = target;
    g->objects = objects;
    return g;
}

sql_stmt_t *sql__grant(sql_pctx_t *ctx, const sql_token_t *kw, bool revoke, bool grant_option, sql_list_t *privs,
                       sql_grant_t *target, sql_list_t *grantees, int behavior)
{
    sql_stmt_t *s = sql__stmt_new(ctx, SQL_STMT_GRANT);
    target->revoke = revoke;
    target->grant_option = grant_option;
    target->privs = privs;
    target->grantees = grantees;
    target->behavior = behavior;
    s->grant = target;
    (void)kw;
    return s;
}

sql_stmt_t *sql__grant_option_for(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *option, sql_list_t *privs,
                                  sql_grant_t *target, sql_list_t *grantees, int behavior)
{
    sql__word_is(ctx, option, "option");
    return sql__grant(ctx, kw, true, true, privs, target, grantees, behavior);
}

sql_stmt_t *sql__default_privileges(sql_pctx_t *ctx, const sql_token_t *word, sql_grant_t *options, sql_stmt_t *grant)
{
    sql__word_is(ctx, word, "privileges");
    if (options->defacl_objtype == 'F') {
        options->defacl_objtype = 'f';
        options->defacl_routines = true;
    }
    (void)options;   /* sql__grant filled the same node */
    return grant;
}

/* FOR ROLE / FOR USER, as often as written: the lists add up. */
sql_grant_t *sql__defacl_roles(sql_pctx_t *ctx, sql_grant_t *o, const sql_token_t *word, sql_list_t *roles)
{
    if (word)
        sql__word_is(ctx, word, "role");
    for (int i = 0; i < sql_list_len(roles); i++)
        o->for_roles = o->for_roles ? sql__list_add(ctx, o->for_roles, roles->items[i]) : sql__list1(ctx, roles->items[i]);
    return o;
}

sql_grant_t *sql__defacl_schemas(sql_pctx_t *ctx, sql_grant_t *o, sql_list_t *schemas)
{
    for (int i = 0; i < sql_list_len(schemas); i++)
        o->in_schemas =
            o->in_schemas ? sql__list_add(ctx, o->in_schemas, schemas->items[i]) : sql__list1(ctx, schemas->items[i]);
    return o;
}
