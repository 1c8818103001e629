/*
 * cm_err.c: the user-visible error record (SQLSTATE, message, detail, hint,
 * position) that travels in the context of a statement until the server turns
 * it into an ErrorResponse or a NoticeResponse.
 */
#include "common/common.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *cm__vformat(const char *fmt, va_list ap)
{
    va_list ap2;
    va_copy(ap2, ap);
    int n = vsnprintf(NULL, 0, fmt, ap);
    char *s = cm_malloc((size_t)(n < 0 ? 0 : n) + 1);
    vsnprintf(s, (size_t)(n < 0 ? 0 : n) + 1, fmt, ap2);
    va_end(ap2);
    return s;
}

bool cm_err_vset(cm_err_t *err, const char *sqlstate, const char *fmt, va_list ap)
{
    if (err == NULL || err->set)
        return false;
    err->set = true;
    err->severity = CM_SEV_ERROR;
    CM_ASSERT(strlen(sqlstate) == 5);
    memcpy(err->sqlstate, sqlstate, 6);
    err->message = cm__vformat(fmt, ap);
    err->detail = NULL;
    err->hint = NULL;
    err->position = 0;
    return false;
}

bool cm_err_set(cm_err_t *err, const char *sqlstate, const char *fmt, ...)
{
    va_list ap;
    va_start(ap, fmt);
    cm_err_vset(err, sqlstate, fmt, ap);
    va_end(ap);
    return false;
}

void cm_err_set_detail(cm_err_t *err, const char *fmt, ...)
{
    if (err == NULL || !err->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    free(err->detail);
    err->detail = cm__vformat(fmt, ap);
    va_end(ap);
}

void cm_err_set_hint(cm_err_t *err, const char *fmt, ...)
{
    if (err == NULL || !err->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    free(err->hint);
    err->hint = cm__vformat(fmt, ap);
    va_end(ap);
}

void cm_err_set_context(cm_err_t *err, const char *fmt, ...)
{
    if (err == NULL || !err->set)
        return;
    va_list ap;
    va_start(ap, fmt);
    free(err->context);
    err->context = cm__vformat(fmt, ap);
    va_end(ap);
}

void cm_err_clear(cm_err_t *err)
{
    free(err->context);
    free(err->message);
    free(err->detail);
    free(err->hint);
    memset(err, 0, sizeof(*err));
}

void cm_err_move(cm_err_t *dst, cm_err_t *src)
{
    cm_err_clear(dst);
    *dst = *src;
    memset(src, 0, sizeof(*src));
}

const char *cm_severity_name(cm_severity_t s)
{
    switch (s) {
    case CM_SEV_ERROR: return "ERROR";
    case CM_SEV_FATAL: return "FATAL";
    case CM_SEV_PANIC: return "PANIC";
    case CM_SEV_WARNING: return "WARNING";
    case CM_SEV_NOTICE: return "NOTICE";
    case CM_SEV_DEBUG: return "DEBUG";
    case CM_SEV_INFO: return "INFO";
    case CM_SEV_LOG: return "LOG";
    }
    return "ERROR";
}
