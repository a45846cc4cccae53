/* I1 */
#include "nosuch.h"
