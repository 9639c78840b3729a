"""``addmin(d, a, b)``: min(d, a + b) in int32 (the sum wrapping as int32 does), one call.

Numba types ``int32 + int32`` as int64, so the kernels wrote each relaxation as
``min(d, int32(a + b))``: three calls to type and lower, thousands of times in the generated
products. This intrinsic is one, and emits the same 32-bit add and min (ptxas still fuses them
into Hopper's ``VIADDMNMX``): the same PTX, compiled in less time. Under Numba's CUDA simulator
it is the same arithmetic in Python."""

from ..gpu_common import SIMULATED

if SIMULATED:
    from numba import int32

    def addmin(d, a, b):
        return min(d, int32(a + b))
else:
    from numba import types
    from numba.cuda.extending import intrinsic

    @intrinsic
    def addmin(typingctx, d, a, b):
        if not all(t == types.int32 for t in (d, a, b)):
            return None

        def codegen(context, builder, signature, args):
            d, a, b = args
            s = builder.add(a, b)
            return builder.select(builder.icmp_signed("<", s, d), s, d)

        return types.int32(d, a, b), codegen
