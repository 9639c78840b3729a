"""``load4(X, i, j)``: X[i, j], X[i, j+1], X[i, j+2], X[i, j+3] of a 2-D int32 array read by one
16-byte load; ``store4(X, i, j, a, b, c, d)`` writes them by one 16-byte store (the caller
guarantees X[i, j] is 16-byte aligned: a shared array declared with ``alignment=16`` or a device
array, rows a multiple of 4 long, j a multiple of 4). ``store_marks(X, i, j, mark, changed)``
gives X[i, j + c], for each word ``changed[c]`` of a tuple, mark's low 16 bits in each 16-bit
half where that word's half is non-zero, by predicated 16-bit stores, the other halves untouched
and no word read (X a device array).

Numba reads array elements one by one and ptxas merges only some of them into wide loads; a
product whose every operand comes in a 16-byte load issues a quarter of the shared-memory
loads. The four values stay int32 (no 64-bit widening). Under Numba's CUDA simulator it is
plain indexing."""

from .gpu_common import SIMULATED

if SIMULATED:
    def load4(X, i, j):
        return X[i, j], X[i, j + 1], X[i, j + 2], X[i, j + 3]

    def store4(X, i, j, a, b, c, d):
        X[i, j], X[i, j + 1], X[i, j + 2], X[i, j + 3] = a, b, c, d

    def store_marks(X, i, j, mark, changed):
        for c, x in enumerate(changed):
            word = int(X[i, j + c]) & 0xFFFFFFFF
            for shift in (0, 16):
                if int(x) >> shift & 0xFFFF:
                    word = word & ~(0xFFFF << shift) | (int(mark) & 0xFFFF) << shift
            X[i, j + c] = word - (1 << 32) if word >> 31 else word
else:
    from llvmlite import ir
    from numba import types
    from numba.cuda import cgutils
    from numba.cuda.extending import intrinsic

    VECTOR = ir.VectorType(ir.IntType(32), 4)

    def _is_matrix(X):
        return isinstance(X, types.Array) and X.ndim == 2 and X.dtype == types.int32

    def _vector_pointer(context, builder, signature, args):
        """X[i, j]'s address as a pointer to four int32."""
        array_type, i_type, j_type = signature.args[:3]
        array, row, column = args[:3]
        indices = [context.cast(builder, row, i_type, types.intp),
                   context.cast(builder, column, j_type, types.intp)]
        array_struct = context.make_array(array_type)(context, builder, value=array)
        pointer = cgutils.get_item_pointer(context, builder, array_type, array_struct, indices)
        return builder.bitcast(pointer, VECTOR.as_pointer())

    @intrinsic
    def load4(typingctx, X, i, j):
        if not _is_matrix(X):
            return None
        result = types.UniTuple(types.int32, 4)

        def codegen(context, builder, signature, args):
            vector = builder.load(_vector_pointer(context, builder, signature, args), align=16)
            values = [builder.extract_element(vector, ir.Constant(ir.IntType(32), n)) for n in range(4)]
            return context.make_tuple(builder, result, values)

        return result(X, i, j), codegen

    @intrinsic
    def store4(typingctx, X, i, j, a, b, c, d):
        if not (_is_matrix(X) and all(v == types.int32 for v in (a, b, c, d))):
            return None

        def codegen(context, builder, signature, args):
            vector = ir.Constant(VECTOR, None)
            for n, value in enumerate(args[3:]):
                vector = builder.insert_element(vector, value, ir.Constant(ir.IntType(32), n))
            builder.store(vector, _vector_pointer(context, builder, signature, args), align=16)
            return context.get_dummy_value()

        return types.void(X, i, j, a, b, c, d), codegen

    @intrinsic
    def store_marks(typingctx, X, i, j, mark, changed):
        if not (_is_matrix(X) and mark == types.int32 and isinstance(changed, types.UniTuple)
                and isinstance(changed.dtype, types.Integer)):  # (any width: the low 32 bits are tested)
            return None
        words = changed.count
        # one asm statement: ptxas turns each and + setp into a predicate-setting LOP3
        lines = ["{", ".reg .pred p;", ".reg .b32 t;", ".reg .b64 g;", "cvta.to.global.u64 g, $0;"]
        for c in range(words):
            for half, bits in enumerate(("0xFFFF", "0xFFFF0000")):
                lines += [f"and.b32 t, ${2 + c}, {bits};", "setp.ne.b32 p, t, 0;",
                          f"@p st.global.u16 [g+{4 * c + 2 * half}], $1;"]
        asm = " ".join(lines + ["}"])

        def codegen(context, builder, signature, args):
            word, address = ir.IntType(32), ir.IntType(64)
            pointer = builder.ptrtoint(_vector_pointer(context, builder, signature, args), address)
            values = [builder.trunc(builder.extract_value(args[4], c), word) if changed.dtype.bitwidth > 32
                      else builder.extract_value(args[4], c) for c in range(words)]
            builder.asm(ir.FunctionType(ir.VoidType(), [address] + [word] * (1 + words)), asm,
                        ",".join(["l"] + ["r"] * (1 + words)) + ",~{memory}", [pointer, args[3]] + values, True)
            return context.get_dummy_value()

        return types.void(X, i, j, mark, changed), codegen
