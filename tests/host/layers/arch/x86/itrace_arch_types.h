#include <linux/types.h>
#include "lib/dec.h"
