"""parse_paste on errors kept as data: JSON documents, escaped tracebacks, logfmt records,
and frame lines whose start the paste cut off."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

import textwrap

from errdex.match.paste import ErrorEvidence, parse_paste


def paste(text: str) -> list[ErrorEvidence]:
    return list(parse_paste(textwrap.dedent(text).strip("\n")).errors)


def test_serverless_error_document() -> None:
    # AWS Lambda's answer to an invocation that raised (azerpas/nike-snkrs-pass-monitor#1).
    (err,) = paste(
        """
        {

        "errorMessage": "Unable to import module 'lambda_function': No module named 'lambda_function'",

        "errorType": "Runtime.ImportModuleError",

        "requestId": "b256388f-2bb3-408c-932c-4cfc57cfdb4c",

        "stackTrace": []

        }
        """
    )
    assert err.exception == "Runtime.ImportModuleError"
    assert (
        err.message
        == "Unable to import module 'lambda_function': No module named 'lambda_function'"
    )


def test_serverless_document_on_one_line() -> None:
    # aws/aws-lambda-python-runtime-interface-client#29, cut before its closing brace.
    (err,) = paste(
        """{"errorMessage": "Unable to import module 'solution.inference.lambda_app': No module named 'inference'", "errorType": "Runtime.ImportModuleError\""""
    )
    assert err.exception is None  # the document is cut: its message is all there is
    assert "No module named 'inference'" in err.message


def test_serverless_frames_as_lists() -> None:
    # chalice's debug answer (aws/chalice#83): frames as [path, line, function, code].
    (err,) = paste(
        """
        {
            "errorMessage": "Raising an exception!",
            "errorType": "RuntimeError",
            "stackTrace": [
                [
                    "/var/task/chalice/__init__.py",
                    192,
                    "__call__",
                    "response = view_function(*function_args)"
                ],
                [
                    "/var/task/app.py",
                    15,
                    "b",
                    "raise RuntimeError(\\"Raising an exception!\\")"
                ]
            ]
        }
        """
    )
    assert (err.exception, err.message) == ("RuntimeError", "Raising an exception!")
    assert [(f.path, f.line, f.function) for f in err.frames] == [
        ("/var/task/chalice/__init__.py", 192, "__call__"),
        ("/var/task/app.py", 15, "b"),
    ]
    assert err.frames[-1].code == 'raise RuntimeError("Raising an exception!")'


def test_json_log_record_with_an_escaped_traceback() -> None:
    # json-log-formatter's record of logger.exception (marselester/json-log-formatter#17).
    errors = paste(
        r"""{"message": "Got exception on main handler", "time": "2021-01-22T09:22:46.028294", "exc_info": "Traceback (most recent call last):\n  File \"C:\\Users\\LLIU82\\localtest\\test.py\", line 9, in <module>\n    run_my_stuff()\nNameError: name 'run_my_stuff' is not defined"}"""
    )
    err = errors[0]
    assert (err.exception, err.message) == ("NameError", "name 'run_my_stuff' is not defined")
    (frame,) = err.frames
    assert (frame.path, frame.line, frame.code) == (
        "C:\\Users\\LLIU82\\localtest\\test.py",
        9,
        "run_my_stuff()",
    )
    assert any(e.message == "Got exception on main handler" for e in errors[1:])


def test_json_answer_holding_the_error_text() -> None:
    # An application's JSON answer wrapping requests' error (xtekky/chatgpt-clone#35).
    errors = paste(
        """`{"_action":"_ask","error":"an error occurred HTTPSConnectionPool(host='ddg-api.herokuapp.com', port=443): Max retries exceeded with url: /search?query=hi&limit=3 (Caused by ConnectTimeoutError(<urllib3.connection.HTTPSConnection object at 0x0000027A0A0FD210>, 'Connection to ddg-api.herokuapp.com timed out. (connect timeout=None)'))","success":false}`"""
    )
    assert errors[0].level == "ERROR"
    assert errors[0].message.startswith("an error occurred HTTPSConnectionPool(host=")
    assert errors[0].message.endswith("(connect timeout=None)'))")


def test_escaped_traceback_in_a_plain_log_line() -> None:
    # The traceback of json-log-formatter#17 as a log shipper prints a record's field.
    (err, *_) = paste(
        r"""2021-01-22 09:22:46 ERROR worker exc_info="Traceback (most recent call last):\n  File \"/srv/app/test.py\", line 9, in <module>\n    run_my_stuff()\nNameError: name 'run_my_stuff' is not defined" pid=7"""
    )
    assert (err.exception, err.message) == ("NameError", "name 'run_my_stuff' is not defined")
    assert [(f.path, f.line) for f in err.frames] == [("/srv/app/test.py", 9)]


def test_logfmt_record() -> None:
    # No public paste of a logfmt record was found; this is the logfmt form of requests'
    # message from mirabarukaso/ComfyUI_Mira#8, as `logfmter` writes a record.
    errors = paste(
        """at=ERROR time=2024-03-01T10:00:00Z msg="fetch failed" error="Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?" level=ERROR"""
    )
    assert (errors[0].level, errors[0].message) == (
        "ERROR",
        "Invalid URL 'local': No scheme supplied. Perhaps you meant https://local?",
    )
    assert [e.message for e in errors[1:]] == ["fetch failed"]


def test_code_with_keyword_arguments_is_not_logfmt() -> None:
    (err,) = paste(
        """
        Traceback (most recent call last):
          File "/srv/app/run.py", line 3, in <module>
            logger.log(level=40, msg="x")
        ValueError: level=40 msg=x is not valid
        """
    )
    assert err.frames[0].code == 'logger.log(level=40, msg="x")'
    assert err.message == "level=40 msg=x is not valid"


def test_frame_line_cut_at_its_start() -> None:
    # liyaxuanliyaxuan/TinyVLA#17: the paste starts after `  File "/…/site-packages/`.
    (err,) = paste(
        """
        ```
        transformers/models/auto/configuration_auto.py", line 1119, in from_pretrained
        raise ValueError(
        ValueError: The checkpoint you are trying to load has model type `llava_pythia` but Transformers does not recognize this architecture. This could be because of an issue with the checkpoint, or because your version of Transformers is out of date.
        ```
        """
    )
    assert err.exception == "ValueError"
    ((path, line, function, code),) = [(f.path, f.line, f.function, f.code) for f in err.frames]
    assert (path, line, function) == (
        "transformers/models/auto/configuration_auto.py",
        1119,
        "from_pretrained",
    )
    assert code == "raise ValueError("


def test_frame_line_cut_inside_file() -> None:
    (err,) = paste(
        """
        le "/usr/lib/python3/site-packages/requests/models.py", line 440, in prepare_url
            f"Invalid URL {url!r}: No scheme supplied. "
        requests.exceptions.MissingSchema: Invalid URL 'None/query': No scheme supplied. Perhaps you meant http://None/query?
        """
    )
    assert [(f.path, f.line) for f in err.frames] == [
        ("/usr/lib/python3/site-packages/requests/models.py", 440)
    ]


def test_lines_of_several_processes_are_read_process_by_process() -> None:
    # vllm-project/vllm#14095: two workers' tracebacks printed line between line.
    from errdex.match.paste_cleanup import prepare
    from errdex.match.paste_lines import read_lines

    raw = textwrap.dedent(
        """
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] output = run_method(worker, method, args, kwargs)
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] ^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^^
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] File "/home/uefi/vllm/source/vllm/vllm/utils.py", line 2232, in run_method
        (VllmWorkerProcess pid=185216) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] Exception in worker VllmWorkerProcess while processing method determine_num_available_blocks.
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] return func(*args, **kwargs)
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] ^^^^^^^^^^^^^^^^^^^^^
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] File "/home/uefi/.local/lib/python3.12/site-packages/torch/utils/_contextlib.py", line 116, in decorate_context
        (VllmWorkerProcess pid=185216) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] Traceback (most recent call last):
        (VllmWorkerProcess pid=185215) ERROR 03-02 17:57:30 [multiproc_worker_utils.py:242] return func(*args, **kwargs)
        """
    ).strip()
    texts = [ln.text for ln in read_lines(prepare(raw)) if not ln.brk]
    assert texts == [
        "output = run_method(worker, method, args, kwargs)",
        "^" * 40,
        'File "/home/uefi/vllm/source/vllm/vllm/utils.py", line 2232, in run_method',
        "return func(*args, **kwargs)",
        "^" * 21,
        'File "/home/uefi/.local/lib/python3.12/site-packages/torch/utils/_contextlib.py", line 116, in decorate_context',
        "return func(*args, **kwargs)",
        "Exception in worker VllmWorkerProcess while processing method determine_num_available_blocks.",
        "Traceback (most recent call last):",
    ]


def test_a_traceback_through_another_process_lines_is_whole() -> None:
    # vllm's engine and API server printing at once (as in vllm-project/vllm#28910, whose
    # engine error is shortened here to one frame).
    errors = paste(
        """
        [1;36m(EngineCore_DP0 pid=975)[0;0m ERROR 11-14 08:06:26 [core.py:708] Traceback (most recent call last):
        (APIServer pid=1) Traceback (most recent call last):
        [1;36m(EngineCore_DP0 pid=975)[0;0m ERROR 11-14 08:06:26 [core.py:708]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/executor/multiproc_executor.py", line 509, in wait_for_ready
        (APIServer pid=1)   File "/usr/local/bin/vllm", line 10, in <module>
        [1;36m(EngineCore_DP0 pid=975)[0;0m ERROR 11-14 08:06:26 [core.py:708]     raise e from None
        (APIServer pid=1)     sys.exit(main())
        [1;36m(EngineCore_DP0 pid=975)[0;0m ERROR 11-14 08:06:26 [core.py:708] Exception: WorkerProc initialization failed due to an exception in a background process. See stack trace for root cause.
        (APIServer pid=1) RuntimeError: Engine core initialization failed. See root cause above. Failed core proc(s): {}
        """
    )
    engine = next(e for e in errors if e.exception == "Exception")
    assert [(f.line, f.code) for f in engine.frames] == [(509, "raise e from None")]
    server = next(e for e in errors if e.exception == "RuntimeError")
    assert [(f.line, f.code) for f in server.frames] == [(10, "sys.exit(main())")]


def test_a_warning_broken_after_its_place() -> None:
    # simonw/datasette#2307: the warning's `file:line:` on a line of its own.
    (err,) = paste(
        """
        ```
          /opt/hostedtoolcache/Python/3.12.2/x64/lib/python3.12/site-packages/httpx/_client.py:1559:
        DeprecationWarning: Setting per-request cookies=<...> is being deprecated, because the expected behaviour on cookie persistence is ambiguous. Set cookies directly on the client instance instead.
        ```
        """
    )
    assert err.exception == "DeprecationWarning"
    assert err.message.startswith("Setting per-request cookies=<...> is being deprecated")
    assert (err.hint_file, err.hint_line) == (
        "/opt/hostedtoolcache/Python/3.12.2/x64/lib/python3.12/site-packages/httpx/_client.py",
        1559,
    )
