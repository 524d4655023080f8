"""A model's answer: decoded against a schema, checked against the indexed code, applied.

An answer is accepted only when every `file:line` it cites is a line of a file of the
indexed revision, and every name it sets in backticks appears in the facts it was given or
in the site's file. Otherwise it is rejected with the reasons, and the page keeps the
rule-based prose.
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
    for text in _texts(answer):
        for span in _TICKS.findall(text):
            for name in _NAME.findall(span):
                if _known_name(name, corpus):
                    continue
                problems.append(f"names `{name}`, which the code does not show")
    knobs = {k.name for k in page.knobs}
    for solution in answer.solutions:
        if solution.knob and solution.knob not in knobs and solution.knob not in corpus:
            problems.append(f"turns the knob {solution.knob!r}, which the code does not show")
    return list(dict.fromkeys(problems))


def _known_name(name: str, corpus: str) -> bool:
    bare = name.strip(".-")
    if not bare or bare in _COMMON or len(bare) <= 2 or bare.isdigit():
        return True
    if bare in corpus:
        return True
    # `self.use_v2_model_runner` is known when the code writes `use_v2_model_runner`.
    tail = bare.rsplit(".", 1)[-1]
    return "." in bare and bare.split(".")[0] in OWN_OBJECT and tail in corpus


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
