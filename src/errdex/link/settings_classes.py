"""Settings classes: the configuration classes whose fields the user's flags write.

A check often holds such an object under a name of its own: a parameter annotated with the
class (`spec_config: SpeculativeConfig`), so the flag behind `spec_config.method` is the one
behind the object as the program names it (`speculative_config`, `--speculative-config`).

A class is a settings class when an arguments class's field defaults to one of its fields
(`max_model_len: int = ModelConfig.max_model_len`) or is annotated with it (`eplb_config:
EPLBConfig`), or when the field is a plain dict named for the class (`speculative_config:
dict | None` for `SpeculativeConfig`). Any other `...Config` (a kernel's `SkinnyGemmConfig`,
a checkpoint's `PretrainedConfig`, a quantization method's `QuantizationConfig` beside the
`--quantization-config` of `QuantizationConfigArgs`) holds no setting of the user, whatever
its fields are named: a flag of the same name says nothing of it. A configuration class
only another configuration class holds is not counted: its keys carry no annotation here,
and a key named for a class (`ModelConfig.quantization_config`, a dict) need not hold it.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Iterable

from errdex.extract.docs import DOC_OF
from errdex.lazy_re import lazy_compile

_WORD = lazy_compile(r"[A-Za-z_]\w*")


@functools.lru_cache(maxsize=1 << 12)  # a class's many properties, its many reads
def object_name(class_name: str) -> str:
    """The name a program holds an object of the class under: `speculative_config` for
    `SpeculativeConfig`, `eplb_config` for `EPLBConfig`."""
    last = class_name.rsplit(".", 1)[-1]
    return re.sub(r"(?<!^)(?=[A-Z][a-z])", "_", last).lower()


def settings_classes(
    classes: Iterable[str],
    args_fields: Iterable[tuple[str, str]],
    args_docs: Iterable[str],
) -> dict[str, str | None]:
    """The settings classes among `classes` (short names of the version's configuration
    and arguments classes), each
    with the name of the arguments field that holds its object (None when no one field
    does), from the arguments classes' fields (name, annotation) and their docs (`DOC_OF` +
    `Class.attr` for a field defaulting to another class's field)."""
    known = set(classes)
    held: dict[str, set[str]] = {}
    for field, annotation in args_fields:
        words = [w for w in _WORD.findall(annotation) if w in known]
        for word in words:
            held.setdefault(word, set()).add(field)
        if not words and "dict" in annotation.lower():
            # a field of a plain dict (`speculative_config: dict | None`): the JSON object of
            # the class named for it, when the version has one
            for name in known:
                if object_name(name) == field:
                    held.setdefault(name, set()).add(field)
    for doc in args_docs:
        if doc.startswith(DOC_OF):
            owner = doc[len(DOC_OF) :].rpartition(".")[0].rsplit(".", 1)[-1]
            if owner in known:
                held.setdefault(owner, set())
    return {name: next(iter(names)) if len(names) == 1 else None for name, names in held.items()}
