"""A small terminal emulator for the tests: enough of xterm to read what Textual draws
(cursor addressing, erasing, text), ignoring colours and modes."""

from __future__ import annotations

import codecs
import re

SEQUENCE = re.compile(
    rb"\x1b\[([?<>=]?)([0-9;:]*)([ -/]*)([@-~])"  # CSI
    rb"|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)"  # OSC
    rb"|\x1bP[^\x1b]*\x1b\\"  # DCS
    rb"|\x1b[()][0-9A-Za-z]"  # charset
    rb"|\x1b[0-9A-Za-z=>]"  # two-byte escapes
)


class Screen:
    def __init__(self, cols: int = 80, rows: int = 24) -> None:
        self.cols, self.rows = cols, rows
        self.lines = [[" "] * cols for _ in range(rows)]
        self.x = self.y = 0
        self.pending = b""
        self.raw = bytearray()
        # a character cut in two by the reads (its first bytes in one, the rest in the next)
        self.decoder = codecs.getincrementaldecoder("utf-8")("replace")

    def resize(self, cols: int, rows: int) -> None:
        lines = [[" "] * cols for _ in range(rows)]
        for y in range(min(rows, self.rows)):
            lines[y][: min(cols, self.cols)] = self.lines[y][: min(cols, self.cols)]
        self.cols, self.rows, self.lines = cols, rows, lines
        self.x, self.y = min(self.x, cols - 1), min(self.y, rows - 1)

    def text(self) -> str:
        return "\n".join("".join(line).rstrip() for line in self.lines)

    def feed(self, data: bytes) -> None:
        self.raw += data
        data = self.pending + data
        self.pending = b""
        pos = 0
        while pos < len(data):
            esc = data.find(b"\x1b", pos)
            chunk = data[pos:] if esc < 0 else data[pos:esc]
            self._text(chunk)
            if esc < 0:
                return
            m = SEQUENCE.match(data, esc)
            if m is None:
                if len(data) - esc < 64:
                    self.pending = data[esc:]  # an escape sequence cut in two
                    return
                pos = esc + 1
                continue
            if m.group(4):
                self._csi(m.group(1), m.group(2), m.group(4))
            pos = m.end()

    def _text(self, chunk: bytes) -> None:
        text = self.decoder.decode(chunk)
        for ch in text:
            if ch == "\r":
                self.x = 0
            elif ch == "\n":
                self.y = min(self.y + 1, self.rows - 1)
            elif ch == "\b":
                self.x = max(0, self.x - 1)
            elif ch < " " or ch == "\x7f":
                continue
            else:
                if self.x >= self.cols:
                    self.x = 0
                    self.y = min(self.y + 1, self.rows - 1)
                self.lines[self.y][self.x] = ch
                self.x += 1

    def _csi(self, private: bytes, params: bytes, final: bytes) -> None:
        if private:
            return
        nums = [int(p) if p.isdigit() else 0 for p in params.split(b";")] if params else []

        def arg(i: int, default: int = 1) -> int:
            return nums[i] if len(nums) > i and nums[i] else default

        f = final.decode()
        if f in "Hf":
            self.y = min(arg(0) - 1, self.rows - 1)
            self.x = min(arg(1) - 1, self.cols - 1)
        elif f == "A":
            self.y = max(0, self.y - arg(0))
        elif f == "B":
            self.y = min(self.rows - 1, self.y + arg(0))
        elif f == "C":
            self.x = min(self.cols - 1, self.x + arg(0))
        elif f == "D":
            self.x = max(0, self.x - arg(0))
        elif f == "G":
            self.x = min(arg(0) - 1, self.cols - 1)
        elif f == "d":
            self.y = min(arg(0) - 1, self.rows - 1)
        elif f == "J":
            mode = nums[0] if nums else 0
            if mode in (2, 3):
                self.lines = [[" "] * self.cols for _ in range(self.rows)]
            elif mode == 0:
                self.lines[self.y][self.x:] = [" "] * (self.cols - self.x)
                for y in range(self.y + 1, self.rows):
                    self.lines[y] = [" "] * self.cols
        elif f == "K":
            mode = nums[0] if nums else 0
            if mode == 0:
                self.lines[self.y][self.x:] = [" "] * (self.cols - self.x)
            elif mode == 1:
                self.lines[self.y][: self.x + 1] = [" "] * (self.x + 1)
            else:
                self.lines[self.y] = [" "] * self.cols
        elif f == "X":
            n = arg(0)
            self.lines[self.y][self.x: self.x + n] = [" "] * min(n, self.cols - self.x)
