"""A model's answer: decoded against a schema, checked against the indexed code, applied.

An answer is accepted only when every `file:line` it cites is a line of a file of the
indexed revision; otherwise it is rejected with the reasons, and the page keeps the
rule-based prose. A name it sets in backticks may be any the indexed version defines (a
setting, a function, a class, a constant), not only those of the facts it was given: each
is checked against the facts, the site's file and the version's names, and one found in
none of them is marked on the page as not found in the index. A solution turning a setting
the version does not have is removed.
"""

from __future__ import annotations

import re
from collections.abc import Callable

import msgspec

from errdex.explain.page import (
    Analysis,
    ExampleFix,
    Page,
    Solution,
    WhenItHappens,
)
from errdex.extract.shapes import OWN_OBJECT
from errdex.store.base import AnalysisRecord

_CITATION = re.compile(r"([A-Za-z0-9_.\-/]+\.pyi?):(\d+)")
_TICKS = re.compile(r"`([^`\n]{1,200})`")
_NAME = re.compile(r"--?[A-Za-z][\w-]*|[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*")
_FENCE = re.compile(r"^```(?:json)?\s*|\s*```$")
# Words a backticked span may hold that are Python or shell, not names of the codebase.
_COMMON = frozenset(
    "None True False not and or is in if else for def return raise assert import from as with "
    "unset export set self cls str int float bool list dict tuple len print".split()
)


class AnswerSolution(msgspec.Struct, kw_only=True):
    text: str
    knob: str | None = None


class AnswerFix(msgspec.Struct, kw_only=True):
    before: str
    after: str
    note: str | None = None


class ModelAnswer(msgspec.Struct, kw_only=True):
    """The JSON a model must answer with (see `prompt.SYSTEM`)."""

    what_it_means: str
    trigger: str
    solutions: list[AnswerSolution]
    situations: list[str] = []
    example_fix: AnswerFix | None = None
    citations: list[str] = []


_decoder = msgspec.json.Decoder(ModelAnswer)
_encoder = msgspec.json.Encoder()
LineCount = Callable[[str], int | None]  # a file of the revision → its number of lines
UNVERIFIED = " (not found in the index)"


def decode_answer(content: str) -> ModelAnswer:
    """The answer's JSON object (code fences and text around it tolerated); raises
    `msgspec.ValidationError`/`DecodeError` when it does not fit the schema."""
    text = _FENCE.sub("", content.strip())
    start, end = text.find("{"), text.rfind("}")
    if start == -1 or end <= start:
        raise msgspec.DecodeError("no JSON object in the answer")
    answer = _decoder.decode(text[start : end + 1])
    if not answer.what_it_means.strip() or not answer.trigger.strip() or not answer.solutions:
        raise msgspec.ValidationError("what_it_means, trigger and solutions must not be empty")
    if len(answer.solutions) > 12 or len(answer.situations) > 12:
        raise msgspec.ValidationError("too many solutions or situations")
    return answer


def encode_answer(answer: ModelAnswer) -> str:
    return _encoder.encode(answer).decode()


def _texts(answer: ModelAnswer) -> list[str]:
    texts = [answer.what_it_means, answer.trigger, *answer.situations]
    texts.extend(s.text for s in answer.solutions)
    if answer.example_fix is not None:
        fix = answer.example_fix
        texts.extend(t for t in (fix.before, fix.after, fix.note) if t)
    return texts


def unverifiable(answer: ModelAnswer, page: Page, corpus: str, lines: LineCount) -> list[str]:
    """What the answer cites that the indexed revision does not hold (empty: all verified)."""
    problems: list[str] = []
    cited = [*answer.citations]
    for text in _texts(answer):
        cited.extend(f"{m.group(1)}:{m.group(2)}" for m in _CITATION.finditer(text))
    known_lines = _known_lines(page)
    for citation in dict.fromkeys(cited):
        match = _CITATION.fullmatch(citation.strip())
        if match is None:
            problems.append(f"citation {citation!r} is not path:line")
            continue
        path, line = match.group(1), int(match.group(2))
        if f"{path}:{line}" in corpus:
            continue  # the facts, made from the indexed revision, give this place
        count = lines(path)
        if count is None:
            if (path, line) not in known_lines:
                problems.append(f"cites {path}:{line}, not a file of the indexed revision")
        elif not 1 <= line <= count:
            problems.append(f"cites {path}:{line}, but the file has {count} lines")
    return list(dict.fromkeys(problems))


def verify_names(
    answer: ModelAnswer, page: Page, corpus: str, defined: frozenset[str] = frozenset()
) -> tuple[ModelAnswer, list[str]]:
    """The answer with each backticked name the index does not hold marked as such, and
    its solutions that turn an unknown setting removed; with what was marked or removed."""
    unknown: list[str] = []

    def mark(text: str) -> str:
        def marked(match: re.Match[str]) -> str:
            span = match.group(1)
            missing = [n for n in _NAME.findall(span) if not _known_name(n, corpus, defined)]
            if not missing:
                return match.group(0)
            unknown.extend(missing)
            return match.group(0) + UNVERIFIED

        return _TICKS.sub(marked, text)

    knobs = {k.name for k in page.knobs}
    kept: list[AnswerSolution] = []
    for solution in answer.solutions:
        knob = solution.knob
        if knob and knob not in knobs and knob not in corpus and knob not in defined:
            unknown.append(f"solution turning {knob!r} removed")
            continue
        kept.append(AnswerSolution(text=mark(solution.text), knob=knob))
    fix = answer.example_fix
    checked = ModelAnswer(
        what_it_means=mark(answer.what_it_means),
        trigger=mark(answer.trigger),
        solutions=kept,
        situations=[mark(s) for s in answer.situations],
        example_fix=AnswerFix(
            before=fix.before,
            after=fix.after,
            note=mark(fix.note) if fix.note else fix.note,
        )
        if fix is not None
        and not any(
            not _known_name(n, corpus, defined)
            for t in (fix.before, fix.after)
            for n in _NAME.findall(t)
            if n.isupper() and "_" in n  # a fix must not set a variable the code never reads
        )
        else None,
        citations=answer.citations,
    )
    return checked, list(dict.fromkeys(unknown))


def _known_name(name: str, corpus: str, defined: frozenset[str] = frozenset()) -> bool:
    bare = name.strip(".-")
    if not bare or bare in _COMMON or len(bare) <= 2 or bare.isdigit():
        return True
    if bare in corpus or bare in defined:
        return True
    parts = bare.split(".")
    # `self.use_v2_model_runner` is known when the code writes `use_v2_model_runner`.
    if len(parts) > 1 and parts[0] in OWN_OBJECT and parts[-1] in corpus:
        return True
    # `engine.llm.LLM`: a module (or class) the version defines, then a name it defines
    return any(
        ".".join(parts[:i]) in defined and ".".join(parts[i:]) in defined
        for i in range(1, len(parts))
    )


def _known_lines(page: Page) -> set[tuple[str, int]]:
    known = {(page.source.file, page.source.line)}
    known.update((c.file, c.line) for c in page.callers)
    known.update((k.file, k.line) for k in page.knobs if k.file is not None and k.line)
    known.update((v.file, v.line) for v in page.variants)
    known.update((t.file, t.line) for t in page.tests)
    known.update((b.file, b.line) for b in page.bindings if b.line)
    return known


def apply_analysis(page: Page, record: AnalysisRecord) -> Page:
    """The page with the accepted answer's prose; the facts stay as they are."""
    if record.status != "ok" or not record.body:
        return page
    try:
        answer = _decoder.decode(record.body)
    except msgspec.MsgspecError:
        return page
    knobs = {k.name for k in page.knobs}
    fix = answer.example_fix
    return msgspec.structs.replace(
        page,
        what_it_means=answer.what_it_means,
        when_it_happens=WhenItHappens(trigger=answer.trigger, situations=answer.situations),
        solutions=[
            Solution(text=s.text, knob=s.knob if s.knob in knobs else None)
            for s in answer.solutions
        ],
        example_fix=ExampleFix(before=fix.before, after=fix.after, note=fix.note)
        if fix is not None
        else page.example_fix,
        analysis=Analysis(
            by="model",
            model=record.model,
            at=record.created_at,
            project=page.project,
            revision=page.revision,
            date=page.analysis.date,
        ),
    )
