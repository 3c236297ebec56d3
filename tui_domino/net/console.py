"""A plain text console for a duel: the board in words, numbered moves, a chat line.

Used by ``host``/``join`` without ``--headless`` when there is no terminal to draw the duel
screen on, or with ``--bot``. Type a move's number to play it, ``/say TEXT`` to chat,
``/quit`` to leave; the end of the input leaves too.
"""

from __future__ import annotations

import asyncio
import sys

from tui_domino import rules
from tui_domino.i18n import _, ngettext
from tui_domino.net import events as ev
from tui_domino.net.records import DuelView, MatchResult
from tui_domino.net.transport import DuelSession
from tui_domino.text import one_line, visible


def describe(view: DuelView) -> str:
    variant = view["variant"]
    if variant == "classic":
        board = " ".join(f"[{a}|{b}]" for a, b in view["line"]) or _("(empty)")
    elif variant == "spider":
        if view["center"] is None:
            board = _("(empty)")
        else:
            shown = []
            for k, arm in view["arms"].items():
                tiles = " ".join(f"[{a}|{b}]" for a, b in arm["tiles"]) or "-"
                # TRANSLATORS: a closed arm of the spider: {arm} is N, E, S or W (as in the
                # moves), {tiles} its tiles.
                shown.append(_("{arm}: {tiles} (closed)").format(arm=k, tiles=tiles)
                             if arm["closed"] else f"{k}: {tiles}")
            # TRANSLATORS: Spider's board: {tile} the centre double, {arms} the four arms.
            board = _("centre {tile}; {arms}").format(
                tile=f"[{view['center']}|{view['center']}]", arms=", ".join(shown))
    else:
        n = len(view["board"])
        board = ngettext("{n} tile on the table", "{n} tiles on the table", n).format(n=n)
    hand = " ".join("-".join(map(str, t)) for t in view["hand"])
    net = view["net"]
    # TRANSLATORS: the plain console's state of the round, three lines: {totals} is the
    # match's two totals, as [10, 25]; {bazaar} and {held} are numbers of tiles; keep what
    # follows "table:" and "hand:" lined up.
    return _("round {round}  totals {totals}  bazaar {bazaar}  opponent holds {held}\n"
             "  table: {board}\n  hand:  {hand}").format(
        round=net["round"], totals=net["totals"], bazaar=view["bazaar_size"],
        held=view["hand_sizes"][1 - view["player"]], board=board, hand=hand)


async def run_console(session: DuelSession, bot: str | None = None,
                      seed: int | None = None) -> int:
    out = sys.stdout
    lines: asyncio.Queue[str | None] = asyncio.Queue()  # None: the input has ended
    loop = asyncio.get_running_loop()

    def read() -> None:
        for line in sys.stdin:
            loop.call_soon_threadsafe(lines.put_nowait, line)
        loop.call_soon_threadsafe(lines.put_nowait, None)

    loop.run_in_executor(None, read)
    legal: list[rules.Move] = []
    result: MatchResult | None = None
    events = session.events()

    async def next_event() -> ev.Event | None:
        try:
            return await anext(events)
        except StopAsyncIteration:
            return None

    ev_task = asyncio.ensure_future(next_event())
    in_task = asyncio.ensure_future(lines.get())
    closing: asyncio.Future[None] | None = None
    while True:
        waiting = {ev_task} if closing is not None else {ev_task, in_task}
        # (not ``_``, which is the translation)
        done, _pending = await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
        if ev_task in done:
            e = ev_task.result()
            if e is None:
                break
            ev_task = asyncio.ensure_future(next_event())
            if isinstance(e, ev.ChatLine):
                # the peer's name and words, never his terminal control
                name = visible(session.core.seat.names[e.player])
                print(f"<{name}> {one_line(e.text)}", file=out)
            elif isinstance(e, ev.YourTurn) and session.my_turn():
                view = session.view()
                assert view is not None
                legal = session.legal_moves()
                print(describe(view), file=out)
                for i, mv in enumerate(legal, 1):
                    print(f"  {i:2}. {mv}", file=out)
            elif isinstance(e, ev.Invitation):
                # TRANSLATORS: {command}: the command the opponent types, as it is.
                print("* " + _("invitation code: {code} (your opponent joins with: {command})")
                      .format(code=e.code, command=e.join), file=out)
            elif isinstance(e, ev.Secured):
                # TRANSLATORS: {phrase}: the words both players compare (never translated).
                print("* " + _("verification phrase: {phrase}\n  (your opponent's screen shows "
                               "the same words; if his differ, somebody sits between you)")
                      .format(phrase=e.phrase), file=out)
            elif isinstance(e, ev.MatchOver):
                result = e.result
                # TRANSLATORS: {result}: the match's result as data (kept as it is).
                print(_("match over: {result}").format(result=visible(repr(result))),
                      file=out)
                # nothing is left to play: close, and show what is still on its way
                closing = closing or asyncio.ensure_future(session.close())
            elif not isinstance(e, ev.YourTurn):
                print(f"* {visible(repr(e))}", file=out)
        if in_task in done and closing is None:
            line = in_task.result()
            in_task = asyncio.ensure_future(lines.get())
            if line is None:
                print("* " + _("the input has ended: leaving the duel"), file=out)
            text = "/quit" if line is None else line.strip()
            if text == "/quit":
                # leaving closes the session: the events on their way are shown first,
                # then the end of the events ends the loop
                closing = asyncio.ensure_future(
                    session.close() if session.finished else session.leave())
                continue
            if text.startswith("/say "):
                await session.chat(text[5:])
            elif text.isdigit() and 1 <= int(text) <= len(legal) and session.my_turn():
                await session.play(legal[int(text) - 1])
                legal = []
            elif text:
                # TRANSLATORS: /say and /quit are typed as they are: keep them in English.
                print(_("type a move's number, /say TEXT or /quit"), file=out)
    for t in (ev_task, in_task):
        t.cancel()
    if closing is not None:
        await closing
    await session.close()
    return 0 if result and result.get("verified") else 1
