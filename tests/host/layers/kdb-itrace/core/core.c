#include "lib/good.h"
#include "itrace_arch_types.h"
/* I3: host_shim.h is the lib's */
#include "lib/host/host_shim.h"
/* P1 */
#ifdef CONFIG_X86_64
#endif
// #ifdef __powerpc__ in a comment is no conditional
/* S1 and C1: a call into arch code not through an interface header,
 * which calls back; the call through arch.h is no edge */
void glue_arm(void);
int core_step(void)
{
	glue_arm();
	itrace_arch_hook();
	return 0;
}
int other(void);
int core_again(void)
{
	return other();
}
