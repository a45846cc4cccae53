#include "compat.h"
#include "good.h"
/* S1: the library calls up into the core */
int core_step(void);
int good(void)
{
	return core_step();
}
