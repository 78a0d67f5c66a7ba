/* The shared Linux image's stream workload (8 MiB read twice at a 64-byte
 * stride) as a user-mode program: it counts the same events around the
 * same loop with perf_event_open, so tests/linux can compare rvpmu's user
 * mode with the guest kernel's perf on the same modelled core. */
#include <linux/perf_event.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/mman.h>
#include <sys/syscall.h>
#include <unistd.h>

#define BYTES (8u << 20)
#define CACHE(id, op, res) ((id) | (op) << 8 | (res) << 16)

static int open_event(uint32_t type, uint64_t config)
{
	struct perf_event_attr a;
	memset(&a, 0, sizeof a);
	a.size = sizeof a;
	a.type = type;
	a.config = config;
	a.disabled = 1;
	return (int)syscall(SYS_perf_event_open, &a, 0, -1, -1, 0);
}

int main(void)
{
	static const struct { const char *name; uint32_t type; uint64_t config; } ev[] = {
		{"cache_references", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_REFERENCES},
		{"cache_misses", PERF_TYPE_HARDWARE, PERF_COUNT_HW_CACHE_MISSES},
		{"l1d_read_miss", PERF_TYPE_HW_CACHE, CACHE(PERF_COUNT_HW_CACHE_L1D,
			PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
		{"l1d_read_access", PERF_TYPE_HW_CACHE, CACHE(PERF_COUNT_HW_CACHE_L1D,
			PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_ACCESS)},
		{"dtlb_read_miss", PERF_TYPE_HW_CACHE, CACHE(PERF_COUNT_HW_CACHE_DTLB,
			PERF_COUNT_HW_CACHE_OP_READ, PERF_COUNT_HW_CACHE_RESULT_MISS)},
	};
	enum { N = sizeof ev / sizeof ev[0] };
	uint8_t *buf = mmap(NULL, BYTES, PROT_READ | PROT_WRITE,
			    MAP_PRIVATE | MAP_ANONYMOUS | MAP_POPULATE, -1, 0);
	if (buf == MAP_FAILED)
		return 1;
	memset(buf, 1, BYTES);
	int fd[N];
	for (int i = 0; i < N; i++)
		if ((fd[i] = open_event(ev[i].type, ev[i].config)) < 0) {
			printf("FAIL perf_event_open %s\n", ev[i].name);
			return 1;
		}
	for (int i = 0; i < N; i++)
		ioctl(fd[i], PERF_EVENT_IOC_ENABLE, 0);
	uint64_t s = 0;
	for (int rep = 0; rep < 2; rep++)
		for (size_t i = 0; i < BYTES; i += 64)
			s += ((volatile uint8_t *)buf)[i];
	for (int i = 0; i < N; i++)
		ioctl(fd[i], PERF_EVENT_IOC_DISABLE, 0);
	for (int i = 0; i < N; i++) {
		uint64_t v = 0;
		if (read(fd[i], &v, sizeof v) != sizeof v)
			return 1;
		printf("%s %llu\n", ev[i].name, (unsigned long long)v);
	}
	return s == 2ull * (BYTES / 64) ? 0 : 1;
}
