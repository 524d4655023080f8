"""What a definition yields once walked: a raising helper (a function whose raise takes its
message from a parameter), and a class's facts (bases, the message its `__init__` or
`__str__` builds, the fields of an arguments dataclass).
"""

from __future__ import annotations

import ast
import re

from errdex.extract.conditions import walk
from errdex.extract.extractor_base import ExtractorBase
from errdex.extract.scope import Scope
from errdex.extract.templates import line_span
from errdex.facts import ClassFact, HelperFact, MessageTemplate, SiteKind

# Dataclasses whose fields are command-line flags (`EngineArgs`, `TrainingArguments`).
_ARGS_CLASS = re.compile(r"(?:Args|Arguments|CLIOptions)$")


class DefinitionRecorder(ExtractorBase):
    """Makes the facts of raising helpers and classes."""

    def _find_helper(self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope) -> None:
        """A function whose raise takes its message from a parameter is a raising helper."""
        seen: set[str] = set()
        for site in scope.raises:
            if site.message is None or site.kind is not SiteKind.RAISE:
                continue
            for placeholder in site.message.placeholders:
                expr = placeholder.expr
                param = expr[4:-1] if expr.startswith("str(") else expr
                if param not in scope.params or site.message.text in seen:
                    continue
                seen.add(site.message.text)
                self.helpers.append(
                    HelperFact(
                        name=stmt.name,
                        qualname=scope.qualname,
                        line=site.line,
                        params=scope.params,
                        param=param,
                        exception=site.exception,
                        message=site.message,
                        conditions=site.conditions,
                    )
                )
                break

    def _class_fact(self, stmt: ast.ClassDef, qualname: str) -> ClassFact:
        init_params: tuple[str, ...] = ()
        message: MessageTemplate | None = None
        for item in stmt.body:
            if not isinstance(item, ast.FunctionDef) or item.name not in ("__init__", "__str__"):
                continue
            params = tuple(a.arg for a in (*item.args.args[1:], *item.args.kwonlyargs))
            if item.name == "__init__":
                init_params = params
            found = self._message_in(item, init_params or params)
            if found is not None and (message is None or item.name == "__init__"):
                message = found
        methods = tuple(
            item.name
            for item in stmt.body
            if isinstance(item, ast.FunctionDef | ast.AsyncFunctionDef)
        )
        fields: dict[str, str] = {}
        if _ARGS_CLASS.search(stmt.name):
            for item in stmt.body:
                if isinstance(item, ast.AnnAssign) and isinstance(item.target, ast.Name):
                    fields[item.target.id] = self._source(item.annotation)[:80]
        return ClassFact(
            name=stmt.name,
            qualname=qualname,
            line=stmt.lineno,
            bases=tuple(self._source(b) for b in stmt.bases),
            docstring=ast.get_docstring(stmt),
            init_params=init_params,
            message=message,
            methods=methods,
            fields=fields,
        )

    def _message_in(self, func: ast.FunctionDef, params: tuple[str, ...]) -> MessageTemplate | None:
        """The message `__init__` passes up (or stores, or `__str__` returns), over params."""
        scope = Scope(func.name, None, is_function=True, params=params)
        # In `__init__` only statements with the words looked for are walked (`__str__`
        # counts every `return`).
        keep = self._may_pass_message if func.name == "__init__" else None
        for node in walk(func, keep):
            value: ast.expr | None = None
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                if node.func.attr == "__init__" and node.args:
                    first = node.args[0]
                    is_self = isinstance(first, ast.Name) and first.id == "self"
                    value = node.args[1] if is_self and len(node.args) > 1 else first
                    if is_self and len(node.args) == 1:
                        value = None
            elif isinstance(node, ast.Assign) and len(node.targets) == 1:
                target = node.targets[0]
                if isinstance(target, ast.Attribute) and target.attr in ("message", "msg"):
                    value = node.value
            elif isinstance(node, ast.Return) and func.name == "__str__":
                value = node.value
            if value is not None and self._stringy(value):
                return self._template(value, scope)
        return None

    def _may_pass_message(self, node: ast.AST) -> bool:
        """Whether `node` (in `__init__`) may hold what `_message_in` looks for.

        Walking a long `__init__` costs; the text of a statement is scanned far faster.
        Every name in a statement's tree is written on its lines (the skeleton only blanks
        lines), so a call of `.__init__` needs `__init__` there, and a `.message` or `.msg`
        target that word. Identifiers are NFKC-normalized: text not ASCII is walked anyway.
        """
        if not isinstance(node, ast.stmt):
            return True
        decorators = getattr(node, "decorator_list", ())  # they are above a `def`'s line
        first = min((d.lineno for d in decorators), default=node.lineno)
        text = line_span(self.text, first, node.end_lineno or node.lineno)
        return not text.isascii() or "__init__" in text or "msg" in text or "message" in text
