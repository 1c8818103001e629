/*
 * pln_catview.c: pg_catalog's relations as SQL views over eddy_catalog
 * (DESIGN §7), so that psql's \d family, drivers and BI tools find the
 * catalog where PostgreSQL keeps it. Each view has PostgreSQL 15's columns
 * in its order, with its types where eddy has them (aclitem[] is text[],
 * pg_node_tree and xid are text and oid, int2vector and oidvector are
 * arrays); a FROM item naming one is bound as the subquery written here
 * (pln_scope.c), so the rows are the session's catalog when the query runs.
 *
 * What eddy does not have is answered as PostgreSQL answers for a database
 * without it: one superuser (OID 10) owns everything, no comments, no
 * constraints beyond NOT NULL, no triggers, rules, policies or
 * inheritance. The views take PostgreSQL's OIDs for the catalogs, so
 * 'pg_class'::regclass and obj_description(oid, 'pg_class') agree with
 * what clients expect.
 */
#include "planner/pln_catview.h"

#include <stdio.h>
#include <string.h>

static const pln_catview_table_t *const tables[] = {
    &pln__catviews_pg,
    &pln__catviews_constraint,
    &pln__catviews_describe,
    &pln__catviews_info,
};


static const pln_catview_t *catview_named(const char *schema, const char *name)
{
    const pln_catview_t *v;
    for (size_t i = 0; (v = pln__catview_at(i)); i++)
        if (strcmp(v->name, name) == 0 && (schema == NULL || strcmp(v->schema, schema) == 0))
            return v;
    return NULL;
}

const pln_catview_t *pln__catview_find(const pln_binder_t *b, const cat_qname_t *qn)
{
    const pln_catview_t *v = catview_named(qn->schema, qn->name);
    if (v == NULL || (qn->schema == NULL && !pln__sysrel_unqualified(b, v->schema, qn->name)))
        return NULL;
    return v;
}

uint32_t pln__catview_oid(const pln_catalog_t *cat, const cat_qname_t *qn)
{
    const pln_catview_t *v = catview_named(qn->schema, qn->name);
    return v != NULL ? v->oid : 0;
}

bool pln__catview_name(uint32_t oid, cm_buf_t *out)
{
    const pln_catview_t *v;
    for (size_t i = 0; oid != 0 && (v = pln__catview_at(i)); i++)
        if (v->oid == oid) {
            if (out != NULL)
                cm_buf_put_str(out, v->name);
            return true;
        }
    return false;
}

const pln_catview_t *pln__catview_at(size_t i)
{
    for (size_t t = 0; t < CM_ARRAY_LEN(tables); t++) {
        if (i < tables[t]->n)
            return &tables[t]->views[i];
        i -= tables[t]->n;
    }
    return NULL;
}
