"""The duel's channel: an invitation code, a key agreed on it, every frame sealed.

The joiner proves he holds the host's **invitation code** (a number and two words,
``7-classic-orlando``) by a password-authenticated key exchange, SPAKE2 (the ``spake2``
package, as magic-wormhole uses it): each side sends one message, and both end with the same
32-byte key only if both used the same code. Nothing on the wire lets an observer test a
guess of the code; a stranger who tries one gets one guess per connection, which the host
counts. From the key come two directional keys (``blake2b`` keyed by it, libsodium's), and
every frame then travels as a **record**: ``SecretBox`` (XSalsa20-Poly1305) with the
record's number in its direction as the nonce, base64 on one line. A record altered,
replayed, dropped or moved fails to open: the connection ends as tampering.

The same key gives the **resume secret** (the password of the key exchange when a dropped
connection is taken up again: a fresh key, no code) and the **verification phrase**, four
words both screens show, which differ when somebody sits in the middle. See
docs/protocol.md, section 3.

Plain functions and a ``Channel`` object: no sockets here (the transport reads and writes
the lines). ``spake2`` is imported when a key exchange starts, not with this module.
"""

from __future__ import annotations

import base64
import binascii
import re
import secrets
from typing import Annotated, Any, Literal

import msgspec
from msgspec import Meta, Struct
from nacl.encoding import RawEncoder
from nacl.exceptions import CryptoError
from nacl.hash import blake2b
from nacl.secret import SecretBox
from spake2 import SPAKE2_A, SPAKE2_B  # type: ignore[import-untyped]

from tui_domino.net.guessing import CODE_TRIES as CODE_TRIES  # wrong tries per code
from tui_domino.net.messages import MAX_LINE, PROTOCOL, frame_type
from tui_domino.net.words import EVEN, ODD

ID_JOIN = b"tui-domino/join"
ID_HOST = b"tui-domino/host"
PERSON = b"tui-domino/ch3"  # blake2b's personalisation: keys of this channel, version 3
MAC = SecretBox.MACBYTES
# A record: base64 of a sealed frame (its newline not sealed) and a newline. The frame limit
# (messages.MAX_FRAME, the newline included) is the limit of what is sealed.
MAX_RECORD = 4 * -(-(MAX_LINE + MAC) // 3) + 1  # bytes, the newline included
MAX_HANDSHAKE = 512  # bytes of a handshake line, the newline included
CONFIRM_JOIN = b"tui-domino/confirm/join"
CONFIRM_HOST = b"tui-domino/confirm/host"
NUMBERS = 999  # a code's number: 1 ... 999

Kind = Literal["code", "resume"]
_EVEN = {w: i for i, w in enumerate(EVEN)}
_ODD = {w: i for i, w in enumerate(ODD)}


class HandshakeError(Exception):
    """A handshake that cannot go on; ``code`` and ``message`` as in an ``error`` frame."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message


class Refused(ConnectionError):
    """The other side refused this connection in words (a wrong code, busy, another
    version): ``code`` as in its ``error`` frame. A ``ConnectionError``, so whoever handles
    a failed connection handles it."""

    def __init__(self, code: str, message: str) -> None:
        super().__init__(message)
        self.code = code
        self.message = message

    def __str__(self) -> str:
        return self.message


class Tampered(Exception):
    """A record did not open: altered, replayed, reordered, cut, or not a record at all."""


# -- the invitation code ------------------------------------------------------------------------


def new_code() -> str:
    """A fresh invitation code: a number from 1 to 999 and two words (about 26 bits)."""
    n = secrets.randbelow(NUMBERS) + 1
    return f"{n}-{EVEN[secrets.randbelow(256)]}-{ODD[secrets.randbelow(256)]}"


def normalize_code(text: str) -> str:
    """A code as typed (any case, spaces or hyphens between its parts) in its one form;
    ValueError with a sentence for the player when it cannot be a code."""
    parts = [p for p in re.split(r"[\s\-]+", text.strip().lower()) if p]
    code = "-".join(parts)
    if not code:
        raise ValueError("Type the invitation code the host shows, e.g. 7-classic-orlando.")
    if len(code) > 80 or not re.fullmatch(r"[a-z0-9-]+", code):
        raise ValueError(f"{text[:40]!r} is not an invitation code: a number and two "
                         "words, e.g. 7-classic-orlando.")
    if len(parts) == 3 and parts[0].isdigit():
        for word, known in ((parts[1], _EVEN), (parts[2], _ODD)):
            if word not in known:
                raise ValueError(f"{word!r} is not one of the code's words: check the "
                                 "spelling of the code the host shows.")
    return code


def code_password(code: str) -> bytes:
    return b"code:" + code.encode()


def resume_password(secret_hex: str) -> bytes:
    return b"resume:" + bytes.fromhex(secret_hex)


def phrase(secret_hex: str) -> str:
    """The verification phrase of a channel: four words from its resume secret (so it
    stays the same over resumed connections)."""
    digest = blake2b(b"phrase", digest_size=4, key=bytes.fromhex(secret_hex), person=PERSON,
                     encoder=RawEncoder)
    return " ".join(ODD[b] if i % 2 else EVEN[b] for i, b in enumerate(digest))


# -- the handshake's lines ----------------------------------------------------------------------


class Pake(Struct, tag_field="t", tag="pake", forbid_unknown_fields=True, kw_only=True):
    """One side's SPAKE2 message: ``kind`` says which password it was made with."""

    proto: int
    kind: Kind
    msg: Annotated[str, Meta(pattern="^[0-9a-f]{66}$")]


class _Error(Struct, tag_field="t", tag="error", kw_only=True):
    code: Annotated[str, Meta(max_length=40)]
    message: Annotated[str, Meta(max_length=500)] = ""


_pake = msgspec.json.Decoder(Pake)
_reply = msgspec.json.Decoder(Pake | _Error)


def pake_line(kind: Kind, msg: bytes) -> bytes:
    return msgspec.json.encode(Pake(proto=PROTOCOL, kind=kind, msg=msg.hex())) + b"\n"


def _version(proto: int) -> None:
    if proto != PROTOCOL:
        raise HandshakeError("version", f"protocol tui-domino {proto} is not tui-domino "
                                        f"{PROTOCOL}: update both sides")


def read_pake(line: bytes) -> Pake:
    """The joiner's first line, checked; HandshakeError says what is wrong with it."""
    if len(line) > MAX_HANDSHAKE:
        raise HandshakeError("too_large", "a handshake line is at most "
                                          f"{MAX_HANDSHAKE} bytes")
    try:
        first = _pake.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        if frame_type(line) in ("hello", "resume"):
            raise HandshakeError("code", "this host asks for an invitation code: join with "
                                         "tui-domino join HOST:PORT CODE") from None
        raise HandshakeError("bad_frame", "not a tui-domino handshake") from None
    _version(first.proto)
    return first


def read_reply(line: bytes, kind: Kind) -> bytes:
    """The host's answer to the joiner's message: its SPAKE2 message; ``Refused`` when it
    refused in words, HandshakeError when it is not an answer."""
    if len(line) > MAX_HANDSHAKE:
        raise HandshakeError("too_large", "the host's handshake line is too long")
    try:
        reply = _reply.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        raise HandshakeError("bad_frame", "the host's answer is not a tui-domino "
                                          "handshake") from None
    if isinstance(reply, _Error):
        raise Refused(reply.code, reply.message or reply.code)
    _version(reply.proto)
    if reply.kind != kind:
        raise HandshakeError("bad_frame", "the host answered another kind of handshake")
    return bytes.fromhex(reply.msg)


def refusal(line: bytes) -> Refused | None:
    """A refusal in words (a plain ``error`` line) where a record was expected, else None."""
    if not line.startswith(b"{") or len(line) > MAX_HANDSHAKE + 600:
        return None
    try:
        reply = _reply.decode(line)
    except (msgspec.DecodeError, msgspec.ValidationError):
        return None
    return Refused(reply.code, reply.message or reply.code) if isinstance(
        reply, _Error) else None


# -- the key exchange ---------------------------------------------------------------------------


class Exchange:
    """One side's SPAKE2 exchange: ``message`` to send, then ``finish`` with the peer's."""

    def __init__(self, side: str, password: bytes) -> None:
        if side not in ("host", "join"):
            raise ValueError("side is host or join")
        self.side = side
        spake = SPAKE2_A if side == "join" else SPAKE2_B
        self._spake: Any = spake(password, idA=ID_JOIN, idB=ID_HOST)
        self.message: bytes = self._spake.start()

    def finish(self, peer: bytes) -> Channel:
        """The channel keyed by the exchange; HandshakeError when the peer's message is
        not one (a point off the group, the wrong side's, a reflection)."""
        try:
            key = self._spake.finish(peer)
        except Exception as exc:  # the package's errors are not one family: all mean this
            raise HandshakeError("bad_frame", "the key exchange's message is not valid "
                                              f"({type(exc).__name__})") from None
        return Channel(bytes(key), self.side)


def derive(key: bytes, label: bytes, size: int = 32) -> bytes:
    """A key for one purpose from the exchange's key (blake2b keyed by it)."""
    return bytes(blake2b(label, digest_size=size, key=key, person=PERSON, encoder=RawEncoder))


def _nonce(n: int) -> bytes:
    return n.to_bytes(SecretBox.NONCE_SIZE, "big")


class Channel:
    """Seals the frames one side sends and opens those it receives. Each direction has its
    key and counts its records from 0 (the key confirmation) up; the count is the nonce,
    never sent, so a record opens only as the next one of its direction."""

    def __init__(self, key: bytes, side: str) -> None:
        mine, theirs = (b"host->join", b"join->host") if side == "host" else (
            b"join->host", b"host->join")
        self._out = SecretBox(derive(key, mine))
        self._in = SecretBox(derive(key, theirs))
        self.sent = 0
        self.received = 0
        self.side = side
        self.kind = "code"  # which password keyed it (set by the transport): code or resume
        self.resume_secret = derive(key, b"resume").hex()
        self.phrase = phrase(self.resume_secret)

    def seal(self, frame: bytes) -> bytes:
        """A record line for one frame (given with or without its newline)."""
        body = frame[:-1] if frame.endswith(b"\n") else frame
        sealed = self._out.encrypt(body, _nonce(self.sent)).ciphertext
        self.sent += 1
        return base64.b64encode(sealed) + b"\n"

    def open(self, record: bytes) -> bytes:
        """The frame inside the next record (without its newline); ``Tampered`` when the
        record does not open as the next one."""
        text = record.rstrip(b"\r\n")
        if len(text) + 1 > MAX_RECORD:
            raise Tampered(f"a record is at most {MAX_RECORD} bytes")
        try:
            sealed = base64.b64decode(text, validate=True)
        except (binascii.Error, ValueError):
            raise Tampered(f"line {self.received} of the connection is not a sealed "
                           "record") from None
        try:
            body = self._in.decrypt(sealed, _nonce(self.received))
        except CryptoError:
            raise Tampered(f"record {self.received} of the connection failed "
                           "authentication") from None
        self.received += 1
        return bytes(body)

    def confirm(self) -> bytes:
        """This side's key confirmation: its first record."""
        return self.seal(CONFIRM_HOST if self.side == "host" else CONFIRM_JOIN)

    def check_confirm(self, record: bytes) -> None:
        """The peer's first record must open and be its confirmation; ``Tampered`` else
        (on the host: the joiner's code was wrong)."""
        expected = CONFIRM_JOIN if self.side == "host" else CONFIRM_HOST
        if self.open(record) != expected:
            raise Tampered("the key confirmation is wrong")
