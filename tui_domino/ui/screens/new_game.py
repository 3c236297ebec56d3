"""Choosing a new match: variant, opponent, target and house rules."""

from __future__ import annotations

import contextlib

from textual.app import ComposeResult
from textual.binding import Binding
from textual.containers import Grid, Horizontal, Vertical
from textual.screen import Screen
from textual.widget import Widget
from textual.widgets import Button, Footer, Input, Label, Select, Static

from tui_domino import ai, rules
from tui_domino.ui.session import VARIANT_TITLES, Seat, two_people

# House rules offered on this screen: option -> (label, [(choice label, value), ...]).
OptionValue = int | list[int] | None
HOUSE_RULES: dict[str, dict[str, tuple[str, list[tuple[str, OptionValue]]]]] = {
    "classic": {
        "hand_size": ("Tiles dealt", [("7", 7), ("6", 6), ("5", 5)]),
        "bazaar_reserve": ("Tiles that stay", [("2", 2), ("1", 1), ("0", 0)]),
    },
    "spider": {
        "hand_size": ("Tiles dealt", [("7", 7), ("6", 6), ("5", 5)]),
        "lone_blank_double": ("Lone 0-0 costs", [("25", 25), ("0", 0), ("50", 50)]),
    },
    "triominos": {
        "hand_size": ("Tiles dealt", [("16", 16), ("9 (boxed game)", 9)]),
        "hexagon_bonus": (
            "Hexagons x1/x2/x3",
            [("50/100/150", [50, 100, 150]), ("50/60/70", [50, 60, 70])],
        ),
        "max_draws": ("Draws per turn", [("no limit", None), ("3, then pass", 3)]),
        "stuck_penalty": ("Passing costs", [("10", 10), ("0", 0)]),
    },
}

def opponent_choices() -> list[tuple[str, str]]:
    out = [(f"Computer, {word}", f"computer:{name}") for name, word in ai.MENU]
    out.append(("A person on this terminal (hands hidden in turn)", "person"))
    return out


class NewGameScreen(Screen[None]):
    BINDINGS = [
        Binding("escape", "back", "Back"),
        Binding("f5", "start", "Start"),
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

    def compose(self) -> ComposeResult:
        settings = self.app.settings  # type: ignore[attr-defined]
        variant = self._variant or settings.last_variant
        if variant not in rules.VARIANTS:
            variant = "classic"
        level = f"computer:{settings.last_level}"
        if level not in {v for _, v in opponent_choices()}:
            level = "computer:normal"
        with Vertical() as box:
            box.border_title = "New game"
            with Grid(id="main"):
                yield Label("Game")
                yield Select(
                    [(VARIANT_TITLES[v], v) for v in rules.VARIANTS],
                    value=variant, allow_blank=False, id="variant", compact=True,
                )
                yield Label("Opponent")
                yield Select(opponent_choices(), value=level, allow_blank=False, id="opponent",
                             compact=True)
                yield Label("Your name")
                yield Input(settings.name, id="name", max_length=14, compact=True)
                yield Label("Target", id="target-label")
                yield Select(self._targets(variant), value=self._target_for(variant),
                             allow_blank=False, id="target", compact=True)
                # shown only for a second person at this keyboard
                yield Label("Second player", id="second-label")
                yield Input(settings.second_name, id="second", max_length=14, compact=True)
            yield Static("House rules", id="rules-title")
            yield Grid(id="house")
            yield Static("Tab moves between choices · Enter opens one · F5 starts", id="note")
            with Horizontal(id="buttons"):
                yield Button("Start", variant="primary", id="start", compact=True)
                yield Button("Back", id="back", compact=True)
        yield Footer()

    def _target_for(self, variant: str) -> int:
        """The target last played to in ``variant`` (remembered in the settings), else the
        variant's default."""
        settings = self.app.settings  # type: ignore[attr-defined]
        kept = settings.extra.targets.get(variant)
        return kept if kept in rules.TARGETS[variant] else rules.DEFAULT_TARGET[variant]

    def _targets(self, variant: str) -> list[tuple[str, int]]:
        return [(str(t), t) for t in rules.TARGETS[variant]]

    async def on_mount(self) -> None:
        await self._fill_house(self.variant)
        self._sync_second()
        self.query_one("#variant", Select).focus()

    @property
    def variant(self) -> str:
        return str(self.query_one("#variant", Select).value)

    async def _fill_house(self, variant: str) -> None:
        grid = self.query_one("#house", Grid)
        await grid.remove_children()
        widgets: list[Widget] = []
        for key, (label, choices) in HOUSE_RULES[variant].items():
            default = rules.DEFAULTS[variant][key]
            idx = next((i for i, (_, v) in enumerate(choices) if v == default), 0)
            widgets.append(Label(label))
            widgets.append(
                Select([(lab, i) for i, (lab, _) in enumerate(choices)], value=idx,
                       allow_blank=False, id=f"opt-{key}", compact=True)
            )
        await grid.mount_all(widgets)
        title = "Limit" if variant == "spider" else "Target"
        self.query_one("#target-label", Label).update(title)

    def _sync_second(self) -> None:
        person = self.query_one("#opponent", Select).value == "person"
        self.query_one("#second-label").display = person
        self.query_one("#second", Input).display = person

    async def on_select_changed(self, event: Select.Changed) -> None:
        if event.select.id == "variant":
            v = self.variant
            target = self.query_one("#target", Select)
            target.set_options(self._targets(v))
            target.value = self._target_for(v)
            await self._fill_house(v)
        elif event.select.id == "opponent":
            self._sync_second()

    def options(self) -> rules.Options:
        out: dict[str, OptionValue] = {}
        for key, (_, choices) in HOUSE_RULES[self.variant].items():
            sel = self.query(f"#opt-{key}")
            if sel:
                out[key] = choices[int(sel.first(Select).value)][1]  # type: ignore[arg-type]
        return rules.resolve_options(self.variant, out)

    def on_button_pressed(self, event: Button.Pressed) -> None:
        if event.button.id == "start":
            self.action_start()
        else:
            self.action_back()

    def action_start(self) -> None:
        settings = self.app.settings  # type: ignore[attr-defined]
        name = self.query_one("#name", Input).value.strip() or "You"
        opponent = str(self.query_one("#opponent", Select).value)
        if opponent == "person":
            seats = two_people(name, self.query_one("#second", Input).value)
        else:
            level = opponent.split(":", 1)[1]
            seats = [Seat(name), Seat("Computer", "computer", level)]
            settings.last_level = level
        settings.name = name
        settings.last_variant = self.variant
        target = int(self.query_one("#target", Select).value)  # type: ignore[arg-type]
        settings.extra.targets[self.variant] = target
        with contextlib.suppress(OSError):
            settings.save()
        self.app.start_match(self.variant, seats, target, self.options())  # type: ignore[attr-defined]

    def action_back(self) -> None:
        self.app.pop_screen()
