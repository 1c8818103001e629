/*
 * pln_catview.h: the tables of pg_catalog's and information_schema's views
 * (pln_catview_*.c, one file per purpose), which pln_catview.c searches.
 */
#ifndef EDDY_PLN_CATVIEW_H
#define EDDY_PLN_CATVIEW_H

#include "planner/pln_internal.h"

/* A condition on eddy_catalog.schemas alias s: the session database's schemas and the system ones. */
#define PLN_CATVIEW_IN_DATABASE(s)                                                                                     \
    "(" s ".database_id IS NULL OR " s ".database_id = (SELECT d.id FROM eddy_catalog.databases d"                  \
    " WHERE d.name = current_database()))"

typedef struct pln_catview_table {
    const pln_catview_t *views;
    size_t n;
} pln_catview_table_t;

extern const pln_catview_table_t pln__catviews_pg;           /* pln_catview_pg.c */
extern const pln_catview_table_t pln__catviews_constraint;   /* pln_catview_constraint.c */
extern const pln_catview_table_t pln__catviews_describe;     /* pln_catview_describe.c */
extern const pln_catview_table_t pln__catviews_info;         /* pln_catview_info.c */

#endif
