#include <linux/types.h>
#include "host/host_shim.h"
