/* 215-gnu-mcount: the library, built by GCC's own -p or -pg (calls mcount). */
__attribute__((noinline, noclone)) double lib_f(double x, int k) { asm volatile(""); return x * 2 + k; }
__attribute__((noinline, noclone)) double lib_g(double x) { asm volatile(""); return lib_f(x, 1) + lib_f(x, 2); }
