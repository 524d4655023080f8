"""The command line a user types to reach a flag: console script, subcommand, positionals.

From the function that declares a flag (`EngineArgs.add_cli_args` adds `--enforce-eager`),
callers are followed up to a function that adds a subcommand (`ServeSubcommand.
subparser_init` adds "serve") or to a console script's own function. The positional
arguments declared on the way (`model_tag`) become placeholders for the user's values:
`vllm serve MODEL_TAG`. When several subcommands reach a flag, the one that reaches the
most flags of the version is the program's main command, and is chosen; a subcommand that
adds subcommands of its own (`vllm snapshot create`) only when no other reaches it.

A check in the class of a subcommand (`PreloadSubcommand.cmd`, whose `subparser_init`
adds "preload"), or in a function only its methods call, runs only on that subcommand's
line: a flag there is given to `vllm preload`, never to the main command that reaches more
flags, and a flag no path of that class declares has no line (the check never sees it
given). An environment variable read there is set for that line too.

Subcommands a loop adds over command classes (`for cmd_cls in Base.__subclasses__():`,
`add_parser(cmd_cls.name)`, `cmd_cls.add_cli_args(sub)`) are reached through the method the
loop hands the parser: from `BenchmarkThroughputSubcommand.add_cli_args` the walk takes the
word "throughput" and goes on from the loop's function, which adds "bench": nested levels
compose (`vllm bench sweep serve`).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable
from typing import NamedTuple

from errdex.extract.commands import metavar
from errdex.facts import ClassFact, FileFacts, FlagFact
from errdex.link.callers import CallerIndex
from errdex.sources.base import EntryPoint

Function = tuple[str, str]  # (module, qualname)

_MAX_DEPTH = 5
_MAX_SEEN = 400  # functions visited from one flag's declarations
_HANDLER_DEPTH = 2  # calls up from a check to a subcommand's own class
_HANDLER_CALLS = 8  # calls of one function followed up (a helper of many is no one's)


class _Reach(NamedTuple):
    """Where a walk up from a flag ends: a subcommand (or none, at the script's own
    function), its module, and the positionals declared on the way."""

    subcommand: str | None
    module: str
    positionals: tuple[str, ...]
    # False when the function adding the subcommand adds subcommands of its own under it
    # (`vllm snapshot create|inspect|restore`): the line lacks the word that picks one
    complete: bool = True
    # the flags argparse requires, declared on the way (`--serve-cmd SERVE_CMD`)
    required: tuple[str, ...] = ()
    # the functions walked through, from the flag's declaration up to where it ends
    path: tuple[Function, ...] = ()


class CommandIndex:
    """The commands of a version, for naming the command line behind each flag."""

    def __init__(
        self, files: list[FileFacts], callers: CallerIndex, entry_points: tuple[EntryPoint, ...]
    ) -> None:
        self._callers = callers
        self._scripts = [e for e in entry_points if e.group == "console_scripts"]
        self._origins: dict[str, list[Function]] = {}  # flag → functions declaring it
        # (flag, file) → the functions of that file declaring it
        self._origins_in: dict[tuple[str, str], list[Function]] = {}
        # functions that add the fields of their class as flags → how many fields
        self._computed: dict[Function, int] = {}
        # a field's flag (`--tool-call-parser`) → the methods of its arguments class that
        # add a flag of a computed name for each field (`f"--{key.replace('_', '-')}"`):
        # where a flag no call declares by name comes from
        self._computed_origins: dict[str, list[Function]] = {}
        self._subcommands: dict[Function, str] = {}
        # a command class's method a loop hands a subcommand's parser → the subcommand's
        # word and the loop's function
        self._looped: dict[Function, tuple[str, Function]] = {}
        self._nested: set[Function] = set()  # functions adding more than one subcommand
        # (module, class) of each class a method of which adds a subcommand (or is handed
        # one's parser by a loop): a subcommand's own class, whose methods run on its line
        self._commands_of: set[tuple[str, str]] = set()
        # functions adding a subcommand to a parser they build: programs of their own
        self._own_programs: set[Function] = set()
        self._scripted: dict[Function, bool] = {}
        self._positionals: dict[Function, list[FlagFact]] = {}
        self._required: dict[Function, list[FlagFact]] = {}  # required=True flags
        self._targets: dict[Function, EntryPoint] = {}
        for script in self._scripts:
            module, _, function = script.target.partition(":")
            if function:
                self._targets[(module, function)] = script
        for facts in files if self._scripts else ():
            for flag in facts.flags:
                if flag.function is not None:
                    where = (facts.module, flag.function)
                    self._origins.setdefault(flag.flag, []).append(where)
                    self._origins_in.setdefault((flag.flag, facts.path), []).append(where)
            fields = {c.qualname: c.fields for c in facts.classes if c.fields}
            for function in facts.computed_flags:
                owner = function.rpartition(".")[0]
                if fields.get(owner):
                    where = (facts.module, function)
                    self._computed[where] = len(fields[owner])
                    for field in fields[owner]:
                        named = "--" + field.replace("_", "-")
                        self._computed_origins.setdefault(named, []).append(where)
            for sub in facts.subcommands:
                where = (facts.module, sub.function)
                if sub.method:
                    # a loop's: resolved below, once every class is known; a line ending
                    # at this function lacks the word that picks one
                    self._nested.add(where)
                    continue
                if where in self._subcommands:
                    self._nested.add(where)
                if sub.own_parser:
                    self._own_programs.add(where)
                self._subcommands.setdefault(where, sub.name)
            for positional in facts.positionals:
                if positional.function is not None:
                    where = (facts.module, positional.function)
                    self._positionals.setdefault(where, []).append(positional)
            for flag in facts.flags:
                if flag.required and flag.function is not None:
                    self._required.setdefault((facts.module, flag.function), []).append(flag)
        if self._scripts:
            self._looped = _looped_subcommands(files)
        # a function → those handing it on by name (`Process(target=_run_daemon)`): the
        # call they make runs it, so their command line reaches it as through a call
        self._handed_by = _handed_by(files, callers) if self._scripts else {}
        for module, function in (*self._subcommands, *self._looped):
            owner, dot, _ = function.partition(".")
            if dot:
                self._commands_of.add((module, owner))
        self._reached: dict[str, list[_Reach]] = {}
        self._nested_lines: set[str] = set()
        self._walked: dict[Function, list[_Reach]] = {}
        self._popular: Counter[tuple[str | None, str]] | None = None
        self._main: tuple[str | None] | None = None
        self._handler_lines: dict[tuple[str, str], str | None] = {}
        self._handlers: dict[Function, tuple[str, str] | None] = {}
        self._called_up: dict[tuple[Function, tuple[str, str]], bool] = {}

    def command(
        self, flag: str, within: str | None = None, site: Function | None = None
    ) -> str | None:
        """`vllm serve MODEL_TAG` for `--enforce-eager`, or None when no script reaches it;
        with `within`, only from the declarations of that file (the program whose file
        reads the flag: another program's flag of the same name is not it); with `site`
        (the function of the check) in a subcommand's own class, only that subcommand's
        line (None when it does not take the flag)."""
        if within is not None and (flag, within) in self._origins_in:
            origins = self._origins_in[(flag, within)]
            reaches = [r for o in origins for r in self._walk(o)]
        else:
            origins, reaches = self._origins.get(flag, []), self._reach(flag)
        handler = self._handler(site)
        if handler is None:
            return self._best_line(reaches)
        through = [r for r in reaches if _through(r, handler)]
        if through:
            return self._best_line(through)
        # a walk passes a function once, so the loop adding the class's subcommand ends the
        # walk of the first class it hands a parser: a later one may still take the flag
        if any(self._calls_up_to(o, handler) for o in origins):
            return self._handler_line(handler)
        return None

    def site_command(self, site: Function) -> str | None:
        """The command an environment variable read at `site` is set for: the line of the
        subcommand whose own class the site is in, else the main command."""
        handler = self._handler(site)
        return self.main_command() if handler is None else self._handler_line(handler)

    def _handler_line(self, handler: tuple[str, str]) -> str | None:
        """The most popular complete line among the flags' walks through the class."""
        if handler not in self._handler_lines:
            reaches = [r for flag in self._origins for r in self._reach(flag)]
            self._handler_lines[handler] = self._best_line(
                [r for r in reaches if _through(r, handler)]
            )
        return self._handler_lines[handler]

    def _calls_up_to(self, origin: Function, handler: tuple[str, str]) -> bool:
        """Whether a method of the class `handler` calls `origin`, up the callers."""
        key = (origin, handler)
        found = self._called_up.get(key)
        if found is None:
            module, name = handler
            found = self._called_up[key] = self._up_callers(
                origin, lambda f: f[0] == module and f[1].startswith(f"{name}.")
            )
        return found

    def _up_callers(self, start: Function, hit: Callable[[Function], bool]) -> bool:
        """Whether `start` or a function up its callers (breadth first, as deep as a
        walk goes) is one `hit` takes."""
        level, seen = [start], {start}
        for _ in range(_MAX_DEPTH + 1):
            if any(hit(f) for f in level):
                return True
            following = []
            for function in level:
                for caller in self._callers.direct_callers(*function):
                    if caller not in seen and len(seen) < _MAX_SEEN:
                        seen.add(caller)
                        following.append(caller)
            level = following
        return False

    def _on_line(self, reaches: list[_Reach], site: Function | None) -> list[_Reach]:
        """`reaches`, for a `site` in a subcommand's own class only those through it."""
        handler = self._handler(site)
        return reaches if handler is None else [r for r in reaches if _through(r, handler)]

    def _handler(self, site: Function | None) -> tuple[str, str] | None:
        """(module, class) of the subcommand's own class `site` is a function of, or whose
        methods alone call it (`_validate_seed_args` of `PreloadSubcommand.cmd`), up to
        two calls away; None when another function, the module's own code, or no call
        found reaches it (the main command's line is kept)."""
        if site is None or not self._commands_of:
            return None
        if site not in self._handlers:
            self._handlers[site] = self._called_from(site, _HANDLER_DEPTH)
        return self._handlers[site]

    def _called_from(self, function: Function, depth: int) -> tuple[str, str] | None:
        """The subcommand's own class `function` is in, or the one class its every call is
        made from, `depth` calls up at most."""
        owner = (function[0], function[1].partition(".")[0])
        if owner in self._commands_of:
            return owner
        calls = self._callers.passing_calls(*function) if depth else ()
        handing = self._handed_by.get(function, []) if depth else []
        callers = [(facts.module, call.function) for call, facts in calls] + handing
        if not callers or len(callers) > _HANDLER_CALLS:
            return None
        handlers = set()
        for caller in callers:
            if caller[1] == "<module>" or caller == function:
                return None  # run at import, or by itself
            handler = self._called_from(caller, depth - 1)
            if handler is None:
                return None
            handlers.add(handler)
        return handlers.pop() if len(handlers) == 1 else None

    def _best_line(self, reaches: list[_Reach]) -> str | None:
        """The line of the complete reach of the most popular command, fewest positionals."""
        if not reaches:
            return None
        popular = self._popularity()
        best = max(
            reaches,
            key=lambda r: (r.complete, popular[(r.subcommand, r.module)], -len(r.positionals)),
        )
        return self._line(best)

    def computed_command(self, flag: str, site: Function | None = None) -> str | None:
        """`command(flag)`, or for a flag no call declares by name, the command reaching
        the method that adds its arguments class's fields by computed names
        (`--tool-call-parser` of `BaseFrontendArgs.add_cli_args`). Only for a fix that
        carries what reaches the check itself (a registry's name picking the code): a
        setting's fix from this command may lack the others its check needs."""
        found = self.command(flag, site=site)
        if found is not None:
            return found
        reaches = [r for o in self._computed_origins.get(flag, []) for r in self._walk(o)]
        return self._best_line(self._on_line(reaches, site))

    def nested(self, line: str) -> bool:
        """Whether the command line names a subcommand of a subcommand (`vllm bench
        serve`)."""
        return line in self._nested_lines

    def main_command(self) -> str | None:
        """The command that reaches the most flags (what an environment variable is set
        for), or the only console script when none is known."""
        if self._main is None:
            self._main = (self._find_main(),)
        return self._main[0]

    def _find_main(self) -> str | None:
        popular = self._popularity()
        if popular:
            # the command reaching the most flags whose line is complete, if one is
            lines: dict[tuple[str | None, str], _Reach] = {}
            for flag in self._origins:
                for reach in self._reach(flag):
                    lines.setdefault((reach.subcommand, reach.module), reach)
            ranked = [lines[key] for key, _ in popular.most_common() if key in lines]
            if ranked:
                return self._line(next((r for r in ranked if r.complete), ranked[0]))
        if len(self._scripts) == 1:
            return self._scripts[0].name
        return None

    def _popularity(self) -> Counter[tuple[str | None, str]]:
        """How many flags each command reaches: those declared by name, and the fields of
        an arguments class whose method adds them by computed names."""
        if self._popular is None:
            self._popular = Counter()
            for flag in self._origins:
                for key in {(r.subcommand, r.module) for r in self._reach(flag)}:
                    self._popular[key] += 1
            for origin, count in self._computed.items():
                for key in {(r.subcommand, r.module) for r in self._walk(origin)}:
                    self._popular[key] += count
        return self._popular

    def _line(self, reach: _Reach) -> str | None:
        script = self._script_for(reach.module)
        if script is None:
            return None
        words = [script.name]
        if reach.subcommand:
            words.append(reach.subcommand)
        words.extend(p.upper() for p in reach.positionals)
        words.extend(reach.required)
        line = " ".join(words)
        if reach.subcommand and " " in reach.subcommand:
            self._nested_lines.add(line)
        return line

    def _script_for(self, module: str) -> EntryPoint | None:
        """The console script of the same package as `module`: the longest shared prefix."""
        best: EntryPoint | None = None
        best_shared = 0
        parts = module.split(".")
        for script in self._scripts:
            theirs = script.target.partition(":")[0].split(".")
            shared = 0
            for mine, other in zip(parts, theirs, strict=False):
                if mine != other:
                    break
                shared += 1
            if shared > best_shared:
                best, best_shared = script, shared
        return best

    def _reach(self, flag: str) -> list[_Reach]:
        found = self._reached.get(flag)
        if found is not None:
            return found
        found = []
        for origin in self._origins.get(flag, []):
            found.extend(self._walk(origin))
        self._reached[flag] = found
        return found

    def _walk(self, origin: Function) -> list[_Reach]:
        """Up the callers from `origin`, breadth first; a path ends at a subcommand or at a
        console script's function."""
        found = self._walked.get(origin)
        if found is None:
            found = self._walked[origin] = self._walk_up(origin)
        return found

    def _walk_up(self, origin: Function) -> list[_Reach]:
        out: list[_Reach] = []
        # a function, the path to it, and the words of the looped subcommands passed, inner
        # last
        level: list[tuple[Function, tuple[Function, ...], tuple[str, ...]]] = [
            (origin, (origin,), ())
        ]
        seen = {origin}
        for _ in range(_MAX_DEPTH + 1):
            following: list[tuple[Function, tuple[Function, ...], tuple[str, ...]]] = []
            for function, path, words in level:
                name = self._subcommands.get(function)
                if name is not None and not self._script_program(function):
                    continue  # another program's subcommand (a script run by itself)
                if name is not None or function in self._targets:
                    positionals = self._path_positionals(path)
                    complete = function not in self._nested or bool(words)
                    line = " ".join(w for w in (name, *words) if w) or None
                    required = self._path_required(path)
                    out.append(_Reach(line, function[0], positionals, complete, required, path))
                    continue
                looped = self._looped.get(function)
                if looped is not None:
                    word, loop = looped
                    if loop not in seen:
                        seen.add(loop)
                        following.append((loop, (*path, loop), (word, *words)))
                    continue
                for caller in self._callers.direct_callers(*function):
                    if caller not in seen and len(seen) < _MAX_SEEN:
                        seen.add(caller)
                        following.append((caller, (*path, caller), words))
            level = following
            if not level:
                break
        return out

    def _script_program(self, function: Function) -> bool:
        """Whether a function adding a subcommand belongs to a console script: it adds it
        to a parser handed to it (`subparser_init(self, subparsers)`), or it builds its own
        parser and is a script's function or called from one (a vendored tool's `main()`
        that builds its parser is a program of its own: `vllm benchmark` is no command)."""
        if function not in self._own_programs:
            return True
        known = self._scripted.get(function)
        if known is None:
            known = self._scripted[function] = self._up_callers(
                function, lambda f: f in self._targets
            )
        return known

    def _path_positionals(self, path: tuple[Function, ...]) -> tuple[str, ...]:
        """The positional arguments declared along the path, outermost first."""
        names: list[str] = []
        for function in reversed(path):
            for positional in self._positionals.get(function, []):
                if positional.flag not in names:
                    names.append(positional.flag)
        return tuple(names)

    def _path_required(self, path: tuple[Function, ...]) -> tuple[str, ...]:
        """The flags argparse requires declared along the path, each with the user's value
        named (`--serve-cmd SERVE_CMD`): without them the line does not parse."""
        given: list[str] = []
        for function in reversed(path):
            for flag in self._required.get(function, []):
                form = flag.flag if flag.bare else f"{flag.flag} {metavar(flag.flag)}"
                if form not in given:
                    given.append(form)
        return tuple(given)


def _through(reach: _Reach, owner: tuple[str, str]) -> bool:
    """Whether the walk of `reach` passed a method of the class `owner` (module, class)."""
    module, name = owner
    return any(m == module and f.startswith(f"{name}.") for m, f in reach.path)


def _handed_by(files: list[FileFacts], callers: CallerIndex) -> dict[Function, list[Function]]:
    """Each function of the version → the functions passing it as an argument without
    calling it (`FileFacts.handed`), the name resolved as a call of it would be."""
    out: dict[Function, list[Function]] = {}
    for facts in files:
        for function, names in facts.handed.items():
            for name in names:
                for target in callers.named(facts, name, function):
                    out.setdefault(target, []).append((facts.module, function))
    return out


def _looped_subcommands(files: list[FileFacts]) -> dict[Function, tuple[str, Function]]:
    """For each loop adding subcommands over command classes, each class's method the loop
    hands the parser → the class's word and the loop's function. A class is found by its
    name among the version's classes (the subclasses of a base: by the base's last name)."""
    loops = [(f.module, s) for f in files for s in f.subcommands if s.method]
    if not loops:
        return {}
    by_name: dict[str, list[tuple[str, ClassFact]]] = {}
    by_base: dict[str, list[tuple[str, ClassFact]]] = {}
    for facts in files:
        for cls in facts.classes:
            if not cls.names:
                continue
            by_name.setdefault(cls.name, []).append((facts.module, cls))
            for base in cls.bases:
                by_base.setdefault(base.rpartition(".")[2], []).append((facts.module, cls))
    found: dict[Function, tuple[str, Function]] = {}
    for module, loop in loops:
        if loop.base:
            members = by_base.get(loop.base.rpartition(".")[2], [])
        else:
            members = [m for name in loop.classes for m in by_name.get(name, [])]
        for owner, cls in members:
            word = cls.names.get(loop.attr)
            if word and loop.method in cls.methods:
                found.setdefault(
                    (owner, f"{cls.qualname}.{loop.method}"), (word, (module, loop.function))
                )
    return found
