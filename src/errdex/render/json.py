"""Records to JSON, in one place: the CLI's `--json`, the web's `/api/`, and the schemas of
the OpenAPI description, all from the same msgspec Structs.

A record is a Struct (or a list or dict of them); what it holds is what programs read. No
face shapes a dict of its own: a field added to a record appears in every face's JSON and
in the schema at once.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import msgspec

from errdex.render.safe_text import safe_json

__all__ = ["encode", "encode_for_terminal", "plain", "schemas"]

_encoder = msgspec.json.Encoder()
_REF = "#/components/schemas/{name}"


def encode(record: object) -> bytes:
    """The JSON of a record, compact (the web's answers)."""
    return _encoder.encode(record)


def encode_for_terminal(record: object) -> str:
    """The JSON of a record, indented, non-ASCII kept, with nothing a terminal acts on
    (the CLI's `--json`)."""
    return safe_json(msgspec.json.format(_encoder.encode(record), indent=2).decode("utf-8"))


def plain(record: object) -> Any:
    """The record as Python's own values (dicts, lists, str, ...), as its JSON decodes."""
    return msgspec.to_builtins(record)


def schemas(types: Iterable[Any]) -> dict[str, Any]:
    """JSON Schemas of the record types and every record they hold, keyed by class name,
    with references in OpenAPI's form (`#/components/schemas/Name`)."""
    _, components = msgspec.json.schema_components(list(types), ref_template=_REF)
    return components
