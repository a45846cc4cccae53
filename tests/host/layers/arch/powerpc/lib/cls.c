/* I5 and I2 (peers): the other arch's decoder */
#include "../../x86/lib/dec.h"
