"""From a damaged paste to the right template, with the user's values filled in."""

from __future__ import annotations

from errdex.facts import MessageTemplate, Placeholder
from errdex.match.paste import parse_paste
from errdex.match.pattern import compile_template, literal_runs

P = Placeholder
TEMPLATES = {
    # Shapes of vllm's own messages (vllm/config/*.py, vllm/v1/engine/*.py).
    "max_len": MessageTemplate.of(
        "User-specified max_model_len (",
        P("max_model_len"),
        ") is greater than the derived max_model_len (",
        P("max_len_key"),
        "=",
        P("derived_max_model_len"),
        " or model_max_length=",
        P("model_max_length"),
        " in model's config.json).",
    ),
    "reasons": MessageTemplate.of(
        "Model Runner V1 does not support: ", P("', '.join(unsupported)")
    ),
    "task": MessageTemplate.of("Unsupported task: ", P("task", conversion="r")),
    "engine_dead": MessageTemplate.of(
        "EngineCore encountered an issue. See stack trace (above) for the root cause."
    ),
    "generic": MessageTemplate.of(P("msg")),
}

PASTE = """\
> (APIServer pid=1) ERROR 01-08 17:16:15 [serving_chat.py:1278] Traceback (most recent call last):
> (APIServer pid=1) ERROR 01-08 17:16:15 [serving_chat.py:1278]   File "/usr/local/lib/python3.12/dist-packages/vllm/config/model.py", line 1652, in _get_and_verify_max_len
> (APIServer pid=1) ERROR 01-08 17:16:15 [serving_chat.py:1278]     raise ValueError(
> (APIServer pid=1) ERROR 01-08 17:16:15 [serving_chat.py:1278] ValueError: User-specified max_model_len (40960) is greater than the derived max_model_len (max_position_embeddings=32768 or model_max_length=None in model&#39;s config.json).
"""  # noqa: E501


def best(message: str, truncated: bool = False) -> tuple[str, dict[str, str]]:
    matches = {
        name: compile_template(t).match(message, truncated=truncated)
        for name, t in TEMPLATES.items()
    }
    name = max(matches, key=lambda k: m.score if (m := matches[k]) else -1.0)
    m = matches[name]
    assert m is not None
    return name, m.values


def test_quoted_log_traceback_to_its_template() -> None:
    err = parse_paste(PASTE).errors[0]
    assert err.exception == "ValueError"
    name, values = best(err.message, err.truncated)
    assert name == "max_len"
    assert values == {
        "max_model_len": "40960",
        "max_len_key": "max_position_embeddings",
        "derived_max_model_len": "32768",
        "model_max_length": "None",
    }
    assert "is greater than the derived max_model_len" in literal_runs(err.message)


def test_truncated_title_to_its_template() -> None:
    err = parse_paste(
        "[Bug]: ValueError: Model Runner V1 does not support: dual batch overl…"
    ).errors[0]
    assert err.truncated
    assert best(err.message, err.truncated) == (
        "reasons",
        {"', '.join(unsupported)": "dual batch overl"},
    )


def test_wrapped_message_to_its_template() -> None:
    errors = parse_paste("Request failed: RuntimeError('Unsupported task: \"reward\"')").errors
    inner = next(e for e in errors if e.exception == "RuntimeError")
    assert best(inner.message) == ("task", {"task": "reward"})
