/* sbi-base: the Base extension (SBI spec "Base Extension", EID 0x10),
 * extension probing, the calling convention, and the DBCN console.
 * Checks are described in docs/sbi-tests.md. */
#include "rt.h"

static void probe(int n, const char *name, long eid)
{
	struct sbiret r = sbi1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, eid);
	/* "available" = any non-zero value; a failing call is reported as its error */
	rt_check(n, name, r.error == 0 && r.value != 0, r.error ? (u64)r.error : (u64)r.value, 1);
}

int main(void)
{
	struct sbiret r;
	static const char msg[] = "info dbcn write\n";

	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_SPEC_VERSION);
	rt_info("spec_version", r.value);
	rt_eq(1, "get_spec_version succeeds", r.error, 0);
	rt_eq(2, "get_spec_version bit 31 and bits 63:32 are 0", r.value & ~0x7ffffffful, 0);
	rt_eq(3, "get_spec_version = 3.0 (0x03000000)", r.value, 0x03000000);

	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_ID);
	rt_info("impl_id", r.value);
	rt_eq(4, "get_impl_id succeeds", r.error, 0);
	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_IMPL_VERSION);
	rt_info("impl_version", r.value);
	rt_eq(5, "get_impl_version succeeds", r.error, 0);
	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_MVENDORID);
	rt_info("mvendorid", r.value);
	rt_eq(6, "get_mvendorid succeeds", r.error, 0);
	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_MARCHID);
	rt_info("marchid", r.value);
	rt_eq(7, "get_marchid succeeds", r.error, 0);
	r = sbi0(SBI_EXT_BASE, SBI_BASE_GET_MIMPID);
	rt_info("mimpid", r.value);
	rt_eq(8, "get_mimpid succeeds", r.error, 0);

	probe(9, "probe_extension(PMU 0x504D55) available", SBI_EXT_PMU);
	probe(10, "probe_extension(TIME 0x54494D45) available", SBI_EXT_TIME);
	probe(11, "probe_extension(IPI 0x735049) available", SBI_EXT_IPI);
	probe(12, "probe_extension(RFENCE 0x52464E43) available", SBI_EXT_RFENCE);
	probe(13, "probe_extension(HSM 0x48534D) available", SBI_EXT_HSM);
	probe(14, "probe_extension(SRST 0x53525354) available", SBI_EXT_SRST);
	probe(15, "probe_extension(DBCN 0x4442434E) available", SBI_EXT_DBCN);

	r = sbi1(SBI_EXT_BASE, SBI_BASE_PROBE_EXT, 0x12345678);
	rt_check(16, "probe_extension(undefined EID 0x12345678) = 0",
		 r.error == 0 && r.value == 0, r.error ? (u64)r.error : (u64)r.value, 0);
	r = sbi0(SBI_EXT_BASE, 99);
	rt_eq(17, "Base FID 99 -> SBI_ERR_NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	r = sbi0(0x12345678, 0);
	rt_eq(18, "undefined EID -> SBI_ERR_NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	rt_eq(19, "ecall preserves a2-a7, t0-t6, s2-s3 (mask of changed)", rt_regs_preserved(), 0);

	/* DBCN console_write (FID 0): a0 = bytes, a1/a2 = physical address */
	r = sbi3(SBI_EXT_DBCN, 0, sizeof(msg) - 1, (u64)msg, 0);
	rt_check(20, "DBCN console_write returns the byte count", r.error == 0 &&
		 r.value == (long)sizeof(msg) - 1, r.error ? (u64)r.error : (u64)r.value,
		 sizeof(msg) - 1);
	r = sbi1(SBI_EXT_PMU, 99, 0);
	rt_eq(21, "PMU FID 99 -> SBI_ERR_NOT_SUPPORTED", r.error, SBI_ERR_NOT_SUPPORTED);
	return 0;
}
