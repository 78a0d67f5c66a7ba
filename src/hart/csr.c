/* CSRs visible to a user-mode program: the F/D status registers and the
 * Zicntr/Zihpm read-only views. The privileged CSR table joins this when
 * M and S modes exist. */
#include "csr.h"

enum {
	CSR_FFLAGS = 0x001, CSR_FRM = 0x002, CSR_FCSR = 0x003,
	CSR_CYCLE = 0xc00, CSR_TIME = 0xc01, CSR_INSTRET = 0xc02,
	CSR_HPMCOUNTER3 = 0xc03, CSR_HPMCOUNTER31 = 0xc1f,
};

static int csr_read(struct hart *h, unsigned csr, uint64_t *v)
{
	switch (csr) {
	case CSR_FFLAGS: *v = h->fflags; return 0;
	case CSR_FRM: *v = h->frm; return 0;
	case CSR_FCSR: *v = h->frm << 5 | h->fflags; return 0;
	/* cycle counts one per instruction until a timing model exists */
	case CSR_CYCLE: case CSR_INSTRET: *v = h->instret; return 0;
	case CSR_TIME: *v = hart_time(h); return 0;
	}
	if (csr >= CSR_HPMCOUNTER3 && csr <= CSR_HPMCOUNTER31) {
		*v = 0;  /* no event programmed: the counter does not count */
		return 0;
	}
	return -1;
}

static int csr_write(struct hart *h, unsigned csr, uint64_t v)
{
	switch (csr) {
	case CSR_FFLAGS: h->fflags = v & 0x1f; return 0;
	case CSR_FRM: h->frm = v & 7; return 0;  /* WARL: reserved values kept, trap on use */
	case CSR_FCSR: h->fflags = v & 0x1f; h->frm = (v >> 5) & 7; return 0;
	}
	return -1;
}

int csr_access(struct hart *h, unsigned csr, enum csr_op op, uint64_t val,
	       int writes, uint64_t *old)
{
	/* csr[11:10] == 3 marks a read-only CSR (Zicsr, CSR address map) */
	if (writes && (csr >> 10) == 3)
		return -1;
	if (csr_read(h, csr, old))
		return -1;
	if (!writes)
		return 0;
	uint64_t nv = op == CSR_WRITE ? val : op == CSR_SET ? *old | val : *old & ~val;
	return csr_write(h, csr, nv);
}
