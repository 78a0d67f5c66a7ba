/* Shared by the perf.data writer and reader: on-disk constants of
 * tools/perf/util/header.h and the perf_branch_entry flag bits. */
#ifndef RVPMU_PERFDATA_INT_H
#define RVPMU_PERFDATA_INT_H
#include <stdint.h>
#include "rvpmu/perfdata.h"

#define PERFDATA_HEADER_SIZE 104        /* struct perf_file_header */
#define PERFDATA_PIPE_HEADER_SIZE 16    /* struct perf_pipe_file_header */
#define PERFDATA_ATTR_SIZE 128          /* PERF_ATTR_SIZE_VER7 */
#define PERFDATA_MAX_EVENTS 64
#define PERFDATA_MAX_CALLCHAIN 127       /* PERF_MAX_STACK_DEPTH */
#define PERFDATA_MAX_BRANCHES 256
#define PERFDATA_MISC_BUILD_ID_SIZE (1u << 15) /* build_id[20] holds the size */
#define PERFDATA_OSRELEASE "6.1.0-rvpmu"
#define PERFDATA_VERSION "6.1.rvpmu"

/* Every event's samples start with these (IDENTIFIER first lets a reader
 * find the event before it knows the layout). */
#define PERFDATA_SAMPLE_BASE (PERF_SAMPLE_IDENTIFIER | PERF_SAMPLE_IP | PERF_SAMPLE_TID | \
			      PERF_SAMPLE_TIME | PERF_SAMPLE_CPU | PERF_SAMPLE_PERIOD)

/* header feature bits (tools/perf/util/header.h) */
enum {
	HEADER_TRACING_DATA = 1, HEADER_BUILD_ID, HEADER_HOSTNAME, HEADER_OSRELEASE,
	HEADER_VERSION, HEADER_ARCH, HEADER_NRCPUS, HEADER_CPUDESC, HEADER_CPUID,
	HEADER_TOTAL_MEM, HEADER_CMDLINE, HEADER_EVENT_DESC, HEADER_CPU_TOPOLOGY,
	HEADER_NUMA_TOPOLOGY, HEADER_BRANCH_STACK, HEADER_PMU_MAPPINGS,
	HEADER_GROUP_DESC, HEADER_AUXTRACE, HEADER_STAT, HEADER_CACHE,
	HEADER_SAMPLE_TIME,
};

/* perf user-space record types (tools/lib/perf/include/perf/event.h) */
#define PERFDATA_RECORD_HEADER_ATTR 64
#define PERFDATA_RECORD_HEADER_TRACING_DATA 66
#define PERF_RECORD_HEADER_BUILD_ID 67
#define PERF_RECORD_FINISHED_ROUND 68
#define PERFDATA_RECORD_AUXTRACE 71
#define PERFDATA_RECORD_HEADER_FEATURE 80

/* perf_branch_entry's third word: mispred:1 predicted:1 in_tx:1 abort:1
 * cycles:16 type:4 spec:2 new_type:4 priv:3. */
static inline uint64_t perfdata_branch_flags(const struct perfdata_branch *b)
{
	return (uint64_t)(b->mispred & 1) | (uint64_t)(b->predicted & 1) << 1 |
		(uint64_t)b->cycles << 4 | (uint64_t)(b->type & 15) << 20 |
		(uint64_t)(b->priv & 7) << 30;
}

static inline void perfdata_branch_unflags(uint64_t v, struct perfdata_branch *b)
{
	b->mispred = v & 1;
	b->predicted = v >> 1 & 1;
	b->cycles = v >> 4 & 0xffff;
	b->type = v >> 20 & 15;
	b->priv = v >> 30 & 7;
}

#endif
