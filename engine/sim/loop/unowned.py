"""Arrays the loop reads without reference counts, passed by one pointer.

``pack(S)`` stores the state tuple ``S`` (nested tuples of arrays) in the calling function's
stack frame and returns a pointer to it; ``unpack(p)`` reads the tuple back with every array's
owner (meminfo) cleared, so reading it inside the compiled loop costs no atomic reference
count. The loop's functions take that one pointer instead of ~100 arrays (~700 scalar arguments
at every call), and since the cleared owners are constants where the arrays are read, the reference
counts vanish when compiled. Safe only inside one call that Python keeps the arrays alive for
(``step.advance``, which packs them): the loop never keeps, returns or reallocates them."""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic


def _clear(context, builder, ty, value):
    ary = context.make_array(ty)(context, builder, value)
    ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
    ary.parent = cgutils.get_null_value(ary.parent.type)
    return ary._getvalue()


def _arrays(ty) -> bool:
    """Whether ``ty`` is an array or (nested) tuple of arrays."""
    if isinstance(ty, types.Array):
        return True
    return isinstance(ty, types.BaseTuple) and all(_arrays(t) for t in ty.types)


def _load(context, builder, ty, ptr):
    """The value of type ``ty`` at ``ptr``, one field at a time (unused ones are never read),
    each array's owner cleared."""
    if isinstance(ty, types.Array):
        return _clear(context, builder, ty, builder.load(ptr))
    out = cgutils.get_null_value(context.get_value_type(ty))
    for i, item in enumerate(ty.types):
        field = _load(context, builder, item, cgutils.gep_inbounds(builder, ptr, 0, i))
        out = builder.insert_value(out, field, i)
    return out


@intrinsic
def pack(typingctx, s):
    """A pointer to ``s`` in the caller's frame; see the module's docstring."""
    if not _arrays(s):
        return None

    def codegen(context, builder, sig, args):
        ptr = cgutils.alloca_once(builder, context.get_value_type(s))
        builder.store(args[0], ptr)
        return ptr
    return types.CPointer(s)(s), codegen


@intrinsic
def unpack(typingctx, p):
    """The tuple ``p`` points to, its arrays unowned; see the module's docstring."""
    if not (isinstance(p, types.CPointer) and _arrays(p.dtype)):
        return None

    def codegen(context, builder, sig, args):
        return _load(context, builder, p.dtype, args[0])
    return p.dtype(p), codegen
