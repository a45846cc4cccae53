/* the module entry may include a front-end's entrance header */
#include "frontend/kdb/kdb.h"
int main_init(void)
{
	kdb_entry();
	return 0;
}
