"""``load4(X, i, j)``: X[i, j], X[i, j+1], X[i, j+2], X[i, j+3] of a 2-D int32 array read by one
16-byte load (the caller guarantees X[i, j] is 16-byte aligned: a shared array declared with
``alignment=16``, rows a multiple of 4 long, j a multiple of 4).

Numba reads array elements one by one and ptxas merges only some of them into wide loads; a
product whose every operand comes in a 16-byte load issues a quarter of the shared-memory
loads. The four values stay int32 (no 64-bit widening). Under Numba's CUDA simulator it is
plain indexing."""

from .gpu_common import SIMULATED

if SIMULATED:
    def load4(X, i, j):
        return X[i, j], X[i, j + 1], X[i, j + 2], X[i, j + 3]
else:
    from llvmlite import ir
    from numba import types
    from numba.cuda import cgutils
    from numba.cuda.extending import intrinsic

    @intrinsic
    def load4(typingctx, X, i, j):
        if not (isinstance(X, types.Array) and X.ndim == 2 and X.dtype == types.int32):
            return None
        result = types.UniTuple(types.int32, 4)

        def codegen(context, builder, signature, args):
            array_type, i_type, j_type = signature.args
            array, row, column = args
            indices = [context.cast(builder, row, i_type, types.intp),
                       context.cast(builder, column, j_type, types.intp)]
            array_struct = context.make_array(array_type)(context, builder, value=array)
            pointer = cgutils.get_item_pointer(context, builder, array_type, array_struct, indices)
            vector_type = ir.VectorType(ir.IntType(32), 4)
            vector = builder.load(builder.bitcast(pointer, vector_type.as_pointer()), align=16)
            values = [builder.extract_element(vector, ir.Constant(ir.IntType(32), n)) for n in range(4)]
            return context.make_tuple(builder, result, values)

        return result(X, i, j), codegen
