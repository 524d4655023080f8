"""A message that states what an argument must be: the user changes what they pass.

`create_model` raises "Field definitions should be a Annotated[<type>, <FieldInfo>]";
SQLAlchemy's URL "Port argument must be an integer or None". Such a sentence ("X should be
Y", "X must be Y", "X must have Y") gives the way out in its own words when X names a
parameter of the public function that raises (`field_definitions`, `port`): "Change what
you pass for `field_definitions` of `create_model` as the message says". Only then: a
subject that names nothing passed in ("all compilation should be complete before the
profiling run") is the program's own state, and a function no public module reaches takes
no argument from a user, nor does one deeper than two modules in its package (its
internals: vllm's kernels). Offered only where no other input solution is.
"""

from __future__ import annotations

import re

from errdex.explain.context import Facts
from errdex.explain.inputs import public_name
from errdex.explain.page import Solution
from errdex.explain.plain import code
from errdex.explain.user_call import user_call

# "Field definitions should be a ...", "'image_files' must be a non-empty list": the
# subject, at most five words, before the requirement
_STATES = re.compile(
    r"^(?P<subject>[\w'\"`.]+(?:\s+[\w'\"`.]+){0,4}?)\s+(?:should|must)\s+(?:be|have)\s+\S",
    re.I,
)
# `pydantic.main`, `rich.color`, `sqlalchemy.orm`: how deep the module of a function a
# user calls sits (vllm's kernels, at `vllm.third_party.fmha_sm100.decode_q8kv4.interface`,
# take their arguments from vllm itself)
MAX_MODULE_DEPTH = 2
# words of a subject that name no argument ("the", "all", "argument" ...)
_FILLER = frozenset({"the", "a", "an", "all", "each", "every", "argument", "parameter", "given"})


def shallow_call(facts: Facts) -> tuple[str, str | None] | None:
    """The user's call of the site's class or function (`user_call`, the class's call for a
    method), None when no public path reaches it or the path is more than `MAX_MODULE_DEPTH`
    deep in the package (its internals, not what a user calls)."""
    call = user_call(facts, constructor=True)
    if call is None or call[0].count(".") - 1 > MAX_MODULE_DEPTH:
        return None
    return call


def stated_form_solution(facts: Facts) -> Solution | None:
    """ "Change what you pass for `p` of `f` as the message says" for a message that
    states what the parameter `p` of the public function `f` must be; else None."""
    stated = _stated(facts)
    if stated is None:
        return None
    param = stated[1]
    site = facts.stored.site
    owner, _, method = site.function.rpartition(".")
    callable_ = owner if method == "__init__" else site.function
    text = site.message.text.strip() if site.message is not None else ""
    return Solution(
        text=f"Change what you pass for {code(param)} of {code(callable_)} as the message "
        f"says: “{text}”",
        kind="input",
    )


def states_whole_parameter(facts: Facts) -> bool:
    """Whether the stated form's subject is its parameter, all of it ("with_for_update",
    "'characters' argument", "The URL"), not a part of it ("color components" of `color`,
    "Bucket config values" of `bucket_config`): only then does the requirement the message
    states, said of the parameter, say what the message does."""
    stated = _stated(facts)
    if stated is None:
        return False
    words = [w.strip("'\"`.").lower() for w in stated[0].split()]
    return "_".join(w for w in words if w and w not in _FILLER) == stated[1]


def _stated(facts: Facts) -> tuple[str, str] | None:
    """The subject of the message's first sentence and the parameter it names, where that
    sentence states what the parameter of a public function must be."""
    message = facts.stored.site.message
    site = facts.stored.site
    if message is None or not public_name(site.function) or shallow_call(facts) is None:
        return None
    text = message.text.strip()
    first = re.split(r"(?<=[.;])\s+", text, maxsplit=1)[0]
    stated = _STATES.match(first)
    if stated is None:
        return None
    param = named_parameter(stated["subject"], facts.read.params)
    return None if param is None else (stated["subject"], param)


def named_parameter(subject: str, params: tuple[str, ...]) -> str | None:
    """The parameter a subject names: a quoted name, a word, or its words joined by `_`
    ("Field definitions" → `field_definitions`)."""
    words = [w.strip("'\"`.").lower() for w in subject.split()]
    words = [w for w in words if w]
    candidates = ["_".join(words), *words]
    candidates += ["_".join(words[i : i + 2]) for i in range(len(words) - 1)]
    for candidate in candidates:
        if candidate in _FILLER:
            continue
        if candidate in params and not candidate.startswith("_"):
            return candidate
    return None
