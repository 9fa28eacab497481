r"""Where the hands of a ``.phhs`` file begin, without reading them: its ``[n]`` section headers,
found by one pass over the bytes that follows TOML's strings, comments and arrays.

A big file of hand records is cut at these headers so that each piece is read on its own (``run
records`` gives a worker each run of sections). A line that looks like a header inside a
multi-line string or array is text, not a header, and the scan knows it; a file with any other
table header (``[a.b]``, ``[[a]]``, a header not on a line of its own) is not cut at all.

>>> section_headers(b"[1]\nvariant = 'NT'\nnote = '''\n[7]\n'''\n[2]  # the second\nactions = [\n[3]]\n")
[(1, 0), (2, 38)]
>>> section_headers(b"[1]\na = 1\n[1.more]\nb = 2\n") is None
True
"""

from __future__ import annotations

import numpy as np

from evaluator.jit import njit

NORMAL, COMMENT, BASIC, LITERAL, MULTI_BASIC, MULTI_LITERAL = range(6)
_QUOTE, _APOSTROPHE, _BACKSLASH, _HASH, _NEWLINE, _RETURN, _SPACE, _TAB, _OPEN, _CLOSE, _BRACE, _UNBRACE, _ZERO = (
    ord(c) for c in "\"'\\#\n\r \t[]{}0"
)


@njit(cache=True)
def _scan(data, numbers, offsets):
    """Fill ``numbers`` and ``offsets`` with the sections' numbers and the offsets of their header
    lines; return how many, or -1 when the text has another table header (or one cut short)."""
    n = data.shape[0]
    count = 0
    state = NORMAL
    depth = 0  # brackets and braces open outside strings: inside a value
    line_start = True  # nothing but blanks since the line began
    line = 0
    i = 0
    while i < n:
        c = data[i]
        if state == NORMAL:
            if c == _NEWLINE:
                line_start = True
                line = i + 1
            elif line_start and (c == _SPACE or c == _TAB):
                pass
            elif line_start and depth == 0 and c == _OPEN:  # a table header
                if line != i:
                    return -1  # indented: a header, but not one this scan cuts at
                j = i + 1
                number = np.int64(0)
                while j < n and _ZERO <= data[j] <= _ZERO + 9 and j - i <= 18:
                    number = number * 10 + (data[j] - _ZERO)
                    j += 1
                if j == i + 1 or j >= n or data[j] != _CLOSE:
                    return -1  # [[a]], [a.b], [ 1 ]: not a section of a .phhs
                k = j + 1
                while k < n and (data[k] == _SPACE or data[k] == _TAB):
                    k += 1
                if k < n and not (
                    data[k] == _NEWLINE
                    or data[k] == _HASH
                    or (data[k] == _RETURN and k + 1 < n and data[k + 1] == _NEWLINE)
                ):
                    return -1
                numbers[count] = number
                offsets[count] = i
                count += 1
                line_start = False
                i = k - 1
            else:
                line_start = False
                if c == _HASH:
                    state = COMMENT
                elif c == _QUOTE:
                    if i + 2 < n and data[i + 1] == _QUOTE and data[i + 2] == _QUOTE:
                        state = MULTI_BASIC
                        i += 2
                    else:
                        state = BASIC
                elif c == _APOSTROPHE:
                    if i + 2 < n and data[i + 1] == _APOSTROPHE and data[i + 2] == _APOSTROPHE:
                        state = MULTI_LITERAL
                        i += 2
                    else:
                        state = LITERAL
                elif c == _OPEN or c == _BRACE:
                    depth += 1
                elif (c == _CLOSE or c == _UNBRACE) and depth > 0:
                    depth -= 1
        elif state == COMMENT:
            if c == _NEWLINE:
                state = NORMAL
                line_start = True
                line = i + 1
        elif state == BASIC:
            if c == _BACKSLASH:
                i += 1
            elif c == _QUOTE or c == _NEWLINE:  # a newline ends it: the text is not TOML, the reader says so
                state = NORMAL
                if c == _NEWLINE:
                    line_start = True
                    line = i + 1
        elif state == LITERAL:
            if c == _APOSTROPHE or c == _NEWLINE:
                state = NORMAL
                if c == _NEWLINE:
                    line_start = True
                    line = i + 1
        else:  # a multi-line string: three quotes end it (one or two more are its own)
            quote = _QUOTE if state == MULTI_BASIC else _APOSTROPHE
            if state == MULTI_BASIC and c == _BACKSLASH:
                i += 1
            elif c == quote and i + 2 < n and data[i + 1] == quote and data[i + 2] == quote:
                j = i + 3
                while j < n and j < i + 5 and data[j] == quote:
                    j += 1
                state = NORMAL
                i = j - 1
        i += 1
    return count


def section_headers(data: bytes) -> list[tuple[int, int]] | None:
    """The ``(number, offset)`` of every ``[n]`` section header of a ``.phhs`` text, in order, the
    offset where its line begins; None when the text has another kind of table header, or a
    header indented or followed by more than a comment (such a file is read whole)."""
    array = np.frombuffer(data, np.uint8)
    most = data.count(b"[") + 1
    numbers, offsets = np.empty(most, np.int64), np.empty(most, np.int64)
    count = _scan(array, numbers, offsets)
    if count < 0:
        return None
    return list(zip(numbers[:count].tolist(), offsets[:count].tolist()))
