/*
 * sql_int.h: the parser module's internal header: tokens, the tokenizer,
 * the parse context that grammar actions see, and the node builders those
 * actions call (sql_build.c). Only parser/ files and the generated sql.c
 * include it.
 */
#ifndef EDDY_SQL_INT_H
#define EDDY_SQL_INT_H

#include "parser/parser.h"
#include "sql.h"   /* generated: SQL_TOK_* token codes */

/* One token as the tokenizer hands it to the grammar. */
typedef struct sql_token {
    int type;           /* SQL_TOK_* */
    int pos;            /* byte offset of its first byte in the text */
    int len;            /* bytes of source text */
    const char *str;    /* decoded value: folded identifier, unescaped string, keyword in lower case,
                           operator name, number text; NUL-terminated, in the arena */
    size_t slen;        /* length of str */
    int64_t ival;       /* ICONST value, PARAM number */
    bool quoted;        /* a "quoted" identifier (never a keyword) */
} sql_token_t;

/* The tokenizer: a cursor over the text. */
typedef struct sql_lexer {
    cm_arena_t *arena;
    const char *text;
    size_t len;
    size_t at;          /* next byte to look at */
    cm_err_t *err;
} sql_lexer_t;

void sql__lex_init(sql_lexer_t *lx, cm_arena_t *arena, const char *text, size_t len, cm_err_t *err);
/* Next token; type 0 at end of input. False (err set, positioned) on a lexical error. */
bool sql__lex_next(sql_lexer_t *lx, sql_token_t *tok);

/* Keyword lookup that also yields the grammar's token (SQL_TOK_IDENT for
 * unreserved keywords the grammar does not use). */
bool sql__keyword_token(const char *word, size_t len, int *token, sql_kw_category_t *category);

/* What grammar actions see (lemon's %extra_context). */
typedef struct sql_pctx {
    cm_arena_t *arena;
    const char *text;
    size_t len;
    cm_err_t *err;
    bool failed;            /* an error was recorded: stop feeding tokens */
    sql_list_t *stmts;      /* finished statements */
    int stmt_pos;           /* byte offset of the current statement's first token */
    int cur_pos;            /* byte offset of the token being fed (the lookahead) */
} sql_pctx_t;

/* Errors, positioned at a byte offset into the text. */
bool sql__error_at(sql_pctx_t *ctx, int byte_pos, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
void sql__syntax_error(sql_pctx_t *ctx, const sql_token_t *tok, int major);
void sql__stack_overflow(sql_pctx_t *ctx);

/* ---- builders (sql_build.c): allocate in ctx->arena; never fail except by depth (ctx->failed) */

sql_list_t *sql__list_new(sql_pctx_t *ctx);
sql_list_t *sql__list1(sql_pctx_t *ctx, void *item);
sql_list_t *sql__list_add(sql_pctx_t *ctx, sql_list_t *l, void *item);
sql_list_t *sql__list_prepend(sql_pctx_t *ctx, sql_list_t *l, void *item);
sql_list_t *sql__list4(sql_pctx_t *ctx, void *a, void *b, void *c, void *d);   /* stops at the first NULL */
const char *sql__dotted(sql_pctx_t *ctx, const char *prefix, const char *name);

sql_stmt_t *sql__stmt_new(sql_pctx_t *ctx, sql_stmt_kind_t kind);
void sql__stmt_add(sql_pctx_t *ctx, sql_stmt_t *s);
sql_stmt_t *sql__stmt_select(sql_pctx_t *ctx, sql_select_t *s);
sql_stmt_t *sql__stmt_unsupported(sql_pctx_t *ctx, const sql_token_t *t);
sql_stmt_t *sql__stmt_set(sql_pctx_t *ctx, const char *name, sql_list_t *values);
sql_stmt_t *sql__stmt_set_local(sql_pctx_t *ctx, sql_stmt_t *s);
sql_stmt_t *sql__stmt_set_txn(sql_pctx_t *ctx, sql_txn_modes_t *m, bool session);
sql_stmt_t *sql__stmt_show(sql_pctx_t *ctx, const char *name);
sql_stmt_t *sql__stmt_reset(sql_pctx_t *ctx, const char *name);
sql_stmt_t *sql__stmt_txn(sql_pctx_t *ctx, sql_stmt_kind_t kind, sql_txn_modes_t *m, bool start);
sql_stmt_t *sql__stmt_txn_end(sql_pctx_t *ctx, sql_stmt_kind_t kind, int chain);
sql_stmt_t *sql__stmt_discard(sql_pctx_t *ctx, sql_discard_t what);
sql_txn_modes_t *sql__txn_modes(sql_pctx_t *ctx);
sql_txn_modes_t *sql__txn_modes_add(sql_pctx_t *ctx, sql_txn_modes_t *m, int item);

sql_select_t *sql__select(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *distinct, sql_list_t *targets,
                          sql_list_t *from, sql_expr_t *where, sql_list_t *group, sql_expr_t *having);
sql_select_t *sql__values(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *row);
sql_select_t *sql__values_add(sql_pctx_t *ctx, sql_select_t *v, sql_list_t *row);
sql_select_t *sql__setop(sql_pctx_t *ctx, sql_setop_t op, int all, sql_select_t *l, sql_select_t *r);
sql_select_t *sql__select_options(sql_pctx_t *ctx, sql_select_t *s, sql_list_t *order, sql_select_t *limit);
sql_select_t *sql__limit(sql_pctx_t *ctx, sql_expr_t *limit, sql_expr_t *offset);
sql_select_t *sql__limit_merge(sql_pctx_t *ctx, sql_select_t *l, sql_select_t *o);
sql_select_t *sql__limit_comma(sql_pctx_t *ctx, const sql_token_t *kw);
sql_target_t *sql__target(sql_pctx_t *ctx, sql_expr_t *e, const char *alias);
sql_sort_t *sql__sortby(sql_pctx_t *ctx, sql_expr_t *e, int dir, int nulls);
sql_from_t *sql__from_relation(sql_pctx_t *ctx, sql_expr_t *name, sql_from_t *alias);
sql_from_t *sql__from_subquery(sql_pctx_t *ctx, sql_select_t *s, sql_from_t *alias);
sql_from_t *sql__from_join(sql_pctx_t *ctx, sql_join_kind_t kind, bool natural, sql_from_t *l, sql_from_t *r,
                           sql_from_t *qual);
/* (a JOIN b ...) AS alias(cols): the join gets the alias. */
sql_from_t *sql__from_join_alias(sql_pctx_t *ctx, sql_from_t *join, sql_from_t *alias);
sql_from_t *sql__join_using(sql_pctx_t *ctx, sql_list_t *cols);
sql_from_t *sql__join_on(sql_pctx_t *ctx, sql_expr_t *e);
sql_from_t *sql__alias(sql_pctx_t *ctx, const char *name, sql_list_t *cols);

sql_expr_t *sql__const_number(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__const_string(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__const_word(sql_pctx_t *ctx, const sql_token_t *t, const char *word);
sql_expr_t *sql__const_bits(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__const_bool(sql_pctx_t *ctx, const sql_token_t *t, bool v);
sql_expr_t *sql__const_null(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__typed_literal(sql_pctx_t *ctx, sql_typename_t *type, const sql_token_t *t);
sql_expr_t *sql__param(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__column(sql_pctx_t *ctx, const sql_token_t *first, sql_list_t *rest);
sql_expr_t *sql__star(sql_pctx_t *ctx, const sql_token_t *t);
sql_expr_t *sql__paren(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e);
sql_expr_t *sql__op(sql_pctx_t *ctx, const sql_token_t *t, const char *name, sql_expr_t *l, sql_expr_t *r);
sql_expr_t *sql__negate(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e);
sql_expr_t *sql__bool(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_kind_t kind, sql_expr_t *l, sql_expr_t *r);
sql_expr_t *sql__like(sql_pctx_t *ctx, const sql_token_t *t, sql_like_kind_t kind, bool negated, sql_expr_t *l,
                      sql_expr_t *r, sql_expr_t *escape);
sql_expr_t *sql__null_test(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, bool negated);
sql_expr_t *sql__bool_test(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_bool_test_t which,
                           bool negated);
sql_expr_t *sql__distinct(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *l, sql_expr_t *r, bool negated);
sql_expr_t *sql__between(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_expr_t *lo, sql_expr_t *hi,
                         bool negated, bool symmetric);
sql_expr_t *sql__in_list(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_list_t *l, bool negated);
sql_expr_t *sql__in_select(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_select_t *s, bool negated);
sql_expr_t *sql__sublink(sql_pctx_t *ctx, const sql_token_t *t, sql_sublink_t kind, sql_select_t *s);
sql_expr_t *sql__array(sql_pctx_t *ctx, const sql_token_t *t, sql_list_t *l);
/* arg[lower] or arg[lower:upper] (slice); x op ANY/ALL (array) and (SELECT ...): quantifier SQL_SUBLINK_ANY/ALL. */
sql_expr_t *sql__subscript(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_expr_t *lo, sql_expr_t *hi,
                           bool slice);
/* (arg).a.b: one SQL_EXPR_FIELD per name, innermost first. */
sql_expr_t *sql__field(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *names);
sql_expr_t *sql__array_cmp(sql_pctx_t *ctx, const sql_token_t *op, int quantifier, sql_expr_t *l, sql_expr_t *r);
sql_expr_t *sql__quantified_select(sql_pctx_t *ctx, const sql_token_t *op, int quantifier, sql_expr_t *l,
                                   sql_select_t *s);
sql_expr_t *sql__row(sql_pctx_t *ctx, const sql_token_t *t, sql_list_t *l);
sql_expr_t *sql__case(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *arg, sql_list_t *whens, sql_expr_t *def);
/* name: the COLUMN node func_name built; it becomes the FUNC node. */
sql_expr_t *sql__func(sql_pctx_t *ctx, sql_expr_t *name, sql_list_t *args, bool star, bool distinct,
                      sql_list_t *order);
sql_expr_t *sql__func_filter(sql_pctx_t *ctx, sql_expr_t *f, sql_expr_t *filter);
sql_expr_t *sql__named_arg(sql_pctx_t *ctx, const sql_token_t *name, sql_expr_t *value);
/* (a, b) OVERLAPS (c, d): both rows must have two elements. */
sql_expr_t *sql__overlaps(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *l, sql_expr_t *r);
sql_expr_t *sql__func_sql(sql_pctx_t *ctx, const sql_token_t *t, const char *name, sql_func_syntax_t syntax,
                          sql_list_t *args);
sql_expr_t *sql__substring_for(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *x, sql_expr_t *count);
sql_expr_t *sql__varargs(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_kind_t kind, sql_list_t *args);
sql_expr_t *sql__svf(sql_pctx_t *ctx, const sql_token_t *t, sql_svf_t svf, int precision);
sql_expr_t *sql__cast(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_typename_t *type,
                      sql_cast_form_t form);
sql_expr_t *sql__collate(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_list_t *names);
sql_expr_t *sql__at_time_zone(sql_pctx_t *ctx, const sql_token_t *t, sql_expr_t *e, sql_expr_t *zone);

sql_typename_t *sql__typename_generic(sql_pctx_t *ctx, int pos, sql_list_t *names, sql_list_t *mods);
sql_typename_t *sql__typename_sys(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, sql_list_t *mods);
sql_typename_t *sql__typename_float(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *prec);
sql_typename_t *sql__typename_char(sql_pctx_t *ctx, sql_typename_t *t, const sql_token_t *len);
sql_typename_t *sql__typename_char_default(sql_pctx_t *ctx, sql_typename_t *t);
sql_typename_t *sql__typename_datetime(sql_pctx_t *ctx, const sql_token_t *kw, const char *name,
                                       const sql_token_t *prec);
/* SECOND(p) travels in the grammar's field mask above this bit. */
#define SQL_INTERVAL_PREC_SHIFT 20
int sql__interval_prec(int64_t p);
sql_typename_t *sql__typename_interval(sql_pctx_t *ctx, const sql_token_t *kw, int fields, int precision);
sql_typename_t *sql__typename_array(sql_pctx_t *ctx, sql_typename_t *t, int bounds);

/* ---- statement builders (sql_build_stmt.c) */

/* A name with its IF [NOT] EXISTS, or a list of names with IF EXISTS (DROP). */
typedef struct sql_cond {
    sql_qname_t *name;
    sql_list_t *names;
    bool cond;
} sql_cond_t;

sql_qname_t *sql__qname(sql_pctx_t *ctx, sql_expr_t *name);
sql_qname_t *sql__qname_word(sql_pctx_t *ctx, const sql_token_t *t);
sql_cond_t *sql__cond(sql_pctx_t *ctx, sql_qname_t *name, sql_list_t *names, bool cond);
sql_token_t *sql__token_copy(sql_pctx_t *ctx, const sql_token_t *t);

/* prefix: 1 OR REPLACE, 2 TEMP (the grammar's create_prefix). */
sql_stmt_t *sql__create_table(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                              sql_create_table_t *elems, sql_list_t *with);
/* A SELECT statement; its first SELECT's INTO name makes it CREATE TABLE name AS the query. */
sql_stmt_t *sql__stmt_select_into(sql_pctx_t *ctx, sql_select_t *sel);
sql_stmt_t *sql__create_table_as(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                                 sql_list_t *cols, sql_select_t *query, int with_data);
/* CREATE TABLE name FROM SOURCE src (REFERENCE ref): `word` must be the word REFERENCE. */
sql_stmt_t *sql__create_table_from_source(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                                          sql_qname_t *source, const sql_token_t *word, const sql_token_t *ref);
/* True if an identifier token is the (unreserved, non-keyword) word; else a syntax error at it. */
bool sql__word(sql_pctx_t *ctx, const sql_token_t *tok, const char *word);
sql_create_table_t *sql__table_column(sql_pctx_t *ctx, sql_create_table_t *t, sql_column_def_t *col);
sql_create_table_t *sql__table_constraint(sql_pctx_t *ctx, sql_create_table_t *t, sql_constraint_t *c);
sql_column_def_t *sql__column_def(sql_pctx_t *ctx, const sql_token_t *name, sql_typename_t *type,
                                  sql_list_t *constraints);
sql_constraint_t *sql__constraint(sql_pctx_t *ctx, const sql_token_t *kw, sql_constraint_kind_t kind, sql_expr_t *e,
                                  sql_list_t *cols);
sql_constraint_t *sql__constraint_name(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *name,
                                       sql_constraint_t *c);
sql_stmt_t *sql__create_view(sql_pctx_t *ctx, int prefix, bool materialized, sql_cond_t *name, sql_list_t *cols,
                             sql_select_t *query);
sql_stmt_t *sql__create_source(sql_pctx_t *ctx, sql_cond_t *name, sql_list_t *cols, sql_create_source_t *src);
sql_create_source_t *sql__source_file(sql_pctx_t *ctx, const sql_token_t *path, sql_list_t *with,
                                      sql_create_source_t *format);
sql_create_source_t *sql__source_generator(sql_pctx_t *ctx, int generator, sql_list_t *options);
sql_create_source_t *sql__source_kafka(sql_pctx_t *ctx, const sql_token_t *broker, const sql_token_t *topic,
                                       sql_list_t *with, sql_create_source_t *format);
/* arg: the column count of CSV WITH n COLUMNS; str: DELIMITED BY's string or the REGEX. */
sql_create_source_t *sql__source_format(sql_pctx_t *ctx, const sql_token_t *kw, sql_format_t format, int header,
                                        const sql_token_t *count, const sql_token_t *str);
sql_stmt_t *sql__create_index(sql_pctx_t *ctx, int unique, const char *name, bool if_not_exists, sql_qname_t *on,
                              const char *method, sql_list_t *keys);
sql_stmt_t *sql__create_default_index(sql_pctx_t *ctx, sql_qname_t *on);
sql_stmt_t *sql__create_schema(sql_pctx_t *ctx, sql_stmt_kind_t kind, sql_cond_t *name);
sql_stmt_t *sql__drop(sql_pctx_t *ctx, int object, sql_cond_t *names, int behavior);
/* Role statements (sql_build_role.c); kw is the word that must be "role" (NULL: USER was written). */
sql_stmt_t *sql__role(sql_pctx_t *ctx, sql_stmt_kind_t kind, const sql_token_t *kw, const sql_token_t *name,
                      sql_list_t *elems, bool is_user);
/* SET ROLE x: any other word in ROLE's place is a syntax error at the value, as PostgreSQL's. */
sql_stmt_t *sql__set_role(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *value);
sql_stmt_t *sql__role_setting(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *name, sql_stmt_t *setting,
                              bool is_user);
sql_stmt_t *sql__drop_role(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *names, bool if_exists);
/* REASSIGN OWNED BY roles TO role; DROP OWNED BY roles: the words are checked here, not keywords. */
sql_stmt_t *sql__reassign_owned(sql_pctx_t *ctx, const sql_token_t *reassign, const sql_token_t *owned,
                                sql_list_t *owners, sql_rolespec_t *to);
sql_stmt_t *sql__drop_owned(sql_pctx_t *ctx, const sql_token_t *owned, sql_list_t *owners, int behavior);
/* GRANT or REVOKE roles TO / FROM members; with: WITH's first word (ADMIN OPTION, refused). */
sql_stmt_t *sql__grant_role(sql_pctx_t *ctx, bool revoke, sql_list_t *roles, sql_list_t *members,
                            const sql_token_t *with);
sql_stmt_t *sql__grant(sql_pctx_t *ctx, const sql_token_t *kw, bool revoke, bool grant_option, sql_list_t *privs,
                        sql_grant_t *target, sql_list_t *grantees, int behavior);
sql_stmt_t *sql__grant_option_for(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *option, sql_list_t *privs,
                                  sql_grant_t *target, sql_list_t *grantees, int behavior);
sql_grant_t *sql__grant_target(sql_pctx_t *ctx, sql_grant_target_t target, sql_list_t *objects);
sql_stmt_t *sql__default_privileges(sql_pctx_t *ctx, const sql_token_t *word, sql_grant_t *options, sql_stmt_t *grant);
sql_grant_t *sql__defacl_roles(sql_pctx_t *ctx, sql_grant_t *o, const sql_token_t *word, sql_list_t *roles);
sql_grant_t *sql__defacl_schemas(sql_pctx_t *ctx, sql_grant_t *o, sql_list_t *schemas);
sql_list_t *sql__all_privileges(sql_pctx_t *ctx, const sql_token_t *word);
sql_priv_t *sql__priv(sql_pctx_t *ctx, const char *name, sql_list_t *cols);
/* ALTER DEFAULT PRIVILEGES ... ON functions | routines | types: pg_default_acl's letter. */
char sql__defacl_objtype(sql_pctx_t *ctx, const sql_token_t *word);
bool sql__word_is(sql_pctx_t *ctx, const sql_token_t *word, const char *want);
sql_stmt_t *sql__alter_owner(sql_pctx_t *ctx, int object, sql_cond_t *name, const sql_token_t *word,
                             sql_rolespec_t *owner);
sql_rolespec_t *sql__rolespec(sql_pctx_t *ctx, const sql_token_t *t, sql_rolespec_kind_t kind);
sql_stmt_t *sql__alter_rename(sql_pctx_t *ctx, int object, sql_cond_t *name, const sql_token_t *column,
                              const sql_token_t *new_name);

/* Option lists: words accumulate in a scratch option, then sql__option gives it its value. */
sql_option_t *sql__option_word(sql_pctx_t *ctx, sql_option_t *o, const sql_token_t *word);
sql_option_t *sql__option(sql_pctx_t *ctx, sql_option_t *o, sql_expr_t *value);
/* COPY's older keyword options (CSV, HEADER, DELIMITER 'x', ...) as generic ones; value NULL: no value. */
sql_option_t *sql__option_legacy(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, const char *value);
sql_option_t *sql__option_legacy_str(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, const sql_token_t *s);

sql_assign_t *sql__assign(sql_pctx_t *ctx, const sql_token_t *column, sql_expr_t *value);
sql_insert_t *sql__insert_rest(sql_pctx_t *ctx, sql_list_t *cols, sql_select_t *query);
sql_stmt_t *sql__insert(sql_pctx_t *ctx, sql_from_t *target, sql_insert_t *rest, sql_on_conflict_t *on_conflict,
                        sql_list_t *returning);
/* SET (a, b) = value; lp is its parenthesis. */
sql_assign_t *sql__assign_multi(sql_pctx_t *ctx, const sql_token_t *lp, sql_list_t *columns, sql_expr_t *value);
/* ON CONFLICT's arbiter (keys and their WHERE, or ON CONSTRAINT name), then its action. */
sql_on_conflict_t *sql__conf_expr(sql_pctx_t *ctx, sql_list_t *keys, sql_expr_t *where, const sql_token_t *constraint);
sql_on_conflict_t *sql__on_conflict(sql_pctx_t *ctx, const sql_token_t *on, sql_on_conflict_t *c, bool do_update,
                                    sql_list_t *set, sql_expr_t *where);
/* WITH ... before INSERT, UPDATE or DELETE. */
sql_stmt_t *sql__dml_with(sql_pctx_t *ctx, sql_stmt_t *s, sql_select_t *with);
sql_stmt_t *sql__truncate(sql_pctx_t *ctx, sql_list_t *tables, bool restart_identity, int behavior);
sql_stmt_t *sql__update(sql_pctx_t *ctx, sql_from_t *target, sql_list_t *set, sql_list_t *from, sql_expr_t *where,
                        sql_list_t *returning);
sql_stmt_t *sql__delete(sql_pctx_t *ctx, sql_from_t *target, sql_list_t *using_from, sql_expr_t *where,
                        sql_list_t *returning);
sql_stmt_t *sql__copy(sql_pctx_t *ctx, sql_qname_t *table, sql_list_t *cols, sql_select_t *query,
                      sql_subscribe_t *subscribe, bool to, sql_list_t *options);
sql_subscribe_t *sql__subscribe(sql_pctx_t *ctx, sql_qname_t *object, sql_select_t *query, sql_list_t *options);
sql_stmt_t *sql__stmt_subscribe(sql_pctx_t *ctx, sql_subscribe_t *s);
sql_stmt_t *sql__declare(sql_pctx_t *ctx, const sql_token_t *name, sql_subscribe_t *sub, sql_select_t *query,
                         bool hold);
sql_stmt_t *sql__fetch(sql_pctx_t *ctx, const sql_token_t *name, int64_t count);
sql_stmt_t *sql__fetch_with(sql_stmt_t *fetch, sql_list_t *options);
sql_stmt_t *sql__close(sql_pctx_t *ctx, const sql_token_t *name);

/* SHOW parts: a scratch node holds FROM's name (in `on`) or the LIKE / WHERE filter. */
sql_show_t *sql__show_part(sql_pctx_t *ctx, sql_qname_t *name, sql_expr_t *like, sql_expr_t *where);
sql_stmt_t *sql__show(sql_pctx_t *ctx, sql_stmt_kind_t kind, int object, sql_qname_t *on, sql_show_t *from,
                      sql_show_t *filter);
sql_explain_t *sql__explainable(sql_pctx_t *ctx, sql_stmt_t *stmt, int object, sql_qname_t *name);
sql_stmt_t *sql__explain(sql_pctx_t *ctx, sql_explain_t *e, sql_list_t *options, bool plan_for);
/* EXPLAIN <kw> PLAN FOR e: kw must be the word physical (else a syntax error at it). */
sql_stmt_t *sql__explain_physical(sql_pctx_t *ctx, const sql_token_t *kw, sql_explain_t *e);
sql_stmt_t *sql__prepare(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *types, sql_stmt_t *stmt);
sql_stmt_t *sql__execute(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *args);
sql_stmt_t *sql__deallocate(sql_pctx_t *ctx, const sql_token_t *name);

/* ---- query extension builders (sql_build_query.c): CTEs, windows, table functions, OPERATOR(), DEFAULT */

sql_select_t *sql__with(sql_pctx_t *ctx, const sql_token_t *kw, bool recursive, sql_list_t *ctes);
sql_select_t *sql__select_with(sql_pctx_t *ctx, sql_select_t *s, sql_select_t *with);
sql_cte_t *sql__cte(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *cols, int materialized, sql_select_t *q);
sql_cte_t *sql__cte_dml(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *cols, int materialized, sql_stmt_t *dml);
sql_select_t *sql__table_select(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *name);
sql_from_t *sql__func_table(sql_pctx_t *ctx, sql_expr_t *func, bool ordinality);
sql_from_t *sql__from_function(sql_pctx_t *ctx, sql_from_t *f, sql_from_t *alias, bool lateral);
sql_expr_t *sql__int_one(sql_pctx_t *ctx, const sql_token_t *kw);
sql_window_t *sql__window_ref(sql_pctx_t *ctx, const sql_token_t *name);
sql_window_t *sql__window_spec(sql_pctx_t *ctx, const sql_token_t *lp, const char *refname, sql_list_t *partition,
                               sql_list_t *order, sql_window_t *frame);
sql_window_t *sql__frame_bound(sql_pctx_t *ctx, int pos, sql_frame_bound_t kind, sql_expr_t *offset);
sql_window_t *sql__frame_extent(sql_pctx_t *ctx, sql_window_t *start, sql_window_t *end);
sql_window_t *sql__frame(sql_pctx_t *ctx, sql_frame_mode_t mode, sql_window_t *extent, int exclude);
sql_expr_t *sql__func_over(sql_pctx_t *ctx, sql_expr_t *f, sql_window_t *over);
sql_expr_t *sql__within_group(sql_pctx_t *ctx, const sql_token_t *kw, sql_expr_t *f, sql_list_t *order);
/* l OPERATOR(schema.op) r: names ends with the operator. */
sql_expr_t *sql__qual_op(sql_pctx_t *ctx, const sql_token_t *kw, sql_list_t *names, sql_expr_t *l, sql_expr_t *r);
sql_expr_t *sql__default(sql_pctx_t *ctx, const sql_token_t *kw);

/* Words after SHOW that name objects (SHOW TABLES) rather than a setting (sql_parse.c). */
bool sql__show_object_word(const char *word);

/* ---- deparse helpers shared by sql_deparse.c and sql_deparse_stmt.c */

void sql__dp_expr(const sql_expr_t *e, cm_buf_t *out);
void sql__dp_names(const sql_list_t *names, cm_buf_t *out);
void sql__dp_string(const char *s, size_t len, cm_buf_t *out);
void sql__dp_sort(const sql_list_t *order, const char *intro, cm_buf_t *out);
void sql__dp_from(const sql_from_t *f, cm_buf_t *out);
void sql__dp_targets(const sql_list_t *targets, cm_buf_t *out);
void sql__dp_window(const sql_window_t *w, cm_buf_t *out);
void sql__dp_ident_list(const sql_list_t *names, cm_buf_t *out);   /* a, b, c (no parentheses) */
void sql__dp_with(const sql_select_t *s, cm_buf_t *out);            /* WITH [RECURSIVE] ..., then a space */

/* The lemon entry points (generated; declared here because lemon emits no prototypes). */
void *sql_parserAlloc(void *(*alloc)(size_t), sql_pctx_t *ctx);
void sql_parserFree(void *p, void (*dealloc)(void *));
void sql_parser(void *p, int major, sql_token_t minor);

#endif
