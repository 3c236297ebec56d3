"""Notices that speak of one position: shown as the table's other notices are (over the foot
of the score panel), and taken away as soon as the position they speak of is gone.

The coach's words ("the coach is thinking", its best moves) stand over the recent moves;
once the next move is made they would hide that move's points (a bridge's +40) and say
nothing true any more. ``Notices.say`` shows one in place of the ones before it, and
``Notices.clear`` takes them all away.
"""

from __future__ import annotations

from textual.notifications import Notification, Notify
from textual.widget import Widget


class Notices:
    """The notices one screen showed about its current position."""

    def __init__(self) -> None:
        self.shown: list[Notification] = []

    def say(self, widget: Widget, message: str, title: str = "", timeout: float = 5) -> None:
        """Shows ``message`` (plain text) in place of the notices said before."""
        self.clear(widget)
        note = Notification(message, title, "information", timeout, markup=False)
        self.shown.append(note)
        widget.app.post_message(Notify(note))

    def clear(self, widget: Widget) -> None:
        """Takes away the notices said (those still shown, and any on their way)."""
        if not self.shown:
            return
        ids = set()
        for note in self.shown:
            note.timeout = 0  # expired: the app forgets it and never shows it again
            ids.add(holder_id(note))
        self.shown = []
        for holder in widget.app.screen.query("ToastHolder"):
            if holder.id in ids:
                holder.remove()


def holder_id(note: Notification) -> str:
    """The id of the widget that shows ``note`` (Textual names it after the notice)."""
    return f"--textual-toast-{note.identity}"


__all__ = ["Notices", "holder_id"]
