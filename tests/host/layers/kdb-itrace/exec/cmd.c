/* I3: the core's own header; S1: a call up into a front-end */
#include "core/core.h"
void xmon_entry(void);
void cmd_run(void)
{
	xmon_entry();
}
