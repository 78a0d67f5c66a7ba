/* Prints its arguments one a line (a script's interpreter in the tests). */
#include <stdio.h>
int main(int argc, char **argv)
{
	for (int i = 0; i < argc; i++)
		printf("argv[%d] %s\n", i, argv[i]);
	return 0;
}
