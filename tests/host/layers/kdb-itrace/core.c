#include "lib/good.h"
#include "itrace_arch_types.h"
/* I3: host_shim.h is the lib's */
#include "lib/host/host_shim.h"
/* P1 */
#ifdef CONFIG_X86_64
#endif
// #ifdef __powerpc__ in a comment is no conditional
