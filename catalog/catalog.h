/*
 * catalog.h: the public header of the catalog module.
 *
 * This module will own the catalog model, the store interface (store_mem, store_zk) and built-in relations (issues 3 and 4).
 * It has no code yet; the folder exists so the module boundaries of DESIGN §3
 * are visible from the first commit and scripts/check-deps.sh can hold them.
 */
#ifndef EDDY_CATALOG_H
#define EDDY_CATALOG_H

#include "common/common.h"

#endif
