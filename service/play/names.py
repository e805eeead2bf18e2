"""Player names: the characters a name may hold, and the form it is kept and shown in.

A name is shown to everyone at a table, so what is shown must be all there is. Refused:
control characters (Cc); format characters (Cf: zero-width spaces and joiners, bidi
overrides and isolates, which are invisible or reorder the text around them); private-use
characters (Co), whose look depends on a font; unassigned code points (Cn, as of the
server's Unicode version), which no font draws yet; surrogates (Cs); line and paragraph
separators (Zl, Zp), which break the line a name is shown in as a newline would; the other
characters that show as nothing (`BLANK`: variation selectors, Hangul fillers); and a name
of spaces (Zs) alone. A name is kept and shown in NFC, so the same name typed composed or
decomposed is one name.

Which names may sit together at one table is a rule of the table (domain/kernel/table.py).
"""

from __future__ import annotations

import array
import re
import sys
import unicodedata
from functools import cache

REFUSED = {
    "Cc": "a control character",
    "Cf": "a format character (invisible, or reordering the text around it)",
    "Co": "a private-use character",
    "Cn": "an unassigned code point",
    "Cs": "a surrogate",
    # They break a line where a name is shown in one, and are line ends to JavaScript and
    # to many logs: to a name they are what a newline (Cc) is.
    "Zl": "a line separator",
    "Zp": "a paragraph separator",
}
SEPARATORS = frozenset({"Zs"})
# Unicode's Default_Ignorable_Code_Point (DerivedCoreProperties.txt): characters a renderer
# shows as nothing whatever their category (variation selectors, Hangul fillers, the
# combining grapheme joiner), and the blank Braille pattern, which is a symbol but shows as
# nothing too. Most are Cf or Cn already; these are not.
BLANK = [
    (0x034F, 0x034F),
    (0x115F, 0x1160),
    (0x17B4, 0x17B5),
    (0x180B, 0x180F),
    (0x2800, 0x2800),
    (0x3164, 0x3164),
    (0xFE00, 0xFE0F),
    (0xFFA0, 0xFFA0),
    (0xE0100, 0xE01EF),
]


def blank(char: str) -> bool:
    point = ord(char)
    return any(low <= point <= high for low, high in BLANK)


class InvalidName(ValueError):
    pass


def normalised(name: str) -> str:
    """`name` as it is kept and shown (NFC), or InvalidName saying what is refused."""
    for char in name:
        what = REFUSED.get(unicodedata.category(char))
        if what is None and blank(char):
            what = "a character that shows as nothing"
        if what is not None:
            raise InvalidName(f"A name may not hold {what}; U+{ord(char):04X} is one.")
    if all(unicodedata.category(char) in SEPARATORS for char in name):
        raise InvalidName("A name must hold a character that is not a space.")
    return unicodedata.normalize("NFC", name)


@cache
def pattern() -> str:
    """The JSON-schema pattern of exactly the names `normalised` accepts: characters that
    are neither refused nor separators, and separators, with at least one of the former.

    The characters are listed, not their complement: a generator (schemathesis, through
    Hypothesis) expands a class's ranges one code point at a time, and the refused code
    points (unassigned planes, private use) outnumber the others six to one. They are spelt
    as themselves, not as escapes: Python's `re` and ECMAScript's (with Unicode semantics,
    as JSON Schema reads patterns) read a literal alike, while `\\U0001xxxx` is Python's
    alone and `\\u{1xxxx}` ECMAScript's alone."""
    everything = array.array("I", range(sys.maxunicode + 1)).tobytes()
    chars = everything.decode("utf-32-le", "surrogatepass")
    # isprintable() is false exactly for the C and Z categories but U+0020; it runs in C,
    # where a category lookup per code point would take twice as long.
    printable = bytes(map(str.isprintable, chars))
    runs = [(m.start(), m.end() - 1) for m in re.finditer(rb"\x01+", printable)]
    holes = sorted([(0x20, 0x20), *BLANK])
    shown = "".join(_class(a, b) for a, b in _without(runs, holes))
    spaces = "".join(m.group() for m in re.finditer(r"\s", chars) if _is_separator(m.group()))
    return f"^(?:[{spaces}]*[{shown}])+[{spaces}]*$"


def _class(low: int, high: int) -> str:
    """One range of a character class."""
    return _literal(low) if low == high else f"{_literal(low)}-{_literal(high)}"


def _literal(point: int) -> str:
    """A character as itself, escaped where it means something in a class (`\\]` is `]` to
    Python, to ECMAScript with Unicode semantics and to Rust alike)."""
    char = chr(point)
    return f"\\{char}" if char in "\\]^-[" else char


def _without(ranges: list[tuple[int, int]], holes: list[tuple[int, int]]) -> list[tuple[int, int]]:
    """The code points of `ranges` outside `holes`, as ranges (both lists sorted)."""
    out = []
    for start, end in ranges:
        for low, high in holes:
            if high < start or low > end:
                continue
            if low > start:
                out.append((start, low - 1))
            start = high + 1
        if start <= end:
            out.append((start, end))
    return out


def _is_separator(char: str) -> bool:
    return unicodedata.category(char) in SEPARATORS
