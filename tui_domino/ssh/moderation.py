"""Moderation in the lobby: the operators' commands (mute, kick, ban and their lifting), each
visitor's ignore list, and the automatic mute of a visitor who keeps writing too fast.

- **Operators** are the visitors signed in to their account with a key of the server's
  operators file (``ssh/operators.py``); the lobby is told so as they arrive. Only they may
  ``/mute``, ``/unmute``, ``/kick``, ``/ban`` and ``/unban`` (``ssh/commands.py`` reads the
  line); anyone else is refused. No operator is sanctioned from the lobby, by himself or by
  another: a command that would hit one (his account, a key of the operators file, the
  address of an operator who is here) is refused. The operators file is where operators
  are made and unmade.
- **A mute** closes a visitor's chat until its time: the lobby refuses his watcher chat, and
  tells his game (``mute``, with the seconds left and the words), whose duel chat then
  refuses too (the game runs on the server: it is trusted to). An account's mute follows it
  to its next visit; a guest's holds for guests from his address.
- **A kick** ends the visit with the operator's words; **a ban** (of an account, a key or
  an address, for a time) ends every visit it hits at once, and the server refuses the next
  (``ssh/visit.py``), in the visitor's language, with its end and its reason.
- Every action, and every automatic mute, is kept in the database (``community.sanctions``)
  and logged (logger ``tui_domino.ssh``); a restart keeps them.
- **Ignoring** someone: his challenges read as declined, his seek is not listed and cannot
  be taken by him, quick pairing never pairs the two, his watcher chat does not reach the
  one who ignores him; he is not told. An account's list is kept in the database (it
  follows the account); a guest's lasts for his visit.
- **Limits** (with the lobby's clock): ``COMMANDS`` commands a minute; a visitor refused
  for writing too fast ``Escalation.strikes`` times within a minute is muted automatically
  for 30 s, then 120 s, then 300 s; an hour without a refusal starts him again from 30 s.
"""

from __future__ import annotations

import logging
import time
from collections.abc import Callable
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

from tui_domino.community import accounts, sanctions
from tui_domino.community.sanctions import ACCOUNT, ADDRESS, BAN, KEY, KICK, MUTE, SERVER
from tui_domino.i18n import N_
from tui_domino.names import player_name, skeleton
from tui_domino.ssh.commands import OPERATOR_VERBS, Command, CommandError, parse
from tui_domino.ssh.limits import Escalation, RateLimiter
from tui_domino.ssh.reasons import reason

if TYPE_CHECKING:
    from tui_domino.ssh.lobby import Lobby, Member

log = logging.getLogger("tui_domino.ssh")

COMMANDS, COMMAND_WINDOW = 10, 60.0  # a visitor's commands (and ignore keys) a minute
WHEN_FORMAT = "%Y-%m-%d %H:%M:%S UTC"
AUTO_REASON = "too many lines too fast"  # an automatic mute's reason, as kept and logged

Dismiss = Callable[["Member", dict[str, Any]], None]


def when_text(at: float) -> str:
    """A time as a visitor reads it, the same in every language: ``2026-12-06 12:30:00
    UTC``."""
    return datetime.fromtimestamp(at, UTC).strftime(WHEN_FORMAT)


def identity(member: Member) -> str:
    """Whom a visitor is, for an ignore list: his account, or (a guest) this visit."""
    return f"a:{member.account}" if member.account is not None else f"m:{member.id}"


def ban_words(until: float, why: str) -> dict[str, Any]:
    """What a banned visitor is told: now, and at each connection until the ban ends."""
    if why:
        # TRANSLATORS: {until}: a date and time (2026-12-06 12:30:00 UTC); {reason}: the
        # operator's words, as he typed them
        return reason(N_("You are banned from this server until {until}: {reason}"),
                      until=when_text(until), reason=why)
    return reason(N_("You are banned from this server until {until}."), until=when_text(until))


def mute_words(until: float, why: str, automatic: bool = False) -> dict[str, Any]:
    """What a muted visitor is told, and told again when he tries to write."""
    if automatic:
        # TRANSLATORS: {until}: a date and time (2026-12-06 12:30:00 UTC)
        return reason(N_("Your chat is closed until {until}: too many lines too fast."),
                      until=when_text(until))
    if why:
        # TRANSLATORS: {until}: a date and time; {reason}: the operator's words
        return reason(N_("An operator closed your chat until {until}: {reason}"),
                      until=when_text(until), reason=why)
    return reason(N_("An operator closed your chat until {until}."), until=when_text(until))


def kick_words(why: str) -> dict[str, Any]:
    if why:
        # TRANSLATORS: {reason}: the operator's words, as he typed them
        return reason(N_("An operator ended your visit: {reason}"), reason=why)
    return reason(N_("An operator ended your visit."))


class Moderation:
    """The lobby's moderation; ``dismiss(member, why)`` ends a visit (the server's)."""

    def __init__(self, lobby: Lobby, clock: Callable[[], float]) -> None:
        self.lobby = lobby
        self.clock = clock  # the lobby's: limits and the end of mutes
        self.wall: Callable[[], float] = time.time  # without a database: the dates told
        self.operators: frozenset[str] = frozenset()  # their keys' fingerprints
        self.commands = RateLimiter(COMMANDS, COMMAND_WINDOW, clock)
        self.escalation = Escalation(clock=clock)
        self.dismiss: Dismiss | None = None

    def now(self) -> float:
        """The time of day (the database's clock, when there is one)."""
        store = self.lobby.store
        return store.now() if store is not None else self.wall()

    # -- arrivals -----------------------------------------------------------------------------

    def arrived(self, member: Member) -> None:
        """An account's ignore list, and a mute still running on him (his account's, or for
        a guest his address's)."""
        store = self.lobby.store
        if store is None:
            return
        if member.account is not None:
            member.ignoring = {f"a:{a}" for a in sanctions.ignored_by(store, member.account)}
        mute = sanctions.running(store, MUTE, [self._target(member)])
        if mute is not None and mute.until is not None:
            self._mute(member, mute.until, mute.reason, mute.operator == SERVER)

    @staticmethod
    def _target(member: Member) -> tuple[str, str]:
        """What a sanction on ``member`` is on: his account, or a guest's address."""
        if member.account is not None:
            return ACCOUNT, str(member.account)
        return ADDRESS, member.address

    # -- mutes --------------------------------------------------------------------------------

    def muted(self, member: Member) -> dict[str, Any] | None:
        """The words of ``member``'s running mute, or None."""
        return member.mute_why if member.muted_until > self.clock() else None

    def chat_refused(self, member: Member) -> bool:
        """Whether ``member``'s chat is refused now (he is told why)."""
        why = self.muted(member)
        if why is not None:
            self.lobby.refuse(member, why)
        return why is not None

    def too_fast(self, member: Member) -> None:
        """``member`` was refused for writing too fast: once too often, he is muted."""
        kind, target = self._target(member)
        seconds = self.escalation.hit(f"{kind}:{target}")
        if seconds is None:
            return
        until = self.now() + seconds
        self._keep(SERVER, MUTE, kind, target, member.name, until, AUTO_REASON)
        self._mute(member, until, "", True)

    def _mute(self, member: Member, until: float, why: str, automatic: bool) -> None:
        left = until - self.now()
        if left <= 0:
            return
        member.muted_until = self.clock() + left
        member.mute_why = mute_words(until, why, automatic)
        self.lobby.send(member, {"t": "mute", "seconds": left, **member.mute_why})

    def _unmute(self, member: Member) -> None:
        if member.muted_until:
            member.muted_until = 0.0
            self.lobby.send(member, {"t": "unmute"})

    # -- ignoring -----------------------------------------------------------------------------

    @staticmethod
    def ignores(member: Member, other: Member) -> bool:
        """Whether ``member`` ignores ``other``."""
        return identity(other) in member.ignoring

    def apart(self, a: Member, b: Member) -> bool:
        """Whether either of the two ignores the other (quick pairing keeps them apart)."""
        return self.ignores(a, b) or self.ignores(b, a)

    def people_for(self, member: Member, people: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """The lobby's list as ``member`` sees it: those he ignores marked, their seeks
        not offered."""
        if not member.ignoring:
            return people
        ignored = {m.id for m in self.lobby.members.values() if identity(m) in member.ignoring}
        out = []
        for person in people:
            if person.get("id") in ignored:
                person = {k: v for k, v in person.items() if k != "seek"}
                person["ignored"] = True
            out.append(person)
        return out

    def toggle_ignore(self, member: Member, to: Any) -> None:
        """The ignore key on a visitor of the list: ignores him, or no longer."""
        other = self.lobby.members.get(to) if type(to) is int else None
        if other is None or not self._count(member):
            return
        self._ignore(member, identity(other), other.name, not self.ignores(member, other))

    def _ignore(self, member: Member, who: str, name: str, on: bool) -> None:
        if who == identity(member):
            # TRANSLATORS: a visitor typed /ignore with his own name
            raise CommandError(N_("You cannot ignore yourself."))
        store = self.lobby.store
        if store is not None and member.account is not None and who.startswith("a:"):
            sanctions.set_ignore(store, member.account, int(who[2:]), on)
        if on:
            member.ignoring.add(who)
            for other in self.lobby.members.values():
                if identity(other) == who and other.challenging == member.id:
                    # (his challenge waiting for an answer reads as declined)
                    other.challenging = None
                    self.lobby.send(other, {"t": "answered", "by": member.id, "accept": False,
                                            **reason(N_("{name} declined."),
                                                     name=member.name)})
                    self.lobby.send(member, {"t": "withdrawn", "by": other.id})
            # TRANSLATORS: {name}: the visitor ignored
            said = reason(N_("You ignore {name}: his challenges, seeks and chat no longer "
                             "reach you."), name=name)
        else:
            member.ignoring.discard(who)
            # TRANSLATORS: {name}: the visitor no longer ignored
            said = reason(N_("You no longer ignore {name}."), name=name)
        self.lobby.send(member, {"t": "notice", **said})
        self.lobby.broadcast()

    # -- commands -----------------------------------------------------------------------------

    def _count(self, member: Member) -> bool:
        if self.commands.allow(identity(member)):
            return True
        # TRANSLATORS: a visitor typed more than 10 commands within a minute
        self.lobby.refuse(member, reason(N_("Too many commands in a minute: wait a little.")))
        return False

    def command(self, member: Member, text: Any) -> None:
        """A command line ``member`` typed: done and told, or refused in words."""
        if not isinstance(text, str) or not self._count(member):
            return
        head = text.strip().lstrip("/:").split(None, 1)
        verb = head[0].lower() if head else ""
        try:
            if verb in OPERATOR_VERBS and not member.operator:
                # TRANSLATORS: a visitor who is not an operator typed /mute, /kick, /ban...
                raise CommandError(N_("Only the server's operators may do that."))
            done = self._do(member, parse(text))
        except CommandError as exc:
            self.lobby.refuse(member, reason(exc.said, **exc.values))
            return
        if done is not None:
            self.lobby.send(member, {"t": "notice", **done})

    def _do(self, member: Member, command: Command) -> dict[str, Any] | None:
        verb, target = command.verb, command.target
        if verb == "help" or target is None:
            return self._help(member)
        if verb in ("ignore", "unignore"):
            here, account = self._who(target.value)
            if here is not None:
                who, name = identity(here), here.name
            else:
                assert account is not None
                who, name = f"a:{account.id}", account.name
            self._ignore(member, who, name, verb == "ignore")
            return None
        if verb == "kick":
            return self._kick(member, command)
        if verb in ("mute", "unmute"):
            return self._mute_command(member, command)
        return self._ban_command(member, command)

    def _help(self, member: Member) -> dict[str, Any]:
        if member.operator:
            # TRANSLATORS: the commands' list; the commands and key:, addr: stay as they are
            return reason(N_("Commands: /mute NAME 10m [REASON], /unmute NAME, /kick NAME "
                             "[REASON], /ban NAME|key:SHA256:...|addr:IP 1d [REASON], /unban "
                             "..., /ignore NAME, /unignore NAME."))
        return reason(N_("Commands: /ignore NAME, /unignore NAME."))

    def present(self, name: str) -> Member | None:
        """The visitor here whose name is ``name`` (or looks like it)."""
        wanted = skeleton(player_name(name))
        return next((m for m in self.lobby.members.values() if skeleton(m.name) == wanted),
                    None)

    def _account(self, name: str) -> accounts.Account | None:
        store = self.lobby.store
        return accounts.account_named(store, player_name(name)) if store is not None else None

    @staticmethod
    def _nobody(name: str) -> CommandError:
        # TRANSLATORS: {name}: the name typed after a command
        return CommandError(N_("Nobody here or among the accounts is called {name}."),
                            name=name[:40])

    def _protect(self, hit: list[Member], account: int | None = None,
                 key: str | None = None, name: str = "") -> None:
        """Refuses a sanction that would hit an operator."""
        store = self.lobby.store
        operator = next((m for m in hit if m.operator), None)
        owns = (account is not None and store is not None
                and bool(set(accounts.keys_of(store, account)) & self.operators))
        if operator is not None or owns or (key is not None and key in self.operators):
            # TRANSLATORS: {name}: the target of /mute, /kick or /ban
            raise CommandError(N_("{name} is an operator: operators are not sanctioned from "
                                  "the lobby (the operators file is where they are made and "
                                  "unmade)."), name=operator.name if operator else name)

    def _keep(self, operator: str, action: str, kind: str, target: str, shown: str,
              until: float | None = None, why: str = "") -> None:
        """Keeps the action in the database and logs it."""
        store = self.lobby.store
        if store is not None:
            sanctions.record(store, operator, action, kind, target, shown, until, why)
        log.warning("%s: %s %s (%s %s)%s%s", operator, action, shown, kind, target,
                    f" until {when_text(until)}" if until is not None else "",
                    f": {why}" if why else "")

    def _who(self, name: str) -> tuple[Member | None, accounts.Account | None]:
        """The visitor here called ``name``, or else the account of that name."""
        here = self.present(name)
        account = None if here is not None else self._account(name)
        if here is None and account is None:
            raise self._nobody(name)
        return here, account

    def _hit_by(self, kind: str, target: str) -> list[Member]:
        """The visitors here a sanction on (kind, target) reaches."""
        members = list(self.lobby.members.values())
        if kind == ACCOUNT:
            return [m for m in members if str(m.account) == target]
        if kind == KEY:
            return [m for m in members if m.key == target]
        return [m for m in members if m.address == target]

    def _kick(self, member: Member, command: Command) -> dict[str, Any]:
        assert command.target is not None
        other = self.present(command.target.value)
        if other is None:
            # TRANSLATORS: {name}: the name typed after /kick
            raise CommandError(N_("Nobody here is called {name}."),
                               name=command.target.value[:40])
        self._protect([other], other.account)
        kind, target = self._target(other)
        self._keep(member.name, KICK, kind, target, other.name, None, command.reason)
        self.end_visit(other, kick_words(command.reason))
        # TRANSLATORS: {name}: the visitor an operator kicked
        return reason(N_("{name}'s visit is over."), name=other.name)

    def _mute_command(self, member: Member, command: Command) -> dict[str, Any]:
        assert command.target is not None
        here, account = self._who(command.target.value)
        if here is not None:
            kind, target = self._target(here)
            shown = here.name
        else:
            assert account is not None
            kind, target, shown = ACCOUNT, str(account.id), account.name
        hit = [here] if here is not None and here.account is None else self._hit_by(kind, target)
        self._protect(hit, int(target) if kind == ACCOUNT else None, name=shown)
        if command.verb == "unmute":
            self._keep(member.name, sanctions.UNMUTE, kind, target, shown)
            for m in hit:
                self._unmute(m)
            # TRANSLATORS: {name}: the visitor whose chat an operator opened again
            return reason(N_("{name} may chat again."), name=shown)
        assert command.seconds is not None
        until = self.now() + command.seconds
        self._keep(member.name, MUTE, kind, target, shown, until, command.reason)
        for m in hit:
            self._mute(m, until, command.reason, False)
        # TRANSLATORS: {name}: the visitor muted; {until}: a date and time
        return reason(N_("{name}'s chat is closed until {until}."), name=shown,
                      until=when_text(until))

    def _ban_target(self, command: Command) -> tuple[str, str, str]:
        """What a /ban or /unban is on: (kind, target, as shown)."""
        assert command.target is not None
        typed = command.target
        if typed.kind == "key":
            return KEY, typed.value, typed.value
        if typed.kind == "addr":
            return ADDRESS, typed.value, typed.value
        here, account = self._who(typed.value)
        if here is not None and here.account is not None:
            return ACCOUNT, str(here.account), here.name
        if here is not None:  # a guest: his address
            return ADDRESS, here.address, here.name
        assert account is not None
        return ACCOUNT, str(account.id), account.name

    def _ban_command(self, member: Member, command: Command) -> dict[str, Any]:
        kind, target, shown = self._ban_target(command)
        store = self.lobby.store
        if command.verb == "unban":
            if store is None or sanctions.running(store, BAN, [(kind, target)]) is None:
                # TRANSLATORS: {name}: the name, key or address typed after /unban
                raise CommandError(N_("{name} is not banned."), name=shown)
            self._keep(member.name, sanctions.UNBAN, kind, target, shown)
            # TRANSLATORS: {name}: the name, key or address an operator unbanned
            return reason(N_("{name} is no longer banned."), name=shown)
        hit = self._hit_by(kind, target)
        self._protect(hit, int(target) if kind == ACCOUNT else None,
                      target if kind == KEY else None, shown)
        assert command.seconds is not None
        until = self.now() + command.seconds
        self._keep(member.name, BAN, kind, target, shown, until, command.reason)
        words = ban_words(until, command.reason)
        for m in hit:
            self.end_visit(m, words)
        # TRANSLATORS: {name}: the name, key or address banned; {until}: a date and time
        return reason(N_("{name} is banned until {until}."), name=shown, until=when_text(until))

    def end_visit(self, member: Member, why: dict[str, Any]) -> None:
        """Ends ``member``'s visit, telling him ``why`` (a ``reason``)."""
        if self.dismiss is not None:
            self.dismiss(member, why)
        else:
            self.lobby.send(member, {"t": "closing", **why})
            self.lobby.leave(member)


__all__ = ["COMMANDS", "Moderation", "ban_words", "identity", "kick_words", "mute_words",
           "when_text"]
