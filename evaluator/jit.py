"""numba's ``njit``, with the project's cache locators installed first (``evaluator.kernel_cache``).

Every module of the project that defines kernels takes ``njit`` from here, never from numba
(``tests/test_kernel_cache.py`` checks it): the locators are then in place before its first
kernel is decorated, and a module that defines none, such as the referee's, imports no numba.
"""

from numba import njit

from evaluator import kernel_cache

kernel_cache.install()

__all__ = ["njit"]
