/* SPDX-License-Identifier: MIT */
/* hooks_empty.c - empty -finstrument-functions hooks: the bare hook cost. */
void __cyg_profile_func_enter(void *fn, void *site);
void __cyg_profile_func_exit(void *fn, void *site);

void __attribute__((no_instrument_function))
__cyg_profile_func_enter(void *fn, void *site)
{
	(void)fn;
	(void)site;
}

void __attribute__((no_instrument_function))
__cyg_profile_func_exit(void *fn, void *site)
{
	(void)fn;
	(void)site;
}
