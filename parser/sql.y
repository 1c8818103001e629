/* sql.y: placeholder grammar, replaced by the parser work in progress. */
%name sql_parser
%token_prefix SQL_TOK_
%token_type {int}
input ::= SEMI.
