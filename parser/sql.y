/*
 * sql.y: the lemon grammar of eddy's SQL dialect (PostgreSQL's, plus eddy's
 * streaming statements as they arrive).
 *
 * The tokenizer (sql_lex.c) calls this parser one token at a time; actions
 * are single calls into the builders of sql_build.c, which allocate nodes in
 * the statement arena, so no %destructor is needed. Keyword categories and
 * operator precedence follow PostgreSQL so that the same texts parse and the
 * same syntax errors are reported at the same token. eddy's own statements
 * (CREATE SOURCE, SUBSCRIBE, SHOW SOURCES, EXPLAIN VIEW, ...) follow
 * Materialize's spelling; their words are unreserved keywords, so they stay
 * usable as names. Statements the grammar does not take yet arrive as one
 * UNSUPPORTED token (see sql_parse.c).
 */

%include {
#include "parser/sql_int.h"
}

%name sql_parser
%token_prefix SQL_TOK_
%token_type {sql_token_t}
%default_type {void *}
%extra_context {sql_pctx_t *ctx}
%stack_size 1000
%start_symbol input

%syntax_error { sql__syntax_error(ctx, &TOKEN, yymajor); }
%stack_overflow { sql__stack_overflow(ctx); }

/* Tokens the tokenizer produces that are not keywords. */
%token IDENT ICONST FCONST SCONST BCONST XCONST PARAM OP TYPECAST DOT_DOT COLON_EQUALS EQUALS_GREATER
       LESS_EQUALS GREATER_EQUALS NOT_EQUALS LP RP LBRACKET RBRACKET COMMA SEMI COLON DOT
       PLUS MINUS STAR SLASH PERCENT CARET LT GT EQ OTHER UNSUPPORTED NOT_LA NULLS_LA WITH_LA SHOW_LA OWNED_LA
       REASSIGN_LA.

/* Keywords: every non-unreserved PostgreSQL keyword, and the unreserved ones the grammar uses. */
%token ABORT ALL ANALYSE ANALYZE AND ANY ARRAY AS ASC ASYMMETRIC AT AUTHORIZATION BEGIN BETWEEN
       BIGINT BINARY BIT BOOLEAN BOTH BY CASE CAST CHAIN CHAR CHARACTER CHARACTERISTICS CHECK
       COALESCE COLLATE COLLATION COLUMN COMMIT COMMITTED CONCURRENTLY CONSTRAINT CREATE CROSS
       CURRENT_CATALOG CURRENT_DATE CURRENT_ROLE CURRENT_SCHEMA CURRENT_TIME CURRENT_TIMESTAMP
       CURRENT_USER DAY DEC DECIMAL DEFAULT DEFERRABLE DESC DISCARD DISTINCT DO DOUBLE ELSE END
       ESCAPE EXCEPT EXISTS EXTRACT FALSE FETCH FILTER FIRST FLOAT FOR FOREIGN FREEZE FROM FULL
       GRANT GREATEST GROUP GROUPING HAVING HOUR ILIKE IN INITIALLY INNER INOUT INT INTEGER
       INTERSECT INTERVAL INTO IS ISNULL ISOLATION JOIN LAST LATERAL LEADING LEAST LEFT LEVEL LIKE
       LIMIT LOCAL LOCALTIME LOCALTIMESTAMP MINUTE MONTH NAMES NATIONAL NATURAL NCHAR NO NONE
       NORMALIZE NOT NOTNULL NULL NULLIF NULLS NUMERIC OFFSET ON ONLY OR ORDER OUT OUTER OVER
       OVERLAPS OVERLAY PLACING PLANS POSITION PRECISION PRIMARY READ REAL REFERENCES REPEATABLE
       RESET RETURNING RIGHT ROLLBACK ROW SCHEMA SECOND SELECT SEQUENCES SERIALIZABLE SESSION
       SESSION_USER SET SETOF SHOW SIMILAR SMALLINT SOME START SUBSTRING SYMMETRIC TABLE TABLESAMPLE
       TEMP TEMPORARY THEN TIME TIMESTAMP TO TRAILING TRANSACTION TREAT TRIM TRUE UNCOMMITTED UNION
       UNIQUE UNKNOWN USER USING VALUES VARCHAR VARIADIC VARYING VERBOSE WHEN WHERE WINDOW WITH
       WITHIN WITHOUT WORK WRITE XMLATTRIBUTES XMLCONCAT XMLELEMENT XMLEXISTS XMLFOREST
       XMLNAMESPACES XMLPARSE XMLPI XMLROOT XMLSERIALIZE XMLTABLE YEAR ZONE.

/* Unreserved PostgreSQL keywords of the DDL/DML statements, window functions and CTEs. */
%token ALTER CASCADE CLOSE COLUMNS CONFLICT CONTINUE COPY CSV CURRENT CURSOR DATABASE DEALLOCATE DECLARE DELETE DELIMITER DROP
       EXCLUDE EXECUTE EXPLAIN FOLLOWING FORWARD GROUPS HEADER HOLD IDENTITY IF_P INDEX INDEXES INSERT KEY LOAD
       MATERIALIZED NEXT NOTHING OPERATOR ORDINALITY OTHERS PARTITION PRECEDING PREPARE QUOTE RANGE
       RECURSIVE RENAME REPLACE RESTART RESTRICT REVOKE ROWS SCHEMAS SCROLL STDIN STDOUT TABLES TEXT TIES TRUNCATE
       UNBOUNDED UPDATE VIEW VIEWS.

/* eddy's own words (not PostgreSQL keywords; unreserved here). */
%token AUCTION BROKER BYTES COUNTER DATABASES DELIMITED FILE FORMAT GENERATOR JSON KAFKA OBJECTS PLAN
       REGEX SOURCE SOURCES SUBSCRIBE TOPIC TPCH.

/* Precedence, lowest first, as PostgreSQL's grammar declares it. SET is
 * lowest so that UPDATE t SET ... reads SET as the keyword, not an alias;
 * UNBOUNDED, PARTITION, RANGE, ROWS, ... sit with IDENT so that window
 * specifications prefer them as keywords over window names and columns. */
%nonassoc SET.
%left UNION EXCEPT.
%left INTERSECT.
%left OR.
%left AND.
%right NOT.
%nonassoc IS ISNULL NOTNULL.
%nonassoc LT GT EQ LESS_EQUALS GREATER_EQUALS NOT_EQUALS.
%nonassoc BETWEEN IN LIKE ILIKE SIMILAR NOT_LA.
%nonassoc ESCAPE.
%nonassoc UNBOUNDED.
%nonassoc IDENT PARTITION RANGE ROWS GROUPS PRECEDING FOLLOWING.
%left OP OPERATOR.
%left PLUS MINUS.
%left STAR SLASH PERCENT.
%left CARET.
%left AT.
%left COLLATE.
%right UMINUS.
%left LBRACKET RBRACKET.
%left LP RP.
%left TYPECAST.
%left DOT.
%left JOIN CROSS LEFT FULL RIGHT INNER NATURAL.

/////////////////////////////////////////////////////// statement list ////

input ::= stmtmulti.
stmtmulti ::= stmtmulti SEMI toplevel_stmt.
stmtmulti ::= toplevel_stmt.
toplevel_stmt ::= stmt(S).       { sql__stmt_add(ctx, S); }
toplevel_stmt ::= .

%type stmt {sql_stmt_t *}
stmt(A) ::= select_stmt(S).      { A = sql__stmt_select_into(ctx, S); }
stmt(A) ::= UNSUPPORTED(T).      { A = sql__stmt_unsupported(ctx, &T); }
stmt(A) ::= set_stmt(S).         { A = S; }
stmt(A) ::= show_stmt(S).        { A = S; }
stmt(A) ::= reset_stmt(S).       { A = S; }
stmt(A) ::= txn_stmt(S).         { A = S; }
stmt(A) ::= discard_stmt(S).     { A = S; }
stmt(A) ::= create_stmt(S).      { A = S; }
stmt(A) ::= drop_stmt(S).        { A = S; }
stmt(A) ::= alter_stmt(S).       { A = S; }
stmt(A) ::= insert_stmt(S).      { A = S; }
stmt(A) ::= update_stmt(S).      { A = S; }
stmt(A) ::= delete_stmt(S).      { A = S; }
stmt(A) ::= copy_stmt(S).        { A = S; }
stmt(A) ::= truncate_stmt(S).    { A = S; }
stmt(A) ::= with_clause(W) insert_stmt(S). { A = sql__dml_with(ctx, S, W); }
stmt(A) ::= with_clause(W) update_stmt(S). { A = sql__dml_with(ctx, S, W); }
stmt(A) ::= with_clause(W) delete_stmt(S). { A = sql__dml_with(ctx, S, W); }
stmt(A) ::= subscribe_stmt(S).   { A = sql__stmt_subscribe(ctx, S); }
stmt(A) ::= show_object_stmt(S). { A = S; }
stmt(A) ::= explain_stmt(S).     { A = S; }
stmt(A) ::= prepare_stmt(S).     { A = S; }
stmt(A) ::= execute_stmt(S).     { A = S; }
stmt(A) ::= deallocate_stmt(S).  { A = S; }
stmt(A) ::= cursor_stmt(S).      { A = S; }
stmt(A) ::= role_stmt(S).        { A = S; }
stmt(A) ::= grant_stmt(S).       { A = S; }

///////////////////////////////////////////////// SET / SHOW / RESET ////

%type set_stmt {sql_stmt_t *}
%type set_rest {sql_stmt_t *}
%type set_rest_more {sql_stmt_t *}
set_stmt(A) ::= SET set_rest(S).             { A = S; }
set_stmt(A) ::= SET LOCAL set_rest(S).       { A = sql__stmt_set_local(ctx, S); }
set_stmt(A) ::= SET SESSION set_rest(S).     { A = S; }

set_rest(A) ::= TRANSACTION txn_mode_list(M).
        { A = sql__stmt_set_txn(ctx, M, false); }
set_rest(A) ::= SESSION CHARACTERISTICS AS TRANSACTION txn_mode_list(M).
        { A = sql__stmt_set_txn(ctx, M, true); }
set_rest(A) ::= set_rest_more(S).            { A = S; }

set_rest_more(A) ::= var_name(N) TO var_list(L).        { A = sql__stmt_set(ctx, N, L); }
set_rest_more(A) ::= var_name(N) EQ var_list(L).        { A = sql__stmt_set(ctx, N, L); }
set_rest_more(A) ::= var_name(N) TO DEFAULT.            { A = sql__stmt_set(ctx, N, NULL); }
set_rest_more(A) ::= var_name(N) EQ DEFAULT.            { A = sql__stmt_set(ctx, N, NULL); }
set_rest_more(A) ::= TIME ZONE zone_value(V).           { A = sql__stmt_set(ctx, "timezone", V); }
set_rest_more(A) ::= NAMES.                             { A = sql__stmt_set(ctx, "client_encoding", NULL); }
set_rest_more(A) ::= NAMES DEFAULT.                     { A = sql__stmt_set(ctx, "client_encoding", NULL); }
set_rest_more(A) ::= NAMES SCONST(S).
        { A = sql__stmt_set(ctx, "client_encoding", sql__list1(ctx, sql__const_string(ctx, &S))); }
set_rest_more(A) ::= SCHEMA SCONST(S).
        { A = sql__stmt_set(ctx, "search_path", sql__list1(ctx, sql__const_string(ctx, &S))); }
set_rest_more(A) ::= SESSION AUTHORIZATION nonreserved_word_or_sconst(V).
        { A = sql__stmt_set(ctx, "session_authorization", sql__list1(ctx, V)); }
set_rest_more(A) ::= IDENT(K) nonreserved_word_or_sconst(V).
        { A = sql__set_role(ctx, &K, V); }
set_rest_more(A) ::= SESSION AUTHORIZATION DEFAULT.
        { A = sql__stmt_set(ctx, "session_authorization", NULL); }

%type var_name {const char *}
var_name(A) ::= colid(N).                        { A = N.str; }
var_name(A) ::= var_name(P) DOT colid(N).        { A = sql__dotted(ctx, P, N.str); }

%type var_list {sql_list_t *}
var_list(A) ::= var_value(V).                    { A = sql__list1(ctx, V); }
var_list(A) ::= var_list(L) COMMA var_value(V).  { A = sql__list_add(ctx, L, V); }

%type var_value {sql_expr_t *}
var_value(A) ::= opt_boolean_or_string(V).       { A = V; }
var_value(A) ::= numeric_only(V).                { A = V; }

%type opt_boolean_or_string {sql_expr_t *}
opt_boolean_or_string(A) ::= TRUE(T).            { A = sql__const_word(ctx, &T, "true"); }
opt_boolean_or_string(A) ::= FALSE(T).           { A = sql__const_word(ctx, &T, "false"); }
opt_boolean_or_string(A) ::= ON(T).              { A = sql__const_word(ctx, &T, "on"); }
opt_boolean_or_string(A) ::= nonreserved_word_or_sconst(V). { A = V; }

%type nonreserved_word_or_sconst {sql_expr_t *}
nonreserved_word_or_sconst(A) ::= nonreserved_word(W). { A = sql__const_word(ctx, &W, NULL); }
nonreserved_word_or_sconst(A) ::= SCONST(S).     { A = sql__const_string(ctx, &S); }

%type numeric_only {sql_expr_t *}
numeric_only(A) ::= FCONST(T).                   { A = sql__const_number(ctx, &T); }
numeric_only(A) ::= PLUS FCONST(T).              { A = sql__const_number(ctx, &T); }
numeric_only(A) ::= MINUS(M) FCONST(T).          { A = sql__negate(ctx, &M, sql__const_number(ctx, &T)); }
numeric_only(A) ::= ICONST(T).                   { A = sql__const_number(ctx, &T); }
numeric_only(A) ::= PLUS ICONST(T).              { A = sql__const_number(ctx, &T); }
numeric_only(A) ::= MINUS(M) ICONST(T).          { A = sql__negate(ctx, &M, sql__const_number(ctx, &T)); }

%type zone_value {sql_list_t *}
zone_value(A) ::= SCONST(S).                     { A = sql__list1(ctx, sql__const_string(ctx, &S)); }
zone_value(A) ::= IDENT(S).                      { A = sql__list1(ctx, sql__const_word(ctx, &S, NULL)); }
zone_value(A) ::= numeric_only(V).               { A = sql__list1(ctx, V); }
zone_value(A) ::= DEFAULT.                       { A = NULL; }
zone_value(A) ::= LOCAL.                         { A = NULL; }

%type show_stmt {sql_stmt_t *}
show_stmt(A) ::= SHOW var_name(N).               { A = sql__stmt_show(ctx, N); }
show_stmt(A) ::= SHOW TIME ZONE.                 { A = sql__stmt_show(ctx, "timezone"); }
show_stmt(A) ::= SHOW TRANSACTION ISOLATION LEVEL. { A = sql__stmt_show(ctx, "transaction_isolation"); }
show_stmt(A) ::= SHOW SESSION AUTHORIZATION.     { A = sql__stmt_show(ctx, "session_authorization"); }
show_stmt(A) ::= SHOW ALL.                       { A = sql__stmt_show(ctx, "all"); }

%type reset_stmt {sql_stmt_t *}
reset_stmt(A) ::= RESET var_name(N).             { A = sql__stmt_reset(ctx, N); }
reset_stmt(A) ::= RESET TIME ZONE.               { A = sql__stmt_reset(ctx, "timezone"); }
reset_stmt(A) ::= RESET TRANSACTION ISOLATION LEVEL. { A = sql__stmt_reset(ctx, "transaction_isolation"); }
reset_stmt(A) ::= RESET SESSION AUTHORIZATION.   { A = sql__stmt_reset(ctx, "session_authorization"); }
reset_stmt(A) ::= RESET ALL.                     { A = sql__stmt_reset(ctx, NULL); }

//////////////////////////////////////////////////////// transactions ////

%type txn_stmt {sql_stmt_t *}
txn_stmt(A) ::= BEGIN opt_transaction txn_mode_list_or_empty(M).  { A = sql__stmt_txn(ctx, SQL_STMT_BEGIN, M, false); }
txn_stmt(A) ::= START TRANSACTION txn_mode_list_or_empty(M).      { A = sql__stmt_txn(ctx, SQL_STMT_BEGIN, M, true); }
txn_stmt(A) ::= COMMIT opt_transaction opt_chain(C).  { A = sql__stmt_txn_end(ctx, SQL_STMT_COMMIT, C); }
txn_stmt(A) ::= END opt_transaction opt_chain(C).     { A = sql__stmt_txn_end(ctx, SQL_STMT_COMMIT, C); }
txn_stmt(A) ::= ROLLBACK opt_transaction opt_chain(C). { A = sql__stmt_txn_end(ctx, SQL_STMT_ROLLBACK, C); }
txn_stmt(A) ::= ABORT opt_transaction opt_chain(C).   { A = sql__stmt_txn_end(ctx, SQL_STMT_ROLLBACK, C); }

opt_transaction ::= WORK.
opt_transaction ::= TRANSACTION.
opt_transaction ::= .

%type opt_chain {int}
opt_chain(A) ::= AND CHAIN.                      { A = 1; }
opt_chain(A) ::= AND NO CHAIN.                   { A = 0; }
opt_chain(A) ::= .                               { A = 0; }

%type txn_mode_list_or_empty {sql_txn_modes_t *}
%type txn_mode_list {sql_txn_modes_t *}
txn_mode_list_or_empty(A) ::= txn_mode_list(M). { A = M; }
txn_mode_list_or_empty(A) ::= .                  { A = sql__txn_modes(ctx); }
txn_mode_list(A) ::= txn_mode_item(I).           { A = sql__txn_modes_add(ctx, sql__txn_modes(ctx), I); }
txn_mode_list(A) ::= txn_mode_list(L) COMMA txn_mode_item(I). { A = sql__txn_modes_add(ctx, L, I); }
txn_mode_list(A) ::= txn_mode_list(L) txn_mode_item(I).       { A = sql__txn_modes_add(ctx, L, I); }

/* A mode is coded as an int: isolation levels 1..4, 10/11 read only/write, 20/21 (not) deferrable. */
%type txn_mode_item {int}
txn_mode_item(A) ::= ISOLATION LEVEL iso_level(L). { A = L; }
txn_mode_item(A) ::= READ ONLY.                  { A = 11; }
txn_mode_item(A) ::= READ WRITE.                 { A = 10; }
txn_mode_item(A) ::= DEFERRABLE.                 { A = 21; }
txn_mode_item(A) ::= NOT DEFERRABLE.             { A = 20; }

%type iso_level {int}
iso_level(A) ::= READ UNCOMMITTED.               { A = 1; }
iso_level(A) ::= READ COMMITTED.                 { A = 2; }
iso_level(A) ::= REPEATABLE READ.                { A = 3; }
iso_level(A) ::= SERIALIZABLE.                   { A = 4; }

%type discard_stmt {sql_stmt_t *}
discard_stmt(A) ::= DISCARD ALL.                 { A = sql__stmt_discard(ctx, SQL_DISCARD_ALL); }
discard_stmt(A) ::= DISCARD PLANS.               { A = sql__stmt_discard(ctx, SQL_DISCARD_PLANS); }
discard_stmt(A) ::= DISCARD SEQUENCES.           { A = sql__stmt_discard(ctx, SQL_DISCARD_SEQUENCES); }
discard_stmt(A) ::= DISCARD TEMP.                { A = sql__stmt_discard(ctx, SQL_DISCARD_TEMP); }
discard_stmt(A) ::= DISCARD TEMPORARY.           { A = sql__stmt_discard(ctx, SQL_DISCARD_TEMP); }

/////////////////////////////////////////////////////////////// CREATE ////

/* Statements whose words PostgreSQL also takes as names (IF, a table named
 * "if") repeat the IF [NOT] EXISTS forms instead of using an empty
 * alternative, so the parser decides on the word after IF, as PostgreSQL's
 * grammar does. cond_name carries the name and whether IF ... was written. */
%type qname {sql_qname_t *}
qname(A) ::= qualified_name(N).                  { A = sql__qname(ctx, N); }

%type qname_list {sql_list_t *}
qname_list(A) ::= qname(N).                      { A = sql__list1(ctx, N); }
qname_list(A) ::= qname_list(L) COMMA qname(N).  { A = sql__list_add(ctx, L, N); }

%type cond_name {sql_cond_t *}
cond_name(A) ::= qname(N).                       { A = sql__cond(ctx, N, NULL, false); }
cond_name(A) ::= IF_P NOT EXISTS qname(N).       { A = sql__cond(ctx, N, NULL, true); }

%type cond_names {sql_cond_t *}
cond_names(A) ::= qname_list(L).                 { A = sql__cond(ctx, NULL, L, false); }
cond_names(A) ::= IF_P EXISTS qname_list(L).     { A = sql__cond(ctx, NULL, L, true); }

%type cond_exists_name {sql_cond_t *}
cond_exists_name(A) ::= qname(N).                { A = sql__cond(ctx, N, NULL, false); }
cond_exists_name(A) ::= IF_P EXISTS qname(N).    { A = sql__cond(ctx, N, NULL, true); }

/* Databases have one-part names, as in PostgreSQL. */
%type cond_simple_name {sql_cond_t *}
cond_simple_name(A) ::= colid(N).                { A = sql__cond(ctx, sql__qname_word(ctx, &N), NULL, false); }
cond_simple_name(A) ::= IF_P NOT EXISTS colid(N). { A = sql__cond(ctx, sql__qname_word(ctx, &N), NULL, true); }

%type opt_column_list {sql_list_t *}
opt_column_list(A) ::= LP name_list(L) RP.       { A = L; }
opt_column_list(A) ::= .                         { A = NULL; }

/* OR REPLACE and TEMP are taken before any object word; the builders
 * reject them where PostgreSQL's grammar has no place for them. Coded:
 * 1 OR REPLACE, 2 TEMP. */
%type create_prefix {int}
create_prefix(A) ::= OR REPLACE opt_temp(T).     { A = 1 | T; }
create_prefix(A) ::= opt_temp(T).                { A = T; }
%type opt_temp {int}
opt_temp(A) ::= TEMP.                            { A = 2; }
opt_temp(A) ::= TEMPORARY.                       { A = 2; }
opt_temp(A) ::= .                                { A = 0; }

%type create_stmt {sql_stmt_t *}
create_stmt(A) ::= CREATE create_prefix(P) TABLE(K) cond_name(N) LP opt_table_elements(E) RP opt_with_options(W).
        { A = sql__create_table(ctx, P, &K, N, E, W); }
create_stmt(A) ::= CREATE create_prefix(P) TABLE(K) cond_name(N) opt_column_list(C) AS select_stmt(Q).
        { A = sql__create_table_as(ctx, P, &K, N, C, Q, -1); }
create_stmt(A) ::= CREATE create_prefix(P) TABLE(K) cond_name(N) opt_column_list(C) AS select_stmt(Q) WITH IDENT(D).
        { A = sql__create_table_as(ctx, P, &K, N, C, Q, sql__word(ctx, &D, "data") ? 1 : -1); }
create_stmt(A) ::= CREATE create_prefix(P) TABLE(K) cond_name(N) opt_column_list(C) AS select_stmt(Q) WITH NO IDENT(D).
        { A = sql__create_table_as(ctx, P, &K, N, C, Q, sql__word(ctx, &D, "data") ? 0 : -1); }
create_stmt(A) ::= CREATE create_prefix(P) TABLE(K) cond_name(N) FROM SOURCE qname(S) LP IDENT(R) colid(X) RP.
        { A = sql__create_table_from_source(ctx, P, &K, N, S, &R, &X); }
create_stmt(A) ::= CREATE create_prefix(P) VIEW cond_name(N) opt_column_list(C) AS select_stmt(Q).
        { A = sql__create_view(ctx, P, false, N, C, Q); }
create_stmt(A) ::= CREATE create_prefix(P) MATERIALIZED VIEW cond_name(N) opt_column_list(C) AS select_stmt(Q).
        { A = sql__create_view(ctx, P, true, N, C, Q); }
create_stmt(A) ::= CREATE SOURCE cond_name(N) opt_column_list(C) FROM source_connector(S).
        { A = sql__create_source(ctx, N, C, S); }
create_stmt(A) ::= CREATE opt_unique(U) INDEX opt_index_name(I) ON qname(T) opt_index_method(M) LP sortby_list(K) RP.
        { A = sql__create_index(ctx, U, I, false, T, M, K); }
create_stmt(A) ::= CREATE opt_unique(U) INDEX IF_P NOT EXISTS colid(I) ON qname(T) opt_index_method(M)
                   LP sortby_list(K) RP.
        { A = sql__create_index(ctx, U, I.str, true, T, M, K); }
create_stmt(A) ::= CREATE DEFAULT INDEX ON qname(T). { A = sql__create_default_index(ctx, T); }
create_stmt(A) ::= CREATE SCHEMA cond_name(N).   { A = sql__create_schema(ctx, SQL_STMT_CREATE_SCHEMA, N); }
create_stmt(A) ::= CREATE DATABASE cond_simple_name(N). { A = sql__create_schema(ctx, SQL_STMT_CREATE_DATABASE, N); }

/* Columns and table constraints, collected into a scratch CREATE TABLE node. */
%type opt_table_elements {sql_create_table_t *}
%type table_elements {sql_create_table_t *}
opt_table_elements(A) ::= table_elements(T).     { A = T; }
opt_table_elements(A) ::= .                      { A = NULL; }
table_elements(A) ::= column_def(C).             { A = sql__table_column(ctx, NULL, C); }
table_elements(A) ::= table_constraint(K).       { A = sql__table_constraint(ctx, NULL, K); }
table_elements(A) ::= table_elements(T) COMMA column_def(C). { A = sql__table_column(ctx, T, C); }
table_elements(A) ::= table_elements(T) COMMA table_constraint(K). { A = sql__table_constraint(ctx, T, K); }

%type column_def {sql_column_def_t *}
column_def(A) ::= colid(N) typename(T) col_constraints(Q). { A = sql__column_def(ctx, &N, T, Q); }

%type col_constraints {sql_list_t *}
col_constraints(A) ::= col_constraints(L) col_constraint(C). { A = sql__list_add(ctx, L, C); }
col_constraints(A) ::= .                         { A = NULL; }

%type col_constraint {sql_constraint_t *}
%type col_constraint_elem {sql_constraint_t *}
col_constraint(A) ::= CONSTRAINT(K) colid(N) col_constraint_elem(C). { A = sql__constraint_name(ctx, &K, &N, C); }
col_constraint(A) ::= col_constraint_elem(C).    { A = C; }
col_constraint_elem(A) ::= NOT(K) NULL.          { A = sql__constraint(ctx, &K, SQL_CONSTR_NOT_NULL, NULL, NULL); }
col_constraint_elem(A) ::= NULL(K).              { A = sql__constraint(ctx, &K, SQL_CONSTR_NULL, NULL, NULL); }
col_constraint_elem(A) ::= UNIQUE(K).            { A = sql__constraint(ctx, &K, SQL_CONSTR_UNIQUE, NULL, NULL); }
col_constraint_elem(A) ::= PRIMARY(K) KEY.       { A = sql__constraint(ctx, &K, SQL_CONSTR_PRIMARY_KEY, NULL, NULL); }
col_constraint_elem(A) ::= CHECK(K) LP a_expr(E) RP. { A = sql__constraint(ctx, &K, SQL_CONSTR_CHECK, E, NULL); }
col_constraint_elem(A) ::= DEFAULT(K) b_expr(E). { A = sql__constraint(ctx, &K, SQL_CONSTR_DEFAULT, E, NULL); }

%type table_constraint {sql_constraint_t *}
%type constraint_elem {sql_constraint_t *}
table_constraint(A) ::= CONSTRAINT(K) colid(N) constraint_elem(C). { A = sql__constraint_name(ctx, &K, &N, C); }
table_constraint(A) ::= constraint_elem(C).      { A = C; }
constraint_elem(A) ::= PRIMARY(K) KEY LP name_list(L) RP.
        { A = sql__constraint(ctx, &K, SQL_CONSTR_PRIMARY_KEY, NULL, L); }
constraint_elem(A) ::= UNIQUE(K) LP name_list(L) RP. { A = sql__constraint(ctx, &K, SQL_CONSTR_UNIQUE, NULL, L); }
constraint_elem(A) ::= CHECK(K) LP a_expr(E) RP. { A = sql__constraint(ctx, &K, SQL_CONSTR_CHECK, E, NULL); }

/* eddy's option lists: WITH (tail = true), (TICK INTERVAL '1s', UP TO 100), WITH (snapshot = false, progress). */
%type opt_with_options {sql_list_t *}
opt_with_options(A) ::= WITH LP with_option_list(L) RP. { A = L; }
opt_with_options(A) ::= .                        { A = NULL; }
%type with_option_list {sql_list_t *}
with_option_list(A) ::= with_option(O).          { A = sql__list1(ctx, O); }
with_option_list(A) ::= with_option_list(L) COMMA with_option(O). { A = sql__list_add(ctx, L, O); }
%type with_option {sql_option_t *}
with_option(A) ::= option_words(N).              { A = sql__option(ctx, N, NULL); }
with_option(A) ::= option_words(N) EQ option_value(V). { A = sql__option(ctx, N, V); }
with_option(A) ::= option_words(N) option_literal(V). { A = sql__option(ctx, N, V); }
/* Names of one or more words: a scratch option whose name grows word by word. */
%type option_words {sql_option_t *}
option_words(A) ::= collabel(W).                 { A = sql__option_word(ctx, NULL, &W); }
option_words(A) ::= option_words(L) collabel(W). { A = sql__option_word(ctx, L, &W); }
%type option_literal {sql_expr_t *}
option_literal(A) ::= SCONST(T).                 { A = sql__const_string(ctx, &T); }
option_literal(A) ::= numeric_only(V).           { A = V; }
%type option_value {sql_expr_t *}
option_value(A) ::= option_literal(V).           { A = V; }
option_value(A) ::= TRUE(T).                     { A = sql__const_bool(ctx, &T, true); }
option_value(A) ::= FALSE(T).                    { A = sql__const_bool(ctx, &T, false); }
option_value(A) ::= nonreserved_word(W).         { A = sql__const_word(ctx, &W, NULL); }

/* PostgreSQL's generic option lists (COPY, EXPLAIN): one word, then an optional value. */
%type generic_option_arg {sql_expr_t *}
generic_option_arg(A) ::= option_value(V).       { A = V; }
generic_option_arg(A) ::= ON(T).                 { A = sql__const_word(ctx, &T, "on"); }

///////////////////////////////////////////////////////// CREATE SOURCE ////

%type source_connector {sql_create_source_t *}
source_connector(A) ::= FILE SCONST(P) opt_with_options(W) FORMAT source_format(F).
        { A = sql__source_file(ctx, &P, W, F); }
source_connector(A) ::= LOAD GENERATOR load_generator(G) opt_generator_options(O).
        { A = sql__source_generator(ctx, G, O); }
source_connector(A) ::= KAFKA BROKER SCONST(B) TOPIC SCONST(T) opt_with_options(W) FORMAT source_format(F).
        { A = sql__source_kafka(ctx, &B, &T, W, F); }

%type load_generator {int}
load_generator(A) ::= COUNTER.                   { A = SQL_GEN_COUNTER; }
load_generator(A) ::= AUCTION.                   { A = SQL_GEN_AUCTION; }
load_generator(A) ::= TPCH.                      { A = SQL_GEN_TPCH; }

%type opt_generator_options {sql_list_t *}
opt_generator_options(A) ::= LP with_option_list(L) RP. { A = L; }
opt_generator_options(A) ::= .                   { A = NULL; }

/* The format parts travel in a scratch CREATE SOURCE node. */
%type source_format {sql_create_source_t *}
source_format(A) ::= CSV(K) WITH HEADER opt_delimited(D). { A = sql__source_format(ctx, &K, SQL_FORMAT_CSV, 1, NULL, D); }
source_format(A) ::= CSV(K) WITH ICONST(N) COLUMNS opt_delimited(D).
        { A = sql__source_format(ctx, &K, SQL_FORMAT_CSV, 0, &N, D); }
source_format(A) ::= CSV(K) opt_delimited(D).   { A = sql__source_format(ctx, &K, SQL_FORMAT_CSV, 0, NULL, D); }
source_format(A) ::= TEXT(K).                    { A = sql__source_format(ctx, &K, SQL_FORMAT_TEXT, 0, NULL, NULL); }
source_format(A) ::= JSON(K).                    { A = sql__source_format(ctx, &K, SQL_FORMAT_JSON, 0, NULL, NULL); }
source_format(A) ::= BYTES(K).                   { A = sql__source_format(ctx, &K, SQL_FORMAT_BYTES, 0, NULL, NULL); }
source_format(A) ::= REGEX(K) SCONST(R).         { A = sql__source_format(ctx, &K, SQL_FORMAT_REGEX, 0, NULL, &R); }

%type opt_delimited {sql_token_t *}
opt_delimited(A) ::= DELIMITED BY SCONST(D).     { A = sql__token_copy(ctx, &D); }
opt_delimited(A) ::= .                           { A = NULL; }

///////////////////////////////////////////////////////////////// INDEX ////

%type opt_unique {int}
opt_unique(A) ::= UNIQUE.                        { A = 1; }
opt_unique(A) ::= .                              { A = 0; }

%type opt_index_name {const char *}
opt_index_name(A) ::= colid(N).                  { A = N.str; }
opt_index_name(A) ::= .                          { A = NULL; }

%type opt_index_method {const char *}
opt_index_method(A) ::= USING colid(N).          { A = N.str; }
opt_index_method(A) ::= .                        { A = NULL; }

////////////////////////////////////////////////////////// DROP / ALTER ////

%type drop_stmt {sql_stmt_t *}
drop_stmt(A) ::= DROP object_type(O) cond_names(N) opt_drop_behavior(B). { A = sql__drop(ctx, O, N, B); }

%type object_type {int}
object_type(A) ::= TABLE.                        { A = SQL_OBJ_TABLE; }
object_type(A) ::= SOURCE.                       { A = SQL_OBJ_SOURCE; }
object_type(A) ::= VIEW.                         { A = SQL_OBJ_VIEW; }
object_type(A) ::= MATERIALIZED VIEW.            { A = SQL_OBJ_MATERIALIZED_VIEW; }
object_type(A) ::= INDEX.                        { A = SQL_OBJ_INDEX; }
object_type(A) ::= SCHEMA.                       { A = SQL_OBJ_SCHEMA; }
object_type(A) ::= DATABASE.                     { A = SQL_OBJ_DATABASE; }

%type opt_drop_behavior {int}
opt_drop_behavior(A) ::= CASCADE.                { A = SQL_DROP_CASCADE; }
opt_drop_behavior(A) ::= RESTRICT.               { A = SQL_DROP_RESTRICT; }
opt_drop_behavior(A) ::= .                       { A = SQL_DROP_DEFAULT; }

////////////////////////////////////////////////////////////////// ROLES ////

/* ROLE, PASSWORD, LOGIN, ... are plain words here (PostgreSQL's unreserved
 * keywords): the options are a flat sequence that sql__role_options reads,
 * which keeps the grammar free of conflicts between one-word and two-word
 * options. */
%type role_stmt {sql_stmt_t *}
role_stmt(A) ::= CREATE IDENT(K) colid(N) opt_with role_elems(E).
        { A = sql__role(ctx, SQL_STMT_CREATE_ROLE, &K, &N, E, false); }
role_stmt(A) ::= CREATE USER colid(N) opt_with role_elems(E).
        { A = sql__role(ctx, SQL_STMT_CREATE_ROLE, NULL, &N, E, true); }
role_stmt(A) ::= ALTER IDENT(K) colid(N) opt_with role_elems(E).
        { A = sql__role(ctx, SQL_STMT_ALTER_ROLE, &K, &N, E, false); }
role_stmt(A) ::= ALTER USER colid(N) opt_with role_elems(E).
        { A = sql__role(ctx, SQL_STMT_ALTER_ROLE, NULL, &N, E, true); }
role_stmt(A) ::= ALTER IDENT(K) colid(N) SET set_rest_more(S).
        { A = sql__role_setting(ctx, &K, &N, S, false); }
role_stmt(A) ::= ALTER USER colid(N) SET set_rest_more(S).
        { A = sql__role_setting(ctx, NULL, &N, S, true); }
role_stmt(A) ::= ALTER IDENT(K) colid(N) reset_stmt(S).
        { A = sql__role_setting(ctx, &K, &N, S, false); }
role_stmt(A) ::= ALTER USER colid(N) reset_stmt(S).
        { A = sql__role_setting(ctx, NULL, &N, S, true); }
role_stmt(A) ::= DROP IDENT(K) role_list(L).     { A = sql__drop_role(ctx, &K, L, false); }
role_stmt(A) ::= DROP IDENT(K) IF_P EXISTS role_list(L). { A = sql__drop_role(ctx, &K, L, true); }
role_stmt(A) ::= DROP USER role_list(L).         { A = sql__drop_role(ctx, NULL, L, false); }
role_stmt(A) ::= DROP USER IF_P EXISTS role_list(L). { A = sql__drop_role(ctx, NULL, L, true); }
/* REASSIGN and OWNED are plain words too (PostgreSQL's unreserved keywords); REASSIGN_LA is a
 * statement's first word REASSIGN (sql_parse.c), so that no other statement starts with a word. */
role_stmt(A) ::= REASSIGN_LA(K) IDENT(O) BY rolespec_list(L) TO role_spec(R).
        { A = sql__reassign_owned(ctx, &K, &O, L, R); }
/* OWNED after DROP is OWNED_LA (sql_parse.c), which keeps DROP OWNED apart from DROP ROLE's rule. */
role_stmt(A) ::= DROP OWNED_LA(O) BY rolespec_list(L) opt_drop_behavior(B).
        { A = sql__drop_owned(ctx, &O, L, B); }
/* GRANT role TO role shares its first list with GRANT privileges ON, as in
 * PostgreSQL's grammar: which it is shows at TO or ON. */
role_stmt(A) ::= GRANT priv_list(R) TO role_list(M). { A = sql__grant_role(ctx, false, R, M, NULL); }
role_stmt(A) ::= GRANT priv_list(R) TO role_list(M) WITH IDENT(W) IDENT(O).
        { A = sql__grant_role(ctx, false, R, M, &W); (void)O; }
role_stmt(A) ::= REVOKE priv_list(R) FROM role_list(M) opt_drop_behavior.
        { A = sql__grant_role(ctx, true, R, M, NULL); }

/////////////////////////////////////////////////// GRANT / REVOKE privileges ////

%type grant_stmt {sql_stmt_t *}
grant_stmt(A) ::= GRANT(K) privileges(P) ON grant_target(T) TO grantee_list(G) opt_grant_option(O).
        { A = sql__grant(ctx, &K, false, O, P, T, G, SQL_DROP_DEFAULT); }
grant_stmt(A) ::= REVOKE(K) privileges(P) ON grant_target(T) FROM grantee_list(G) opt_drop_behavior(B).
        { A = sql__grant(ctx, &K, true, false, P, T, G, B); }
grant_stmt(A) ::= REVOKE(K) GRANT IDENT(O) FOR privileges(P) ON grant_target(T) FROM grantee_list(G)
                  opt_drop_behavior(B).
        { A = sql__grant_option_for(ctx, &K, &O, P, T, G, B); }

/* ALTER DEFAULT PRIVILEGES [FOR {ROLE | USER} r, ...] [IN SCHEMA s, ...] GRANT / REVOKE ... ON
 * {TABLES | SEQUENCES | FUNCTIONS | ROUTINES | TYPES | SCHEMAS}. */
grant_stmt(A) ::= ALTER DEFAULT IDENT(P) defacl_options(O) GRANT(K) privileges(V) ON defacl_target(T) TO
                  grantee_list(G) opt_grant_option(W).
        { O->defacl_objtype = T;
          A = sql__default_privileges(ctx, &P, O, sql__grant(ctx, &K, false, W, V, O, G, SQL_DROP_DEFAULT)); }
grant_stmt(A) ::= ALTER DEFAULT IDENT(P) defacl_options(O) REVOKE(K) privileges(V) ON defacl_target(T) FROM
                  grantee_list(G) opt_drop_behavior(B).
        { O->defacl_objtype = T; A = sql__default_privileges(ctx, &P, O, sql__grant(ctx, &K, true, false, V, O, G, B)); }
grant_stmt(A) ::= ALTER DEFAULT IDENT(P) defacl_options(O) REVOKE(K) GRANT IDENT(X) FOR privileges(V) ON
                  defacl_target(T) FROM grantee_list(G) opt_drop_behavior(B).
        { O->defacl_objtype = T; A = sql__default_privileges(ctx, &P, O, sql__grant_option_for(ctx, &K, &X, V, O, G, B)); }

/* pg_default_acl's object type: FUNCTIONS, ROUTINES and TYPES are plain words here. */
%type defacl_target {char}
defacl_target(A) ::= TABLES.                     { A = 'r'; }
defacl_target(A) ::= SEQUENCES.                  { A = 'S'; }
defacl_target(A) ::= SCHEMAS.                    { A = 'n'; }
defacl_target(A) ::= IDENT(W).                   { A = sql__defacl_objtype(ctx, &W); }

%type defacl_options {sql_grant_t *}
defacl_options(A) ::= .                          { A = sql__grant_target(ctx, SQL_GRANT_DEFAULT_TABLES, NULL); }
defacl_options(A) ::= defacl_options(L) FOR IDENT(R) rolespec_list(X). { A = sql__defacl_roles(ctx, L, &R, X); }
defacl_options(A) ::= defacl_options(L) FOR USER rolespec_list(X). { A = sql__defacl_roles(ctx, L, NULL, X); }
defacl_options(A) ::= defacl_options(L) IN SCHEMA name_list(N). { A = sql__defacl_schemas(ctx, L, N); }

%type rolespec_list {sql_list_t *}
rolespec_list(A) ::= role_spec(R).               { A = sql__list1(ctx, R); }
rolespec_list(A) ::= rolespec_list(L) COMMA role_spec(R). { A = sql__list_add(ctx, L, R); }

/* NULL: ALL [PRIVILEGES]; ALL [PRIVILEGES] (columns) is one sql_priv_t without a name. */
%type privileges {sql_list_t *}
privileges(A) ::= priv_list(L).                  { A = L; }
privileges(A) ::= ALL.                           { A = NULL; }
privileges(A) ::= ALL IDENT(P).                  { A = sql__all_privileges(ctx, &P); }
privileges(A) ::= ALL LP name_list(C) RP.        { A = sql__list1(ctx, sql__priv(ctx, NULL, C)); }
privileges(A) ::= ALL IDENT(P) LP name_list(C) RP. { sql__all_privileges(ctx, &P); A = sql__list1(ctx, sql__priv(ctx, NULL, C)); }

%type priv_list {sql_list_t *}
priv_list(A) ::= priv_word(W) opt_column_list(C). { A = sql__list1(ctx, sql__priv(ctx, W, C)); }
priv_list(A) ::= priv_list(L) COMMA priv_word(W) opt_column_list(C). { A = sql__list_add(ctx, L, sql__priv(ctx, W, C)); }
%type priv_word {const char *}
priv_word(A) ::= colid(N).                       { A = N.str; }
priv_word(A) ::= SELECT.                         { A = "select"; }
priv_word(A) ::= CREATE.                         { A = "create"; }
priv_word(A) ::= REFERENCES.                     { A = "references"; }

%type opt_grant_option {bool}
opt_grant_option(A) ::= WITH GRANT IDENT(O).     { A = sql__word_is(ctx, &O, "option"); }
opt_grant_option(A) ::= .                        { A = false; }

%type grant_target {sql_grant_t *}
grant_target(A) ::= qname_list(L).               { A = sql__grant_target(ctx, SQL_GRANT_TABLE, L); }
grant_target(A) ::= TABLE qname_list(L).         { A = sql__grant_target(ctx, SQL_GRANT_TABLE, L); }
grant_target(A) ::= SCHEMA name_list(L).         { A = sql__grant_target(ctx, SQL_GRANT_SCHEMA, L); }
grant_target(A) ::= DATABASE name_list(L).       { A = sql__grant_target(ctx, SQL_GRANT_DATABASE, L); }
grant_target(A) ::= ALL TABLES IN SCHEMA name_list(L). { A = sql__grant_target(ctx, SQL_GRANT_ALL_TABLES, L); }

%type grantee_list {sql_list_t *}
grantee_list(A) ::= grantee(R).                  { A = sql__list1(ctx, R); }
grantee_list(A) ::= grantee_list(L) COMMA grantee(R). { A = sql__list_add(ctx, L, R); }
%type grantee {sql_rolespec_t *}
grantee(A) ::= role_spec(R).                     { A = R; }
grantee(A) ::= GROUP role_spec(R).               { A = R; }

opt_with ::= WITH.
opt_with ::= .

%type role_list {sql_list_t *}
role_list(A) ::= colid(N).                       { A = sql__list1(ctx, (void *)N.str); }
role_list(A) ::= role_list(L) COMMA colid(N).    { A = sql__list_add(ctx, L, (void *)N.str); }

%type role_elems {sql_list_t *}
role_elems(A) ::= role_elems(L) role_elem(E).    { A = sql__list_add(ctx, L, E); }
role_elems(A) ::= .                              { A = NULL; }
%type role_elem {sql_token_t *}
role_elem(A) ::= IDENT(T).                       { A = sql__token_copy(ctx, &T); }
role_elem(A) ::= SCONST(T).                      { A = sql__token_copy(ctx, &T); }
role_elem(A) ::= NULL(T).                        { A = sql__token_copy(ctx, &T); }
role_elem(A) ::= LIMIT(T).                       { A = sql__token_copy(ctx, &T); }
role_elem(A) ::= ICONST(T).                      { A = sql__token_copy(ctx, &T); }
role_elem(A) ::= MINUS(T).                       { A = sql__token_copy(ctx, &T); }

%type alter_stmt {sql_stmt_t *}
alter_stmt(A) ::= ALTER object_type(O) cond_exists_name(N) RENAME TO colid(X).
        { A = sql__alter_rename(ctx, O, N, NULL, &X); }
alter_stmt(A) ::= ALTER object_type(O) cond_exists_name(N) RENAME opt_column colid(C) TO colid(X).
        { A = sql__alter_rename(ctx, O, N, &C, &X); }
opt_column ::= COLUMN.
opt_column ::= .
/* OWNER is no keyword here (PostgreSQL's is unreserved): the word is checked when built. */
alter_stmt(A) ::= ALTER object_type(O) cond_exists_name(N) IDENT(K) TO role_spec(R).
        { A = sql__alter_owner(ctx, O, N, &K, R); }

%type role_spec {sql_rolespec_t *}
role_spec(A) ::= colid(N).                       { A = sql__rolespec(ctx, &N, SQL_ROLESPEC_NAME); }
role_spec(A) ::= CURRENT_USER(T).                { A = sql__rolespec(ctx, &T, SQL_ROLESPEC_CURRENT_USER); }
role_spec(A) ::= CURRENT_ROLE(T).                { A = sql__rolespec(ctx, &T, SQL_ROLESPEC_CURRENT_USER); }
role_spec(A) ::= SESSION_USER(T).                { A = sql__rolespec(ctx, &T, SQL_ROLESPEC_SESSION_USER); }

/////////////////////////////////////////////////// INSERT / UPDATE / DELETE ////

%type insert_stmt {sql_stmt_t *}
insert_stmt(A) ::= INSERT INTO insert_target(T) insert_rest(R) opt_on_conflict(C) returning_clause(X).
        { A = sql__insert(ctx, T, R, C, X); }

/* The target and the alias in a scratch FROM item. */
%type insert_target {sql_from_t *}
insert_target(A) ::= qualified_name(N).          { A = sql__from_relation(ctx, N, NULL); }
insert_target(A) ::= qualified_name(N) AS colid(L). { A = sql__from_relation(ctx, N, sql__alias(ctx, L.str, NULL)); }

/* The column list and the source in a scratch INSERT node. */
%type insert_rest {sql_insert_t *}
insert_rest(A) ::= select_stmt(S).               { A = sql__insert_rest(ctx, NULL, S); }
insert_rest(A) ::= LP insert_column_list(L) RP select_stmt(S). { A = sql__insert_rest(ctx, L, S); }
insert_rest(A) ::= DEFAULT VALUES.               { A = sql__insert_rest(ctx, NULL, NULL); }

%type insert_column_list {sql_list_t *}
insert_column_list(A) ::= colid(N).              { A = sql__list1(ctx, sql__assign(ctx, &N, NULL)); }
insert_column_list(A) ::= insert_column_list(L) COMMA colid(N). { A = sql__list_add(ctx, L, sql__assign(ctx, &N, NULL)); }
insert_column_list(A) ::= colid(N) DOT colid(F). { A = sql__list1(ctx, sql__assign(ctx, &N, NULL)); ((sql_assign_t *)A->items[0])->field = F.str; }
insert_column_list(A) ::= insert_column_list(L) COMMA colid(N) DOT colid(F).
        { A = sql__list_add(ctx, L, sql__assign(ctx, &N, NULL)); ((sql_assign_t *)A->items[A->count - 1])->field = F.str; }

/* ON CONFLICT: parsed so that the binder can say it is not supported yet, at its place. */
%type opt_on_conflict {sql_on_conflict_t *}
opt_on_conflict(A) ::= ON(K) CONFLICT opt_conf_expr(E) DO NOTHING. { A = sql__on_conflict(ctx, &K, E, false, NULL, NULL); }
opt_on_conflict(A) ::= ON(K) CONFLICT opt_conf_expr(E) DO UPDATE SET set_clause_list(S) where_clause(W).
        { A = sql__on_conflict(ctx, &K, E, true, S, W); }
opt_on_conflict(A) ::= .                         { A = NULL; }
%type opt_conf_expr {sql_on_conflict_t *}
opt_conf_expr(A) ::= LP sortby_list(L) RP where_clause(W). { A = sql__conf_expr(ctx, L, W, NULL); }
opt_conf_expr(A) ::= ON CONSTRAINT colid(N).     { A = sql__conf_expr(ctx, NULL, NULL, &N); }
opt_conf_expr(A) ::= .                           { A = sql__conf_expr(ctx, NULL, NULL, NULL); }

%type returning_clause {sql_list_t *}
returning_clause(A) ::= RETURNING target_list(L). { A = L; }
returning_clause(A) ::= .                        { A = NULL; }

%type update_stmt {sql_stmt_t *}
update_stmt(A) ::= UPDATE relation_opt_alias(T) SET set_clause_list(S) from_clause(F) where_clause(W)
                   returning_clause(X).
        { A = sql__update(ctx, T, S, F, W, X); }

/* UPDATE t set ...: SET binds as the keyword (see the precedence of SET). */
%type relation_opt_alias {sql_from_t *}
relation_opt_alias(A) ::= qualified_name(N). [UMINUS] { A = sql__from_relation(ctx, N, NULL); }
relation_opt_alias(A) ::= qualified_name(N) colid(L). { A = sql__from_relation(ctx, N, sql__alias(ctx, L.str, NULL)); }
relation_opt_alias(A) ::= qualified_name(N) AS colid(L). { A = sql__from_relation(ctx, N, sql__alias(ctx, L.str, NULL)); }

%type set_clause_list {sql_list_t *}
set_clause_list(A) ::= set_clause(C).            { A = sql__list1(ctx, C); }
set_clause_list(A) ::= set_clause_list(L) COMMA set_clause(C). { A = sql__list_add(ctx, L, C); }
%type set_clause {sql_assign_t *}
set_clause(A) ::= colid(N) EQ a_expr(E).         { A = sql__assign(ctx, &N, E); }
set_clause(A) ::= colid(N) DOT colid(F) EQ a_expr(E). { A = sql__assign(ctx, &N, E); A->field = F.str; }
set_clause(A) ::= LP(K) set_target_list(L) RP EQ a_expr(E). { A = sql__assign_multi(ctx, &K, L, E); }
%type set_target_list {sql_list_t *}
set_target_list(A) ::= colid(N).                 { A = sql__list1(ctx, sql__assign(ctx, &N, NULL)); }
set_target_list(A) ::= set_target_list(L) COMMA colid(N). { A = sql__list_add(ctx, L, sql__assign(ctx, &N, NULL)); }

%type delete_stmt {sql_stmt_t *}
delete_stmt(A) ::= DELETE FROM relation_opt_alias(T) using_clause(U) where_clause(W) returning_clause(X).
        { A = sql__delete(ctx, T, U, W, X); }
%type using_clause {sql_list_t *}
using_clause(A) ::= USING from_list(L).          { A = L; }
using_clause(A) ::= .                            { A = NULL; }

/* TRUNCATE: ONLY and t * are accepted and mean nothing more (eddy has no inheritance). */
%type truncate_stmt {sql_stmt_t *}
truncate_stmt(A) ::= TRUNCATE opt_table truncate_list(L) opt_restart_seqs(R) opt_drop_behavior(B).
        { A = sql__truncate(ctx, L, R, B); }
opt_table ::= TABLE.
opt_table ::= .
%type truncate_list {sql_list_t *}
truncate_list(A) ::= truncate_rel(N).            { A = sql__list1(ctx, N); }
truncate_list(A) ::= truncate_list(L) COMMA truncate_rel(N). { A = sql__list_add(ctx, L, N); }
%type truncate_rel {sql_qname_t *}
truncate_rel(A) ::= qname(N).                    { A = N; }
truncate_rel(A) ::= qname(N) STAR.               { A = N; }
truncate_rel(A) ::= ONLY qname(N).               { A = N; }
%type opt_restart_seqs {bool}
opt_restart_seqs(A) ::= RESTART IDENTITY.        { A = true; }
opt_restart_seqs(A) ::= CONTINUE IDENTITY.       { A = false; }
opt_restart_seqs(A) ::= .                        { A = false; }

////////////////////////////////////////////////////// COPY / SUBSCRIBE ////

%type copy_stmt {sql_stmt_t *}
copy_stmt(A) ::= COPY qname(T) opt_column_list(C) FROM STDIN copy_options(O).
        { A = sql__copy(ctx, T, C, NULL, NULL, false, O); }
copy_stmt(A) ::= COPY qname(T) opt_column_list(C) TO STDOUT copy_options(O).
        { A = sql__copy(ctx, T, C, NULL, NULL, true, O); }
copy_stmt(A) ::= COPY select_with_parens(Q) TO STDOUT copy_options(O).
        { A = sql__copy(ctx, NULL, NULL, Q, NULL, true, O); }
copy_stmt(A) ::= COPY LP subscribe_stmt(S) RP TO STDOUT copy_options(O).
        { A = sql__copy(ctx, NULL, NULL, NULL, S, true, O); }

/* PostgreSQL's [WITH] (name value, ...) and the older WITH CSV HEADER ... forms, as one option list. */
%type copy_options {sql_list_t *}
copy_options(A) ::= WITH LP copy_generic_list(L) RP. { A = L; }
copy_options(A) ::= LP copy_generic_list(L) RP.  { A = L; }
copy_options(A) ::= WITH copy_legacy_list(L).    { A = L; }
copy_options(A) ::= copy_legacy_list(L).         { A = L; }
copy_options(A) ::= .                            { A = NULL; }
%type copy_generic_list {sql_list_t *}
copy_generic_list(A) ::= copy_generic(O).        { A = sql__list1(ctx, O); }
copy_generic_list(A) ::= copy_generic_list(L) COMMA copy_generic(O). { A = sql__list_add(ctx, L, O); }
%type copy_generic {sql_option_t *}
copy_generic(A) ::= collabel(N).                 { A = sql__option(ctx, sql__option_word(ctx, NULL, &N), NULL); }
copy_generic(A) ::= collabel(N) generic_option_arg(V). { A = sql__option(ctx, sql__option_word(ctx, NULL, &N), V); }
copy_generic(A) ::= collabel(N) LP name_list(L) RP. { A = sql__option_word(ctx, NULL, &N); A->names = L; }
copy_generic(A) ::= collabel(N) STAR.            { A = sql__option_word(ctx, NULL, &N); A->star = true; }
%type copy_legacy_list {sql_list_t *}
copy_legacy_list(A) ::= copy_legacy(O).          { A = sql__list1(ctx, O); }
copy_legacy_list(A) ::= copy_legacy_list(L) copy_legacy(O). { A = sql__list_add(ctx, L, O); }
%type copy_legacy {sql_option_t *}
copy_legacy(A) ::= BINARY(K).                    { A = sql__option_legacy(ctx, &K, "format", "binary"); }
copy_legacy(A) ::= CSV(K).                       { A = sql__option_legacy(ctx, &K, "format", "csv"); }
copy_legacy(A) ::= FREEZE(K).                    { A = sql__option_legacy(ctx, &K, "freeze", NULL); }
copy_legacy(A) ::= HEADER(K).                    { A = sql__option_legacy(ctx, &K, "header", NULL); }
copy_legacy(A) ::= DELIMITER(K) opt_as SCONST(S). { A = sql__option_legacy_str(ctx, &K, "delimiter", &S); }
copy_legacy(A) ::= NULL(K) opt_as SCONST(S).     { A = sql__option_legacy_str(ctx, &K, "null", &S); }
copy_legacy(A) ::= QUOTE(K) opt_as SCONST(S).    { A = sql__option_legacy_str(ctx, &K, "quote", &S); }
copy_legacy(A) ::= ESCAPE(K) opt_as SCONST(S).   { A = sql__option_legacy_str(ctx, &K, "escape", &S); }
opt_as ::= AS.
opt_as ::= .

%type subscribe_stmt {sql_subscribe_t *}
subscribe_stmt(A) ::= SUBSCRIBE opt_to qname(N) opt_with_options(W). { A = sql__subscribe(ctx, N, NULL, W); }
subscribe_stmt(A) ::= SUBSCRIBE opt_to select_with_parens(Q) opt_with_options(W). { A = sql__subscribe(ctx, NULL, Q, W); }
opt_to ::= TO.
opt_to ::= .

////////////////////////////////////////////// SHOW objects / EXPLAIN ////

/* SHOW_LA: SHOW followed by an object word (the driver looks ahead), so
 * SHOW TABLES lists tables while SHOW name still shows a setting. */
%type show_object_stmt {sql_stmt_t *}
show_object_stmt(A) ::= SHOW_LA show_objects(O) show_from(F) show_filter(X).
        { A = sql__show(ctx, SQL_STMT_SHOW_OBJECTS, O, NULL, F, X); }
show_object_stmt(A) ::= SHOW_LA index_word ON qname(N) show_from(F) show_filter(X).
        { A = sql__show(ctx, SQL_STMT_SHOW_OBJECTS, SQL_OBJ_INDEX, N, F, X); }
show_object_stmt(A) ::= SHOW_LA index_word show_from(F) show_filter(X).
        { A = sql__show(ctx, SQL_STMT_SHOW_OBJECTS, SQL_OBJ_INDEX, F ? F->on : NULL, NULL, X); }
show_object_stmt(A) ::= SHOW_LA COLUMNS FROM qname(N) show_filter(X).
        { A = sql__show(ctx, SQL_STMT_SHOW_COLUMNS, SQL_OBJ_TABLE, N, NULL, X); }
show_object_stmt(A) ::= SHOW_LA COLUMNS IN qname(N) show_filter(X).
        { A = sql__show(ctx, SQL_STMT_SHOW_COLUMNS, SQL_OBJ_TABLE, N, NULL, X); }
show_object_stmt(A) ::= SHOW_LA CREATE show_create_object(O) qname(N).
        { A = sql__show(ctx, SQL_STMT_SHOW_CREATE, O, N, NULL, NULL); }

%type show_objects {int}
show_objects(A) ::= SOURCES.                     { A = SQL_OBJ_SOURCE; }
show_objects(A) ::= TABLES.                      { A = SQL_OBJ_TABLE; }
show_objects(A) ::= VIEWS.                       { A = SQL_OBJ_VIEW; }
show_objects(A) ::= MATERIALIZED VIEWS.          { A = SQL_OBJ_MATERIALIZED_VIEW; }
show_objects(A) ::= OBJECTS.                     { A = SQL_OBJ_OBJECT; }
show_objects(A) ::= SCHEMAS.                     { A = SQL_OBJ_SCHEMA; }
show_objects(A) ::= DATABASES.                   { A = SQL_OBJ_DATABASE; }
index_word ::= INDEXES.
index_word ::= INDEX.

%type show_create_object {int}
show_create_object(A) ::= TABLE.                 { A = SQL_OBJ_TABLE; }
show_create_object(A) ::= SOURCE.                { A = SQL_OBJ_SOURCE; }
show_create_object(A) ::= VIEW.                  { A = SQL_OBJ_VIEW; }
show_create_object(A) ::= MATERIALIZED VIEW.     { A = SQL_OBJ_MATERIALIZED_VIEW; }
show_create_object(A) ::= INDEX.                 { A = SQL_OBJ_INDEX; }

/* FROM/IN name, and the filter, in scratch SHOW nodes. */
%type show_from {sql_show_t *}
show_from(A) ::= FROM qname(N).                  { A = sql__show_part(ctx, N, NULL, NULL); }
show_from(A) ::= IN qname(N).                    { A = sql__show_part(ctx, N, NULL, NULL); }
show_from(A) ::= .                               { A = NULL; }
%type show_filter {sql_show_t *}
show_filter(A) ::= LIKE SCONST(P).               { A = sql__show_part(ctx, NULL, sql__const_string(ctx, &P), NULL); }
show_filter(A) ::= WHERE a_expr(E).              { A = sql__show_part(ctx, NULL, NULL, E); }
show_filter(A) ::= .                             { A = NULL; }

%type explain_stmt {sql_stmt_t *}
explain_stmt(A) ::= EXPLAIN explainable(E).      { A = sql__explain(ctx, E, NULL, false); }
explain_stmt(A) ::= EXPLAIN analyze_word(K) explainable(E).
        { A = sql__explain(ctx, E, sql__list1(ctx, sql__option_legacy(ctx, &K, "analyze", NULL)), false); }
explain_stmt(A) ::= EXPLAIN analyze_word(K) VERBOSE(V) explainable(E).
        { A = sql__explain(ctx, E, sql__list_add(ctx, sql__list1(ctx, sql__option_legacy(ctx, &K, "analyze", NULL)),
                                                 sql__option_legacy(ctx, &V, "verbose", NULL)), false); }
explain_stmt(A) ::= EXPLAIN VERBOSE(V) explainable(E).
        { A = sql__explain(ctx, E, sql__list1(ctx, sql__option_legacy(ctx, &V, "verbose", NULL)), false); }
explain_stmt(A) ::= EXPLAIN LP explain_option_list(L) RP explainable(E). { A = sql__explain(ctx, E, L, false); }
explain_stmt(A) ::= EXPLAIN PLAN FOR explainable(E). { A = sql__explain(ctx, E, NULL, true); }
/* Materialize's EXPLAIN PHYSICAL PLAN FOR: PHYSICAL is no keyword, so a word here must be it. */
explain_stmt(A) ::= EXPLAIN IDENT(K) PLAN FOR explainable(E). { A = sql__explain_physical(ctx, &K, E); }

%type analyze_word {sql_token_t}
analyze_word(A) ::= ANALYZE(T).                  { A = T; }
analyze_word(A) ::= ANALYSE(T).                  { A = T; }

%type explain_option_list {sql_list_t *}
explain_option_list(A) ::= explain_option(O).    { A = sql__list1(ctx, O); }
explain_option_list(A) ::= explain_option_list(L) COMMA explain_option(O). { A = sql__list_add(ctx, L, O); }
%type explain_option {sql_option_t *}
explain_option(A) ::= explain_option_name(N).    { A = sql__option(ctx, sql__option_word(ctx, NULL, &N), NULL); }
explain_option(A) ::= explain_option_name(N) generic_option_arg(V).
        { A = sql__option(ctx, sql__option_word(ctx, NULL, &N), V); }
%type explain_option_name {sql_token_t}
explain_option_name(A) ::= nonreserved_word(N).  { A = N; }
explain_option_name(A) ::= analyze_word(N).      { A = N; }

/* What EXPLAIN takes: a statement, or a view or index by name (Materialize). */
%type explainable {sql_explain_t *}
explainable(A) ::= select_stmt(S).               { A = sql__explainable(ctx, sql__stmt_select(ctx, S), 0, NULL); }
explainable(A) ::= insert_stmt(S).               { A = sql__explainable(ctx, S, 0, NULL); }
explainable(A) ::= update_stmt(S).               { A = sql__explainable(ctx, S, 0, NULL); }
explainable(A) ::= delete_stmt(S).               { A = sql__explainable(ctx, S, 0, NULL); }
explainable(A) ::= create_stmt(S).               { A = sql__explainable(ctx, S, 0, NULL); }
explainable(A) ::= execute_stmt(S).              { A = sql__explainable(ctx, S, 0, NULL); }
explainable(A) ::= VIEW qname(N).                { A = sql__explainable(ctx, NULL, SQL_OBJ_VIEW, N); }
explainable(A) ::= MATERIALIZED VIEW qname(N).   { A = sql__explainable(ctx, NULL, SQL_OBJ_MATERIALIZED_VIEW, N); }
explainable(A) ::= INDEX qname(N).               { A = sql__explainable(ctx, NULL, SQL_OBJ_INDEX, N); }

////////////////////////////////////////////////// DECLARE / FETCH / CLOSE ////

/* Cursors, as PostgreSQL spells them (forward only), over SUBSCRIBE as Materialize has them:
 * FETCH takes Materialize's WITH (timeout = ...). The directions are spelled out rule by rule
 * so that NEXT or FORWARD alone can still name a cursor. */
%type cursor_stmt {sql_stmt_t *}
cursor_stmt(A) ::= DECLARE colid(N) cursor_options CURSOR opt_hold(H) FOR subscribe_stmt(S).
        { A = sql__declare(ctx, &N, S, NULL, H); }
cursor_stmt(A) ::= DECLARE colid(N) cursor_options CURSOR opt_hold(H) FOR select_stmt(Q).
        { A = sql__declare(ctx, &N, NULL, Q, H); }
cursor_stmt(A) ::= FETCH fetch_args(F) opt_with_options(W). { A = sql__fetch_with(F, W); }
cursor_stmt(A) ::= CLOSE colid(N).               { A = sql__close(ctx, &N); }
cursor_stmt(A) ::= CLOSE ALL.                    { A = sql__close(ctx, NULL); }
cursor_options ::= .
cursor_options ::= cursor_options NO SCROLL.
%type opt_hold {bool}
opt_hold(A) ::= .                                { A = false; }
opt_hold(A) ::= WITHOUT HOLD.                    { A = false; }
opt_hold(A) ::= WITH HOLD.                       { A = true; }
%type fetch_args {sql_stmt_t *}
fetch_args(A) ::= colid(N).                      { A = sql__fetch(ctx, &N, 1); }
fetch_args(A) ::= from_in colid(N).              { A = sql__fetch(ctx, &N, 1); }
fetch_args(A) ::= NEXT opt_from_in colid(N).     { A = sql__fetch(ctx, &N, 1); }
fetch_args(A) ::= FORWARD opt_from_in colid(N).  { A = sql__fetch(ctx, &N, 1); }
fetch_args(A) ::= ALL opt_from_in colid(N).      { A = sql__fetch(ctx, &N, -1); }
fetch_args(A) ::= FORWARD ALL opt_from_in colid(N). { A = sql__fetch(ctx, &N, -1); }
fetch_args(A) ::= ICONST(T) opt_from_in colid(N). { A = sql__fetch(ctx, &N, T.ival); }
fetch_args(A) ::= FORWARD ICONST(T) opt_from_in colid(N). { A = sql__fetch(ctx, &N, T.ival); }
from_in ::= FROM.
from_in ::= IN.
opt_from_in ::= from_in.
opt_from_in ::= .

////////////////////////////////////////////// PREPARE / EXECUTE / DEALLOCATE ////

%type prepare_stmt {sql_stmt_t *}
prepare_stmt(A) ::= PREPARE colid(N) AS preparable(S). { A = sql__prepare(ctx, &N, NULL, S); }
prepare_stmt(A) ::= PREPARE colid(N) LP type_list(T) RP AS preparable(S). { A = sql__prepare(ctx, &N, T, S); }

%type type_list {sql_list_t *}
type_list(A) ::= typename(T).                    { A = sql__list1(ctx, T); }
type_list(A) ::= type_list(L) COMMA typename(T). { A = sql__list_add(ctx, L, T); }

%type preparable {sql_stmt_t *}
preparable(A) ::= select_stmt(S).                { A = sql__stmt_select(ctx, S); }
preparable(A) ::= insert_stmt(S).                { A = S; }
preparable(A) ::= update_stmt(S).                { A = S; }
preparable(A) ::= delete_stmt(S).                { A = S; }

%type execute_stmt {sql_stmt_t *}
execute_stmt(A) ::= EXECUTE colid(N).            { A = sql__execute(ctx, &N, NULL); }
execute_stmt(A) ::= EXECUTE colid(N) LP expr_list(L) RP. { A = sql__execute(ctx, &N, L); }

%type deallocate_stmt {sql_stmt_t *}
deallocate_stmt(A) ::= DEALLOCATE colid(N).      { A = sql__deallocate(ctx, &N); }
deallocate_stmt(A) ::= DEALLOCATE PREPARE colid(N). { A = sql__deallocate(ctx, &N); }
deallocate_stmt(A) ::= DEALLOCATE ALL.           { A = sql__deallocate(ctx, NULL); }
deallocate_stmt(A) ::= DEALLOCATE PREPARE ALL.   { A = sql__deallocate(ctx, NULL); }

////////////////////////////////////////////////////// the SELECT statement ////

%type select_stmt {sql_select_t *}
%type select_with_parens {sql_select_t *}
%type select_no_parens {sql_select_t *}
%type select_clause {sql_select_t *}
%type simple_select {sql_select_t *}
select_stmt(A) ::= select_no_parens(S).          { A = S; }
select_stmt(A) ::= select_with_parens(S).        { A = S; }

select_with_parens(A) ::= LP(T) select_no_parens(S) RP.   { A = S; A->paren_pos = T.pos; }
select_with_parens(A) ::= LP(T) select_with_parens(S) RP. { A = S; A->paren_pos = T.pos; }

select_no_parens(A) ::= simple_select(S).        { A = S; }
select_no_parens(A) ::= select_clause(S) sort_clause(O).
        { A = sql__select_options(ctx, S, O, NULL); }
select_no_parens(A) ::= select_clause(S) opt_sort_clause(O) select_limit(L).
        { A = sql__select_options(ctx, S, O, L); }
select_no_parens(A) ::= with_clause(W) select_clause(S). { A = sql__select_with(ctx, S, W); }
select_no_parens(A) ::= with_clause(W) select_clause(S) sort_clause(O).
        { A = sql__select_with(ctx, sql__select_options(ctx, S, O, NULL), W); }
select_no_parens(A) ::= with_clause(W) select_clause(S) opt_sort_clause(O) select_limit(L).
        { A = sql__select_with(ctx, sql__select_options(ctx, S, O, L), W); }

/* WITH [RECURSIVE] name [(cols)] AS [[NOT] MATERIALIZED] (query), ...: a scratch select carries the list. */
%type with_clause {sql_select_t *}
with_clause(A) ::= WITH(K) cte_list(L).          { A = sql__with(ctx, &K, false, L); }
with_clause(A) ::= WITH(K) RECURSIVE cte_list(L). { A = sql__with(ctx, &K, true, L); }
%type cte_list {sql_list_t *}
cte_list(A) ::= common_table_expr(C).            { A = sql__list1(ctx, C); }
cte_list(A) ::= cte_list(L) COMMA common_table_expr(C). { A = sql__list_add(ctx, L, C); }
%type common_table_expr {sql_cte_t *}
common_table_expr(A) ::= colid(N) opt_column_list(C) AS opt_materialized(M) select_with_parens(S).
        { A = sql__cte(ctx, &N, C, M, S); }
/* A data-modifying WITH query: parsed so that the binder can refuse it at its place. */
common_table_expr(A) ::= colid(N) opt_column_list(C) AS opt_materialized(M) LP cte_dml(S) RP.
        { A = sql__cte_dml(ctx, &N, C, M, S); }
%type cte_dml {sql_stmt_t *}
cte_dml(A) ::= insert_stmt(S).                   { A = S; }
cte_dml(A) ::= update_stmt(S).                   { A = S; }
cte_dml(A) ::= delete_stmt(S).                   { A = S; }
%type opt_materialized {int}
opt_materialized(A) ::= MATERIALIZED.            { A = 1; }
opt_materialized(A) ::= NOT MATERIALIZED.        { A = 0; }
opt_materialized(A) ::= .                        { A = -1; }

select_clause(A) ::= simple_select(S).           { A = S; }
select_clause(A) ::= select_with_parens(S).      { A = S; }

simple_select(A) ::= SELECT(K) opt_all_clause opt_target_list(T) into_clause(I) from_clause(F) where_clause(W)
                     group_clause(G) having_clause(H) window_clause(X).
        { A = sql__select(ctx, &K, NULL, T, F, W, G, H); A->windows = X; A->into = I; }
simple_select(A) ::= SELECT(K) distinct_clause(D) target_list(T) into_clause(I) from_clause(F) where_clause(W)
                     group_clause(G) having_clause(H) window_clause(X).
        { A = sql__select(ctx, &K, D, T, F, W, G, H); A->windows = X; A->into = I; }
/* SELECT ... INTO [TABLE] name FROM ...: PostgreSQL's older spelling of CREATE TABLE AS. */
%type into_clause {sql_qname_t *}
into_clause(A) ::= INTO qname(N).                { A = N; }
into_clause(A) ::= INTO TABLE qname(N).          { A = N; }
into_clause(A) ::= .                             { A = NULL; }
/* TABLE name is SELECT * FROM name. */
simple_select(A) ::= TABLE(K) qualified_name(N). { A = sql__table_select(ctx, &K, N); }
simple_select(A) ::= values_clause(V).           { A = V; }
simple_select(A) ::= select_clause(L) UNION set_quantifier(Q) select_clause(R).
        { A = sql__setop(ctx, SQL_SETOP_UNION, Q, L, R); }
simple_select(A) ::= select_clause(L) INTERSECT set_quantifier(Q) select_clause(R).
        { A = sql__setop(ctx, SQL_SETOP_INTERSECT, Q, L, R); }
simple_select(A) ::= select_clause(L) EXCEPT set_quantifier(Q) select_clause(R).
        { A = sql__setop(ctx, SQL_SETOP_EXCEPT, Q, L, R); }

%type set_quantifier {int}
set_quantifier(A) ::= ALL.                       { A = 1; }
set_quantifier(A) ::= DISTINCT.                  { A = 0; }
set_quantifier(A) ::= .                          { A = 0; }

opt_all_clause ::= ALL.
opt_all_clause ::= .

/* DISTINCT alone is an empty list marker; DISTINCT ON keeps its expressions. */
%type distinct_clause {sql_list_t *}
distinct_clause(A) ::= DISTINCT.                 { A = sql__list_new(ctx); }
distinct_clause(A) ::= DISTINCT ON LP expr_list(L) RP. { A = L; }

%type values_clause {sql_select_t *}
values_clause(A) ::= VALUES(K) LP expr_list(L) RP. { A = sql__values(ctx, &K, L); }
values_clause(A) ::= values_clause(V) COMMA LP expr_list(L) RP. { A = sql__values_add(ctx, V, L); }

%type opt_target_list {sql_list_t *}
%type target_list {sql_list_t *}
%type target_el {sql_target_t *}
opt_target_list(A) ::= target_list(L).           { A = L; }
opt_target_list(A) ::= .                         { A = sql__list_new(ctx); }
target_list(A) ::= target_el(T).                 { A = sql__list1(ctx, T); }
target_list(A) ::= target_list(L) COMMA target_el(T). { A = sql__list_add(ctx, L, T); }
target_el(A) ::= a_expr(E) AS collabel(N).       { A = sql__target(ctx, E, N.str); }
target_el(A) ::= a_expr(E) bare_col_label(N).    { A = sql__target(ctx, E, N.str); }
target_el(A) ::= a_expr(E).                      { A = sql__target(ctx, E, NULL); }
target_el(A) ::= STAR(T).                        { A = sql__target(ctx, sql__star(ctx, &T), NULL); }

%type from_clause {sql_list_t *}
%type from_list {sql_list_t *}
from_clause(A) ::= FROM from_list(L).            { A = L; }
from_clause(A) ::= .                             { A = NULL; }
from_list(A) ::= table_ref(T).                   { A = sql__list1(ctx, T); }
from_list(A) ::= from_list(L) COMMA table_ref(T). { A = sql__list_add(ctx, L, T); }

%type table_ref {sql_from_t *}
%type joined_table {sql_from_t *}
table_ref(A) ::= qualified_name(N) opt_alias_clause(L).      { A = sql__from_relation(ctx, N, L); }
table_ref(A) ::= select_with_parens(S) opt_alias_clause(L).  { A = sql__from_subquery(ctx, S, L); }
table_ref(A) ::= joined_table(J).                            { A = J; }
table_ref(A) ::= func_table(F) opt_alias_clause(L).          { A = sql__from_function(ctx, F, L, false); }
table_ref(A) ::= LATERAL func_table(F) opt_alias_clause(L).  { A = sql__from_function(ctx, F, L, true); }
table_ref(A) ::= LATERAL select_with_parens(S) opt_alias_clause(L).
        { A = sql__from_subquery(ctx, S, L); A->lateral = true; }

/* A table function: a call without OVER, and WITH ORDINALITY (a scratch FROM item carries both). */
%type func_table {sql_from_t *}
func_table(A) ::= func_application(F).           { A = sql__func_table(ctx, F, false); }
func_table(A) ::= func_expr_common(F).           { A = sql__func_table(ctx, F, false); }
func_table(A) ::= func_application(F) WITH_LA ORDINALITY. { A = sql__func_table(ctx, F, true); }
func_table(A) ::= func_expr_common(F) WITH_LA ORDINALITY. { A = sql__func_table(ctx, F, true); }
table_ref(A) ::= LP joined_table(J) RP alias_clause(L).      { A = sql__from_join_alias(ctx, J, L); }

/* As in PostgreSQL, a joined table may stand in parentheses, so the
 * deparser's fully parenthesised joins parse back. */
joined_table(A) ::= LP joined_table(J) RP.                   { A = J; }
joined_table(A) ::= table_ref(L) CROSS JOIN table_ref(R).
        { A = sql__from_join(ctx, SQL_JOIN_CROSS, false, L, R, NULL); }
joined_table(A) ::= table_ref(L) join_type(J) JOIN table_ref(R) join_qual(Q).
        { A = sql__from_join(ctx, J, false, L, R, Q); }
joined_table(A) ::= table_ref(L) JOIN table_ref(R) join_qual(Q).
        { A = sql__from_join(ctx, SQL_JOIN_INNER, false, L, R, Q); }
joined_table(A) ::= table_ref(L) NATURAL join_type(J) JOIN table_ref(R).
        { A = sql__from_join(ctx, J, true, L, R, NULL); }
joined_table(A) ::= table_ref(L) NATURAL JOIN table_ref(R).
        { A = sql__from_join(ctx, SQL_JOIN_INNER, true, L, R, NULL); }

%type join_type {sql_join_kind_t}
join_type(A) ::= FULL opt_outer.                 { A = SQL_JOIN_FULL; }
join_type(A) ::= LEFT opt_outer.                 { A = SQL_JOIN_LEFT; }
join_type(A) ::= RIGHT opt_outer.                { A = SQL_JOIN_RIGHT; }
join_type(A) ::= INNER.                          { A = SQL_JOIN_INNER; }
opt_outer ::= OUTER.
opt_outer ::= .

/* join_qual: an ON expression, or a USING list wrapped in a list-carrying node. */
%type join_qual {sql_from_t *}
join_qual(A) ::= USING LP name_list(L) RP.       { A = sql__join_using(ctx, L); }
join_qual(A) ::= ON a_expr(E).                   { A = sql__join_on(ctx, E); }

%type opt_alias_clause {sql_from_t *}
%type alias_clause {sql_from_t *}
opt_alias_clause(A) ::= alias_clause(L).         { A = L; }
opt_alias_clause(A) ::= .                        { A = NULL; }
alias_clause(A) ::= AS colid(N) LP name_list(L) RP. { A = sql__alias(ctx, N.str, L); }
alias_clause(A) ::= AS colid(N).                 { A = sql__alias(ctx, N.str, NULL); }
alias_clause(A) ::= colid(N) LP name_list(L) RP. { A = sql__alias(ctx, N.str, L); }
alias_clause(A) ::= colid(N).                    { A = sql__alias(ctx, N.str, NULL); }

/* A relation name: a COLUMN node carries the dotted name and its position. */
%type qualified_name {sql_expr_t *}
qualified_name(A) ::= colid(N).                  { A = sql__column(ctx, &N, NULL); }
qualified_name(A) ::= colid(N) indirection(I).   { A = sql__column(ctx, &N, I); }

%type name_list {sql_list_t *}
name_list(A) ::= colid(N).                       { A = sql__list1(ctx, (void *)N.str); }
name_list(A) ::= name_list(L) COMMA colid(N).    { A = sql__list_add(ctx, L, (void *)N.str); }

%type where_clause {sql_expr_t *}
where_clause(A) ::= WHERE a_expr(E).             { A = E; }
where_clause(A) ::= .                            { A = NULL; }

%type group_clause {sql_list_t *}
group_clause(A) ::= GROUP BY expr_list(L).       { A = L; }
group_clause(A) ::= .                            { A = NULL; }

%type having_clause {sql_expr_t *}
having_clause(A) ::= HAVING a_expr(E).           { A = E; }
having_clause(A) ::= .                           { A = NULL; }

%type sort_clause {sql_list_t *}
%type opt_sort_clause {sql_list_t *}
%type sortby_list {sql_list_t *}
%type sortby {sql_sort_t *}
sort_clause(A) ::= ORDER BY sortby_list(L).      { A = L; }
opt_sort_clause(A) ::= sort_clause(L).           { A = L; }
opt_sort_clause(A) ::= .                         { A = NULL; }
sortby_list(A) ::= sortby(S).                    { A = sql__list1(ctx, S); }
sortby_list(A) ::= sortby_list(L) COMMA sortby(S). { A = sql__list_add(ctx, L, S); }
sortby(A) ::= a_expr(E) opt_asc_desc(D) opt_nulls_order(N). { A = sql__sortby(ctx, E, D, N); }

%type opt_asc_desc {int}
opt_asc_desc(A) ::= ASC.                         { A = SQL_SORT_ASC; }
opt_asc_desc(A) ::= DESC.                        { A = SQL_SORT_DESC; }
opt_asc_desc(A) ::= .                            { A = SQL_SORT_DEFAULT; }

%type opt_nulls_order {int}
opt_nulls_order(A) ::= NULLS_LA FIRST.           { A = SQL_NULLS_FIRST; }
opt_nulls_order(A) ::= NULLS_LA LAST.            { A = SQL_NULLS_LAST; }
opt_nulls_order(A) ::= .                         { A = SQL_NULLS_DEFAULT; }

/* LIMIT/OFFSET travel in a scratch select node until attached to the query. */
%type select_limit {sql_select_t *}
%type limit_clause {sql_select_t *}
%type offset_clause {sql_select_t *}
select_limit(A) ::= limit_clause(L) offset_clause(O). { A = sql__limit_merge(ctx, L, O); }
select_limit(A) ::= offset_clause(O) limit_clause(L). { A = sql__limit_merge(ctx, L, O); }
select_limit(A) ::= limit_clause(L).             { A = L; }
select_limit(A) ::= offset_clause(O).            { A = O; }
limit_clause(A) ::= LIMIT a_expr(E).             { A = sql__limit(ctx, E, NULL); }
limit_clause(A) ::= LIMIT ALL.                   { A = sql__limit(ctx, NULL, NULL); }
limit_clause(A) ::= LIMIT(K) a_expr COMMA a_expr. { A = sql__limit_comma(ctx, &K); }
limit_clause(A) ::= FETCH first_or_next fetch_value(E) row_or_rows ONLY. { A = sql__limit(ctx, E, NULL); }
limit_clause(A) ::= FETCH(K) first_or_next row_or_rows ONLY. { A = sql__limit(ctx, sql__int_one(ctx, &K), NULL); }
offset_clause(A) ::= OFFSET a_expr(E).           { A = sql__limit(ctx, NULL, E); }
offset_clause(A) ::= OFFSET fetch_value(E) row_or_rows. { A = sql__limit(ctx, NULL, E); }

/* The count of FETCH FIRST and OFFSET ... ROWS: a primary expression or a signed number, as in PostgreSQL. */
%type fetch_value {sql_expr_t *}
fetch_value(A) ::= c_expr(E).                    { A = E; }
fetch_value(A) ::= PLUS ICONST(T).               { A = sql__const_number(ctx, &T); }
fetch_value(A) ::= PLUS FCONST(T).               { A = sql__const_number(ctx, &T); }
fetch_value(A) ::= MINUS(M) ICONST(T).           { A = sql__negate(ctx, &M, sql__const_number(ctx, &T)); }
fetch_value(A) ::= MINUS(M) FCONST(T).           { A = sql__negate(ctx, &M, sql__const_number(ctx, &T)); }
first_or_next ::= FIRST.
first_or_next ::= NEXT.
row_or_rows ::= ROW.
row_or_rows ::= ROWS.

/* WINDOW name AS (spec), ... */
%type window_clause {sql_list_t *}
window_clause(A) ::= WINDOW window_definition_list(L). { A = L; }
window_clause(A) ::= .                           { A = NULL; }
%type window_definition_list {sql_list_t *}
window_definition_list(A) ::= window_definition(W). { A = sql__list1(ctx, W); }
window_definition_list(A) ::= window_definition_list(L) COMMA window_definition(W). { A = sql__list_add(ctx, L, W); }
%type window_definition {sql_window_t *}
/* Its position stays the specification's '(', where PostgreSQL's errors about a definition point. */
window_definition(A) ::= colid(N) AS window_specification(W). { A = W; A->name = N.str; }

%type over_clause {sql_window_t *}
over_clause(A) ::= OVER window_specification(W). { A = W; }
over_clause(A) ::= OVER colid(N).                { A = sql__window_ref(ctx, &N); }

/* An empty existing-window name has OP's precedence, so that PARTITION,
 * RANGE, ROWS and GROUPS (lower, with IDENT) start the specification
 * instead of naming a window. */
%type window_specification {sql_window_t *}
window_specification(A) ::= LP(T) opt_existing_window_name(N) opt_partition_clause(P) opt_sort_clause(O)
                            opt_frame_clause(F) RP.
        { A = sql__window_spec(ctx, &T, N, P, O, F); }
%type opt_existing_window_name {const char *}
opt_existing_window_name(A) ::= colid(N).        { A = N.str; }
opt_existing_window_name(A) ::= . [OP]           { A = NULL; }
%type opt_partition_clause {sql_list_t *}
opt_partition_clause(A) ::= PARTITION BY expr_list(L). { A = L; }
opt_partition_clause(A) ::= .                    { A = NULL; }

/* Frames in scratch windows: bounds first, then the extent, then the mode and exclusion. */
%type opt_frame_clause {sql_window_t *}
opt_frame_clause(A) ::= RANGE frame_extent(E) opt_window_exclusion(X). { A = sql__frame(ctx, SQL_FRAME_RANGE, E, X); }
opt_frame_clause(A) ::= ROWS frame_extent(E) opt_window_exclusion(X). { A = sql__frame(ctx, SQL_FRAME_ROWS, E, X); }
opt_frame_clause(A) ::= GROUPS frame_extent(E) opt_window_exclusion(X). { A = sql__frame(ctx, SQL_FRAME_GROUPS, E, X); }
opt_frame_clause(A) ::= .                        { A = NULL; }
%type frame_extent {sql_window_t *}
frame_extent(A) ::= frame_bound(B).              { A = sql__frame_extent(ctx, B, NULL); }
frame_extent(A) ::= BETWEEN frame_bound(B) AND frame_bound(E). { A = sql__frame_extent(ctx, B, E); }
%type frame_bound {sql_window_t *}
frame_bound(A) ::= UNBOUNDED(T) PRECEDING.       { A = sql__frame_bound(ctx, T.pos, SQL_BOUND_UNBOUNDED_PRECEDING, NULL); }
frame_bound(A) ::= UNBOUNDED(T) FOLLOWING.       { A = sql__frame_bound(ctx, T.pos, SQL_BOUND_UNBOUNDED_FOLLOWING, NULL); }
frame_bound(A) ::= CURRENT(T) ROW.               { A = sql__frame_bound(ctx, T.pos, SQL_BOUND_CURRENT_ROW, NULL); }
frame_bound(A) ::= a_expr(E) PRECEDING.          { A = sql__frame_bound(ctx, E->pos, SQL_BOUND_PRECEDING, E); }
frame_bound(A) ::= a_expr(E) FOLLOWING.          { A = sql__frame_bound(ctx, E->pos, SQL_BOUND_FOLLOWING, E); }
%type opt_window_exclusion {int}
opt_window_exclusion(A) ::= EXCLUDE CURRENT ROW. { A = SQL_EXCLUDE_CURRENT_ROW; }
opt_window_exclusion(A) ::= EXCLUDE GROUP.       { A = SQL_EXCLUDE_GROUP; }
opt_window_exclusion(A) ::= EXCLUDE TIES.        { A = SQL_EXCLUDE_TIES; }
opt_window_exclusion(A) ::= EXCLUDE NO OTHERS.   { A = SQL_EXCLUDE_NO_OTHERS; }
opt_window_exclusion(A) ::= .                    { A = SQL_EXCLUDE_DEFAULT; }

//////////////////////////////////////////////////////////// expressions ////

%type a_expr {sql_expr_t *}
%type b_expr {sql_expr_t *}
%type c_expr {sql_expr_t *}

a_expr(A) ::= c_expr(E).                         { A = E; }
a_expr(A) ::= a_expr(E) TYPECAST(T) typename(N). { A = sql__cast(ctx, &T, E, N, SQL_CAST_COLONS); }
a_expr(A) ::= a_expr(E) COLLATE(T) any_name(N).  { A = sql__collate(ctx, &T, E, N); }
a_expr(A) ::= a_expr(E) AT(T) TIME ZONE a_expr(Z). [AT] { A = sql__at_time_zone(ctx, &T, E, Z); }
a_expr(A) ::= PLUS(T) a_expr(E). [UMINUS]        { A = sql__op(ctx, &T, "+", NULL, E); }
a_expr(A) ::= MINUS(T) a_expr(E). [UMINUS]       { A = sql__negate(ctx, &T, E); }
a_expr(A) ::= a_expr(L) PLUS(T) a_expr(R).       { A = sql__op(ctx, &T, "+", L, R); }
a_expr(A) ::= a_expr(L) MINUS(T) a_expr(R).      { A = sql__op(ctx, &T, "-", L, R); }
a_expr(A) ::= a_expr(L) STAR(T) a_expr(R).       { A = sql__op(ctx, &T, "*", L, R); }
a_expr(A) ::= a_expr(L) SLASH(T) a_expr(R).      { A = sql__op(ctx, &T, "/", L, R); }
a_expr(A) ::= a_expr(L) PERCENT(T) a_expr(R).    { A = sql__op(ctx, &T, "%", L, R); }
a_expr(A) ::= a_expr(L) CARET(T) a_expr(R).      { A = sql__op(ctx, &T, "^", L, R); }
a_expr(A) ::= a_expr(L) LT(T) a_expr(R).         { A = sql__op(ctx, &T, "<", L, R); }
a_expr(A) ::= a_expr(L) GT(T) a_expr(R).         { A = sql__op(ctx, &T, ">", L, R); }
a_expr(A) ::= a_expr(L) EQ(T) a_expr(R).         { A = sql__op(ctx, &T, "=", L, R); }
a_expr(A) ::= a_expr(L) LESS_EQUALS(T) a_expr(R). { A = sql__op(ctx, &T, "<=", L, R); }
a_expr(A) ::= a_expr(L) GREATER_EQUALS(T) a_expr(R). { A = sql__op(ctx, &T, ">=", L, R); }
a_expr(A) ::= a_expr(L) NOT_EQUALS(T) a_expr(R). { A = sql__op(ctx, &T, "<>", L, R); }
a_expr(A) ::= a_expr(L) OP(T) a_expr(R). [OP]    { A = sql__op(ctx, &T, NULL, L, R); }
a_expr(A) ::= OP(T) a_expr(R). [OP]              { A = sql__op(ctx, &T, NULL, NULL, R); }
a_expr(A) ::= a_expr(L) OPERATOR(T) LP any_operator(O) RP a_expr(R). [OP] { A = sql__qual_op(ctx, &T, O, L, R); }
a_expr(A) ::= OPERATOR(T) LP any_operator(O) RP a_expr(R). [OP] { A = sql__qual_op(ctx, &T, O, NULL, R); }
/* DEFAULT is an expression only so that the binder can say where it is not allowed, as PostgreSQL does. */
a_expr(A) ::= DEFAULT(T).                        { A = sql__default(ctx, &T); }
a_expr(A) ::= a_expr(L) AND(T) a_expr(R).        { A = sql__bool(ctx, &T, SQL_EXPR_AND, L, R); }
a_expr(A) ::= a_expr(L) OR(T) a_expr(R).         { A = sql__bool(ctx, &T, SQL_EXPR_OR, L, R); }
a_expr(A) ::= NOT(T) a_expr(E).                  { A = sql__bool(ctx, &T, SQL_EXPR_NOT, E, NULL); }
a_expr(A) ::= NOT_LA(T) a_expr(E). [NOT]         { A = sql__bool(ctx, &T, SQL_EXPR_NOT, E, NULL); }
a_expr(A) ::= a_expr(L) LIKE(T) a_expr(R).       { A = sql__like(ctx, &T, SQL_LIKE, false, L, R, NULL); }
a_expr(A) ::= a_expr(L) LIKE(T) a_expr(R) ESCAPE a_expr(E). { A = sql__like(ctx, &T, SQL_LIKE, false, L, R, E); }
a_expr(A) ::= a_expr(L) NOT_LA(T) LIKE a_expr(R). [NOT_LA] { A = sql__like(ctx, &T, SQL_LIKE, true, L, R, NULL); }
a_expr(A) ::= a_expr(L) NOT_LA(T) LIKE a_expr(R) ESCAPE a_expr(E). [NOT_LA]
        { A = sql__like(ctx, &T, SQL_LIKE, true, L, R, E); }
a_expr(A) ::= a_expr(L) ILIKE(T) a_expr(R).      { A = sql__like(ctx, &T, SQL_ILIKE, false, L, R, NULL); }
a_expr(A) ::= a_expr(L) ILIKE(T) a_expr(R) ESCAPE a_expr(E). { A = sql__like(ctx, &T, SQL_ILIKE, false, L, R, E); }
a_expr(A) ::= a_expr(L) NOT_LA(T) ILIKE a_expr(R). [NOT_LA] { A = sql__like(ctx, &T, SQL_ILIKE, true, L, R, NULL); }
a_expr(A) ::= a_expr(L) NOT_LA(T) ILIKE a_expr(R) ESCAPE a_expr(E). [NOT_LA]
        { A = sql__like(ctx, &T, SQL_ILIKE, true, L, R, E); }
a_expr(A) ::= a_expr(L) SIMILAR(T) TO a_expr(R). [SIMILAR] { A = sql__like(ctx, &T, SQL_SIMILAR, false, L, R, NULL); }
a_expr(A) ::= a_expr(L) SIMILAR(T) TO a_expr(R) ESCAPE a_expr(E). [SIMILAR]
        { A = sql__like(ctx, &T, SQL_SIMILAR, false, L, R, E); }
a_expr(A) ::= a_expr(L) NOT_LA(T) SIMILAR TO a_expr(R). [NOT_LA]
        { A = sql__like(ctx, &T, SQL_SIMILAR, true, L, R, NULL); }
a_expr(A) ::= a_expr(L) NOT_LA(T) SIMILAR TO a_expr(R) ESCAPE a_expr(E). [NOT_LA]
        { A = sql__like(ctx, &T, SQL_SIMILAR, true, L, R, E); }
a_expr(A) ::= a_expr(E) IS(T) NULL. [IS]         { A = sql__null_test(ctx, &T, E, false); }
a_expr(A) ::= a_expr(E) ISNULL(T).               { A = sql__null_test(ctx, &T, E, false); }
a_expr(A) ::= a_expr(E) IS(T) NOT NULL. [IS]     { A = sql__null_test(ctx, &T, E, true); }
a_expr(A) ::= a_expr(E) NOTNULL(T).              { A = sql__null_test(ctx, &T, E, true); }
a_expr(A) ::= a_expr(E) IS(T) TRUE. [IS]         { A = sql__bool_test(ctx, &T, E, SQL_IS_TRUE, false); }
a_expr(A) ::= a_expr(E) IS(T) NOT TRUE. [IS]     { A = sql__bool_test(ctx, &T, E, SQL_IS_TRUE, true); }
a_expr(A) ::= a_expr(E) IS(T) FALSE. [IS]        { A = sql__bool_test(ctx, &T, E, SQL_IS_FALSE, false); }
a_expr(A) ::= a_expr(E) IS(T) NOT FALSE. [IS]    { A = sql__bool_test(ctx, &T, E, SQL_IS_FALSE, true); }
a_expr(A) ::= a_expr(E) IS(T) UNKNOWN. [IS]      { A = sql__bool_test(ctx, &T, E, SQL_IS_UNKNOWN, false); }
a_expr(A) ::= a_expr(E) IS(T) NOT UNKNOWN. [IS]  { A = sql__bool_test(ctx, &T, E, SQL_IS_UNKNOWN, true); }
a_expr(A) ::= a_expr(L) IS(T) DISTINCT FROM a_expr(R). [IS] { A = sql__distinct(ctx, &T, L, R, false); }
a_expr(A) ::= a_expr(L) IS(T) NOT DISTINCT FROM a_expr(R). [IS] { A = sql__distinct(ctx, &T, L, R, true); }
a_expr(A) ::= a_expr(E) BETWEEN(T) opt_asymmetric b_expr(L) AND a_expr(H). [BETWEEN]
        { A = sql__between(ctx, &T, E, L, H, false, false); }
a_expr(A) ::= a_expr(E) NOT_LA(T) BETWEEN opt_asymmetric b_expr(L) AND a_expr(H). [NOT_LA]
        { A = sql__between(ctx, &T, E, L, H, true, false); }
a_expr(A) ::= a_expr(E) BETWEEN(T) SYMMETRIC b_expr(L) AND a_expr(H). [BETWEEN]
        { A = sql__between(ctx, &T, E, L, H, false, true); }
a_expr(A) ::= a_expr(E) NOT_LA(T) BETWEEN SYMMETRIC b_expr(L) AND a_expr(H). [NOT_LA]
        { A = sql__between(ctx, &T, E, L, H, true, true); }
a_expr(A) ::= a_expr(E) IN(T) LP expr_list(L) RP. { A = sql__in_list(ctx, &T, E, L, false); }
a_expr(A) ::= a_expr(E) NOT_LA(T) IN LP expr_list(L) RP. [NOT_LA] { A = sql__in_list(ctx, &T, E, L, true); }
a_expr(A) ::= a_expr(E) IN(T) select_with_parens(S). { A = sql__in_select(ctx, &T, E, S, false); }
a_expr(A) ::= a_expr(E) NOT_LA(T) IN select_with_parens(S). [NOT_LA] { A = sql__in_select(ctx, &T, E, S, true); }

a_expr(A) ::= row(L) OVERLAPS(T) row(R).         { A = sql__overlaps(ctx, &T, L, R); }

/* x op ANY/SOME/ALL (array) and (SELECT ...); the operator's token gives the position and the name. */
a_expr(A) ::= a_expr(L) subquery_op(O) sub_type(Q) select_with_parens(S).
        { A = sql__quantified_select(ctx, &O, Q, L, S); }
a_expr(A) ::= a_expr(L) subquery_op(O) sub_type(Q) LP a_expr(R) RP. { A = sql__array_cmp(ctx, &O, Q, L, R); }

%type subquery_op {sql_token_t}
subquery_op(A) ::= PLUS(T).                      { A = T; A.str = "+"; }
subquery_op(A) ::= MINUS(T).                     { A = T; A.str = "-"; }
subquery_op(A) ::= STAR(T).                      { A = T; A.str = "*"; }
subquery_op(A) ::= SLASH(T).                     { A = T; A.str = "/"; }
subquery_op(A) ::= PERCENT(T).                   { A = T; A.str = "%"; }
subquery_op(A) ::= CARET(T).                     { A = T; A.str = "^"; }
subquery_op(A) ::= LT(T).                        { A = T; A.str = "<"; }
subquery_op(A) ::= GT(T).                        { A = T; A.str = ">"; }
subquery_op(A) ::= EQ(T).                        { A = T; A.str = "="; }
subquery_op(A) ::= LESS_EQUALS(T).               { A = T; A.str = "<="; }
subquery_op(A) ::= GREATER_EQUALS(T).            { A = T; A.str = ">="; }
subquery_op(A) ::= NOT_EQUALS(T).                { A = T; A.str = "<>"; }
subquery_op(A) ::= OP(T).                        { A = T; }
subquery_op(A) ::= LIKE(T).                      { A = T; A.str = "~~"; }
subquery_op(A) ::= NOT_LA(T) LIKE.               { A = T; A.str = "!~~"; }
subquery_op(A) ::= ILIKE(T).                     { A = T; A.str = "~~*"; }
subquery_op(A) ::= NOT_LA(T) ILIKE.              { A = T; A.str = "!~~*"; }

%type sub_type {int}
sub_type(A) ::= ANY.                             { A = SQL_SUBLINK_ANY; }
sub_type(A) ::= SOME.                            { A = SQL_SUBLINK_ANY; }
sub_type(A) ::= ALL.                             { A = SQL_SUBLINK_ALL; }

/* The operands of OVERLAPS: explicit rows only, as in PostgreSQL. */
%type row {sql_expr_t *}
row(A) ::= ROW(T) LP expr_list(L) RP.            { A = sql__row(ctx, &T, L); }
row(A) ::= ROW(T) LP RP.                         { A = sql__row(ctx, &T, NULL); }
row(A) ::= LP(T) expr_list(L) COMMA a_expr(E) RP. { A = sql__row(ctx, &T, sql__list_add(ctx, L, E)); }

opt_asymmetric ::= ASYMMETRIC.
opt_asymmetric ::= .

/* b_expr: the restricted expressions allowed where AND, NOT, IS and IN would be ambiguous (BETWEEN bounds). */
b_expr(A) ::= c_expr(E).                         { A = E; }
b_expr(A) ::= b_expr(E) TYPECAST(T) typename(N). { A = sql__cast(ctx, &T, E, N, SQL_CAST_COLONS); }
b_expr(A) ::= PLUS(T) b_expr(E). [UMINUS]        { A = sql__op(ctx, &T, "+", NULL, E); }
b_expr(A) ::= MINUS(T) b_expr(E). [UMINUS]       { A = sql__negate(ctx, &T, E); }
b_expr(A) ::= b_expr(L) PLUS(T) b_expr(R).       { A = sql__op(ctx, &T, "+", L, R); }
b_expr(A) ::= b_expr(L) MINUS(T) b_expr(R).      { A = sql__op(ctx, &T, "-", L, R); }
b_expr(A) ::= b_expr(L) STAR(T) b_expr(R).       { A = sql__op(ctx, &T, "*", L, R); }
b_expr(A) ::= b_expr(L) SLASH(T) b_expr(R).      { A = sql__op(ctx, &T, "/", L, R); }
b_expr(A) ::= b_expr(L) PERCENT(T) b_expr(R).    { A = sql__op(ctx, &T, "%", L, R); }
b_expr(A) ::= b_expr(L) CARET(T) b_expr(R).      { A = sql__op(ctx, &T, "^", L, R); }
b_expr(A) ::= b_expr(L) LT(T) b_expr(R).         { A = sql__op(ctx, &T, "<", L, R); }
b_expr(A) ::= b_expr(L) GT(T) b_expr(R).         { A = sql__op(ctx, &T, ">", L, R); }
b_expr(A) ::= b_expr(L) EQ(T) b_expr(R).         { A = sql__op(ctx, &T, "=", L, R); }
b_expr(A) ::= b_expr(L) LESS_EQUALS(T) b_expr(R). { A = sql__op(ctx, &T, "<=", L, R); }
b_expr(A) ::= b_expr(L) GREATER_EQUALS(T) b_expr(R). { A = sql__op(ctx, &T, ">=", L, R); }
b_expr(A) ::= b_expr(L) NOT_EQUALS(T) b_expr(R). { A = sql__op(ctx, &T, "<>", L, R); }
b_expr(A) ::= b_expr(L) OP(T) b_expr(R). [OP]    { A = sql__op(ctx, &T, NULL, L, R); }
b_expr(A) ::= OP(T) b_expr(R). [OP]              { A = sql__op(ctx, &T, NULL, NULL, R); }
b_expr(A) ::= b_expr(L) OPERATOR(T) LP any_operator(O) RP b_expr(R). [OP] { A = sql__qual_op(ctx, &T, O, L, R); }
b_expr(A) ::= OPERATOR(T) LP any_operator(O) RP b_expr(R). [OP] { A = sql__qual_op(ctx, &T, O, NULL, R); }

/* OPERATOR(schema.op): the names, operator last. */
%type any_operator {sql_list_t *}
any_operator(A) ::= all_op(O).                   { A = sql__list1(ctx, (void *)O); }
any_operator(A) ::= colid(N) DOT any_operator(L). { A = sql__list_prepend(ctx, L, (void *)N.str); }
%type all_op {const char *}
all_op(A) ::= OP(T).                             { A = T.str; }
all_op(A) ::= PLUS.                              { A = "+"; }
all_op(A) ::= MINUS.                             { A = "-"; }
all_op(A) ::= STAR.                              { A = "*"; }
all_op(A) ::= SLASH.                             { A = "/"; }
all_op(A) ::= PERCENT.                           { A = "%"; }
all_op(A) ::= CARET.                             { A = "^"; }
all_op(A) ::= LT.                                { A = "<"; }
all_op(A) ::= GT.                                { A = ">"; }
all_op(A) ::= EQ.                                { A = "="; }
all_op(A) ::= LESS_EQUALS.                       { A = "<="; }
all_op(A) ::= GREATER_EQUALS.                    { A = ">="; }
all_op(A) ::= NOT_EQUALS.                        { A = "<>"; }
b_expr(A) ::= b_expr(L) IS(T) DISTINCT FROM b_expr(R). [IS] { A = sql__distinct(ctx, &T, L, R, false); }
b_expr(A) ::= b_expr(L) IS(T) NOT DISTINCT FROM b_expr(R). [IS] { A = sql__distinct(ctx, &T, L, R, true); }

c_expr(A) ::= columnref(E).                      { A = E; }
c_expr(A) ::= aexprconst(E).                     { A = E; }
c_expr(A) ::= PARAM(T).                          { A = sql__param(ctx, &T); }
c_expr(A) ::= LP(T) a_expr(E) RP.                { A = sql__paren(ctx, &T, E); }
c_expr(A) ::= LP(T) a_expr(E) RP field_names(L).  { A = sql__field(ctx, &T, E, L); }
c_expr(A) ::= case_expr(E).                      { A = E; }
c_expr(A) ::= func_expr(E).                      { A = E; }
c_expr(A) ::= select_with_parens(S). [UMINUS]    { A = sql__sublink(ctx, NULL, SQL_SUBLINK_EXPR, S); }
c_expr(A) ::= EXISTS(T) select_with_parens(S).   { A = sql__sublink(ctx, &T, SQL_SUBLINK_EXISTS, S); }
c_expr(A) ::= ARRAY(T) select_with_parens(S).    { A = sql__sublink(ctx, &T, SQL_SUBLINK_ARRAY, S); }
c_expr(A) ::= ARRAY(T) LBRACKET expr_list(L) RBRACKET. { A = sql__array(ctx, &T, L); }
c_expr(A) ::= ARRAY(T) LBRACKET RBRACKET.        { A = sql__array(ctx, &T, NULL); }
c_expr(A) ::= ARRAY(T) LBRACKET array_expr_list(L) RBRACKET. { A = sql__array(ctx, &T, L); }
/* Subscripts and slices: a[1], a[1:2], a[:2], a[2:], a[:]. */
c_expr(A) ::= c_expr(E) LBRACKET(T) a_expr(I) RBRACKET. { A = sql__subscript(ctx, &T, E, I, NULL, false); }
c_expr(A) ::= c_expr(E) LBRACKET(T) a_expr(L) COLON a_expr(H) RBRACKET. { A = sql__subscript(ctx, &T, E, L, H, true); }
c_expr(A) ::= c_expr(E) LBRACKET(T) COLON a_expr(H) RBRACKET. { A = sql__subscript(ctx, &T, E, NULL, H, true); }
c_expr(A) ::= c_expr(E) LBRACKET(T) a_expr(L) COLON RBRACKET. { A = sql__subscript(ctx, &T, E, L, NULL, true); }
c_expr(A) ::= c_expr(E) LBRACKET(T) COLON RBRACKET. { A = sql__subscript(ctx, &T, E, NULL, NULL, true); }

/* The inner brackets of ARRAY[[1,2],[3,4]]: sub-arrays without the keyword. */
%type array_expr {sql_expr_t *}
array_expr(A) ::= LBRACKET(T) expr_list(L) RBRACKET. { A = sql__array(ctx, &T, L); }
array_expr(A) ::= LBRACKET(T) array_expr_list(L) RBRACKET. { A = sql__array(ctx, &T, L); }
array_expr(A) ::= LBRACKET(T) RBRACKET.          { A = sql__array(ctx, &T, NULL); }
%type array_expr_list {sql_list_t *}
array_expr_list(A) ::= array_expr(E).            { A = sql__list1(ctx, E); }
array_expr_list(A) ::= array_expr_list(L) COMMA array_expr(E). { A = sql__list_add(ctx, L, E); }
c_expr(A) ::= ROW(T) LP expr_list(L) RP.         { A = sql__row(ctx, &T, L); }
c_expr(A) ::= ROW(T) LP RP.                      { A = sql__row(ctx, &T, NULL); }
c_expr(A) ::= LP(T) expr_list(L) COMMA a_expr(E) RP. { A = sql__row(ctx, &T, sql__list_add(ctx, L, E)); }

%type expr_list {sql_list_t *}
expr_list(A) ::= a_expr(E).                      { A = sql__list1(ctx, E); }
expr_list(A) ::= expr_list(L) COMMA a_expr(E).   { A = sql__list_add(ctx, L, E); }

%type columnref {sql_expr_t *}
columnref(A) ::= colid(N).                       { A = sql__column(ctx, &N, NULL); }
columnref(A) ::= colid(N) indirection(I).        { A = sql__column(ctx, &N, I); }

/* Dotted names; a trailing .* is kept as the name "*". */
/* (expr).name[.name...]: field selection from a composite value. */
%type field_names {sql_list_t *}
field_names(A) ::= DOT collabel(N).              { A = sql__list1(ctx, (void *)N.str); }
field_names(A) ::= field_names(L) DOT collabel(N). { A = sql__list_add(ctx, L, (void *)N.str); }

%type indirection {sql_list_t *}
indirection(A) ::= DOT collabel(N).              { A = sql__list1(ctx, (void *)N.str); }
indirection(A) ::= DOT STAR.                     { A = sql__list1(ctx, (void *)"*"); }
indirection(A) ::= indirection(L) DOT collabel(N). { A = sql__list_add(ctx, L, (void *)N.str); }
indirection(A) ::= indirection(L) DOT STAR.      { A = sql__list_add(ctx, L, (void *)"*"); }

%type any_name {sql_list_t *}
any_name(A) ::= colid(N).                        { A = sql__list1(ctx, (void *)N.str); }
any_name(A) ::= colid(N) indirection(I).         { A = sql__list_prepend(ctx, I, (void *)N.str); }

%type aexprconst {sql_expr_t *}
aexprconst(A) ::= ICONST(T).                     { A = sql__const_number(ctx, &T); }
aexprconst(A) ::= FCONST(T).                     { A = sql__const_number(ctx, &T); }
aexprconst(A) ::= SCONST(T).                     { A = sql__const_string(ctx, &T); }
aexprconst(A) ::= BCONST(T).                     { A = sql__const_bits(ctx, &T); }
aexprconst(A) ::= XCONST(T).                     { A = sql__const_bits(ctx, &T); }
aexprconst(A) ::= func_name(N) SCONST(T).
        { A = sql__typed_literal(ctx, sql__typename_generic(ctx, N->pos, N->names, NULL), &T); }
aexprconst(A) ::= const_typename(N) SCONST(T).   { A = sql__typed_literal(ctx, N, &T); }
aexprconst(A) ::= INTERVAL(K) SCONST(T) opt_interval(F).
        { A = sql__typed_literal(ctx, sql__typename_interval(ctx, &K, F, -1), &T); }
aexprconst(A) ::= INTERVAL(K) LP ICONST(P) RP SCONST(T).
        { A = sql__typed_literal(ctx, sql__typename_interval(ctx, &K, 0, (int)P.ival), &T); }
aexprconst(A) ::= TRUE(T).                       { A = sql__const_bool(ctx, &T, true); }
aexprconst(A) ::= FALSE(T).                      { A = sql__const_bool(ctx, &T, false); }
aexprconst(A) ::= NULL(T).                       { A = sql__const_null(ctx, &T); }

//////////////////////////////////////////////////////// CASE, functions ////

%type case_expr {sql_expr_t *}
%type when_list {sql_list_t *}
case_expr(A) ::= CASE(T) case_arg(X) when_list(W) case_default(D) END. { A = sql__case(ctx, &T, X, W, D); }
when_list(A) ::= WHEN a_expr(C) THEN a_expr(R).  { A = sql__list_add(ctx, sql__list1(ctx, C), R); }
when_list(A) ::= when_list(L) WHEN a_expr(C) THEN a_expr(R). { A = sql__list_add(ctx, sql__list_add(ctx, L, C), R); }
%type case_default {sql_expr_t *}
case_default(A) ::= ELSE a_expr(E).              { A = E; }
case_default(A) ::= .                            { A = NULL; }
%type case_arg {sql_expr_t *}
case_arg(A) ::= a_expr(E).                       { A = E; }
case_arg(A) ::= .                                { A = NULL; }

%type func_expr {sql_expr_t *}
%type func_application {sql_expr_t *}
%type func_name {sql_expr_t *}
func_expr(A) ::= func_application(F).            { A = F; }
func_expr(A) ::= func_application(F) FILTER LP WHERE a_expr(E) RP. { A = sql__func_filter(ctx, F, E); }
func_expr(A) ::= func_application(F) over_clause(O). { A = sql__func_over(ctx, F, O); }
func_expr(A) ::= func_application(F) FILTER LP WHERE a_expr(E) RP over_clause(O).
        { A = sql__func_over(ctx, sql__func_filter(ctx, F, E), O); }
func_expr(A) ::= func_application(F) WITHIN(W) GROUP LP sort_clause(O) RP. { A = sql__within_group(ctx, &W, F, O); }
func_expr(A) ::= func_application(F) WITHIN(W) GROUP LP sort_clause(O) RP FILTER LP WHERE a_expr(E) RP.
        { A = sql__func_filter(ctx, sql__within_group(ctx, &W, F, O), E); }
func_expr(A) ::= func_expr_common(E).            { A = E; }

func_application(A) ::= func_name(N) LP RP.      { A = sql__func(ctx, N, NULL, false, false, NULL); }
func_application(A) ::= func_name(N) LP func_arg_list(L) opt_sort_clause(O) RP.
        { A = sql__func(ctx, N, L, false, false, O); }
func_application(A) ::= func_name(N) LP ALL func_arg_list(L) opt_sort_clause(O) RP.
        { A = sql__func(ctx, N, L, false, false, O); }
func_application(A) ::= func_name(N) LP DISTINCT func_arg_list(L) opt_sort_clause(O) RP.
        { A = sql__func(ctx, N, L, false, true, O); }
func_application(A) ::= func_name(N) LP STAR RP. { A = sql__func(ctx, N, NULL, true, false, NULL); }

func_name(A) ::= type_function_name(N).          { A = sql__column(ctx, &N, NULL); }
func_name(A) ::= colid(N) indirection(I).        { A = sql__column(ctx, &N, I); }

%type func_arg_list {sql_list_t *}
func_arg_list(A) ::= func_arg_expr(E).           { A = sql__list1(ctx, E); }
func_arg_list(A) ::= func_arg_list(L) COMMA func_arg_expr(E). { A = sql__list_add(ctx, L, E); }

/* Arguments by name (f(a => 1), f(a := 1)); the planner matches them to parameters. */
%type func_arg_expr {sql_expr_t *}
func_arg_expr(A) ::= a_expr(E).                  { A = E; }
func_arg_expr(A) ::= type_function_name(N) COLON_EQUALS a_expr(E). { A = sql__named_arg(ctx, &N, E); }
func_arg_expr(A) ::= type_function_name(N) EQUALS_GREATER a_expr(E). { A = sql__named_arg(ctx, &N, E); }

%type func_expr_common {sql_expr_t *}
func_expr_common(A) ::= CURRENT_DATE(T).         { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_DATE, -1); }
func_expr_common(A) ::= CURRENT_TIME(T).         { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_TIME, -1); }
func_expr_common(A) ::= CURRENT_TIME(T) LP ICONST(P) RP. { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_TIME, (int)P.ival); }
func_expr_common(A) ::= CURRENT_TIMESTAMP(T).    { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_TIMESTAMP, -1); }
func_expr_common(A) ::= CURRENT_TIMESTAMP(T) LP ICONST(P) RP.
        { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_TIMESTAMP, (int)P.ival); }
func_expr_common(A) ::= LOCALTIME(T).            { A = sql__svf(ctx, &T, SQL_SVF_LOCALTIME, -1); }
func_expr_common(A) ::= LOCALTIME(T) LP ICONST(P) RP. { A = sql__svf(ctx, &T, SQL_SVF_LOCALTIME, (int)P.ival); }
func_expr_common(A) ::= LOCALTIMESTAMP(T).       { A = sql__svf(ctx, &T, SQL_SVF_LOCALTIMESTAMP, -1); }
func_expr_common(A) ::= LOCALTIMESTAMP(T) LP ICONST(P) RP.
        { A = sql__svf(ctx, &T, SQL_SVF_LOCALTIMESTAMP, (int)P.ival); }
func_expr_common(A) ::= CURRENT_ROLE(T).         { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_ROLE, -1); }
func_expr_common(A) ::= CURRENT_USER(T).         { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_USER, -1); }
func_expr_common(A) ::= SESSION_USER(T).         { A = sql__svf(ctx, &T, SQL_SVF_SESSION_USER, -1); }
func_expr_common(A) ::= USER(T).                 { A = sql__svf(ctx, &T, SQL_SVF_USER, -1); }
func_expr_common(A) ::= CURRENT_CATALOG(T).      { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_CATALOG, -1); }
func_expr_common(A) ::= CURRENT_SCHEMA(T).       { A = sql__svf(ctx, &T, SQL_SVF_CURRENT_SCHEMA, -1); }
func_expr_common(A) ::= CAST(T) LP a_expr(E) AS typename(N) RP. { A = sql__cast(ctx, &T, E, N, SQL_CAST_FUNC); }
func_expr_common(A) ::= EXTRACT(T) LP extract_arg(F) FROM a_expr(E) RP.
        { A = sql__func_sql(ctx, &T, "extract", SQL_FUNC_EXTRACT, sql__list_add(ctx, sql__list1(ctx, F), E)); }
func_expr_common(A) ::= OVERLAY(T) LP a_expr(X) PLACING a_expr(Y) FROM a_expr(F) FOR a_expr(C) RP.
        { A = sql__func_sql(ctx, &T, "overlay", SQL_FUNC_OVERLAY, sql__list4(ctx, X, Y, F, C)); }
func_expr_common(A) ::= OVERLAY(T) LP a_expr(X) PLACING a_expr(Y) FROM a_expr(F) RP.
        { A = sql__func_sql(ctx, &T, "overlay", SQL_FUNC_OVERLAY, sql__list4(ctx, X, Y, F, NULL)); }
func_expr_common(A) ::= POSITION(T) LP b_expr(X) IN b_expr(Y) RP.
        { A = sql__func_sql(ctx, &T, "position", SQL_FUNC_POSITION, sql__list_add(ctx, sql__list1(ctx, Y), X)); }
func_expr_common(A) ::= SUBSTRING(T) LP a_expr(X) FROM a_expr(F) FOR a_expr(C) RP.
        { A = sql__func_sql(ctx, &T, "substring", SQL_FUNC_SUBSTRING, sql__list4(ctx, X, F, C, NULL)); }
func_expr_common(A) ::= SUBSTRING(T) LP a_expr(X) FOR a_expr(C) FROM a_expr(F) RP.
        { A = sql__func_sql(ctx, &T, "substring", SQL_FUNC_SUBSTRING, sql__list4(ctx, X, F, C, NULL)); }
func_expr_common(A) ::= SUBSTRING(T) LP a_expr(X) FROM a_expr(F) RP.
        { A = sql__func_sql(ctx, &T, "substring", SQL_FUNC_SUBSTRING, sql__list4(ctx, X, F, NULL, NULL)); }
func_expr_common(A) ::= SUBSTRING(T) LP a_expr(X) FOR a_expr(C) RP.
        { A = sql__substring_for(ctx, &T, X, C); }
func_expr_common(A) ::= SUBSTRING(T) LP func_arg_list(L) RP.
        { A = sql__func_sql(ctx, &T, "substring", SQL_FUNC_PLAIN, L); }
func_expr_common(A) ::= TRIM(T) LP BOTH trim_list(L) RP.     { A = sql__func_sql(ctx, &T, "btrim", SQL_FUNC_TRIM, L); }
func_expr_common(A) ::= TRIM(T) LP LEADING trim_list(L) RP.  { A = sql__func_sql(ctx, &T, "ltrim", SQL_FUNC_TRIM, L); }
func_expr_common(A) ::= TRIM(T) LP TRAILING trim_list(L) RP. { A = sql__func_sql(ctx, &T, "rtrim", SQL_FUNC_TRIM, L); }
func_expr_common(A) ::= TRIM(T) LP trim_list(L) RP.          { A = sql__func_sql(ctx, &T, "btrim", SQL_FUNC_TRIM, L); }
func_expr_common(A) ::= NULLIF(T) LP a_expr(X) COMMA a_expr(Y) RP.
        { A = sql__varargs(ctx, &T, SQL_EXPR_NULLIF, sql__list_add(ctx, sql__list1(ctx, X), Y)); }
func_expr_common(A) ::= COALESCE(T) LP expr_list(L) RP. { A = sql__varargs(ctx, &T, SQL_EXPR_COALESCE, L); }
func_expr_common(A) ::= GREATEST(T) LP expr_list(L) RP. { A = sql__varargs(ctx, &T, SQL_EXPR_GREATEST, L); }
func_expr_common(A) ::= LEAST(T) LP expr_list(L) RP.    { A = sql__varargs(ctx, &T, SQL_EXPR_LEAST, L); }

/* trim lists put the string first and the characters to remove second, as btrim() takes them. */
%type trim_list {sql_list_t *}
trim_list(A) ::= a_expr(C) FROM expr_list(L).    { A = sql__list_add(ctx, L, C); }
trim_list(A) ::= FROM expr_list(L).              { A = L; }
trim_list(A) ::= expr_list(L).                   { A = L; }

%type extract_arg {sql_expr_t *}
extract_arg(A) ::= IDENT(T).                     { A = sql__const_word(ctx, &T, NULL); }
extract_arg(A) ::= YEAR(T).                      { A = sql__const_word(ctx, &T, "year"); }
extract_arg(A) ::= MONTH(T).                     { A = sql__const_word(ctx, &T, "month"); }
extract_arg(A) ::= DAY(T).                       { A = sql__const_word(ctx, &T, "day"); }
extract_arg(A) ::= HOUR(T).                      { A = sql__const_word(ctx, &T, "hour"); }
extract_arg(A) ::= MINUTE(T).                    { A = sql__const_word(ctx, &T, "minute"); }
extract_arg(A) ::= SECOND(T).                    { A = sql__const_word(ctx, &T, "second"); }
extract_arg(A) ::= SCONST(T).                    { A = sql__const_string(ctx, &T); }

//////////////////////////////////////////////////////////// type names ////

%type typename {sql_typename_t *}
%type simple_typename {sql_typename_t *}
%type const_typename {sql_typename_t *}
typename(A) ::= simple_typename(T) opt_array_bounds(B). { A = sql__typename_array(ctx, T, B); }
typename(A) ::= simple_typename(T) ARRAY.        { A = sql__typename_array(ctx, T, 1); }
typename(A) ::= simple_typename(T) ARRAY LBRACKET ICONST RBRACKET. { A = sql__typename_array(ctx, T, 1); }

%type opt_array_bounds {int}
opt_array_bounds(A) ::= opt_array_bounds(B) LBRACKET RBRACKET. { A = B + 1; }
opt_array_bounds(A) ::= opt_array_bounds(B) LBRACKET ICONST RBRACKET. { A = B + 1; }
opt_array_bounds(A) ::= .                        { A = 0; }

simple_typename(A) ::= type_function_name(N) opt_type_modifiers(M).
        { A = sql__typename_generic(ctx, N.pos, sql__list1(ctx, (void *)N.str), M); }
simple_typename(A) ::= type_function_name(N) attrs(L) opt_type_modifiers(M).
        { A = sql__typename_generic(ctx, N.pos, sql__list_prepend(ctx, L, (void *)N.str), M); }
simple_typename(A) ::= numeric_type(T).          { A = T; }
simple_typename(A) ::= bit_type(T).              { A = T; }
simple_typename(A) ::= character_type(T).        { A = sql__typename_char_default(ctx, T); }
simple_typename(A) ::= datetime_type(T).         { A = T; }
simple_typename(A) ::= INTERVAL(K) opt_interval(F). { A = sql__typename_interval(ctx, &K, F, -1); }
simple_typename(A) ::= INTERVAL(K) LP ICONST(P) RP. { A = sql__typename_interval(ctx, &K, 0, (int)P.ival); }

const_typename(A) ::= numeric_type(T).           { A = T; }
const_typename(A) ::= bit_type(T).               { A = T; }
const_typename(A) ::= character_type(T).         { A = T; }
const_typename(A) ::= datetime_type(T).          { A = T; }

%type attrs {sql_list_t *}
attrs(A) ::= DOT collabel(N).                    { A = sql__list1(ctx, (void *)N.str); }
attrs(A) ::= attrs(L) DOT collabel(N).           { A = sql__list_add(ctx, L, (void *)N.str); }

%type opt_type_modifiers {sql_list_t *}
opt_type_modifiers(A) ::= LP expr_list(L) RP.    { A = L; }
opt_type_modifiers(A) ::= .                      { A = NULL; }

%type numeric_type {sql_typename_t *}
numeric_type(A) ::= INT(K).                      { A = sql__typename_sys(ctx, &K, "int4", NULL); }
numeric_type(A) ::= INTEGER(K).                  { A = sql__typename_sys(ctx, &K, "int4", NULL); }
numeric_type(A) ::= SMALLINT(K).                 { A = sql__typename_sys(ctx, &K, "int2", NULL); }
numeric_type(A) ::= BIGINT(K).                   { A = sql__typename_sys(ctx, &K, "int8", NULL); }
numeric_type(A) ::= REAL(K).                     { A = sql__typename_sys(ctx, &K, "float4", NULL); }
numeric_type(A) ::= FLOAT(K).                    { A = sql__typename_sys(ctx, &K, "float8", NULL); }
numeric_type(A) ::= FLOAT(K) LP ICONST(P) RP.    { A = sql__typename_float(ctx, &K, &P); }
numeric_type(A) ::= DOUBLE(K) PRECISION.         { A = sql__typename_sys(ctx, &K, "float8", NULL); }
numeric_type(A) ::= DECIMAL(K) opt_type_modifiers(M). { A = sql__typename_sys(ctx, &K, "numeric", M); }
numeric_type(A) ::= DEC(K) opt_type_modifiers(M). { A = sql__typename_sys(ctx, &K, "numeric", M); }
numeric_type(A) ::= NUMERIC(K) opt_type_modifiers(M). { A = sql__typename_sys(ctx, &K, "numeric", M); }
numeric_type(A) ::= BOOLEAN(K).                  { A = sql__typename_sys(ctx, &K, "bool", NULL); }

%type bit_type {sql_typename_t *}
bit_type(A) ::= BIT(K) opt_varying(V) LP expr_list(L) RP. { A = sql__typename_sys(ctx, &K, V ? "varbit" : "bit", L); }
bit_type(A) ::= BIT(K) opt_varying(V).           { A = sql__typename_sys(ctx, &K, V ? "varbit" : "bit", NULL); }

/* character_type marks fixed-length types without a length so that CAST
 * and column types get length 1 while typed literals keep any length. */
%type character_type {sql_typename_t *}
character_type(A) ::= character_kw(T) LP ICONST(P) RP. { A = sql__typename_char(ctx, T, &P); }
character_type(A) ::= character_kw(T).           { A = T; }
%type character_kw {sql_typename_t *}
character_kw(A) ::= CHARACTER(K) opt_varying(V). { A = sql__typename_sys(ctx, &K, V ? "varchar" : "bpchar", NULL); }
character_kw(A) ::= CHAR(K) opt_varying(V).      { A = sql__typename_sys(ctx, &K, V ? "varchar" : "bpchar", NULL); }
character_kw(A) ::= VARCHAR(K).                  { A = sql__typename_sys(ctx, &K, "varchar", NULL); }
character_kw(A) ::= NATIONAL(K) CHARACTER opt_varying(V). { A = sql__typename_sys(ctx, &K, V ? "varchar" : "bpchar", NULL); }
character_kw(A) ::= NATIONAL(K) CHAR opt_varying(V). { A = sql__typename_sys(ctx, &K, V ? "varchar" : "bpchar", NULL); }
character_kw(A) ::= NCHAR(K) opt_varying(V).     { A = sql__typename_sys(ctx, &K, V ? "varchar" : "bpchar", NULL); }

%type opt_varying {int}
opt_varying(A) ::= VARYING.                      { A = 1; }
opt_varying(A) ::= .                             { A = 0; }

%type datetime_type {sql_typename_t *}
datetime_type(A) ::= TIMESTAMP(K) LP ICONST(P) RP opt_timezone(Z).
        { A = sql__typename_datetime(ctx, &K, Z ? "timestamptz" : "timestamp", &P); }
datetime_type(A) ::= TIMESTAMP(K) opt_timezone(Z). { A = sql__typename_datetime(ctx, &K, Z ? "timestamptz" : "timestamp", NULL); }
datetime_type(A) ::= TIME(K) LP ICONST(P) RP opt_timezone(Z).
        { A = sql__typename_datetime(ctx, &K, Z ? "timetz" : "time", &P); }
datetime_type(A) ::= TIME(K) opt_timezone(Z).    { A = sql__typename_datetime(ctx, &K, Z ? "timetz" : "time", NULL); }

%type opt_timezone {int}
opt_timezone(A) ::= WITH_LA TIME ZONE.           { A = 1; }
opt_timezone(A) ::= WITHOUT TIME ZONE.           { A = 0; }
opt_timezone(A) ::= .                            { A = 0; }

/* Interval fields as a mask of SQL_INTERVAL_* bits; SECOND(p) adds p + 1
 * above SQL_INTERVAL_PREC_SHIFT (sql__typename_interval takes it apart). */
%type opt_interval {int}
%type interval_second {int}
opt_interval(A) ::= YEAR.                        { A = SQL_INTERVAL_YEAR; }
opt_interval(A) ::= MONTH.                       { A = SQL_INTERVAL_MONTH; }
opt_interval(A) ::= DAY.                         { A = SQL_INTERVAL_DAY; }
opt_interval(A) ::= HOUR.                        { A = SQL_INTERVAL_HOUR; }
opt_interval(A) ::= MINUTE.                      { A = SQL_INTERVAL_MINUTE; }
opt_interval(A) ::= interval_second(S).          { A = S; }
opt_interval(A) ::= YEAR TO MONTH.               { A = SQL_INTERVAL_YEAR | SQL_INTERVAL_MONTH; }
opt_interval(A) ::= DAY TO HOUR.                 { A = SQL_INTERVAL_DAY | SQL_INTERVAL_HOUR; }
opt_interval(A) ::= DAY TO MINUTE.               { A = SQL_INTERVAL_DAY | SQL_INTERVAL_HOUR | SQL_INTERVAL_MINUTE; }
opt_interval(A) ::= DAY TO interval_second(S).   { A = SQL_INTERVAL_DAY | SQL_INTERVAL_HOUR | SQL_INTERVAL_MINUTE | S; }
opt_interval(A) ::= HOUR TO MINUTE.              { A = SQL_INTERVAL_HOUR | SQL_INTERVAL_MINUTE; }
opt_interval(A) ::= HOUR TO interval_second(S).  { A = SQL_INTERVAL_HOUR | SQL_INTERVAL_MINUTE | S; }
opt_interval(A) ::= MINUTE TO interval_second(S). { A = SQL_INTERVAL_MINUTE | S; }
opt_interval(A) ::= .                            { A = 0; }
interval_second(A) ::= SECOND.                   { A = SQL_INTERVAL_SECOND; }
interval_second(A) ::= SECOND LP ICONST(P) RP.   { A = SQL_INTERVAL_SECOND | sql__interval_prec(P.ival); }

////////////////////////////////////////////////// names and keywords ////

%type colid {sql_token_t}
%type type_function_name {sql_token_t}
%type collabel {sql_token_t}
%type bare_col_label {sql_token_t}
%type nonreserved_word {sql_token_t}

colid(A) ::= IDENT(T).                           { A = T; }
colid(A) ::= unreserved_keyword(T).              { A = T; }
colid(A) ::= col_name_keyword(T).                { A = T; }

type_function_name(A) ::= IDENT(T).              { A = T; }
type_function_name(A) ::= unreserved_keyword(T). { A = T; }
type_function_name(A) ::= type_func_name_keyword(T). { A = T; }

nonreserved_word(A) ::= IDENT(T).                { A = T; }
nonreserved_word(A) ::= unreserved_keyword(T).   { A = T; }
nonreserved_word(A) ::= col_name_keyword(T).     { A = T; }
nonreserved_word(A) ::= type_func_name_keyword(T). { A = T; }

collabel(A) ::= IDENT(T).                        { A = T; }
collabel(A) ::= unreserved_keyword(T).           { A = T; }
collabel(A) ::= col_name_keyword(T).             { A = T; }
collabel(A) ::= type_func_name_keyword(T).       { A = T; }
collabel(A) ::= reserved_keyword(T).             { A = T; }

bare_col_label(A) ::= IDENT(T).                  { A = T; }
bare_col_label(A) ::= bare_label_keyword(T).     { A = T; }

%type unreserved_keyword {sql_token_t}
%type col_name_keyword {sql_token_t}
%type type_func_name_keyword {sql_token_t}
%type reserved_keyword {sql_token_t}
%type bare_label_keyword {sql_token_t}

unreserved_keyword(A) ::= ABORT(T). { A = T; }
unreserved_keyword(A) ::= AT(T). { A = T; }
unreserved_keyword(A) ::= BEGIN(T). { A = T; }
unreserved_keyword(A) ::= BY(T). { A = T; }
unreserved_keyword(A) ::= CHAIN(T). { A = T; }
unreserved_keyword(A) ::= CHARACTERISTICS(T). { A = T; }
unreserved_keyword(A) ::= COMMIT(T). { A = T; }
unreserved_keyword(A) ::= COMMITTED(T). { A = T; }
unreserved_keyword(A) ::= DAY(T). { A = T; }
unreserved_keyword(A) ::= DISCARD(T). { A = T; }
unreserved_keyword(A) ::= DOUBLE(T). { A = T; }
unreserved_keyword(A) ::= ESCAPE(T). { A = T; }
unreserved_keyword(A) ::= FILTER(T). { A = T; }
unreserved_keyword(A) ::= FIRST(T). { A = T; }
unreserved_keyword(A) ::= HOUR(T). { A = T; }
unreserved_keyword(A) ::= ISOLATION(T). { A = T; }
unreserved_keyword(A) ::= LAST(T). { A = T; }
unreserved_keyword(A) ::= LEVEL(T). { A = T; }
unreserved_keyword(A) ::= LOCAL(T). { A = T; }
unreserved_keyword(A) ::= MINUTE(T). { A = T; }
unreserved_keyword(A) ::= MONTH(T). { A = T; }
unreserved_keyword(A) ::= NAMES(T). { A = T; }
unreserved_keyword(A) ::= NO(T). { A = T; }
unreserved_keyword(A) ::= NULLS(T). { A = T; }
unreserved_keyword(A) ::= OVER(T). { A = T; }
unreserved_keyword(A) ::= PLANS(T). { A = T; }
unreserved_keyword(A) ::= READ(T). { A = T; }
unreserved_keyword(A) ::= REPEATABLE(T). { A = T; }
unreserved_keyword(A) ::= RESET(T). { A = T; }
unreserved_keyword(A) ::= ROLLBACK(T). { A = T; }
unreserved_keyword(A) ::= SCHEMA(T). { A = T; }
unreserved_keyword(A) ::= SECOND(T). { A = T; }
unreserved_keyword(A) ::= SEQUENCES(T). { A = T; }
unreserved_keyword(A) ::= SERIALIZABLE(T). { A = T; }
unreserved_keyword(A) ::= SESSION(T). { A = T; }
unreserved_keyword(A) ::= SET(T). { A = T; }
unreserved_keyword(A) ::= SHOW(T). { A = T; }
unreserved_keyword(A) ::= START(T). { A = T; }
unreserved_keyword(A) ::= TEMP(T). { A = T; }
unreserved_keyword(A) ::= TEMPORARY(T). { A = T; }
unreserved_keyword(A) ::= TRANSACTION(T). { A = T; }
unreserved_keyword(A) ::= UNCOMMITTED(T). { A = T; }
unreserved_keyword(A) ::= UNKNOWN(T). { A = T; }
unreserved_keyword(A) ::= VARYING(T). { A = T; }
unreserved_keyword(A) ::= WITHIN(T). { A = T; }
unreserved_keyword(A) ::= WITHOUT(T). { A = T; }
unreserved_keyword(A) ::= WORK(T). { A = T; }
unreserved_keyword(A) ::= WRITE(T). { A = T; }
unreserved_keyword(A) ::= YEAR(T). { A = T; }
unreserved_keyword(A) ::= ZONE(T). { A = T; }
unreserved_keyword(A) ::= ALTER(T). { A = T; }
unreserved_keyword(A) ::= CASCADE(T). { A = T; }
unreserved_keyword(A) ::= COLUMNS(T). { A = T; }
unreserved_keyword(A) ::= COPY(T). { A = T; }
unreserved_keyword(A) ::= TRUNCATE(T). { A = T; }
unreserved_keyword(A) ::= RESTART(T). { A = T; }
unreserved_keyword(A) ::= NOTHING(T). { A = T; }
unreserved_keyword(A) ::= IDENTITY(T). { A = T; }
unreserved_keyword(A) ::= CONTINUE(T). { A = T; }
unreserved_keyword(A) ::= CONFLICT(T). { A = T; }
unreserved_keyword(A) ::= CSV(T). { A = T; }
unreserved_keyword(A) ::= CURRENT(T). { A = T; }
unreserved_keyword(A) ::= DATABASE(T). { A = T; }
unreserved_keyword(A) ::= DEALLOCATE(T). { A = T; }
unreserved_keyword(A) ::= SCROLL(T). { A = T; }
unreserved_keyword(A) ::= HOLD(T). { A = T; }
unreserved_keyword(A) ::= FORWARD(T). { A = T; }
unreserved_keyword(A) ::= DECLARE(T). { A = T; }
unreserved_keyword(A) ::= CURSOR(T). { A = T; }
unreserved_keyword(A) ::= CLOSE(T). { A = T; }
unreserved_keyword(A) ::= DELETE(T). { A = T; }
unreserved_keyword(A) ::= DELIMITER(T). { A = T; }
unreserved_keyword(A) ::= DROP(T). { A = T; }
unreserved_keyword(A) ::= EXCLUDE(T). { A = T; }
unreserved_keyword(A) ::= EXECUTE(T). { A = T; }
unreserved_keyword(A) ::= EXPLAIN(T). { A = T; }
unreserved_keyword(A) ::= FOLLOWING(T). { A = T; }
unreserved_keyword(A) ::= GROUPS(T). { A = T; }
unreserved_keyword(A) ::= HEADER(T). { A = T; }
unreserved_keyword(A) ::= IF_P(T). { A = T; }
unreserved_keyword(A) ::= INDEX(T). { A = T; }
unreserved_keyword(A) ::= INDEXES(T). { A = T; }
unreserved_keyword(A) ::= INSERT(T). { A = T; }
unreserved_keyword(A) ::= KEY(T). { A = T; }
unreserved_keyword(A) ::= LOAD(T). { A = T; }
unreserved_keyword(A) ::= MATERIALIZED(T). { A = T; }
unreserved_keyword(A) ::= NEXT(T). { A = T; }
unreserved_keyword(A) ::= OPERATOR(T). { A = T; }
unreserved_keyword(A) ::= ORDINALITY(T). { A = T; }
unreserved_keyword(A) ::= OTHERS(T). { A = T; }
unreserved_keyword(A) ::= PARTITION(T). { A = T; }
unreserved_keyword(A) ::= PRECEDING(T). { A = T; }
unreserved_keyword(A) ::= PREPARE(T). { A = T; }
unreserved_keyword(A) ::= QUOTE(T). { A = T; }
unreserved_keyword(A) ::= RANGE(T). { A = T; }
unreserved_keyword(A) ::= RECURSIVE(T). { A = T; }
unreserved_keyword(A) ::= RENAME(T). { A = T; }
unreserved_keyword(A) ::= REVOKE(T). { A = T; }
unreserved_keyword(A) ::= REPLACE(T). { A = T; }
unreserved_keyword(A) ::= RESTRICT(T). { A = T; }
unreserved_keyword(A) ::= ROWS(T). { A = T; }
unreserved_keyword(A) ::= SCHEMAS(T). { A = T; }
unreserved_keyword(A) ::= STDIN(T). { A = T; }
unreserved_keyword(A) ::= STDOUT(T). { A = T; }
unreserved_keyword(A) ::= TABLES(T). { A = T; }
unreserved_keyword(A) ::= TEXT(T). { A = T; }
unreserved_keyword(A) ::= TIES(T). { A = T; }
unreserved_keyword(A) ::= UNBOUNDED(T). { A = T; }
unreserved_keyword(A) ::= UPDATE(T). { A = T; }
unreserved_keyword(A) ::= VIEW(T). { A = T; }
unreserved_keyword(A) ::= VIEWS(T). { A = T; }
unreserved_keyword(A) ::= AUCTION(T). { A = T; }
unreserved_keyword(A) ::= BROKER(T). { A = T; }
unreserved_keyword(A) ::= BYTES(T). { A = T; }
unreserved_keyword(A) ::= COUNTER(T). { A = T; }
unreserved_keyword(A) ::= DATABASES(T). { A = T; }
unreserved_keyword(A) ::= DELIMITED(T). { A = T; }
unreserved_keyword(A) ::= FILE(T). { A = T; }
unreserved_keyword(A) ::= FORMAT(T). { A = T; }
unreserved_keyword(A) ::= GENERATOR(T). { A = T; }
unreserved_keyword(A) ::= JSON(T). { A = T; }
unreserved_keyword(A) ::= KAFKA(T). { A = T; }
unreserved_keyword(A) ::= OBJECTS(T). { A = T; }
unreserved_keyword(A) ::= PLAN(T). { A = T; }
unreserved_keyword(A) ::= REGEX(T). { A = T; }
unreserved_keyword(A) ::= SOURCE(T). { A = T; }
unreserved_keyword(A) ::= SOURCES(T). { A = T; }
unreserved_keyword(A) ::= SUBSCRIBE(T). { A = T; }
unreserved_keyword(A) ::= TOPIC(T). { A = T; }
unreserved_keyword(A) ::= TPCH(T). { A = T; }

col_name_keyword(A) ::= BETWEEN(T). { A = T; }
col_name_keyword(A) ::= BIGINT(T). { A = T; }
col_name_keyword(A) ::= BIT(T). { A = T; }
col_name_keyword(A) ::= BOOLEAN(T). { A = T; }
col_name_keyword(A) ::= CHAR(T). { A = T; }
col_name_keyword(A) ::= CHARACTER(T). { A = T; }
col_name_keyword(A) ::= COALESCE(T). { A = T; }
col_name_keyword(A) ::= DEC(T). { A = T; }
col_name_keyword(A) ::= DECIMAL(T). { A = T; }
col_name_keyword(A) ::= EXISTS(T). { A = T; }
col_name_keyword(A) ::= EXTRACT(T). { A = T; }
col_name_keyword(A) ::= FLOAT(T). { A = T; }
col_name_keyword(A) ::= GREATEST(T). { A = T; }
col_name_keyword(A) ::= GROUPING(T). { A = T; }
col_name_keyword(A) ::= INOUT(T). { A = T; }
col_name_keyword(A) ::= INT(T). { A = T; }
col_name_keyword(A) ::= INTEGER(T). { A = T; }
col_name_keyword(A) ::= INTERVAL(T). { A = T; }
col_name_keyword(A) ::= LEAST(T). { A = T; }
col_name_keyword(A) ::= NATIONAL(T). { A = T; }
col_name_keyword(A) ::= NCHAR(T). { A = T; }
col_name_keyword(A) ::= NONE(T). { A = T; }
col_name_keyword(A) ::= NORMALIZE(T). { A = T; }
col_name_keyword(A) ::= NULLIF(T). { A = T; }
col_name_keyword(A) ::= NUMERIC(T). { A = T; }
col_name_keyword(A) ::= OUT(T). { A = T; }
col_name_keyword(A) ::= OVERLAY(T). { A = T; }
col_name_keyword(A) ::= POSITION(T). { A = T; }
col_name_keyword(A) ::= PRECISION(T). { A = T; }
col_name_keyword(A) ::= REAL(T). { A = T; }
col_name_keyword(A) ::= ROW(T). { A = T; }
col_name_keyword(A) ::= SETOF(T). { A = T; }
col_name_keyword(A) ::= SMALLINT(T). { A = T; }
col_name_keyword(A) ::= SUBSTRING(T). { A = T; }
col_name_keyword(A) ::= TIME(T). { A = T; }
col_name_keyword(A) ::= TIMESTAMP(T). { A = T; }
col_name_keyword(A) ::= TREAT(T). { A = T; }
col_name_keyword(A) ::= TRIM(T). { A = T; }
col_name_keyword(A) ::= VALUES(T). { A = T; }
col_name_keyword(A) ::= VARCHAR(T). { A = T; }
col_name_keyword(A) ::= XMLATTRIBUTES(T). { A = T; }
col_name_keyword(A) ::= XMLCONCAT(T). { A = T; }
col_name_keyword(A) ::= XMLELEMENT(T). { A = T; }
col_name_keyword(A) ::= XMLEXISTS(T). { A = T; }
col_name_keyword(A) ::= XMLFOREST(T). { A = T; }
col_name_keyword(A) ::= XMLNAMESPACES(T). { A = T; }
col_name_keyword(A) ::= XMLPARSE(T). { A = T; }
col_name_keyword(A) ::= XMLPI(T). { A = T; }
col_name_keyword(A) ::= XMLROOT(T). { A = T; }
col_name_keyword(A) ::= XMLSERIALIZE(T). { A = T; }
col_name_keyword(A) ::= XMLTABLE(T). { A = T; }

type_func_name_keyword(A) ::= AUTHORIZATION(T). { A = T; }
type_func_name_keyword(A) ::= BINARY(T). { A = T; }
type_func_name_keyword(A) ::= COLLATION(T). { A = T; }
type_func_name_keyword(A) ::= CONCURRENTLY(T). { A = T; }
type_func_name_keyword(A) ::= CROSS(T). { A = T; }
type_func_name_keyword(A) ::= CURRENT_SCHEMA(T). { A = T; }
type_func_name_keyword(A) ::= FREEZE(T). { A = T; }
type_func_name_keyword(A) ::= FULL(T). { A = T; }
type_func_name_keyword(A) ::= ILIKE(T). { A = T; }
type_func_name_keyword(A) ::= INNER(T). { A = T; }
type_func_name_keyword(A) ::= IS(T). { A = T; }
type_func_name_keyword(A) ::= ISNULL(T). { A = T; }
type_func_name_keyword(A) ::= JOIN(T). { A = T; }
type_func_name_keyword(A) ::= LEFT(T). { A = T; }
type_func_name_keyword(A) ::= LIKE(T). { A = T; }
type_func_name_keyword(A) ::= NATURAL(T). { A = T; }
type_func_name_keyword(A) ::= NOTNULL(T). { A = T; }
type_func_name_keyword(A) ::= OUTER(T). { A = T; }
type_func_name_keyword(A) ::= OVERLAPS(T). { A = T; }
type_func_name_keyword(A) ::= RIGHT(T). { A = T; }
type_func_name_keyword(A) ::= SIMILAR(T). { A = T; }
type_func_name_keyword(A) ::= TABLESAMPLE(T). { A = T; }
type_func_name_keyword(A) ::= VERBOSE(T). { A = T; }

reserved_keyword(A) ::= ALL(T). { A = T; }
reserved_keyword(A) ::= ANALYSE(T). { A = T; }
reserved_keyword(A) ::= ANALYZE(T). { A = T; }
reserved_keyword(A) ::= AND(T). { A = T; }
reserved_keyword(A) ::= ANY(T). { A = T; }
reserved_keyword(A) ::= ARRAY(T). { A = T; }
reserved_keyword(A) ::= AS(T). { A = T; }
reserved_keyword(A) ::= ASC(T). { A = T; }
reserved_keyword(A) ::= ASYMMETRIC(T). { A = T; }
reserved_keyword(A) ::= BOTH(T). { A = T; }
reserved_keyword(A) ::= CASE(T). { A = T; }
reserved_keyword(A) ::= CAST(T). { A = T; }
reserved_keyword(A) ::= CHECK(T). { A = T; }
reserved_keyword(A) ::= COLLATE(T). { A = T; }
reserved_keyword(A) ::= COLUMN(T). { A = T; }
reserved_keyword(A) ::= CONSTRAINT(T). { A = T; }
reserved_keyword(A) ::= CREATE(T). { A = T; }
reserved_keyword(A) ::= CURRENT_CATALOG(T). { A = T; }
reserved_keyword(A) ::= CURRENT_DATE(T). { A = T; }
reserved_keyword(A) ::= CURRENT_ROLE(T). { A = T; }
reserved_keyword(A) ::= CURRENT_TIME(T). { A = T; }
reserved_keyword(A) ::= CURRENT_TIMESTAMP(T). { A = T; }
reserved_keyword(A) ::= CURRENT_USER(T). { A = T; }
reserved_keyword(A) ::= DEFAULT(T). { A = T; }
reserved_keyword(A) ::= DEFERRABLE(T). { A = T; }
reserved_keyword(A) ::= DESC(T). { A = T; }
reserved_keyword(A) ::= DISTINCT(T). { A = T; }
reserved_keyword(A) ::= DO(T). { A = T; }
reserved_keyword(A) ::= ELSE(T). { A = T; }
reserved_keyword(A) ::= END(T). { A = T; }
reserved_keyword(A) ::= EXCEPT(T). { A = T; }
reserved_keyword(A) ::= FALSE(T). { A = T; }
reserved_keyword(A) ::= FETCH(T). { A = T; }
reserved_keyword(A) ::= FOR(T). { A = T; }
reserved_keyword(A) ::= FOREIGN(T). { A = T; }
reserved_keyword(A) ::= FROM(T). { A = T; }
reserved_keyword(A) ::= GRANT(T). { A = T; }
reserved_keyword(A) ::= GROUP(T). { A = T; }
reserved_keyword(A) ::= HAVING(T). { A = T; }
reserved_keyword(A) ::= IN(T). { A = T; }
reserved_keyword(A) ::= INITIALLY(T). { A = T; }
reserved_keyword(A) ::= INTERSECT(T). { A = T; }
reserved_keyword(A) ::= INTO(T). { A = T; }
reserved_keyword(A) ::= LATERAL(T). { A = T; }
reserved_keyword(A) ::= LEADING(T). { A = T; }
reserved_keyword(A) ::= LIMIT(T). { A = T; }
reserved_keyword(A) ::= LOCALTIME(T). { A = T; }
reserved_keyword(A) ::= LOCALTIMESTAMP(T). { A = T; }
reserved_keyword(A) ::= NOT(T). { A = T; }
reserved_keyword(A) ::= NULL(T). { A = T; }
reserved_keyword(A) ::= OFFSET(T). { A = T; }
reserved_keyword(A) ::= ON(T). { A = T; }
reserved_keyword(A) ::= ONLY(T). { A = T; }
reserved_keyword(A) ::= OR(T). { A = T; }
reserved_keyword(A) ::= ORDER(T). { A = T; }
reserved_keyword(A) ::= PLACING(T). { A = T; }
reserved_keyword(A) ::= PRIMARY(T). { A = T; }
reserved_keyword(A) ::= REFERENCES(T). { A = T; }
reserved_keyword(A) ::= RETURNING(T). { A = T; }
reserved_keyword(A) ::= SELECT(T). { A = T; }
reserved_keyword(A) ::= SESSION_USER(T). { A = T; }
reserved_keyword(A) ::= SOME(T). { A = T; }
reserved_keyword(A) ::= SYMMETRIC(T). { A = T; }
reserved_keyword(A) ::= TABLE(T). { A = T; }
reserved_keyword(A) ::= THEN(T). { A = T; }
reserved_keyword(A) ::= TO(T). { A = T; }
reserved_keyword(A) ::= TRAILING(T). { A = T; }
reserved_keyword(A) ::= TRUE(T). { A = T; }
reserved_keyword(A) ::= UNION(T). { A = T; }
reserved_keyword(A) ::= UNIQUE(T). { A = T; }
reserved_keyword(A) ::= USER(T). { A = T; }
reserved_keyword(A) ::= USING(T). { A = T; }
reserved_keyword(A) ::= VARIADIC(T). { A = T; }
reserved_keyword(A) ::= WHEN(T). { A = T; }
reserved_keyword(A) ::= WHERE(T). { A = T; }
reserved_keyword(A) ::= WINDOW(T). { A = T; }
reserved_keyword(A) ::= WITH(T). { A = T; }

/* Every keyword may follow an expression as a bare column label except
 * those PostgreSQL marks AS_LABEL, which could continue the expression. */
bare_label_keyword(A) ::= ABORT(T). { A = T; }
bare_label_keyword(A) ::= AT(T). { A = T; }
bare_label_keyword(A) ::= BEGIN(T). { A = T; }
bare_label_keyword(A) ::= BY(T). { A = T; }
bare_label_keyword(A) ::= CHAIN(T). { A = T; }
bare_label_keyword(A) ::= CHARACTERISTICS(T). { A = T; }
bare_label_keyword(A) ::= COMMIT(T). { A = T; }
bare_label_keyword(A) ::= COMMITTED(T). { A = T; }
bare_label_keyword(A) ::= DISCARD(T). { A = T; }
bare_label_keyword(A) ::= DOUBLE(T). { A = T; }
bare_label_keyword(A) ::= ESCAPE(T). { A = T; }
bare_label_keyword(A) ::= FIRST(T). { A = T; }
bare_label_keyword(A) ::= ISOLATION(T). { A = T; }
bare_label_keyword(A) ::= LAST(T). { A = T; }
bare_label_keyword(A) ::= LEVEL(T). { A = T; }
bare_label_keyword(A) ::= LOCAL(T). { A = T; }
bare_label_keyword(A) ::= NAMES(T). { A = T; }
bare_label_keyword(A) ::= NO(T). { A = T; }
bare_label_keyword(A) ::= NULLS(T). { A = T; }
bare_label_keyword(A) ::= PLANS(T). { A = T; }
bare_label_keyword(A) ::= READ(T). { A = T; }
bare_label_keyword(A) ::= REPEATABLE(T). { A = T; }
bare_label_keyword(A) ::= RESET(T). { A = T; }
bare_label_keyword(A) ::= ROLLBACK(T). { A = T; }
bare_label_keyword(A) ::= SCHEMA(T). { A = T; }
bare_label_keyword(A) ::= SEQUENCES(T). { A = T; }
bare_label_keyword(A) ::= SERIALIZABLE(T). { A = T; }
bare_label_keyword(A) ::= SESSION(T). { A = T; }
bare_label_keyword(A) ::= SET(T). { A = T; }
bare_label_keyword(A) ::= SHOW(T). { A = T; }
bare_label_keyword(A) ::= START(T). { A = T; }
bare_label_keyword(A) ::= TEMP(T). { A = T; }
bare_label_keyword(A) ::= TEMPORARY(T). { A = T; }
bare_label_keyword(A) ::= TRANSACTION(T). { A = T; }
bare_label_keyword(A) ::= UNCOMMITTED(T). { A = T; }
bare_label_keyword(A) ::= UNKNOWN(T). { A = T; }
bare_label_keyword(A) ::= WORK(T). { A = T; }
bare_label_keyword(A) ::= WRITE(T). { A = T; }
bare_label_keyword(A) ::= ZONE(T). { A = T; }
bare_label_keyword(A) ::= ALTER(T). { A = T; }
bare_label_keyword(A) ::= CASCADE(T). { A = T; }
bare_label_keyword(A) ::= COLUMNS(T). { A = T; }
bare_label_keyword(A) ::= COPY(T). { A = T; }
bare_label_keyword(A) ::= TRUNCATE(T). { A = T; }
bare_label_keyword(A) ::= RESTART(T). { A = T; }
bare_label_keyword(A) ::= NOTHING(T). { A = T; }
bare_label_keyword(A) ::= IDENTITY(T). { A = T; }
bare_label_keyword(A) ::= CONTINUE(T). { A = T; }
bare_label_keyword(A) ::= CONFLICT(T). { A = T; }
bare_label_keyword(A) ::= CSV(T). { A = T; }
bare_label_keyword(A) ::= CURRENT(T). { A = T; }
bare_label_keyword(A) ::= DATABASE(T). { A = T; }
bare_label_keyword(A) ::= DEALLOCATE(T). { A = T; }
bare_label_keyword(A) ::= SCROLL(T). { A = T; }
bare_label_keyword(A) ::= HOLD(T). { A = T; }
bare_label_keyword(A) ::= FORWARD(T). { A = T; }
bare_label_keyword(A) ::= DECLARE(T). { A = T; }
bare_label_keyword(A) ::= CURSOR(T). { A = T; }
bare_label_keyword(A) ::= CLOSE(T). { A = T; }
bare_label_keyword(A) ::= DELETE(T). { A = T; }
bare_label_keyword(A) ::= DELIMITER(T). { A = T; }
bare_label_keyword(A) ::= DROP(T). { A = T; }
bare_label_keyword(A) ::= EXCLUDE(T). { A = T; }
bare_label_keyword(A) ::= EXECUTE(T). { A = T; }
bare_label_keyword(A) ::= EXPLAIN(T). { A = T; }
bare_label_keyword(A) ::= FOLLOWING(T). { A = T; }
bare_label_keyword(A) ::= GROUPS(T). { A = T; }
bare_label_keyword(A) ::= HEADER(T). { A = T; }
bare_label_keyword(A) ::= IF_P(T). { A = T; }
bare_label_keyword(A) ::= INDEX(T). { A = T; }
bare_label_keyword(A) ::= INDEXES(T). { A = T; }
bare_label_keyword(A) ::= INSERT(T). { A = T; }
bare_label_keyword(A) ::= KEY(T). { A = T; }
bare_label_keyword(A) ::= LOAD(T). { A = T; }
bare_label_keyword(A) ::= MATERIALIZED(T). { A = T; }
bare_label_keyword(A) ::= NEXT(T). { A = T; }
bare_label_keyword(A) ::= OPERATOR(T). { A = T; }
bare_label_keyword(A) ::= ORDINALITY(T). { A = T; }
bare_label_keyword(A) ::= OTHERS(T). { A = T; }
bare_label_keyword(A) ::= PARTITION(T). { A = T; }
bare_label_keyword(A) ::= PRECEDING(T). { A = T; }
bare_label_keyword(A) ::= PREPARE(T). { A = T; }
bare_label_keyword(A) ::= QUOTE(T). { A = T; }
bare_label_keyword(A) ::= RANGE(T). { A = T; }
bare_label_keyword(A) ::= RECURSIVE(T). { A = T; }
bare_label_keyword(A) ::= RENAME(T). { A = T; }
bare_label_keyword(A) ::= REVOKE(T). { A = T; }
bare_label_keyword(A) ::= REPLACE(T). { A = T; }
bare_label_keyword(A) ::= RESTRICT(T). { A = T; }
bare_label_keyword(A) ::= ROWS(T). { A = T; }
bare_label_keyword(A) ::= SCHEMAS(T). { A = T; }
bare_label_keyword(A) ::= STDIN(T). { A = T; }
bare_label_keyword(A) ::= STDOUT(T). { A = T; }
bare_label_keyword(A) ::= TABLES(T). { A = T; }
bare_label_keyword(A) ::= TEXT(T). { A = T; }
bare_label_keyword(A) ::= TIES(T). { A = T; }
bare_label_keyword(A) ::= UNBOUNDED(T). { A = T; }
bare_label_keyword(A) ::= UPDATE(T). { A = T; }
bare_label_keyword(A) ::= VIEW(T). { A = T; }
bare_label_keyword(A) ::= VIEWS(T). { A = T; }
bare_label_keyword(A) ::= AUCTION(T). { A = T; }
bare_label_keyword(A) ::= BROKER(T). { A = T; }
bare_label_keyword(A) ::= BYTES(T). { A = T; }
bare_label_keyword(A) ::= COUNTER(T). { A = T; }
bare_label_keyword(A) ::= DATABASES(T). { A = T; }
bare_label_keyword(A) ::= DELIMITED(T). { A = T; }
bare_label_keyword(A) ::= FILE(T). { A = T; }
bare_label_keyword(A) ::= FORMAT(T). { A = T; }
bare_label_keyword(A) ::= GENERATOR(T). { A = T; }
bare_label_keyword(A) ::= JSON(T). { A = T; }
bare_label_keyword(A) ::= KAFKA(T). { A = T; }
bare_label_keyword(A) ::= OBJECTS(T). { A = T; }
bare_label_keyword(A) ::= PLAN(T). { A = T; }
bare_label_keyword(A) ::= REGEX(T). { A = T; }
bare_label_keyword(A) ::= SOURCE(T). { A = T; }
bare_label_keyword(A) ::= SOURCES(T). { A = T; }
bare_label_keyword(A) ::= SUBSCRIBE(T). { A = T; }
bare_label_keyword(A) ::= TOPIC(T). { A = T; }
bare_label_keyword(A) ::= TPCH(T). { A = T; }
bare_label_keyword(A) ::= BETWEEN(T). { A = T; }
bare_label_keyword(A) ::= BIGINT(T). { A = T; }
bare_label_keyword(A) ::= BIT(T). { A = T; }
bare_label_keyword(A) ::= BOOLEAN(T). { A = T; }
bare_label_keyword(A) ::= COALESCE(T). { A = T; }
bare_label_keyword(A) ::= DEC(T). { A = T; }
bare_label_keyword(A) ::= DECIMAL(T). { A = T; }
bare_label_keyword(A) ::= EXISTS(T). { A = T; }
bare_label_keyword(A) ::= EXTRACT(T). { A = T; }
bare_label_keyword(A) ::= FLOAT(T). { A = T; }
bare_label_keyword(A) ::= GREATEST(T). { A = T; }
bare_label_keyword(A) ::= GROUPING(T). { A = T; }
bare_label_keyword(A) ::= INOUT(T). { A = T; }
bare_label_keyword(A) ::= INT(T). { A = T; }
bare_label_keyword(A) ::= INTEGER(T). { A = T; }
bare_label_keyword(A) ::= INTERVAL(T). { A = T; }
bare_label_keyword(A) ::= LEAST(T). { A = T; }
bare_label_keyword(A) ::= NATIONAL(T). { A = T; }
bare_label_keyword(A) ::= NCHAR(T). { A = T; }
bare_label_keyword(A) ::= NONE(T). { A = T; }
bare_label_keyword(A) ::= NORMALIZE(T). { A = T; }
bare_label_keyword(A) ::= NULLIF(T). { A = T; }
bare_label_keyword(A) ::= NUMERIC(T). { A = T; }
bare_label_keyword(A) ::= OUT(T). { A = T; }
bare_label_keyword(A) ::= OVERLAY(T). { A = T; }
bare_label_keyword(A) ::= POSITION(T). { A = T; }
bare_label_keyword(A) ::= REAL(T). { A = T; }
bare_label_keyword(A) ::= ROW(T). { A = T; }
bare_label_keyword(A) ::= SETOF(T). { A = T; }
bare_label_keyword(A) ::= SMALLINT(T). { A = T; }
bare_label_keyword(A) ::= SUBSTRING(T). { A = T; }
bare_label_keyword(A) ::= TIME(T). { A = T; }
bare_label_keyword(A) ::= TIMESTAMP(T). { A = T; }
bare_label_keyword(A) ::= TREAT(T). { A = T; }
bare_label_keyword(A) ::= TRIM(T). { A = T; }
bare_label_keyword(A) ::= VALUES(T). { A = T; }
bare_label_keyword(A) ::= VARCHAR(T). { A = T; }
bare_label_keyword(A) ::= XMLATTRIBUTES(T). { A = T; }
bare_label_keyword(A) ::= XMLCONCAT(T). { A = T; }
bare_label_keyword(A) ::= XMLELEMENT(T). { A = T; }
bare_label_keyword(A) ::= XMLEXISTS(T). { A = T; }
bare_label_keyword(A) ::= XMLFOREST(T). { A = T; }
bare_label_keyword(A) ::= XMLNAMESPACES(T). { A = T; }
bare_label_keyword(A) ::= XMLPARSE(T). { A = T; }
bare_label_keyword(A) ::= XMLPI(T). { A = T; }
bare_label_keyword(A) ::= XMLROOT(T). { A = T; }
bare_label_keyword(A) ::= XMLSERIALIZE(T). { A = T; }
bare_label_keyword(A) ::= XMLTABLE(T). { A = T; }
bare_label_keyword(A) ::= AUTHORIZATION(T). { A = T; }
bare_label_keyword(A) ::= BINARY(T). { A = T; }
bare_label_keyword(A) ::= COLLATION(T). { A = T; }
bare_label_keyword(A) ::= CONCURRENTLY(T). { A = T; }
bare_label_keyword(A) ::= CROSS(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_SCHEMA(T). { A = T; }
bare_label_keyword(A) ::= FREEZE(T). { A = T; }
bare_label_keyword(A) ::= FULL(T). { A = T; }
bare_label_keyword(A) ::= ILIKE(T). { A = T; }
bare_label_keyword(A) ::= INNER(T). { A = T; }
bare_label_keyword(A) ::= IS(T). { A = T; }
bare_label_keyword(A) ::= JOIN(T). { A = T; }
bare_label_keyword(A) ::= LEFT(T). { A = T; }
bare_label_keyword(A) ::= LIKE(T). { A = T; }
bare_label_keyword(A) ::= NATURAL(T). { A = T; }
bare_label_keyword(A) ::= OUTER(T). { A = T; }
bare_label_keyword(A) ::= RIGHT(T). { A = T; }
bare_label_keyword(A) ::= SIMILAR(T). { A = T; }
bare_label_keyword(A) ::= TABLESAMPLE(T). { A = T; }
bare_label_keyword(A) ::= VERBOSE(T). { A = T; }
bare_label_keyword(A) ::= ALL(T). { A = T; }
bare_label_keyword(A) ::= ANALYSE(T). { A = T; }
bare_label_keyword(A) ::= ANALYZE(T). { A = T; }
bare_label_keyword(A) ::= AND(T). { A = T; }
bare_label_keyword(A) ::= ANY(T). { A = T; }
bare_label_keyword(A) ::= ASC(T). { A = T; }
bare_label_keyword(A) ::= ASYMMETRIC(T). { A = T; }
bare_label_keyword(A) ::= BOTH(T). { A = T; }
bare_label_keyword(A) ::= CASE(T). { A = T; }
bare_label_keyword(A) ::= CAST(T). { A = T; }
bare_label_keyword(A) ::= CHECK(T). { A = T; }
bare_label_keyword(A) ::= COLLATE(T). { A = T; }
bare_label_keyword(A) ::= COLUMN(T). { A = T; }
bare_label_keyword(A) ::= CONSTRAINT(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_CATALOG(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_DATE(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_ROLE(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_TIME(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_TIMESTAMP(T). { A = T; }
bare_label_keyword(A) ::= CURRENT_USER(T). { A = T; }
bare_label_keyword(A) ::= DEFAULT(T). { A = T; }
bare_label_keyword(A) ::= DEFERRABLE(T). { A = T; }
bare_label_keyword(A) ::= DESC(T). { A = T; }
bare_label_keyword(A) ::= DISTINCT(T). { A = T; }
bare_label_keyword(A) ::= DO(T). { A = T; }
bare_label_keyword(A) ::= ELSE(T). { A = T; }
bare_label_keyword(A) ::= END(T). { A = T; }
bare_label_keyword(A) ::= FALSE(T). { A = T; }
bare_label_keyword(A) ::= FOREIGN(T). { A = T; }
bare_label_keyword(A) ::= IN(T). { A = T; }
bare_label_keyword(A) ::= INITIALLY(T). { A = T; }
bare_label_keyword(A) ::= LATERAL(T). { A = T; }
bare_label_keyword(A) ::= LEADING(T). { A = T; }
bare_label_keyword(A) ::= LOCALTIME(T). { A = T; }
bare_label_keyword(A) ::= LOCALTIMESTAMP(T). { A = T; }
bare_label_keyword(A) ::= NOT(T). { A = T; }
bare_label_keyword(A) ::= NULL(T). { A = T; }
bare_label_keyword(A) ::= ONLY(T). { A = T; }
bare_label_keyword(A) ::= OR(T). { A = T; }
bare_label_keyword(A) ::= PLACING(T). { A = T; }
bare_label_keyword(A) ::= PRIMARY(T). { A = T; }
bare_label_keyword(A) ::= REFERENCES(T). { A = T; }
bare_label_keyword(A) ::= SELECT(T). { A = T; }
bare_label_keyword(A) ::= SESSION_USER(T). { A = T; }
bare_label_keyword(A) ::= SOME(T). { A = T; }
bare_label_keyword(A) ::= SYMMETRIC(T). { A = T; }
bare_label_keyword(A) ::= TABLE(T). { A = T; }
bare_label_keyword(A) ::= THEN(T). { A = T; }
bare_label_keyword(A) ::= TRAILING(T). { A = T; }
bare_label_keyword(A) ::= TRUE(T). { A = T; }
bare_label_keyword(A) ::= UNIQUE(T). { A = T; }
bare_label_keyword(A) ::= USER(T). { A = T; }
bare_label_keyword(A) ::= USING(T). { A = T; }
bare_label_keyword(A) ::= VARIADIC(T). { A = T; }
bare_label_keyword(A) ::= WHEN(T). { A = T; }
