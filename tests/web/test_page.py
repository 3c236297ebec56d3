"""The page's files: all in the package, with their licenses; the font draws every character
the game does; nothing in them points at another host."""

from __future__ import annotations

import re
import struct
from pathlib import Path

import pytest

from tui_domino.web.door import FILES, STATIC, page

PACKAGE = Path(__file__).resolve().parents[2] / "tui_domino"
# Drawn by the terminal's other fonts (a browser's own emoji font, or a blank): the command
# palette's magnifier, Textual's own, and a fullwidth letter in a docstring's example.
NOT_DRAWN = {"🔎", "ｂ"}


def cmap(font: bytes) -> set[int]:
    """The code points a TrueType font maps to glyphs (its cmap's formats 4 and 12)."""
    count = struct.unpack(">H", font[4:6])[0]
    tables = {}
    for i in range(count):
        tag, _sum, offset, _length = struct.unpack(">4sIII", font[12 + 16 * i:28 + 16 * i])
        tables[tag] = offset
    base = tables[b"cmap"]
    out: set[int] = set()
    for i in range(struct.unpack(">H", font[base + 2:base + 4])[0]):
        _platform, _encoding, offset = struct.unpack(">HHI", font[base + 4 + 8 * i:
                                                                 base + 12 + 8 * i])
        sub = base + offset
        kind = struct.unpack(">H", font[sub:sub + 2])[0]
        if kind == 4:
            segs2 = struct.unpack(">H", font[sub + 6:sub + 8])[0]
            ends = struct.unpack(f">{segs2 // 2}H", font[sub + 14:sub + 14 + segs2])
            starts = struct.unpack(f">{segs2 // 2}H",
                                   font[sub + 16 + segs2:sub + 16 + 2 * segs2])
            for start, end in zip(starts, ends, strict=True):
                out.update(range(start, end + 1))
        elif kind == 12:
            for j in range(struct.unpack(">I", font[sub + 12:sub + 16])[0]):
                start, end, _glyph = struct.unpack(">III", font[sub + 16 + 12 * j:
                                                                sub + 28 + 12 * j])
                out.update(range(start, end + 1))
    return out


def game_characters() -> set[str]:
    """Every character beyond ASCII in the game's code and styles (its board's box drawing,
    triangles, pips and marks, its words' letters)."""
    found: set[str] = set()
    for path in [*PACKAGE.rglob("*.py"), *PACKAGE.rglob("*.tcss")]:
        found.update(c for c in path.read_text(encoding="utf-8") if ord(c) > 127)
    return found


@pytest.mark.parametrize("font", ["DejaVuSansMono.ttf", "DejaVuSansMono-Bold.ttf"])
def test_the_pages_font_draws_every_character_the_game_does(font: str) -> None:
    covered = cmap((STATIC / font).read_bytes())
    chars = game_characters()
    assert {"┌", "╱", "╲", "▲", "▶", "•", "█", "━"} <= chars  # (the scan found the board's)
    missing = sorted(c for c in chars - NOT_DRAWN if ord(c) not in covered)
    assert not missing, missing


def test_every_file_of_the_page_is_in_the_package_with_its_license() -> None:
    for name in [*FILES, "index.html", "LICENSE.xterm", "LICENSE.addon-fit",
                 "LICENSE.dejavu"]:
        assert (STATIC / name).is_file(), name
    assert "MIT" in (STATIC / "LICENSE.xterm").read_text() or \
        "Permission is hereby granted" in (STATIC / "LICENSE.xterm").read_text()
    assert "Bitstream" in (STATIC / "LICENSE.dejavu").read_text()


def test_the_page_loads_nothing_from_another_host() -> None:
    for name in ("index.html", "app.js", "page.css", "xterm.css"):
        text = (STATIC / name).read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href|url)\s*[=(]\s*[\"']?(?:https?:)?//", text), name
        assert "@import" not in text, name
    html = page("en", password=False)
    assert "{{" not in html and 'href="static/xterm.css"' in html


def test_the_pages_password_field_shows_only_on_a_server_that_asks_one() -> None:
    html = page("ru", password=True)
    assert '<html lang="ru"' in html and "hidden>" not in html
    assert "<label hidden>" in page("en", password=False)
