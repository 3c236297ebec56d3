"""The tests' terminal emulator reads what the game writes, however the reads cut it."""

from __future__ import annotations

from tests.ssh.screen import Screen


def test_a_character_cut_between_two_reads_is_read_whole() -> None:
    data = "─Your hand · 7 tiles─\r\nBazaar: 14".encode()
    cut = data.index("·".encode()) + 1  # inside the two bytes of the middle dot
    screen = Screen(30, 3)
    screen.feed(data[:cut])
    screen.feed(data[cut:])
    assert screen.text().split("\n")[:2] == ["─Your hand · 7 tiles─", "Bazaar: 14"]
