#include "compat.h"
#include "good.h"
