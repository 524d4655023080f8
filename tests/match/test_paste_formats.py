"""parse_paste on the formats errors are printed in: tracebacks, notebooks, pytest, rich, logs."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import textwrap

from errdex.match.paste import ErrorEvidence, Frame, parse_paste


def paste(text: str) -> list[ErrorEvidence]:
    return list(parse_paste(textwrap.dedent(text).strip("\n")).errors)


def test_bare_message_one_line() -> None:
    (err,) = paste("Model Runner V1 does not support: dual batch overlap with LoRA")
    assert err.exception is None
    assert err.message == "Model Runner V1 does not support: dual batch overlap with LoRA"
    assert not err.truncated and err.frames == ()


def test_bare_message_many_lines() -> None:
    (err,) = paste(
        """
        Cannot use FlashAttention-2 backend because the vllm.vllm_flash_attn package
        is not found. Make sure that vllm_flash_attn was built and installed
        """
    )
    assert err.exception is None
    assert (
        err.message.splitlines()[1]
        == "is not found. Make sure that vllm_flash_attn was built and installed"
    )


def test_exception_line_with_module_path() -> None:
    (err,) = paste(
        "pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig"
    )
    assert err.exception == "pydantic_core._pydantic_core.ValidationError"
    assert err.message == "1 validation error for ModelConfig"


def test_exception_line_with_a_private_class() -> None:
    # tomlkit 0.12.5: `raise _ConvertError(f"Invalid type {type(value)}")`
    (err,) = paste("tomlkit.items._ConvertError: Invalid type <class 'NoneType'>")
    assert err.exception == "tomlkit.items._ConvertError"
    assert err.message == "Invalid type <class 'NoneType'>"


def test_exception_message_spanning_lines_until_something_else() -> None:
    # Shape of pydantic v2's message, as in vllm-project/vllm-omni#2170.
    errors = paste(
        """
        pydantic_core._pydantic_core.ValidationError: 1 validation error for ModelConfig
          Value error, Invalid repository ID or local directory specified: '/models/Qwen3-Omni'.
        Please verify the following requirements:
        1. Provide a valid Hugging Face repository ID.

        I tried again with another path and it still fails.
        """
    )
    assert errors[0].exception == "pydantic_core._pydantic_core.ValidationError"
    lines = errors[0].message.splitlines()
    assert lines[0] == "1 validation error for ModelConfig"
    assert lines[-1] == "1. Provide a valid Hugging Face repository ID."
    assert all("tried again" not in e.message for e in errors)


def test_traceback_frames_and_final_exception() -> None:
    # Adapted from mit-han-lab/smoothquant#46.
    (err,) = paste(
        """
        Traceback (most recent call last):
          File "examples/generate_act_scales.py", line 51, in <module>
            main()
          File "/usr/local/lib/python3.8/dist-packages/torch/utils/_contextlib.py", line 115, in decorate_context
            return func(*args, **kwargs)
          File "/usr/lib/python3.8/site-packages/transformers/modeling_utils.py", line 2225, in from_pretrained
            model, missing_keys, unexpected_keys, mismatched_keys, error_msgs = cls._load_pretrained_model(
                                                                               ^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        RuntimeError: Error(s) in loading state_dict for OPTForCausalLM:
        \tsize mismatch for model.decoder.embed_tokens.weight: copying a param with shape torch.Size([50272, 512])
        """
    )
    assert err.exception == "RuntimeError"
    assert err.message.startswith("Error(s) in loading state_dict for OPTForCausalLM:\n")
    assert "size mismatch for model.decoder.embed_tokens.weight" in err.message
    assert [f.line for f in err.frames] == [51, 115, 2225]
    assert err.frames[0] == Frame("examples/generate_act_scales.py", 51, "<module>", "main()")
    assert err.frames[-1].function == "from_pretrained"
    assert err.frames[-1].code is not None and err.frames[-1].code.startswith("model, missing_keys")


def test_frames_without_code_and_python_313_markers() -> None:
    # Shape of vllm-project/vllm#13124 and #27321 (3.13 prints `~~~^^` and multi-line calls).
    (err,) = paste(
        """
        Traceback (most recent call last):
          File "<frozen runpy>", line 198, in _run_module_as_main
          File "uvloop/loop.pyx", line 1518, in uvloop.loop.Loop.run_until_complete
          File "/opt/venv/lib/python3.13/site-packages/vllm/v1/engine/core.py", line 543, in __init__
            super().__init__(
            ~~~~~~~~~~~~~~~~^
                vllm_config, executor_class, log_stats, executor_fail_callback
            )
            ^
          File "/opt/venv/lib/python3.13/site-packages/vllm/v1/engine/core.py", line 109, in __init__
            num_gpu_blocks, num_cpu_blocks, kv_cache_config = self._initialize_kv_caches(
          [Previous line repeated 2 more times]
        ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.
        """
    )
    assert err.exception == "ValueError"
    assert err.message.startswith("No available memory for the cache blocks.")
    assert [f.code for f in err.frames] == [
        None,
        None,
        "super().__init__(",
        "num_gpu_blocks, num_cpu_blocks, kv_cache_config = self._initialize_kv_caches(",
    ]


def test_chained_exceptions_final_first() -> None:
    errors = paste(
        """
        Traceback (most recent call last):
          File "/app/loader.py", line 10, in load
            return json.loads(text)
        json.decoder.JSONDecodeError: Expecting value: line 1 column 1 (char 0)

        During handling of the above exception, another exception occurred:

        Traceback (most recent call last):
          File "/app/loader.py", line 12, in load
            raise ConfigError(f"cannot read {path}") from err
        app.errors.ConfigError: cannot read /etc/app.json

        The above exception was the direct cause of the following exception:

        Traceback (most recent call last):
          File "/app/main.py", line 3, in <module>
            start()
        RuntimeError: startup failed
        """
    )
    assert [(e.exception, e.message) for e in errors] == [
        ("RuntimeError", "startup failed"),
        ("app.errors.ConfigError", "cannot read /etc/app.json"),
        ("json.decoder.JSONDecodeError", "Expecting value: line 1 column 1 (char 0)"),
    ]
    assert errors[1].frames[0].code == 'raise ConfigError(f"cannot read {path}") from err'


def test_exception_group() -> None:
    # Shape of Python 3.11's printout, as quoted in davidbrochart/anycorn#89.
    errors = paste(
        """
          + Exception Group Traceback (most recent call last):
          |   File "/srv/.venv/lib/python3.12/site-packages/anyio/_backends/_asyncio.py", line 767, in __aexit__
          |     raise BaseExceptionGroup(
          | ExceptionGroup: unhandled errors in a TaskGroup (2 sub-exceptions)
          +-+---------------- 1 ----------------
            | Traceback (most recent call last):
            |   File "/srv/app/handlers.py", line 53, in _handle
            |     await send(None)
            | ValueError: stream 3 is closed
            +---------------- 2 ----------------
            | TypeError: 'NoneType' object is not subscriptable
            +------------------------------------
        """
    )
    assert [(e.exception, e.message) for e in errors] == [
        ("ExceptionGroup", "unhandled errors in a TaskGroup (2 sub-exceptions)"),
        ("ValueError", "stream 3 is closed"),
        ("TypeError", "'NoneType' object is not subscriptable"),
    ]
    assert errors[0].frames[0].line == 767
    assert errors[1].frames == (Frame("/srv/app/handlers.py", 53, "_handle", "await send(None)"),)


def test_pytest_long_output() -> None:
    errors = paste(
        """
        =================================== FAILURES ===================================
        _________________________________ test_config __________________________________

            def test_config():
        >       load_config("missing.toml")

        tests/test_config.py:12:
        _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _ _

        path = 'missing.toml'

            def load_config(path):
                if not os.path.exists(path):
        >           raise FileNotFoundError(f"config file {path!r} does not exist")
        E           FileNotFoundError: config file 'missing.toml' does not exist
        E           while loading the app

        src/app/config.py:30: FileNotFoundError
        =========================== short test summary info ============================
        FAILED tests/test_config.py::test_config - FileNotFoundError: config file 'missing.toml' does...
        """
    )
    err = errors[0]
    assert err.exception == "FileNotFoundError"
    assert err.message == "config file 'missing.toml' does not exist\nwhile loading the app"
    assert err.frames[-1] == Frame(
        "src/app/config.py",
        30,
        None,
        'raise FileNotFoundError(f"config file {path!r} does not exist")',
    )
    assert err.frames[0].path == "tests/test_config.py"
    # The summary line repeats the error cut short: it adds nothing.
    assert len([e for e in errors if e.exception == "FileNotFoundError"]) == 1


def test_pytest_short_traceback() -> None:
    (err,) = paste(
        """
        tests/test_models.py:8: in test_user
            User(name=None)
        src/app/models.py:20: in __init__
            raise TypeError("name must be a string")
        E   TypeError: name must be a string
        """
    )
    assert err.exception == "TypeError"
    assert err.message == "name must be a string"
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        ("tests/test_models.py", 8, "test_user"),
        ("src/app/models.py", 20, "__init__"),
    ]


def test_jupyter_traceback_with_ansi_codes() -> None:
    esc = "\x1b"
    text = (
        f"{esc}[0;31m---------------------------------------------------------------------------{esc}[0m\n"
        f"{esc}[0;31mValueError{esc}[0m                                Traceback (most recent call last)\n"
        f"Cell {esc}[0;32mIn[3], line 2{esc}[0m\n"
        f"{esc}[1;32m      1{esc}[0m {esc}[38;5;28;01mimport{esc}[39;00m {esc}[38;5;21;01mfoo{esc}[39;00m\n"
        f"{esc}[0;32m----> 2{esc}[0m foo{esc}[38;5;241m.{esc}[39mbar(1)\n"
        "\n"
        f"File {esc}[0;32m~/work/foo.py:12{esc}[0m, in {esc}[0;36mbar{esc}[0;34m(a){esc}[0m\n"
        f"{esc}[1;32m     10{esc}[0m {esc}[38;5;28;01mdef{esc}[39;00m {esc}[38;5;21mbar{esc}[39m(a):\n"
        f'{esc}[0;32m---> 12{esc}[0m     {esc}[38;5;28;01mraise{esc}[39;00m {esc}[38;5;167;01mValueError{esc}[39;00m("boom")\n'
        "\n"
        f"{esc}[0;31mValueError{esc}[0m: boom\n"
    )
    (err,) = parse_paste(text).errors
    assert (err.exception, err.message) == ("ValueError", "boom")
    assert err.frames == (
        Frame("Cell In[3]", 2, None, "foo.bar(1)"),
        Frame("~/work/foo.py", 12, "bar", 'raise ValueError("boom")'),
    )


def test_old_ipython_and_colab_tracebacks() -> None:
    # Shapes of stitchfix/nodebook#20 (IPython 7) and the Colab paste in ipython/ipython#13608.
    (err,) = paste(
        """
        ValueError                                Traceback (most recent call last)
        <ipython-input-7-705f095156ba> in <module>
        ----> 1 get_ipython().run_cell_magic('execute_cell', ' EB91', 'x = 4\\n')

        7 frames
        [/usr/local/lib/python3.10/dist-packages/pandas/core/generic.py](https://localhost:8080/#) in __array__(self, dtype, copy)
           2151     ) -> np.ndarray:
        -> 2152         values = self._values
           2153         arr = np.asarray(values, dtype=dtype)

        ~/git/nodebook/nodebook/ipython/nodebookext.py in execute_cell(line, cell)
             71     assert NODEBOOK_STATE['nodebook'] is not None
        ---> 72     cell_id, parent_id = line.lstrip().split(' ')

        ValueError: not enough values to unpack (expected 2, got 1)
        """
    )
    assert err.exception == "ValueError"
    assert err.message == "not enough values to unpack (expected 2, got 1)"
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        ("<ipython-input-7-705f095156ba>", 1, "<module>"),
        ("/usr/local/lib/python3.10/dist-packages/pandas/core/generic.py", 2152, "__array__"),
        ("~/git/nodebook/nodebook/ipython/nodebookext.py", 72, "execute_cell"),
    ]
    assert err.frames[-1].code == "cell_id, parent_id = line.lstrip().split(' ')"


def test_ipython_input_cell() -> None:
    # From ipython/ipython#13608.
    (err,) = paste(
        """
        ---------------------------------------------------------------------------
        ZeroDivisionError                         Traceback (most recent call last)
        Input In [1], in <cell line: 1>()
              2 x=1
              3 y=2
        ----> 4 z=1/0

        ZeroDivisionError: division by zero
        """
    )
    assert (err.exception, err.message) == ("ZeroDivisionError", "division by zero")
    assert err.frames == (Frame("Input In [1]", 4, "<cell line: 1>", "z=1/0"),)


def test_rich_boxed_traceback() -> None:
    # Shape of rich's output in NVIDIA-NeMo/Run#221 and bmaltais/kohya_ss#1068 (Windows path).
    (err,) = paste(
        """
        ╭───────────────────── Traceback (most recent call last) ──────────────────────╮
        │ /usr/local/bin/nemo:8 in <module>                                            │
        │                                                                              │
        │   5 from nemo_run.__main__ import app                                        │
        │ ❱ 8 │   sys.exit(app())                                                      │
        │                                                                              │
        │ G:\\kohya_ss\\venv\\lib\\site-packages\\torch\\distributed\\elastic\\agent\\server\\api.py:723 in run │
        │                                                                              │
        │   720 │   │   start_time = time.monotonic()                                  │
        │ ❱ 723 │   │   result = self._invoke_run(role)                                │
        │                                                                              │
        │ ╭──────────────────────────────── locals ────────────────────────────────╮   │
        │ │       role = 'default'                                                 │   │
        │ │       self = <LocalElasticAgent object at 0x7ffac0126090>              │   │
        │ ╰────────────────────────────────────────────────────────────────────────╯   │
        ╰──────────────────────────────────────────────────────────────────────────────╯
        RuntimeError: Expected all tensors to be on the same device, but found at least
        two devices, cuda:0 and cpu!
        """
    )
    assert err.exception == "RuntimeError"
    assert (
        err.message.split()
        == (
            "Expected all tensors to be on the same device, but found at least two devices, cuda:0 and cpu!"
        ).split()
    )
    assert [(f.path, f.line, f.function, f.code) for f in err.frames] == [
        ("/usr/local/bin/nemo", 8, "<module>", "sys.exit(app())"),
        (
            "G:\\kohya_ss\\venv\\lib\\site-packages\\torch\\distributed\\elastic\\agent\\server\\api.py",
            723,
            "run",
            "result = self._invoke_run(role)",
        ),
    ]


def test_rich_frame_with_wrapped_path() -> None:
    # Shape of griptape-ai/griptape-nodes-engine#2957: rich wraps a long frame header.
    (err,) = paste(
        """
        ╭──────────────────── Traceback (most recent call last) ────────────────────╮
        │ /Users/dev/Projects/griptape/griptape-nodes/src/griptape_nodes/utils/async_utils.py:30 in │
        │ call_function                                                              │
        │                                                                            │
        │ ❱ 30 │   return await func(*args)                                          │
        ╰────────────────────────────────────────────────────────────────────────────╯
        KeyError: 'node_id'
        """
    )
    assert (err.exception, err.message) == ("KeyError", "'node_id'")
    assert err.frames[0].path.endswith("utils/async_utils.py")
    assert (err.frames[0].line, err.frames[0].function) == (30, "call_function")


def test_rich_error_panel_after_usage() -> None:
    # typer's (and rich-click's) printed usage error: the message wrapped inside a panel
    # titled `Error`, made with rich at 60 columns.
    (err,) = paste(
        """
        Usage: main [OPTIONS]
        Try 'main --help' for help.
        ╭─ Error ──────────────────────────────────────────────────╮
        │ Got unexpected extra argument(s) (Camila) and a much     │
        │ longer text that surely has to be wrapped inside the box │
        ╰──────────────────────────────────────────────────────────╯
        """
    )
    assert err.exception == "Error"
    assert err.message == (
        "Got unexpected extra argument(s) (Camila) and a much longer text that surely has"
        " to be wrapped inside the box"
    )


def test_rich_traceback_then_error_panel() -> None:
    # Two things rich printed one after the other: the panel is not part of the exception's
    # message above it, and a panel cut before its bottom border still reads.
    errors = paste(
        """
        ╭─────────── Traceback (most recent call last) ────────────╮
        │ /tmp/app/gen.py:8 in                                     │
        │ deep_function_with_a_rather_long_name                    │
        │                                                          │
        │ ❱  8 │   raise ValueError(f"Invalid configuration value  │
        ╰──────────────────────────────────────────────────────────╯
        ValueError: Invalid configuration value -5: expected a
        positive integer
        ╭─ Error ──────────────────────────────────────────────────╮
        │ No such option: --foo                                    │
        """
    )
    assert [(e.exception, " ".join(e.message.split())) for e in errors] == [
        ("ValueError", "Invalid configuration value -5: expected a positive integer"),
        ("Error", "No such option: --foo"),
    ]
    assert errors[0].frames[0].function == "deep_function_with_a_rather_long_name"


def test_windows_paths() -> None:
    # Adapted from docker/compose#2135.
    (err,) = paste(
        """
        Traceback (most recent call last):
          File "C:\\Python34\\Scripts\\docker-compose-script.py", line 9, in <module>
            load_entry_point('docker-compose==1.5.0dev', 'console_scripts', 'docker-compose')()
          File "d:\\projects\\github\\compose\\compose\\config\\config.py", line 553, in validate
            raise ValueError("LogConfig.type must be one of (%s)" % ", ".join(types))
        ValueError: LogConfig.type must be one of (json-file, syslog, none)
        """
    )
    assert err.exception == "ValueError"
    assert err.frames[1].path == "d:\\projects\\github\\compose\\compose\\config\\config.py"
    assert err.frames[1].line == 553


def test_syntax_error_frame() -> None:
    (err,) = paste(
        """
          File "/app/settings.py", line 3
            foo(
               ^
        SyntaxError: '(' was never closed
        """
    )
    assert (err.exception, err.message) == ("SyntaxError", "'(' was never closed")
    assert err.frames == (Frame("/app/settings.py", 3, None, "foo("),)
