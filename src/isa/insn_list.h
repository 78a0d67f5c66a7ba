/* The one instruction table: X(ID, name, match, mask, operand format).
 * Decoder, dispatcher and disassembler are all generated from this list.
 * Operand letters (disassembler):
 *   d s t      integer rd rs1 rs2        D S T R   float rd rs1 rs2 rs3
 *   j          I-immediate               o(s)      load offset(base)
 *   q(s)       store offset(base)        p a       branch / jump target
 *   u          U-immediate (20 bits)     >         shamt (6 bits) <  shamt (5)
 *   E          CSR number                Z         5-bit CSR immediate
 *   m          rounding mode (printed when not dyn)
 *   0(s)       AMO/LR address            P Q       fence pred / succ
 * Order matters only where encodings overlap: more specific first. */
#define INSN_LIST(X) \
  /* RV64I */ \
  X(LUI,    "lui",    0x00000037, 0x0000007f, "d,u") \
  X(AUIPC,  "auipc",  0x00000017, 0x0000007f, "d,u") \
  X(JAL,    "jal",    0x0000006f, 0x0000007f, "d,a") \
  X(JALR,   "jalr",   0x00000067, 0x0000707f, "d,o(s)") \
  X(BEQ,    "beq",    0x00000063, 0x0000707f, "s,t,p") \
  X(BNE,    "bne",    0x00001063, 0x0000707f, "s,t,p") \
  X(BLT,    "blt",    0x00004063, 0x0000707f, "s,t,p") \
  X(BGE,    "bge",    0x00005063, 0x0000707f, "s,t,p") \
  X(BLTU,   "bltu",   0x00006063, 0x0000707f, "s,t,p") \
  X(BGEU,   "bgeu",   0x00007063, 0x0000707f, "s,t,p") \
  X(LB,     "lb",     0x00000003, 0x0000707f, "d,o(s)") \
  X(LH,     "lh",     0x00001003, 0x0000707f, "d,o(s)") \
  X(LW,     "lw",     0x00002003, 0x0000707f, "d,o(s)") \
  X(LD,     "ld",     0x00003003, 0x0000707f, "d,o(s)") \
  X(LBU,    "lbu",    0x00004003, 0x0000707f, "d,o(s)") \
  X(LHU,    "lhu",    0x00005003, 0x0000707f, "d,o(s)") \
  X(LWU,    "lwu",    0x00006003, 0x0000707f, "d,o(s)") \
  X(SB,     "sb",     0x00000023, 0x0000707f, "t,q(s)") \
  X(SH,     "sh",     0x00001023, 0x0000707f, "t,q(s)") \
  X(SW,     "sw",     0x00002023, 0x0000707f, "t,q(s)") \
  X(SD,     "sd",     0x00003023, 0x0000707f, "t,q(s)") \
  X(ADDI,   "addi",   0x00000013, 0x0000707f, "d,s,j") \
  X(SLTI,   "slti",   0x00002013, 0x0000707f, "d,s,j") \
  X(SLTIU,  "sltiu",  0x00003013, 0x0000707f, "d,s,j") \
  X(XORI,   "xori",   0x00004013, 0x0000707f, "d,s,j") \
  X(ORI,    "ori",    0x00006013, 0x0000707f, "d,s,j") \
  X(ANDI,   "andi",   0x00007013, 0x0000707f, "d,s,j") \
  X(SLLI,   "slli",   0x00001013, 0xfc00707f, "d,s,>") \
  X(SRLI,   "srli",   0x00005013, 0xfc00707f, "d,s,>") \
  X(SRAI,   "srai",   0x40005013, 0xfc00707f, "d,s,>") \
  X(ADD,    "add",    0x00000033, 0xfe00707f, "d,s,t") \
  X(SUB,    "sub",    0x40000033, 0xfe00707f, "d,s,t") \
  X(SLL,    "sll",    0x00001033, 0xfe00707f, "d,s,t") \
  X(SLT,    "slt",    0x00002033, 0xfe00707f, "d,s,t") \
  X(SLTU,   "sltu",   0x00003033, 0xfe00707f, "d,s,t") \
  X(XOR,    "xor",    0x00004033, 0xfe00707f, "d,s,t") \
  X(SRL,    "srl",    0x00005033, 0xfe00707f, "d,s,t") \
  X(SRA,    "sra",    0x40005033, 0xfe00707f, "d,s,t") \
  X(OR,     "or",     0x00006033, 0xfe00707f, "d,s,t") \
  X(AND,    "and",    0x00007033, 0xfe00707f, "d,s,t") \
  X(ADDIW,  "addiw",  0x0000001b, 0x0000707f, "d,s,j") \
  X(SLLIW,  "slliw",  0x0000101b, 0xfe00707f, "d,s,<") \
  X(SRLIW,  "srliw",  0x0000501b, 0xfe00707f, "d,s,<") \
  X(SRAIW,  "sraiw",  0x4000501b, 0xfe00707f, "d,s,<") \
  X(ADDW,   "addw",   0x0000003b, 0xfe00707f, "d,s,t") \
  X(SUBW,   "subw",   0x4000003b, 0xfe00707f, "d,s,t") \
  X(SLLW,   "sllw",   0x0000103b, 0xfe00707f, "d,s,t") \
  X(SRLW,   "srlw",   0x0000503b, 0xfe00707f, "d,s,t") \
  X(SRAW,   "sraw",   0x4000503b, 0xfe00707f, "d,s,t") \
  X(FENCE_TSO, "fence.tso", 0x8330000f, 0xfff0707f, "") \
  X(PAUSE,  "pause",  0x0100000f, 0xffffffff, "") \
  X(FENCE,  "fence",  0x0000000f, 0x0000707f, "P,Q") \
  X(FENCE_I,"fence.i",0x0000100f, 0x0000707f, "") \
  X(ECALL,  "ecall",  0x00000073, 0xffffffff, "") \
  X(EBREAK, "ebreak", 0x00100073, 0xffffffff, "") \
  /* privileged */ \
  X(SRET,   "sret",   0x10200073, 0xffffffff, "") \
  X(MRET,   "mret",   0x30200073, 0xffffffff, "") \
  X(WFI,    "wfi",    0x10500073, 0xffffffff, "") \
  X(SFENCE_VMA, "sfence.vma", 0x12000073, 0xfe007fff, "s,t") \
  X(SCTRCLR, "sctrclr", 0x10400073, 0xffffffff, "") \
  /* the hypervisor extension */ \
  X(HFENCE_VVMA, "hfence.vvma", 0x22000073, 0xfe007fff, "s,t") \
  X(HFENCE_GVMA, "hfence.gvma", 0x62000073, 0xfe007fff, "s,t") \
  X(HLV_B,   "hlv.b",   0x60004073, 0xfff0707f, "d,0(s)") \
  X(HLV_BU,  "hlv.bu",  0x60104073, 0xfff0707f, "d,0(s)") \
  X(HLV_H,   "hlv.h",   0x64004073, 0xfff0707f, "d,0(s)") \
  X(HLV_HU,  "hlv.hu",  0x64104073, 0xfff0707f, "d,0(s)") \
  X(HLVX_HU, "hlvx.hu", 0x64304073, 0xfff0707f, "d,0(s)") \
  X(HLV_W,   "hlv.w",   0x68004073, 0xfff0707f, "d,0(s)") \
  X(HLV_WU,  "hlv.wu",  0x68104073, 0xfff0707f, "d,0(s)") \
  X(HLVX_WU, "hlvx.wu", 0x68304073, 0xfff0707f, "d,0(s)") \
  X(HLV_D,   "hlv.d",   0x6c004073, 0xfff0707f, "d,0(s)") \
  X(HSV_B,   "hsv.b",   0x62004073, 0xfe007fff, "t,0(s)") \
  X(HSV_H,   "hsv.h",   0x66004073, 0xfe007fff, "t,0(s)") \
  X(HSV_W,   "hsv.w",   0x6a004073, 0xfe007fff, "t,0(s)") \
  X(HSV_D,   "hsv.d",   0x6e004073, 0xfe007fff, "t,0(s)") \
  /* Zicsr */ \
  X(CSRRW,  "csrrw",  0x00001073, 0x0000707f, "d,E,s") \
  X(CSRRS,  "csrrs",  0x00002073, 0x0000707f, "d,E,s") \
  X(CSRRC,  "csrrc",  0x00003073, 0x0000707f, "d,E,s") \
  X(CSRRWI, "csrrwi", 0x00005073, 0x0000707f, "d,E,Z") \
  X(CSRRSI, "csrrsi", 0x00006073, 0x0000707f, "d,E,Z") \
  X(CSRRCI, "csrrci", 0x00007073, 0x0000707f, "d,E,Z") \
  /* M */ \
  X(MUL,    "mul",    0x02000033, 0xfe00707f, "d,s,t") \
  X(MULH,   "mulh",   0x02001033, 0xfe00707f, "d,s,t") \
  X(MULHSU, "mulhsu", 0x02002033, 0xfe00707f, "d,s,t") \
  X(MULHU,  "mulhu",  0x02003033, 0xfe00707f, "d,s,t") \
  X(DIV,    "div",    0x02004033, 0xfe00707f, "d,s,t") \
  X(DIVU,   "divu",   0x02005033, 0xfe00707f, "d,s,t") \
  X(REM,    "rem",    0x02006033, 0xfe00707f, "d,s,t") \
  X(REMU,   "remu",   0x02007033, 0xfe00707f, "d,s,t") \
  X(MULW,   "mulw",   0x0200003b, 0xfe00707f, "d,s,t") \
  X(DIVW,   "divw",   0x0200403b, 0xfe00707f, "d,s,t") \
  X(DIVUW,  "divuw",  0x0200503b, 0xfe00707f, "d,s,t") \
  X(REMW,   "remw",   0x0200603b, 0xfe00707f, "d,s,t") \
  X(REMUW,  "remuw",  0x0200703b, 0xfe00707f, "d,s,t") \
  /* A (aq/rl bits 26:25 are free in the mask) */ \
  X(LR_W,      "lr.w",      0x1000202f, 0xf9f0707f, "d,0(s)") \
  X(SC_W,      "sc.w",      0x1800202f, 0xf800707f, "d,t,0(s)") \
  X(AMOSWAP_W, "amoswap.w", 0x0800202f, 0xf800707f, "d,t,0(s)") \
  X(AMOADD_W,  "amoadd.w",  0x0000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOXOR_W,  "amoxor.w",  0x2000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOAND_W,  "amoand.w",  0x6000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOOR_W,   "amoor.w",   0x4000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOMIN_W,  "amomin.w",  0x8000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOMAX_W,  "amomax.w",  0xa000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOMINU_W, "amominu.w", 0xc000202f, 0xf800707f, "d,t,0(s)") \
  X(AMOMAXU_W, "amomaxu.w", 0xe000202f, 0xf800707f, "d,t,0(s)") \
  X(LR_D,      "lr.d",      0x1000302f, 0xf9f0707f, "d,0(s)") \
  X(SC_D,      "sc.d",      0x1800302f, 0xf800707f, "d,t,0(s)") \
  X(AMOSWAP_D, "amoswap.d", 0x0800302f, 0xf800707f, "d,t,0(s)") \
  X(AMOADD_D,  "amoadd.d",  0x0000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOXOR_D,  "amoxor.d",  0x2000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOAND_D,  "amoand.d",  0x6000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOOR_D,   "amoor.d",   0x4000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOMIN_D,  "amomin.d",  0x8000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOMAX_D,  "amomax.d",  0xa000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOMINU_D, "amominu.d", 0xc000302f, 0xf800707f, "d,t,0(s)") \
  X(AMOMAXU_D, "amomaxu.d", 0xe000302f, 0xf800707f, "d,t,0(s)") \
  /* F */ \
  X(FLW,      "flw",      0x00002007, 0x0000707f, "D,o(s)") \
  X(FSW,      "fsw",      0x00002027, 0x0000707f, "T,q(s)") \
  X(FMADD_S,  "fmadd.s",  0x00000043, 0x0600007f, "D,S,T,R,m") \
  X(FMSUB_S,  "fmsub.s",  0x00000047, 0x0600007f, "D,S,T,R,m") \
  X(FNMSUB_S, "fnmsub.s", 0x0000004b, 0x0600007f, "D,S,T,R,m") \
  X(FNMADD_S, "fnmadd.s", 0x0000004f, 0x0600007f, "D,S,T,R,m") \
  X(FADD_S,   "fadd.s",   0x00000053, 0xfe00007f, "D,S,T,m") \
  X(FSUB_S,   "fsub.s",   0x08000053, 0xfe00007f, "D,S,T,m") \
  X(FMUL_S,   "fmul.s",   0x10000053, 0xfe00007f, "D,S,T,m") \
  X(FDIV_S,   "fdiv.s",   0x18000053, 0xfe00007f, "D,S,T,m") \
  X(FSQRT_S,  "fsqrt.s",  0x58000053, 0xfff0007f, "D,S,m") \
  X(FSGNJ_S,  "fsgnj.s",  0x20000053, 0xfe00707f, "D,S,T") \
  X(FSGNJN_S, "fsgnjn.s", 0x20001053, 0xfe00707f, "D,S,T") \
  X(FSGNJX_S, "fsgnjx.s", 0x20002053, 0xfe00707f, "D,S,T") \
  X(FMIN_S,   "fmin.s",   0x28000053, 0xfe00707f, "D,S,T") \
  X(FMAX_S,   "fmax.s",   0x28001053, 0xfe00707f, "D,S,T") \
  X(FCVT_W_S, "fcvt.w.s", 0xc0000053, 0xfff0007f, "d,S,m") \
  X(FCVT_WU_S,"fcvt.wu.s",0xc0100053, 0xfff0007f, "d,S,m") \
  X(FCVT_L_S, "fcvt.l.s", 0xc0200053, 0xfff0007f, "d,S,m") \
  X(FCVT_LU_S,"fcvt.lu.s",0xc0300053, 0xfff0007f, "d,S,m") \
  X(FMV_X_W,  "fmv.x.w",  0xe0000053, 0xfff0707f, "d,S") \
  X(FCLASS_S, "fclass.s", 0xe0001053, 0xfff0707f, "d,S") \
  X(FEQ_S,    "feq.s",    0xa0002053, 0xfe00707f, "d,S,T") \
  X(FLT_S,    "flt.s",    0xa0001053, 0xfe00707f, "d,S,T") \
  X(FLE_S,    "fle.s",    0xa0000053, 0xfe00707f, "d,S,T") \
  X(FCVT_S_W, "fcvt.s.w", 0xd0000053, 0xfff0007f, "D,s,m") \
  X(FCVT_S_WU,"fcvt.s.wu",0xd0100053, 0xfff0007f, "D,s,m") \
  X(FCVT_S_L, "fcvt.s.l", 0xd0200053, 0xfff0007f, "D,s,m") \
  X(FCVT_S_LU,"fcvt.s.lu",0xd0300053, 0xfff0007f, "D,s,m") \
  X(FMV_W_X,  "fmv.w.x",  0xf0000053, 0xfff0707f, "D,s") \
  /* D */ \
  X(FLD,      "fld",      0x00003007, 0x0000707f, "D,o(s)") \
  X(FSD,      "fsd",      0x00003027, 0x0000707f, "T,q(s)") \
  X(FMADD_D,  "fmadd.d",  0x02000043, 0x0600007f, "D,S,T,R,m") \
  X(FMSUB_D,  "fmsub.d",  0x02000047, 0x0600007f, "D,S,T,R,m") \
  X(FNMSUB_D, "fnmsub.d", 0x0200004b, 0x0600007f, "D,S,T,R,m") \
  X(FNMADD_D, "fnmadd.d", 0x0200004f, 0x0600007f, "D,S,T,R,m") \
  X(FADD_D,   "fadd.d",   0x02000053, 0xfe00007f, "D,S,T,m") \
  X(FSUB_D,   "fsub.d",   0x0a000053, 0xfe00007f, "D,S,T,m") \
  X(FMUL_D,   "fmul.d",   0x12000053, 0xfe00007f, "D,S,T,m") \
  X(FDIV_D,   "fdiv.d",   0x1a000053, 0xfe00007f, "D,S,T,m") \
  X(FSQRT_D,  "fsqrt.d",  0x5a000053, 0xfff0007f, "D,S,m") \
  X(FSGNJ_D,  "fsgnj.d",  0x22000053, 0xfe00707f, "D,S,T") \
  X(FSGNJN_D, "fsgnjn.d", 0x22001053, 0xfe00707f, "D,S,T") \
  X(FSGNJX_D, "fsgnjx.d", 0x22002053, 0xfe00707f, "D,S,T") \
  X(FMIN_D,   "fmin.d",   0x2a000053, 0xfe00707f, "D,S,T") \
  X(FMAX_D,   "fmax.d",   0x2a001053, 0xfe00707f, "D,S,T") \
  X(FCVT_S_D, "fcvt.s.d", 0x40100053, 0xfff0007f, "D,S,m") \
  X(FCVT_D_S, "fcvt.d.s", 0x42000053, 0xfff0007f, "D,S,m") \
  X(FEQ_D,    "feq.d",    0xa2002053, 0xfe00707f, "d,S,T") \
  X(FLT_D,    "flt.d",    0xa2001053, 0xfe00707f, "d,S,T") \
  X(FLE_D,    "fle.d",    0xa2000053, 0xfe00707f, "d,S,T") \
  X(FCLASS_D, "fclass.d", 0xe2001053, 0xfff0707f, "d,S") \
  X(FCVT_W_D, "fcvt.w.d", 0xc2000053, 0xfff0007f, "d,S,m") \
  X(FCVT_WU_D,"fcvt.wu.d",0xc2100053, 0xfff0007f, "d,S,m") \
  X(FCVT_L_D, "fcvt.l.d", 0xc2200053, 0xfff0007f, "d,S,m") \
  X(FCVT_LU_D,"fcvt.lu.d",0xc2300053, 0xfff0007f, "d,S,m") \
  X(FMV_X_D,  "fmv.x.d",  0xe2000053, 0xfff0707f, "d,S") \
  X(FCVT_D_W, "fcvt.d.w", 0xd2000053, 0xfff0007f, "D,s,m") \
  X(FCVT_D_WU,"fcvt.d.wu",0xd2100053, 0xfff0007f, "D,s,m") \
  X(FCVT_D_L, "fcvt.d.l", 0xd2200053, 0xfff0007f, "D,s,m") \
  X(FCVT_D_LU,"fcvt.d.lu",0xd2300053, 0xfff0007f, "D,s,m") \
  X(FMV_D_X,  "fmv.d.x",  0xf2000053, 0xfff0707f, "D,s") \
  /* Zba */ \
  X(ADD_UW,   "add.uw",   0x0800003b, 0xfe00707f, "d,s,t") \
  X(SH1ADD,   "sh1add",   0x20002033, 0xfe00707f, "d,s,t") \
  X(SH2ADD,   "sh2add",   0x20004033, 0xfe00707f, "d,s,t") \
  X(SH3ADD,   "sh3add",   0x20006033, 0xfe00707f, "d,s,t") \
  X(SH1ADD_UW,"sh1add.uw",0x2000203b, 0xfe00707f, "d,s,t") \
  X(SH2ADD_UW,"sh2add.uw",0x2000403b, 0xfe00707f, "d,s,t") \
  X(SH3ADD_UW,"sh3add.uw",0x2000603b, 0xfe00707f, "d,s,t") \
  X(SLLI_UW,  "slli.uw",  0x0800101b, 0xfc00707f, "d,s,>") \
  /* Zbb */ \
  X(ANDN,     "andn",     0x40007033, 0xfe00707f, "d,s,t") \
  X(ORN,      "orn",      0x40006033, 0xfe00707f, "d,s,t") \
  X(XNOR,     "xnor",     0x40004033, 0xfe00707f, "d,s,t") \
  X(CLZ,      "clz",      0x60001013, 0xfff0707f, "d,s") \
  X(CLZW,     "clzw",     0x6000101b, 0xfff0707f, "d,s") \
  X(CTZ,      "ctz",      0x60101013, 0xfff0707f, "d,s") \
  X(CTZW,     "ctzw",     0x6010101b, 0xfff0707f, "d,s") \
  X(CPOP,     "cpop",     0x60201013, 0xfff0707f, "d,s") \
  X(CPOPW,    "cpopw",    0x6020101b, 0xfff0707f, "d,s") \
  X(MAX,      "max",      0x0a006033, 0xfe00707f, "d,s,t") \
  X(MAXU,     "maxu",     0x0a007033, 0xfe00707f, "d,s,t") \
  X(MIN,      "min",      0x0a004033, 0xfe00707f, "d,s,t") \
  X(MINU,     "minu",     0x0a005033, 0xfe00707f, "d,s,t") \
  X(SEXT_B,   "sext.b",   0x60401013, 0xfff0707f, "d,s") \
  X(SEXT_H,   "sext.h",   0x60501013, 0xfff0707f, "d,s") \
  X(ZEXT_H,   "zext.h",   0x0800403b, 0xfff0707f, "d,s") \
  X(ROL,      "rol",      0x60001033, 0xfe00707f, "d,s,t") \
  X(ROLW,     "rolw",     0x6000103b, 0xfe00707f, "d,s,t") \
  X(ROR,      "ror",      0x60005033, 0xfe00707f, "d,s,t") \
  X(RORI,     "rori",     0x60005013, 0xfc00707f, "d,s,>") \
  X(RORIW,    "roriw",    0x6000501b, 0xfe00707f, "d,s,<") \
  X(RORW,     "rorw",     0x6000503b, 0xfe00707f, "d,s,t") \
  X(ORC_B,    "orc.b",    0x28705013, 0xfff0707f, "d,s") \
  X(REV8,     "rev8",     0x6b805013, 0xfff0707f, "d,s") \
  /* Zbs */ \
  X(BCLR,     "bclr",     0x48001033, 0xfe00707f, "d,s,t") \
  X(BCLRI,    "bclri",    0x48001013, 0xfc00707f, "d,s,>") \
  X(BEXT,     "bext",     0x48005033, 0xfe00707f, "d,s,t") \
  X(BEXTI,    "bexti",    0x48005013, 0xfc00707f, "d,s,>") \
  X(BINV,     "binv",     0x68001033, 0xfe00707f, "d,s,t") \
  X(BINVI,    "binvi",    0x68001013, 0xfc00707f, "d,s,>") \
  X(BSET,     "bset",     0x28001033, 0xfe00707f, "d,s,t") \
  X(BSETI,    "bseti",    0x28001013, 0xfc00707f, "d,s,>")
