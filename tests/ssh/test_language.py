"""A visitor's game speaks his language: the LANG his ssh client sends reaches his game's
process, which takes its language from it; the server's own words to him (why his visit
ends) and the lobby's reasons are in it too."""

from __future__ import annotations

import sys
from typing import Any

from tests.ssh.conftest import Terminal, eventually, visit
from tui_domino import i18n
from tui_domino.ssh.lobby import reason as lobby_reason
from tui_domino.ssh.visit import catalog
from tui_domino.ssh.visitor_app import reason

# A visitor's process that says the language it took as the visitor's game does (then quits).
SAY_LANGUAGE = [sys.executable, "-c",
                "from tui_domino.ssh.visitor import speak_the_visitors_language as speak\n"
                "import os\n"
                "print('language=' + speak() + ' LANG=' + os.environ.get('LANG', ''),"
                " flush=True)"]


async def test_a_russian_visitors_game_speaks_russian(make_server: Any) -> None:
    server = await make_server(command=SAY_LANGUAGE)
    term = await visit(server.port, "ivan", env={"LANG": "ru_RU.UTF-8"})
    await term.wait_for("language=ru LANG=ru_RU.UTF-8", where=Terminal.output)
    # The server speaks to him in it too: his goodbye comes from the Russian catalog.
    await term.wait_for(catalog("ru").gettext("Thanks for playing."), where=Terminal.output)
    await term.close()


async def test_a_visitor_whose_language_the_game_lacks_gets_english(make_server: Any) -> None:
    server = await make_server(command=SAY_LANGUAGE)
    french = await visit(server.port, "jean", env={"LANG": "fr_FR.UTF-8"})
    silent = await visit(server.port, "anon")  # no LANG sent: the server's C.UTF-8
    chosen = await visit(server.port, "olga",  # LC_ALL over LANG, as POSIX says
                         env={"LANG": "en_US.UTF-8", "LC_ALL": "ru_RU.UTF-8"})
    await french.wait_for("language=en LANG=fr_FR.UTF-8", where=Terminal.output)
    await silent.wait_for("language=en LANG=C.UTF-8", where=Terminal.output)
    await chosen.wait_for("language=ru", where=Terminal.output)
    await french.close()
    await silent.close()
    await chosen.close()


async def test_the_real_game_of_a_russian_visitor(server: Any) -> None:
    term = await visit(server.port, "ivan", env={"LANG": "ru_RU.UTF-8"})
    await eventually(lambda: any(v.language == "ru" for v in server.visits),
                     "the server knows his language")
    # The lobby's title in his language (the English words while no Russian catalog exists).
    await term.wait_for(catalog("ru").gettext("tui-domino · lobby"))
    await term.close()


def test_the_lobbys_reasons_are_said_in_the_visitors_language() -> None:
    said = lobby_reason("{name} left.", name="{bob}")
    assert said["why"] == "{bob} left."  # English, for the log and an older game
    assert i18n.current() == "en" and reason(said) == "{bob} left."
    try:
        i18n.use("ru")
        assert reason(said) == catalog("ru").gettext("{name} left.").format(name="{bob}")
    finally:
        i18n.use("en")
    assert reason({"why": "Just words."}) == "Just words."  # no sentence of the game's
    assert reason({"why": "x", "said": "{name} left.", "values": {"who": "x"}}) == "x"
