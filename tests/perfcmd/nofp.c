/* -O2 without frame pointers: leaf <- b <- a <- main */
#include <stdio.h>
#include <stdlib.h>
__attribute__((noinline)) unsigned long leaf(unsigned long n) { unsigned long s = 0; for (unsigned long i = 0; i < n; i++) s += i * i ^ (s >> 3); return s; }
__attribute__((noinline)) unsigned long b(unsigned long n) { return leaf(n) + 1; }
__attribute__((noinline)) unsigned long a(unsigned long n) { return b(n) * 3; }
int main(int argc, char **argv) { unsigned long n = argc > 1 ? strtoul(argv[1], 0, 0) : 3000000; printf("%lu\n", a(n)); return 0; }
