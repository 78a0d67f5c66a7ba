/* Instruction set: the table, decoding and disassembly. */
#ifndef RVPMU_ISA_H
#define RVPMU_ISA_H
#include <stddef.h>
#include <stdint.h>
#include "../../src/isa/insn_list.h"

enum insn_id {
	INSN_NONE = 0,    /* cache slot not decoded yet */
	INSN_ILLEGAL,     /* reserved or unknown encoding */
#define X(id, name, match, mask, fmt) INSN_##id,
	INSN_LIST(X)
#undef X
	INSN_COUNT
};

struct insn_desc {
	const char *name;
	uint32_t match, mask;
	const char *fmt;
};

/* Indexed by enum insn_id. */
extern const struct insn_desc insn_table[INSN_COUNT];

/* A decoded instruction as the interpreter keeps it in its per-page cache.
 * Register fields hold architectural numbers except rd: a write to x0 is
 * steered to the sink register 32, so the step loop needs no x0 check. */
struct dinsn {
	int32_t handler;  /* step-loop private: where its code is; 0 = decode */
	uint16_t id;      /* enum insn_id */
	uint8_t rd, rs1, rs2, rs3;
	uint8_t len;      /* 2 or 4 */
	uint8_t rm;       /* rounding mode field (FP) */
	int32_t imm;      /* immediate, shamt, CSR number, fence bits; for
	                     INSN_ILLEGAL the raw instruction bits */
};

/* Expand a 16-bit RVC instruction to its 32-bit equivalent; 0 when the
 * encoding is reserved or illegal on RV64. */
uint32_t rvc_expand(uint16_t c);

/* Identify a 32-bit instruction word (INSN_ILLEGAL when none matches). */
enum insn_id insn_lookup(uint32_t raw);

/* Decode raw (16-bit form in the low half when (raw & 3) != 3). */
void insn_decode(uint32_t raw, struct dinsn *d);

/* Length in bytes of the instruction whose low 16 bits are lo. */
static inline int insn_length(uint16_t lo) { return (lo & 3) == 3 ? 4 : 2; }

/* Disassemble as riscv64-linux-gnu-objdump -d prints it (pseudo
 * instructions included). pc is used for branch/jump targets. Returns
 * the length written, as snprintf does. */
int insn_disasm(char *buf, size_t size, uint32_t raw, uint64_t pc);

#endif
