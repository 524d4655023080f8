"""Ways out that end where the path already ends: the same failure by another road.

Each shape turns a test of the path the other way, and each leaves the user no better off:
- an item skipped in a loop whose running out is the failure: in vllm's kernel selection
  (`for kernel_cls in possible: if name in DISABLED: continue ... return kernel_cls(config)`,
  then a raise), listing a kernel that failed a later test as disabled only skips it by
  another `continue`; the loop still runs out;
- a block skipped (an argument emptied, an exit taken) that assigns an attribute the class
  raises without elsewhere (`if model_path: ... self.audio_tokenizer = ...` beside
  `if self.audio_tokenizer is None: raise RuntimeError("audio_tokenizer is not loaded")`);
- a part of the guard turned so that the function returns a value its callers refuse
  (click's `resolve_command` with `ctx.resilient_parsing` true returns no command, and both
  callers `assert cmd is not None`);
- a branch that returns at once what a warning gives up (vllm's `use_v2_model_runner`:
  HiSparse configured returns True before `if not HAS_TRITON: warn(...); return False`):
  it forces what the warning fell back from, on the same host that lacks what it needs;
- a branch that makes the same call and checks its result the same way (click's
  `MultiCommand.invoke`: `if not self.chain:` resolves the command and `assert cmd is not
  None`; chain mode, after it, resolves each command with the same call and asserts the
  same): the check the site fails stands on the other branch too.
Only what the function's own code (and, for a returned value, its callers in the same file)
says decides: an unknown value is no evidence.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from errdex.ast_walk import walk
from errdex.explain.context import Facts, function_at
from errdex.explain.item_fields import own_init
from errdex.explain.knob_actions import knob_action
from errdex.explain.none_goes_on import none_goes_on
from errdex.explain.page import ConditionView
from errdex.explain.plain import code
from errdex.explain.refused_ways import KnownValues, if_in, stored
from errdex.extract.conditions import dotted_name
from errdex.extract.shapes import is_none
from errdex.facts import BRANCH_KINDS, ConditionKind, SiteKind
from errdex.link.expression_texts import parse_expression

__all__ = ["dead_end", "not_offered", "repeats_check", "returns_refused", "warning_alone"]

_LOOPS = (ast.For, ast.AsyncFor, ast.While)
# a test of `self.X` unset, as the text mostly writes it (`_unset`'s shapes)
_UNSET_FORMS = ("self.{} is None", "not self.{}", "self.{} == None")


def dead_end(condition: ConditionView, facts: Facts) -> bool:
    """Whether the way out of `condition` (its test turned the other way) ends in the same
    failure: a skipped item of a loop that runs out, a skipped block whose attribute the
    class requires."""
    if condition.kind not in BRANCH_KINDS:
        return False
    key = f"dead_end:{condition.line}:{condition.holds}"
    return facts.once(key, lambda: _dead_end(condition, facts))


def _guard_of(condition: ConditionView, facts: Facts) -> tuple[ast.FunctionDef, ast.If] | None:
    """The site function and the `if` whose test is the condition's, when it reads them
    (once a page: `dead_end`, `half_built` and `warning_alone` each ask)."""
    key = f"guard_of:{condition.line}:{condition.test}"
    return facts.once(key, lambda: _find_guard(condition, facts))


def _find_guard(condition: ConditionView, facts: Facts) -> tuple[ast.FunctionDef, ast.If] | None:
    function = facts.site_function()
    guard = if_in(function, condition.line) if function is not None else None
    test = parse_expression(condition.test)
    if function is None or guard is None or test is None:
        return None
    return (function, guard) if ast.dump(guard.test) == ast.dump(test) else None


def _dead_end(condition: ConditionView, facts: Facts) -> bool:
    found = _guard_of(condition, facts)
    if found is None:
        return False
    function, guard = found
    taken = _taken(guard, condition)
    return (
        _skips_item(function, guard, taken, facts)
        or _skips_setup(function, guard, condition, taken, facts)
        or half_built(condition, facts)
        or forces_given_up(condition, facts) is not None
    )


def forces_given_up(condition: ConditionView, facts: Facts) -> tuple[int, bool, int] | None:
    """Where the way out of `condition` returns at once what the site's warning gives up
    (`_forces_given_up`): the line of that return, the value, and the line where the
    warning's branch returns the other; None elsewhere."""
    if condition.kind not in BRANCH_KINDS:
        return None
    if facts.stored.site.kind not in (SiteKind.LOG, SiteKind.WARN):
        return None

    def made() -> tuple[int, bool, int] | None:
        found = _guard_of(condition, facts)
        if found is None:
            return None
        function, guard = found
        taken = _taken(guard, condition)
        return _forces_given_up(function, taken, facts)

    return facts.once(f"forces_given_up:{condition.line}:{condition.holds}", made)


def _forces_given_up(
    function: ast.FunctionDef, taken: list[ast.stmt], facts: Facts
) -> tuple[int, bool, int] | None:
    """A warning that gives something up (`warn("X requires Triton; using V1 instead");
    return False`), where the way out's branch refuses the user's opting out and returns
    the other truth (`if hisparse is not None: if opted_out: raise ...; return True`): it
    turns on what the warning gave up, on the same host without what it requires, past the
    test that gave it up."""
    if len(taken) < 2 or not isinstance(taken[-1], ast.Return):
        return None
    if not all(_only_refuses(s) for s in taken[:-1]):
        return None  # the branch does work of its own (another road), not a bare answer
    # only a branch that first refuses the user's choosing otherwise forces its answer: a
    # bare `return True` is as often the check passed (`if fits: return True`), or
    # nothing to do (`if not items: return True`), as something forced
    forced = _truth(taken[-1].value)
    if forced is None:
        return None
    line = facts.stored.site.line
    for node in walk(function):
        for field in ("body", "orelse"):
            block = getattr(node, field, None)
            if not isinstance(block, list):
                continue
            at = [
                i for i, s in enumerate(block) if isinstance(s, ast.stmt) and _holds_line(s, line)
            ]
            if not at or isinstance(block[at[0]], (ast.If, *_LOOPS, ast.Try, ast.With)):
                continue
            after = block[at[0] + 1 :]
            if after and isinstance(after[0], ast.Return):
                given_up = _truth(after[0].value) is (not forced)
                return (taken[-1].lineno, forced, after[0].lineno) if given_up else None
    return None


def _only_refuses(statement: ast.stmt) -> bool:
    """`if test: raise ...` with no `else`: a check, no work."""
    return (
        isinstance(statement, ast.If)
        and not statement.orelse
        and all(isinstance(s, ast.Raise) for s in statement.body)
    )


def _truth(value: ast.expr | None) -> bool | None:
    return (
        value.value if isinstance(value, ast.Constant) and isinstance(value.value, bool) else None
    )


def half_built(condition: ConditionView, facts: Facts) -> bool:
    """Whether the way out of `condition` is `__init__` left before it sets what the
    class's other methods read (`_half_built`)."""
    if condition.kind is not ConditionKind.EARLY_EXIT:
        return False

    def made() -> bool:
        found = _guard_of(condition, facts)
        return found is not None and _half_built(found[0], found[1], condition, facts)

    return facts.once(f"half_built:{condition.line}:{condition.holds}", made)


def not_offered(conditions: list[ConditionView], facts: Facts) -> tuple[list[str], bool]:
    """Of `conditions` (when the check applies), why an argument the user passes is no way
    out where the page left it out as only hiding a warning of a branch that goes on the
    same way (`warning_alone`, asked by `inputs.input_action`), and whether any of them was
    left out as such, as `__init__` left half built (`half_built`) or as forcing what the
    warning gives up (`forces_given_up`, said with its lines). Either way the page cannot
    claim that no setting or argument is behind the check."""
    said = []
    dropped = False
    for condition in conditions:
        # read, not asked: a line kept there is a test `input_action` left out as such
        line = facts.memo.get(_alone_key(condition))
        if line is None:
            continue
        dropped = True
        if _call_result(condition):
            # a call that failed (`if not unregister(ptr): warn(...)`) is what the warning
            # reports, not a switch that only hides it: nothing more is said of it
            continue
        words = condition.plain or code(condition.text)
        said.append(
            f"The other way of “{words}” (line {condition.line}) is no way out: it only "
            f"hides this warning, and the branch ends at line {line} the same either way."
        )
    for condition in conditions:
        forced = forces_given_up(condition, facts)
        if forced is None:
            continue
        dropped = True
        at, value, given_up = forced
        words = condition.plain or code(condition.text)
        said.append(
            f"The other way of “{words}” (line {condition.line}) is no way out: the function "
            f"then returns {code(str(value))} at line {at}, what this warning gives up by "
            f"returning {code(str(not value))} at line {given_up}; it forces that before the "
            "test that gives it up."
        )
    for condition in conditions:
        used = none_goes_on(condition, facts)
        if used is None or knob_action(condition, facts.knobs) is None:
            continue  # said only where a setting's way out was left out for it
        dropped = True
        words = condition.plain or code(condition.text)
        said.append(
            f"The other way of “{words}” (line {condition.line}) is no way out: it only skips "
            f"this check, and the function goes on to use {code(used[0])} at line {used[1]}."
        )
    dropped = dropped or any(half_built(c, facts) for c in conditions)
    return said, dropped


def _call_result(condition: ConditionView) -> bool:
    """The test is a call's result itself (`not f(x)`, `f(x)`)."""
    node = parse_expression(condition.text)
    while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        node = node.operand
    return isinstance(node, ast.Call)


def _skips_item(
    function: ast.FunctionDef, guard: ast.If, taken: list[ast.stmt], facts: Facts
) -> bool:
    """The branch ends in `continue` of a loop the function returns from inside (the site
    is past it and reached only when it runs out, `ConditionKind.NO_MATCH`): skipping the
    item is one more item that failed."""
    if not taken or not isinstance(taken[-1], ast.Continue):
        return False
    if any(isinstance(n, ast.Return | ast.Break) for s in taken for n in walk(s)):
        return False  # a way through the branch that leaves the loop: no sure skip
    loops = [
        n
        for n in walk(function)
        if isinstance(n, _LOOPS) and n.lineno < guard.lineno <= (n.end_lineno or n.lineno)
    ]
    if not loops:
        return False
    loop = max(loops, key=lambda n: n.lineno)  # the one the `continue` goes on with
    ran_out = any(
        c.kind is ConditionKind.NO_MATCH and c.line == loop.lineno for c in facts.conditions
    )
    return ran_out and facts.stored.site.line > (loop.end_lineno or loop.lineno)


def _skips_setup(
    function: ast.FunctionDef,
    guard: ast.If,
    condition: ConditionView,
    taken: list[ast.stmt],
    facts: Facts,
) -> bool:
    """The way out skips code that assigns `self.X` (the block the path runs, or for an
    exit taken the rest of the function), and another method of the class raises when
    `self.X` is unset: the failure comes back at the first use."""
    if condition.kind is ConditionKind.EARLY_EXIT:
        if not taken or not isinstance(taken[-1], ast.Return | ast.Raise):
            return False
        skipped = _after_exit(function, guard)
    else:
        skipped = guard.body if condition.holds else guard.orelse
    if not any(_holds_line(s, facts.stored.site.line) for s in skipped):
        return False
    made = _self_attributes(skipped) - _self_attributes(taken)
    # the file's text first: an attribute no test finds unset needs no class parsed
    text = facts.source_text or ""
    made = {a for a in made if any(form.format(a) in text for form in _UNSET_FORMS)}
    if not made:
        return False
    owner = facts.own_class()
    if owner is None:
        return False
    return any(
        _unset_before(owner, function, guard, attr) and _required(owner, function, attr)
        for attr in made
    )


def _half_built(
    function: ast.FunctionDef, guard: ast.If, condition: ConditionView, facts: Facts
) -> bool:
    """The way out is a bare `return` of `__init__` taken before the code that sets the
    object's attributes (`self.x = ...`, `setattr(self, key, ...)`), where the class gives
    them no value of its own and another method reads them (`self.x`, `getattr(self,
    key)`): the object is left without them, and its first use fails on the attribute."""
    if function.name != "__init__":
        return False
    taken = _taken(guard, condition)
    if not taken or not _bare_return(taken[-1]) or guard not in function.body:
        return False
    skipped = _after_exit(function, guard)  # as `_skips_setup` reads an exit's
    if not any(_holds_line(s, facts.stored.site.line) for s in skipped):
        return False
    made, dynamic = _attributes_made(skipped)
    at = function.body.index(guard)
    before, before_dynamic = _attributes_made([*function.body[:at], *taken])
    if before_dynamic:
        return False
    owner = facts.own_class()
    if owner is None or _defines(owner, "__getattr__"):
        return False
    missing = made - before - _class_values(owner)
    methods = [
        m
        for m in owner.body
        if isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name != "__init__"
    ]
    for method in methods:
        for node in walk(method):
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Load)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and node.attr in missing
            ):
                return True
            if dynamic and _getattr_of_self(node):
                return True
    return False


def warning_alone(condition: ConditionView, facts: Facts) -> bool:
    """Whether the condition's `if` holds a warning alone and sits in the branch of an outer
    `if` that then gives up (`if not in_session: if not state.deleted and operation is not
    None: warn("Object ... not in session, ... will not proceed"); return False`): the
    branch gives up whatever the inner test is, and the test only picks when to tell.
    An argument turned so that it fails hides the warning and avoids nothing; a setting
    the user gave to ask for what is given up (a request's `watermarking: true`) is read
    by the rules of settings, not here."""
    site = facts.stored.site
    if site.kind not in (SiteKind.LOG, SiteKind.WARN):
        return False
    if condition.kind not in BRANCH_KINDS or not condition.holds:
        return False
    return facts.once(_alone_key(condition), lambda: _warning_alone(condition, facts)) is not None


def _alone_key(condition: ConditionView) -> str:
    return f"warning_alone:{condition.line}"


def _warning_alone(condition: ConditionView, facts: Facts) -> int | None:
    """The shape `warning_alone` reads: the site alone under the condition's `if` (no
    `else`), that `if` in the body of an outer `if` whose last statement, after it, exits
    (its line, or None)."""
    found = _guard_of(condition, facts)
    if found is None:
        return None
    function, guard = found
    alone = len(guard.body) == 1 and _holds_line(guard.body[0], facts.stored.site.line)
    if guard.orelse or not alone:
        return None
    outer = next(
        (n for n in walk(function) if isinstance(n, ast.If) and any(s is guard for s in n.body)),
        None,
    )
    if outer is None:
        return None
    after = outer.body[[id(s) for s in outer.body].index(id(guard)) + 1 :]
    return after[-1].lineno if after and _gives_up(after[-1]) else None


def repeats_check(condition: ConditionView, facts: Facts) -> bool:
    """Whether the branch the way out of `condition` takes checks the same value, made the
    same way, as the site does (`_repeats_check`): its other branch fails as well."""
    if condition.kind not in BRANCH_KINDS:
        return False

    def made() -> bool:
        found = _guard_of(condition, facts)
        return found is not None and _repeats_check(found[0], found[1], condition, facts)

    return facts.once(f"repeats_check:{condition.line}:{condition.holds}", made)


def _repeats_check(
    function: ast.FunctionDef, guard: ast.If, condition: ConditionView, facts: Facts
) -> bool:
    """The branch the way out takes (for an `if` without `else` whose body exits, what
    follows the `if`) holds the site's own check, the same test, on values assigned there
    by the same statements as in the site's branch (`cmd_name, cmd, args =
    self.resolve_command(ctx, args)`, then `assert cmd is not None`): the same input fails
    it there. The copy counts only where the branch surely reaches it: in its own block or
    a `with`, loop or `try` body in it, not under another `if`; a test reading what the
    guard tests is changed by the way out, and is no copy."""
    skipped = guard.body if condition.holds else guard.orelse
    taken = _taken(guard, condition)
    if not taken and _exits(skipped):
        taken = _after_in_block(function, guard)
    check = _site_check(skipped, facts.stored.site.line)
    if check is None or not taken:
        return False
    read = {n.id for n in walk(check.test) if isinstance(n, ast.Name)}
    if not read or read & {n.id for n in walk(guard.test) if isinstance(n, ast.Name)}:
        return False
    shape = _refused_test(check)
    twin = next((s for s in _reached(taken) if _is_check(s) and _refused_test(s) == shape), None)
    if twin is None:
        return False
    before = [s for s in _statements(skipped) if s.lineno < check.lineno]
    again = [s for s in _statements(taken) if s.lineno < twin.lineno]
    # each name the check reads, and each the statements making them read in turn
    # (`grid = item.data` is the same line in both branches, `item = data.get(KEY)` not)
    pending, seen = list(read), set(read)
    while pending:
        name = pending.pop()
        made = [s for s in before if name in _own_stores(s)]
        remade = [s for s in again if name in _own_stores(s)]
        if bool(made) != bool(remade):
            return False  # a value the one branch makes and the other does not
        if made and ast.dump(made[-1]) != ast.dump(remade[-1]):
            return False
        for node in walk(made[-1]) if made else ():
            if isinstance(node, ast.Name) and node.id not in seen:
                seen.add(node.id)
                pending.append(node.id)
    return True


def _site_check(block: list[ast.stmt], line: int) -> ast.Assert | ast.If | None:
    """The innermost `assert` holding `line`, or `if` whose body raises at it, in `block`."""
    found: list[ast.Assert | ast.If] = []
    for statement in _statements(block):
        if (isinstance(statement, ast.Assert) and _holds_line(statement, line)) or (
            isinstance(statement, ast.If)
            and _is_check(statement)
            and _holds_line(statement.body[0], line)
        ):
            found.append(statement)
    return max(found, key=lambda s: s.lineno) if found else None


def _is_check(statement: ast.stmt) -> bool:
    """An `assert`, or an `if` (no `else`) whose body opens with a `raise`."""
    if isinstance(statement, ast.Assert):
        return True
    return (
        isinstance(statement, ast.If)
        and not statement.orelse
        and bool(statement.body)
        and isinstance(statement.body[0], ast.Raise)
    )


def _refused_test(check: ast.stmt) -> str:
    """What a check refuses, as the dump of a test that holds when it fails: `not (T)` of
    `assert T`, the `if`'s own test of a raise (message and exception aside: the same
    input fails either)."""
    if isinstance(check, ast.Assert):
        return ast.dump(ast.UnaryOp(op=ast.Not(), operand=check.test))
    return ast.dump(check.test) if isinstance(check, ast.If) else ""


_PLAIN_BLOCKS = (ast.With, ast.AsyncWith, *_LOOPS, ast.Try)


def _reached(block: list[ast.stmt]) -> Iterator[ast.stmt]:
    """The statements of `block` and of the `with`, loop and `try` bodies in it: those
    the block runs without another test picking them (a loop's first turn)."""
    for statement in block:
        yield statement
        if isinstance(statement, _PLAIN_BLOCKS):
            yield from _reached(statement.body)


def _statements(block: list[ast.stmt]) -> Iterator[ast.stmt]:
    """Every statement in `block`, nested ones too (not those of a nested `def`)."""
    for statement in block:
        yield statement
        if isinstance(statement, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            continue
        for field in ("body", "orelse", "finalbody"):
            inner = getattr(statement, field, None)
            if isinstance(inner, list):
                yield from _statements(inner)
        for handler in getattr(statement, "handlers", []):
            yield from _statements(handler.body)


def _own_stores(statement: ast.stmt) -> set[str]:
    """The names a statement itself binds (its targets, a loop's, a `with`'s `as`)."""
    targets: list[ast.expr] = []
    if isinstance(statement, ast.Assign):
        targets = statement.targets
    elif isinstance(statement, ast.AnnAssign | ast.AugAssign | ast.For | ast.AsyncFor):
        targets = [statement.target]
    elif isinstance(statement, ast.With | ast.AsyncWith):
        targets = [i.optional_vars for i in statement.items if i.optional_vars is not None]
    return {
        n.id
        for t in targets
        for n in walk(t)
        if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }


def _exits(block: list[ast.stmt]) -> bool:
    """The block ends in a `return` or `raise` (also as the last of a `with` body)."""
    if not block:
        return False
    last = block[-1]
    if isinstance(last, ast.With | ast.AsyncWith):
        return _exits(last.body)
    return isinstance(last, ast.Return | ast.Raise)


def _after_in_block(function: ast.FunctionDef, guard: ast.If) -> list[ast.stmt]:
    """The statements after `guard` in the block that holds it."""
    for node in walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and any(s is guard for s in block):
                return block[[id(s) for s in block].index(id(guard)) + 1 :]
    return []


def _after_exit(function: ast.FunctionDef, guard: ast.If) -> list[ast.stmt]:
    """The function's statements after `guard`: what an exit taken in it skips."""
    end = guard.end_lineno or guard.lineno
    return [s for s in function.body if getattr(s, "lineno", 0) > end]


def _taken(guard: ast.If, condition: ConditionView) -> list[ast.stmt]:
    """The branch of `guard` the way out of `condition` takes."""
    return guard.orelse if condition.holds else guard.body


def _gives_up(statement: ast.stmt) -> bool:
    """`return`, `return None`, `return False`, `continue`, `break`: nothing done."""
    if isinstance(statement, ast.Continue | ast.Break):
        return True
    if not isinstance(statement, ast.Return):
        return False
    value = statement.value
    return value is None or (isinstance(value, ast.Constant) and value.value in (None, False))


def _bare_return(statement: ast.stmt) -> bool:
    return isinstance(statement, ast.Return) and (
        statement.value is None or is_none(statement.value)
    )


def _attributes_made(block: list[ast.stmt]) -> tuple[set[str], bool]:
    """The `self.X` a block assigns, and whether it sets one by a computed name
    (`setattr(self, key, value)`)."""
    named = _self_attributes(block)
    dynamic = False
    for statement in block:
        for node in walk(statement):
            if (
                isinstance(node, ast.Call)
                and isinstance(node.func, ast.Name)
                and node.func.id == "setattr"
                and len(node.args) == 3
                and isinstance(node.args[0], ast.Name)
                and node.args[0].id == "self"
            ):
                key = node.args[1]
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    named.add(key.value)
                else:
                    dynamic = True
    return named, dynamic


def _defines(owner: ast.ClassDef, name: str) -> bool:
    return any(
        isinstance(m, ast.FunctionDef | ast.AsyncFunctionDef) and m.name == name for m in owner.body
    )


def _class_values(owner: ast.ClassDef) -> set[str]:
    """The names the class body gives a value (`x = 0`, `x: int = 0`): an instance without
    its own still reads them."""
    found: set[str] = set()
    for statement in owner.body:
        if isinstance(statement, ast.Assign):
            found |= {t.id for t in statement.targets if isinstance(t, ast.Name)}
        elif (
            isinstance(statement, ast.AnnAssign)
            and statement.value is not None
            and isinstance(statement.target, ast.Name)
        ):
            found.add(statement.target.id)
    return found


def _getattr_of_self(node: ast.AST) -> bool:
    """`getattr(self, key)` with no default: it raises for an attribute never set."""
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) == 2
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
        and node.args[0].id == "self"
    )


def _holds_line(statement: ast.stmt, line: int) -> bool:
    return statement.lineno <= line <= (statement.end_lineno or statement.lineno)


def _self_attributes(block: list[ast.stmt]) -> set[str]:
    """The `self.X` a block assigns (anywhere in it)."""
    return {
        name.removeprefix("self.")
        for statement in block
        for name in stored(statement)
        if name.startswith("self.") and name.count(".") == 1
    }


def _required(owner: ast.ClassDef, function: ast.FunctionDef, attr: str) -> bool:
    """Whether a public method of the class raises when `self.attr` is None or empty (`if
    self.attr is None: raise RuntimeError("... is not loaded")`): a use of what the
    skipped code sets. An `assert` (often only for a type checker) or a private helper's
    check (called only in the mode that set it) is no such use."""
    target = f"self.{attr}"
    for method in owner.body:
        if not isinstance(method, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        if method.lineno == function.lineno or method.name.startswith("_"):
            continue
        for node in walk(method):
            if (
                isinstance(node, ast.If)
                and _raising_if(node)
                and any(_unset(part, target) for part in _either(node.test))
            ):
                return True
    return False


def _unset_before(owner: ast.ClassDef, function: ast.FunctionDef, guard: ast.If, attr: str) -> bool:
    """Whether `self.attr` is None when the skipped code does not run: the function sets it
    None before the guard (`self.audio_tokenizer = None`), or the class's `__init__` does."""
    target = f"self.{attr}"
    places = [s for s in function.body if s.lineno < guard.lineno]
    init = own_init(owner)
    if init is not None and init.lineno != function.lineno:
        places += init.body
    for statement in places:
        if isinstance(statement, ast.Assign) and len(statement.targets) == 1:
            target_node: ast.expr = statement.targets[0]
            value = statement.value
        elif isinstance(statement, ast.AnnAssign) and statement.value is not None:
            target_node, value = statement.target, statement.value
        else:
            continue
        if dotted_name(target_node) == target and is_none(value):
            return True
    return False


def _either(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.Or):
        return list(test.values)
    return [test]


def _both(test: ast.expr) -> list[ast.expr]:
    if isinstance(test, ast.BoolOp) and isinstance(test.op, ast.And):
        return list(test.values)
    return [test]


def _unset(part: ast.expr, target: str, negated: bool = False) -> bool:
    """`target is None` or `not target` (with `negated`: `target is not None`, `target`)."""
    if negated:
        if dotted_name(part) == target:
            return True
        return (
            isinstance(part, ast.Compare)
            and len(part.ops) == 1
            and isinstance(part.ops[0], ast.IsNot)
            and dotted_name(part.left) == target
            and is_none(part.comparators[0])
        )
    if isinstance(part, ast.UnaryOp) and isinstance(part.op, ast.Not):
        return dotted_name(part.operand) == target
    return (
        isinstance(part, ast.Compare)
        and len(part.ops) == 1
        and isinstance(part.ops[0], ast.Is | ast.Eq)
        and dotted_name(part.left) == target
        and is_none(part.comparators[0])
    )


def returns_refused(part: ast.expr, condition: ConditionView, facts: Facts) -> bool:
    """Whether making `part` of the guard's `and` false (its other parts held as the path
    holds them) lets the function go on to return a value surely None where each of its
    callers in the same file rejects it (`assert cmd is not None`, `if cmd is None:
    raise`): the way out fails one call up."""
    test = parse_expression(condition.test)
    function = facts.site_function()
    if not (
        condition.kind is ConditionKind.IF
        and condition.holds
        and function is not None
        and isinstance(test, ast.BoolOp)
        and isinstance(test.op, ast.And)
    ):
        return False
    guard = next((s for s in function.body if s.lineno == condition.line), None)
    if not isinstance(guard, ast.If) or guard.orelse:
        return False
    at = function.body.index(guard)
    following = function.body[at + 1] if at + 1 < len(function.body) else None
    if not isinstance(following, ast.Return) or following.value is None:
        return False
    known = KnownValues({})  # the part itself is not learned: the way out turns it
    for other in test.values:
        if other is not part and ast.dump(other) != ast.dump(part):
            known.learn(other, True)  # an `and` that held: each of its parts held
    for held in facts.conditions:
        node = parse_expression(held.test)
        if node is not None and held is not condition:
            known.learn(node, held.holds)
    value = following.value
    elements = value.elts if isinstance(value, ast.Tuple) else [value]
    empty = {i for i, e in enumerate(elements) if _surely_none(e, known)}
    if not empty:
        return False
    return _callers_refuse(facts, empty, isinstance(value, ast.Tuple))


def _surely_none(node: ast.expr, known: KnownValues) -> bool:
    if is_none(node):
        return True
    if isinstance(node, ast.IfExp):
        truth = known.truth_of(node.test)
        if truth is None:
            return False
        return _surely_none(node.body if truth else node.orelse, known)
    if dotted_name(node) is None:
        return False
    check = ast.Compare(left=node, ops=[ast.Is()], comparators=[ast.Constant(None)])
    return known.truth_of(check) is True


def _callers_refuse(facts: Facts, empty: set[int], unpacked: bool) -> bool:
    """Whether every direct caller (each in the site's file) checks a surely-None result
    right after its call and raises on it; at least one call is read."""
    callers = [c for c in facts.callers if c.depth == 1]
    if not callers or facts.source_text is None:
        return False
    name = facts.stored.site.function.rpartition(".")[2]
    seen = 0
    for caller in callers:
        if caller.file != facts.stored.file:
            return False  # another file: not read here
        outer = function_at(facts.source_text, caller.function.rpartition(".")[2], caller.line)
        if outer is None:
            return False
        refused: set[int] = set()  # the calls whose result is refused right after
        for block in _blocks(outer):
            for at, statement in enumerate(block):
                names = _result_names(statement, name, empty, unpacked)
                if names is None:
                    continue
                following = block[at + 1] if at + 1 < len(block) else None
                if following is None or not any(_rejects(following, n) for n in names):
                    return False
                if isinstance(statement, ast.Assign):  # (as `_result_names` read it)
                    refused.add(id(statement.value))
        # a call of it used any other way (returned, passed on) hands the result on as it is
        if any(_calls(node, name) and id(node) not in refused for node in walk(outer)):
            return False
        seen += len(refused)
    return seen > 0


def _calls(node: ast.AST, name: str) -> bool:
    """Whether `node` is a call of the function `name` (`name(...)`, `x.name(...)`)."""
    if not isinstance(node, ast.Call):
        return False
    func = node.func
    return (func.attr if isinstance(func, ast.Attribute) else dotted_name(func)) == name


def _blocks(function: ast.FunctionDef) -> Iterator[list[ast.stmt]]:
    for node in walk(function):
        for field in ("body", "orelse", "finalbody"):
            block = getattr(node, field, None)
            if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
                yield block


def _result_names(
    statement: ast.stmt, name: str, empty: set[int], unpacked: bool
) -> list[str] | None:
    """The names an assignment of a call of `name` binds the surely-None results to; None
    when the statement is no such assignment."""
    if not isinstance(statement, ast.Assign) or len(statement.targets) != 1:
        return None
    if not _calls(statement.value, name):
        return None
    target = statement.targets[0]
    if unpacked:
        if not isinstance(target, ast.Tuple):
            return []
        return [dotted_name(t) or "" for i, t in enumerate(target.elts) if i in empty]
    return [dotted_name(target) or ""]


def _rejects(statement: ast.stmt, name: str) -> bool:
    """`assert name is not None` / `assert name`, or `if name is None: raise`."""
    if not name:
        return False
    if isinstance(statement, ast.Assert):
        return any(_unset(p, name, negated=True) for p in _both(statement.test))
    if isinstance(statement, ast.If) and _raising_if(statement):
        return any(_unset(p, name) for p in _either(statement.test))
    return False


def _raising_if(node: ast.If) -> bool:
    """Whether the `if`'s body starts with a raise."""
    return bool(node.body) and isinstance(node.body[0], ast.Raise)
