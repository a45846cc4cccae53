/* C2: the core's files in a circle (core.c calls other(), which calls back) */
int core_step(void);
int other(void)
{
	return core_step();
}
