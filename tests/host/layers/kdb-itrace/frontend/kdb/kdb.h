/* the kdb front-end's entrance, for the module entry only */
void kdb_entry(void);
