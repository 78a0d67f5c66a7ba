#!/usr/bin/env python3
"""Random straight-line RV64GC+Zba/Zbb/Zbs programs for the block
translator's differential test (tests/jit/suite.sh). Usage: gen_random.py
SEED > prog.S; gen_random.py --table > prog.S (every Zb form on every pair
of awkward values).

The program fills x1 and x3..x31 with awkward values (0, -1, the signed
extremes, random bits), runs a random body twice (so translated blocks run
again and chain), then writes every x and f register and its 2 KiB data buffer to
stdout and exits 0. The body mixes every ALU, shift, compare, multiply and
divide form, every Zba, Zbb and Zbs form, loads and stores of each size
(some misaligned, which leave translated code), F/D operations and
accesses, every AMO (.w and .d, with and without aq/rl) and LR/SC pairs
that succeed or fail (aligned, in the buffer, their address in a register
the pair does not change, nothing stored in between, so that
qemu-riscv64's SC, which also compares the value LR read, agrees), short
forward branches, x0 as source and destination, and instructions the
translator leaves to the step loop (fence.i, csrr), so blocks end in every
way. x2 holds the buffer's address and is never written; the same output
under qemu-riscv64, rvpmu and rvpmu --no-jit is the check. ctzw never sees
a zero low word with upper bits set, whose count QEMU 7.2 gets wrong
(tests/jit/bitmanip-atomic.S checks the spec's 32). The programs
assemble with any -march: they turn Zba, Zbb and Zbs on themselves."""
import random
import sys

R3 = ["add", "sub", "and", "or", "xor", "sll", "srl", "sra", "slt", "sltu",
      "addw", "subw", "sllw", "srlw", "sraw", "mul", "mulw", "mulh", "mulhu",
      "div", "divu", "rem", "remu", "divw", "divuw", "remw", "remuw", "mulhsu"]
RI = ["addi", "andi", "ori", "xori", "slti", "sltiu", "addiw"]
SH = [("slli", 63), ("srli", 63), ("srai", 63), ("slliw", 31), ("srliw", 31), ("sraiw", 31)]
LOADS = [("lb", 1), ("lh", 2), ("lw", 4), ("ld", 8), ("lbu", 1), ("lhu", 2), ("lwu", 4)]
STORES = [("sb", 1), ("sh", 2), ("sw", 4), ("sd", 8)]
BR = ["beq", "bne", "blt", "bge", "bltu", "bgeu"]
# Zba, Zbb, Zbs: register-register, one-register and immediate forms
ZB3 = ["add.uw", "sh1add", "sh2add", "sh3add", "sh1add.uw", "sh2add.uw", "sh3add.uw",
       "andn", "orn", "xnor", "max", "maxu", "min", "minu", "rol", "rolw", "ror", "rorw",
       "bclr", "bext", "binv", "bset"]
ZB1 = ["clz", "clzw", "ctz", "ctzw", "cpop", "cpopw", "sext.b", "sext.h", "zext.h",
       "orc.b", "rev8"]
ZBI = [("slli.uw", 63), ("rori", 63), ("roriw", 31), ("bclri", 63), ("bexti", 63),
       ("binvi", 63), ("bseti", 63)]
AMO = ["amoswap", "amoadd", "amoxor", "amoand", "amoor", "amomin", "amomax", "amominu",
       "amomaxu"]
ORDER = ["", ".aq", ".rl", ".aqrl"]
ARCH = "\t.option arch, +zba, +zbb, +zbs"   # whatever -march the assembler is given
SPECIAL = [0, 1, -1, 2, -2, 0x7fffffffffffffff, -0x8000000000000000,
           0x7fffffff, -0x80000000, 0xffffffff, 63, 64, 31, 32]


def reg(rng, dest=False):
    """A register other than x2 (the buffer); x0 now and then."""
    if rng.random() < 0.06:
        return "x0"
    r = rng.choice([1] + list(range(3, 32)))
    return f"x{r}"


def value(rng):
    if rng.random() < 0.5:
        return rng.choice(SPECIAL)
    return rng.getrandbits(64) - (1 << 63)


def fp(rng):
    """An F/D instruction: translated through the helper call, which
    clobbers the caller-saved host registers around it."""
    f = lambda: f"f{rng.randrange(32)}"
    k = rng.randrange(9)
    if k == 0:
        return f"\tfmv.d.x {f()}, {reg(rng)}"
    if k == 1:
        return f"\tfmv.x.d {reg(rng)}, {f()}"
    if k == 2:
        return f"\t{rng.choice(['fadd.d', 'fsub.d', 'fmul.d', 'fmin.d', 'fsgnjx.d'])} {f()}, {f()}, {f()}"
    if k == 3:
        return f"\tfmadd.d {f()}, {f()}, {f()}, {f()}"
    if k == 4:
        return f"\tfcvt.l.d {reg(rng)}, {f()}, rtz"
    if k == 5:
        return f"\tfeq.d {reg(rng)}, {f()}, {f()}"
    if k == 6:
        return f"\tfadd.s {f()}, {f()}, {f()}"
    op = "fld" if k == 7 else "fsd"
    off = rng.randrange(0, 2024, 8) + (1 if rng.random() < 0.1 else 0)
    return f"\t{op} {f()}, {off}(x2)"


def zb(rng):
    """A Zba/Zbb/Zbs instruction; the awkward values (x1, x3..x31 start
    as them) are its operands as often as the others."""
    k = rng.random()
    if k < 0.5:
        return f"\t{rng.choice(ZB3)} {reg(rng)}, {reg(rng)}, {reg(rng)}"
    if k < 0.75:
        op, rs = rng.choice(ZB1), reg(rng)
        if op == "ctzw" and rs != "x0":
            # QEMU 7.2 counts past bit 31 when the low word is zero (the
            # spec's result is 32): give the word a bit set
            rd = reg(rng)
            return f"\tori {rd}, {rs}, {1 << rng.randint(0, 10)}\n\tctzw {reg(rng)}, {rd}"
        return f"\t{op} {reg(rng)}, {rs}"
    op, m = rng.choice(ZBI)
    return f"\t{op} {reg(rng)}, {reg(rng)}, {rng.choice([0, 1, m - 1, m, rng.randint(0, m)])}"


def base_reg(rng):
    """A register for an address (not x0, not x2)."""
    return f"x{rng.choice([1] + list(range(3, 32)))}"


def atomic(rng):
    """An AMO, or an LR/SC pair, on an aligned doubleword or word of the
    buffer: the address in a register set just before."""
    size = rng.choice([4, 8])
    sfx = ".w" if size == 4 else ".d"
    a = base_reg(rng)
    off = rng.randrange(0, 2024, size)
    out = [f"\taddi {a}, x2, {off}"]
    if rng.random() < 0.6:
        out.append(f"\t{rng.choice(AMO)}{sfx}{rng.choice(ORDER)} {reg(rng)}, {reg(rng)}, ({a})")
        return out
    # lr, a few ALU instructions that leave the address alone, then sc:
    # at the same address (succeeds), another (fails), or no lr at all
    k = rng.random()
    if k < 0.85:
        rd = rng.choice([r for r in [1] + list(range(3, 32)) if f"x{r}" != a])
        out.append(f"\tlr{sfx}{rng.choice(ORDER)} x{rd}, ({a})")
        for _ in range(rng.randint(0, 2)):
            d = rng.choice([r for r in [1] + list(range(3, 32)) if f"x{r}" != a])
            out.append(f"\t{rng.choice(ZB3 + ['add', 'xor'])} x{d}, {reg(rng)}, {reg(rng)}")
    if k > 0.6:
        b = base_reg(rng)   # another address: the sc fails
        if b != a:
            out.append(f"\taddi {b}, x2, {(off + 8 * rng.randint(1, 4)) % 2024 // 8 * 8}")
            a = b
    out.append(f"\tsc{sfx}{rng.choice(ORDER)} {reg(rng)}, {reg(rng)}, ({a})")
    return out


def body(rng, n):
    out, label = [], 0
    for _ in range(n):
        k = rng.random()
        if k < 0.30:
            out.append(f"\t{rng.choice(R3)} {reg(rng)}, {reg(rng)}, {reg(rng)}")
        elif k < 0.42:
            out.append(f"\t{rng.choice(RI)} {reg(rng)}, {reg(rng)}, {rng.randint(-2048, 2047)}")
        elif k < 0.48:
            op, m = rng.choice(SH)
            out.append(f"\t{op} {reg(rng)}, {reg(rng)}, {rng.randint(0, m)}")
        elif k < 0.50:
            out.append(f"\tlui {reg(rng)}, {rng.randint(0, 0xfffff)}")
        elif k < 0.51:
            out.append(f"\tauipc {reg(rng)}, {rng.randint(0, 0xfffff)}")
        elif k < 0.59:
            op, size = rng.choice(LOADS)
            off = rng.randrange(0, 2024, size)
            if rng.random() < 0.1:
                off += 1  # misaligned: the step loop's to do
            out.append(f"\t{op} {reg(rng)}, {off}(x2)")
        elif k < 0.67:
            op, size = rng.choice(STORES)
            off = rng.randrange(0, 2024, size)
            if rng.random() < 0.1:
                off += 1
            out.append(f"\t{op} {reg(rng)}, {off}(x2)")
        elif k < 0.75:
            label += 1
            out.append(f"\t{rng.choice(BR)} {reg(rng)}, {reg(rng)}, 1f")
            for _ in range(rng.randint(1, 3)):
                out.append(f"\taddi {reg(rng)}, {reg(rng)}, {rng.randint(-64, 64)}")
            out.append("1:")
        elif k < 0.755:
            out.append(fp(rng))
        elif k < 0.905:
            out.append(zb(rng))
        elif k < 0.975:
            out += atomic(rng)
        elif k < 0.985:
            out.append("\tfence.i")
        else:
            out.append(f"\tcsrr {reg(rng)}, fcsr")
    return out


def table():
    """--table: every Zba/Zbb/Zbs form and mulhsu on every pair of the
    awkward values (the immediate forms at every shift amount), each result
    stored; then the results are written out, as the random programs'."""
    vals = SPECIAL + [0x8000000080000000, 0x00ff00ff00ff00ff, 0x0100000000000080,
                      -0x7f7f7f7f7f7f7f80, 0x123456789abcdef0]
    p = ["/* generated by tests/jit/gen_random.py --table */", ARCH, "\t.text", "\t.globl _start",
         "_start:", "\tla x2, out", "\tli x5, 2", "again:", "\tla x2, out"]
    n = 0

    def put(lines):
        nonlocal n
        p.extend(lines)
        p.append(f"\tsd x10, 0(x2)")
        p.append("\taddi x2, x2, 8")
        n += 1
    for op in ZB3 + ["mulhsu"]:
        for a in vals:
            for b in vals:
                put([f"\tli x11, {a}", f"\tli x12, {b}", f"\t{op} x10, x11, x12"])
    for op in ZB1:
        for a in vals:
            if op == "ctzw" and a & 0xffffffff == 0 and a:
                continue   # QEMU 7.2 gets it wrong (see zb()); blocks.S checks it
            put([f"\tli x11, {a}", f"\t{op} x10, x11"])
    for op, m in ZBI:
        for a in vals:
            for i in range(m + 1):
                put([f"\tli x11, {a}", f"\t{op} x10, x11, {i}"])
    p += ["\taddi x5, x5, -1", "\tbnez x5, again",
          "\tli a0, 1", "\tla a1, out", f"\tli a2, {8 * n}", "\tli a7, 64", "\tecall",
          "\tli a0, 0", "\tli a7, 93", "\tecall",
          "\t.data", "\t.balign 8", f"out:\t.skip {8 * n}"]
    print("\n".join(p))


def main():
    if "--table" in sys.argv:
        table()
        return
    # --fuzz-seed: position-independent code for tests/fuzz/fuzz_jit.c,
    # whose x2 already points at its data, ending in an ecall
    fuzz = "--fuzz-seed" in sys.argv
    args = [a for a in sys.argv[1:] if a != "--fuzz-seed"]
    seed = int(args[0]) if args else 1
    rng = random.Random(seed)
    p = [f"/* generated by tests/jit/gen_random.py {seed} */", ARCH,
         "\t.text", "\t.globl _start", "_start:"]
    if not fuzz:
        p.append("\tla x2, buf")
    for r in [1] + list(range(3, 32)):
        p.append(f"\tli x{r}, {value(rng)}")
    p += [f"\tfmv.d.x f{i}, x{i if i != 2 else 1}" for i in range(32)]
    p += ["\tli x5, 2", "\tsd x5, 2040(x2)", "again:"]
    p += body(rng, 200 if fuzz else 600)
    p += ["\tld x5, 2040(x2)", "\taddi x5, x5, -1", "\tsd x5, 2040(x2)",
          "\tbnez x5, again"]
    if fuzz:
        # last, a misaligned AMO: the step loop's exception, translated
        # code having left it there
        print("\n".join(p + ["\taddi x5, x2, 4", "\tamoadd.d x6, x7, (x5)", "\tecall"]))
        return
    # registers to regs[], then write regs and buf, exit 0
    p.append("\tla x5, regs")
    for r in [1] + list(range(3, 32)):
        if r != 5:
            p.append(f"\tsd x{r}, {8 * r}(x5)")
    p += [f"\tfsd f{i}, {256 + 8 * i}(x5)" for i in range(32)]
    p += ["\tli a0, 1", "\tla a1, regs", "\tli a2, 512", "\tli a7, 64", "\tecall",
          "\tli a0, 1", "\tla a1, buf", "\tli a2, 2048", "\tli a7, 64", "\tecall",
          "\tli a0, 0", "\tli a7, 93", "\tecall",
          "\t.data", "\t.balign 8", "buf:\t.skip 2048", "regs:\t.skip 512"]
    print("\n".join(p))


if __name__ == "__main__":
    main()
