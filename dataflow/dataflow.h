/*
 * dataflow.h: the public header of the dataflow module.
 *
 * This module will own worker threads, operators, arrangements, exchange, peeks and subscribe (issue 5 onwards).
 * It has no code yet; the folder exists so the module boundaries of DESIGN §3
 * are visible from the first commit and scripts/check-deps.sh can hold them.
 */
#ifndef EDDY_DATAFLOW_H
#define EDDY_DATAFLOW_H

#include "common/common.h"

#endif
