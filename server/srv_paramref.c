/*
 * srv_paramref.c: finds the first parameter reference ($n) in SQL text.
 *
 * A simple Query has no parameters, so PostgreSQL refuses "$1" in it with
 * 42P02 "there is no parameter $1" at the reference's position. The planner
 * binds such a statement as if a Parse without types had sent it and does not
 * say where its parameters are, so the server finds the first reference
 * itself. This is only a scanner for what can hide a '$': string constants
 * (with E'' escapes), quoted identifiers, comments and dollar quotes, and
 * identifiers (which may contain '$'); it never decides what the text means.
 */
#include "server/srv_int.h"

#include <string.h>

static bool srv__ident_start(unsigned char ch)
{
    return (ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') || ch == '_' || ch >= 0x80;
}

static bool srv__ident_cont(unsigned char ch)
{
    return srv__ident_start(ch) || (ch >= '0' && ch <= '9') || ch == '$';
}

static bool srv__digit(unsigned char ch)
{
    return ch >= '0' && ch <= '9';
}

/* Past a quoted run that started at s[i] == q; `backslash` for E'' strings. */
static size_t srv__skip_quoted(const char *s, size_t len, size_t i, char q, bool backslash)
{
    for (i++; i < len; i++) {
        if (backslash && s[i] == '\\') {
            i++;
        } else if (s[i] == q) {
            if (i + 1 < len && s[i + 1] == q)
                i++;   /* a doubled quote stands for itself */
            else
                return i + 1;
        }
    }
    return len;
}

/* Past a comment that starts at s[i] == '/' and s[i + 1] == '*'; they nest. */
static size_t srv__skip_block_comment(const char *s, size_t len, size_t i)
{
    int depth = 0;
    while (i < len) {
        if (i + 1 < len && s[i] == '/' && s[i + 1] == '*') {
            depth++;
            i += 2;
        } else if (i + 1 < len && s[i] == '*' && s[i + 1] == '/') {
            i += 2;
            if (--depth == 0)
                return i;
        } else {
            i++;
        }
    }
    return len;
}

/* If s[i] == '$' opens a dollar quote ($$ or $tag$), the offset past its end; else 0. */
static size_t srv__skip_dollar_quote(const char *s, size_t len, size_t i)
{
    size_t j = i + 1;
    if (j < len && srv__ident_start((unsigned char)s[j])) {
        while (j < len && srv__ident_cont((unsigned char)s[j]) && s[j] != '$')
            j++;
    }
    if (j >= len || s[j] != '$')
        return 0;
    size_t taglen = j + 1 - i;
    for (size_t k = j + 1; k + taglen <= len; k++)
        if (memcmp(s + k, s + i, taglen) == 0)
            return k + taglen;
    return len;
}

bool srv_paramref_first(const char *s, size_t len, int *number, size_t *offset)
{
    size_t i = 0;
    while (i < len) {
        unsigned char ch = (unsigned char)s[i];
        if (ch == '\'') {
            bool esc = i > 0 && (s[i - 1] == 'E' || s[i - 1] == 'e') &&
                       (i < 2 || !srv__ident_cont((unsigned char)s[i - 2]));
            i = srv__skip_quoted(s, len, i, '\'', esc);
        } else if (ch == '"') {
            i = srv__skip_quoted(s, len, i, '"', false);
        } else if (ch == '-' && i + 1 < len && s[i + 1] == '-') {
            while (i < len && s[i] != '\n')
                i++;
        } else if (ch == '/' && i + 1 < len && s[i + 1] == '*') {
            i = srv__skip_block_comment(s, len, i);
        } else if (srv__ident_start(ch)) {
            /* An identifier or keyword: a '$' inside it is part of it. */
            while (i < len && srv__ident_cont((unsigned char)s[i]))
                i++;
        } else if (srv__digit(ch)) {
            while (i < len && (srv__ident_cont((unsigned char)s[i]) || s[i] == '.'))
                i++;
        } else if (ch == '$' && i + 1 < len && srv__digit((unsigned char)s[i + 1])) {
            long n = 0;
            size_t j = i + 1;
            while (j < len && srv__digit((unsigned char)s[j])) {
                if (n < 1000000000L)
                    n = n * 10 + (s[j] - '0');
                j++;
            }
            *number = (int)n;
            *offset = i;
            return true;
        } else if (ch == '$') {
            size_t end = srv__skip_dollar_quote(s, len, i);
            i = end != 0 ? end : i + 1;
        } else {
            i++;
        }
    }
    return false;
}
