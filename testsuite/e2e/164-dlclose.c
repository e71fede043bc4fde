/*
 * 164-dlclose: liba.so loaded, called and closed 100 times (fa 11 times
 * a cycle, and some time in spin), then libb.so loaded where it was and
 * fb called 7 times; argv[1] and argv[2] are the two objects.
 */
#include <dlfcn.h>
#include <stdio.h>

int
main(int argc, char **argv)
{
	void *h, *ha = NULL;
	long (*f)(long), (*spin)(long), t = 0;

	if (argc != 3)
		return 2;
	for (int i = 0; i < 100; i++) {
		if ((h = dlopen(argv[1], RTLD_NOW)) == NULL) {
			fprintf(stderr, "%s\n", dlerror());
			return 1;
		}
		if (i == 0)
			ha = h;
		f = (long (*)(long))dlsym(h, "fa");
		spin = (long (*)(long))dlsym(h, "spin");
		for (int k = 0; k < 11; k++)
			t += f(k);
		t += spin(i < 10 ? 20000000 : 1000);
		if (dlclose(h) != 0)
			return 1;
	}
	if ((h = dlopen(argv[2], RTLD_NOW)) == NULL)
		return 1;
	printf("%s\n", h == ha ? "same handle" : "other handle");
	f = (long (*)(long))dlsym(h, "fb");
	for (int k = 0; k < 7; k++)
		t += f(k);
	return t == 42;
}
