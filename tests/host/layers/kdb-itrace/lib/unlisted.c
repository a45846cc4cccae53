/* I4: no kernel header in the lib; I5 and I2: up into the core */
#include <linux/percpu.h>
#include "../core/core.h"
