"""Arrays the loop reads without reference counts: ``unowned(x)`` is the array (or each array of
the tuple) ``x`` with its owner (meminfo) cleared, so passing and reading it inside the compiled
loop costs no atomic reference count (the loop's functions take ~100 arrays; counting each one
at every call was most of the loop's time). Safe only inside one call that Python keeps the
arrays alive for (``step.advance``): the loop never keeps, returns or reallocates them."""

from __future__ import annotations

from numba.core import cgutils, types
from numba.extending import intrinsic


def _clear(context, builder, ty, value):
    ary = context.make_array(ty)(context, builder, value)
    ary.meminfo = cgutils.get_null_value(ary.meminfo.type)
    ary.parent = cgutils.get_null_value(ary.parent.type)
    return ary._getvalue()


@intrinsic
def unowned(typingctx, x):
    """See the module's docstring."""
    if isinstance(x, types.Array):
        def codegen(context, builder, sig, args):
            return _clear(context, builder, sig.args[0], args[0])
        return x(x), codegen
    if isinstance(x, types.BaseTuple) and all(isinstance(t, types.Array) for t in x.types):
        def codegen(context, builder, sig, args):
            out = args[0]
            for i, ty in enumerate(sig.args[0].types):
                item = builder.extract_value(args[0], i)
                out = builder.insert_value(out, _clear(context, builder, ty, item), i)
            return out
        return x(x), codegen
    return None
