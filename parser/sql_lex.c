/*
 * sql_lex.c: the hand-written tokenizer, following PostgreSQL's lexical
 * rules (scan.l) so that the same texts split into the same tokens: folded
 * and quoted identifiers, keywords, the four kinds of string literal, dollar
 * quoting, numbers with PostgreSQL 15's "trailing junk" rule, $n parameters,
 * operators with the trailing +/- rule, and nested comments.
 */
#include "parser/sql_int.h"

#include <string.h>

static bool lx_is_space(unsigned char c)
{
    return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f';
}

static bool lx_is_digit(unsigned char c) { return c >= '0' && c <= '9'; }

/* High-bit bytes count as letters, so UTF-8 identifiers need no decoding. */
static bool lx_is_ident_start(unsigned char c)
{
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || c == '_' || c >= 0x80;
}

static bool lx_is_ident_cont(unsigned char c)
{
    return lx_is_ident_start(c) || lx_is_digit(c) || c == '$';
}

static bool lx_is_op_char(unsigned char c)
{
    return c != 0 && strchr("~!@#^&|`?+-*/%<>=", c) != NULL;
}

static int lx_hex(unsigned char c)
{
    if (c >= '0' && c <= '9')
        return c - '0';
    if (c >= 'a' && c <= 'f')
        return c - 'a' + 10;
    if (c >= 'A' && c <= 'F')
        return c - 'A' + 10;
    return -1;
}

static unsigned char lx_at(const sql_lexer_t *lx, size_t i)
{
    return i < lx->len ? (unsigned char)lx->text[i] : 0;
}

void sql__lex_init(sql_lexer_t *lx, cm_arena_t *arena, const char *text, size_t len, cm_err_t *err)
{
    lx->arena = arena;
    lx->text = text;
    lx->len = len;
    lx->at = 0;
    lx->err = err;
}

/* PostgreSQL words lexical errors as "<msg> at or near "<text from pos>"". */
static bool lx_error(sql_lexer_t *lx, const char *sqlstate, const char *msg, size_t pos, size_t near_len)
{
    cm_err_set(lx->err, sqlstate, "%s at or near \"%.*s\"", msg, (int)near_len, lx->text + pos);
    lx->err->position = sql_char_position(lx->text, lx->len, (int)pos);
    return false;
}

static bool lx_error_plain(sql_lexer_t *lx, const char *sqlstate, size_t pos, const char *msg)
{
    cm_err_set(lx->err, sqlstate, "%s", msg);
    lx->err->position = sql_char_position(lx->text, lx->len, (int)pos);
    return false;
}

/* Skips whitespace and comments; an unterminated block comment is an error. */
static bool lx_skip_space(sql_lexer_t *lx)
{
    for (;;) {
        unsigned char c = lx_at(lx, lx->at);
        if (lx_is_space(c)) {
            lx->at++;
        } else if (c == '-' && lx_at(lx, lx->at + 1) == '-') {
            while (lx->at < lx->len && lx->text[lx->at] != '\n' && lx->text[lx->at] != '\r')
                lx->at++;
        } else if (c == '/' && lx_at(lx, lx->at + 1) == '*') {
            size_t start = lx->at;
            int depth = 0;
            while (lx->at < lx->len) {
                if (lx_at(lx, lx->at) == '/' && lx_at(lx, lx->at + 1) == '*') {
                    depth++;
                    lx->at += 2;
                } else if (lx_at(lx, lx->at) == '*' && lx_at(lx, lx->at + 1) == '/') {
                    depth--;
                    lx->at += 2;
                    if (depth == 0)
                        break;
                } else {
                    lx->at++;
                }
            }
            if (depth > 0)
                return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "unterminated /* comment", start,
                                lx->len - start);
        } else {
            return true;
        }
    }
}

/*
 * After a closing quote, SQL lets a string continue in another literal that
 * is separated only by whitespace containing a newline ('a'\n'b' is 'ab').
 * Returns the offset just past the next opening quote, or 0 if none.
 */
static size_t lx_quote_continue(const sql_lexer_t *lx, size_t i)
{
    bool newline = false;
    for (;;) {
        unsigned char c = lx_at(lx, i);
        if (c == '\n' || c == '\r') {
            newline = true;
            i++;
        } else if (c == ' ' || c == '\t' || c == '\f') {
            i++;
        } else if (c == '-' && lx_at(lx, i + 1) == '-') {
            while (i < lx->len && lx->text[i] != '\n' && lx->text[i] != '\r')
                i++;
        } else {
            break;
        }
    }
    return (newline && lx_at(lx, i) == '\'') ? i + 1 : 0;
}

static void lx_put_utf8(cm_buf_t *b, uint32_t cp)
{
    if (cp < 0x80) {
        cm_buf_put_u8(b, (uint8_t)cp);
    } else if (cp < 0x800) {
        cm_buf_put_u8(b, (uint8_t)(0xC0 | (cp >> 6)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else if (cp < 0x10000) {
        cm_buf_put_u8(b, (uint8_t)(0xE0 | (cp >> 12)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    } else {
        cm_buf_put_u8(b, (uint8_t)(0xF0 | (cp >> 18)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 12) & 0x3F)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | ((cp >> 6) & 0x3F)));
        cm_buf_put_u8(b, (uint8_t)(0x80 | (cp & 0x3F)));
    }
}

static void lx_finish_str(sql_lexer_t *lx, sql_token_t *tok, cm_buf_t *b)
{
    tok->str = cm_arena_strndup(lx->arena, b->len ? (const char *)b->data : "", b->len);
    tok->slen = b->len;
    cm_buf_free(b);
}

/* Reads hex digits of a Unicode escape; -1 if fewer than n are present. */
static int64_t lx_hex_n(const sql_lexer_t *lx, size_t i, int n)
{
    int64_t v = 0;
    for (int k = 0; k < n; k++) {
        int h = lx_hex(lx_at(lx, i + (size_t)k));
        if (h < 0)
            return -1;
        v = v * 16 + h;
    }
    return v;
}

/*
 * Scans a quoted literal whose opening quote is at lx->at. kind: 0 standard
 * ('' only), 'e' backslash escapes, 'u' Unicode escapes. `start` is where
 * the token began (its prefix letters included) for error reports.
 */
static bool lx_string(sql_lexer_t *lx, sql_token_t *tok, size_t start, int kind)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    size_t i = lx->at + 1;
    uint32_t pending_hi = 0;   /* a UTF-16 high surrogate waiting for its low half */
    for (;;) {
        if (i >= lx->len) {
            cm_buf_free(&b);
            return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "unterminated quoted string", start, lx->len - start);
        }
        unsigned char c = (unsigned char)lx->text[i];
        if (c == '\'') {
            if (lx_at(lx, i + 1) == '\'') {
                cm_buf_put_u8(&b, '\'');
                i += 2;
                continue;
            }
            size_t next = lx_quote_continue(lx, i + 1);
            if (next) {
                i = next;
                continue;
            }
            i++;
            break;
        }
        if (kind == 'e' && c == '\\') {
            unsigned char d = lx_at(lx, i + 1);
            if (i + 1 >= lx->len) {
                i++;
                continue;   /* the unterminated-string check above reports it */
            }
            i += 2;
            switch (d) {
            case 'b': cm_buf_put_u8(&b, '\b'); break;
            case 'f': cm_buf_put_u8(&b, '\f'); break;
            case 'n': cm_buf_put_u8(&b, '\n'); break;
            case 'r': cm_buf_put_u8(&b, '\r'); break;
            case 't': cm_buf_put_u8(&b, '\t'); break;
            case 'x': {
                int h1 = lx_hex(lx_at(lx, i));
                if (h1 < 0) {
                    cm_buf_put_u8(&b, 'x');
                    break;
                }
                int v = h1;
                i++;
                int h2 = lx_hex(lx_at(lx, i));
                if (h2 >= 0) {
                    v = v * 16 + h2;
                    i++;
                }
                cm_buf_put_u8(&b, (uint8_t)v);
                break;
            }
            case 'u':
            case 'U': {
                int n = d == 'u' ? 4 : 8;
                int64_t cp = lx_hex_n(lx, i, n);
                if (cp < 0) {
                    cm_buf_free(&b);
                    return lx_error_plain(lx, CM_ERRCODE_INVALID_ESCAPE_SEQUENCE, i - 2,
                                          "invalid Unicode escape");
                }
                i += (size_t)n;
                if (cp >= 0xD800 && cp <= 0xDBFF) {
                    pending_hi = (uint32_t)cp;
                    continue;
                }
                if (cp >= 0xDC00 && cp <= 0xDFFF) {
                    if (!pending_hi) {
                        cm_buf_free(&b);
                        return lx_error_plain(lx, CM_ERRCODE_SYNTAX_ERROR, i - (size_t)n - 2,
                                              "invalid Unicode surrogate pair");
                    }
                    cp = 0x10000 + ((pending_hi - 0xD800) << 10) + (cp - 0xDC00);
                    pending_hi = 0;
                }
                if (cp == 0 || cp > 0x10FFFF) {
                    cm_buf_free(&b);
                    return lx_error_plain(lx, CM_ERRCODE_SYNTAX_ERROR, i - (size_t)n - 2,
                                          "invalid Unicode escape value");
                }
                lx_put_utf8(&b, (uint32_t)cp);
                continue;
            }
            default:
                if (d >= '0' && d <= '7') {
                    int v = d - '0';
                    for (int k = 0; k < 2 && lx_at(lx, i) >= '0' && lx_at(lx, i) <= '7'; k++, i++)
                        v = v * 8 + (lx_at(lx, i) - '0');
                    cm_buf_put_u8(&b, (uint8_t)v);
                } else {
                    cm_buf_put_u8(&b, d);
                }
                break;
            }
            if (pending_hi) {
                cm_buf_free(&b);
                return lx_error_plain(lx, CM_ERRCODE_SYNTAX_ERROR, i, "invalid Unicode surrogate pair");
            }
            continue;
        }
        if (kind == 'u' && c == '\\') {
            unsigned char d = lx_at(lx, i + 1);
            int64_t cp;
            if (d == '\\') {
                cm_buf_put_u8(&b, '\\');
                i += 2;
                continue;
            } else if (d == '+') {
                cp = lx_hex_n(lx, i + 2, 6);
                if (cp >= 0)
                    i += 8;
            } else {
                cp = lx_hex_n(lx, i + 1, 4);
                if (cp >= 0)
                    i += 5;
            }
            if (cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                cm_buf_free(&b);
                return lx_error_plain(lx, CM_ERRCODE_SYNTAX_ERROR, i, "invalid Unicode escape");
            }
            lx_put_utf8(&b, (uint32_t)cp);
            continue;
        }
        cm_buf_put_u8(&b, c);
        i++;
    }
    if (kind == 'e' && !cm_utf8_valid(b.len ? (const char *)b.data : "", b.len)) {
        cm_buf_free(&b);
        return lx_error_plain(lx, CM_ERRCODE_CHARACTER_NOT_IN_REPERTOIRE, start,
                              "invalid byte sequence for encoding \"UTF8\"");
    }
    lx->at = i;
    tok->type = SQL_TOK_SCONST;
    lx_finish_str(lx, tok, &b);
    return true;
}

/* B'0101' and X'1F': the value keeps its letter ("b0101", "x1F") for the planner. */
static bool lx_bitstring(sql_lexer_t *lx, sql_token_t *tok, size_t start, char letter)
{
    size_t i = lx->at + 1;
    cm_buf_t b;
    cm_buf_init(&b, 0);
    cm_buf_put_u8(&b, (uint8_t)letter);
    for (;;) {
        if (i >= lx->len) {
            cm_buf_free(&b);
            return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR,
                            letter == 'b' ? "unterminated bit string literal"
                                          : "unterminated hexadecimal string literal",
                            start, lx->len - start);
        }
        if (lx->text[i] == '\'') {
            size_t next = lx_quote_continue(lx, i + 1);
            if (next) {
                i = next;
                continue;
            }
            i++;
            break;
        }
        cm_buf_put_u8(&b, (uint8_t)lx->text[i]);
        i++;
    }
    lx->at = i;
    tok->type = letter == 'b' ? SQL_TOK_BCONST : SQL_TOK_XCONST;
    lx_finish_str(lx, tok, &b);
    return true;
}

/* Truncates an identifier to SQL_NAME_LEN_MAX bytes without splitting a UTF-8 character. */
static size_t lx_clip_name(const char *s, size_t n)
{
    if (n <= SQL_NAME_LEN_MAX)
        return n;
    /* A UTF-8 character has at most three continuation bytes; bytes that are
     * not UTF-8 at all (the server rejects them, a fuzzer does not) are cut
     * at the limit rather than backed over to an empty name. */
    size_t cut = SQL_NAME_LEN_MAX;
    while (cut > SQL_NAME_LEN_MAX - 3 && ((unsigned char)s[cut] & 0xC0) == 0x80)
        cut--;
    return ((unsigned char)s[cut] & 0xC0) == 0x80 ? SQL_NAME_LEN_MAX : cut;
}

static bool lx_quoted_ident(sql_lexer_t *lx, sql_token_t *tok, size_t start, bool unicode)
{
    cm_buf_t b;
    cm_buf_init(&b, 0);
    size_t i = lx->at + 1;
    for (;;) {
        if (i >= lx->len) {
            cm_buf_free(&b);
            return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "unterminated quoted identifier", start,
                            lx->len - start);
        }
        unsigned char c = (unsigned char)lx->text[i];
        if (c == '"') {
            if (lx_at(lx, i + 1) == '"') {
                cm_buf_put_u8(&b, '"');
                i += 2;
                continue;
            }
            i++;
            break;
        }
        if (unicode && c == '\\') {
            unsigned char d = lx_at(lx, i + 1);
            int64_t cp = -1;
            if (d == '\\') {
                cm_buf_put_u8(&b, '\\');
                i += 2;
                continue;
            } else if (d == '+') {
                cp = lx_hex_n(lx, i + 2, 6);
                if (cp >= 0)
                    i += 8;
            } else {
                cp = lx_hex_n(lx, i + 1, 4);
                if (cp >= 0)
                    i += 5;
            }
            if (cp <= 0 || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) {
                cm_buf_free(&b);
                return lx_error_plain(lx, CM_ERRCODE_SYNTAX_ERROR, i, "invalid Unicode escape");
            }
            lx_put_utf8(&b, (uint32_t)cp);
            continue;
        }
        cm_buf_put_u8(&b, c);
        i++;
    }
    if (b.len == 0) {
        cm_buf_free(&b);
        return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "zero-length delimited identifier", start, i - start);
    }
    lx->at = i;
    tok->type = SQL_TOK_IDENT;
    tok->quoted = true;
    b.len = lx_clip_name((const char *)b.data, b.len);
    lx_finish_str(lx, tok, &b);
    return true;
}

/* A number; PostgreSQL 15 rejects one that runs straight into identifier characters. */
static bool lx_number(sql_lexer_t *lx, sql_token_t *tok)
{
    size_t start = lx->at, i = lx->at;
    bool integer = true;
    while (lx_is_digit(lx_at(lx, i)))
        i++;
    if (lx_at(lx, i) == '.' && lx_at(lx, i + 1) != '.') {
        integer = false;
        i++;
        while (lx_is_digit(lx_at(lx, i)))
            i++;
    }
    if (lx_at(lx, i) == 'e' || lx_at(lx, i) == 'E') {
        size_t j = i + 1;
        if (lx_at(lx, j) == '+' || lx_at(lx, j) == '-')
            j++;
        if (lx_is_digit(lx_at(lx, j))) {
            integer = false;
            i = j;
            while (lx_is_digit(lx_at(lx, i)))
                i++;
        } else if (j > i + 1) {
            return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "trailing junk after numeric literal", start, j - start);
        }
    }
    if (lx_is_ident_start(lx_at(lx, i))) {
        size_t j = i;
        while (lx_is_ident_cont(lx_at(lx, j)))
            j++;
        return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "trailing junk after numeric literal", start, j - start);
    }
    lx->at = i;
    tok->str = cm_arena_strndup(lx->arena, lx->text + start, i - start);
    tok->slen = i - start;
    tok->type = SQL_TOK_FCONST;
    if (integer) {
        /* Integers that fit int4 are ICONST, as in PostgreSQL; larger ones travel as text. */
        int64_t v = 0;
        bool fits = true;
        for (size_t k = start; k < i; k++) {
            v = v * 10 + (lx->text[k] - '0');
            if (v > INT32_MAX) {
                fits = false;
                break;
            }
        }
        if (fits) {
            tok->type = SQL_TOK_ICONST;
            tok->ival = v;
        }
    }
    return true;
}

/* $n parameters and $tag$ dollar quoting; any other '$' is a lone character. */
static bool lx_dollar(sql_lexer_t *lx, sql_token_t *tok)
{
    size_t start = lx->at;
    if (lx_is_digit(lx_at(lx, start + 1))) {
        size_t i = start + 1;
        int64_t v = 0;
        while (lx_is_digit(lx_at(lx, i))) {
            if (v < INT32_MAX)
                v = v * 10 + (lx->text[i] - '0');
            i++;
        }
        if (lx_is_ident_start(lx_at(lx, i))) {
            size_t j = i;
            while (lx_is_ident_cont(lx_at(lx, j)))
                j++;
            return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "trailing junk after parameter", start, j - start);
        }
        lx->at = i;
        tok->type = SQL_TOK_PARAM;
        tok->ival = v > INT32_MAX ? INT32_MAX : v;
        tok->str = cm_arena_strndup(lx->arena, lx->text + start, i - start);
        tok->slen = i - start;
        return true;
    }
    /* A tag is letters, digits (not first) and underscores between two '$'. */
    size_t i = start + 1;
    if (lx_at(lx, i) != '$') {
        if (!lx_is_ident_start(lx_at(lx, i)))
            goto lone;
        while (lx_is_ident_start(lx_at(lx, i)) || lx_is_digit(lx_at(lx, i)))
            i++;
        if (lx_at(lx, i) != '$')
            goto lone;
    }
    size_t taglen = i + 1 - start;   /* including both '$' */
    const char *tag = lx->text + start;
    size_t body = i + 1;
    for (size_t k = body; k + taglen <= lx->len; k++) {
        if (lx->text[k] == '$' && memcmp(lx->text + k, tag, taglen) == 0) {
            tok->type = SQL_TOK_SCONST;
            tok->str = cm_arena_strndup(lx->arena, lx->text + body, k - body);
            tok->slen = k - body;
            lx->at = k + taglen;
            return true;
        }
    }
    return lx_error(lx, CM_ERRCODE_SYNTAX_ERROR, "unterminated dollar-quoted string", start, lx->len - start);
lone:
    lx->at = start + 1;
    tok->type = SQL_TOK_OTHER;
    tok->str = "$";
    tok->slen = 1;
    return true;
}

/*
 * An operator: the longest run of operator characters, cut before a comment
 * start; a trailing + or - is given back unless the operator contains a
 * character that only operators use, so that "1 +-2" is 1 + (-2).
 */
static void lx_operator(sql_lexer_t *lx, sql_token_t *tok)
{
    size_t start = lx->at, i = start;
    while (lx_is_op_char(lx_at(lx, i))) {
        if (i > start && ((lx_at(lx, i) == '-' && lx_at(lx, i + 1) == '-') ||
                          (lx_at(lx, i) == '/' && lx_at(lx, i + 1) == '*')))
            break;
        i++;
    }
    size_t n = i - start;
    if (n > 1 && (lx->text[start + n - 1] == '+' || lx->text[start + n - 1] == '-')) {
        bool special = false;
        for (size_t k = start; k < start + n; k++)
            if (strchr("~!@#^&|`?%", lx->text[k]))
                special = true;
        if (!special)
            while (n > 1 && (lx->text[start + n - 1] == '+' || lx->text[start + n - 1] == '-'))
                n--;
    }
    lx->at = start + n;
    const char *p = lx->text + start;
    tok->str = cm_arena_strndup(lx->arena, p, n);
    tok->slen = n;
    tok->type = SQL_TOK_OP;
    if (n == 1) {
        switch (p[0]) {
        case '+': tok->type = SQL_TOK_PLUS; break;
        case '-': tok->type = SQL_TOK_MINUS; break;
        case '*': tok->type = SQL_TOK_STAR; break;
        case '/': tok->type = SQL_TOK_SLASH; break;
        case '%': tok->type = SQL_TOK_PERCENT; break;
        case '^': tok->type = SQL_TOK_CARET; break;
        case '<': tok->type = SQL_TOK_LT; break;
        case '>': tok->type = SQL_TOK_GT; break;
        case '=': tok->type = SQL_TOK_EQ; break;
        default: break;
        }
    } else if (n == 2) {
        if (p[0] == '<' && p[1] == '=')
            tok->type = SQL_TOK_LESS_EQUALS;
        else if (p[0] == '>' && p[1] == '=')
            tok->type = SQL_TOK_GREATER_EQUALS;
        else if ((p[0] == '<' && p[1] == '>') || (p[0] == '!' && p[1] == '='))
            tok->type = SQL_TOK_NOT_EQUALS;
        else if (p[0] == '=' && p[1] == '>')
            tok->type = SQL_TOK_EQUALS_GREATER;
    }
}

static void lx_word(sql_lexer_t *lx, sql_token_t *tok)
{
    size_t start = lx->at, i = start;
    while (lx_is_ident_cont(lx_at(lx, i)))
        i++;
    lx->at = i;
    size_t n = i - start;
    char *s = cm_arena_strndup(lx->arena, lx->text + start, n);
    cm_str_lower(s);
    int token;
    sql_kw_category_t cat;
    if (sql__keyword_token(s, n, &token, &cat) && token != SQL_TOK_IDENT) {
        tok->type = token;
        tok->str = s;
        tok->slen = n;
        return;
    }
    n = lx_clip_name(s, n);
    s[n] = '\0';
    tok->type = SQL_TOK_IDENT;
    tok->str = s;
    tok->slen = n;
}

bool sql__lex_next(sql_lexer_t *lx, sql_token_t *tok)
{
    memset(tok, 0, sizeof(*tok));
    if (!lx_skip_space(lx))
        return false;
    size_t start = lx->at;
    tok->pos = (int)start;
    if (start >= lx->len) {
        tok->type = 0;
        tok->str = "";
        return true;
    }
    unsigned char c = (unsigned char)lx->text[start];
    unsigned char c1 = lx_at(lx, start + 1);
    bool ok = true;
    if ((c == 'e' || c == 'E') && c1 == '\'') {
        lx->at++;
        ok = lx_string(lx, tok, start, 'e');
    } else if ((c == 'b' || c == 'B') && c1 == '\'') {
        lx->at++;
        ok = lx_bitstring(lx, tok, start, 'b');
    } else if ((c == 'x' || c == 'X') && c1 == '\'') {
        lx->at++;
        ok = lx_bitstring(lx, tok, start, 'x');
    } else if ((c == 'n' || c == 'N') && c1 == '\'') {
        lx->at++;   /* national character literals are plain strings here */
        ok = lx_string(lx, tok, start, 0);
    } else if ((c == 'u' || c == 'U') && c1 == '&' && lx_at(lx, start + 2) == '\'') {
        lx->at += 2;
        ok = lx_string(lx, tok, start, 'u');
    } else if ((c == 'u' || c == 'U') && c1 == '&' && lx_at(lx, start + 2) == '"') {
        lx->at += 2;
        ok = lx_quoted_ident(lx, tok, start, true);
    } else if (lx_is_ident_start(c)) {
        lx_word(lx, tok);
    } else if (lx_is_digit(c) || (c == '.' && lx_is_digit(c1))) {
        ok = lx_number(lx, tok);
    } else if (c == '\'') {
        ok = lx_string(lx, tok, start, 0);
    } else if (c == '"') {
        ok = lx_quoted_ident(lx, tok, start, false);
    } else if (c == '$') {
        ok = lx_dollar(lx, tok);
    } else if (c == ':' && c1 == ':') {
        lx->at += 2;
        tok->type = SQL_TOK_TYPECAST;
    } else if (c == ':' && c1 == '=') {
        lx->at += 2;
        tok->type = SQL_TOK_COLON_EQUALS;
    } else if (c == '.' && c1 == '.') {
        lx->at += 2;
        tok->type = SQL_TOK_DOT_DOT;
    } else if (lx_is_op_char(c)) {
        lx_operator(lx, tok);
    } else {
        lx->at++;
        switch (c) {
        case '(': tok->type = SQL_TOK_LP; break;
        case ')': tok->type = SQL_TOK_RP; break;
        case '[': tok->type = SQL_TOK_LBRACKET; break;
        case ']': tok->type = SQL_TOK_RBRACKET; break;
        case ',': tok->type = SQL_TOK_COMMA; break;
        case ';': tok->type = SQL_TOK_SEMI; break;
        case ':': tok->type = SQL_TOK_COLON; break;
        case '.': tok->type = SQL_TOK_DOT; break;
        default:
            /* Anything else is one (UTF-8) character the grammar never accepts. */
            while (lx->at < lx->len && ((unsigned char)lx->text[lx->at] & 0xC0) == 0x80)
                lx->at++;
            tok->type = SQL_TOK_OTHER;
            break;
        }
    }
    if (!ok)
        return false;
    tok->len = (int)(lx->at - start);
    if (!tok->str) {
        tok->str = cm_arena_strndup(lx->arena, lx->text + start, (size_t)tok->len);
        tok->slen = (size_t)tok->len;
    }
    return true;
}
