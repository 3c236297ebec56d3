"""The help's table of keys: the keys in a column as wide as the longest of them, each on one
line and in the footer's key colour, and what each does beside it, wrapped at words within
the rest of the width."""

from __future__ import annotations

from collections.abc import Sequence

from rich import box
from rich.cells import cell_len
from rich.style import Style
from rich.table import Table
from rich.text import Text
from textual.widget import Widget

Row = tuple[str, str]  # a key (or keys), what it does


def split_row(row: str) -> Row:
    """A row of a Markdown table, ``| key | does |``, as its two cells (a translation that
    lost a ``|`` keeps all its words in the second)."""
    cells = [cell.strip() for cell in row.strip().strip("|").split("|")]
    return cells[0], " ".join(cells[1:])


class KeysTable(Widget):
    """``rows`` of keys under a ``head`` row (the column's names)."""

    COMPONENT_CLASSES = {"keys-table--key", "keys-table--head"}

    DEFAULT_CSS = """
    KeysTable { height: auto; }
    KeysTable > .keys-table--key { color: $footer-key-foreground; text-style: bold; }
    KeysTable > .keys-table--head { color: $text-muted; }
    """

    def __init__(self, head: Row, rows: Sequence[Row], *, id: str | None = None) -> None:
        super().__init__(id=id)
        self.head = head
        self.rows = list(rows)

    @property
    def key_width(self) -> int:
        """The key column's width: its widest cell, the heading's included."""
        return max(cell_len(key) for key, _ in [self.head, *self.rows])

    def _ink(self, name: str) -> Style:
        """A component's colour and weight (its background is the widget's own)."""
        style = self.get_component_rich_style(name)
        return Style(color=style.color, bold=style.bold)

    def render(self) -> Table:
        head, key = self._ink("keys-table--head"), self._ink("keys-table--key")
        table = Table(box=box.SIMPLE_HEAD, show_edge=False, pad_edge=False, expand=True,
                      padding=(0, 1), header_style=head, border_style=head)
        table.add_column(self.head[0], width=self.key_width, no_wrap=True, style=key)
        table.add_column(self.head[1], ratio=1, overflow="fold")
        for keys, does in self.rows:
            table.add_row(Text(keys), Text(does))
        return table
