/* a comment may name tests/host/tool.h */
#include "../../tests/host/tool.h"
