/*
 * pln_internal.h: the planner module's internal header: the raw statement
 * wrapper and the binder
 * state shared by statement binding (pln_bind.c), expression binding
 * (pln_expr.c) and PostgreSQL's type resolution rules (pln_coerce.c).
 */
#ifndef EDDY_PLN_INTERNAL_H
#define EDDY_PLN_INTERNAL_H

#include "parser/parser.h"
#include "planner/planner.h"

#define PLN_PARAMS_MAX PLAN_PARAMS_MAX   /* $n beyond this is an error, as in PostgreSQL's protocol (and in a plan) */
#define PLN_BIND_DEPTH_MAX 4100   /* recursion guard for expression binding */

struct pln_raw {
    sql_stmt_t *stmt;             /* NULL for an empty query string */
    int offset;                   /* byte span in the text */
    int length;
};

typedef struct pln_winctx pln_winctx_t;   /* window functions of one query level (pln_window.c) */

/* A COLUMN of this index or more is window function (index - PLN_WIN_BASE) until planned. */
#define PLN_WIN_BASE (1 << 25)

/*
 * A subquery used as an expression while binding: the plan's sublink
 * (plan.h) and what the binder tracks about it. bind_query copies the
 * plan's part into the plan_t.
 */
typedef struct pln_sublink {
    plan_sublink_kind_t kind;     /* EXPR, EXISTS, ARRAY, IN, ANY or ALL */
    plan_rel_t *rel;
    ty_oid_t type;                /* EXPR, ARRAY: the value's type; IN: the operator's right type */
    int32_t typmod;
    int location;
    bool joined;                  /* decorrelated into the enclosing plan: nothing left to run on its own */
    int serial;                   /* outer references made while binding it name it (pln_oref_t.sublink) */
    bool correlated;              /* planned as a join (pln_correlate.c): it refers to an enclosing query,
                                     or is any subquery of a materialized view (join_sublinks) */
    bool regrouped;               /* its outer references were rewritten over the enclosing REDUCE */
} pln_sublink_t;

/* A column of an enclosing query level read inside a subquery (pln_correlate.c). */
typedef struct pln_oref {
    int owner;                    /* pln_scope_t.id of the level the column belongs to */
    int sublink;                  /* serial of that level's sublink the reference is inside */
    ty_expr_t *expr;              /* the column over the owner's row (regrouped above its REDUCE) */
    int location;
    const char *name;
} pln_oref_t;

/* A COLUMN of this index or more is outer reference (index - PLN_OUTER_BASE) until decorrelated. */
#define PLN_OUTER_BASE (1 << 26)

/* In expressions, a sublink's value is a PARAM with a negative index: -(sublink number + 1). */
#define PLAN_SUBLINK_PARAM(k) (-(k)-1)
#define PLAN_SUBLINK_OF(index) (-(index)-1)


/*
 * One FROM item as column references see it. A join with USING, NATURAL or
 * an alias adds one for itself (PostgreSQL's join RTE): its columns are the
 * join's output columns, found through index, and the items inside it then
 * hide their columns from unqualified references (hidden_cols) and, under
 * an alias, their names too (hidden_rel).
 */
typedef struct pln_rte {
    const char *alias;
    int ncols;
    plan_column_t *cols;
    int offset;                   /* of its first column in the FROM clause's row */
    int *index;                   /* NULL: column c is at offset + c; else at index[c] */
    bool hidden_cols;
    bool hidden_rel;
    const cat_item_t *item;       /* a catalog relation: columns from naliased on carry its column names */
    int naliased;
    bool write_target;            /* INSERT / UPDATE / DELETE's table: reading a column of it needs SELECT */
    int perm;                     /* 1 + its entry in the binder's privilege checks; 0: none */
} pln_rte_t;

/* The names a query's expressions can refer to. */
typedef struct pln_scope {
    int nrtes;
    pln_rte_t *rtes;
    int ncols;
    struct pln_scope *outer;      /* the query around a subquery */
    int id;                       /* unique in the statement (outer references name their level by it) */
    int open_sublink;             /* serial of the sublink being bound in this level, -1 if none */
    struct pln_aggctx *sub_aggs;  /* where that sublink is: this level's aggregates (NULL: not allowed) */
    const char *sub_agg_forbidden;
} pln_scope_t;

/* Aggregates met while binding one query level's targets, HAVING and ORDER BY. */
struct pln_aggctx;
typedef struct pln_aggctx {
    int naggs;
    int cap;
    plan_agg_t **aggs;
    bool inside;                  /* binding an aggregate's arguments */
} pln_aggctx_t;

/* A COLUMN of this index or more is the result of aggregate (index - PLN_AGG_BASE) until regrouped. */
#define PLN_AGG_BASE (1 << 24)

/* Binder state for one statement. */
typedef struct pln_binder {
    cm_arena_t *arena;
    const char *sql;
    size_t sql_len;
    cm_err_t *err;
    ty_settings_t settings;
    ty_ctx_t ctx;                 /* for bind-time conversions (numeric literals) */
    int nparams;                  /* highest $n seen or declared */
    int params_cap;
    ty_oid_t *param_types;        /* 0 = not yet known */
    int nparam_nodes;
    int param_nodes_cap;
    ty_expr_t **param_nodes;      /* every PARAM node, fixed up at the end */
    int nlits;
    int lits_cap;
    ty_expr_t **lits;
    int nlits_pending;            /* literal conversions left for run time (settings unknown) */
    pln_scope_t *scope;           /* FROM items of the query being bound; NULL outside */
    pln_aggctx_t *aggs;           /* where aggregates may appear; NULL: not allowed */
    const char *agg_forbidden;    /* the clause named when they may not ("WHERE") */
    pln_winctx_t *wins;           /* where window functions may appear; NULL: not allowed */
    const char *win_forbidden;    /* the clause named when they may not, if not agg_forbidden ("HAVING") */
    bool setop_leaf;              /* the query being bound is a set operation's leaf: keep unknown outputs */
    int nsublinks;
    int sublinks_cap;
    pln_sublink_t *sublinks;
    int nscopes;                  /* scope ids and sublink serials handed out */
    int nserials;
    int lateral_serial;           /* the LATERAL subquery just bound in FROM read earlier items (its serial) */
    int norefs;                   /* outer references (pln_correlate.c) */
    int orefs_cap;
    pln_oref_t *orefs;
    bool settings_known;          /* settings are the session's: settings-dependent literals fold */
    bool defer_plan_errors;       /* keep folding errors in the statement (Parse) instead of failing */
    bool explain;                 /* binding what EXPLAIN prints: a relation read is shown, not refused (0A000) */
    bool join_sublinks;           /* a materialized view's query: every subquery is joined into the plan,
                                     uncorrelated ones too, since the workers run no subquery on its own */
    bool params_forbidden;        /* EXECUTE's arguments: $n is 42P02 wherever it appears */
    const char *sublink_forbidden; /* "EXECUTE parameter": a subquery is 0A000 "cannot use subquery in ..." */
    int depth;
    /* The catalog (pln_scope.c resolves FROM names in it) and what binding read from it. */
    const pln_catalog_t *cat;
    int nrels;                    /* FROM relations resolved: the AST node and the item */
    int rels_cap;
    const sql_from_t **rel_from;
    const cat_item_t **rel_item;
    /* Every relation the plan reads, also inside the views it expands (pln_view.c): tables,
     * materialized views and sources; the views themselves are only in rel_item. */
    int nreads;
    int reads_cap;
    const cat_item_t **read_item;
    const struct pln_inline *inlining; /* the views being expanded, innermost first; NULL: none */
    /* Privileges (pln_privilege.c): the first relation the statement may not read or write, raised
     * once the statement is bound (PostgreSQL checks them when it starts executing, after analysis). */
    const char *denied;
    bool skip_privileges;         /* CREATE VIEW: PostgreSQL checks a view's reads when it is used */
    struct pln_perm *perms;       /* each relation's needs, in the order met (pln_privilege.c) */
    int nperms;
    int perms_cap;
    int write_perm;               /* the write target's entry (an RTE's perm) */
    const struct sql_from *write_from;  /* UPDATE / DELETE's target as a FROM item: written, not read */
    bool in_view;                 /* expanding a view: its reads are checked as its owner, view_owner */
    cat_id_t view_owner;
    int in_catview;               /* binding a pg_catalog view's own SQL (pg_roles reads pg_authid) */
    /* When note_cols: each column reference that names a catalog relation's column (pln_rewrite.c). */
    bool note_cols;
    int ncolrefs;
    int colrefs_cap;
    const sql_expr_t **colref_expr;
    const cat_item_t **colref_item;
    int *colref_col;
    struct pln_with *with;        /* the innermost WITH in scope (pln_cte.c) */
    int nctes;                    /* CTEs bound in the statement */
    struct pln_srfctx *srfs;      /* the select list's set-returning functions; NULL: not allowed (pln_srf.c) */
    int nrowtypes;                /* records' row types, by typmod (pln_field.c) */
    int rowtypes_cap;
    struct pln_rowtype *rowtypes;
} pln_binder_t;

/* pln_view.c: an ordinary view in FROM, its stored query bound in place under its name or alias. */
bool pln__bind_view_ref(pln_binder_t *b, const sql_from_t *f, const cat_item_t *view, pln_scope_t *sc,
                        plan_rel_t **rel);

/* pln_enums.c: the parser's enums as the plan's. */
plan_setop_t pln__setop_of(sql_setop_t op);
plan_join_t pln__join_of(sql_join_kind_t kind);
plan_sublink_kind_t pln__sublink_of(sql_sublink_t kind);
plan_frame_mode_t pln__frame_mode_of(sql_frame_mode_t mode);
plan_frame_bound_t pln__bound_of(sql_frame_bound_t bound);
plan_frame_exclude_t pln__exclude_of(sql_frame_exclude_t ex);

/* pln_bind.c: a query statement (SELECT, VALUES, set operation) bound, folded and finished. */
bool pln__bind_query_stmt(pln_binder_t *b, const sql_select_t *s, pln_stmt_t *st);
/* pln_bind_view; explain: as EXPLAIN VIEW binds it, showing the relations it reads instead of refusing them. */
bool pln__bind_view(cm_arena_t *arena, const pln_catalog_t *cat, const cat_item_t *view, const ty_settings_t *settings,
                    bool defer_plan_errors, bool explain, pln_stmt_t **out, cm_err_t *err);

/* pln_ddl.c: CREATE / DROP / ALTER become PLN_DDL (validated when run); true if s is one. */
bool pln__is_ddl(const sql_stmt_t *s);
bool pln__bind_ddl(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);
/* A view's or CREATE TABLE AS's column may not be of a pseudo-type (record, void): 42P16, as PostgreSQL. */
bool pln__check_column_type(pln_binder_t *b, const char *name, ty_oid_t type);
/* A name as written ([database.][schema.]name) for the catalog; 42601 beyond three parts. */
bool pln__qname(pln_binder_t *b, const sql_list_t *names, int pos, cat_qname_t *out);
/* The normalized CREATE SOURCE text: the name qualified, IF NOT EXISTS dropped. */
const char *pln__source_create_sql(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn);
/* pln_source.c: CREATE SOURCE validated (connector, format, options) into a catalog change. */
bool pln__plan_create_source(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out);
/* pln_source_ref.c: CREATE TABLE t FROM SOURCE src (REFERENCE ref); `qualified` is t's normalized name. */
bool pln__plan_table_from_source(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn,
                                 const sql_qname_t *qualified, cat_change_t *out);
/* pln_rename.c: ALTER ... RENAME TO of an item into a catalog change. */
bool pln__plan_rename(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out);
/* GRANT's / OWNER TO's role as an ID: a catalog role, or CAT_ROLE_BOOTSTRAP for the
 * session user that is none; 42704 otherwise (PUBLIC too). */
bool pln__rolespec_id(pln_binder_t *b, const sql_rolespec_t *rs, cat_id_t *id);
/* Notes that a relation is read or written (CAT_PRIV_*), checked as the innermost view's
 * owner or else the session's current user (pln_privilege.c): the entry an RTE keeps in its
 * `perm` (0: nothing to check, as for a superuser or a system relation). */
int pln__check_privilege(pln_binder_t *b, const cat_item_t *item, uint32_t priv);
/* A column (1-based) of that entry used for SELECT, INSERT or UPDATE; SELECT also makes the
 * relation need SELECT (a write target's column read). */
void pln__perm_mark(pln_binder_t *b, int perm, int attnum, uint32_t priv);
/* The column at `index` of sc's FROM row read: marked on the catalog relation it is of. */
void pln__perm_mark_index(pln_binder_t *b, const pln_scope_t *sc, int index);
/* Notes a read of a relation only superusers may read (pg_authid and the catalog's roles, which
 * hold password verifiers), unless a pg_catalog view reads it for its own SQL (pg_roles). */
void pln__check_superuser_read(pln_binder_t *b, const char *name);
/* false with 42501 "permission denied for table t" when a check failed. */
bool pln__raise_denied(pln_binder_t *b);
/* pln_catfn.c's lookups that has_*_privilege shares: a schema by OID in the session's
 * database (or a system one), and regclass input (42P01). */
const cat_schema_t *pln__schema_by_oid(const pln_catalog_t *cat, uint32_t oid);
bool pln__regclass_in(const pln_catalog_t *cat, ty_ctx_t *ctx, const ty_datum_t *name, ty_datum_t *out);
/* has_{table,schema,database}_privilege (TY_CATFN_PRIVILEGE; pln_catfn_priv.c). */
bool pln__has_privilege(const pln_catalog_t *cat, ty_ctx_t *ctx, const ty_datum_t *args, ty_datum_t *out);
/* has_column_privilege's column (pln_catfn_colpriv.c): convert_column_name (42703 for a name `it`
 * lacks; attnum 0 when there is no such column, or no relation) or the attnum as given. */
bool pln__priv_column(ty_ctx_t *ctx, const cat_item_t *it, bool readable_view, bool by_attnum, const ty_datum_t *col,
                      int *attnum);
/* column_privilege_check (NULL for no such column) or, for attnum PLN_PRIV_ANY_COLUMN (no int2's),
 * has_any_column_privilege. */
#define PLN_PRIV_ANY_COLUMN INT32_MIN
bool pln__column_privilege(const cat_snap_t *snap, const cat_role_t *role, const cat_item_t *it, const cat_acl_t *acl,
                           bool readable_view, int attnum, uint32_t privs, uint32_t grants, ty_datum_t *out);
/* GRANT / REVOKE privileges ON objects (pln_grant.c). */
bool pln__plan_grant(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out);
/* A privilege word as string_to_privilege reads it, into *out; 42601 unknown, 0LP01 not in allowed. */
bool pln__privilege_word(pln_binder_t *b, const char *word, uint32_t allowed, const char *target, uint32_t *out);
/* GRANT's grantees as role IDs (PUBLIC: CAT_ROLE_PUBLIC), in the binder's arena. */
bool pln__grantee_ids(pln_binder_t *b, const sql_list_t *grantees, cat_id_t **ids);

/* pln_rewrite.c: what one ALTER ... RENAME renames (0: nothing of that class). */
typedef struct pln_renames {
    cat_id_t item;                /* ALTER ... RENAME TO item_name */
    const char *item_name;
    cat_id_t col_item;            /* ALTER ... RENAME COLUMN col_old TO col_new */
    const char *col_old, *col_new;
    cat_id_t schema;              /* ALTER SCHEMA ... RENAME TO schema_name */
    const char *schema_name;
    cat_id_t db;                  /* ALTER DATABASE ... RENAME TO db_name */
    const char *db_name;
} pln_renames_t;
/* Redefines every item whose stored SQL (or columns) the renames touch: the
 * renamed item and everything that reads it, all items of a renamed schema or
 * database and their readers, each re-deparsed under the new names. */
bool pln__rewrite_renamed(pln_binder_t *b, const pln_renames_t *r, cat_change_t *out);

/* pln_replace.c: CREATE OR REPLACE [MATERIALIZED] VIEW of an existing item: PostgreSQL's column rules (42P16). */
bool pln__plan_replace_view(pln_binder_t *b, const cat_item_t *old, const cat_item_def_t *def, cat_change_t *out);

/* pln_check.c: CHECK constraints of CREATE TABLE validated over the columns and named into norm (PostgreSQL's rules). */
/* PostgreSQL's makeObjectName: name1_name2_label (name2 may be NULL), cut to fit NAMEDATALEN. */
const char *pln__object_name(cm_arena_t *a, const char *name1, const char *name2, const char *label);

/* pln_constraint.c: a table's PRIMARY KEY / UNIQUE / CHECK constraints, read from its CREATE TABLE. */
typedef struct pln_constraint {
    const char *name;
    char type;                    /* 'p', 'u' or 'c', as pg_constraint.contype */
    int nkeys;
    int16_t *keys;                /* p, u: the key columns' numbers; c: the columns it reads */
    const char *definition;       /* pg_get_constraintdef's text */
    uint32_t oid;                 /* in pg_constraint */
    uint32_t index_oid;           /* p, u: its index's OID in pg_class; 0: none listed */
    const sql_expr_t *expr;       /* c: the condition as written in the table's create_sql */
} pln_constraint_t;
int pln__constraints_of(const cat_item_t *table, cm_arena_t *a, pln_constraint_t **out);
/* A table's key columns (0-based): its PRIMARY KEY, else its first UNIQUE key; none: *n 0. */
void pln__item_keys(cm_arena_t *a, const cat_item_t *table, int *n, int **cols);
/* The constraint with this OID (index: the OID of its index), and its table in *table; NULL: none. */
const pln_constraint_t *pln__constraint_by_oid(const cat_snap_t *s, uint32_t oid, bool index, cm_arena_t *a,
                                               const cat_item_t **table);

bool pln__check_constraints(pln_binder_t *b, const char *relname, const cat_column_t *cols, uint32_t ncols,
                            sql_create_table_t *norm);
/* A DDL statement as bound: its AST, planned against the catalog when it commits (pln_ddl_plan). */
struct pln_ddl {
    const sql_stmt_t *stmt;
};

/* pln_ctas.c: CREATE TABLE AS: the table with the query's columns; in a transaction block, rows
 * only WITH NO DATA or when there are none (outside one the server copies them: pln_ctas_split). */
bool pln__plan_create_table_as(pln_binder_t *b, const sql_stmt_t *s, const cat_qname_t *qn, const sql_qname_t *qualified,
                               cat_change_t *out);

/* pln_show.c: SHOW objects / COLUMNS / CREATE as a query over rows read from the snapshot. */
bool pln__is_show_catalog(const sql_stmt_t *s);
bool pln__bind_show(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);

/* pln_explain.c: EXPLAIN [PLAN FOR] query | VIEW v | MATERIALIZED VIEW v as rows of plan text. */
bool pln__bind_explain(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);
/* pln_explain_physical.c: EXPLAIN PHYSICAL PLAN's lines for plan p; dataflow: what a materialized
 * view of it builds on the workers, else what a query of it reads from them (a Peek). */
bool pln__physical_lines(pln_binder_t *b, const plan_t *p, const char *header, bool dataflow, const char ***lines,
                         int *n);
/* "name:" for a view named as written. */
const char *pln__physical_header(pln_binder_t *b, const sql_qname_t *name);
/* database.schema.name, each part quoted where needed (EXPLAIN's Get). */
const char *pln__item_qualified(cm_arena_t *arena, const cat_item_t *it);

/*
 * pln_dml.c, pln_dml_insert.c, pln_dml_update.c, pln_copy.c: writes
 * (INSERT, UPDATE, DELETE, COPY ... FROM STDIN, TRUNCATE) bound into a
 * PLN_WRITE statement carrying a plan_write_t (plan.h).
 */
bool pln__is_write(const sql_stmt_t *s);
bool pln__bind_write(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);
/* pln_copy.c: the catalog item a utility statement names (NULL: none, or a system relation);
 * false: the name itself is wrong (a cross-database reference, too many parts). */
bool pln__item_named(pln_binder_t *b, const sql_list_t *names, int pos, const cat_item_t **out);
/* pln_copy.c: SELECT "columns" (or *) FROM "names", parsed from text: the query a utility statement
 * naming a relation runs (COPY t TO, SUBSCRIBE v), checked as any query (privileges, columns). */
bool pln__select_from(pln_binder_t *b, const sql_list_t *names, const sql_list_t *columns, const sql_select_t **out);
/* pln_copy.c: an option's Boolean value as PostgreSQL's defGetBoolean reads it (none: true). */
bool pln__option_bool(pln_binder_t *b, const sql_option_t *o, bool *out);
/* pln_subscribe.c: SUBSCRIBE [TO] v [WITH (SNAPSHOT [= bool])]: a PLN_QUERY with subscribe set. */
bool pln__bind_subscribe(pln_binder_t *b, const sql_subscribe_t *s, pln_stmt_t *st);
/* pln_cursor.c: DECLARE ... CURSOR FOR SUBSCRIBE, FETCH, CLOSE. */
bool pln__bind_cursor(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);
/* pln_copy.c: COPY {t [(cols)] | (query)} TO STDOUT: the query, with its output format. */
bool pln__bind_copy_to(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);

/* The table a write names, resolved and described; the errors its kind earns wait for their moment. */
typedef struct pln_target {
    const cat_item_t *item;
    plan_write_t *w;              /* the table, its columns, NOT NULL, defaults, keys and checks */
    const char *alias;            /* what its columns are qualified with: the alias, else its name */
    const plan_error_t *analysis_error; /* a view: raised once the statement is analysed (PostgreSQL's rewriter) */
    const plan_error_t *plan_error;     /* a source: raised when it is planned (kept for Bind) */
    const plan_error_t *run_error;      /* a materialized view: raised when it runs (executor start) */
    int perm;                     /* its privilege entry (pln__check_privilege) */
} pln_target_t;
/* Resolves name for a write of kind (errors as PostgreSQL words them, at name's position). */
bool pln__write_target(pln_binder_t *b, plan_write_kind_t kind, const sql_qname_t *name, const char *alias,
                       pln_target_t *t);
/* The target as a FROM item: its RTE over the table's columns at offset 0 of scope (hidden: only for hints). */
bool pln__target_rte(pln_binder_t *b, const pln_target_t *t, pln_scope_t *scope, bool hidden);
/* x coerced to the table's column col by assignment, as PostgreSQL's transformAssignedExpr (42804 at pos). */
ty_expr_t *pln__assign(pln_binder_t *b, const plan_write_t *w, int col, ty_expr_t *x, int pos);
/* Column col's DEFAULT for one use (a copy of the bound default), or a NULL of its type. */
ty_expr_t *pln__column_default(pln_binder_t *b, const plan_write_t *w, int col);
/* The index of the table's column name; -1 when it has none. */
int pln__write_column(const plan_write_t *w, const char *name);
/* 42703 column "x" of relation "t" does not exist, at pos. */
bool pln__no_write_column(pln_binder_t *b, const plan_write_t *w, const char *name, int pos);
/* RETURNING's targets over scope (*, t.*, expressions), as result columns; NULL list: none. */
bool pln__bind_returning(pln_binder_t *b, const sql_list_t *returning, ty_expr_t ***exprs, plan_column_t **cols,
                         int *n);
/* rel (whose first columns are ncols wanted ones named by cols) folded and optimized into w->plan; the
 * errors of planning kept for Bind when the binder defers them. */
bool pln__write_plan(pln_binder_t *b, pln_target_t *t, plan_rel_t *rel, int ncols, plan_column_t *cols,
                     pln_stmt_t *st);
/* Where PostgreSQL's exprLocation puts an expression as written: its leftmost part (pln_check.c). */
int pln__leftmost(const sql_expr_t *e);
/* The same over a bound expression (-1: none). */
int pln__expr_leftmost(const ty_expr_t *e);
bool pln__bind_insert(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *t, pln_stmt_t *st);
bool pln__bind_update(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *t, pln_stmt_t *st);
bool pln__bind_delete(pln_binder_t *b, const sql_stmt_t *s, pln_target_t *t, pln_stmt_t *st);
/* COPY ... FROM STDIN and TRUNCATE: checked as PostgreSQL checks them when they run (errors in w->error). */
bool pln__bind_copy(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);
bool pln__bind_truncate(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);

/* pln_prepare.c: PREPARE / EXECUTE / DEALLOCATE as commands (their work is done when they run). */
bool pln__bind_sqlprep(pln_binder_t *b, const sql_stmt_t *s, pln_stmt_t *st);


/* Errors at a byte offset of the statement text (-1: no position). */
bool pln__error(pln_binder_t *b, int byte_pos, const char *sqlstate, const char *fmt, ...)
    __attribute__((format(printf, 4, 5)));
int pln__char_pos(const char *sql, int byte_pos);
const char *pln__type_name(pln_binder_t *b, ty_oid_t type);   /* format_type(type, -1) */

/* pln_expr.c */
ty_expr_t *pln__bind_expr(pln_binder_t *b, const sql_expr_t *e);
/* PostgreSQL's FigureColname: the column name a target gets without an alias. */
const char *pln__colname(const sql_expr_t *e);
bool pln__resolve_typename(pln_binder_t *b, const sql_typename_t *t, ty_oid_t *oid, int32_t *typmod);

/* pln_namedarg.c: calls with arguments given by name (f(a => 1)). */
bool pln__has_named_args(const sql_expr_t *call);
/* PostgreSQL's checks before any lookup: no positional argument after a named one, no name twice. */
bool pln__check_named_args(pln_binder_t *b, const sql_expr_t *call);
ty_expr_t *pln__bind_named_call(pln_binder_t *b, const sql_expr_t *call);
/* "function f(a => integer) does not exist", with the bound argument types. */
ty_expr_t *pln__no_function(pln_binder_t *b, const sql_expr_t *call);

/* pln_coerce.c */
typedef enum pln_ccontext { PLN_CC_IMPLICIT, PLN_CC_ASSIGNMENT, PLN_CC_EXPLICIT } pln_ccontext_t;
bool pln__can_coerce(ty_oid_t from, ty_oid_t to, pln_ccontext_t cc);
/* Coerces e to type/typmod; NULL (error set, at `pos` or e's location) if impossible. */
ty_expr_t *pln__coerce(pln_binder_t *b, ty_expr_t *e, ty_oid_t type, int32_t typmod, pln_ccontext_t cc, int pos);
/* WHERE/AND/OR/NOT/CASE WHEN arguments: "argument of %s must be type boolean". */
ty_expr_t *pln__coerce_bool(pln_binder_t *b, ty_expr_t *e, const char *what);
/* select_common_type + coercion of every element; context names the construct ("CASE", "VALUES"). */
bool pln__common_type(pln_binder_t *b, ty_expr_t **es, int n, const int *positions, const char *context,
                      ty_oid_t *type, int32_t *typmod);
bool pln__coerce_all(pln_binder_t *b, ty_expr_t **es, int n, ty_oid_t type, int32_t typmod, const char *context);
/* Operator and function resolution (func_select_candidate); args may be coerced in place. */
const ty_func_t *pln__resolve(pln_binder_t *b, const char *name, bool is_operator, ty_expr_t **args, int nargs,
                              int pos, bool report);
/* The same among the given candidates (aggregates, which the function table does not hold). */
const ty_func_t *pln__resolve_in(pln_binder_t *b, const char *name, bool is_operator, const ty_func_t **all, int na,
                                 ty_expr_t **args, int nargs, int pos, bool report);
/* Builds name(args) or left op right with resolution and coercion. */
ty_expr_t *pln__make_op(pln_binder_t *b, const char *op, ty_expr_t *l, ty_expr_t *r, int pos);
ty_expr_t *pln__make_call(pln_binder_t *b, const char *name, ty_expr_t **args, int nargs, int pos);
/* Resolves remaining unknown-typed expressions (literals, NULL) to text. */
ty_expr_t *pln__resolve_unknown(pln_binder_t *b, ty_expr_t *e);
void pln__note_literal(pln_binder_t *b, ty_expr_t *cast);

/* pln_select.c: binds a query (SELECT, VALUES, set operation) into a plan and its output columns. */
typedef struct pln_bound {
    plan_rel_t *rel;
    int ncols;
    plan_column_t *cols;
    ty_expr_t **targets;          /* a plain SELECT's or VALUES' output expressions (set operations coerce them) */
    int nvalues_rows;
} pln_bound_t;
bool pln__bind_select(pln_binder_t *b, const sql_select_t *s, pln_bound_t *out);
/*
 * pln_bind.c: the plan of a query as a statement runs it and EXPLAIN
 * prints it: bound (q), literals converted, optimized, folded. A folding
 * error fails, or, with kept, is kept there and the plan returned anyway.
 */
bool pln__plan_query(pln_binder_t *b, const sql_select_t *s, const plan_error_t **kept, pln_bound_t *q, plan_t **out);
plan_rel_t *pln__rel_new(pln_binder_t *b, plan_rel_kind_t kind, plan_rel_t *input, int ncols);
bool pln__bind_sort(pln_binder_t *b, const sql_list_t *order, pln_bound_t *q, bool only_outputs,
                    ty_expr_t ***hidden, int *nhidden, plan_sortkey_t **keys);
bool pln__bind_limit(pln_binder_t *b, const sql_select_t *s, pln_bound_t *q);
/* Wraps q's plan in a SORT on keys and drops the hidden columns after it. */
void pln__finish_sort(pln_binder_t *b, pln_bound_t *q, plan_sortkey_t *keys, int nkeys);

/* pln_setop.c */
bool pln__bind_setop(pln_binder_t *b, const sql_select_t *s, pln_bound_t *out);

/* pln_sysrel.c: the session relations (planner.h) and how a FROM name finds one. */
typedef struct pln_sysrel {
    const char *schema;           /* "pg_catalog" or "eddy_internal" */
    const char *name;
    const char *session;          /* the name ty_ctx_t.session_rows is asked for */
    const cat_column_t *columns;
    uint32_t ncolumns;
} pln_sysrel_t;
/* The session relation a FROM name means, by PostgreSQL's lookup rules; NULL: a catalog name. */
const pln_sysrel_t *pln__sysrel_find(const pln_binder_t *b, const cat_qname_t *qn);
/* Whether an unqualified name finds the relation of `schema` (pg_catalog unless shadowed). */
bool pln__sysrel_unqualified(const pln_binder_t *b, const char *schema, const char *name);

/*
 * pln_field.c: records whose columns are known while binding (ROW(...), a
 * set-returning function's OUT columns): TY_RECORD with typmod the index of
 * its row type in the statement, as PostgreSQL registers anonymous record
 * types, so that (expr).name finds the column through subqueries and CTEs,
 * which carry typmods. Equal row types share an index. A statement's result
 * columns show record with typmod -1 (pln__typmod_out); no relation has a
 * record column (pln__check_column_type).
 */
typedef struct pln_rowtype {
    int ncols;
    const char **names;
    ty_oid_t *types;
    int32_t *typmods;
} pln_rowtype_t;
int32_t pln__rowtype(pln_binder_t *b, int ncols, const char *const *names, const ty_oid_t *types,
                     const int32_t *typmods);
ty_expr_t *pln__bind_field(pln_binder_t *b, const sql_expr_t *e);
int32_t pln__typmod_out(ty_oid_t type, int32_t typmod);

/* pln_catfn.c: lets ctx's functions and regclass I/O read cat (NULL: leaves ctx as it is). */
void pln__ctx_catalog(ty_ctx_t *ctx, const pln_catalog_t *cat);

/* pln_default.c: a literal default e of a column of type/typmod as pg_get_expr prints it; false: not a
 * literal (out untouched); *none: a NULL constant, no default at all. */
bool pln__default_text(pln_binder_t *b, const sql_expr_t *e, ty_oid_t type, int32_t typmod, cm_buf_t *out,
                       bool *none);

/* pln_catview.c: pg_catalog's views over eddy_catalog, bound as subqueries of their SQL. */
typedef struct pln_catview {
    const char *schema;
    const char *name;
    uint32_t oid;                 /* PostgreSQL's OID for the catalog; 0: none (a view there too) */
    const char *sql;
} pln_catview_t;
const pln_catview_t *pln__catview_find(const pln_binder_t *b, const cat_qname_t *qn);
/* regclass: the OID of a view named qn (0: none); its name by OID (out NULL: only whether). */
uint32_t pln__catview_oid(const pln_catalog_t *cat, const cat_qname_t *qn);
bool pln__catview_name(uint32_t oid, cm_buf_t *out);
const pln_catview_t *pln__catview_at(size_t i);

/* The columns of the session relation ty_ctx_t.session_rows knows as `session` (eddy_catalog's too). */
bool pln__session_columns(const char *session, const cat_column_t **cols, uint32_t *ncols);

/* pln_scope.c */
/* A result column read straight from a FROM column (e a COLUMN of sc's row) takes its origin. */
void pln__column_origin(const pln_scope_t *sc, const ty_expr_t *e, plan_column_t *out);
/* Adds a FROM item's names to sc (42712 when its alias is already there). */
bool pln__add_rte(pln_binder_t *b, pln_scope_t *sc, const char *alias, int ncols, plan_column_t *cols);
bool pln__bind_from(pln_binder_t *b, const sql_list_t *from, pln_scope_t *scope, plan_rel_t **rel);
ty_expr_t *pln__bind_column(pln_binder_t *b, const sql_expr_t *e);
/* Expands * or t.* into column references; NULL (error set) if t is unknown. */
bool pln__expand_star(pln_binder_t *b, const sql_expr_t *e, ty_expr_t ***exprs, const char ***names, int *n);
const char *pln__column_name(const pln_scope_t *scope, int index, bool qualified, cm_arena_t *a);

/* pln_agg.c */
bool pln__is_aggregate(const char *name);
/* An aggregate the planner adds (bool_or, single_value) over one argument. */
plan_agg_t *pln__agg_internal(pln_binder_t *b, plan_aggop_t op, ty_expr_t *arg, ty_oid_t type);
ty_expr_t *pln__bind_agg(pln_binder_t *b, const sql_expr_t *e);
/* Rewrites an expression over the FROM row into one over a REDUCE's row (keys, then aggregates). */
ty_expr_t *pln__regroup(pln_binder_t *b, ty_expr_t *e, ty_expr_t **keys, int nkeys);
bool pln__expr_equal(const ty_expr_t *a, const ty_expr_t *b);
/* An aggregate call used OVER a window: bound at the current level, not noted as the level's aggregate. */
plan_agg_t *pln__bind_agg_over(pln_binder_t *b, const sql_expr_t *e);

/* pln_window.c: window functions of one query level (pln_select.c calls these in this order). */
pln_winctx_t *pln__window_ctx(pln_binder_t *b, const sql_select_t *s);
bool pln__is_window_func(const char *name);
ty_expr_t *pln__bind_window_call(pln_binder_t *b, const sql_expr_t *e);   /* f(...) OVER ... */
bool pln__window_bind_defs(pln_binder_t *b, pln_winctx_t *w);           /* after GROUP BY, before the REDUCE */
bool pln__window_regroup(pln_binder_t *b, pln_winctx_t *w, ty_expr_t **keys, int nkeys);
/* WINDOW operators over rel; the window results in exprs become their columns. */
plan_rel_t *pln__window_plan(pln_binder_t *b, pln_winctx_t *w, plan_rel_t *rel, ty_expr_t **exprs, int nexprs);
bool pln__window_fold(pln_binder_t *b, plan_rel_t *r);

/* pln_sublink.c */
ty_expr_t *pln__bind_sublink(pln_binder_t *b, const sql_expr_t *e);
/* The statement's sublinks as the plan keeps them. */
plan_sublink_t *pln__plan_sublinks(pln_binder_t *b);

/* pln_correlate.c: outer references and the decorrelation of subqueries into joins. */
ty_expr_t *pln__outer_ref(pln_binder_t *b, pln_scope_t *owner, ty_expr_t *col, const char *name);
/* The sublink's outer references over the enclosing REDUCE's row (pln__regroup calls it). */
bool pln__sublink_regroup(pln_binder_t *b, const ty_expr_t *placeholder, ty_expr_t **keys, int nkeys);
/* The level's plan with its correlated sublinks joined in (pln_select.c calls it last). */
plan_rel_t *pln__decorrelate(pln_binder_t *b, plan_rel_t *rel);
/* left JOIN LATERAL right (INNER or LEFT; pred over both): right's references of `serial` to left's
 * columns (FROM-row indexes from base) are joined as a correlated subquery's. */
plan_rel_t *pln__lateral_join(pln_binder_t *b, plan_rel_t *left, plan_rel_t *right, int serial, int base,
                             plan_join_t kind, ty_expr_t *pred);
/* A join (its condition over both sides, FROM-row indexes from base) with the condition's correlated sublinks joined. */
plan_rel_t *pln__decorrelate_on(pln_binder_t *b, plan_rel_t *j, int base);
/* True if rel holds a correlated sublink still to be joined (binding refuses the query then). */
bool pln__has_correlated(pln_binder_t *b, const plan_rel_t *rel);


/* pln_cte.c: WITH [RECURSIVE] (pln__bind_select calls begin before its query and end after it). */
bool pln__with_begin(pln_binder_t *b, const sql_select_t *s);
bool pln__with_end(pln_binder_t *b, const sql_select_t *s, pln_bound_t *q, bool ok);
/* A one-part FROM name that is a CTE in scope: *rel reads it (1), not a CTE (0), error (-1). */
int pln__bind_cte_ref(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel);
/* For 42P01 on name: PostgreSQL's detail and hint when a later WITH item has that name. */
void pln__cte_forward_hint(pln_binder_t *b, const char *name);

/* pln_srf.c: functions in FROM (FLATMAP) and set-returning functions in the select list. */
/* A FROM function: *rel is a FLATMAP, without input when it reads earlier FROM items (lateral). */
bool pln__bind_from_function(pln_binder_t *b, const sql_from_t *f, pln_scope_t *sc, plan_rel_t **rel);
bool pln__srf_is_lateral(const plan_rel_t *r);
/* Places a lateral FLATMAP over left, whose columns start at base in the FROM row. */
bool pln__srf_lateral(pln_binder_t *b, plan_rel_t *fm, plan_rel_t *left, int base, int pos);
/*
 * The function name a call means, schema checked: pg_catalog's (written bare
 * or qualified) or, for names starting with _pg_, information_schema's, which
 * only a qualified name reaches (information_schema is not on the search
 * path). NULL for any other qualification. *hidden: a _pg_ name written
 * without information_schema, which names no function.
 */
const char *pln__func_name(const sql_expr_t *e, bool *hidden);
/* The select list's set-returning functions: f(args) is a call of one (and no scalar function)... */
bool pln__is_srf_call(const char *name);
/* ... bound to a placeholder where the select list allows it (b->srfs), else PostgreSQL's 0A000. */
ty_expr_t *pln__bind_srf_call(pln_binder_t *b, const sql_expr_t *e);
struct pln_srfctx *pln__srf_ctx(pln_binder_t *b);
/* 0A000 for a call under CASE or COALESCE, as PostgreSQL. */
bool pln__srf_check(pln_binder_t *b, struct pln_srfctx *s, ty_expr_t *const *targets, int n);
/* FLATMAPs over rel, one per nesting level; the placeholders in exprs become their columns. */
plan_rel_t *pln__srf_plan(pln_binder_t *b, struct pln_srfctx *s, plan_rel_t *rel, ty_expr_t **exprs, int n,
                         ty_expr_t **keys, int nkeys, bool grouped);


/* pln_fold.c */
bool pln__func_immutable(const ty_func_t *f);
/* Converts the noted literals now where their input does not depend on unknown settings. */
bool pln__fold_literals(pln_binder_t *b);
/* An explicit cast of a literal converted as it is bound (PostgreSQL's transformTypeCast), so its
 * error comes before those of what is bound after it; one needing unknown settings waits. */
bool pln__fold_literal_now(pln_binder_t *b, ty_expr_t *cast);
/* Folds every expression of a plan and its sublinks. */
bool pln__fold_rel(pln_binder_t *b, plan_rel_t *rel);
/* Folds constant subtrees of e; NULL (error set) if evaluating one failed. */
ty_expr_t *pln__fold(pln_binder_t *b, ty_expr_t *e);

/* pln_opt.c: the optimizer's passes over a folded plan (its root keeps its columns). */
void pln__optimize(pln_binder_t *b, plan_rel_t **root);

/* pln_array.c: ARRAY[...] (type: the array type a cast asks for, 0 if none), op ANY/ALL (array), subscripts. */
ty_expr_t *pln__bind_array(pln_binder_t *b, const sql_expr_t *e, ty_oid_t type, int32_t typmod);
ty_expr_t *pln__bind_array_cmp(pln_binder_t *b, const sql_expr_t *e);
/* l op ANY (r) or, when all, op ALL: r is an array or an untyped literal. */
ty_expr_t *pln__make_any(pln_binder_t *b, const char *op, ty_expr_t *l, ty_expr_t *r, bool all, int pos);
ty_expr_t *pln__bind_subscript(pln_binder_t *b, const sql_expr_t *e);

/* pln_row.c: ROW(...) constructors and the comparisons PostgreSQL expands over two rows. */
ty_expr_t *pln__bind_row(pln_binder_t *b, const sql_expr_t *e);
ty_expr_t *pln__bind_row_op(pln_binder_t *b, const sql_expr_t *e);        /* ROW op ROW */
ty_expr_t *pln__bind_row_distinct(pln_binder_t *b, const sql_expr_t *e);  /* ROW IS [NOT] DISTINCT FROM ROW */
bool pln__is_row_in(const sql_expr_t *e);
ty_expr_t *pln__bind_row_in(pln_binder_t *b, const sql_expr_t *e);        /* (a, b) [NOT] IN ((c, d), ...) */


/* Role statements (pln_role.c). */
bool pln__is_role_stmt(const sql_stmt_t *s);
/* SET's value as text: list items joined with ", ", as PostgreSQL flattens them. */
const char *pln__set_value(pln_binder_t *b, const sql_list_t *values);
bool pln__plan_role(pln_binder_t *b, const sql_stmt_t *s, cat_change_t *out);

#endif
