/* I2 and I3: a peer front-end's header; S1: a call into that peer */
#include "frontend/kdb/kdb.h"
void xmon_entry(void)
{
	kdb_entry();
}
