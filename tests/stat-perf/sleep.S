# A user-mode program whose software events are known exactly:
#   mmap 64 anonymous pages and store to each: 64 page faults by the
#   program; its code page and its data page (the first touch of the
#   data page is nanosleep's read of the timespec: a fault by the
#   kernel) make 66;
#   3 times: nanosleep 20 ms (3 context switches, 60 ms of modelled
#   time off the hart), then 200000 iterations of a 2-instruction loop.
# instructions = 7 (mmap) + 1 + 64 x 5 (touch) + 3 + 3 x (3 + 3 + 400000
#              + 2) + 2 (exit) = 1200357; the ecalls trap and do not retire.
	.equ PAGES, 64
	.equ SPIN, 200000
	.globl _start
_start:
	li a0, 0
	li a1, PAGES * 4096
	li a2, 3            # PROT_READ | PROT_WRITE
	li a3, 0x22         # MAP_PRIVATE | MAP_ANONYMOUS
	li a4, -1
	li a5, 0
	li a7, 222          # mmap
	ecall
	li t0, PAGES
1:	sd zero, 0(a0)
	li t1, 4096
	add a0, a0, t1
	addi t0, t0, -1
	bnez t0, 1b
	li s0, 3
	lla s1, ts
2:	mv a0, s1
	li a1, 0
	li a7, 101          # nanosleep
	ecall
	li t0, SPIN
	li t1, 0
3:	addi t0, t0, -1
	bnez t0, 3b
	addi s0, s0, -1
	bnez s0, 2b
	li a0, 0
	li a7, 93           # exit
	ecall
	.data
	.balign 4096
ts:	.dword 0, 20000000  # 20 ms
