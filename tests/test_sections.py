"""``engine.sections``: the section headers of a ``.phhs`` found by scanning its bytes are exactly
the sections TOML reads (tomllib, the standard library's reader, is the oracle), on texts full of
header-like lines inside strings, arrays and comments."""

from __future__ import annotations

import tomllib

from hypothesis import example, given, settings
from hypothesis import strategies as st

from engine.sections import section_headers

# Pieces of a section's body, each valid TOML, many holding a line that looks like a header.
BODIES = [
    'variant = "NT"\n',
    'actions = ["d dh p1 AsKs", "p2 cbr 6", "p1 f"]\n',
    'note = """\n[7]\n"""\n',
    "note_literal = '''\n[8]  # not a comment\n'''\n",
    'note_quoted = """ends with quotes\\" and "" and ""\n[9]\n"""""\n',
    "lines = [\n  1,\n[2],\n]\n",
    'table = { a = [1, [2]], b = "]" }\n',
    'escaped = "a \\" [3] # \\\\"\n',
    "literal = 'a [4] \" # b'\n",
    "# a comment [5] \" ''' \n",
    'odd = "]" # [6]\n',
    "deep = [[[\n[10]]]]\n",
    'escaped_multi = """a \\"""\n[11]\n"""\n',
    "\n",
]


@st.composite
def phhs(draw):
    numbers = draw(st.lists(st.integers(0, 10**6), min_size=1, max_size=8, unique=True))
    sections = []
    for number in numbers:
        spacing = draw(st.sampled_from(["", "  ", "\t", " # first of its kind"]))
        body = "".join(draw(st.lists(st.sampled_from(BODIES), max_size=6, unique=True)))
        sections.append((number, f"[{number}]{spacing}\n{body}"))
    return sections


@settings(max_examples=300, deadline=None)
@given(phhs())
@example([(1, "[1]\nnote = '''\n[2]\n'''\n"), (3, "[3]\r\nx = 1\r\n")])
def test_the_headers_found_are_the_sections_toml_reads(sections):
    text = "".join(body for _, body in sections)
    read = tomllib.loads(text)
    headers = section_headers(text.encode())
    assert [n for n, _ in headers] == [int(k) for k in read] == [n for n, _ in sections]
    offsets = [0]
    for _, body in sections[:-1]:
        offsets.append(offsets[-1] + len(body.encode()))
    assert [o for _, o in headers] == offsets


def test_other_table_headers_are_not_cut_at():
    """A sub-table, an array of tables, an indented header, a header with more on its line, a
    header whose number is not a plain number: the file is read whole (None)."""
    for text in (
        "[1]\na = 1\n[1.b]\nc = 2\n",
        "[1]\n[[2]]\n",
        "[1]\n  [2]\n",
        "[1] x = 1\n",
        "[1]\n[a]\n",
        "[1]\n[ 2 ]\n",
        "[1]\n[1234567890123456789012]\n",
    ):
        assert section_headers(text.encode()) is None, text
    assert section_headers(b"variant = 'NT'\n") == []
