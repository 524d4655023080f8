"""A sibling check's advice on a test this check shares: "Use READ mode".

vllm's MoRIIO scheduler raises "MoRIIO with speculative decoding is not yet supported for
sliding-window / hybrid models ..." when `self.mode == MoRIIOMode.WRITE and ...`; a few lines
above, the same function raises "MoRIIO WRITE mode does not support sliding-window cache
groups. Use READ mode, or pass --disable-hybrid-kv-cache-manager." on the same
`self.mode == MoRIIOMode.WRITE`. The clause of that advice which names another member of the
class the shared test compares with ("READ", and the file reads `MoRIIOMode.READ`) makes the
shared test false: it is a way out of this check too, one that keeps the feature. The
sibling's other clause answers its other tests, not this check's, and is left out.
"""

from __future__ import annotations

import ast
import re

from errdex.explain.advice import message_advice, spoken_text
from errdex.explain.context import Facts, SiblingAdvice
from errdex.explain.member_setting import MemberSetting, member_setting
from errdex.explain.page import ConditionView
from errdex.facts import MessageTemplate, SiteKind
from errdex.link.expression_texts import parse_expression
from errdex.store import Store
from errdex.store.base import StoredSite

__all__ = ["sibling_advice"]

_MAX_SIBLINGS = 6  # siblings whose conditions are read (each is a lookup)
# a message that may instruct: read further only then
_VERBS = re.compile(r"\b(?:use|set|switch|pass|choose|select|enable|run)\b", re.I)
_CLAUSES = re.compile(r",?\s+or\s+|;\s*")


def sibling_advice(store: Store, stored: StoredSite, facts: Facts) -> list[SiblingAdvice]:
    """The advice of the function's other sites on a member test this site holds too."""
    if stored.site.kind == SiteKind.ASSERT:
        return []  # an `assert` holds the program's own state: no advice is its way out
    if facts.source_text is None:
        return []
    # each member test with the other values the file compares the same way, found once
    tests = [
        (shared, member, others)
        for shared, pattern, member in _member_tests(facts)
        if (others := _other_values(facts.source_text, pattern, member))
    ]
    if not tests:
        return []  # no other value to advise: the siblings are not read
    out: list[SiblingAdvice] = []
    read = 0
    for neighbour in store.neighbours(stored.version_id, stored.file):
        if (
            neighbour.id == stored.id
            or neighbour.function != stored.site.function
            or not neighbour.message
            or not _VERBS.search(neighbour.message)
        ):
            continue
        words = set(re.findall(r"\b[A-Za-z_]\w*\b", neighbour.message))
        wanted = [
            (shared, word)
            for shared, member, others in tests
            for word in words
            if len(word) > 2 and word.upper() != member.upper() and {word, word.upper()} & others
        ]
        if not wanted or read >= _MAX_SIBLINGS:
            continue
        read += 1
        held = _held_by(store, stored, neighbour.id, neighbour.line)
        for shared, word in wanted:
            if _conjunct_text(shared.text) not in held:
                continue
            clause = _clause_naming(neighbour.message, word)
            if clause is None or any(a.clause == clause for a in out):
                continue
            setting = _setting(store, stored, facts, shared, word)
            out.append(
                SiblingAdvice(
                    clause=clause,
                    line=neighbour.line,
                    shared=shared,
                    setting=setting.words() if setting else None,
                    fix=setting.fix() if setting else None,
                )
            )
    return out


def _setting(
    store: Store, stored: StoredSite, facts: Facts, shared: ConditionView, word: str
) -> MemberSetting | None:
    """The flag's key that sets the test's left side to the advised member `Cls.WORD`."""
    try:
        node = ast.parse(shared.text, mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
    if not (isinstance(node, ast.Compare) and isinstance(node.comparators[0], ast.Attribute)):
        return None
    cls = node.comparators[0].value
    if not isinstance(cls, ast.Name):
        return None
    left = ast.unparse(node.left)
    for member in dict.fromkeys((word, word.upper())):
        found = member_setting(store, stored, facts, left, cls.id, member)
        if found is not None:
            return found
    return None


def _member_tests(facts: Facts) -> list[tuple[ConditionView, str, str]]:
    """The conjuncts `x == Cls.MEMBER` (or `is`) and `x == "literal"` the site holds, each
    with a pattern that finds the values the file compares the same way, and its own."""
    out = []
    for condition in facts.held:
        for part in _conjunct_nodes(condition.text):
            if not (
                isinstance(part, ast.Compare)
                and len(part.ops) == 1
                and isinstance(part.ops[0], ast.Eq | ast.Is)
            ):
                continue
            member = part.comparators[0]
            view = ConditionView(
                text=ast.unparse(part),
                test=condition.test,
                kind=condition.kind,
                holds=True,
                line=condition.line,
            )
            if (
                isinstance(member, ast.Attribute)
                and isinstance(member.value, ast.Name)
                and member.value.id[:1].isupper()
            ):
                out.append((view, re.escape(member.value.id) + r"\.(\w+)\b", member.attr))
            elif isinstance(member, ast.Constant) and isinstance(member.value, str):
                left = re.escape(ast.unparse(part.left))
                out.append((view, left + r"\s*[!=]=\s*[\"'](\w+)[\"']", member.value))
    return out


def _other_values(source: str, pattern: str, member: str) -> set[str]:
    """The values the file compares the test's left side with (`Cls.OTHER`, `x == "other"`),
    less the test's own."""
    return set(re.findall(pattern, source)) - {member}


def _held_by(store: Store, stored: StoredSite, error_id: str, line: int) -> set[str]:
    """The conjuncts (as they hold) on the path of the sibling at `line`."""
    for other in store.get_error(error_id):
        if other.version_id == stored.version_id and other.site.line == line:
            return {
                _conjunct_text(part)
                for condition in other.site.conditions
                for part in _conjuncts(condition.statement)
            }
    return set()


def _conjuncts(text: str) -> list[str]:
    return [ast.unparse(p) for p in _conjunct_nodes(text)] or [text]


def _conjunct_nodes(text: str) -> list[ast.expr]:
    """The parts of an `and` (or the test itself); none when it does not parse."""
    node = parse_expression(text)
    if node is None:
        return []
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.And):
        return list(node.values)
    return [node]


def _conjunct_text(text: str) -> str:
    try:
        return ast.unparse(ast.parse(text, mode="eval").body)
    except (SyntaxError, ValueError, RecursionError):
        return text


def _clause_naming(message: str, word: str) -> str | None:
    """The clause of the message's advice that names `word`: "Use READ mode"."""
    spoken = spoken_text(MessageTemplate.of(message))
    for advice in message_advice(spoken):
        for clause in _CLAUSES.split(advice.text):
            clause = clause.strip().rstrip(".!")
            if re.search(rf"\b{re.escape(word)}\b", clause) and _VERBS.match(clause):
                return clause[0].upper() + clause[1:]
    return None
