"""parse_paste on log output and printed warnings."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import textwrap

from errdex.match.paste import ErrorEvidence, parse_paste


def paste(text: str) -> list[ErrorEvidence]:
    return list(parse_paste(textwrap.dedent(text).strip("\n")).errors)


def test_vllm_log_line_with_file_hint() -> None:
    (err,) = paste(
        "ERROR 01-23 12:34:56 [engine.py:123] Model architectures ['Foo'] are not supported"
    )
    assert err.exception is None
    assert err.message == "Model architectures ['Foo'] are not supported"
    assert (err.level, err.hint_file, err.hint_line) == ("ERROR", "engine.py", 123)


def test_uvicorn_padded_level() -> None:
    # uvicorn's default format pads the level (`%(levelprefix)s %(message)s`).
    (err,) = paste("WARNING:  Invalid HTTP request received.")
    assert (err.level, err.message) == ("WARNING", "Invalid HTTP request received.")


def test_vllm_traceback_inside_log_records() -> None:
    # Adapted from vllm-project/vllm#25840: every line carries the process and log prefix.
    errors = paste(
        """
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712] EngineCore failed to start.
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712] Traceback (most recent call last):
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712]   File "/home/jovyan/vllm/vllm/v1/engine/core.py", line 703, in run_engine_core
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712]     engine_core = EngineCoreProc(*args, **kwargs)
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712]                   ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712]   File "/home/jovyan/vllm/vllm/v1/pool/metadata.py", line 191, in get_pooling_params
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712]     raise ValueError(f"Unsupported task: {task!r}")
        (EngineCore_DP0 pid=2104) ERROR 09-29 02:28:32 [core.py:712] ValueError: Unsupported task: 'reward'
        (EngineCore_DP0 pid=2104) Process EngineCore_DP0:
        """
    )
    assert [(e.exception, e.message) for e in errors] == [
        ("ValueError", "Unsupported task: 'reward'"),
        (None, "EngineCore failed to start."),
    ]
    tb, log = errors
    assert [f.line for f in tb.frames] == [703, 191]
    assert tb.frames[1].code == 'raise ValueError(f"Unsupported task: {task!r}")'
    assert tb.level is None and tb.hint_file is None
    assert (log.level, log.hint_file, log.hint_line) == ("ERROR", "core.py", 712)


def test_traceback_starting_mid_line() -> None:
    # From vllm-project/production-stack#407.
    errors = paste(
        """
        ERROR 05-06 01:55:26 [core.py:383] EngineCore hit an exception: Traceback (most recent call last):
        ERROR 05-06 01:55:26 [core.py:383]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/engine/core.py", line 374, in run_engine_core
        ERROR 05-06 01:55:26 [core.py:383]     engine_core = EngineCoreProc(*args, **kwargs)
        ERROR 05-06 01:55:26 [core.py:383] RuntimeError: CUDA out of memory
        """
    )
    assert [(e.exception, e.message) for e in errors] == [
        ("RuntimeError", "CUDA out of memory"),
        (None, "EngineCore hit an exception:"),
    ]


def test_old_vllm_prefix_without_bracket() -> None:
    (err,) = paste("WARNING 01-03 18:37:00 config.py:37] Casting torch.bfloat16 to torch.float16.")
    assert (err.level, err.hint_file, err.hint_line) == ("WARNING", "config.py", 37)
    assert err.message == "Casting torch.bfloat16 to torch.float16."


def test_home_assistant_format() -> None:
    # Home Assistant's `%(asctime)s %(levelname)s (%(threadName)s) [%(name)s] %(message)s`,
    # with a two-digit year (home-assistant/core#90231).
    (err,) = paste(
        "23-03-26 17:21:50 WARNING (raven-sentry.BackgroundWorker) [urllib3.connectionpool] "
        "Retrying (Retry(total=0)) after connection broken by 'timeout': /api/5370612/envelope/"
    )
    assert (err.level, err.logger) == ("WARNING", "urllib3.connectionpool")
    assert err.message.startswith("Retrying (Retry(total=0)) after")


def test_a_logger_name_inside_the_time_brackets() -> None:
    # nonebot's `[%(asctime)s %(name)s] %(levelname)s: %(message)s` (Lanly109/headimg_generator#64).
    (err,) = paste(
        "[2025-05-20 22:20:41,375 nonebot] ERROR: could not determine a constructor for the tag "
        "'tag:yaml.org,2002:python/object/apply:hoshino.MemeMode'"
    )
    assert (err.level, err.logger) == ("ERROR", "nonebot")
    assert err.message.startswith("could not determine a constructor for the tag 'tag:")


def test_records_of_one_logger_at_other_times_are_other_messages() -> None:
    errors = paste(
        """
        23-03-26 17:21:50 WARNING (MainThread) [urllib3.connectionpool] Retrying (Retry(total=1)) after connection broken by 'timeout': /api/envelope/
        23-03-26 17:22:40 WARNING (MainThread) [urllib3.connectionpool] Retrying (Retry(total=0)) after connection broken by 'timeout': /api/envelope/
        """
    )
    assert [e.message.split(" after")[0] for e in errors] == [
        "Retrying (Retry(total=1))",
        "Retrying (Retry(total=0))",
    ]


def test_python_logging_default_format() -> None:
    # From tatsu-lab/alpaca_farm#72 and rstrudel/segmenter#51.
    errors = paste(
        """
        WARNING:root:Your base LLaMA checkpoint is converted with transformers==4.27.0.dev0, but transformers>=4.29.2 is expected.
        ERROR:torch.distributed.elastic.multiprocessing.api:failed (exitcode: 1) local_rank: 0 (pid: 820989) of binary: /usr/bin/python
        INFO:torch.distributed.elastic.agent.server.api:Local worker group finished (FAILED).
        """
    )
    assert [(e.level, e.logger) for e in errors] == [
        ("WARNING", "root"),
        ("ERROR", "torch.distributed.elastic.multiprocessing.api"),
    ]
    assert errors[0].message.startswith("Your base LLaMA checkpoint is converted with")
    assert errors[1].message.startswith("failed (exitcode: 1) local_rank: 0")


def test_asctime_name_level_format_with_continuation() -> None:
    (err,) = paste(
        """
        2024-05-01 10:00:00,123 - transformers.modeling_utils - WARNING - Some weights of BertModel were not initialized from the model checkpoint at bert-base-uncased and are newly initialized: ['classifier.bias']
        You should probably TRAIN this model on a down-stream task to be able to use it for predictions and inference.
        2024-05-01 10:00:01,001 - __main__ - INFO - training started
        """
    )
    assert (err.level, err.logger) == ("WARNING", "transformers.modeling_utils")
    assert err.message.startswith("Some weights of BertModel were not initialized")
    assert err.message.endswith("to be able to use it for predictions and inference.")


def test_many_timestamp_formats() -> None:
    cases = {
        "2024-05-01T10:00:00.123456Z ERROR boom one": "boom one",
        "[2024-05-01 10:00:00,123] [WARNING] [real_accelerator.py:161:get_accelerator] boom two": (
            "boom two"
        ),
        "2024-05-01 10:00:00.123 | ERROR    | app.main:run:42 - boom three": "boom three",
        "[2024-02-27 21:05:18,670] {taskinstance.py:1234} ERROR - boom four": "boom four",
        "Feb 25 22:47:13.367776 lba-1 untether[1922174]: ERROR boom five": "boom five",
        "10-08 22:25:00 [ERROR] uvicorn | boom six": "boom six",
        "2024/05/01 10:00:00 [error] boom seven": "boom seven",
        "E0123 12:34:56.789012 140221 server.py:77] boom eight": "boom eight",
        "[rank0]:[W1023 01:30:27.398227015 ProcessGroupNCCL.cpp:1250] Warning: boom nine": (
            "Warning: boom nine"
        ),
        "12:34:56 ERROR boom ten": "boom ten",
    }
    for line, message in cases.items():
        (err, *_) = paste(line)
        assert err.message == message, line
        assert err.level in ("ERROR", "WARNING"), line
    (err,) = paste(
        "[2024-05-01 10:00:00,123] [WARNING] [real_accelerator.py:161:get_accelerator] x y"
    )
    assert (err.hint_file, err.hint_line) == ("real_accelerator.py", 161)
    (err,) = paste("[2024-02-27 21:05:18,670] {taskinstance.py:1234} ERROR - x y")
    assert (err.hint_file, err.hint_line) == ("taskinstance.py", 1234)
    (err,) = paste("2024-05-01 10:00:00.123 | ERROR    | app.main:run:42 - x y")
    assert err.logger == "app.main"


def test_info_lines_only_when_nothing_else() -> None:
    (err,) = paste("INFO 01-03 18:37:00 [llm_engine.py:73] Initializing an LLM engine with config")
    assert err.level == "INFO"
    errors = paste(
        """
        INFO 01-03 18:37:00 [llm_engine.py:73] Initializing an LLM engine with config
        ERROR 01-03 18:37:05 [worker.py:99] out of memory
        """
    )
    assert [e.message for e in errors] == ["out of memory"]


def test_warning_as_printed_by_python() -> None:
    # From Vchitect/DCM#4: the code line under the warning is not part of the message.
    errors = paste(
        """
        /usr/local/lib/python3.10/dist-packages/xformers/ops/fmha/flash.py:211: FutureWarning: `torch.library.impl_abstract` was renamed to `torch.library.register_fake`. Please use that instead.
          @torch.library.impl_abstract("xformers_flash::flash_fwd")
        /home/u/train.py:12: UserWarning: the value of max_length
        is deprecated
          warnings.warn(
        """
    )
    assert [(e.exception, e.hint_file, e.hint_line) for e in errors] == [
        (
            "FutureWarning",
            "/usr/local/lib/python3.10/dist-packages/xformers/ops/fmha/flash.py",
            211,
        ),
        ("UserWarning", "/home/u/train.py", 12),
    ]
    assert errors[0].message.startswith("`torch.library.impl_abstract` was renamed")
    assert errors[1].message == "the value of max_length\nis deprecated"


def test_warning_in_pytest_summary_and_lost_indentation() -> None:
    errors = paste(
        """
        tests/test_x.py::test_y
          /venv/lib/site-packages/transformers/utils/generic.py:441: DeprecationWarning: torch.utils._pytree._register_pytree_node is deprecated
            _torch_pytree._register_pytree_node(
        """
    )
    assert errors[0].exception == "DeprecationWarning"
    assert errors[0].message == "torch.utils._pytree._register_pytree_node is deprecated"
    (err,) = paste(
        """
        C:\\Users\\me\\app\\main.py:5: UserWarning: frobnication is slow
        warnings.warn("frobnication is slow")
        """
    )
    assert (err.message, err.hint_file) == ("frobnication is slow", "C:\\Users\\me\\app\\main.py")


def test_a_container_runtime_log() -> None:
    # `kubectl logs` of a node's CRI files: `<time> <stream> <F|P> <line>` on every line
    # (the shape of public k8s log-triage fixtures).
    (err,) = paste(
        """
        2026-04-02T09:14:24.900000000Z stdout F INFO:root:Model loaded (2.1 GB). Ready.
        2026-04-02T09:14:25.001000000Z stderr F Traceback (most recent call last):
        2026-04-02T09:14:25.002000000Z stderr F   File "/app/worker.py", line 89, in _run
        2026-04-02T09:14:25.002000000Z stderr F     task = load(path)
        2026-04-02T09:14:25.002000000Z stderr F   File "/usr/local/lib/python3.11/site-packages/tomlkit/api.py", line 260, in value
        2026-04-02T09:14:25.003000000Z stderr F     raise UnexpectedCharError(v, 0)
        2026-04-02T09:14:25.004000000Z stderr F tomlkit.exceptions.UnexpectedCharError: Unexpected character: 'N' at line 1 col 0
        """
    )
    assert (err.exception, err.message) == (
        "tomlkit.exceptions.UnexpectedCharError",
        "Unexpected character: 'N' at line 1 col 0",
    )
    assert [(f.path, f.line, f.code) for f in err.frames] == [
        ("/app/worker.py", 89, "task = load(path)"),
        (
            "/usr/local/lib/python3.11/site-packages/tomlkit/api.py",
            260,
            "raise UnexpectedCharError(v, 0)",
        ),
    ]


def test_a_heroku_log_whose_indentation_was_lost() -> None:
    # The shape of public issues' `heroku logs` pastes: time, then `app[web.1]:`, and
    # (here) the frames' indentation gone.
    (err,) = paste(
        """
        2019-05-29T00:02:41.106136+00:00 app[web.1]: Internal Server Error: /
        2019-05-29T00:02:41.106148+00:00 app[web.1]: Traceback (most recent call last):
        2019-05-29T00:02:41.106151+00:00 app[web.1]: File "/app/.heroku/python/lib/python3.6/site-packages/django/template/base.py", line 898, in _resolve_lookup
        2019-05-29T00:02:41.106153+00:00 app[web.1]: current = current[int(bit)]
        2019-05-29T00:02:41.106155+00:00 app[web.1]: ValueError: invalid literal for int() with base 10: 'name'
        2019-05-29T00:02:41.106157+00:00 heroku[router]: at=info method=GET path="/" status=500
        """
    )
    assert (err.exception, err.message) == (
        "ValueError",
        "invalid literal for int() with base 10: 'name'",
    )
    assert [(f.line, f.function, f.code) for f in err.frames] == [
        (898, "_resolve_lookup", "current = current[int(bit)]")
    ]
