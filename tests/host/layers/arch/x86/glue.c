#include "core.h"
#include "lib/dec.h"
#include <asm/ptrace.h>
