/* src/lp_common.c -- the one variable the plain C units share (plain C) */
#include "lp_common.h"

/* See lp_common.h: set by the PostgreSQL glue, NULL elsewhere. */
void		(*lp_interrupt_hook) (void) = NULL;
