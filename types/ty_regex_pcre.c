/*
 * ty_regex_pcre.c: matching patterns with back-references under PCRE2.
 *
 * glibc's regexec cannot be interrupted, and with back-references it
 * backtracks: '(a*)(a*)\2\1x' against a few hundred characters runs for
 * seconds. Such patterns (already accepted by ty_regex_compile, so the
 * accepted syntax and its errors stay glibc's) are translated to PCRE2 and
 * matched with an automatic callout that looks for cancel and
 * statement_timeout every TY__PCRE_CHECK_EVERY steps. Only whether a match
 * exists is asked here (~ and its kin): that does not depend on the
 * engines' different choices among matches. A pattern with a construct
 * whose meaning differs between the two (an escape PCRE2 reads otherwise,
 * a collating element, {,n}) stays with glibc.
 */
#define PCRE2_CODE_UNIT_WIDTH 8
#include "types/ty_internal.h"

#include <pcre2.h>
#include <string.h>

/* Callout steps between interrupt checks: a step is a pattern item tried at
 * one position (tens of nanoseconds), so checks come well within 1 ms. */
#define TY__PCRE_CHECK_EVERY 4096
/* The backtracking memory of one match: past it the match is refused (54000). */
#define TY__PCRE_HEAP_LIMIT_KB (64u * 1024u)

bool ty_regex_has_backref(const char *p, size_t plen)
{
    bool in_class = false;
    size_t class_start = 0;
    for (size_t i = 0; i < plen; i++) {
        if (in_class) {
            if (p[i] == ']' && i != class_start + 1 && !(i == class_start + 2 && p[class_start + 1] == '^'))
                in_class = false;
        } else if (p[i] == '\\' && i + 1 < plen) {
            if (p[i + 1] >= '1' && p[i + 1] <= '9')
                return true;
            i++;
        } else if (p[i] == '[') {
            in_class = true;
            class_start = i;
        }
    }
    return false;
}

/* The same pattern in PCRE2's syntax, or false where a construct means
 * something else there (the caller keeps glibc). */
static bool ty__pcre_translate(const char *p, size_t plen, cm_buf_t *out)
{
    bool in_class = false;
    size_t class_start = 0;
    for (size_t i = 0; i < plen; i++) {
        char ch = p[i];
        if (in_class) {
            if (ch == '\\') {
                cm_buf_put_str(out, "\\\\");   /* a backslash in a bracket is literal in POSIX */
                continue;
            }
            if (ch == '[' && i + 1 < plen && (p[i + 1] == '=' || p[i + 1] == '.'))
                return false;   /* collating elements and equivalence classes */
            if (ch == '[' && i + 1 < plen && p[i + 1] == ':') {
                const char *end = memchr(p + i + 2, ']', plen - i - 2);
                if (end == NULL || end[-1] != ':')
                    return false;
                cm_buf_put(out, p + i, (size_t)(end - (p + i)) + 1);
                i = (size_t)(end - p);
                continue;
            }
            if (ch == ']' && i != class_start + 1 && !(i == class_start + 2 && p[class_start + 1] == '^'))
                in_class = false;
            cm_buf_put_u8(out, (uint8_t)ch);
            continue;
        }
        if (ch == '\\' && i + 1 < plen) {
            char e = p[i + 1];
            if (e == 'd' || e == 'D') {
                cm_buf_put_str(out, e == 'd' ? "[0-9]" : "[^0-9]");
            } else if ((e >= '1' && e <= '9') || strchr("wWsSbB", e) != NULL ||
                       !((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9'))) {
                if ((unsigned char)e >= 0x80)
                    return false;
                cm_buf_put(out, p + i, 2);
            } else {
                return false;   /* \n, \x, \0 ... mean other things in PCRE2 */
            }
            i++;
            continue;
        }
        if (ch == '{' && i + 1 < plen && p[i + 1] == ',')
            return false;   /* glibc's {,n}; PCRE2 10.42 reads it as literal text */
        if (ch == '[') {
            in_class = true;
            class_start = i;
        }
        cm_buf_put_u8(out, (uint8_t)ch);
    }
    return !in_class;
}

typedef struct ty__pcre_watch {
    ty_ctx_t *ctx;
    unsigned steps;
    bool interrupted;
} ty__pcre_watch_t;

static int ty__pcre_callout(pcre2_callout_block *cb, void *arg)
{
    ty__pcre_watch_t *w = arg;
    if (++w->steps % TY__PCRE_CHECK_EVERY != 0)
        return 0;
    if (ty_ctx_check_interrupt(w->ctx))
        return 0;
    w->interrupted = true;
    return PCRE2_ERROR_CALLOUT;   /* ends the match; ctx->err says why */
}

int ty_regex_pcre_match(ty_ctx_t *ctx, const char *p, size_t plen, bool icase, const char *s, size_t slen,
                        bool *out)
{
    cm_buf_t pat;
    cm_buf_init(&pat, plen + 16);
    if (!ty__pcre_translate(p, plen, &pat)) {
        cm_buf_free(&pat);
        return 0;
    }
    /* POSIX's dot matches a newline and $ only the very end; a character is a UTF-8 one and
     * classes and case folding are Unicode's, as under the UTF-8 locale glibc runs in. */
    uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY | PCRE2_AUTO_CALLOUT |
                    (icase ? PCRE2_CASELESS : 0);
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pat.data, pat.len, opts, &errcode, &erroff, NULL);
    cm_buf_free(&pat);
    if (code == NULL)
        return 0;   /* glibc accepted it: it keeps it */
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    ty__pcre_watch_t w = {.ctx = ctx};
    pcre2_set_callout(mc, ty__pcre_callout, &w);
    pcre2_set_match_limit(mc, UINT32_MAX);   /* the callout bounds the time instead */
    pcre2_set_heap_limit(mc, TY__PCRE_HEAP_LIMIT_KB);
    int rc = pcre2_match(code, (PCRE2_SPTR)s, slen, 0, 0, md, mc);
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    pcre2_code_free(code);
    if (w.interrupted)
        return -1;
    if (rc >= 0 || rc == PCRE2_ERROR_NOMATCH) {
        *out = rc >= 0;
        return 1;
    }
    if (rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT) {
        cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                   "regular expression needs more than %u kB of backtracking memory", TY__PCRE_HEAP_LIMIT_KB);
        return -1;
    }
    return 0;   /* e.g. text PCRE2 does not take as UTF-8: glibc decides */
}
