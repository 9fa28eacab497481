"""``prefetch(array, index)``: ask the CPU to bring ``array[index]`` into cache, from numba code.

Numba has no prefetch of its own (numba issue #3769), so this is LLVM's ``llvm.prefetch``
intrinsic. Unlike a load, a prefetch retires at once: a kernel can start the cache miss of a
hand it will finish a few iterations later without the miss holding up the hands in between.
It never faults and never changes a value, so an index past the end is harmless.

>>> import numpy as np
>>> from numba import njit
>>> @njit
... def read_ahead(table, keys):
...     total = 0
...     for i in range(keys.size):
...         prefetch(table, keys[(i + 8) % keys.size])
...         total += table[keys[i]]
...     return total
>>> int(read_ahead(np.arange(100), np.array([3, 5, 7])))
15
"""

from __future__ import annotations

from llvmlite import ir
from numba import types
from numba.core import cgutils
from numba.extending import intrinsic

_READ = ir.Constant(ir.IntType(32), 0)
_KEEP_IN_ALL_LEVELS = ir.Constant(ir.IntType(32), 3)  # temporal locality 3: like x86 prefetcht0
_DATA_CACHE = ir.Constant(ir.IntType(32), 1)


@intrinsic
def prefetch(typingctx, array, index):
    """Prefetch ``array[index]`` (a 1-D array and an integer) for reading."""
    if not (isinstance(array, types.Array) and array.ndim == 1 and isinstance(index, types.Integer)):
        return None

    def codegen(context, builder, signature, args):
        array_type, _ = signature.args
        data = context.make_array(array_type)(context, builder, args[0]).data
        address = builder.bitcast(builder.gep(data, [args[1]]), ir.IntType(8).as_pointer())
        function_type = ir.FunctionType(ir.VoidType(), [ir.IntType(8).as_pointer()] + [ir.IntType(32)] * 3)
        function = cgutils.get_or_insert_function(builder.module, function_type, "llvm.prefetch.p0")
        builder.call(function, [address, _READ, _KEEP_IN_ALL_LEVELS, _DATA_CACHE])
        return context.get_dummy_value()

    return types.void(array, index), codegen
