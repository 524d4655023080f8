"""A site as a version's writer process decodes it (`WrittenSite`, the fields its rows
read) gives the rows the whole site gives: its columns, its search text, its error's
columns and the files it refers to."""

from __future__ import annotations

import msgspec
from store_samples import PIECEWISE, UNSUPPORTED

from errdex.facts import Arg, Binding, MessageTemplate, Placeholder, Variant
from errdex.linked_facts import (
    NAMED_IN_MESSAGE,
    ExceptionInfo,
    IndexedSite,
    KnobKind,
    KnobLink,
    ShownText,
)
from errdex.store.rows import (
    ENCODER,
    error_columns,
    referenced_files,
    search_fields,
    site_columns,
    text_key,
)
from errdex.store.tally import WriteTally
from errdex.store.written import STANDS_FOR, WrittenSite

_DECODER = msgspec.msgpack.Decoder(WrittenSite)

# `raise ConfigError(self.message or "Invalid ...")` with every field a row reads filled:
# a variant added in another file, a constant defined elsewhere, a field the message names
# (its class's file is kept), the text `__str__` composes, a settable text.
_FULL = msgspec.structs.replace(
    UNSUPPORTED,
    site=msgspec.structs.replace(
        UNSUPPORTED.site,
        exception="errors.ConfigError",
        bindings=(
            Binding(name="LIMIT", value="4", line=2, origin="constant", file="demo/limits.py"),
            Binding(name="n", value="len(x)", line=9),
        ),
        variants=(
            *UNSUPPORTED.site.variants,
            Variant(
                reason=MessageTemplate.of("pipeline parallelism over ", Placeholder("pp")),
                line=40,
                function="check_pp",
                file="demo/parallel.py",
            ),
        ),
        args=(
            Arg(template=None, source='self.message or "Invalid runner"'),
            Arg(template=MessageTemplate.of("x"), source='"x"', name="hint"),
        ),
    ),
    exception=ExceptionInfo(
        name="ConfigError",
        qualname="demo.errors.ConfigError",
        bases=("builtins.ValueError",),
        docstring="A configuration the runner cannot take.",
        defined_in="demo/errors.py",
        line=3,
    ),
    knobs=(
        KnobLink(name="--runner", kind=KnobKind.FLAG, behind="runner", file="demo/args.py"),
        KnobLink(
            name="--model",
            kind=KnobKind.FLAG,
            behind="model",
            file="demo/model_config.py",
            via=NAMED_IN_MESSAGE,
        ),
    ),
    shown=(
        ShownText(text=MessageTemplate.of("Config failure: ", Placeholder("msg")), how="str(exc)"),
        ShownText(text=MessageTemplate.of("Error: runner"), how="printed by click"),
    ),
)


def _rows(site: IndexedSite | WrittenSite, data: bytes) -> tuple[object, ...]:
    tally = WriteTally()
    tally.add(site)
    text = search_fields(site)
    return (
        text,
        text_key(text),
        error_columns(site),
        site_columns(site, data),
        list(referenced_files(site)),
        tally.wanted,
        dict(tally.kinds),
    )


def test_a_site_decoded_in_part_gives_the_rows_of_the_whole_site() -> None:
    for site in (_FULL, PIECEWISE, UNSUPPORTED):
        data = ENCODER.encode(site)
        assert _rows(_DECODER.decode(data), data) == _rows(site, data)
    full = _rows(_FULL, ENCODER.encode(_FULL))
    assert "errdexsettable_ConfigError" in full[0][2]  # the settable text is read
    assert {"demo/limits.py", "demo/parallel.py", "demo/errors.py", "demo/model_config.py"} <= (
        full[5]
    )


def _name(cls: type) -> str:
    return f"{cls.__module__}.{cls.__qualname__}"


def test_each_field_decoded_in_part_is_the_field_of_the_whole_record() -> None:
    """Same name, same default, same type (a record decoded in part standing for its whole
    record): what the writer reads is what the whole record holds."""
    for part, whole in STANDS_FOR.items():
        fields = {f.name: f for f in msgspec.structs.fields(whole)}
        for field in msgspec.structs.fields(part):
            known = fields.get(field.name)
            assert known is not None, (part, field.name)
            assert (field.default, field.required) == (known.default, known.required)
            written = str(field.type)
            for inner, stands_for in STANDS_FOR.items():
                written = written.replace(_name(inner), _name(stands_for))
            assert written == str(known.type), (part, field.name)
