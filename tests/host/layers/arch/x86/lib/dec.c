#include "dec.h"
#include "lib/good.h"
