/* I3: core.h is the core's own; arch_api.h is published to arch */
#include "core/core.h"
#include "core/arch_api.h"
#include "lib/dec.h"
#include <asm/ptrace.h>
int core_step(void);
void glue_arm(void)
{
	core_step();
}
void itrace_arch_hook(void)
{
}
