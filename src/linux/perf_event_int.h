/* Internal to perf_event.c and perf_attr.c: the perf_event_open ABI
 * they share and the attribute checks. */
#ifndef RVPMU_PERF_EVENT_INT_H
#define RVPMU_PERF_EVENT_INT_H
#include <stdint.h>
#include "lx.h"
#include "rvpmu/perf.h"

/* include/uapi/linux/perf_event.h (the ABI of Linux 6.6, which rvpmu's
 * uname reports): struct perf_event_attr up to PERF_ATTR_SIZE_VER8. */
struct pe_attr {
	uint32_t type, size;
	uint64_t config, sample_period, sample_type, read_format, flags;
	uint32_t wakeup_events, bp_type;
	uint64_t config1, config2, branch_sample_type, sample_regs_user;
	uint32_t sample_stack_user;
	int32_t clockid;
	uint64_t sample_regs_intr;
	uint32_t aux_watermark;
	uint16_t sample_max_stack, reserved_2;
	uint32_t aux_sample_size, reserved_3;
	uint64_t sig_data, config3;
};
_Static_assert(sizeof(struct pe_attr) == 136, "PERF_ATTR_SIZE_VER8");
#define ATTR_SIZE_VER0 64

enum { PT_HARDWARE, PT_SOFTWARE, PT_TRACEPOINT, PT_HW_CACHE, PT_RAW };
#define HW_MAX 10                       /* PERF_COUNT_HW_MAX */
#define CACHE_MAX 7
#define CACHE_OP_MAX 3
#define CACHE_RESULT_MAX 2
enum { SW_CPU_CLOCK = 0, SW_TASK_CLOCK = 1, SW_DUMMY = 9 };

/* attr.flags bits */
#define A_BIT(n) (1ull << (n))
enum {
	A_DISABLED = 0, A_INHERIT = 1, A_PINNED = 2, A_EXCLUSIVE = 3,
	A_EXCLUDE_USER = 4, A_EXCLUDE_KERNEL = 5, A_FREQ = 10,
	A_ENABLE_ON_EXEC = 12, A_USE_CLOCKID = 25, A_AUX_OUTPUT = 31,
	A_INHERIT_THREAD = 35, A_REMOVE_ON_EXEC = 36, A_SIGTRAP = 37,
	A_RESERVED_1 = 38,              /* bits 38..63 must be 0 */
};

#define FMT_TOTAL_TIME_ENABLED 1u
#define FMT_TOTAL_TIME_RUNNING 2u
#define FMT_ID 4u
#define FMT_GROUP 8u
#define FMT_LOST 16u
#define FMT_MAX 32u

#define SAMPLE_BRANCH_STACK (1ull << 11)
#define SAMPLE_REGS_USER (1ull << 12)
#define SAMPLE_STACK_USER (1ull << 13)
#define SAMPLE_WEIGHT (1ull << 14)
#define SAMPLE_REGS_INTR (1ull << 18)
#define SAMPLE_WEIGHT_STRUCT (1ull << 24)
#define SAMPLE_MAX (1ull << 25)
#define MAX_SAMPLE_RATE 100000          /* kernel.perf_event_max_sample_rate */

/* SBI event_idx for raw events: type 3 (raw v2, selector bits 55:0, SBI
 * 3.0, which the built-in firmware implements) and firmware events */
#define SBI_RAW_V2_IDX 0x30000u
#define SBI_FW_TYPE 15u

/* what counts an event: a hardware counter, a firmware one, modelled
 * time, nothing */
enum pe_kind { K_HW, K_FW, K_CLOCK, K_DUMMY };

/* perf_copy_attr of the attr at ua into *at: 0 or -errno. */
long lx_pe_copy_attr(struct lx *p, uint64_t ua, struct pe_attr *at);
/* The PMU's event_init: what counts it and its SBI event; 0 or -errno. */
long lx_pe_event_init(struct lx *p, const struct pe_attr *at, enum pe_kind *kind, struct evspec *ev);

#endif
