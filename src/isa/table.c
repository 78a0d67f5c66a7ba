/* The instruction table, expanded from insn_list.h. */
#include "rvpmu/isa.h"

const struct insn_desc insn_table[INSN_COUNT] = {
	[INSN_NONE] = {"", 0, 0, ""},
	[INSN_ILLEGAL] = {"unimp", 0, 0, ""},
#define X(id, name, match, mask, fmt) [INSN_##id] = {name, match, mask, fmt},
	INSN_LIST(X)
#undef X
};
