/* Sv39 / Sv39x4 page-table entries and the MODE of vsatp and hgatp,
 * shared by the bare-metal hypervisor tests (tests/bare-h) and the SBI
 * hypervisor-fence payload (tests/sbi/sbi-hfence.c). Needs a u64. */
#ifndef SV39_H
#define SV39_H
#define PTE_V 1ul
#define PTE_R 2ul
#define PTE_W 4ul
#define PTE_X 8ul
#define PTE_U 16ul
#define PTE_A 64ul
#define PTE_D 128ul
#define PTE(pa, bits) ((((u64)(pa)) >> 12) << 10 | (bits))
#define ATP_SV39 (8ul << 60)   /* Sv39 in vsatp, Sv39x4 in hgatp */
#endif
