/*
 * sql_build_stmt.c: builders for the statements beyond queries and session
 * commands: CREATE / DROP / ALTER ... RENAME, INSERT / UPDATE / DELETE,
 * COPY, SUBSCRIBE, SHOW objects, EXPLAIN, PREPARE / EXECUTE / DEALLOCATE.
 * Like sql_build.c they allocate in the statement arena and never fail,
 * except where PostgreSQL's grammar rejects a form that this grammar takes
 * in a more general shape (OR REPLACE TABLE): those report the syntax error
 * PostgreSQL would, at the same token.
 */
#include "parser/sql_int.h"

#include <string.h>

/* ============================================================ names */

sql_qname_t *sql__qname(sql_pctx_t *ctx, sql_expr_t *name)
{
    sql_qname_t *q = cm_arena_zalloc(ctx->arena, sizeof(*q));
    q->pos = name->pos;
    q->names = name->names;
    if (name->star)   /* a.* is a column reference, never an object name */
        sql__error_at(ctx, name->pos, CM_ERRCODE_SYNTAX_ERROR, "improper qualified name (too many dotted names): %s",
                      (const char *)name->names->items[0]);
    return q;
}

sql_qname_t *sql__qname_word(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_qname_t *q = cm_arena_zalloc(ctx->arena, sizeof(*q));
    q->pos = t->pos;
    q->names = sql__list1(ctx, (void *)t->str);
    return q;
}

sql_cond_t *sql__cond(sql_pctx_t *ctx, sql_qname_t *name, sql_list_t *names, bool cond)
{
    sql_cond_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->name = name;
    c->names = names;
    c->cond = cond;
    return c;
}

sql_token_t *sql__token_copy(sql_pctx_t *ctx, const sql_token_t *t)
{
    sql_token_t *c = cm_arena_alloc(ctx->arena, sizeof(*c));
    *c = *t;
    return c;
}

static sql_stmt_t *stmt_of(sql_pctx_t *ctx, sql_stmt_kind_t kind)
{
    return sql__stmt_new(ctx, kind);
}

/* ============================================================ CREATE */

/* OR REPLACE only goes with views: elsewhere PostgreSQL stops at the object word. */
static bool no_or_replace(sql_pctx_t *ctx, int prefix, const sql_token_t *kw)
{
    if (!(prefix & 1))
        return true;
    sql__syntax_error(ctx, kw, kw->type);
    return false;
}

sql_stmt_t *sql__create_table(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                              sql_create_table_t *elems, sql_list_t *with)
{
    no_or_replace(ctx, prefix, kw);
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_CREATE_TABLE);
    sql_create_table_t *t = elems ? elems : cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->name = name->name;
    t->if_not_exists = name->cond;
    t->temporary = (prefix & 2) != 0;
    t->with = with;
    s->create_table = t;
    return s;
}

sql_stmt_t *sql__create_table_as(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                                 sql_list_t *cols, sql_select_t *query, int with_data)
{
    sql_stmt_t *s = sql__create_table(ctx, prefix, kw, name, NULL, NULL);
    s->create_table->as_columns = cols;
    s->create_table->query = query;
    s->create_table->with_data = with_data;
    return s;
}

sql_stmt_t *sql__stmt_select_into(sql_pctx_t *ctx, sql_select_t *sel)
{
    sql_select_t *first = sel;
    while (first->op != SQL_SETOP_NONE)
        first = first->larg;
    if (first->into == NULL)
        return sql__stmt_select(ctx, sel);
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_CREATE_TABLE);
    sql_create_table_t *t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->name = first->into;
    t->query = sel;
    t->with_data = -1;
    first->into = NULL;
    s->create_table = t;
    return s;
}

sql_stmt_t *sql__create_table_from_source(sql_pctx_t *ctx, int prefix, const sql_token_t *kw, sql_cond_t *name,
                                          sql_qname_t *source, const sql_token_t *word, const sql_token_t *ref)
{
    sql__word(ctx, word, "reference");
    sql_stmt_t *s = sql__create_table(ctx, prefix, kw, name, NULL, NULL);
    s->create_table->source = source;
    s->create_table->reference = ref->str;
    s->create_table->reference_pos = ref->pos;
    return s;
}

bool sql__word(sql_pctx_t *ctx, const sql_token_t *tok, const char *word)
{
    if (tok->str && strcmp(tok->str, word) == 0)
        return true;
    sql__syntax_error(ctx, tok, 1);
    return false;
}

sql_create_table_t *sql__table_column(sql_pctx_t *ctx, sql_create_table_t *t, sql_column_def_t *col)
{
    if (!t)
        t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->columns = sql__list_add(ctx, t->columns, col);
    return t;
}

sql_create_table_t *sql__table_constraint(sql_pctx_t *ctx, sql_create_table_t *t, sql_constraint_t *c)
{
    if (!t)
        t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->constraints = sql__list_add(ctx, t->constraints, c);
    return t;
}

sql_column_def_t *sql__column_def(sql_pctx_t *ctx, const sql_token_t *name, sql_typename_t *type,
                                  sql_list_t *constraints)
{
    sql_column_def_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->pos = name->pos;
    c->name = name->str;
    c->type = sql__typename_char_default(ctx, type);   /* a char column without a length is char(1) */
    c->constraints = constraints;
    return c;
}

sql_constraint_t *sql__constraint(sql_pctx_t *ctx, const sql_token_t *kw, sql_constraint_kind_t kind, sql_expr_t *e,
                                  sql_list_t *cols)
{
    sql_constraint_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->kind = kind;
    c->pos = kw->pos;
    c->expr = e;
    c->columns = cols;
    return c;
}

sql_constraint_t *sql__constraint_name(sql_pctx_t *ctx, const sql_token_t *kw, const sql_token_t *name,
                                       sql_constraint_t *c)
{
    c->name = name->str;
    c->pos = kw->pos;
    return c;
}

sql_stmt_t *sql__create_view(sql_pctx_t *ctx, int prefix, bool materialized, sql_cond_t *name, sql_list_t *cols,
                             sql_select_t *query)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_CREATE_VIEW);
    sql_create_view_t *v = cm_arena_zalloc(ctx->arena, sizeof(*v));
    v->name = name->name;
    v->if_not_exists = name->cond;
    v->materialized = materialized;
    v->or_replace = (prefix & 1) != 0;
    v->temporary = (prefix & 2) != 0;
    v->columns = cols;
    v->query = query;
    s->create_view = v;
    return s;
}

sql_stmt_t *sql__create_source(sql_pctx_t *ctx, sql_cond_t *name, sql_list_t *cols, sql_create_source_t *src)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_CREATE_SOURCE);
    src->name = name->name;
    src->if_not_exists = name->cond;
    src->columns = cols;
    s->create_source = src;
    return s;
}

sql_create_source_t *sql__source_file(sql_pctx_t *ctx, const sql_token_t *path, sql_list_t *with,
                                      sql_create_source_t *format)
{
    format->connector = SQL_CONNECTOR_FILE;
    format->path = path->str;
    format->path_pos = path->pos;
    format->options = with;
    return format;
}

sql_create_source_t *sql__source_generator(sql_pctx_t *ctx, int generator, sql_list_t *options)
{
    sql_create_source_t *src = cm_arena_zalloc(ctx->arena, sizeof(*src));
    src->connector = SQL_CONNECTOR_LOAD_GENERATOR;
    src->generator = (sql_load_generator_t)generator;
    src->options = options;
    src->format = SQL_FORMAT_NONE;
    src->format_pos = -1;
    return src;
}

sql_create_source_t *sql__source_kafka(sql_pctx_t *ctx, const sql_token_t *broker, const sql_token_t *topic,
                                       sql_list_t *with, sql_create_source_t *format)
{
    format->connector = SQL_CONNECTOR_KAFKA;
    format->broker = broker->str;
    format->topic = topic->str;
    format->options = with;
    return format;
}

sql_create_source_t *sql__source_format(sql_pctx_t *ctx, const sql_token_t *kw, sql_format_t format, int header,
                                        const sql_token_t *count, const sql_token_t *str)
{
    sql_create_source_t *src = cm_arena_zalloc(ctx->arena, sizeof(*src));
    src->format = format;
    src->format_pos = kw->pos;
    src->csv_header = header != 0;
    if (count)
        src->csv_columns = count->ival;   /* the binder checks the count, with the other format rules */
    if (str && format == SQL_FORMAT_REGEX)
        src->regex = str->str;
    else if (str)
        src->delimiter = str->str;
    return src;
}

sql_stmt_t *sql__create_index(sql_pctx_t *ctx, int unique, const char *name, bool if_not_exists, sql_qname_t *on,
                              const char *method, sql_list_t *keys)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_CREATE_INDEX);
    sql_create_index_t *i = cm_arena_zalloc(ctx->arena, sizeof(*i));
    i->name = name;
    i->unique = unique != 0;
    i->if_not_exists = if_not_exists;
    i->on = on;
    i->method = method;
    i->keys = keys;
    s->create_index = i;
    return s;
}

sql_stmt_t *sql__create_default_index(sql_pctx_t *ctx, sql_qname_t *on)
{
    sql_stmt_t *s = sql__create_index(ctx, 0, NULL, false, on, NULL, NULL);
    s->create_index->is_default = true;
    return s;
}

sql_stmt_t *sql__create_schema(sql_pctx_t *ctx, sql_stmt_kind_t kind, sql_cond_t *name)
{
    sql_stmt_t *s = stmt_of(ctx, kind);
    sql_create_schema_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->name = name->name;
    c->if_not_exists = name->cond;
    s->create_schema = c;
    return s;
}

/* ====================================================== DROP / ALTER */

sql_stmt_t *sql__drop(sql_pctx_t *ctx, int object, sql_cond_t *names, int behavior)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_DROP);
    sql_drop_t *d = cm_arena_zalloc(ctx->arena, sizeof(*d));
    d->object = (sql_object_kind_t)object;
    d->if_exists = names->cond;
    d->names = names->names;
    d->behavior = (sql_drop_behavior_t)behavior;
    s->drop = d;
    return s;
}

sql_stmt_t *sql__alter_rename(sql_pctx_t *ctx, int object, sql_cond_t *name, const sql_token_t *column,
                              const sql_token_t *new_name)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_ALTER_RENAME);
    sql_alter_rename_t *a = cm_arena_zalloc(ctx->arena, sizeof(*a));
    a->object = (sql_object_kind_t)object;
    a->if_exists = name->cond;
    a->name = name->name;
    a->column = column ? column->str : NULL;
    a->new_name = new_name->str;
    s->alter_rename = a;
    return s;
}

sql_stmt_t *sql__alter_owner(sql_pctx_t *ctx, int object, sql_cond_t *name, const sql_token_t *word,
                             sql_rolespec_t *owner)
{
    if (word->quoted || strcmp(word->str, "owner") != 0) {
        sql__syntax_error(ctx, word, word->type);
        return NULL;
    }
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_ALTER_RENAME);
    sql_alter_rename_t *a = cm_arena_zalloc(ctx->arena, sizeof(*a));
    a->object = (sql_object_kind_t)object;
    a->if_exists = name->cond;
    a->name = name->name;
    a->owner = owner;
    s->alter_rename = a;
    return s;
}

sql_rolespec_t *sql__rolespec(sql_pctx_t *ctx, const sql_token_t *t, sql_rolespec_kind_t kind)
{
    sql_rolespec_t *r = cm_arena_zalloc(ctx->arena, sizeof(*r));
    r->kind = kind;
    r->pos = t->pos;
    if (kind == SQL_ROLESPEC_NAME) {
        r->name = t->str;
        if (strcmp(t->str, "public") == 0)
            r->kind = SQL_ROLESPEC_PUBLIC;
    }
    return r;
}

/* ========================================================== options */

sql_option_t *sql__option_word(sql_pctx_t *ctx, sql_option_t *o, const sql_token_t *word)
{
    if (!o) {
        o = cm_arena_zalloc(ctx->arena, sizeof(*o));
        o->pos = word->pos;
        o->name = word->str;
    } else {
        o->name = cm_arena_printf(ctx->arena, "%s %s", o->name, word->str);
    }
    return o;
}

sql_option_t *sql__option(sql_pctx_t *ctx, sql_option_t *o, sql_expr_t *value)
{
    o->value = value;
    return o;
}

static sql_expr_t *string_const(sql_pctx_t *ctx, int pos, const char *str)
{
    sql_token_t t = {.type = SQL_TOK_SCONST, .pos = pos, .str = str, .slen = strlen(str)};
    return sql__const_string(ctx, &t);
}

sql_option_t *sql__option_legacy(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, const char *value)
{
    sql_option_t *o = cm_arena_zalloc(ctx->arena, sizeof(*o));
    o->pos = kw->pos;
    o->name = name;
    o->value = value ? string_const(ctx, kw->pos, value) : NULL;
    return o;
}

sql_option_t *sql__option_legacy_str(sql_pctx_t *ctx, const sql_token_t *kw, const char *name, const sql_token_t *s)
{
    sql_option_t *o = sql__option_legacy(ctx, kw, name, NULL);
    o->value = sql__const_string(ctx, s);
    return o;
}

/* ============================================= INSERT / UPDATE / DELETE */

sql_assign_t *sql__assign(sql_pctx_t *ctx, const sql_token_t *column, sql_expr_t *value)
{
    sql_assign_t *a = cm_arena_zalloc(ctx->arena, sizeof(*a));
    a->pos = column->pos;
    a->column = column->str;
    a->value = value;
    return a;
}

sql_insert_t *sql__insert_rest(sql_pctx_t *ctx, sql_list_t *cols, sql_select_t *query)
{
    sql_insert_t *i = cm_arena_zalloc(ctx->arena, sizeof(*i));
    i->columns = cols;
    i->query = query;
    return i;
}

/* The grammar hands the target as a FROM item (name and alias); statements keep a qualified name. */
static sql_qname_t *target_name(sql_pctx_t *ctx, const sql_from_t *f)
{
    sql_qname_t *q = cm_arena_zalloc(ctx->arena, sizeof(*q));
    q->pos = f->pos;
    q->names = f->names;
    return q;
}

sql_stmt_t *sql__insert(sql_pctx_t *ctx, sql_from_t *target, sql_insert_t *rest, sql_on_conflict_t *on_conflict,
                        sql_list_t *returning)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_INSERT);
    rest->table = target_name(ctx, target);
    rest->alias = target->alias;
    rest->on_conflict = on_conflict;
    rest->returning = returning;
    s->insert = rest;
    return s;
}

sql_assign_t *sql__assign_multi(sql_pctx_t *ctx, const sql_token_t *lp, sql_list_t *columns, sql_expr_t *value)
{
    sql_assign_t *a = cm_arena_zalloc(ctx->arena, sizeof(*a));
    a->pos = lp->pos;
    a->columns = columns;
    a->value = value;
    return a;
}

sql_on_conflict_t *sql__conf_expr(sql_pctx_t *ctx, sql_list_t *keys, sql_expr_t *where, const sql_token_t *constraint)
{
    sql_on_conflict_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->keys = keys;
    c->keys_where = where;
    c->constraint = constraint ? constraint->str : NULL;
    return c;
}

sql_on_conflict_t *sql__on_conflict(sql_pctx_t *ctx, const sql_token_t *on, sql_on_conflict_t *c, bool do_update,
                                    sql_list_t *set, sql_expr_t *where)
{
    (void)ctx;
    c->pos = on->pos;
    c->do_update = do_update;
    c->set = set;
    c->where = where;
    return c;
}

sql_stmt_t *sql__dml_with(sql_pctx_t *ctx, sql_stmt_t *s, sql_select_t *with)
{
    (void)ctx;
    switch (s->kind) {
    case SQL_STMT_INSERT:
        s->insert->with = with;
        break;
    case SQL_STMT_UPDATE:
        s->update->with = with;
        break;
    case SQL_STMT_DELETE:
        s->delete_->with = with;
        break;
    default:
        break;
    }
    return s;
}

sql_stmt_t *sql__truncate(sql_pctx_t *ctx, sql_list_t *tables, bool restart_identity, int behavior)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_TRUNCATE);
    sql_truncate_t *t = cm_arena_zalloc(ctx->arena, sizeof(*t));
    t->tables = tables;
    t->restart_identity = restart_identity;
    t->behavior = (sql_drop_behavior_t)behavior;
    s->truncate = t;
    return s;
}

sql_stmt_t *sql__update(sql_pctx_t *ctx, sql_from_t *target, sql_list_t *set, sql_list_t *from, sql_expr_t *where,
                        sql_list_t *returning)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_UPDATE);
    sql_update_t *u = cm_arena_zalloc(ctx->arena, sizeof(*u));
    u->table = target_name(ctx, target);
    u->alias = target->alias;
    u->set = set;
    u->from = from;
    u->where = where;
    u->returning = returning;
    s->update = u;
    return s;
}

sql_stmt_t *sql__delete(sql_pctx_t *ctx, sql_from_t *target, sql_list_t *using_from, sql_expr_t *where,
                        sql_list_t *returning)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_DELETE);
    sql_delete_t *d = cm_arena_zalloc(ctx->arena, sizeof(*d));
    d->table = target_name(ctx, target);
    d->alias = target->alias;
    d->using_from = using_from;
    d->where = where;
    d->returning = returning;
    s->delete_ = d;
    return s;
}

/* ================================================== COPY / SUBSCRIBE */

sql_stmt_t *sql__copy(sql_pctx_t *ctx, sql_qname_t *table, sql_list_t *cols, sql_select_t *query,
                      sql_subscribe_t *subscribe, bool to, sql_list_t *options)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_COPY);
    sql_copy_t *c = cm_arena_zalloc(ctx->arena, sizeof(*c));
    c->table = table;
    c->columns = cols;
    c->query = query;
    c->subscribe = subscribe;
    c->to = to;
    c->options = options;
    s->copy = c;
    return s;
}

sql_subscribe_t *sql__subscribe(sql_pctx_t *ctx, sql_qname_t *object, sql_select_t *query, sql_list_t *options)
{
    sql_subscribe_t *s = cm_arena_zalloc(ctx->arena, sizeof(*s));
    s->object = object;
    s->query = query;
    s->options = options;
    return s;
}

sql_stmt_t *sql__stmt_subscribe(sql_pctx_t *ctx, sql_subscribe_t *sub)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_SUBSCRIBE);
    s->subscribe = sub;
    return s;
}

/* ================================================== SHOW / EXPLAIN */

sql_show_t *sql__show_part(sql_pctx_t *ctx, sql_qname_t *name, sql_expr_t *like, sql_expr_t *where)
{
    sql_show_t *p = cm_arena_zalloc(ctx->arena, sizeof(*p));
    p->on = name;
    p->like = like;
    p->where = where;
    return p;
}

sql_stmt_t *sql__show(sql_pctx_t *ctx, sql_stmt_kind_t kind, int object, sql_qname_t *on, sql_show_t *from,
                      sql_show_t *filter)
{
    sql_stmt_t *s = stmt_of(ctx, kind);
    sql_show_t *sh = cm_arena_zalloc(ctx->arena, sizeof(*sh));
    sh->object = (sql_object_kind_t)object;
    sh->on = on;
    sh->from = from ? from->on : NULL;
    if (filter) {
        sh->like = filter->like;
        sh->where = filter->where;
    }
    s->show = sh;
    return s;
}

sql_explain_t *sql__explainable(sql_pctx_t *ctx, sql_stmt_t *stmt, int object, sql_qname_t *name)
{
    sql_explain_t *e = cm_arena_zalloc(ctx->arena, sizeof(*e));
    e->stmt = stmt;
    e->object = (sql_object_kind_t)object;
    e->name = name;
    return e;
}

sql_stmt_t *sql__explain(sql_pctx_t *ctx, sql_explain_t *e, sql_list_t *options, bool plan_for)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_EXPLAIN);
    e->options = options;
    e->plan_for = plan_for;
    s->explain = e;
    return s;
}

sql_stmt_t *sql__explain_physical(sql_pctx_t *ctx, const sql_token_t *kw, sql_explain_t *e)
{
    if (kw->quoted || strcmp(kw->str, "physical") != 0)
        sql__syntax_error(ctx, kw, 1);
    sql_stmt_t *s = sql__explain(ctx, e, NULL, true);
    e->physical = true;
    return s;
}

/* ============================================ DECLARE / FETCH / CLOSE */

static sql_stmt_t *cursor_stmt(sql_pctx_t *ctx, sql_stmt_kind_t kind, const sql_token_t *name)
{
    sql_stmt_t *s = stmt_of(ctx, kind);
    s->cursor = cm_arena_zalloc(ctx->arena, sizeof *s->cursor);
    s->cursor->name = name ? name->str : NULL;
    return s;
}

sql_stmt_t *sql__declare(sql_pctx_t *ctx, const sql_token_t *name, sql_subscribe_t *sub, sql_select_t *query,
                         bool hold)
{
    sql_stmt_t *s = cursor_stmt(ctx, SQL_STMT_DECLARE, name);
    s->cursor->subscribe = sub;
    s->cursor->query = query;
    s->cursor->hold = hold;
    return s;
}

sql_stmt_t *sql__fetch(sql_pctx_t *ctx, const sql_token_t *name, int64_t count)
{
    sql_stmt_t *s = cursor_stmt(ctx, SQL_STMT_FETCH, name);
    s->cursor->count = count;
    return s;
}

sql_stmt_t *sql__fetch_with(sql_stmt_t *fetch, sql_list_t *options)
{
    fetch->cursor->options = options;
    return fetch;
}

sql_stmt_t *sql__close(sql_pctx_t *ctx, const sql_token_t *name)
{
    return cursor_stmt(ctx, SQL_STMT_CLOSE, name);
}

/* ====================================== PREPARE / EXECUTE / DEALLOCATE */

sql_stmt_t *sql__prepare(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *types, sql_stmt_t *stmt)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_PREPARE);
    sql_prepare_t *p = cm_arena_zalloc(ctx->arena, sizeof(*p));
    p->name = name->str;
    p->types = types;
    p->stmt = stmt;
    s->prepare = p;
    return s;
}

sql_stmt_t *sql__execute(sql_pctx_t *ctx, const sql_token_t *name, sql_list_t *args)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_EXECUTE);
    sql_prepare_t *p = cm_arena_zalloc(ctx->arena, sizeof(*p));
    p->name = name->str;
    p->args = args;
    s->prepare = p;
    return s;
}

sql_stmt_t *sql__deallocate(sql_pctx_t *ctx, const sql_token_t *name)
{
    sql_stmt_t *s = stmt_of(ctx, SQL_STMT_DEALLOCATE);
    sql_prepare_t *p = cm_arena_zalloc(ctx->arena, sizeof(*p));
    p->name = name ? name->str : NULL;
    s->prepare = p;
    return s;
}
