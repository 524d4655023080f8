"""Passed arguments: the setting a parameter of the site's function is given by its callers.

`RocmPlatform.get_attn_backend_cls(selected_backend, ...)` raises when `selected_backend`
is not None; `_cached_get_attn_backend(backend, ...)` passes its own `backend` on, which
`get_attn_backend` gives as `attention_config.backend`: the flag `--attention-backend`.
Each call is read from `CallSite.passes`; a parameter passed on as it is is followed to
the callers of that function, a few levels up, and a method called on an object no
import resolves (`current_platform`) is reached when one class of the version is the
base of every class defining it (`CallerIndex.passing_calls`). A setting is linked only
when every call that gives the parameter gives one (see below for a name no setting is
found behind), when the class the object is named for declares the
field (`attention_config` → `AttentionConfig`), and when the site's conditions compare
the parameter with what a user can give (`_decided`), or test a path joined onto it for
being there (`os.path.exists(os.path.join(model_path, "audio_tokenizer"))`: the folder
`--model` names; `link.joined_paths`). A field of a JSON-valued flag's object comes with
the plain flags whose field defaults to it (`--attention-backend`). Where some calls give
a setting and the others a name the link cannot follow (no literal, no call's result, no
constant: `self.trust_request_mm_kwargs` a pooling class set from a config object another
function built), the setting is kept as one way among others (`KnobLink.among_others`).

A `self.X` the object's constructor kept from a parameter (`link.value_flow`) is that
parameter of the class's `__init__`, walked the same way, whether the site reads it or a
call gives it; a `not` on the way turns the setting (`KnobLink.inverted`), which is then
kept only for a yes/no setting the tests read for truth alone.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

import msgspec

from errdex.ast_walk import walk
from errdex.extract.shapes import OWN_OBJECT
from errdex.facts import Binding, CallSite, ClassFact, Condition, ConditionKind, FileFacts, KnobKind
from errdex.link.callers import CallerIndex
from errdex.link.expression_texts import parse_expression
from errdex.link.flags import named_class
from errdex.link.joined_paths import joined_onto, path_test
from errdex.link.knobs import KnobIndex, giving, receiver_name
from errdex.link.value_flow import NOT, AttributeSources, KeptFrom, negation
from errdex.linked_facts import IndexedSite, KnobLink, may_be_false, own_key

_MAX_DEPTH = 3  # functions a value passes through, the site's own included
_MAX_CALLS = 6  # calls giving one parameter that are followed
# what argparse's parsed command line is called: its attributes are the flags' dests
_NAMESPACES = frozenset({"args", "parsed_args", "cli_args"})


class PassedArguments:
    """The settings behind the parameters of a version's functions."""

    def __init__(
        self, callers: CallerIndex, knobs: KnobIndex, sources: AttributeSources | None = None
    ) -> None:
        self._callers = callers
        self._knobs = knobs
        self._sources = sources
        self._memo: dict[tuple[str, str, str, int], tuple[KnobLink, ...]] = {}
        self._entries: dict[tuple[str, str, str], bool] = {}

    def of_site(
        self, indexed: IndexedSite, facts: FileFacts, linked: set[str], said: set[str]
    ) -> list[KnobLink]:
        """The settings behind the site's parameters that no knob is behind yet (names
        not in `linked`), from its callers or its validator; not those the message names
        (`said`): its own words say how to set them."""
        params = indexed.reading.params if indexed.reading else ()
        wanted = [n for n in indexed.site.names if n not in linked]
        keyed = self._keyed_locals(indexed, params, wanted)
        kept = self._kept(facts, indexed.site.class_name, wanted)
        if not kept and not any(n in params for n in wanted):
            # no parameter to follow: neither callers nor a validator give one
            return [k for k in keyed if k.name not in said]
        tests = ParsedTests(_unbounded(indexed.site.conditions), indexed.site.bindings)
        found = keyed + self._from_callers(
            indexed.module, indexed.site.function, params, wanted, tests
        )
        found += self._validated(facts, indexed.site.function, params, wanted, tests)
        for name, source in kept:
            found += self._from_constructor(name, source, tests)
        return [k for k in found if k.name not in said]

    def _keyed_locals(
        self, indexed: IndexedSite, params: tuple[str, ...], names: list[str]
    ) -> list[KnobLink]:
        """The JSON-valued flag with its key behind each local of `names` that reads one
        key of a dict the function is given (`pool_type = str(extra_config.get("pool")
        or "").upper()`, `extra_config` a parameter), where every call gives that
        parameter the flag's free dict (`vllm_config.transfer_config.extra_config`), as it
        is or through its own callers: the key in the JSON the user writes."""
        out: list[KnobLink] = []
        for binding in indexed.site.bindings:
            if binding.origin != "local" or binding.name not in names:
                continue
            read = self._knobs.dict_read(binding.value)
            if read is None or read.receiver not in params:
                continue
            found = self._keyed_given(
                indexed.module,
                indexed.site.function,
                binding.value,
                read.receiver,
                params.index(read.receiver),
                0,
            )
            via = f"the local `{binding.name}` = `{binding.value}` (line {binding.line})"
            out.extend(
                msgspec.structs.replace(k, behind=binding.name, via=f"{via}; {k.via}")
                for k in found
            )
        return out

    def _keyed_given(
        self, module: str, function: str, text: str, param: str, position: int, depth: int
    ) -> tuple[KnobLink, ...]:
        """The flag with its key that `text`, a key read of the parameter `param` of
        `module.function`, reads, when every call gives `param` a dict that flag gives;
        nothing when one call gives another. Once per (function, read)."""
        key = (module, function, f"{param}:{text}", position)
        found = self._memo.get(key)
        if found is None:
            self._memo[key] = ()  # a call cycle finds nothing
            found = self._memo[key] = tuple(
                self._keyed_given_once(module, function, text, param, position, depth)
            )
        return found

    def _keyed_given_once(
        self, module: str, function: str, text: str, param: str, position: int, depth: int
    ) -> list[KnobLink]:
        passing = self._passing(module, function, param, position)
        if passing is None:
            return []
        out: list[KnobLink] = []
        for (given, passed_on), call, facts in passing:
            read_there = _read_of(text, param, given) if given else None
            if read_there is None:
                return []  # something unread, negated or computed: not the flag's dict
            at = f"`{call.function}` ({facts.path}:{call.line})"
            if passed_on >= 0:
                if depth + 1 >= _MAX_DEPTH:
                    return []
                above = self._keyed_given(
                    facts.module, call.function, read_there, given, passed_on, depth + 1
                )
                via = f"`{param}` is the `{given}` that {at} passes on"
            else:
                above = tuple(self._knobs.passed_key(read_there, param, facts, call.class_name))
                via = f"`{param}` is `{given}`, given by {at}"
            if not above:
                return []  # a call gives a dict no flag gives
            out.extend(_through(k, via, call.function) for k in above)
        return out

    def _kept(
        self, facts: FileFacts, class_name: str | None, names: list[str]
    ) -> list[tuple[str, KeptFrom]]:
        """The `self.X` of `names` that the class's constructor kept from a parameter."""
        if self._sources is None or class_name is None:
            return []
        return [
            (name, source)
            for name in names
            if name.startswith("self.")
            and (source := self._sources.kept_from(facts, class_name, name)) is not None
        ]

    def _from_constructor(self, name: str, source: KeptFrom, tests: ParsedTests) -> list[KnobLink]:
        """The settings behind `self.X` (`name`) through the constructor parameter it holds
        (`source`): its callers' values, as for a parameter of the site's own function."""
        found = self._given(source.module, source.init, source.param, source.position, 0)
        via = f"`{name}` is the `{source.param}` `{source.init}` keeps"
        out: list[KnobLink] = []
        for knob in found:
            knob = _through(knob, via, source.init)
            if source.negated:
                knob = _negated(knob)
            if _kept_decided(tests, name, knob):
                out.append(msgspec.structs.replace(knob, behind=name))
        return out

    def _from_callers(
        self,
        module: str,
        function: str,
        params: tuple[str, ...],
        names: list[str],
        tests: ParsedTests,
    ) -> list[KnobLink]:
        """The settings behind each of `names` that is a parameter (of `params`, in order,
        without self or cls) of `module.function`, where the site's `tests` compare it
        with what a user can give (see `_decided`)."""
        out: list[KnobLink] = []
        for name in names:
            if name not in params:
                continue
            found = self._given(module, function, name, params.index(name), 0)
            out.extend(
                msgspec.structs.replace(k, behind=name)
                for k in found
                # a configuration object's own field passed on (`self.synthetic_acceptance_
                # rates`): what the user wrote in the JSON, which the check validates as a
                # field validator does its value
                if (
                    _sized(tests, name)
                    if k.group_size
                    else _kept_decided(tests, name, k)
                    if k.inverted
                    else _decided(
                        tests,
                        name,
                        may_be_false(k.kind, k.value_type),
                        strict=not own_key(k.json_key, k.via),
                    )
                )
            )
        return out

    def _validated(
        self,
        facts: FileFacts,
        function: str,
        params: tuple[str, ...],
        names: list[str],
        tests: ParsedTests,
    ) -> list[KnobLink]:
        """The flags behind the value a field validator checks (`@field_validator(
        "cache_dtype")` of `CacheConfig`): its first parameter is the field's value, which
        the flags whose field defaults to it give (`--kv-cache-dtype`)."""
        fields = facts.validators.get(function)
        owner = function.rpartition(".")[0].rpartition(".")[2]
        if not fields or len(fields) != 1 or not params or params[0] not in names or not owner:
            return []
        value = params[0]
        via = f"`{value}` is the `{owner}.{fields[0]}` its validator `{function}` checks"
        return [
            msgspec.structs.replace(k, behind=value, via=f"{via}; {k.via}" if k.via else via)
            for k in self._knobs.flags.flags_defaulting_to(owner, fields[0])
            # a validator's value is the user's input as pydantic hands it over: whatever
            # the check does with it, the flag gives it (a truth test aside)
            if _decided(tests, value, may_be_false(k.kind, k.value_type), strict=False)
        ]

    def _given(
        self, module: str, function: str, param: str, position: int, depth: int
    ) -> tuple[KnobLink, ...]:
        key = (module, function, param, position)
        found = self._memo.get(key)
        if found is None:
            self._memo[key] = ()  # a call cycle finds nothing
            found = self._memo[key] = tuple(self._given_once(*key, depth))
        return found

    def _given_once(
        self, module: str, function: str, param: str, position: int, depth: int
    ) -> list[KnobLink]:
        out: list[KnobLink] = []
        passing = self._passing(module, function, param, position)
        if passing is None:
            return []
        unfollowed = False  # a call gives a name no setting is found behind
        for (given, passed_on), call, facts in passing:
            if not given:
                return []  # a call gives it something else, or may: no setting decides it
            at = f"`{call.function}` ({facts.path}:{call.line})"
            negated, value = negation(given)
            if passed_on >= 0:
                if depth + 1 >= _MAX_DEPTH:
                    return []
                if self._left_out(facts.module, call.function, value, passed_on):
                    continue  # every call leaves it at its default: no user value this way
                above = self._given(facts.module, call.function, value, passed_on, depth + 1)
                via = f"`{param}` is the `{given}` that {at} passes on"
                links = [_through(k, via, call.function) for k in above]
            elif value.endswith("()") and value[:-2].isidentifier():
                # a group accessor's size (`get_tensor_model_parallel_world_size()`): the
                # flag the group is built from, nothing else a call of no argument gives
                via = f"`{param}` is `{value}`, given by {at}"
                links = [
                    _through(k, via, call.function)
                    for k in self._knobs.resolve(value[:-2], facts, call.class_name)
                    if k.group_size
                ]
            elif "(" in value or "[" in value:
                # one key read of a dict: the JSON-valued flag with that key
                keyed = self._knobs.passed_key(value, param, facts, call.class_name)
                via = f"`{param}` is `{value}`, given by {at}"
                links = [_through(k, via, call.function) for k in keyed]
            elif self._entry_built(facts.module, call.function, value):
                # the object comes from a public entry's keywords: no flag reaches it, the
                # entry's keyword may (`LLM(disable_log_stats=False)`)
                links = [
                    _through(k, f"`{param}` is `{given}`, given by {at}", call.function)
                    for k in self._entry_keyword(facts.module, call.function, value, facts)
                ]
                if not links:
                    return []
            else:
                links = []
                for found in self._knobs.resolve(value, facts, call.class_name):
                    knob = _own_script(giving(found, value), value, facts)
                    if knob is not None and self._declared(knob, value, call.class_name):
                        links.extend(
                            _through(k, f"`{param}` is `{given}`, given by {at}", call.function)
                            for k in (*self._knobs.flags.plain_flags(knob), knob)
                        )
                if not links:
                    links = self._through_object(param, value, call, facts, at, depth)
            if negated:
                links = [_negated(k) for k in links]
            if not links and passed_on < 0 and _unfollowed(value):
                # a field of an object built elsewhere (`self.trust = config.trust`, the
                # config a local of another function): the setting found on the other
                # calls is one way among others, not the value on every path
                unfollowed = True
                continue
            if not links:
                return []  # a call gives it something no setting decides
            out.extend(links)
        if unfollowed:
            return [msgspec.structs.replace(k, among_others=True) for k in out]
        return out

    def _passing(
        self, module: str, function: str, param: str, position: int
    ) -> list[tuple[tuple[str, int], CallSite, FileFacts]] | None:
        """What each call of `module.function` that gives `param` gives it (`given_for`),
        with the call and its file; None when none does, or too many to follow."""
        passing = [
            (passed, call, facts)
            for call, facts in self._callers.passing_calls(module, function)
            if (passed := given_for(call, param, position)) is not None
        ]
        return passing if passing and len(passing) <= _MAX_CALLS else None

    def _through_object(
        self, param: str, value: str, call: CallSite, facts: FileFacts, at: str, depth: int
    ) -> list[KnobLink]:
        """The settings behind `self.X` a call gives, where the caller's class kept `X`
        from its constructor's parameter (`link.value_flow`): that parameter's callers."""
        if self._sources is None or depth + 1 >= _MAX_DEPTH:
            return []
        source = self._sources.kept_from(facts, call.class_name, value)
        if source is None:
            # a settings object's field the constructor copied (`self.kv_cache_dtype =
            # cache_config.cache_dtype`): that field's setting
            chain = self._sources.copied_from(facts, call.class_name, value)
            via = f"`{param}` is `{value}`, given by {at}"
            if chain is not None:
                found = self._knobs.copied(value, chain, facts, call.class_name)
            elif call.class_name:
                # `self.tp_size` the class (or a base) sets to a group accessor's call
                found = list(self._knobs.assigned_size(value, facts, call.class_name))
            else:
                return []
            return [_through(k, via, call.function) for k in found]
        above = self._given(source.module, source.init, source.param, source.position, depth + 1)
        via = f"`{param}` is `{value}`, given by {at}, the `{source.param}` `{source.init}` keeps"
        return [
            _negated(k) if source.negated else k
            for k in (_through(k, via, call.function) for k in above)
        ]

    def _entry_built(self, module: str, function: str, value: str) -> bool:
        """Whether `value` is a field of an object (`engine_args.disable_log_stats`) that
        `function` is given by keyword, and every call of `function` gives it from a public
        class's constructor that built it there (`LLM.__init__`: `engine_args =
        EngineArgs(..., **kwargs)`): the entry's keywords decide the field, which that
        constructor may default itself (`kwargs["disable_log_stats"] = True`), so a
        command-line flag of the same field is no way to it."""
        owner, dot, field = value.partition(".")
        if not dot or not owner.isidentifier() or not field.isidentifier():
            return False
        if owner in OWN_OBJECT or owner in _NAMESPACES:
            return False
        key = (module, function, owner)
        found = self._entries.get(key)
        if found is None:
            calls = self._callers.passing_calls(module, function)
            found = self._entries[key] = bool(calls) and all(
                _entry_gives(call, owner) for call, _ in calls
            )
        return found

    def _entry_keyword(
        self, module: str, function: str, value: str, facts: FileFacts
    ) -> list[KnobLink]:
        """The keyword of the one public class whose constructor builds the object of
        `value` (`engine_args.disable_log_stats`) for every call of `function`, where that
        constructor hands its own `**kwargs` to the object's class and gives the field no
        value by name (`EngineArgs(model=model, ..., **kwargs)` in `LLM.__init__`): the
        flag of the field as the keyword of that class alone (`KnobLink.entry_keyword`:
        no command line builds the object), with the value the constructor gives the key
        when it is left out (`kwargs["disable_log_stats"] = True`) as its default."""
        owner, _, field = value.partition(".")
        made = named_class(owner)
        entries = {
            (caller.module, found.qualname): found
            for call, caller in self._callers.passing_calls(module, function)
            if (found := _init_class(call, caller)) is not None
        }
        if len(entries) != 1:
            return []
        ((where, _), entry), *_ = entries.items()
        if field in entry.init_params or field in entry.kwargs_into.get(made, (field,)):
            return []  # a keyword of its own, or one it gives the object itself or drops
        if not self._knobs.flags.declares(owner, field):
            return []
        first = entry.init_params[:1]
        out: list[KnobLink] = []
        for resolved in self._knobs.resolve(value, facts, None):
            knob = giving(resolved, value)
            if knob is None or knob.kind != KnobKind.FLAG or knob.json_key is not None:
                continue
            out.append(
                msgspec.structs.replace(
                    knob,
                    call=f"{where}.{entry.qualname}({','.join(first)})",
                    entry_keyword=field,
                    command=None,
                    default=entry.kwargs_defaults.get(field, knob.default),
                    bare=False,  # a keyword takes its value written out
                    negated=False,
                    via=f"`{field}` is a keyword `{entry.qualname}` hands to `{made}` "
                    f"through `**kwargs`",
                )
            )
        return out

    def _left_out(self, module: str, function: str, param: str, position: int) -> bool:
        """Whether `function` is called, and no call gives `param`: it holds its default."""
        calls = self._callers.passing_calls(module, function)
        return bool(calls) and all(given_for(call, param, position) is None for call, _ in calls)

    def _declared(self, knob: KnobLink, value: str, class_name: str | None) -> bool:
        """A flag matched on an object the class named for it declares the field of
        (`model_config.max_model_len` → `ModelConfig`): not a checkpoint's
        `config.num_attention_heads` beside a benchmark's `--num-attention-heads`."""
        if knob.kind != KnobKind.FLAG:
            return True
        receiver = receiver_name(value, class_name)
        if receiver in _NAMESPACES and value.count(".") == 1:
            # the parsed command line (`args.trust_request_mm_kwargs`): every flag's dest
            return True
        # `self.moe_backend` read in `KernelConfig`: that class is the one to declare it
        return self._knobs.flags.declares(receiver, value.rpartition(".")[2])


def given_for(call: CallSite, param: str, position: int) -> tuple[str, int] | None:
    """What a call gives the parameter, by its keyword or at its position: ("", -1) when
    it may give it something unread (`*args`, `**kwargs`, arguments past those read, or
    a position on a call of a class's method, which may pass the object first); None
    when it leaves it out."""
    receiver = (call.receiver or "").rpartition(".")[2]
    unbound = receiver[:1].isupper()
    for key, value, passed_on in call.passes:
        if key == param:
            return value, passed_on
        if key == str(position):
            return ("", -1) if unbound else (value, passed_on)
    if any(key in ("*", "**") for key, _, _ in call.passes):
        return "", -1
    return None


def _read_of(text: str, param: str, given: str) -> str | None:
    """`text` (a key read of the parameter `param`) as the caller reads it, `given` put in
    place of the parameter: `str(vllm_config.t.extra.get("k") or "")` for `str(extra.get(
    "k") or "")`; None when `given` is not a dotted name (a negation, a call, a literal)."""
    if given.startswith(NOT) or not all(p.isidentifier() for p in given.split(".")):
        return None
    try:
        node = ast.parse(text, mode="eval")  # a tree of its own: it is rewritten
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return None
    return ast.unparse(_Renamed(param, given).visit(node))


class _Renamed(ast.NodeTransformer):
    """Each load of the name `param` turned into the dotted name `given`."""

    def __init__(self, param: str, given: str) -> None:
        self._param = param
        self._given = given

    def visit_Name(self, node: ast.Name) -> ast.expr:
        if node.id != self._param:
            return node
        return ast.parse(self._given, mode="eval").body


def _entry_gives(call: CallSite, param: str) -> bool:
    """Whether a public class's own constructor gives `param` by keyword a local it made
    (not one of its parameters passed on, not the parsed command line's)."""
    owner, _, method = call.function.rpartition(".")
    if method != "__init__" or not owner or owner.rpartition(".")[2].startswith("_"):
        return False
    return any(
        key == param and passed_on < 0 and value.partition(".")[0] not in _NAMESPACES
        for key, value, passed_on in call.passes
    )


def _init_class(call: CallSite, facts: FileFacts) -> ClassFact | None:
    """The class whose own `__init__` makes `call` (a class of the caller's file)."""
    owner, _, method = call.function.rpartition(".")
    if method != "__init__" or not owner:
        return None
    return next((c for c in facts.classes if c.qualname == owner), None)


def _unfollowed(value: str) -> bool:
    """Whether a call's argument is a name or an attribute chain that may hold what the
    user set (`self.trust_request_mm_kwargs`, `config.block_size`): not a constant's name
    (`DEFAULT_BLOCK_SIZE`, `Mode.EAGER`), which holds what the package wrote, whatever
    the setting, nor a call's result or a key read."""
    parts = value.split(".")
    return all(p.isidentifier() for p in parts) and not any(
        p.isupper() and len(p) > 1 for p in parts
    )


def _own_script(knob: KnobLink | None, value: str, facts: FileFacts) -> KnobLink | None:
    """A flag of the parsed command line (`args.dtype`) that the caller's own file declares:
    that script's flag, which no public constructor of a field of its name takes."""
    if knob is None or knob.call is None or knob.file != facts.path:
        return knob
    if value.partition(".")[0] not in _NAMESPACES:
        return knob
    return msgspec.structs.replace(knob, call=None)


def _negated(knob: KnobLink) -> KnobLink:
    """The knob behind a `not` of the name it was behind: its truth turned."""
    return msgspec.structs.replace(knob, inverted=not knob.inverted)


def _kept_decided(tests: ParsedTests, name: str, knob: KnobLink) -> bool:
    """Whether the tests decide `name` by the setting: as `_decided` has it for a value
    as it is; for a negated one (`inverted`), a yes/no setting tested only for its truth
    (anything else of `not x` is no value the setting is written with)."""
    if not knob.inverted:
        return _decided(tests, name, may_be_false(knob.kind, knob.value_type))
    if not (knob.bare or "bool" in (knob.value_type or "")):
        return False
    found = False
    for test in tests:
        parents = _parents(test)
        for node in walk(test):
            if _ident(node) != name:
                continue
            parent = parents.get(id(node))
            truth = isinstance(parent, ast.BoolOp) or (
                isinstance(parent, ast.UnaryOp) and isinstance(parent.op, ast.Not)
            )
            if not (parent is None or truth):
                return False
            found = True
    return found


def _unbounded(conditions: tuple[Condition, ...]) -> tuple[Condition, ...]:
    """The conditions but a loop's count bound (`for item in data: if len(out) >=
    num_requests: break`): it says how far the loop reads, not which item raises, so the
    setting it compares with is no way out of a check of one item."""
    looped = False
    out: list[Condition] = []
    for condition in conditions:
        if condition.kind is ConditionKind.LOOP:
            looped = True
        elif looped and condition.kind is ConditionKind.EARLY_EXIT and _counted(condition):
            continue
        out.append(condition)
    return tuple(out) if len(out) < len(conditions) else conditions


def _counted(condition: Condition) -> bool:
    """Whether the test compares a count (`len(out) >= n`)."""
    test = parse_expression(condition.test)
    return isinstance(test, ast.Compare) and any(
        isinstance(side, ast.Call) and _called(side) == "len"
        for side in (test.left, *test.comparators)
    )


def _parents(test: ast.AST) -> dict[int, ast.AST]:
    """Each node's parent in `test`, by the child's id."""
    return {id(child): node for node in walk(test) for child in ast.iter_child_nodes(node)}


def _ident(node: ast.AST) -> str | None:
    """A name as the site's `names` write it: `x`, or `self.x` (`cls.x`)."""
    if isinstance(node, ast.Name):
        return node.id
    if (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id in OWN_OBJECT
    ):
        return f"{node.value.id}.{node.attr}"
    return None


def _through(knob: KnobLink, via: str, caller: str) -> KnobLink:
    """The knob with the way the value arrives, nearest call first."""
    return msgspec.structs.replace(
        knob,
        via=via if knob.via is None else f"{via}; {knob.via}",
        passed_by=(caller, *knob.passed_by),
    )


class ParsedTests:
    """The site's conditions, parsed when first read: they are read only for a parameter
    a caller or a validator gives a setting, which most sites' parameters are not; and
    the locals holding a path joined onto another name (`tok_path = os.path.join(
    model_path, "audio_tokenizer")`: `joins["tok_path"] == "model_path"`)."""

    __slots__ = ("_bindings", "_conditions", "_joins", "_parsed")

    def __init__(self, conditions: Iterable[Condition], bindings: Iterable[Binding] = ()) -> None:
        self._conditions = conditions
        self._bindings = bindings
        self._parsed: list[ast.expr] | None = None
        self._joins: dict[str, str] | None = None

    def __iter__(self) -> Iterator[ast.expr]:
        if self._parsed is None:
            self._parsed = [
                t for c in self._conditions if (t := parse_expression(c.test)) is not None
            ]
        return iter(self._parsed)

    @property
    def joins(self) -> dict[str, str]:
        if self._joins is None:
            self._joins = {}
            for b in self._bindings:
                if b.origin != "local" or "join" not in b.value:
                    continue
                joined = joined_onto(parse_expression(b.value))
                if joined is not None and isinstance(joined[0], ast.Name):
                    self._joins[b.name] = joined[0].id
        return self._joins


def _decided(tests: ParsedTests, name: str, may_be_false: bool, strict: bool = True) -> bool:
    """Whether the tests use the parameter only in ways its setting decides: compared with
    a literal or a constant (`is not None`, `== "round_robin"`, `in (A.X, A.Y)`), its type
    tested, tested for truth when the setting can be false or None, or the folder of a
    path tested for being there (then a truth test of a setting never false, `if
    model_path:`, holds and decides nothing against it). Compared with the
    program's own state (`self.indices.numel() != max_num_reqs`), computed with (`heads %
    tp_size`) or read further (`name.startswith(...)`), the setting alone does not say
    which way the test goes: it is not linked. Not `strict` (a validator's value): any use
    but a truth test or a type test."""
    found = pathed = truth_tested = False
    folders = {local for local, onto in tests.joins.items() if onto == name}
    for test in tests:
        parents = _parents(test)
        for node in walk(test):
            ident = _ident(node)
            if ident is None or not (ident == name or ident in folders):
                continue
            parent = parents.get(id(node))
            joined = joined_onto(parent) if ident == name else None
            if ident != name or (joined is not None and joined[0] is node):
                # a path in the folder the name gives: tested for being there, it is what
                # the user supplies in the folder they name; read any other way, it is not
                path = node if ident != name else parent
                tested = path_test(parents.get(id(path)))
                if tested is None or tested[0] is not path:
                    return False
                pathed = True
            elif parent is None or isinstance(parent, ast.BoolOp | ast.UnaryOp):
                if not may_be_false:
                    # a never-empty flag (`--model`) holds this test: the setting decides
                    # the check only where it names the folder of a path tested
                    truth_tested = True
                    continue
            elif isinstance(parent, ast.Call) and _called(parent) == "isinstance":
                # a validator's input is what the command line hands over (a string):
                # its type is no choice a user makes there
                if not strict:
                    return False
            elif not strict:
                pass
            elif isinstance(parent, ast.Compare):
                others = [parent.left, *parent.comparators]
                if not all(o is node or _constant(o) for o in others):
                    return False
            else:
                return False
            found = True
    return found and (pathed or not truth_tested)


def _sized(tests: ParsedTests, name: str) -> bool:
    """Whether the tests use a group's size only in ways the size flag decides: a
    remainder of it and another name, or it by another (`heads % tp_size`, `tp_size %
    groups`), and comparisons of it with literals (`tp_size <= 0`); at least one remainder.
    Read any other way (`tp_size * 2 > n`), the flag alone does not say which way it goes."""
    remainder = False
    for test in tests:
        parents = _parents(test)
        for node in walk(test):
            if not (isinstance(node, ast.Name) and node.id == name):
                continue
            parent = parents.get(id(node))
            if isinstance(parent, ast.BinOp) and isinstance(parent.op, ast.Mod):
                other = parent.right if parent.left is node else parent.left
                if not isinstance(other, ast.Name | ast.Attribute):
                    return False
                remainder = True
            elif isinstance(parent, ast.Compare):
                if not all(o is node or _constant(o) for o in (parent.left, *parent.comparators)):
                    return False
            else:
                return False
    return remainder


def _called(call: ast.Call) -> str:
    return call.func.id if isinstance(call.func, ast.Name) else ""


def _constant(node: ast.expr) -> bool:
    """A literal, a constant's name (`FLASHINFER_BACKENDS`), an enum member
    (`AttentionBackendEnum.FLASH_ATTN`), or a collection of those."""
    if isinstance(node, ast.Constant):
        return True
    if isinstance(node, ast.Tuple | ast.List | ast.Set):
        return all(_constant(e) for e in node.elts)
    if isinstance(node, ast.Name):
        return node.id.isupper()
    if isinstance(node, ast.Attribute):
        return node.attr.isupper() and isinstance(node.value, ast.Name | ast.Attribute)
    # a count of a name the function was given or made (`len(ids) > max_len`): a limit
    # the setting raises; not of the object's own state (`len(self.running)`)
    return (
        isinstance(node, ast.Call)
        and _called(node) == "len"
        and len(node.args) == 1
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id not in ("self", "cls")
    )
