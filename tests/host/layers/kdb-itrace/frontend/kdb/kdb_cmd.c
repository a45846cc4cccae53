#include "kdb.h"
void kdb_entry(void)
{
}
