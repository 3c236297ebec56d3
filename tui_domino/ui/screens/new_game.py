"""Choosing a new match: variant, opponent, target and house rules."""

from __future__ import annotations

import contextlib

from textual.app import ComposeResult
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import ModalScreen, Screen
from textual.widget import Widget
from textual.widgets import Button, Input, Label, Select, Static

from tui_domino import ai, rules
from tui_domino.i18n import N_, _
from tui_domino.ui import storage
from tui_domino.ui.host import game_app
from tui_domino.ui.keys import BUTTON_ARROWS, Footer, Key
from tui_domino.ui.plain import plain
from tui_domino.ui.session import (
    COMPUTER,
    VARIANT_TITLES,
    YOU,
    Seat,
    Session,
    is_you,
    saved_line,
    shown_name,
    two_people,
)

# House rules offered on this screen: option -> (label, [(choice label, value), ...]).
# The labels are marked (N_) and translated where they are shown.
OptionValue = int | list[int] | None
HOUSE_RULES: dict[str, dict[str, tuple[str, list[tuple[str, OptionValue]]]]] = {
    "classic": {
        # TRANSLATORS: New game's house rules: a label of at most 20 columns, then a choice.
        "hand_size": (N_("Tiles dealt"), [("7", 7), ("6", 6), ("5", 5)]),
        # TRANSLATORS: how many tiles stay in the bazaar, never drawn (2, 1 or 0).
        "bazaar_reserve": (N_("Tiles that stay"), [("2", 2), ("1", 1), ("0", 0)]),
    },
    "spider": {
        "hand_size": (N_("Tiles dealt"), [("7", 7), ("6", 6), ("5", 5)]),
        # TRANSLATORS: the points charged for a 0-0 left alone in a hand (25, 0 or 50).
        "lone_blank_double": (N_("Lone 0-0 costs"), [("25", 25), ("0", 0), ("50", 50)]),
    },
    "triominos": {
        # TRANSLATORS: 9 tiles each, as the boxed game deals them (a choice beside "16").
        "hand_size": (N_("Tiles dealt"), [("16", 16), (N_("9 (boxed game)"), 9)]),
        "hexagon_bonus": (
            # TRANSLATORS: the bonus for one, two and three hexagons ("50/100/150").
            N_("Hexagons x1/x2/x3"),
            [("50/100/150", [50, 100, 150]), ("50/60/70", [50, 60, 70])],
        ),
        "max_draws": (N_("Draws per turn"), [(N_("no limit"), None),
                                             # TRANSLATORS: draw at most 3 tiles, then pass.
                                             (N_("3, then pass"), 3)]),
        "stuck_penalty": (N_("Passing costs"), [("10", 10), ("0", 0)]),
    },
}

def opponent_choices() -> list[tuple[str, str]]:
    # TRANSLATORS: New game's choice of opponent; {level} is one of the computer's
    # strengths ("easy", "hard: searches ahead").
    out = [(_("Computer, {level}").format(level=_(word)), f"computer:{name}")
           for name, word in ai.MENU]
    out.append((_("A person on this terminal (hands hidden in turn)"), "person"))
    return out



def first_person() -> str:
    """The name the game gives the first of two people at one terminal who gave none."""
    return two_people("", "")[0].name

class NewGameScreen(Screen[None]):
    BINDINGS = [
        # TRANSLATORS: the footer's key words (short): go back to the menu, start the match.
        Key("escape", "back", "Back"),
        Key("f5", "start", "Start"),
    ]

    DEFAULT_CSS = """
    NewGameScreen { align: center middle; }
    NewGameScreen > Vertical {
        width: 78; max-width: 100%; height: auto; border: round $primary; padding: 0 1;
    }
    NewGameScreen Grid {
        grid-size: 2; grid-columns: 20 1fr; grid-rows: 1; height: auto;
        grid-gutter: 1 1; margin-top: 1;
    }
    NewGameScreen Label { width: 100%; }
    NewGameScreen #rules-title { color: $text-muted; margin-top: 1; }
    NewGameScreen #house { height: auto; margin-top: 0; grid-gutter: 0 1; }
    NewGameScreen #note { color: $text-muted; margin-top: 1; text-align: center; width: 100%; }
    NewGameScreen #buttons { height: 1; align-horizontal: center; margin: 1 0 0 0; }
    NewGameScreen Button { margin: 0 2; min-width: 12; }
    """

    def __init__(self, variant: str | None = None) -> None:
        super().__init__()
        self._variant = variant
        self._house_for = ""  # the game whose house rules the form shows

    def compose(self) -> ComposeResult:
        settings = game_app(self).settings
        variant = self._variant or settings.last_variant
        if variant not in rules.VARIANTS:
            variant = "classic"
        level = f"computer:{settings.last_level}"
        if level not in {v for _, v in opponent_choices()}:
            level = "computer:normal"
        with Vertical() as box:
            box.border_title = _("New game")
            with Grid(id="main"):
                # TRANSLATORS: New game's labels, at most 20 columns: the game (Classic,
                # Spider, Triominos), the opponent, the player's name, the points to reach.
                yield Label(_("Game"), id="game-label")
                yield Select(
                    self._variant_options(),
                    value=variant, allow_blank=False, id="variant", compact=True,
                )
                yield Label(_("Opponent"), id="opponent-label")
                yield Select(opponent_choices(), value=level, allow_blank=False, id="opponent",
                             compact=True)
                yield Label(_("Your name"), id="name-label")
                yield Input(shown_name(settings.name), id="name", max_length=14, compact=True)
                yield Label(self._target_word(variant), id="target-label")
                yield Select(self._targets(variant), value=self._target_for(variant),
                             allow_blank=False, id="target", compact=True)
                # shown only for a second person at this keyboard
                yield Label(_("Second player"), id="second-label")
                yield Input(shown_name(settings.second_name), id="second", max_length=14,
                            compact=True)
            yield Static(_("House rules"), id="rules-title")
            # (made with the form, not mounted after it: one layout and styling, not two)
            self._house_for = variant
            yield Grid(*self._house_widgets(variant), id="house")
            # TRANSLATORS: the key names Tab, Enter and F5 stay as they are.
            yield Static(_("Tab moves between choices · Enter opens one · F5 starts"),
                         id="note")
            with Horizontal(id="buttons"):
                # TRANSLATORS: buttons (12 columns): start the match, back to the menu.
                yield Button(_("Start"), variant="primary", id="start", compact=True)
                yield Button(_("Back"), id="back", compact=True)
        yield Footer()

    def _target_for(self, variant: str) -> int:
        """The target last played to in ``variant`` (remembered in the settings), else the
        variant's default."""
        settings = game_app(self).settings
        kept = settings.extra.targets.get(variant)
        return kept if kept in rules.TARGETS[variant] else rules.DEFAULT_TARGET[variant]

    def _targets(self, variant: str) -> list[tuple[str, int]]:
        return [(str(t), t) for t in rules.TARGETS[variant]]

    @staticmethod
    def _variant_options() -> list[tuple[str, str]]:
        return [(_(VARIANT_TITLES[v]), v) for v in rules.VARIANTS]

    @staticmethod
    def _target_word(variant: str) -> str:
        # TRANSLATORS: Spider's match is lost at the limit (the points charged), where the
        # other games' is won at the target.
        return _("Limit") if variant == "spider" else _("Target")

    @staticmethod
    def _house_options(choices: list[tuple[str, OptionValue]]) -> list[tuple[str, int]]:
        return [(_(label), i) for i, (label, _value) in enumerate(choices)]

    def relabel(self) -> None:
        """The language changed: every word anew, in place, each choice and name kept."""
        self.query_one(Vertical).border_title = _("New game")
        for widget_id, word in (("game-label", _("Game")), ("opponent-label", _("Opponent")),
                                ("name-label", _("Your name")),
                                ("target-label", self._target_word(self.variant)),
                                ("second-label", _("Second player"))):
            self.query_one(f"#{widget_id}", Label).update(word)
        self.query_one("#rules-title", Static).update(_("House rules"))
        self.query_one("#note", Static).update(
            _("Tab moves between choices · Enter opens one · F5 starts"))
        self.query_one("#start", Button).label = _("Start")
        self.query_one("#back", Button).label = _("Back")
        self._reoption("#variant", self._variant_options())
        self._reoption("#opponent", opponent_choices())
        for key, (label, choices) in HOUSE_RULES[self.variant].items():
            for widget in self.query(f"#label-{key}").results(Label):
                widget.update(_(label))
            if self.query(f"#opt-{key}"):
                self._reoption(f"#opt-{key}", self._house_options(choices))

    def _reoption(self, selector: str, options: list[tuple[str, str]] | list[tuple[str, int]]
                  ) -> None:
        """A choice's options in other words, the value kept (and no change told)."""
        select: Select[object] = self.query_one(selector, Select)
        value = select.value
        with self.prevent(Select.Changed):
            select.set_options(options)
            select.value = value

    def on_mount(self) -> None:
        self._sync_second()
        self.query_one("#variant", Select).focus()

    @property
    def variant(self) -> str:
        return str(self.query_one("#variant", Select).value)

    def _house_widgets(self, variant: str) -> list[Widget]:
        """The house rules of ``variant``: a label and a choice each, at the defaults."""
        widgets: list[Widget] = []
        for key, (label, choices) in HOUSE_RULES[variant].items():
            default = rules.DEFAULTS[variant][key]
            idx = next((i for i, (_, v) in enumerate(choices) if v == default), 0)
            widgets.append(Label(_(label), id=f"label-{key}"))
            widgets.append(
                Select(self._house_options(choices), value=idx,
                       allow_blank=False, id=f"opt-{key}", compact=True)
            )
        return widgets

    async def _fill_house(self, variant: str) -> None:
        grid = self.query_one("#house", Grid)
        await grid.remove_children()
        await grid.mount_all(self._house_widgets(variant))
        self._house_for = variant
        self.query_one("#target-label", Label).update(self._target_word(variant))

    def _sync_second(self) -> None:
        person = self.query_one("#opponent", Select).value == "person"
        self.query_one("#second-label").display = person
        self.query_one("#second", Input).display = person
        # Two people at one terminal are never "You" (it would name both): the form shows
        # the name the game will give the first player, instead of renaming him unseen.
        name = self.query_one("#name", Input)
        if person and is_you(name.value or _(YOU)):
            name.value = first_person()
        elif not person and name.value == first_person():
            name.value = _(YOU)

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant":
            v = self.variant
            if v == self._house_for:
                return  # (the choice as the form was made: told once it is mounted)
            target = self.query_one("#target", Select)
            target.set_options(self._targets(v))
            target.value = self._target_for(v)
            await self._fill_house(v)
        elif event.select.id == "opponent":
            self._sync_second()

    def options(self) -> rules.Options:
        out: dict[str, OptionValue] = {}
        for key, (_label, choices) in HOUSE_RULES[self.variant].items():
            sel = self.query(f"#opt-{key}")
            if sel:
                out[key] = choices[int(str(sel.first(Select).value))][1]
        return rules.resolve_options(self.variant, out)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def action_start(self) -> None:
        settings = game_app(self).settings
        name = self.query_one("#name", Input).value.strip() or _(YOU)
        opponent = str(self.query_one("#opponent", Select).value)
        if opponent == "person":
            seats = two_people(name, self.query_one("#second", Input).value)
        else:
            level = opponent.split(":", 1)[1]
            seats = [Seat(name), Seat(_(COMPUTER), "computer", level)]
            settings.last_level = level
        # the default stays the default (and so does the first person's name the form showed)
        settings.name = YOU if name in (_(YOU), first_person()) else name
        settings.last_variant = self.variant
        target = int(str(self.query_one("#target", Select).value))
        settings.extra.targets[self.variant] = target
        with contextlib.suppress(OSError):
            settings.save()
        options = self.options()

        def begin(go: bool | None = True) -> None:
            if go:
                game_app(self).start_match(self.variant, seats, target, options)

        saved = self.saved_match()
        if saved is None:
            begin()
        else:
            self.app.push_screen(ReplaceSavedScreen(saved_line(saved, offer=False)), begin)

    def saved_match(self) -> Session | None:
        """The match a new one would replace in the save (only one is kept): None when
        there is none, it is over, or this game keeps no save."""
        if not game_app(self).autosave:
            return None
        try:
            saved = Session.load_saved()
        except storage.SaveError:  # unreadable: already kept aside, and said so in the menu
            return None
        return None if saved is None or saved.match.is_over else saved

    def action_back(self) -> None:
        self.app.pop_screen()


class ReplaceSavedScreen(ModalScreen[bool]):
    """A new match would replace the saved one: the player says so first (n, Esc: keep it)."""

    BINDINGS = [
        # TRANSLATORS: the footer's key words: start the new match, keep the saved one
        Key("y", "answer(True)", "Start anew"),
        Key("n", "answer(False)", "Keep it"),
        Key("escape", "answer(False)", "Keep it", show=False),
        *BUTTON_ARROWS,
    ]

    DEFAULT_CSS = """
    ReplaceSavedScreen { align: center middle; }
    ReplaceSavedScreen > Vertical {
        width: 60; max-width: 100%; height: auto; border: round $warning; padding: 1 2;
        background: $panel;
    }
    ReplaceSavedScreen #buttons { height: 1; align-horizontal: center; margin-top: 1; }
    ReplaceSavedScreen Button { margin: 0 1; }
    """

    def __init__(self, saved: str) -> None:
        super().__init__()
        self.saved = saved

    def compose(self) -> ComposeResult:
        with Vertical() as box:
            # TRANSLATORS: the title of the question asked before a new match replaces
            # the saved one
            box.border_title = _("Replace the saved match?")
            yield Static(plain(self.saved))
            # TRANSLATORS: one match is kept at a time: a new one takes the saved one's place
            yield Static(_("One match is kept at a time: a new one ends the saved match, "
                           "which cannot be continued after."))
            with Horizontal(id="buttons"):
                # TRANSLATORS: a button; (n) is its key, which stays as it is
                yield Button(_("Keep it (n)"), id="keep", variant="primary", compact=True)
                # TRANSLATORS: a button; (y) is its key, which stays as it is
                yield Button(_("Start anew (y)"), id="replace", variant="error", compact=True)

    def on_mount(self) -> None:
        self.query_one("#keep", Button).focus()

    def relabel(self) -> None:
        """The language changed: the question is composed anew in it."""
        self.refresh(recompose=True)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        event.stop()
        self.dismiss(event.button.id == "replace")

    def action_answer(self, replace: bool) -> None:
        self.dismiss(replace)
