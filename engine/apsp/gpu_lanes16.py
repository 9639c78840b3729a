"""Two distances in one int32 word: 16-bit unsigned lanes, the low lane the even column.

``addmin2(d, a, b)`` relaxes both lanes at once, ``min(d, a + b)`` lane by lane: PTX's
``add.u16x2`` and ``min.u16x2`` (sm_90), which ptxas fuses into one Hopper ``VIADDMNMX.U16x2``
— two relaxations an instruction where int32 gets one.

Lanes hold ``min(distance, CAP)``: every value is at most CAP, so a lane sum is at most 2·CAP
and never wraps past 16 bits, and min-plus with that cap is exact for every distance below it
(a sum reaching CAP could only have lowered a cell that is itself at CAP). A result lane at CAP
means "CAP or more, or unreachable", which the caller must settle another way. Under Numba's
CUDA simulator ``addmin2`` is the same arithmetic in Python.
"""

from .gpu_common import SIMULATED

CAP = 0x7FFF  # 32,767: the largest lane value; 2·CAP fits 16 bits

if SIMULATED:
    def addmin2(d, a, b):
        low = min(d & 0xFFFF, (a & 0xFFFF) + (b & 0xFFFF))
        high = min(d >> 16, (a >> 16) + (b >> 16))
        return type(d)(low | high << 16)
else:
    from llvmlite import ir
    from numba import types
    from numba.cuda.extending import intrinsic

    @intrinsic
    def addmin2(typingctx, d, a, b):
        if not all(t == types.int32 for t in (d, a, b)):
            return None
        word = ir.IntType(32)
        asm = "{\n.reg .b32 s;\nadd.u16x2 s, $2, $3;\nmin.u16x2 $0, $1, s;\n}"

        def codegen(context, builder, signature, args):
            return builder.asm(ir.FunctionType(word, [word] * 3), asm, "=r,r,r,r", list(args), False)

        return types.int32(d, a, b), codegen
