/*
 * ty_regex_pcre.c: matching patterns with back-references under PCRE2.
 *
 * glibc's regexec cannot be interrupted, and with back-references it
 * backtracks: '(a*)(a*)\2\1x' against a few hundred characters runs for
 * minutes. Such patterns (already accepted by ty_regex_compile, so the
 * accepted syntax and its errors stay glibc's) are translated to PCRE2 and
 * matched with an automatic callout that looks for cancel and
 * statement_timeout every TY__PCRE_CHECK_EVERY steps.
 *
 * PCRE2 takes the first match its backtracking finds; PostgreSQL, like
 * POSIX, takes the longest one at the leftmost position. The callout at the
 * end of the pattern records each match found at the leftmost start and
 * sends PCRE2 back to look for a longer one, until every way from that
 * start is tried (or one reaches the end of the text, which nothing
 * beats). Only whether a match exists asks for no such search. \n, \t, \r,
 * \f, \v are control characters and {,n} is literal text, as in PostgreSQL.
 * A pattern with a construct PCRE2 lacks (a collating element, an
 * equivalence class, GNU's \< \> \` \') stays with glibc.
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
 * something else there (the caller keeps glibc). newline: REG_NEWLINE, under
 * which a negated bracket does not match a newline either. */
static bool ty__pcre_translate(const char *p, size_t plen, bool newline, cm_buf_t *out)
{
    bool in_class = false, negated = false;
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
            if (ch == ']' && i != class_start + 1 && !(i == class_start + 2 && negated)) {
                in_class = false;
                if (negated && newline)
                    cm_buf_put_str(out, "\\n");
            } else if (ch == '[') {
                cm_buf_put_u8(out, '\\');   /* PCRE2 would read a nested [ as the start of [:class:] */
            }
            cm_buf_put_u8(out, (uint8_t)ch);
            continue;
        }
        if (ch == '\\' && i + 1 < plen) {
            char e = p[i + 1];
            if (e == 'd' || e == 'D') {
                cm_buf_put_str(out, e == 'd' ? "[0-9]" : "[^0-9]");
            } else if ((e >= '1' && e <= '9') || strchr("wWsSbB", e) != NULL) {
                cm_buf_put(out, p + i, 2);
            } else if ((unsigned char)e >= 0x80) {
                return false;
            } else if (strchr("ntrfv", e) != NULL) {
                cm_buf_put(out, p + i, 2);   /* PostgreSQL's (and PCRE2's) control-character escapes */
            } else if ((e >= 'a' && e <= 'z') || (e >= 'A' && e <= 'Z') || (e >= '0' && e <= '9')) {
                cm_buf_put_u8(out, (uint8_t)e);   /* glibc: an escaped ordinary letter is itself */
            } else if (strchr("<>`'", e) != NULL) {
                return false;   /* GNU's word and buffer anchors */
            } else {
                cm_buf_put(out, p + i, 2);
            }
            i++;
            continue;
        }
        if (ch == '[') {
            in_class = true;
            class_start = i;
            negated = i + 1 < plen && p[i + 1] == '^';
        }
        cm_buf_put_u8(out, (uint8_t)ch);
    }
    return !in_class;
}

bool ty_regex_pcre_compile(const char *p, size_t plen, int cflags, ty_re_t *re)
{
    cm_buf_t pat;
    cm_buf_init(&pat, plen + 16);
    bool newline = (cflags & REG_NEWLINE) != 0;
    if (!ty__pcre_translate(p, plen, newline, &pat)) {
        cm_buf_free(&pat);
        return false;
    }
    /* POSIX's dot matches a newline and $ only the very end (unless REG_NEWLINE); a character
     * is a UTF-8 one and classes and case folding are Unicode's, as under the UTF-8 locale
     * glibc runs in. Auto-possessification stays off so that every match is seen. */
    uint32_t opts = PCRE2_UTF | PCRE2_UCP | PCRE2_AUTO_CALLOUT | PCRE2_NO_AUTO_POSSESS |
                    (newline ? PCRE2_MULTILINE : PCRE2_DOTALL | PCRE2_DOLLAR_ENDONLY) |
                    ((cflags & REG_ICASE) ? PCRE2_CASELESS : 0);
    int errcode;
    PCRE2_SIZE erroff;
    pcre2_code *code = pcre2_compile((PCRE2_SPTR)pat.data, pat.len, opts, &errcode, &erroff, NULL);
    re->pcre_len = pat.len;
    cm_buf_free(&pat);
    if (code == NULL)
        return false;   /* glibc accepted it: it keeps it */
    uint32_t groups = 0;
    pcre2_pattern_info(code, PCRE2_INFO_CAPTURECOUNT, &groups);
    re->nsub = groups;
    re->pcre = code;
    return true;
}

void ty_regex_pcre_free(ty_re_t *re)
{
    pcre2_code_free(re->pcre);
    re->pcre = NULL;
}

typedef struct ty__pcre_watch {
    ty_ctx_t *ctx;
    unsigned steps;
    bool interrupted;
    bool done;          /* the leftmost start is exhausted and a match was found there */
    bool found;
    size_t pattern_len; /* the end-of-pattern callout is at this position */
    size_t subject_len;
    regmatch_t *m;      /* the longest match so far; NULL: any match will do */
    size_t nm;
} ty__pcre_watch_t;

static int ty__pcre_callout(pcre2_callout_block *cb, void *arg)
{
    ty__pcre_watch_t *w = arg;
    if (++w->steps % TY__PCRE_CHECK_EVERY == 0 && !ty_ctx_check_interrupt(w->ctx)) {
        w->interrupted = true;
        return PCRE2_ERROR_CALLOUT;   /* ends the match; ctx->err says why */
    }
    if (w->found && cb->start_match != (PCRE2_SIZE)w->m[0].rm_so) {
        w->done = true;   /* a later start cannot give the leftmost match */
        return PCRE2_ERROR_CALLOUT;
    }
    if (cb->pattern_position != w->pattern_len || cb->next_item_length != 0)
        return 0;
    /* A match of the whole pattern ends here. */
    if (w->m == NULL)
        return 0;
    size_t len = cb->current_position - cb->start_match;
    if (!w->found || len > (size_t)(w->m[0].rm_eo - w->m[0].rm_so)) {
        w->found = true;
        w->m[0].rm_so = (regoff_t)cb->start_match;
        w->m[0].rm_eo = (regoff_t)cb->current_position;
        for (size_t g = 1; g < w->nm; g++) {
            PCRE2_SIZE *v = cb->offset_vector;
            if (g < cb->capture_top && v[2 * g] != PCRE2_UNSET) {
                w->m[g].rm_so = (regoff_t)v[2 * g];
                w->m[g].rm_eo = (regoff_t)v[2 * g + 1];
            } else {
                w->m[g].rm_so = w->m[g].rm_eo = -1;
            }
        }
    }
    return cb->current_position == w->subject_len ? 0 : 1;   /* 1: backtrack for a longer one */
}

int ty_regex_pcre_search(ty_ctx_t *ctx, const ty_re_t *re, const char *s, size_t len, size_t start,
                         regmatch_t *m, size_t nm)
{
    ty__pcre_watch_t w = {.ctx = ctx, .pattern_len = re->pcre_len, .subject_len = len,
                          .m = nm > 0 ? m : NULL, .nm = nm};
    pcre2_match_data *md = pcre2_match_data_create(1, NULL);
    pcre2_match_context *mc = pcre2_match_context_create(NULL);
    if (md == NULL || mc == NULL) {
        pcre2_match_context_free(mc);
        pcre2_match_data_free(md);
        cm_err_set(ctx->err, CM_ERRCODE_OUT_OF_MEMORY, "out of memory");
        return -1;
    }
    pcre2_set_callout(mc, ty__pcre_callout, &w);
    pcre2_set_match_limit(mc, UINT32_MAX);   /* the callout bounds the time instead */
    pcre2_set_heap_limit(mc, TY__PCRE_HEAP_LIMIT_KB);
    int rc = pcre2_match(re->pcre, (PCRE2_SPTR)s, len, start, 0, md, mc);
    pcre2_match_context_free(mc);
    pcre2_match_data_free(md);
    if (w.interrupted)
        return -1;
    if (w.found)
        return 1;
    if (rc >= 0)
        return 1;   /* whether a match exists was all that was asked */
    if (rc == PCRE2_ERROR_NOMATCH)
        return 0;
    if (rc == PCRE2_ERROR_HEAPLIMIT || rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT) {
        cm_err_set(ctx->err, CM_ERRCODE_PROGRAM_LIMIT_EXCEEDED,
                   "regular expression needs more than %u kB of backtracking memory", TY__PCRE_HEAP_LIMIT_KB);
        return -1;
    }
    cm_err_set(ctx->err, CM_ERRCODE_INVALID_REGULAR_EXPRESSION, "regular expression failed: PCRE2 error %d", rc);
    return -1;
}
