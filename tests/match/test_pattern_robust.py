"""Property tests for template matching: round trips, prefixes, and termination on any input."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from errdex.facts import MessageTemplate, Placeholder
from errdex.match.pattern import CompiledTemplate, compile_template, literal_runs

# A generous deadline catches a hang (exponential backtracking takes minutes), nothing finer:
# tests never measure speed.
HANG = settings(
    deadline=timedelta(seconds=20),
    max_examples=150,
    database=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)

# Literal text and values drawn from disjoint alphabets, so the intended split is the only one.
literal = st.text(alphabet="abcdefgh :;,.()'\n", min_size=1, max_size=12).filter(str.strip)
value = st.text(alphabet="0123456789", min_size=1, max_size=8)


@st.composite
def rendered(draw: st.DrawFn) -> tuple[MessageTemplate, str, dict[str, str]]:
    count = draw(st.integers(min_value=1, max_value=5))
    parts: list[str | Placeholder] = []
    values: dict[str, str] = {}
    text = ""
    if draw(st.booleans()):
        lead = draw(literal)
        parts.append(lead)
        text += lead
    for k in range(count):
        v = draw(value)
        parts.append(Placeholder(f"v{k}"))
        values[f"v{k}"] = v
        text += v
        if k < count - 1 or draw(st.booleans()):
            lit = draw(literal)
            parts.append(lit)
            text += lit
    return MessageTemplate.of(*parts), text, values


@HANG
@given(rendered())
def test_a_rendered_template_matches_with_its_values(
    case: tuple[MessageTemplate, str, dict[str, str]],
) -> None:
    template, text, values = case
    m = compile_template(template).match(text)
    assert m is not None
    assert m.values == values
    assert 0.0 < m.score <= 1.0 and 0.0 <= m.covered <= 1.0


@HANG
@given(rendered(), st.floats(min_value=0.0, max_value=1.0))
def test_any_prefix_matches_when_truncated(
    case: tuple[MessageTemplate, str, dict[str, str]], cut: float
) -> None:
    template, text, _ = case
    prefix = text[: max(1, int(len(text) * cut))]
    if prefix.strip():
        assert compile_template(template).match(prefix, truncated=True) is not None


parts = st.lists(
    st.one_of(
        st.text(max_size=30),
        st.sampled_from(["{", "}", " ", "'", '"', "`", ".*", "a", "aa", "\n", "(", "\\"]),
        st.builds(Placeholder, st.text(min_size=1, max_size=5), st.sampled_from([None, "r"])),
    ),
    max_size=12,
)


@HANG
@given(parts, st.text(max_size=3000), st.booleans())
def test_random_templates_and_messages_terminate(
    template_parts: list[str | Placeholder], message: str, truncated: bool
) -> None:
    template = MessageTemplate(tuple(template_parts))
    m = CompiledTemplate(template).match(message, truncated=truncated)
    if m is not None:
        assert 0.0 <= m.score <= 1.0 and 0.0 <= m.covered <= 1.0
        assert set(m.values) <= {p.expr for p in template.placeholders}
    assert all(isinstance(run, str) and run for run in literal_runs(message))


@HANG
@given(st.sampled_from(["a", "ab", "a a", "aaa b", "x"]), st.integers(min_value=1, max_value=6))
def test_pathological_repetition_terminates(unit: str, count: int) -> None:
    # Literals and placeholders that can align in many ways against a long repetitive message:
    # what makes a regex of many `.*?` groups backtrack exponentially.
    parts: list[str | Placeholder] = []
    for k in range(count):
        parts += [unit, Placeholder(f"p{k}")]
    parts.append(unit + "!")  # never in the message: every alignment fails
    template = MessageTemplate.of(*parts)
    message = (unit + " ") * 20_000
    for truncated in (False, True):
        CompiledTemplate(template).match(message, truncated=truncated)


def test_one_megabyte_message_against_a_hundred_templates_terminates() -> None:
    message = ("Model meta-llama/Llama-3-8B is not supported on cpu; retrying 'x' " * 16_000)[
        :1_000_000
    ]
    templates = [
        MessageTemplate.of(
            "Model ", Placeholder("m"), f" is not supported on {k}", Placeholder("p")
        )
        for k in range(50)
    ] + [
        MessageTemplate.of(Placeholder("a"), f" retrying {k} ", Placeholder("b"), "!")
        for k in range(50)
    ]
    results = [CompiledTemplate(t).match(message) for t in templates]
    assert all(r is None or 0.0 <= r.score <= 1.0 for r in results)
    assert literal_runs(message)
