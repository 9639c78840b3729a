"""``thread_x()``, ``thread_y()``: cuda.threadIdx.x and .y read again where they are called.

LLVM takes a special register's value as unchanging, so code that reads the thread's index late
in a kernel (``lookahead_closure``: a diagonal tile closed after phase 3's product) reuses the
values read first, holding them, and what was computed from them, through the product: in
``phase3_lanes_wide``, held to 80 registers, that spilled 8 bytes. These read the register again
(an asm statement with side effects, which LLVM neither merges nor moves), so nothing is held.
Under Numba's CUDA simulator they return cuda.threadIdx.x and .y."""

from numba import cuda

from ..gpu_common import SIMULATED

if SIMULATED:  # device functions: the simulator gives them the calling thread's ``cuda``
    @cuda.jit(device=True)
    def thread_x():
        return cuda.threadIdx.x

    @cuda.jit(device=True)
    def thread_y():
        return cuda.threadIdx.y
else:
    from llvmlite import ir
    from numba import types
    from numba.cuda.extending import intrinsic

    def _special(register):
        @intrinsic
        def read(typingctx):
            def codegen(context, builder, signature, args):
                word = ir.IntType(32)
                return builder.asm(ir.FunctionType(word, []), f"mov.u32 $0, %{register};", "=r", [], True)

            return types.int32(), codegen

        return read

    thread_x = _special("tid.x")
    thread_y = _special("tid.y")
