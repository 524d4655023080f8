"""The fields of a site that writing it reads (its columns, search text and the files it
refers to), and a record decoded with only those.

A version's writer process (`aside`) is sent every site encoded and stores those bytes as
they came; of each site it reads no more than these few fields. Decoding the whole record
(conditions, knobs, callers' guards, tests, selections: vllm 0.33.0's 22,500 sites, 40 MB)
and freeing it again was a fifth of the writer's CPU in its write; `WrittenSite` skips the
rest (msgspec passes over fields a struct does not declare without building them).

`SiteRow` is what the writing functions ask of a site: an `IndexedSite` and a `WrittenSite`
both have it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Protocol

import msgspec

from errdex.facts import Arg, Binding, ErrorSite, MessageTemplate, SiteKind, Variant
from errdex.linked_facts import ExceptionInfo, IndexedSite, KnobLink, ShownText
from errdex.settable import Argument

__all__ = ["STANDS_FOR", "SiteRow", "WrittenSite"]


class _Located(Protocol):
    @property
    def file(self) -> str | None: ...


class _KnobRow(_Located, Protocol):
    @property
    def via(self) -> str | None: ...


class _VariantRow(_Located, Protocol):
    @property
    def reason(self) -> MessageTemplate: ...


class _ExceptionRow(Protocol):
    @property
    def name(self) -> str: ...
    @property
    def qualname(self) -> str: ...
    @property
    def defined_in(self) -> str | None: ...


class ErrorRow(Protocol):
    """The fields of an `ErrorSite` a write reads."""

    @property
    def kind(self) -> SiteKind: ...
    @property
    def exception(self) -> str | None: ...
    @property
    def message(self) -> MessageTemplate | None: ...
    @property
    def line(self) -> int: ...
    @property
    def end_line(self) -> int: ...
    @property
    def function(self) -> str: ...
    @property
    def bindings(self) -> Sequence[_Located]: ...
    @property
    def variants(self) -> Sequence[_VariantRow]: ...
    @property
    def args(self) -> Sequence[Argument]: ...


class SiteRow(Protocol):
    """The fields of an `IndexedSite` a write reads."""

    @property
    def id(self) -> str: ...
    @property
    def file(self) -> str: ...
    @property
    def module(self) -> str: ...
    @property
    def site(self) -> ErrorRow: ...
    @property
    def exception(self) -> _ExceptionRow | None: ...
    @property
    def knobs(self) -> Sequence[_KnobRow]: ...
    @property
    def shown(self) -> Sequence[ShownText]: ...


# Each struct below declares a field of the record it stands for with the same name, type
# and default, so that what it decodes is what the whole record holds there.


class _WrittenBinding(msgspec.Struct, frozen=True, gc=False):
    file: str | None = None


class _WrittenVariant(msgspec.Struct, frozen=True, gc=False):
    reason: MessageTemplate
    file: str | None = None


class _WrittenKnob(msgspec.Struct, frozen=True, gc=False):
    file: str | None = None
    via: str | None = None


class _WrittenArg(msgspec.Struct, frozen=True, gc=False):
    source: str
    name: str | None = None


class _WrittenException(msgspec.Struct, frozen=True, gc=False):
    name: str
    qualname: str
    defined_in: str | None = None


class _WrittenError(msgspec.Struct, frozen=True, gc=False):
    kind: SiteKind
    exception: str | None
    message: MessageTemplate | None
    line: int
    end_line: int
    function: str
    bindings: tuple[_WrittenBinding, ...] = ()
    variants: tuple[_WrittenVariant, ...] = ()
    args: tuple[_WrittenArg, ...] = ()


class WrittenSite(msgspec.Struct, frozen=True, gc=False):
    """An encoded `IndexedSite` as a write reads it (`SiteRow`)."""

    id: str
    file: str
    module: str
    site: _WrittenError
    exception: _WrittenException | None = None
    knobs: tuple[_WrittenKnob, ...] = ()
    shown: tuple[ShownText, ...] = ()


# Each record decoded in part, and the record whose encoding it reads.
STANDS_FOR: dict[type[msgspec.Struct], type[msgspec.Struct]] = {
    WrittenSite: IndexedSite,
    _WrittenError: ErrorSite,
    _WrittenException: ExceptionInfo,
    _WrittenKnob: KnobLink,
    _WrittenVariant: Variant,
    _WrittenBinding: Binding,
    _WrittenArg: Arg,
}
