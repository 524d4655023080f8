"""parse_paste on the damage real pastes carry: prefixes, wrapping, markup, wrapped messages."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import textwrap

from errdex.match.paste import ErrorEvidence, parse_paste

TRACEBACK = """\
Traceback (most recent call last):
  File "/opt/venv/lib/python3.12/site-packages/vllm/v1/executor/multiproc_executor.py", line 533, in worker_main
    worker = WorkerProc(*args, **kwargs)
  File "/opt/venv/lib/python3.12/site-packages/vllm/config/model.py", line 611, in __post_init__
    raise ValueError(f"Model {self.model} is not supported on {platform}")
ValueError: Model meta-llama/Llama-3-8B is not supported on cpu"""


def paste(text: str) -> list[ErrorEvidence]:
    return list(parse_paste(textwrap.dedent(text).strip("\n")).errors)


def check(errors: list[ErrorEvidence]) -> None:
    err = errors[0]
    assert err.exception == "ValueError"
    assert err.message == "Model meta-llama/Llama-3-8B is not supported on cpu"
    assert [f.line for f in err.frames] == [533, 611]
    assert (
        err.frames[1].code
        == 'raise ValueError(f"Model {self.model} is not supported on {platform}")'
    )


def prefixed(prefix: str) -> str:
    return "\n".join(prefix + line for line in TRACEBACK.splitlines())


def test_prefix_on_every_line() -> None:
    # [rank0]: from torchrun (hiyouga/LlamaFactory#5769), (VllmWorker ...) from vllm,
    # container names from `docker compose logs`, timestamps from CI logs.
    for prefix in [
        "[rank0]: ",
        "(Worker pid=123) ",
        "(VllmWorker rank=0 pid=1) ",
        "(VllmWorker TP1 pid=438) ",
        "(RayWorkerWrapper pid=7141, ip=10.0.0.4) ",
        "app-1  | ",
        "web_1     | ",
        "2024-05-01T10:00:00.1234567Z ",
        "(EngineCore_DP0 pid=975) ERROR 11-14 08:06:26 [core.py:708] ",
    ]:
        check(paste(prefixed(prefix)))


def test_markdown_quoting_fences_and_details() -> None:
    quoted = "\n".join("> " + line for line in TRACEBACK.splitlines())
    check(paste(f"I get this:\n\n> ```python\n{quoted}\n> ```\n\nany idea?"))
    check(paste(f"<details><summary>Full log</summary>\n\n```\n{TRACEBACK}\n```\n</details>"))


def test_markdown_quoting_without_a_space() -> None:
    # An IPython traceback quoted with a bare `>` on each line (pallets/jinja#738's style).
    (err,) = paste(
        """
        >/envs/venv35/lib/python3.5/site-packages/jinja2/loaders.py in get_source(self, environment, template)
        >    185                     return False
        >   186             return contents, filename, uptodate
        >--> 187         raise TemplateNotFound(template)
        >   188
        >
        >TemplateNotFound: mapping/index.html
        """
    )
    assert (err.exception, err.message) == ("TemplateNotFound", "mapping/index.html")
    (frame,) = err.frames
    assert (frame.function, frame.line) == ("get_source", 187)
    assert frame.path.endswith("jinja2/loaders.py")


def test_lost_indentation() -> None:
    flat = "\n".join(line.strip() for line in TRACEBACK.splitlines())
    check(paste(flat))


def test_frame_line_hard_wrapped_mid_word() -> None:
    lines = TRACEBACK.splitlines()
    cut = lines[1][:70], lines[1][70:]
    check(paste("\n".join([lines[0], *cut, *lines[2:]])))


def test_terminal_width_wrapping() -> None:
    # Every line longer than 80 columns was hard-wrapped by the terminal, mid-word.
    wrapped: list[str] = []
    for line in prefixed("[rank0]: ").splitlines():
        wrapped += [line[k : k + 80] for k in range(0, len(line), 80)]
    check(paste("\n".join(wrapped)))


def test_html_escapes_and_crlf() -> None:
    text = TRACEBACK.replace("'", "&#39;").replace('"', "&quot;").replace("\n", "\r\n")
    check(paste(text))
    (err,) = paste(
        "TypeError: &#x27;&lt;&#x27; not supported between &#39;str&#39; and &#39;int&#39;"
    )
    assert err.message == "'<' not supported between 'str' and 'int'"


def test_quotes_and_backticks_around_the_message() -> None:
    (err,) = paste('"Model meta-llama/Llama-3-8B is not supported on cpu"')
    assert err.message == "Model meta-llama/Llama-3-8B is not supported on cpu"
    (err,) = paste("`ValueError: Model meta-llama/Llama-3-8B is not supported on cpu`")
    assert (err.exception, err.message) == (
        "ValueError",
        "Model meta-llama/Llama-3-8B is not supported on cpu",
    )
    (err,) = paste("KeyError: 'model.layers.0.weight'")
    assert err.message == "'model.layers.0.weight'"  # a KeyError's message is the key's repr


def test_did_you_mean_suffix() -> None:
    (err,) = paste("NameError: name 'pritn' is not defined. Did you mean: 'print'?")
    assert err.message == "name 'pritn' is not defined"
    (err,) = paste(
        "AttributeError: module 'torch' has no attribute 'compiles'. Did you mean: 'compile'?"
    )
    assert err.message == "module 'torch' has no attribute 'compiles'"
    (err,) = paste("NameError: name 'sys' is not defined. Did you forget to import 'sys'?")
    assert err.message == "name 'sys' is not defined"


def test_message_wrapped_by_an_application() -> None:
    errors = paste("Error generating audio: ValueError: Unsupported sample rate 12345")
    assert [(e.exception, e.message) for e in errors] == [
        (None, "Error generating audio: ValueError: Unsupported sample rate 12345"),
        ("ValueError", "Unsupported sample rate 12345"),
    ]
    errors = paste("Exception: ValueError: max_model_len must be positive")
    assert [(e.exception, e.message) for e in errors] == [
        ("Exception", "ValueError: max_model_len must be positive"),
        ("ValueError", "max_model_len must be positive"),
    ]
    errors = paste(
        """Request failed: RuntimeError('CUDA error: an illegal memory access was encountered')"""
    )
    assert errors[1].exception == "RuntimeError"
    assert errors[1].message == "CUDA error: an illegal memory access was encountered"
    errors = paste('ValueError("can\'t convert \\"x\\" to int")')
    assert (errors[-1].exception, errors[-1].message) == ("ValueError", 'can\'t convert "x" to int')


def test_log_line_holding_an_exception() -> None:
    errors = paste(
        "ERROR 01-23 12:34:56 [serving.py:88] vllm.v1.engine.exceptions.EngineDeadError: EngineCore died"
    )
    assert [(e.exception, e.message, e.hint_file) for e in errors] == [
        ("vllm.v1.engine.exceptions.EngineDeadError", "EngineCore died", "serving.py"),
    ]


def test_truncated_messages() -> None:
    (err,) = paste("ValueError: Model Runner V2 does not yet support: dual batch overlap with...")
    assert (
        err.truncated
        and err.message == "Model Runner V2 does not yet support: dual batch overlap with"
    )
    (err,) = paste(
        "ValueError: The decoder prompt (length 9000) is longer than the maximum model length…"
    )
    assert err.truncated and err.message.endswith("maximum model length")
    # A GitHub issue title, tag and all, cut off inside a parenthesis.
    (err,) = paste("[Bug]: RuntimeError: Engine core initialization failed (see root cause")
    assert (err.exception, err.truncated) == ("RuntimeError", True)
    (err,) = paste("ValueError: everything is fine")
    assert not err.truncated


def test_repeated_tracebacks_are_reported_once() -> None:
    text = "\n".join(
        [prefixed("(VllmWorker rank=0 pid=1) "), prefixed("(VllmWorker rank=1 pid=2) ")]
    )
    errors = paste(text)
    assert len(errors) == 1
    check(errors)


def test_error_quoted_inline_in_prose() -> None:
    errors = paste("When I run it I get `ValueError: max_model_len must be positive` every time")
    assert ("ValueError", "max_model_len must be positive") in [
        (e.exception, e.message) for e in errors
    ]


def test_notebook_colours_whose_escape_character_was_lost() -> None:
    # GitHub shows Jupyter output copied without the ESC bytes: `[0;31m` and friends remain.
    (err,) = paste(
        """
        [0;31m---------------------------------------------------------------------------[0m
        [0;31mValueError[0m                                Traceback (most recent call last)
        Cell [0;32mIn[3], line 2[0m
        [0;32m----> 2[0m foo[38;5;241m.[39mbar(1)

        [0;31mValueError[0m: boom
        """
    )
    assert (err.exception, err.message) == ("ValueError", "boom")
    assert err.frames[0].code == "foo.bar(1)"


def test_equal_length_lines_are_not_mistaken_for_wrapping() -> None:
    # Two workers print the same traceback: its longest lines repeat, and nothing is wrapped.
    errors = paste(TRACEBACK + "\n\n" + TRACEBACK.replace("cpu", "tpu"))
    assert [e.message for e in errors] == [
        "Model meta-llama/Llama-3-8B is not supported on cpu",
        "Model meta-llama/Llama-3-8B is not supported on tpu",
    ]
    assert all(e.frames[0].function == "worker_main" for e in errors)


def test_fixed_width_log_lines_are_not_mistaken_for_wrapping() -> None:
    noise = "INFO 2024-01-01 12:00:00 worker heartbeat ok " * 2 + "\n"
    errors = paste(noise * 50 + "ValueError: retries must be >= 0, got -2")
    assert (errors[0].exception, errors[0].message) == (
        "ValueError",
        "retries must be >= 0, got -2",
    )
