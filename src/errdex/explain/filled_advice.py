"""The advice a message ends with, filled in by the callers of the function that raises.

SQLAlchemy's `RoleImpl._raise_for_expected(element, argname, resolved, advice=None, ...)`
raises "{self.name} expected for argument {argname!r}; got {got}. {advice}": the message
itself holds no advice, its callers do. The overrides in the same file assign `advice` a
sentence for the objects they recognise ("To create a FROM clause from a %s object, use
the .subquery() method.") and hand it on (`super()._raise_for_expected(..., advice=advice)`).
The page offers those sentences, each one the advice reader reads as an instruction, in
the callers' own words: the user's message ends with the one that fits their object.
Read only for a placeholder of the message that names a parameter of the raising
function, and only from calls of that function's name in its own file.
"""

from __future__ import annotations

import ast
import re

from errdex.ast_walk import walk
from errdex.explain.advice import message_advice
from errdex.explain.context import Facts
from errdex.explain.name_scan import free_starts
from errdex.explain.page import Solution
from errdex.explain.plain import code

_PLACEHOLDER = re.compile(r"\{([^{}]*)\}")
_QUOTED = re.compile(r"'[^']*'|\"[^\"]*\"")
_NAME = re.compile(r"(?<![\w.])[A-Za-z_]\w*")
# what follows a function's name in a call of it, a parameter's in an assignment of a string
_OPENS_CALL = re.compile(r"\s*\(")
_ASSIGNS_STRING = re.compile(r"\s*=\s*\(?\s*[rRfFuU]?['\"]")
_SHOWN = 4  # the sentences quoted; the rest counted


def filled_advice_solutions(facts: Facts) -> list[Solution]:
    """ "Pass what the advice the message ends with names: ... “use the .subquery()
    method.” (line 684) ..."; [] where no caller fills a placeholder with advice."""
    site = facts.stored.site
    if site.message is None or facts.source_text is None:
        return []
    # the names a placeholder reads: `{advice}`, `{" " + advice}`
    named = {
        name
        for placeholder in _PLACEHOLDER.findall(site.message.text)
        for name in _NAME.findall(_QUOTED.sub("", placeholder))
    }
    if not named:
        return []
    name = site.function.rpartition(".")[2]
    text = facts.source_text
    if not _called(text, name):
        return []  # no call of the function in its file: no caller here fills it in
    function = facts.site_function()
    if function is None:
        return []
    arguments = function.args
    params = {a.arg for a in [*arguments.posonlyargs, *arguments.args, *arguments.kwonlyargs]}
    # a parameter a caller assigns a string literal (`advice = (\n "To ...`), by its text
    filled = [p for p in sorted(named & params - {"self", "cls"}) if _assigned_string(text, p)]
    tree = facts.source_tree() if filled else None
    if tree is None:
        return []
    out = []
    for param in filled:
        said = [
            (sentence, line)
            for sentence, line in _handed(tree, name, param)
            if any(a.version is None for a in message_advice(sentence))
        ]
        if said:
            out.append(_solution(site.function, param, said))
    return out


def _called(text: str, name: str) -> bool:
    r"""Whether `text` calls `name` (not its `def`): `(?<!def )(?<!\w)name\s*\(`."""
    return any(
        not text.endswith("def ", 0, at) and _OPENS_CALL.match(text, at + len(name)) is not None
        for at in free_starts(text, name)
    )


def _assigned_string(text: str, param: str) -> bool:
    r"""Whether `text` assigns `param` a string literal:
    `(?<![\w.])param\s*=\s*\(?\s*[rRfFuU]?['"]`."""
    return any(
        _ASSIGNS_STRING.match(text, at + len(param)) is not None
        for at in free_starts(text, param, dotted=True)
    )


def _handed(tree: ast.Module, name: str, param: str) -> list[tuple[str, int]]:
    """(the sentence, its line) of each string a function of the file hands a call of
    `name` as the keyword `param`: a literal in the call, or one it assigned the local it
    passes (`advice = "..."` then `advice=advice`). In file order, each sentence once."""
    found: dict[str, int] = {}
    for function in walk(tree):
        if not isinstance(function, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        for call in walk(function):
            if not (isinstance(call, ast.Call) and _called_name(call.func) == name):
                continue
            for keyword in call.keywords:
                if keyword.arg != param:
                    continue
                if isinstance(keyword.value, ast.Name):
                    values = _local_values(function, keyword.value.id)
                else:
                    values = [keyword.value]
                for value in values:
                    sentence = _sentence(value)
                    if sentence is not None:
                        found.setdefault(sentence, value.lineno)
    return sorted(found.items(), key=lambda item: item[1])


def _called_name(func: ast.expr) -> str | None:
    if isinstance(func, ast.Attribute):
        return func.attr
    return func.id if isinstance(func, ast.Name) else None


def _local_values(function: ast.AST, local: str) -> list[ast.expr]:
    """The values the function assigns the local `local` (`advice = ...`)."""
    return [
        node.value
        for node in walk(function)
        if isinstance(node, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == local for t in node.targets)
    ]


def _sentence(value: ast.expr) -> str | None:
    """The text of a string literal, an f-string or a `"..." % (...)` format, with `…`
    for what it fills in; None for anything else."""
    if isinstance(value, ast.BinOp) and isinstance(value.op, ast.Mod):
        value = value.left
        if not (isinstance(value, ast.Constant) and isinstance(value.value, str)):
            return None
        return re.sub(r"%(?:\([^)]*\))?[-#0 +]*\d*(?:\.\d+)?[sdrfgix]", "…", value.value).strip()
    if isinstance(value, ast.Constant) and isinstance(value.value, str):
        return value.value.strip() or None
    if isinstance(value, ast.JoinedStr):
        parts = [
            v.value if isinstance(v, ast.Constant) and isinstance(v.value, str) else "…"
            for v in value.values
        ]
        return "".join(parts).strip() or None
    return None


def _solution(function: str, param: str, said: list[tuple[str, int]]) -> Solution:
    quoted = "; ".join(f"“{s}” (line {line})" for s, line in said[:_SHOWN])
    more = len(said) - _SHOWN
    rest = f"; and {more} more" if more > 0 else ""
    text = (
        f"Pass what the advice the message ends with names: {code(function)} adds "
        f"{code(param)} to it, which its callers fill in for the kinds of object they "
        f"recognise, each saying what to pass instead: {quoted}{rest}."
    )
    return Solution(text=text, kind="input")
