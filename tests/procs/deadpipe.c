/* Two processes each read from the other through pipes before writing:
 * neither can ever go on. */
#include <unistd.h>
int main(void)
{
	int a[2], b[2];
	char c;
	if (pipe(a) || pipe(b))
		return 1;
	if (!fork()) {
		read(a[0], &c, 1);
		write(b[1], "x", 1);
		return 0;
	}
	read(b[0], &c, 1);
	write(a[1], "y", 1);
	return 0;
}
