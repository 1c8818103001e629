/*
 * sequencer.h: the public header of the sequencer module.
 *
 * This module will own worker 0's role: tail the store log, plan, number and broadcast commands (issue 5).
 * It has no code yet; the folder exists so the module boundaries of DESIGN §3
 * are visible from the first commit and scripts/check-deps.sh can hold them.
 */
#ifndef EDDY_SEQUENCER_H
#define EDDY_SEQUENCER_H

#include "common/common.h"

#endif
