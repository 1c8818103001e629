/*
 * sql_deparse_stmt.c: statements -> canonical SQL, and their display
 * names. Every statement prints in one spelling (upper-case keywords,
 * optional words left out or normalised: SUBSCRIBE without TO, COPY's older
 * keyword options as a WITH (...) list, FETCH FIRST as LIMIT), which parses
 * back to the same tree; the catalog stores CREATE statements this way and
 * SHOW CREATE prints them.
 */
#include "parser/sql_int.h"

#include <string.h>

static void dp_qname(const sql_qname_t *q, cm_buf_t *out)
{
    sql__dp_names(q->names, out);
}

static void dp_paren_idents(const sql_list_t *names, cm_buf_t *out)
{
    if (!names)
        return;
    cm_buf_put_str(out, " (");
    sql__dp_ident_list(names, out);
    cm_buf_put_u8(out, ')');
}

/* Always double-quoted (for names that would otherwise read as keywords in their place). */
static void dp_quoted(const char *name, cm_buf_t *out)
{
    cm_buf_put_u8(out, '"');
    for (const char *p = name; *p; p++) {
        if (*p == '"')
            cm_buf_put_u8(out, '"');
        cm_buf_put_u8(out, (uint8_t)*p);
    }
    cm_buf_put_u8(out, '"');
}

/* An option name: words of lower-case letters, digits and '_' (each
 * starting with a letter or '_', one space apart) print as they are, since
 * any keyword is a valid option word; anything else as one quoted name. */
static void dp_option_name(const char *name, cm_buf_t *out)
{
    bool plain = true, word_start = true;
    for (const char *p = name; plain && *p; p++) {
        if (*p == ' ') {
            plain = !word_start && p[1] != '\0';
            word_start = true;
        } else {
            plain = (*p >= 'a' && *p <= 'z') || *p == '_' || (!word_start && *p >= '0' && *p <= '9');
            word_start = false;
        }
    }
    if (plain && !word_start)
        cm_buf_put_str(out, name);
    else
        dp_quoted(name, out);
}

/* eddy's lists print "name = value"; PostgreSQL's (COPY, EXPLAIN) "name value". */
static void dp_options(const sql_list_t *opts, bool with_equals, cm_buf_t *out)
{
    cm_buf_put_u8(out, '(');
    for (int i = 0; i < sql_list_len(opts); i++) {
        const sql_option_t *o = opts->items[i];
        if (i)
            cm_buf_put_str(out, ", ");
        dp_option_name(o->name, out);
        if (o->names) {
            cm_buf_put_str(out, " (");
            sql__dp_ident_list(o->names, out);
            cm_buf_put_u8(out, ')');
        } else if (o->star) {
            cm_buf_put_str(out, " *");
        } else if (o->value) {
            cm_buf_put_str(out, with_equals ? " = " : " ");
            sql__dp_expr(o->value, out);
        }
    }
    cm_buf_put_u8(out, ')');
}

static void dp_with_options(const sql_list_t *opts, cm_buf_t *out)
{
    if (!opts)
        return;
    cm_buf_put_str(out, " WITH ");
    dp_options(opts, true, out);
}

/* ============================================================ CREATE */

static void dp_constraint(const sql_constraint_t *c, cm_buf_t *out)
{
    if (c->name) {
        cm_buf_put_str(out, "CONSTRAINT ");
        sql_deparse_ident(c->name, out);
        cm_buf_put_u8(out, ' ');
    }
    switch (c->kind) {
    case SQL_CONSTR_NULL: cm_buf_put_str(out, "NULL"); break;
    case SQL_CONSTR_NOT_NULL: cm_buf_put_str(out, "NOT NULL"); break;
    case SQL_CONSTR_DEFAULT:
        cm_buf_put_str(out, "DEFAULT ");
        sql__dp_expr(c->expr, out);
        break;
    case SQL_CONSTR_PRIMARY_KEY: cm_buf_put_str(out, "PRIMARY KEY"); break;
    case SQL_CONSTR_UNIQUE: cm_buf_put_str(out, "UNIQUE"); break;
    case SQL_CONSTR_CHECK:
        cm_buf_put_str(out, "CHECK (");
        sql__dp_expr(c->expr, out);
        cm_buf_put_u8(out, ')');
        break;
    }
    dp_paren_idents(c->columns, out);
}

static void dp_create_table(const sql_create_table_t *t, cm_buf_t *out)
{
    cm_buf_printf(out, "CREATE %sTABLE %s", t->temporary ? "TEMPORARY " : "", t->if_not_exists ? "IF NOT EXISTS " : "");
    dp_qname(t->name, out);
    if (t->source) {
        cm_buf_put_str(out, " FROM SOURCE ");
        dp_qname(t->source, out);
        cm_buf_put_str(out, " (REFERENCE ");
        sql_deparse_ident(t->reference, out);
        cm_buf_put_u8(out, ')');
        return;
    }
    if (t->query) {
        dp_paren_idents(t->as_columns, out);
        cm_buf_put_str(out, " AS ");
        sql_deparse_select(t->query, out);
        if (t->with_data >= 0)
            cm_buf_put_str(out, t->with_data ? " WITH DATA" : " WITH NO DATA");
        return;
    }
    cm_buf_put_str(out, " (");
    for (int i = 0; i < sql_list_len(t->columns); i++) {
        const sql_column_def_t *c = t->columns->items[i];
        if (i)
            cm_buf_put_str(out, ", ");
        sql_deparse_ident(c->name, out);
        cm_buf_put_u8(out, ' ');
        sql_deparse_typename(c->type, out);
        for (int j = 0; j < sql_list_len(c->constraints); j++) {
            cm_buf_put_u8(out, ' ');
            dp_constraint(c->constraints->items[j], out);
        }
    }
    for (int i = 0; i < sql_list_len(t->constraints); i++) {
        if (i || sql_list_len(t->columns))
            cm_buf_put_str(out, ", ");
        dp_constraint(t->constraints->items[i], out);
    }
    cm_buf_put_u8(out, ')');
    dp_with_options(t->with, out);
}

static void dp_create_source(const sql_create_source_t *s, cm_buf_t *out)
{
    static const char *const generators[] = {"COUNTER", "AUCTION", "TPCH"};
    cm_buf_printf(out, "CREATE SOURCE %s", s->if_not_exists ? "IF NOT EXISTS " : "");
    dp_qname(s->name, out);
    dp_paren_idents(s->columns, out);
    switch (s->connector) {
    case SQL_CONNECTOR_FILE:
        cm_buf_put_str(out, " FROM FILE ");
        sql__dp_string(s->path, strlen(s->path), out);
        dp_with_options(s->options, out);
        break;
    case SQL_CONNECTOR_LOAD_GENERATOR:
        cm_buf_printf(out, " FROM LOAD GENERATOR %s", generators[s->generator]);
        if (s->options) {
            cm_buf_put_u8(out, ' ');
            dp_options(s->options, true, out);
        }
        break;
    case SQL_CONNECTOR_KAFKA:
        cm_buf_put_str(out, " FROM KAFKA BROKER ");
        sql__dp_string(s->broker, strlen(s->broker), out);
        cm_buf_put_str(out, " TOPIC ");
        sql__dp_string(s->topic, strlen(s->topic), out);
        dp_with_options(s->options, out);
        break;
    }
    switch (s->format) {
    case SQL_FORMAT_NONE: break;
    case SQL_FORMAT_CSV:
        cm_buf_put_str(out, " FORMAT CSV");
        if (s->csv_header)
            cm_buf_put_str(out, " WITH HEADER");
        else if (s->csv_columns)
            cm_buf_printf(out, " WITH %lld COLUMNS", (long long)s->csv_columns);
        if (s->delimiter) {
            cm_buf_put_str(out, " DELIMITED BY ");
            sql__dp_string(s->delimiter, strlen(s->delimiter), out);
        }
        break;
    case SQL_FORMAT_TEXT: cm_buf_put_str(out, " FORMAT TEXT"); break;
    case SQL_FORMAT_JSON: cm_buf_put_str(out, " FORMAT JSON"); break;
    case SQL_FORMAT_BYTES: cm_buf_put_str(out, " FORMAT BYTES"); break;
    case SQL_FORMAT_REGEX:
        cm_buf_put_str(out, " FORMAT REGEX ");
        sql__dp_string(s->regex, strlen(s->regex), out);
        break;
    }
}

static void dp_create_view(const sql_create_view_t *v, cm_buf_t *out)
{
    cm_buf_printf(out, "CREATE %s%s%sVIEW %s", v->or_replace ? "OR REPLACE " : "", v->temporary ? "TEMPORARY " : "",
                  v->materialized ? "MATERIALIZED " : "", v->if_not_exists ? "IF NOT EXISTS " : "");
    dp_qname(v->name, out);
    dp_paren_idents(v->columns, out);
    cm_buf_put_str(out, " AS ");
    sql_deparse_select(v->query, out);
}

static void dp_create_index(const sql_create_index_t *i, cm_buf_t *out)
{
    if (i->is_default) {
        cm_buf_put_str(out, "CREATE DEFAULT INDEX ON ");
        dp_qname(i->on, out);
        return;
    }
    cm_buf_printf(out, "CREATE %sINDEX %s", i->unique ? "UNIQUE " : "", i->if_not_exists ? "IF NOT EXISTS " : "");
    if (i->name) {
        sql_deparse_ident(i->name, out);
        cm_buf_put_u8(out, ' ');
    }
    cm_buf_put_str(out, "ON ");
    dp_qname(i->on, out);
    if (i->method) {
        cm_buf_put_str(out, " USING ");
        sql_deparse_ident(i->method, out);
    }
    cm_buf_put_str(out, " (");
    sql__dp_sort(i->keys, "", out);
    cm_buf_put_u8(out, ')');
}

/* ====================================================== DROP / ALTER */

static void dp_drop(const sql_drop_t *d, cm_buf_t *out)
{
    static const char *const behaviors[] = {"", " CASCADE", " RESTRICT"};
    cm_buf_printf(out, "DROP %s %s", sql_object_name(d->object, false), d->if_exists ? "IF EXISTS " : "");
    for (int i = 0; i < d->names->count; i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        dp_qname(d->names->items[i], out);
    }
    cm_buf_put_str(out, behaviors[d->behavior]);
}

void sql_deparse_rolespec(const sql_rolespec_t *r, cm_buf_t *out)
{
    switch (r->kind) {
    case SQL_ROLESPEC_NAME: sql_deparse_ident(r->name, out); break;
    case SQL_ROLESPEC_CURRENT_USER: cm_buf_put_str(out, "CURRENT_USER"); break;
    case SQL_ROLESPEC_SESSION_USER: cm_buf_put_str(out, "SESSION_USER"); break;
    case SQL_ROLESPEC_PUBLIC: cm_buf_put_str(out, "PUBLIC"); break;
    }
}

static void dp_alter_rename(const sql_alter_rename_t *a, cm_buf_t *out)
{
    cm_buf_printf(out, "ALTER %s %s", sql_object_name(a->object, false), a->if_exists ? "IF EXISTS " : "");
    dp_qname(a->name, out);
    if (a->owner) {
        cm_buf_put_str(out, " OWNER TO ");
        sql_deparse_rolespec(a->owner, out);
        return;
    }
    cm_buf_put_str(out, " RENAME ");
    if (a->column) {
        cm_buf_put_str(out, "COLUMN ");
        sql_deparse_ident(a->column, out);
        cm_buf_put_u8(out, ' ');
    }
    cm_buf_put_str(out, "TO ");
    sql_deparse_ident(a->new_name, out);
}

/* ============================================= INSERT / UPDATE / DELETE */

static void dp_target(const sql_qname_t *table, const char *alias, cm_buf_t *out)
{
    dp_qname(table, out);
    if (alias) {
        cm_buf_put_str(out, " AS ");
        sql_deparse_ident(alias, out);
    }
}

static void dp_returning(const sql_list_t *returning, cm_buf_t *out)
{
    if (!returning)
        return;
    cm_buf_put_str(out, " RETURNING ");
    sql__dp_targets(returning, out);
}

static void dp_where(const sql_expr_t *where, cm_buf_t *out);
static void dp_set(const sql_list_t *set, cm_buf_t *out);

static void dp_on_conflict(const sql_on_conflict_t *c, cm_buf_t *out)
{
    cm_buf_put_str(out, " ON CONFLICT");
    if (c->keys) {
        sql__dp_sort(c->keys, " (", out);
        cm_buf_put_u8(out, ')');
        dp_where(c->keys_where, out);
    } else if (c->constraint) {
        cm_buf_put_str(out, " ON CONSTRAINT ");
        sql_deparse_ident(c->constraint, out);
    }
    if (!c->do_update) {
        cm_buf_put_str(out, " DO NOTHING");
        return;
    }
    cm_buf_put_str(out, " DO UPDATE");
    dp_set(c->set, out);
    dp_where(c->where, out);
}

static void dp_insert(const sql_insert_t *i, cm_buf_t *out)
{
    if (i->with)
        sql__dp_with(i->with, out);
    cm_buf_put_str(out, "INSERT INTO ");
    dp_target(i->table, i->alias, out);
    if (i->columns) {
        cm_buf_put_str(out, " (");
        for (int k = 0; k < i->columns->count; k++) {
            const sql_assign_t *a = i->columns->items[k];
            if (k)
                cm_buf_put_str(out, ", ");
            sql_deparse_ident(a->column, out);
            if (a->field) {
                cm_buf_put_u8(out, '.');
                sql_deparse_ident(a->field, out);
            }
        }
        cm_buf_put_u8(out, ')');
    }
    if (i->query) {
        cm_buf_put_u8(out, ' ');
        sql_deparse_select(i->query, out);
    } else {
        cm_buf_put_str(out, " DEFAULT VALUES");
    }
    if (i->on_conflict)
        dp_on_conflict(i->on_conflict, out);
    dp_returning(i->returning, out);
}

static void dp_from_list(const char *intro, const sql_list_t *from, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(from); i++) {
        cm_buf_put_str(out, i ? ", " : intro);
        sql__dp_from(from->items[i], out);
    }
}

static void dp_where(const sql_expr_t *where, cm_buf_t *out)
{
    if (!where)
        return;
    cm_buf_put_str(out, " WHERE ");
    sql__dp_expr(where, out);
}

/* SET a = x, (b, c) = y */
static void dp_set(const sql_list_t *set, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(set); i++) {
        const sql_assign_t *a = set->items[i];
        cm_buf_put_str(out, i ? ", " : " SET ");
        if (a->columns) {
            cm_buf_put_u8(out, '(');
            for (int k = 0; k < a->columns->count; k++) {
                if (k)
                    cm_buf_put_str(out, ", ");
                sql_deparse_ident(((const sql_assign_t *)a->columns->items[k])->column, out);
            }
            cm_buf_put_u8(out, ')');
        } else {
            sql_deparse_ident(a->column, out);
            if (a->field) {
                cm_buf_put_u8(out, '.');
                sql_deparse_ident(a->field, out);
            }
        }
        cm_buf_put_str(out, " = ");
        sql__dp_expr(a->value, out);
    }
}

static void dp_update(const sql_update_t *u, cm_buf_t *out)
{
    if (u->with)
        sql__dp_with(u->with, out);
    cm_buf_put_str(out, "UPDATE ");
    dp_target(u->table, u->alias, out);
    dp_set(u->set, out);
    dp_from_list(" FROM ", u->from, out);
    dp_where(u->where, out);
    dp_returning(u->returning, out);
}

static void dp_delete(const sql_delete_t *d, cm_buf_t *out)
{
    if (d->with)
        sql__dp_with(d->with, out);
    cm_buf_put_str(out, "DELETE FROM ");
    dp_target(d->table, d->alias, out);
    dp_from_list(" USING ", d->using_from, out);
    dp_where(d->where, out);
    dp_returning(d->returning, out);
}

static void dp_truncate(const sql_truncate_t *t, cm_buf_t *out)
{
    cm_buf_put_str(out, "TRUNCATE ");
    for (int i = 0; i < t->tables->count; i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        dp_qname(t->tables->items[i], out);
    }
    if (t->restart_identity)
        cm_buf_put_str(out, " RESTART IDENTITY");
    if (t->behavior == SQL_DROP_CASCADE)
        cm_buf_put_str(out, " CASCADE");
    else if (t->behavior == SQL_DROP_RESTRICT)
        cm_buf_put_str(out, " RESTRICT");
}

/* ================================================== COPY / SUBSCRIBE */

static void dp_subscribe(const sql_subscribe_t *s, cm_buf_t *out)
{
    cm_buf_put_str(out, "SUBSCRIBE ");
    if (s->object) {
        dp_qname(s->object, out);
    } else {
        cm_buf_put_u8(out, '(');
        sql_deparse_select(s->query, out);
        cm_buf_put_u8(out, ')');
    }
    dp_with_options(s->options, out);
}

static void dp_copy(const sql_copy_t *c, cm_buf_t *out)
{
    cm_buf_put_str(out, "COPY ");
    if (c->table) {
        dp_qname(c->table, out);
        dp_paren_idents(c->columns, out);
    } else {
        cm_buf_put_u8(out, '(');
        if (c->subscribe)
            dp_subscribe(c->subscribe, out);
        else
            sql_deparse_select(c->query, out);
        cm_buf_put_u8(out, ')');
    }
    cm_buf_put_str(out, c->to ? " TO STDOUT" : " FROM STDIN");
    if (c->options) {
        cm_buf_put_str(out, " WITH ");
        dp_options(c->options, false, out);
    }
}

/* ================================================== SHOW / EXPLAIN */

static void dp_show(sql_stmt_kind_t kind, const sql_show_t *s, cm_buf_t *out)
{
    if (kind == SQL_STMT_SHOW_CREATE) {
        cm_buf_printf(out, "SHOW CREATE %s ", sql_object_name(s->object, false));
        dp_qname(s->on, out);
        return;
    }
    if (kind == SQL_STMT_SHOW_COLUMNS) {
        cm_buf_put_str(out, "SHOW COLUMNS FROM ");
        dp_qname(s->on, out);
    } else {
        cm_buf_printf(out, "SHOW %s", sql_object_name(s->object, true));
        if (s->on) {
            cm_buf_put_str(out, " ON ");
            dp_qname(s->on, out);
        }
        if (s->from) {
            cm_buf_put_str(out, " FROM ");
            dp_qname(s->from, out);
        }
    }
    if (s->like) {
        cm_buf_put_str(out, " LIKE ");
        sql__dp_expr(s->like, out);
    }
    dp_where(s->where, out);
}

static void dp_explain(const sql_explain_t *e, cm_buf_t *out)
{
    cm_buf_put_str(out, "EXPLAIN ");
    if (e->options) {
        dp_options(e->options, false, out);
        cm_buf_put_u8(out, ' ');
    }
    if (e->physical)
        cm_buf_put_str(out, "PHYSICAL PLAN FOR ");
    else if (e->plan_for)
        cm_buf_put_str(out, "PLAN FOR ");
    if (e->stmt) {
        sql_deparse_stmt(e->stmt, out);
        return;
    }
    cm_buf_printf(out, "%s ", sql_object_name(e->object, false));
    dp_qname(e->name, out);
}

static void dp_cursor(sql_stmt_kind_t kind, const sql_cursor_t *k, cm_buf_t *out)
{
    if (kind == SQL_STMT_DECLARE) {
        cm_buf_put_str(out, "DECLARE ");
        sql_deparse_ident(k->name, out);
        cm_buf_put_str(out, k->hold ? " CURSOR WITH HOLD FOR " : " CURSOR FOR ");
        if (k->subscribe)
            dp_subscribe(k->subscribe, out);
        else
            sql_deparse_select(k->query, out);
        return;
    }
    if (kind == SQL_STMT_CLOSE) {
        cm_buf_put_str(out, "CLOSE ");
        if (k->name)
            sql_deparse_ident(k->name, out);
        else
            cm_buf_put_str(out, "ALL");
        return;
    }
    if (k->count < 0)
        cm_buf_put_str(out, "FETCH ALL FROM ");
    else
        cm_buf_printf(out, "FETCH %lld FROM ", (long long)k->count);
    sql_deparse_ident(k->name, out);
    dp_with_options(k->options, out);
}

static void dp_prepare(sql_stmt_kind_t kind, const sql_prepare_t *p, cm_buf_t *out)
{
    if (kind == SQL_STMT_DEALLOCATE) {
        cm_buf_put_str(out, "DEALLOCATE ");
        if (p->name)
            sql_deparse_ident(p->name, out);
        else
            cm_buf_put_str(out, "ALL");
        return;
    }
    cm_buf_put_str(out, kind == SQL_STMT_PREPARE ? "PREPARE " : "EXECUTE ");
    sql_deparse_ident(p->name, out);
    const sql_list_t *l = kind == SQL_STMT_PREPARE ? p->types : p->args;
    if (l) {
        cm_buf_put_str(out, " (");
        for (int i = 0; i < l->count; i++) {
            if (i)
                cm_buf_put_str(out, ", ");
            if (kind == SQL_STMT_PREPARE)
                sql_deparse_typename(l->items[i], out);
            else
                sql__dp_expr(l->items[i], out);
        }
        cm_buf_put_u8(out, ')');
    }
    if (kind == SQL_STMT_PREPARE) {
        cm_buf_put_str(out, " AS ");
        sql_deparse_stmt(p->stmt, out);
    }
}

/* ========================================================== names */

const char *sql_object_name(sql_object_kind_t kind, bool plural)
{
    static const char *const one[] = {"TABLE", "SOURCE", "VIEW", "MATERIALIZED VIEW", "INDEX", "SCHEMA",
                                      "DATABASE", "OBJECT"};
    static const char *const many[] = {"TABLES", "SOURCES", "VIEWS", "MATERIALIZED VIEWS", "INDEXES", "SCHEMAS",
                                       "DATABASES", "OBJECTS"};
    return plural ? many[kind] : one[kind];
}

const char *sql_stmt_name(const sql_stmt_t *s)
{
    switch (s->kind) {
    case SQL_STMT_EMPTY: return "";
    case SQL_STMT_SELECT: return "SELECT";
    case SQL_STMT_SET: return "SET";
    case SQL_STMT_SET_TRANSACTION: return "SET TRANSACTION";
    case SQL_STMT_SHOW: return "SHOW";
    case SQL_STMT_RESET: return "RESET";
    case SQL_STMT_BEGIN: return s->start_transaction ? "START TRANSACTION" : "BEGIN";
    case SQL_STMT_COMMIT: return "COMMIT";
    case SQL_STMT_ROLLBACK: return "ROLLBACK";
    case SQL_STMT_DISCARD: return "DISCARD";
    case SQL_STMT_UNSUPPORTED: return s->unsupported;
    case SQL_STMT_CREATE_TABLE: return s->create_table->query ? "CREATE TABLE AS" : "CREATE TABLE";
    case SQL_STMT_CREATE_SOURCE: return "CREATE SOURCE";
    case SQL_STMT_CREATE_VIEW: return s->create_view->materialized ? "CREATE MATERIALIZED VIEW" : "CREATE VIEW";
    case SQL_STMT_CREATE_INDEX: return "CREATE INDEX";
    case SQL_STMT_CREATE_SCHEMA: return "CREATE SCHEMA";
    case SQL_STMT_CREATE_DATABASE: return "CREATE DATABASE";
    case SQL_STMT_DROP: {
        static const char *const drops[] = {"DROP TABLE", "DROP SOURCE", "DROP VIEW", "DROP MATERIALIZED VIEW",
                                            "DROP INDEX", "DROP SCHEMA", "DROP DATABASE", "DROP"};
        return drops[s->drop->object];
    }
    case SQL_STMT_ALTER_RENAME: {
        static const char *const alters[] = {"ALTER TABLE", "ALTER SOURCE", "ALTER VIEW", "ALTER MATERIALIZED VIEW",
                                             "ALTER INDEX", "ALTER SCHEMA", "ALTER DATABASE", "ALTER"};
        return alters[s->alter_rename->object];
    }
    case SQL_STMT_INSERT: return "INSERT";
    case SQL_STMT_UPDATE: return "UPDATE";
    case SQL_STMT_DELETE: return "DELETE";
    case SQL_STMT_COPY: return "COPY";
    case SQL_STMT_TRUNCATE: return "TRUNCATE";
    case SQL_STMT_SUBSCRIBE: return "SUBSCRIBE";
    case SQL_STMT_SHOW_OBJECTS: {
        static const char *const shows[] = {"SHOW TABLES", "SHOW SOURCES", "SHOW VIEWS", "SHOW MATERIALIZED VIEWS",
                                            "SHOW INDEXES", "SHOW SCHEMAS", "SHOW DATABASES", "SHOW OBJECTS"};
        return shows[s->show->object];
    }
    case SQL_STMT_SHOW_COLUMNS: return "SHOW COLUMNS";
    case SQL_STMT_SHOW_CREATE: {
        static const char *const creates[] = {"SHOW CREATE TABLE", "SHOW CREATE SOURCE", "SHOW CREATE VIEW",
                                              "SHOW CREATE MATERIALIZED VIEW", "SHOW CREATE INDEX", "SHOW CREATE",
                                              "SHOW CREATE", "SHOW CREATE"};
        return creates[s->show->object];
    }
    case SQL_STMT_EXPLAIN: return "EXPLAIN";
    case SQL_STMT_PREPARE: return "PREPARE";
    case SQL_STMT_EXECUTE: return "EXECUTE";
    case SQL_STMT_DEALLOCATE: return "DEALLOCATE";
    case SQL_STMT_DECLARE: return "DECLARE CURSOR";
    case SQL_STMT_FETCH: return "FETCH";
    case SQL_STMT_CLOSE: return "CLOSE";
    case SQL_STMT_CREATE_ROLE: return "CREATE ROLE";
    case SQL_STMT_ALTER_ROLE: return "ALTER ROLE";
    case SQL_STMT_DROP_ROLE: return "DROP ROLE";
    case SQL_STMT_GRANT:
        return s->grant->target == SQL_GRANT_DEFAULT_TABLES ? "ALTER DEFAULT PRIVILEGES"
               : s->grant->revoke                           ? "REVOKE"
                                                            : "GRANT";
    case SQL_STMT_GRANT_ROLE: return "GRANT ROLE";
    case SQL_STMT_REVOKE_ROLE: return "REVOKE ROLE";
    case SQL_STMT_REASSIGN_OWNED: return "REASSIGN OWNED";
    case SQL_STMT_DROP_OWNED: return "DROP OWNED";
    }
    return "UNKNOWN";
}

/* ===================================================== statements */

static void dp_name_list(const sql_list_t *l, cm_buf_t *out);

static void dp_grant(const sql_grant_t *g, cm_buf_t *out)
{
    if (g->target == SQL_GRANT_DEFAULT_TABLES) {
        cm_buf_put_str(out, "ALTER DEFAULT PRIVILEGES ");
        for (int i = 0; i < sql_list_len(g->for_roles); i++) {
            cm_buf_put_str(out, i ? ", " : "FOR ROLE ");
            sql_deparse_rolespec(g->for_roles->items[i], out);
        }
        if (g->for_roles)
            cm_buf_put_u8(out, ' ');
        for (int i = 0; i < sql_list_len(g->in_schemas); i++) {
            cm_buf_put_str(out, i ? ", " : "IN SCHEMA ");
            sql_deparse_ident(g->in_schemas->items[i], out);
        }
        if (g->in_schemas)
            cm_buf_put_u8(out, ' ');
    }
    cm_buf_put_str(out, g->revoke ? "REVOKE " : "GRANT ");
    if (g->revoke && g->grant_option)
        cm_buf_put_str(out, "GRANT OPTION FOR ");
    if (!g->privs)
        cm_buf_put_str(out, "ALL");
    for (int i = 0; i < sql_list_len(g->privs); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        const sql_priv_t *pv = g->privs->items[i];
        for (const char *p = pv->name ? pv->name : "all"; *p; p++)
            cm_buf_put_u8(out, (uint8_t)(*p >= 'a' && *p <= 'z' ? *p - 32 : *p));
        if (pv->cols) {
            cm_buf_put_str(out, " (");
            dp_name_list(pv->cols, out);
            cm_buf_put_u8(out, ')');
        }
    }
    static const char *const targets[] = {"TABLE ", "ALL TABLES IN SCHEMA ", "SCHEMA ", "DATABASE ", "TABLES"};
    const char *target = targets[g->target];
    if (g->target == SQL_GRANT_DEFAULT_TABLES)
        target = g->defacl_objtype == 'S'   ? "SEQUENCES"
                 : g->defacl_objtype == 'f' ? (g->defacl_routines ? "ROUTINES" : "FUNCTIONS")
                 : g->defacl_objtype == 'T' ? "TYPES"
                 : g->defacl_objtype == 'n' ? "SCHEMAS"
                                            : "TABLES";
    cm_buf_printf(out, " ON %s", target);
    for (int i = 0; i < sql_list_len(g->objects); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        if (g->target == SQL_GRANT_TABLE)
            dp_qname(g->objects->items[i], out);
        else
            sql_deparse_ident(g->objects->items[i], out);
    }
    cm_buf_put_str(out, g->revoke ? " FROM " : " TO ");
    for (int i = 0; i < sql_list_len(g->grantees); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        sql_deparse_rolespec(g->grantees->items[i], out);
    }
    if (!g->revoke && g->grant_option)
        cm_buf_put_str(out, " WITH GRANT OPTION");
    if (g->behavior == SQL_DROP_CASCADE)
        cm_buf_put_str(out, " CASCADE");
    else if (g->behavior == SQL_DROP_RESTRICT)
        cm_buf_put_str(out, " RESTRICT");
}

static void dp_name_list(const sql_list_t *l, cm_buf_t *out)
{
    for (int i = 0; i < sql_list_len(l); i++) {
        if (i)
            cm_buf_put_str(out, ", ");
        sql_deparse_ident(l->items[i], out);
    }
}

/* A password is never written back: the text goes to logs and the catalog's log. */
static void dp_role(sql_stmt_kind_t kind, const sql_role_t *r, cm_buf_t *out)
{
    static const struct {
        unsigned attr;
        const char *yes, *no;
    } words[] = {
        {SQL_ROLE_SUPERUSER, "SUPERUSER", "NOSUPERUSER"},       {SQL_ROLE_CREATEDB, "CREATEDB", "NOCREATEDB"},
        {SQL_ROLE_CREATEROLE, "CREATEROLE", "NOCREATEROLE"},    {SQL_ROLE_INHERIT, "INHERIT", "NOINHERIT"},
        {SQL_ROLE_LOGIN, "LOGIN", "NOLOGIN"},                   {SQL_ROLE_REPLICATION, "REPLICATION", "NOREPLICATION"},
        {SQL_ROLE_BYPASSRLS, "BYPASSRLS", "NOBYPASSRLS"},
    };
    const char *noun = r->is_user ? "USER" : "ROLE";
    switch (kind) {
    case SQL_STMT_DROP_ROLE:
        cm_buf_printf(out, "DROP %s %s", noun, r->if_exists ? "IF EXISTS " : "");
        dp_name_list(r->names, out);
        return;
    case SQL_STMT_REASSIGN_OWNED:
    case SQL_STMT_DROP_OWNED:
        cm_buf_put_str(out, kind == SQL_STMT_DROP_OWNED ? "DROP OWNED BY " : "REASSIGN OWNED BY ");
        for (int i = 0; i < sql_list_len(r->owners); i++) {
            if (i)
                cm_buf_put_str(out, ", ");
            sql_deparse_rolespec(r->owners->items[i], out);
        }
        if (kind == SQL_STMT_REASSIGN_OWNED) {
            cm_buf_put_str(out, " TO ");
            sql_deparse_rolespec(r->new_owner, out);
        } else if (r->behavior == SQL_DROP_CASCADE) {
            cm_buf_put_str(out, " CASCADE");
        } else if (r->behavior == SQL_DROP_RESTRICT) {
            cm_buf_put_str(out, " RESTRICT");
        }
        return;
    case SQL_STMT_GRANT_ROLE:
    case SQL_STMT_REVOKE_ROLE:
        cm_buf_put_str(out, kind == SQL_STMT_GRANT_ROLE ? "GRANT " : "REVOKE ");
        dp_name_list(r->names, out);
        cm_buf_put_str(out, kind == SQL_STMT_GRANT_ROLE ? " TO " : " FROM ");
        dp_name_list(r->members, out);
        return;
    default:
        break;
    }
    cm_buf_printf(out, "%s %s ", kind == SQL_STMT_CREATE_ROLE ? "CREATE" : "ALTER", noun);
    sql_deparse_ident(r->name, out);
    if (r->setting) {
        cm_buf_put_u8(out, ' ');
        sql_deparse_stmt(r->setting, out);
        return;
    }
    for (size_t i = 0; i < CM_ARRAY_LEN(words); i++)
        if (r->set & words[i].attr)
            cm_buf_printf(out, " %s", (r->flags & words[i].attr) ? words[i].yes : words[i].no);
    if (r->set & SQL_ROLE_PASSWORD)
        cm_buf_put_str(out, r->password ? " PASSWORD '********'" : " PASSWORD NULL");
    if (r->set & SQL_ROLE_CONN_LIMIT)
        cm_buf_printf(out, " CONNECTION LIMIT %lld", (long long)r->conn_limit);
    if (r->set & SQL_ROLE_VALID_UNTIL) {
        cm_buf_put_str(out, " VALID UNTIL ");
        sql__dp_string(r->valid_until, strlen(r->valid_until), out);
    }
}

/* A setting's name, each dotted part quoted as needed so it reads back the same. */
static void dp_var_name(const char *name, cm_buf_t *out)
{
    if (strcmp(name, "all") == 0) {   /* SHOW ALL: the keyword reads better than "all" */
        cm_buf_put_str(out, "ALL");
        return;
    }
    if (sql__show_object_word(name)) {   /* SHOW "tables" is a setting; SHOW tables would list tables */
        dp_quoted(name, out);
        return;
    }
    const char *dot;
    while ((dot = strchr(name, '.')) != NULL) {
        char part[SQL_NAME_LEN_MAX * 4 + 1];
        size_t n = (size_t)(dot - name) < sizeof(part) - 1 ? (size_t)(dot - name) : sizeof(part) - 1;
        memcpy(part, name, n);
        part[n] = '\0';
        sql_deparse_ident(part, out);
        cm_buf_put_u8(out, '.');
        name = dot + 1;
    }
    sql_deparse_ident(name, out);
}

static void dp_modes(const sql_txn_modes_t *m, cm_buf_t *out)
{
    const char *sep = " ";
    if (m->isolation) {
        cm_buf_printf(out, "%sISOLATION LEVEL ", sep);
        for (const char *p = m->isolation; *p; p++)
            cm_buf_put_u8(out, (uint8_t)((*p >= 'a' && *p <= 'z') ? *p - 32 : *p));
        sep = ", ";
    }
    if (m->read_only >= 0) {
        cm_buf_printf(out, "%s%s", sep, m->read_only ? "READ ONLY" : "READ WRITE");
        sep = ", ";
    }
    if (m->deferrable >= 0)
        cm_buf_printf(out, "%s%s", sep, m->deferrable ? "DEFERRABLE" : "NOT DEFERRABLE");
}

void sql_deparse_stmt(const sql_stmt_t *s, cm_buf_t *out)
{
    static const char *const discards[] = {"ALL", "PLANS", "SEQUENCES", "TEMP"};
    switch (s->kind) {
    case SQL_STMT_EMPTY:
        break;
    case SQL_STMT_SELECT:
        sql_deparse_select(s->select, out);
        break;
    case SQL_STMT_SET:
        cm_buf_printf(out, "SET %s", s->set_local ? "LOCAL " : "");
        dp_var_name(s->var_name, out);
        cm_buf_put_str(out, " TO ");
        if (s->set_default)
            cm_buf_put_str(out, "DEFAULT");
        else
            for (int i = 0; i < s->var_values->count; i++) {
                if (i)
                    cm_buf_put_str(out, ", ");
                sql__dp_expr(s->var_values->items[i], out);
            }
        break;
    case SQL_STMT_SET_TRANSACTION:
        cm_buf_put_str(out, s->session_chars ? "SET SESSION CHARACTERISTICS AS TRANSACTION" : "SET TRANSACTION");
        dp_modes(&s->modes, out);
        break;
    case SQL_STMT_SHOW:
        cm_buf_put_str(out, "SHOW ");
        dp_var_name(s->var_name, out);
        break;
    case SQL_STMT_RESET:
        cm_buf_put_str(out, "RESET ");
        if (s->var_name)
            dp_var_name(s->var_name, out);
        else
            cm_buf_put_str(out, "ALL");
        break;
    case SQL_STMT_BEGIN:
        cm_buf_put_str(out, s->start_transaction ? "START TRANSACTION" : "BEGIN");
        dp_modes(&s->modes, out);
        break;
    case SQL_STMT_COMMIT:
    case SQL_STMT_ROLLBACK:
        cm_buf_put_str(out, s->kind == SQL_STMT_COMMIT ? "COMMIT" : "ROLLBACK");
        if (s->chain)
            cm_buf_put_str(out, " AND CHAIN");
        break;
    case SQL_STMT_DISCARD:
        cm_buf_printf(out, "DISCARD %s", discards[s->discard]);
        break;
    case SQL_STMT_UNSUPPORTED:
        cm_buf_printf(out, "UNSUPPORTED %s", s->unsupported);
        break;
    case SQL_STMT_CREATE_TABLE:
        dp_create_table(s->create_table, out);
        break;
    case SQL_STMT_CREATE_SOURCE:
        dp_create_source(s->create_source, out);
        break;
    case SQL_STMT_CREATE_VIEW:
        dp_create_view(s->create_view, out);
        break;
    case SQL_STMT_CREATE_INDEX:
        dp_create_index(s->create_index, out);
        break;
    case SQL_STMT_CREATE_SCHEMA:
    case SQL_STMT_CREATE_DATABASE:
        cm_buf_printf(out, "CREATE %s %s", s->kind == SQL_STMT_CREATE_SCHEMA ? "SCHEMA" : "DATABASE",
                      s->create_schema->if_not_exists ? "IF NOT EXISTS " : "");
        sql__dp_names(s->create_schema->name->names, out);
        break;
    case SQL_STMT_DROP:
        dp_drop(s->drop, out);
        break;
    case SQL_STMT_ALTER_RENAME:
        dp_alter_rename(s->alter_rename, out);
        break;
    case SQL_STMT_INSERT:
        dp_insert(s->insert, out);
        break;
    case SQL_STMT_UPDATE:
        dp_update(s->update, out);
        break;
    case SQL_STMT_DELETE:
        dp_delete(s->delete_, out);
        break;
    case SQL_STMT_COPY:
        dp_copy(s->copy, out);
        break;
    case SQL_STMT_TRUNCATE:
        dp_truncate(s->truncate, out);
        break;
    case SQL_STMT_SUBSCRIBE:
        dp_subscribe(s->subscribe, out);
        break;
    case SQL_STMT_SHOW_OBJECTS:
    case SQL_STMT_SHOW_COLUMNS:
    case SQL_STMT_SHOW_CREATE:
        dp_show(s->kind, s->show, out);
        break;
    case SQL_STMT_EXPLAIN:
        dp_explain(s->explain, out);
        break;
    case SQL_STMT_PREPARE:
    case SQL_STMT_EXECUTE:
    case SQL_STMT_DEALLOCATE:
        dp_prepare(s->kind, s->prepare, out);
        break;
    case SQL_STMT_DECLARE:
    case SQL_STMT_FETCH:
    case SQL_STMT_CLOSE:
        dp_cursor(s->kind, s->cursor, out);
        break;
    case SQL_STMT_CREATE_ROLE:
    case SQL_STMT_ALTER_ROLE:
    case SQL_STMT_DROP_ROLE:
    case SQL_STMT_GRANT_ROLE:
    case SQL_STMT_REVOKE_ROLE:
    case SQL_STMT_REASSIGN_OWNED:
    case SQL_STMT_DROP_OWNED:
        dp_role(s->kind, s->role, out);
        break;
    case SQL_STMT_GRANT:
        dp_grant(s->grant, out);
        break;
    }
}
