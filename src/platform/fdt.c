/* The device tree the machine hands to its software (libfdt): the /soc
 * nodes come from the memory-map table the devices answer on (virt_map). The ISA string lists exactly
 * what the hart implements. */
#include <libfdt.h>
#include <stdio.h>
#include <string.h>
#include "rvpmu/machine.h"
#include "rvpmu/profile.h"

#define FDT_SIZE 0x10000


/* The /pmu node OpenSBI reads (Linux riscv,pmu binding): which mhpmevent
 * value counts each SBI event and on which counters, from the profile's
 * SBI event map; without a profile, cycles and instructions (selectors 1
 * and 2 of the default numbering) on every counter that can count them. */
static int pmu_node(void *fdt, const struct machine *m)
{
	const struct profile *p = m->o.profile;
	uint32_t hpm = (uint32_t)(((1ull << m->hart[0].pmu.cfg.n_hpm) - 1) << 3);
	fdt32_t ev[3 * PROFILE_MAX_SBI], ctr[3 * PROFILE_MAX_SBI], raw[5 * PROFILE_MAX_RAW];
	unsigned ne = 0, nc = 0, nr = 0;
	unsigned n = p ? p->n_sbi : 2;
	for (unsigned i = 0; i < n; i++) {
		uint32_t idx = p ? p->sbi[i].event_idx : i + 1;
		uint64_t sel = p ? p->sbi[i].selector : i + 1;
		uint32_t mask = p ? p->sbi[i].counters : hpm | (i ? 4u : 1u);
		if (sel) {
			ev[ne++] = cpu_to_fdt32(idx);
			ev[ne++] = cpu_to_fdt32((uint32_t)(sel >> 32));
			ev[ne++] = cpu_to_fdt32((uint32_t)sel);
		}
		ctr[nc++] = cpu_to_fdt32(idx);
		ctr[nc++] = cpu_to_fdt32(idx);
		ctr[nc++] = cpu_to_fdt32(mask);
	}
	for (unsigned i = 0; p && i < p->n_raw; i++) {
		raw[nr++] = cpu_to_fdt32((uint32_t)(p->raw[i].match >> 32));
		raw[nr++] = cpu_to_fdt32((uint32_t)p->raw[i].match);
		raw[nr++] = cpu_to_fdt32((uint32_t)(p->raw[i].mask >> 32));
		raw[nr++] = cpu_to_fdt32((uint32_t)p->raw[i].mask);
		raw[nr++] = cpu_to_fdt32(p->raw[i].counters);
	}
	int e;
	if ((e = fdt_begin_node(fdt, "pmu")) < 0 ||
	    (e = fdt_property_string(fdt, "compatible", "riscv,pmu")) < 0 ||
	    (ne && (e = fdt_property(fdt, "riscv,event-to-mhpmevent", ev, (int)(ne * 4))) < 0) ||
	    (e = fdt_property(fdt, "riscv,event-to-mhpmcounters", ctr, (int)(nc * 4))) < 0 ||
	    (nr && (e = fdt_property(fdt, "riscv,raw-event-to-mhpmcounters", raw, (int)(nr * 4))) < 0))
		return e;
	return fdt_end_node(fdt);
}

static int reg(void *fdt, uint64_t base, uint64_t size)
{
	fdt64_t r[2] = {cpu_to_fdt64(base), cpu_to_fdt64(size)};
	return fdt_property(fdt, "reg", r, sizeof(r));
}

/* cpu@i: hart h's ISA (from its profile) and its interrupt controller. */
static int cpu_node(void *fdt, const struct hart *h, unsigned i)
{
	char name[32];
	int e = 0;
#define T(x) do { if ((e = (x)) < 0) return e; } while (0)
	snprintf(name, sizeof(name), "cpu@%u", i);
	T(fdt_begin_node(fdt, name));
	T(fdt_property_u32(fdt, "phandle", CPU_PHANDLE + i));
	T(fdt_property_string(fdt, "device_type", "cpu"));
	T(fdt_property_u32(fdt, "reg", i));
	T(fdt_property_string(fdt, "compatible", "riscv"));
	T(fdt_property_string(fdt, "status", "okay"));
	const char *ext[HART_MAX_ISA_EXT];
	size_t next = hart_isa_extensions(h, ext);
	char isa[256], list[512];
	size_t n = 0;
	for (size_t k = 0; k < next; k++) {
		size_t l = strlen(ext[k]) + 1;
		memcpy(list + n, ext[k], l);
		n += l;
	}
	hart_isa_string(h, isa, sizeof(isa));
	T(fdt_property_string(fdt, "riscv,isa", isa));
	T(fdt_property_string(fdt, "riscv,isa-base", "rv64i"));
	T(fdt_property(fdt, "riscv,isa-extensions", list, (int)n));
	T(fdt_property_string(fdt, "mmu-type", "riscv,none"));
	T(fdt_begin_node(fdt, "interrupt-controller"));
	T(fdt_property_u32(fdt, "#address-cells", 0));
	T(fdt_property_u32(fdt, "#interrupt-cells", 1));
	T(fdt_property(fdt, "interrupt-controller", NULL, 0));
	T(fdt_property_string(fdt, "compatible", "riscv,cpu-intc"));
	T(fdt_property_u32(fdt, "phandle", CPU_INTC_PHANDLE + i));
	T(fdt_end_node(fdt));
	return fdt_end_node(fdt);
#undef T
}

static int build(struct machine *m, void *fdt)
{
	char name[64];
	int e = 0;
#define T(x) do { if ((e = (x)) < 0) return e; } while (0)
	T(fdt_create(fdt, FDT_SIZE));
	T(fdt_finish_reservemap(fdt));
	T(fdt_begin_node(fdt, ""));
	T(fdt_property_u32(fdt, "#address-cells", 2));
	T(fdt_property_u32(fdt, "#size-cells", 2));
	T(fdt_property_string(fdt, "compatible", "riscv-virtio"));
	T(fdt_property_string(fdt, "model", "rvpmu,virt"));

	T(fdt_begin_node(fdt, "chosen"));
	snprintf(name, sizeof(name), "/soc/serial@%llx", (unsigned long long)VIRT_UART0_BASE);
	T(fdt_property_string(fdt, "stdout-path", name));
	if (m->o.append)
		T(fdt_property_string(fdt, "bootargs", m->o.append));
	if (m->initrd_end) {
		T(fdt_property_u64(fdt, "linux,initrd-start", m->initrd_start));
		T(fdt_property_u64(fdt, "linux,initrd-end", m->initrd_end));
	}
	T(fdt_end_node(fdt));

	snprintf(name, sizeof(name), "memory@%llx", (unsigned long long)VIRT_DRAM_BASE);
	T(fdt_begin_node(fdt, name));
	T(fdt_property_string(fdt, "device_type", "memory"));
	T(reg(fdt, VIRT_DRAM_BASE, m->o.ram_mb << 20));
	T(fdt_end_node(fdt));

	T(fdt_begin_node(fdt, "cpus"));
	T(fdt_property_u32(fdt, "#address-cells", 1));
	T(fdt_property_u32(fdt, "#size-cells", 0));
	T(fdt_property_u32(fdt, "timebase-frequency", (uint32_t)m->hart[0].time_hz));
	for (unsigned i = 0; i < m->nharts; i++)
		T(cpu_node(fdt, &m->hart[i], i));
	/* one cluster of cores, one hart each, as QEMU virt describes it */
	T(fdt_begin_node(fdt, "cpu-map"));
	T(fdt_begin_node(fdt, "cluster0"));
	for (unsigned i = 0; i < m->nharts; i++) {
		snprintf(name, sizeof(name), "core%u", i);
		T(fdt_begin_node(fdt, name));
		T(fdt_property_u32(fdt, "cpu", CPU_PHANDLE + i));
		T(fdt_end_node(fdt));
	}
	T(fdt_end_node(fdt));
	T(fdt_end_node(fdt));
	T(fdt_end_node(fdt));

	T(fdt_begin_node(fdt, "soc"));
	T(fdt_property_u32(fdt, "#address-cells", 2));
	T(fdt_property_u32(fdt, "#size-cells", 2));
	T(fdt_property_string(fdt, "compatible", "simple-bus"));
	T(fdt_property(fdt, "ranges", NULL, 0));

	/* every device of the memory map that has a node */
	for (unsigned i = 0; i < virt_map_len; i++) {
		const struct virt_dev *d = &virt_map[i];
		if (!d->name)
			continue;
		snprintf(name, sizeof(name), "%s@%llx", d->name, (unsigned long long)d->base);
		T(fdt_begin_node(fdt, name));
		T(reg(fdt, d->base, d->size));
		T(d->dt(fdt, m));
		if (d->irq) {
			T(fdt_property_u32(fdt, "interrupts", d->irq));
			T(fdt_property_u32(fdt, "interrupt-parent", PLIC_PHANDLE));
		}
		T(fdt_end_node(fdt));
	}
	T(fdt_end_node(fdt));  /* soc */
	T(pmu_node(fdt, m));

	T(fdt_end_node(fdt));  /* root */
	T(fdt_finish(fdt));
#undef T
	return 0;
}

/* --dtb FILE: the user's tree, with /chosen's bootargs and initrd set
 * from --append and --initrd as QEMU does with -dtb. */
static int load_dtb(struct machine *m, void *dst, char *err, size_t errlen)
{
	static char buf[FDT_SIZE];
	FILE *f = fopen(m->o.dtb, "rb");
	if (!f) {
		snprintf(err, errlen, "--dtb: cannot open '%s'", m->o.dtb);
		return -1;
	}
	size_t n = fread(buf, 1, sizeof buf, f);
	int more = fgetc(f) != EOF;
	fclose(f);
	if (more || n < sizeof(struct fdt_header) || fdt_check_header(buf) ||
	    fdt_totalsize(buf) > n || fdt_check_full(buf, n)) {   /* the whole tree */
		snprintf(err, errlen, "--dtb: '%s' is not a flattened device tree%s", m->o.dtb,
			 more ? " of at most 64 KiB" : "");
		return -1;
	}
	int e = fdt_open_into(buf, dst, FDT_SIZE), c = 0;
	if (!e && (m->o.append || m->o.initrd)) {
		c = fdt_path_offset(dst, "/chosen");
		if (c < 0)
			c = fdt_add_subnode(dst, 0, "chosen");
	}
	if (!e && c >= 0 && m->o.append)
		e = fdt_setprop_string(dst, c, "bootargs", m->o.append);
	if (!e && c >= 0 && m->o.initrd) {
		e = fdt_setprop_u64(dst, c, "linux,initrd-start", m->initrd_start);
		if (!e)
			e = fdt_setprop_u64(dst, c, "linux,initrd-end", m->initrd_end);
	}
	if (c < 0)
		e = c;
	if (e) {
		snprintf(err, errlen, "--dtb: '%s': %s", m->o.dtb, fdt_strerror(e));
		return -1;
	}
	return 0;
}

int machine_build_dtb(struct machine *m, char *err, size_t errlen)
{
	/* at the top of RAM, as QEMU places it */
	m->dtb_addr = VIRT_DRAM_BASE + (m->o.ram_mb << 20) - FDT_SIZE;
	if (m->o.dtb)
		return load_dtb(m, m->hart[0].mem.base + m->dtb_addr, err, errlen);
	int e = build(m, m->hart[0].mem.base + m->dtb_addr);
	if (e < 0) {
		snprintf(err, errlen, "device tree: %s", fdt_strerror(e));
		return -1;
	}
	return 0;
}
