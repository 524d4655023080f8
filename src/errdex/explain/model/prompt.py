"""The prompt: a page's facts as text, and the rules of the answer.

Bump `PROMPT_VERSION` whenever the prompt or the answer's schema changes: cached answers
are keyed by it, so older ones are asked again.
"""

from __future__ import annotations

from errdex.explain.page import GUARD_NOT_READ, Page

PROMPT_VERSION = "1"

SYSTEM = """\
You explain one error of a Python codebase to a developer who just hit it.
Use only the FACTS you are given: the code, the conditions on the path to the error, its
callers, the settings (environment variables, command-line flags) behind those conditions.
Never invent a file, a line, a function, a setting or a value.

Answer with one JSON object and nothing else:
{
  "what_it_means": "2-4 sentences: what the code checks and why it refuses",
  "trigger": "1-2 sentences: what the user did that reaches this error",
  "situations": ["short, common situations that lead here"],
  "solutions": [{"text": "one concrete way out", "knob": "the setting it changes or null"}],
  "example_fix": {"before": "...", "after": "...", "note": "..."} or null,
  "citations": ["path/to/file.py:123", "..."]
}
Rules: write code names, settings and values in `backticks`, and only names that appear in
the FACTS. Cite code as path:line, only with files and lines listed in the FACTS; list every
citation you use in "citations". Solutions come from negating the conditions: each one must
make at least one condition false. Prefer settings a user controls (environment variables,
flags) when the FACTS link them to a condition.
"""

_SNIPPET_LINES = 40


def build_messages(page: Page) -> list[dict[str, str]]:
    """The conversation for one page: system rules, then the facts."""
    return [
        {"role": "system", "content": SYSTEM},
        {"role": "user", "content": facts_text(page)},
    ]


def facts_text(page: Page) -> str:
    """Everything the answer may rely on, in plain sections."""
    out: list[str] = [f"FACTS for error {page.id} of {page.project} {page.version}"]
    out.append(f"revision: {page.revision}")
    if page.exception is not None:
        exc = page.exception
        bases = f" (bases: {', '.join(exc.bases)})" if exc.bases else ""
        out.append(f"exception: {exc.qualname}{bases}")
        if exc.docstring:
            out.append(f"exception docstring: {exc.docstring[:600]}")
    out.append(f"kind: {page.kind}" + (f" (level {page.level})" if page.level else ""))
    out.append(f"message template: {page.message}")
    source = page.source
    out.append(f"\nSOURCE {source.file}:{source.line} in {source.function}")
    lines = source.snippet.splitlines()[:_SNIPPET_LINES]
    out.extend(f"{source.snippet_start + i:>6} | {line}" for i, line in enumerate(lines))
    if page.conditions:
        out.append("\nCONDITIONS (all hold when the error happens)")
        out.extend(f"- {c.text}  [{c.kind}, {source.file}:{c.line}]" for c in page.conditions)
    if page.bindings:
        out.append("\nNAMES IN THE CONDITIONS")
        out.extend(
            f"- {b.name} = {b.value[:300]}  [{b.origin}, {b.file}"
            + (f":{b.line}]" if b.line else "]")
            for b in page.bindings
        )
    if page.variants:
        out.append("\nREASONS THE MESSAGE MAY LIST (each with its conditions)")
        for variant in page.variants[:12]:
            conditions = "; ".join(c.text for c in variant.conditions)
            out.append(f"- {variant.reason!r} [{variant.file}:{variant.line}] when {conditions}")
    if page.callers:
        out.append("\nCALLERS (who calls the raising function, with the guard of the call)")
        for caller in page.callers:
            guard = f" when {' and '.join(caller.guard)}" if caller.guard else ""
            if not caller.guard_known:
                guard = f" ({GUARD_NOT_READ})"
            place = f"[{caller.file}:{caller.line}]"
            out.append(f"- {caller.function} {place} calls {caller.calls}{guard}")
    if page.knobs:
        out.append("\nSETTINGS BEHIND THE CONDITIONS")
        for knob in page.knobs:
            where = f" [{knob.file}:{knob.line}]" if knob.file else ""
            via = f"; {knob.via}" if knob.via else ""
            typed = f"; type {knob.value_type}" if knob.value_type else ""
            out.append(f"- {knob.kind} {knob.name} -> {knob.behind}{where}{via}{typed}")
    if page.why:
        out.append("\nTHE CODE'S OWN WORDS ON THE CHECK")
        out.extend(f"- {q.of} [{q.file}:{q.line}]: {q.text}" for q in page.why)
    if page.tests:
        out.append("\nTESTS THAT EXPECT THIS ERROR")
        out.extend(f"- {t.function} [{t.file}:{t.line}] match={t.match!r}" for t in page.tests)
    out.append("\nDRAFT (made by rules from the facts; improve its wording, keep it true)")
    out.append(f"what it means: {page.what_it_means}")
    out.append(f"trigger: {page.when_it_happens.trigger}")
    out.extend(f"solution: {s.text}" for s in page.solutions)
    return "\n".join(out)
