#include "core.h"
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
