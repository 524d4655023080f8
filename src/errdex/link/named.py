"""Settings a message names: the flags, config fields and environment variables its text
writes, each resolved against the version before a page may offer it.

`--reasoning-effort-map must be a JSON object ...` names a flag; `attention_config.
indexer_sparse_logits requires ...` names a field of the object `--attention-config` takes
as JSON; `set VLLM_USE_V2_MODEL_RUNNER=1` names a variable; "supports only fp8 KV cache (got
kv_cache_dtype=...)" names the field `kv_cache_dtype`, which the flag `--kv-cache-dtype` sets
(`NamedSettings.fields`: a field's name in the message's own words, not in a placeholder,
shown with a value). A name is linked only when the
version declares it: a flag argparse declares (or a field of an arguments class), a field
of the class a JSON-valued flag is validated against (a page reads its declared type
there, to give it a value of that type), a variable the code reads. Such a knob's `via` is
`NAMED_IN_MESSAGE`: it decides no condition, it is what the message's words point at.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from errdex.extract.docs import DOC_OF
from errdex.facts import FileFacts, KnobKind
from errdex.lazy_re import lazy_compile
from errdex.link.flags import FlagIndex
from errdex.linked_facts import NAMED_IN_MESSAGE, KnobLink

_FLAG = lazy_compile(r"(?<![\w-])--[a-z][a-z0-9]*(?:-[a-z0-9]+)*(?![\w-])")
# `attention_config.indexer_sparse_logits`: a configuration object's field.
_FIELD = lazy_compile(r"(?<![\w.])(?P<owner>[a-z][a-z0-9]*_config)\.(?P<field>[a-z_][a-z0-9_]*)\b")
# `kv_cache_dtype=...`, `got kv_cache_dtype`, "for max_model_len": a name shown with a
# value (what the check got, or what it takes), not a part of a dotted name or of a flag,
# nor a call (`max_model_len()`); "of block_size" too where asked (`of=True`: "a multiple of
# block_size tokens" names no value, so naming a flag by it is not done)
# each part matches the whole word or nothing: a shorter name is followed by a character of
# the word, which neither part takes there, so the word's letters are never given back
# (possessive: vllm's link reads 7,500 messages' words, a third faster)
_WHOLE_NAME = r"[a-z][a-z0-9]*+(?:_[a-z0-9]+)*+"
_SHOWN_PARTS = (
    rf"(?<![\w.\-])(?P<name>{_WHOLE_NAME})`?\s*[=:](?!=)",
    rf"\b(?:got|for)\s+`?(?P<after>{_WHOLE_NAME})(?![\w\-]|\.\w|\()",
)
_SHOWN = lazy_compile("|".join(_SHOWN_PARTS), re.I)
_SHOWN_OF = lazy_compile(
    "|".join((*_SHOWN_PARTS, rf"\bof\s+`?(?P<of>{_WHOLE_NAME})(?![\w\-]|\.\w|\()")), re.I
)
# a field's own name: two words or more (one word is as often plain English), in lower case
# (`VLLM_USE_V1` is a variable's); a name alone is as often another object's ("a positive
# block_size in the draft config")
_FIELD_NAME = lazy_compile(r"[a-z][a-z0-9]*(?:_[a-z0-9]+)+")
_PLACEHOLDER = lazy_compile(r"\{[^{}]*\}")
# "This can be caused by too large tensor parallel size": what the message says may cause
# the error, a setting named in its own words (joined, `tensor_parallel_size`) that was set
# too high or too low
CAUSED_BY = lazy_compile(
    r"\bcaused\s+by\s+(?:an?\s+|the\s+)?(?:too|overly)\s+"
    r"(?P<how>large|big|high|great|many|small|low|few)\s+(?:an?\s+)?"
    r"(?P<words>[a-z][a-z0-9]*(?:[ _][a-z][a-z0-9]*){1,5})"
)
# ... the directions it asks for: a lower value for "too large", a higher for "too small"
LOWER = frozenset({"large", "big", "high", "great", "many"})
_VARIABLE = lazy_compile(r"(?<![\w-])[A-Z][A-Z0-9]*(?:_[A-Z0-9]+)+(?![\w-])")
_MAX_NAMED = 4


class NamedSettings:
    """The version's declared settings, for the names a message's text writes."""

    def __init__(self, files: list[FileFacts], flags: FlagIndex) -> None:
        self._flags = flags
        self._variables: set[str] = set()
        # a class's short name → where each class of that name is, with its documented
        # fields (a configuration class documents each field it declares)
        self._classes: dict[str, list[tuple[str, int, dict[str, str]]]] = {}
        for facts in files:
            if facts.error is not None:
                continue
            self._variables.update(read.name for read in facts.env_reads)
            for cls in facts.classes:
                if cls.field_docs:
                    where = (facts.path, cls.line, dict(cls.field_docs))
                    self._classes.setdefault(cls.name, []).append(where)

    def named(self, text: str | None) -> tuple[KnobLink, ...]:
        """The settings `text` names that the version declares, in the order written."""
        if not text:
            return ()
        found: list[KnobLink] = []
        # each pattern only where its fixed part is in the text: most messages name none
        flags = _FLAG.findall(text) if "--" in text else ()
        for flag in dict.fromkeys(flags):
            knob = self._flags.field_flag(flag[2:].replace("-", "_"))
            if knob is not None and knob.name == flag:
                found.append(msgspec.structs.replace(knob, behind=flag, via=NAMED_IN_MESSAGE))
        for match in _FIELD.finditer(text) if "_config." in text else ():
            knob = self._field(match.group("owner"), match.group("field"))
            if knob is not None and all(k.behind != knob.behind for k in found):
                found.append(knob)
        for name in dict.fromkeys(_VARIABLE.findall(text) if "_" in text else ()):
            if name in self._variables:
                found.append(
                    KnobLink(name=name, kind=KnobKind.ENV, behind=name, via=NAMED_IN_MESSAGE)
                )
        return tuple(found[:_MAX_NAMED])

    def fields(self, text: str | None) -> list[KnobLink]:
        """The flags whose field the message's words name by its own name (`kv_cache_dtype`
        for `--kv-cache-dtype`), a field of an arguments class a command line takes
        (`EngineArgs`): a name a placeholder's expression holds is the program's variable,
        not a word of the message, and a call (`max_model_len()`) is no field."""
        if not text or "_" not in text:
            return []
        found: list[KnobLink] = []
        for name in shown_fields(text):
            if _FIELD_NAME.fullmatch(name) is None:
                continue
            flag = "--" + name.replace("_", "-")
            knob = self._flags.args_field_flag(name)
            if knob is not None and knob.name == flag:
                found.append(msgspec.structs.replace(knob, behind=flag, via=NAMED_IN_MESSAGE))
        return found[:_MAX_NAMED]

    def caused(self, text: str | None) -> list[KnobLink]:
        """The flags of an arguments class the message says too large (or too small) a
        value of may cause the error, by the flag's words (`caused_flags`)."""
        if not text or "caused" not in text:
            return []
        found: list[KnobLink] = []
        for flag, _lower in caused_flags(text, self._args_flag_name):
            knob = self._flags.args_field_flag(flag[2:].replace("-", "_"))
            if knob is not None:
                found.append(msgspec.structs.replace(knob, behind=flag, via=NAMED_IN_MESSAGE))
        return found[:_MAX_NAMED]

    def _args_flag_name(self, field: str) -> str | None:
        knob = self._flags.args_field_flag(field)
        return knob.name if knob is not None else None

    def _field(self, owner: str, field: str) -> KnobLink | None:
        """The JSON-valued flag whose object has the field: one the flag's class (a
        single class of that name) declares and documents, a property being no key of
        it. The knob points at that class (`file`, `line`), where a page reads the field's
        declared type, and carries its docstring."""
        knob = self._flags.field_flag(owner)
        if knob is None or knob.value_type is None:
            return None
        words = re.findall(r"[A-Za-z_]\w*", knob.value_type)
        classes = [where for w in words for where in self._classes.get(w, ())]
        if len(classes) != 1 or field not in classes[0][2]:
            return None
        path, line, docs = classes[0]
        doc = docs[field]
        return msgspec.structs.replace(
            knob,
            behind=f"{owner}.{field}",
            via=NAMED_IN_MESSAGE,
            file=path,
            line=line,
            value_type=None,
            json_fields=(),
            doc=None if doc.startswith(DOC_OF) else doc,
        )


def caused_flags(text: str, flag_of: Callable[[str], str | None]) -> list[tuple[str, bool]]:
    """(the flag, whether a lower value is asked) of each setting the message says too
    large or too small a value of can cause the error ("caused by too large tensor parallel
    size"): the longest run of two words or more after "too large" that, joined by `_`, is
    a field whose flag (`flag_of`: the flag of a field, or None) has that name. One word
    alone is as often plain English ("too large size"), and a name a placeholder writes is
    the program's variable."""
    found: list[tuple[str, bool]] = []
    for match in CAUSED_BY.finditer(_PLACEHOLDER.sub(" ", text)):
        words = re.split(r"[ _]", match.group("words"))
        for end in range(len(words), 1, -1):
            name = "_".join(words[:end])
            flag = "--" + name.replace("_", "-")
            if flag_of(name) == flag:
                found.append((flag, match.group("how") in LOWER))
                break
    return list(dict.fromkeys(found))


def shown_fields(text: str, *, of: bool = False) -> list[str]:
    """The names the message shows with a value (`kv_cache_dtype=...`, "got block_size",
    "for max_model_len"; "of dtype" too with `of`), as written, in the order written, each
    once: a name a placeholder's expression holds is the program's variable, not a word of
    the message."""
    words = _PLACEHOLDER.sub(" ", text)
    shown = _SHOWN_OF if of else _SHOWN
    names = (m[m.lastindex or 0] for m in shown.finditer(words))  # each way one group
    return list(dict.fromkeys(names))
