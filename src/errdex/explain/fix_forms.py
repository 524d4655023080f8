"""Example fixes drawn from what a solution changes, in the form the user runs it.

Each form is drawn from data, whichever explainer found the solution: a setting's flag on
the package's own command line (`vllm serve MODEL_TAG --enforce-eager`, from the console
script and subcommand the index found behind the flag), an environment variable set for
that command (`VLLM_USE_V2_MODEL_RUNNER=1 vllm serve MODEL_TAG`) or alone (`export X=1`),
the Python call with the keyword (`AsyncClient(proxy=PROXY)` → `AsyncClient()`, imported
by its public path), or the command that installs a package. Upper-case placeholders stand
only for the user's own values, and the note names each; a form that cannot be written
runnable is not drawn (never a `<command>` placeholder).
"""

from __future__ import annotations

import ast
import json
import re
import shlex
from collections.abc import Iterable
from keyword import iskeyword

import msgspec

from errdex.explain.json_before import before_keys, json_text, named_values
from errdex.explain.json_overrides import overriding_flag
from errdex.explain.knob_actions import KnobAction
from errdex.explain.knob_types import boolish, negative_flag
from errdex.explain.page import Change, ConditionView, ExampleFix, Knob
from errdex.explain.plain import code, command_placeholders, placeholder_words, your_values
from errdex.facts import KnobKind

# A yes/no value of an environment variable, and the other one.
_YES_NO = {"0": "1", "1": "0", "true": "false", "false": "true", "True": "False", "False": "True"}
# The words of a class's name: an upper-case run with its digits, up to the capital that
# starts the next word (`M2N` of `M2NTrainer`, `RMS` of `Step5RMSNorm`), one mixing in a
# single lower-case letter with one or two capitals after it (`LoRA`, `MoE`, `SiLU`; not
# `MyAPI` nor `NoGPUError`: a two-letter word and an acronym), or a word with its digits
# (`Step5`); a digit never starts a word of its own.
_WORDS = re.compile(
    r"[A-Z][a-z][A-Z]{1,2}(?=[A-Z][a-z]|_|$)|[A-Z0-9]+(?=[A-Z][a-z]|_|$)"
    r"|[A-Z]?[a-z][a-z0-9]*|[0-9]+"
)


def change_fix(change: Change, command: str | None = None) -> ExampleFix | None:
    """The fix a `Change` draws; `command` is the program's own command line, for an
    environment variable set for it."""
    match change.form:
        case "call":
            return _call_fix(change)
        case "install":
            return ExampleFix(
                before="",
                after=change.target,
                note="Install it into the environment the program runs in, then run it again.",
            )
        case "env":
            return _env_fix(change, command)
        case "first":
            return _first_fix(change)
    return None


def _first_fix(change: Change) -> ExampleFix | None:
    """`console.set_alt_screen(True)`, to run before the call that raised."""
    if change.method is None or change.keyword is None or change.after is None:
        return None
    name = change.target.rpartition(".")[2]
    instance = instance_name(name)
    return ExampleFix(
        before="",
        after=f"{instance}.{change.method}({change.after})",
        note=f"`{instance}` is your {code(name)} object ({code(change.target)}): call it "
        f"before {code(change.keyword)}.",
    )


def _env_fix(change: Change, command: str | None) -> ExampleFix | None:
    """`X=1 vllm serve MODEL_TAG` for the program's own command, else `export X=1`; a
    variable that was not set before shows the command alone (or nothing) before."""
    name = change.target
    if change.before == change.after:
        return None

    def line(value: str | None) -> str:
        if value is None:
            return f"unset {name}" if not command else f"env -u {name} {command}"
        setting = f"{name}={shlex.quote(value)}"
        return f"{setting} {command}" if command else f"export {setting}"

    was = change.before
    if was is None and change.after in _YES_NO:
        # a yes/no variable the message says to set: left unset, its default may already
        # be the value asked for, so the line that meets the check gives the other one
        was = _YES_NO[change.after]
    before = line(was) if was is not None else (command or "")
    note = f"{code(name)} is read by the program as it runs."
    return ExampleFix(
        before=before, after=line(change.after), note=note + command_placeholders(command or "")
    )


def _call_fix(change: Change) -> ExampleFix | None:
    """`from httpx import AsyncClient` / `AsyncClient(proxy=PROXY)` → `AsyncClient()`; a
    method on an instance of its class: `console.print_json(json=JSON)`."""
    module, _, name = change.target.rpartition(".")
    argument = change.argument
    if not module or argument is None or not argument.isidentifier():
        return None
    notes = []
    # the after's call names what the user imports beside the callable
    callable_ = (change.target,) if change.method is None else ()
    after_head = _imports((*callable_, *change.imports)) if change.imports else ""
    if change.method is None:
        head, callee = f"from {module} import {name}\n", name
    elif change.static and not change.method.startswith("__"):
        # a class method is called on the class: the user has no object before the call
        head, callee = f"from {module} import {name}\n", f"{name}.{change.method}"
        after_head = _imports((change.target, *change.imports)) if change.imports else ""
    elif change.method == "__call__" or not change.method.startswith("__"):
        head = ""
        instance = instance_name(name)
        callee = instance if change.method == "__call__" else f"{instance}.{change.method}"
        notes.append(f"`{instance}` is your {code(name)} object ({code(change.target)}).")
    else:
        return None  # an operator's method (`__getitem__`): not called by name

    def call(value: str | None, keyword: str, imported: str) -> str:
        given = [*change.required, *([] if value is None else [f"{keyword}={value}"])]
        if change.then is not None:
            # the constructor's keyword is checked by a method of the object it makes
            made = instance_name(name)
            return f"{imported}{made} = {callee}({', '.join(given)})\n{made}.{change.then}"
        return f"{imported}{callee}({', '.join(given)})"

    before = call(change.before, argument, head)
    after = call(change.after, change.keyword or argument, after_head or head)
    if before == after:
        return None
    named = [a.rpartition("=")[2] for a in change.required]
    if change.then is not None:
        named += re.findall(r"\b[A-Z][A-Z0-9_]*\b", change.then)
    values = (*named, change.before, change.after)
    mine = [v for v in dict.fromkeys(values) if v and placeholder(v)]
    if mine:
        notes.append(your_values(mine))
    notes.append("Keep the call's other arguments as they are.")
    return ExampleFix(before=before, after=after, note=" ".join(notes))


def _imports(paths: tuple[str, ...]) -> str:
    """`from httpx import Client, WSGITransport`: the import lines of public paths, one a
    module, in the order first named."""
    names: dict[str, list[str]] = {}
    for path in paths:
        module, _, name = path.rpartition(".")
        if module and name not in names.setdefault(module, []):
            names[module].append(name)
    return "".join(f"from {m} import {', '.join(n)}\n" for m, n in names.items())


def swapped_method_fix(
    target: str, old: str, new: str, args: tuple[str, ...] = (), **form: bool
) -> ExampleFix:
    """`base_model.dict()` → `base_model.model_dump()`: the user's object of class `target`
    (its public path) calls `new` where it called `old`, with the same arguments (`args`,
    the user's values named). `form` says how each is reached: `attribute` (read, not
    called: `base_model.__fields__`), `awaited` (the old one is a coroutine: `await
    request.aread()` → `request.read()`) and `iterated` (an async generator: `async for
    chunk in response.aiter_raw():` → `for chunk in response.iter_raw():`)."""
    name = target.rpartition(".")[2]
    instance = instance_name(name)
    given = "" if form.get("attribute") else f"({', '.join(args)})"
    before = f"{'await ' if form.get('awaited') else ''}{instance}.{old}{given}"
    notes = [f"`{instance}` is your {code(name)} object ({code(target)})."]
    if form.get("iterated"):
        before = f"async for item in {instance}.{old}{given}:\n    ..."
        notes.append("Keep the loop's body as it is.")
        after = f"for item in {instance}.{new}{given}:\n    ..."
        return ExampleFix(before=before, after=after, note=" ".join(notes))
    if args:
        listed = ", ".join(f"`{a}`" for a in args)
        notes.append(f"{listed} {'stands' if len(args) == 1 else 'stand'} for your own value.")
    if not form.get("attribute"):
        notes.append("Keep the call's other arguments as they are.")
    return ExampleFix(before=before, after=f"{instance}.{new}{given}", note=" ".join(notes))


def placeholder(value: str) -> bool:
    """Whether a word of a fix names the user's own value (`MODEL_TAG`, `KV_CONFIG`)."""
    return value.isidentifier() and value.isupper() and value not in ("True", "False", "None")


def instance_name(cls: str) -> str:
    """`Console` → `console`, `BaseModel` → `base_model`, `M2NTrainer` → `m2n_trainer`:
    what a user's object is called, the class's words in snake case, none split inside."""
    words = [w for part in cls.split("_") for w in _WORDS.findall(part)]
    if "".join(words) != cls.replace("_", ""):
        words = [cls.strip("_")]  # a name the words do not spell out: kept whole
    name = "_".join(words).lower() or "obj"
    return f"{name}_" if iskeyword(name) else name


def setting_fix(
    action: KnobAction, condition: ConditionView, knobs: list[Knob]
) -> ExampleFix | None:
    """Before and after for a setting a solution turns, when a runnable form is known."""
    named = [k for k in knobs if k.name == action.knob]
    # of a JSON flag's keys, the one the action sets (its own default says its type)
    knob = next(
        (k for k in named if k.json_key and f"'{k.json_key}':" in (action.keyword or "")), None
    )
    knob = knob or next(iter(named), None)
    note = action.note or f"{code(action.knob)} decides {code(condition.text)}."
    if knob is None:
        return None
    # the keys of the flag's object each of its knobs read, with their defaults: whether a
    # key the action sets is a yes/no may be known through another condition's knob
    read = tuple(dict.fromkeys(pair for k in named for pair in k.key_defaults))
    if read != knob.key_defaults:
        knob = msgspec.structs.replace(knob, key_defaults=read)
    if knob.kind == KnobKind.ENV and action.before and action.after:
        if knob.command:
            return envcommand_fix(knob.command, action.before, action.after, note)
        return ExampleFix(before=action.before, after=action.after, note=note)
    if knob.kind != KnobKind.FLAG or action.keyword is None or action.unreached:
        return None
    if knob.command:
        fix = command_fix(
            knob,
            action.keyword,
            note,
            action.kept,
            added=action.added,
            unset=action.was_unset,
            negative=action.negative,
            had=action.had,
            others=action.accepted,
        )
        if fix is not None:
            return fix
    if knob.call and knob.behind:
        keyword_name = knob.entry_keyword or (knob.when_behind or knob.behind).rsplit(".", 1)[-1]
        keyword, was = action.keyword, None
        value = _literal(keyword)
        if isinstance(value, dict):
            # a JSON-valued flag's object, as the constructor's dict: its keys as the
            # command line's "before" gives them
            held = dict(action.kept)
            keys = before_keys(knob, value, held, action.had, action.accepted)
            if keys is None or any(isinstance(v, dict) for v in value.values()):
                return None
            keyword, was = repr({**held, **dict(action.added), **value}), repr(keys)
            mine = named_values({**held, **dict(action.added)}, keys)
            if mine:
                note = f"{note} {your_values(mine)}"
        return call_fix(knob.call, keyword_name, keyword, note, unset=action.was_unset, was=was)
    return None


def _literal(text: str) -> object:
    """The Python literal `text` writes, or None."""
    try:
        return ast.literal_eval(text)
    except (ValueError, SyntaxError, RecursionError):
        return None


def envcommand_fix(command: str, before: str, after: str, note: str) -> ExampleFix | None:
    """`export X=1` → `X=1 vllm serve MODEL_TAG`; `unset X` → the command alone."""

    def line(shell: str) -> str:
        if shell.startswith("export "):
            return f"{shell[len('export ') :]} {command}"
        if shell.startswith("unset "):
            return f"env -u {shell[len('unset ') :]} {command}"
        return f"{shell}\n{command}"

    return ExampleFix(
        before=line(before), after=line(after), note=note + command_placeholders(command)
    )


def command_fix(
    knob: Knob,
    keyword: str,
    note: str,
    kept: Iterable[tuple[str, object]] = (),
    *,
    added: Iterable[tuple[str, object]] = (),
    unset: bool = False,
    negative: bool = False,
    had: Iterable[tuple[str, object]] = (),
    others: Iterable[object] = (),
) -> ExampleFix | None:
    """The command line with the flag as the action wants it, and as it was before
    (`kept`: a JSON flag's other fields the path holds, (field, value), in both; `added`:
    the keys its object needs once the fix's value is given, in the "after" alone; `unset`:
    a yes/no flag the user gave in neither form before; `negative`: False given as the
    flag's negative form, `--no-x`; `had`: a JSON key's value the "before" gives, where
    the caller knows it; `others`: the key's other values the check accepts, which the
    "before" avoids too)."""
    command = knob.command or ""
    flag = knob.name
    try:
        value = ast.literal_eval(keyword)
    except (ValueError, SyntaxError, RecursionError):
        return None
    held = dict(kept)
    after_only = dict(added)
    command_note = command_placeholders(command)
    before_args: str | None
    after_args: str | None
    if value is True:
        before_args, after_args = "", flag
    elif value is False and negative:
        off = negative_flag(flag)
        if off is None:
            return None
        before_args, after_args = ("" if unset else flag), off
    elif value is False:
        if "None" in (knob.value_type or "") or knob.default == "True":
            return None  # leaving it out lets the code choose, or leaves it on
        before_args, after_args = flag, ""
    elif value is None:
        # a yes/no flag takes no value: given in either form, it is not None
        bare = boolish(knob) or knob.bare
        before_args, after_args = (flag if bare else f"{flag} VALUE"), ""
    elif isinstance(value, dict) and any(isinstance(v, dict) for v in value.values()):
        # a key whose value is an object: a key of a dict nested in the flag's object
        # (`kv_connector_extra_config`), whose other keys (the connector) are the user's,
        # or a section of the configuration, whose other fields are: a line without them
        # would not reach the check, and `"VALUE"` in the object's place is no object. No
        # line is written (by the value's shape, not `nested_key`: both are caught)
        return None
    elif isinstance(value, dict):
        was = before_keys(knob, value, held, had, others)
        if was is None:
            return None  # no value of a key known to reach the check: no runnable line
        before_args = f"{flag} {shlex.quote(json_text(was))}"
        mine = named_values({**held, **after_only}, was)
        if mine:
            own = [*placeholder_words(command), *mine]
            note = f"{note} {your_values(own)}"
            command_note = ""
        after_args = f"{flag} {shlex.quote(json_text({**held, **after_only, **value}))}"
        # a plain flag that writes a field back is left out too: the "before" gives it
        for field, given in value.items():
            found = overriding_flag(knob, str(field), given)
            if found is not None:
                before_args += f" {found[0]}"
    elif isinstance(value, str | int | float):
        before_args, after_args = f"{flag} VALUE", f"{flag} {shlex.quote(str(value))}"
    else:
        return None
    before = f"{command} {before_args}".strip()
    after = f"{command} {after_args}".strip()
    if before == after:
        return None
    return ExampleFix(
        before=before,
        after=after,
        note=note + command_note,
        config=config_form(
            knob, {**held, **after_only, **value} if isinstance(value, dict) else value
        )
        if after_args
        else None,
    )


def config_form(knob: Knob, value: object) -> str | None:
    """The setting as a line of the config file the program reads in place of its flags
    (`enforce-eager: true` in `config.yaml`), then the command that reads the file. Only a
    setting given a value is written: a flag left out has no line to write."""
    if knob.config is None or not knob.command or value is None or value is False:
        return None
    flag, form = knob.config
    key = knob.name.lstrip("-")
    if form == "toml":
        if isinstance(value, dict):
            return None  # an inline table has its own syntax: not written here
        line = f"{key} = {json.dumps(value)}"
    elif form == "json":
        line = json_text({key: value})
    else:
        line = f"{key}: {json_text(value)}"  # JSON's scalars and mappings are YAML too
    name = f"config.{form}"
    return f"# {name}\n{line}\n\n{knob.command} {flag} {name}"


def call_fix(
    call: str, keyword: str, value: str, note: str, *, unset: bool = False, was: str | None = None
) -> ExampleFix:
    """`LLM(model=MODEL)` → `LLM(model=MODEL, enforce_eager=True)`: the constructor that
    takes the flag's field as a keyword, with its first argument left as the user's own
    (`unset`: the keyword was not given before; `was`: the value it had, where known)."""
    target, _, first = call.partition("(")
    first = first.rstrip(")")
    module, _, name = target.rpartition(".")
    head = f"from {module} import {name}\n" if module else ""
    mine = f"{first}={first.upper()}" if first and first != keyword else ""
    # a switch turned off was on before; any other value replaces what the user had
    if was is None:
        was = {"True": "False", "False": "True", "None": "VALUE"}.get(value, "VALUE")
    before_args = ", ".join(a for a in (mine, "" if unset else f"{keyword}={was}") if a)
    after_args = ", ".join(a for a in (mine, f"{keyword}={value}") if a)
    return ExampleFix(
        before=f"{head}{name}({before_args})",
        after=f"{head}{name}({after_args})",
        note=f"{note} {first.upper()} stands for your own `{first}`." if mine else note,
    )
