/* functions with C++ and Rust (legacy and v0) mangled names */
#include <stdlib.h>
#include <stdio.h>
unsigned long cxx(unsigned long n) __asm__("_ZN2ns6workerEm");
unsigned long rs(unsigned long n) __asm__("_ZN5crate4spin17h0123456789abcdefE");
unsigned long rs0(unsigned long n) __asm__("_RNvCs1234_5crate5other");
__attribute__((noinline)) unsigned long cxx(unsigned long n) { unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += i ^ (s >> 2); return s; }
__attribute__((noinline)) unsigned long rs(unsigned long n) { unsigned long s = 1; for (unsigned long i = 0; i < n; i++) s = s * 3 + i; return s; }
__attribute__((noinline)) unsigned long rs0(unsigned long n) { unsigned long s = 7; for (unsigned long i = 0; i < n; i++) s ^= s << 1 | i; return s; }
int main(int argc, char **argv) { unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 400000; printf("%lx\n", cxx(3 * n) + rs(2 * n) + rs0(n)); return 0; }
