#include <stdio.h>
int main(void) { puts("hello from stat"); return 0; }
