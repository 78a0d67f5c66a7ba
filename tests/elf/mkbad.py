#!/usr/bin/env python3
"""Write malformed variants of a valid static riscv64 ELF executable.

usage: mkbad.py GOOD OUTDIR
Each variant breaks one rule the loader must check (see suite.sh). The
edits follow the ELF-64 layout (System V gABI ch. 4-5): Elf64_Ehdr fields
at fixed offsets, program headers of 56 bytes at e_phoff.
"""
import struct
import sys

PT_LOAD, PT_INTERP = 1, 3
PF_X = 1

good_path, out = sys.argv[1], sys.argv[2]
good = open(good_path, "rb").read()

def ehdr(b):
    # e_type, e_machine, e_version, e_entry, e_phoff, e_shoff, e_flags,
    # e_ehsize, e_phentsize, e_phnum, e_shentsize, e_shnum, e_shstrndx
    return list(struct.unpack_from("<HHIQQQIHHHHHH", b, 16))

def set_ehdr(b, f):
    struct.pack_into("<HHIQQQIHHHHHH", b, 16, *f)

def phdrs(b):
    f = ehdr(b)
    return [(f[4] + 56 * i, list(struct.unpack_from("<IIQQQQQQ", b, f[4] + 56 * i)))
            for i in range(f[9])]

def set_ph(b, off, p):
    struct.pack_into("<IIQQQQQQ", b, off, *p)

def loads(b):
    return [(o, p) for o, p in phdrs(b) if p[0] == PT_LOAD]

def write(name, data):
    with open("%s/%s" % (out, name), "wb") as fh:
        fh.write(bytes(data))

def variant(name, edit):
    b = bytearray(good)
    edit(b)
    write(name, b)

def wrong_machine(b):
    f = ehdr(b); f[1] = 62; set_ehdr(b, f)          # EM_X86_64

def wrong_class(b):
    b[4] = 1                                          # ELFCLASS32

def wrong_data(b):
    b[5] = 2                                          # ELFDATA2MSB

def wrong_type(b):
    f = ehdr(b); f[0] = 1; set_ehdr(b, f)             # ET_REL

def seg_beyond_file(b):
    o, p = loads(b)[0]
    p[5] = len(b) * 2                                 # p_filesz
    p[6] = max(p[6], p[5])                            # keep filesz <= memsz
    set_ph(b, o, p)

def filesz_gt_memsz(b):
    o, p = loads(b)[-1]
    p[6] = p[5] - 1 if p[5] else 0
    p[5] = p[6] + 1
    set_ph(b, o, p)

def overlap(b):
    (o0, p0), (o1, p1) = loads(b)[0], loads(b)[1]
    p1[3] = p0[3] + 64                                # p_vaddr inside segment 0
    p1[4] = p1[3]
    set_ph(b, o1, p1)

def huge_memsz(b):
    o, p = loads(b)[-1]
    p[6] = 1 << 50
    set_ph(b, o, p)

def wrap_memsz(b):
    o, p = loads(b)[-1]
    p[6] = (1 << 64) - 4096                           # vaddr + memsz wraps
    set_ph(b, o, p)

def big_memsz(b):                                      # 512 MiB of bss
    o, p = loads(b)[-1]
    p[6] = 512 << 20
    set_ph(b, o, p)

def entry_outside(b):
    f = ehdr(b); f[3] = 0x10; set_ehdr(b, f)

def entry_in_data(b):
    f = ehdr(b)
    data = [p for o, p in loads(b) if not p[1] & PF_X][0]
    f[3] = data[2 + 1] + 8                            # inside a non-X segment
    set_ehdr(b, f)

def phoff_beyond(b):
    f = ehdr(b); f[4] = len(b) - 20; set_ehdr(b, f)

def bad_phentsize(b):
    f = ehdr(b); f[8] = 32; set_ehdr(b, f)

def no_phdrs(b):
    f = ehdr(b); f[9] = 0; set_ehdr(b, f)

def no_loads(b):
    for o, p in loads(b):
        p[0] = 6                                      # PT_PHDR-like, not loaded
        set_ph(b, o, p)

def interp(b):
    o, p = [x for x in phdrs(b) if x[1][0] != PT_LOAD][0]
    p[0] = PT_INTERP
    set_ph(b, o, p)

def bad_align(b):
    o, p = loads(b)[0]
    p[7] = 0x3000                                     # not a power of two
    set_ph(b, o, p)

variant("wrong-machine", wrong_machine)
variant("wrong-class", wrong_class)
variant("wrong-data", wrong_data)
variant("wrong-type", wrong_type)
variant("segment-beyond-file", seg_beyond_file)
variant("filesz-gt-memsz", filesz_gt_memsz)
variant("overlapping-segments", overlap)
variant("huge-memsz", huge_memsz)
variant("wrapping-memsz", wrap_memsz)
variant("big-memsz", big_memsz)
variant("entry-outside", entry_outside)
variant("entry-in-data", entry_in_data)
variant("phdrs-beyond-file", phoff_beyond)
variant("bad-phentsize", bad_phentsize)
variant("no-phdrs", no_phdrs)
variant("no-load-segments", no_loads)
variant("interp-segment", interp)
variant("bad-align", bad_align)
write("truncated-header", good[:40])
write("truncated-ident", good[:10])
write("magic-only", good[:4])
write("empty", b"")
write("not-elf", b"#!/bin/sh\necho hello\n")
write("truncated-phdrs", good[:ehdr(good)[4] + 30])
write("truncated-segments", good[:len(good) // 2])
