"""The frames of the duel protocol: typed msgspec structs with size limits.

A frame is one JSON object on one line of at most ``MAX_FRAME`` bytes, its newline included
(so at most ``MAX_LINE`` bytes before the newline). ``decode`` turns a line into a frame or
raises ``FrameError`` with a message fit for an ``error`` frame; it never raises anything
else. See docs/protocol.md, sections 2-8.
"""

from __future__ import annotations

from typing import Annotated, Literal

import msgspec
from msgspec import Meta, Struct

# 3: the frames travel sealed in a channel keyed by the invitation code (docs/protocol.md,
# section 3; net/channel.py), unless both sides play --open. 2: a dispute that finds no cheat
# costs the disputer the match, and an accusation must come after the accuser's reveal
# (sections 6-7). Each version refuses the others.
PROTOCOL = 3
APP = "tui-domino"
MAX_FRAME = 65536  # bytes, the newline included
MAX_LINE = MAX_FRAME - 1  # bytes before the newline

Hex64 = Annotated[str, Meta(pattern="^[0-9a-f]{64}$")]
Token = Annotated[str, Meta(pattern="^[0-9a-f]{32}$")]
Name = Annotated[str, Meta(min_length=1, max_length=40)]
Seq = Annotated[int, Meta(ge=1, le=2**53)]
Ack = Annotated[int, Meta(ge=0, le=2**53)]
Waited = Annotated[float, Meta(ge=0, le=86_400)]  # seconds of a step counted by the sender
RoundNo = Annotated[int, Meta(ge=1, le=100_000)]
DealNo = Annotated[int, Meta(ge=1, le=1000)]
Pos = Annotated[int, Meta(ge=0, le=55)]
Small = Annotated[int, Meta(ge=-1000, le=1000)]
Count = Annotated[int, Meta(ge=0, le=100_000)]
Points = Annotated[list[Hex64], Meta(min_length=1, max_length=56)]
Keys = Annotated[list[Hex64], Meta(max_length=56)]
Text = Annotated[str, Meta(max_length=500)]
Variant = Literal["classic", "spider", "triominos"]
OptionValue = int | None | Annotated[list[int], Meta(max_length=4)]
Options = Annotated[dict[Annotated[str, Meta(max_length=40)], OptionValue], Meta(max_length=16)]


class Frame(Struct, tag_field="t", forbid_unknown_fields=True, kw_only=True, omit_defaults=True):
    """A frame of any kind."""


class Game(Frame):
    """A sequenced game frame."""

    seq: Seq = 1
    ack: Ack = 0


# -- control frames -----------------------------------------------------------------------------


class Hello(Frame, tag="hello", kw_only=True):
    proto: int
    app: Annotated[str, Meta(max_length=40)] = APP
    name: Name
    variant: Variant | None = None
    target: Annotated[int, Meta(ge=1, le=100_000)] | None = None
    options: Options | None = None


class Welcome(Frame, tag="welcome", kw_only=True):
    proto: int
    name: Name
    variant: Variant
    target: Annotated[int, Meta(ge=1, le=100_000)]
    options: Options
    match: Token
    token: Token
    peer_token: Token


class Resume(Frame, tag="resume", kw_only=True):
    proto: int
    match: Token
    token: Token
    ack: Ack
    # (the connected seconds the sender has counted of the step under way: a side taken up
    # from its log begins its count of that step there, section 9)
    waited: Waited | None = None


class Resumed(Frame, tag="resumed", kw_only=True):
    token: Token
    ack: Ack
    waited: Waited | None = None


class Ping(Frame, tag="ping", kw_only=True):
    ack: Ack


class Pong(Frame, tag="pong", kw_only=True):
    ack: Ack


class Error(Frame, tag="error", kw_only=True):
    code: Annotated[str, Meta(max_length=20)]
    message: Text = ""


# -- game frames --------------------------------------------------------------------------------


class PlacementJ(Struct, forbid_unknown_fields=True, omit_defaults=True):
    tile: Annotated[list[Small], Meta(min_length=2, max_length=2)]
    arm: Literal["N", "E", "S", "W", "center"]
    close: bool = False


class MoveJ(Struct, forbid_unknown_fields=True, omit_defaults=True):
    """A rules move's JSON form (validated again by the engine)."""

    kind: Literal["place", "draw", "pass"]
    tile: Annotated[list[Small], Meta(min_length=2, max_length=3)] | None = None
    end: Literal["left", "right", "center"] | None = None
    placements: Annotated[list[PlacementJ], Meta(min_length=1, max_length=4)] | None = None
    cell: Annotated[list[Small], Meta(min_length=2, max_length=2)] | None = None
    corners: Annotated[list[Small], Meta(min_length=3, max_length=3)] | None = None

    def to_dict(self) -> dict[str, object]:
        out: dict[str, object] = msgspec.to_builtins(self)
        return out


class Proof(Struct, forbid_unknown_fields=True):
    pos: Pos
    key: Hex64


class Shuffle(Game, tag="shuffle", kw_only=True):
    round: RoundNo
    deal: DealNo
    stage: Annotated[int, Meta(ge=1, le=4)]
    deck: Points


class KeysF(Game, tag="keys", kw_only=True):
    round: RoundNo
    deal: DealNo
    positions: Annotated[list[Pos], Meta(max_length=56)]
    keys: Keys


class Call(Game, tag="call", kw_only=True):
    round: RoundNo
    deal: DealNo
    rank: Annotated[int, Meta(ge=0, le=55)]


class MoveF(Game, tag="move", kw_only=True):
    round: RoundNo
    deal: DealNo
    n: Count
    move: MoveJ
    proofs: Annotated[list[Proof], Meta(max_length=4)] = []
    chain: Hex64


class Block(Game, tag="block", kw_only=True):
    round: RoundNo
    deal: DealNo
    n: Count


class Reveal(Game, tag="reveal", kw_only=True):
    round: RoundNo
    deal: DealNo
    key: Hex64
    keys: Keys
    dispute: bool = False


class Chat(Game, tag="chat", kw_only=True):
    text: Annotated[str, Meta(min_length=1, max_length=500)]


class Leave(Game, tag="leave", kw_only=True):
    reason: Annotated[str, Meta(max_length=200)] = ""


class VerdictF(Game, tag="verdict", kw_only=True):
    # (``timeout``: the sender says ``player``'s time ran out, for him to judge by his own
    # clock: net/deadlines.py)
    kind: Literal["cheat", "forfeit", "timeout"]
    player: Annotated[int, Meta(ge=0, le=1)]
    reason: Text


ControlFrame = Hello | Welcome | Resume | Resumed | Ping | Pong | Error
GameFrame = Shuffle | KeysF | Call | MoveF | Block | Reveal | Chat | Leave | VerdictF
AnyFrame = ControlFrame | GameFrame

_decoder = msgspec.json.Decoder(AnyFrame)
_encoder = msgspec.json.Encoder()


class FrameError(ValueError):
    """A line that is not a valid frame; ``code`` is the error frame's code."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


def decode(line: bytes) -> Frame:
    """One frame from one line (without or with its newline: the limit counts it either
    way)."""
    if len(line) - line.endswith(b"\n") > MAX_LINE:
        raise FrameError("too_large", f"a frame is at most {MAX_FRAME} bytes, its newline "
                                      "included")
    try:
        frame = _decoder.decode(line)
    except msgspec.ValidationError as exc:
        raise FrameError("bad_frame", f"invalid frame: {exc}"[:480]) from None
    except msgspec.DecodeError as exc:
        raise FrameError("bad_frame", f"not JSON: {exc}"[:480]) from None
    except (RecursionError, MemoryError, ValueError, TypeError) as exc:  # pragma: no cover
        raise FrameError("bad_frame", f"unreadable frame: {type(exc).__name__}") from None
    assert isinstance(frame, Frame)
    return frame


def encode(frame: Frame) -> bytes:
    """One line, newline included."""
    data = _encoder.encode(frame) + b"\n"
    if len(data) > MAX_FRAME:  # pragma: no cover - our frames are a few KiB
        raise FrameError("too_large", "frame too large to send")
    return data


def error(code: str, message: str) -> bytes:
    return encode(Error(code=code, message=message[:500]))


class _Typed(Struct):
    t: str = ""


_typed = msgspec.json.Decoder(_Typed)


def frame_type(line: bytes) -> str | None:
    """The type (``t``) of a line that is a JSON object, however it is spelled (spaces,
    its keys in any order), or None when it is not one."""
    try:
        return _typed.decode(line).t or None
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
