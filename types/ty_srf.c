/*
 * ty_srf.c: the table of set-returning functions (empty until they are planned).
 */
#include "types/ty_internal.h"

size_t ty_srf_candidates(const char *name, const ty_func_t **out, size_t max)
{
    return 0;
}
