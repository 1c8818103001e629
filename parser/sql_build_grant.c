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
