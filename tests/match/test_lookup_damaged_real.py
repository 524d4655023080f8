"""Lookup of damaged pastes in the shapes users post them in public issues: traceback lines
each behind a process tag and a log header, a terminal's hard wrap through those lines,
a message inside a worker's log line, titles cut mid-sentence, a few words from inside a
message, pytest's short summary, a notebook's traceback, Windows paths and a serverless
platform's JSON answer. Each paste keeps its issue's shape; the code it came from is a
small package written here with the same raises."""
# ruff: noqa: E501  (pastes are kept as printed, long lines and all)

from __future__ import annotations

from collections.abc import Iterator

import pytest

from errdex.indexing import index_source
from errdex.indexing.cache import FactsCache
from errdex.match import lookup_text
from errdex.sources import open_source
from errdex.store.base import Store
from samples import first_match, indexed_store, write_package

# vllm's KV cache checks; the message's wording changed between the two releases.
KV_CACHE = """
GiB_bytes = 1 << 30


def _check_enough_kv_cache_memory(needed_memory, available_memory, max_model_len, estimated):
    if available_memory <= 0:
        raise ValueError(
            "No available memory for the cache blocks. "
            "Try increasing `gpu_memory_utilization` when "
            "initializing the engine."
        )
    if needed_memory > available_memory:
        estimated_msg = ""
        if estimated > 0:
            estimated_msg = (
                "Based on the available memory, "
                f"the estimated maximum model length is {estimated}."
            )
        raise ValueError(
            f"To serve at least one request with the MODEL max seq len "
            f"({max_model_len}), ({needed_memory / GiB_bytes:.2f} GiB KV "
            f"cache is needed, which is larger than the available KV cache "
            f"memory ({available_memory / GiB_bytes:.2f} GiB). "
            f"{estimated_msg} "
            f"Try increasing `gpu_memory_utilization` or decreasing "
            f"`max_model_len` when initializing the engine."
        )
"""
WORKER = """
class Worker:
    def raise_if_cache_size_invalid(self, num_gpu_blocks, block_size, max_model_len):
        max_seq_len = block_size * num_gpu_blocks
        if max_model_len > max_seq_len:
            raise ValueError(
                f"The model's max seq len ({max_model_len}) "
                "is larger than the maximum number of tokens that can be "
                f"stored in KV cache ({max_seq_len}). Try increasing "
                "`gpu_memory_utilization` or decreasing `max_model_len` when "
                "initializing the engine."
            )
"""


def vllm(wording: str) -> dict[str, str]:
    return {
        "vllm/__init__.py": "",
        "vllm/v1/__init__.py": "",
        "vllm/v1/core/__init__.py": "",
        "vllm/v1/core/kv_cache_utils.py": KV_CACHE.replace("MODEL", wording),
        "vllm/worker/__init__.py": "",
        "vllm/worker/worker.py": WORKER,
    }


TRANSFORMERS = {
    "transformers/__init__.py": "",
    "transformers/tokenization_utils_fast.py": """
        class PreTrainedTokenizerFast:
            def __init__(self, *args, **kwargs):
                slow_tokenizer = kwargs.pop("__slow_tokenizer", None)
                fast_tokenizer_file = kwargs.pop("tokenizer_file", None)
                if fast_tokenizer_file is not None:
                    self._tokenizer = fast_tokenizer_file
                elif slow_tokenizer is not None:
                    self._tokenizer = slow_tokenizer
                else:
                    raise ValueError(
                        "Couldn't instantiate the backend tokenizer from one of: "
                        "(1) a `tokenizers` library serialization file, "
                        "(2) a slow tokenizer instance to convert or "
                        "(3) an equivalent slow tokenizer class to instantiate and convert. "
                        "You need to have sentencepiece installed to convert a slow tokenizer to a fast one."
                    )
    """,
    # The same text raised twice: only a frame's line tells which one a traceback went through.
    "transformers/hub.py": """
        def cached_file(path):
            if path is None:
                raise OSError("Can't load the configuration: no path or model id was given.")
            return path


        def cached_files(paths):
            if not paths:
                raise OSError("Can't load the configuration: no path or model id was given.")
            return paths
    """,
    "transformers/pipelines.py": """
        def check_query(query):
            if len(query) < 3:
                raise ValueError("Query must be at least 3 characters long")
            return query
    """,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Iterator[Store]:
    root = tmp_path_factory.mktemp("damaged")
    db = indexed_store(root, "vllm", {"0.10.2": vllm("models's"), "0.14.0": vllm("model's")})
    tree = write_package(root / "transformers", TRANSFORMERS)
    source = open_source(str(tree), project="transformers", version="4.40.0")
    index_source(source, db, cache=FactsCache(root / "facts.sqlite3"))
    yield db
    db.close()


def test_process_tags_and_log_headers_on_every_line(store: Store) -> None:
    # vllm-project/vllm#32105: the engine's traceback, each line behind `(EngineCore_DP0
    # pid=379) ERROR 01-28 00:18:18 [core.py:935]`, then other processes' warnings.
    found = first_match(
        store,
        """
(EngineCore_DP0 pid=379) ERROR 01-28 00:18:18 [core.py:935]     _check_enough_kv_cache_memory(
(EngineCore_DP0 pid=379) ERROR 01-28 00:18:18 [core.py:935]   File "/usr/local/lib/python3.12/dist-packages/vllm/v1/core/kv_cache_utils.py", line 634, in _check_enough_kv_cache_memory
(EngineCore_DP0 pid=379) ERROR 01-28 00:18:18 [core.py:935]     raise ValueError(
(EngineCore_DP0 pid=379) ERROR 01-28 00:18:18 [core.py:935] ValueError: To serve at least one request with the models's max seq len (202752), (71.16 GiB KV cache is needed, which is larger than the available KV cache memory (28.57 GiB). Based on the available memory, the estimated maximum model length is 81392. Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine. See https://docs.vllm.ai/en/latest/configuration/conserving_memory/ for more details.
(Worker_PP6 pid=583) WARNING 01-28 00:18:18 [multiproc_executor.py:786] WorkerProc was terminated
(Worker_PP1 pid=578) WARNING 01-28 00:18:18 [multiproc_executor.py:786] WorkerProc was terminated
        """,
    )
    assert (found.version, found.function) == ("0.10.2", "_check_enough_kv_cache_memory")
    assert found.file == "vllm/v1/core/kv_cache_utils.py"


def test_a_terminal_wrap_through_tagged_lines(store: Store) -> None:
    # SergiioB/intel-arc-pro-b70-inference-cookbook#4: the terminal broke long lines at its
    # width, mid-word, and the broken-off pieces carry no process tag.
    found = first_match(
        store,
        """
(EngineCore pid=316)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/core/kv_cache_utils.py", line 2193, in get_
kv_cache_configs
(EngineCore pid=316)     _check_enough_kv_cache_memory(
(EngineCore pid=316)   File "/opt/venv/lib/python3.12/site-packages/vllm/v1/core/kv_cache_utils.py", line 758, in _chec
k_enough_kv_cache_memory
(EngineCore pid=316)     raise ValueError(
(EngineCore pid=316) ValueError: To serve at least one request with the model's max seq len (100000), (4.26 GiB KV cach
e is needed, which is larger than the available KV cache memory (4.25 GiB). Based on the avai
        """,
    )
    assert (found.version, found.function) == ("0.14.0", "_check_enough_kv_cache_memory")


def test_a_message_inside_a_worker_log_line(store: Store) -> None:
    # vllm-project/vllm#8933: the worker logs `Exception in worker ... while processing
    # method initialize_cache: <message>, Traceback (most recent call last):`.
    found = first_match(
        store,
        """
(VllmWorkerProcess pid=2144909) ERROR 01-12 08:36:38 multiproc_worker_utils.py:233] Exception in worker VllmWorkerProcess while processing method initialize_cache: The model's max seq len (131072) is larger than the maximum number of tokens that can be stored in KV cache (86432). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initializing the engine., Traceback (most recent call last):
(VllmWorkerProcess pid=2144909) ERROR 01-12 08:36:38 multiproc_worker_utils.py:233]   File "/home/qz/.conda/envs/vllmtest/lib/python3.9/site-packages/vllm/executor/multiproc_worker_utils.py", line 226, in _run_worker_process
(VllmWorkerProcess pid=2144909) ERROR 01-12 08:36:38 multiproc_worker_utils.py:233]     output = executor(*args, **kwargs)
        """,
    )
    assert (found.file, found.function) == (
        "vllm/worker/worker.py",
        "Worker.raise_if_cache_size_invalid",
    )


@pytest.mark.parametrize(
    "title",
    [
        # hiyouga/LlamaFactory#7234's title: cut mid-word by the title's length limit.
        "The model's max seq len (128000) is larger than the maximum number of tokens that can be stored in KV cache (78336). Try increasing `gpu_memory_utilization` or decreasing `max_model_len` when initiali",
        # deepseek-ai/DeepSeek-V2#83's title: backticks lost, cut after a word.
        "ValueError: The model's max seq len (163840) is larger than the maximum number of tokens that can be stored in KV cache (13360). Try increasing gpu_memory_utilization or decreasing max_model_len when ",
    ],
)
def test_a_title_cut_mid_sentence(store: Store, title: str) -> None:
    found = first_match(store, title)
    assert found.function == "Worker.raise_if_cache_size_invalid"


@pytest.mark.parametrize(
    "paste",
    [
        # vllm-project/vllm#26884's title: the model's name before the start of the message.
        "[Bug]: Qwen3-VL-8B No available memory for the cache blocks",
        # QwenLM/Qwen3#12's title: the raise's code line glued before the error line.
        'raise ValueError("No available memory for the cache blocks. " ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.',
        # wyf3/llm_related#29: a word of another language glued to the class name.
        "报错ValueError: No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine.",
        # The shape of ad-freiburg/qlever#2020: the message quoted inside a sentence.
        'In my opinion, messages like "No available memory for the cache blocks. Try increasing `gpu_memory_utilization` when initializing the engine." should on allocation failure try again',
        'I keep getting "No available memory for the cache blocks" whenever I start the server',
    ],
)
def test_a_message_inside_other_words(store: Store, paste: str) -> None:
    found = first_match(store, paste)
    assert (found.file, found.line) == ("vllm/v1/core/kv_cache_utils.py", 7)


def test_a_few_words_from_inside_a_message(store: Store) -> None:
    found = first_match(store, "larger than the available KV cache memory")
    assert found.function == "_check_enough_kv_cache_memory"
    assert "the message is a piece of the template" in found.why
    # Copied from inside a value on.
    found = first_match(store, "(4.26 GiB KV cache is needed, which is larger than the available")
    assert found.function == "_check_enough_kv_cache_memory"
    # Two words are too few to tell.
    assert not any(
        m.function == "_check_enough_kv_cache_memory"
        for m in lookup_text(store, "available KV").matches
    )


def test_pytest_short_summary(store: Store) -> None:
    # omicverse/omicverse#403: only the summary lines of a CI run.
    found = first_match(
        store,
        """
=========================== short test summary info ============================
FAILED tests/llm/test_dr_write.py::test_write_composes_report - ValueError: Query must be at least 3 characters long
FAILED tests/llm/test_dr_write.py::test_run_pipeline - ValueError: Query must be at least 3 characters long
======= 2 failed, 10 passed, 1 skipped, 37 warnings in 78.77s (0:01:18) ========
Error: Process completed with exit code 1.
        """,
    )
    assert (found.file, found.function) == ("transformers/pipelines.py", "check_query")
    assert found.exception == "ValueError"


def test_a_notebook_traceback_with_arrows_and_hidden_frames(store: Store) -> None:
    # idb-ita/GilBERTo#1: Colab's traceback, `----> 3` and `4 frames` folded away.
    found = first_match(
        store,
        """
ValueError                                Traceback (most recent call last)

<ipython-input-7-477ce2e93fe8> in <module>()
      1 from transformers import AutoModel, AutoTokenizer
      2 tokenizer = AutoTokenizer.from_pretrained("distilroberta-base")
----> 3 tokenizer = AutoTokenizer.from_pretrained("idb-ita/gilberto-uncased-from-camembert", do_lower_case=True)

4 frames

/usr/local/lib/python3.6/dist-packages/transformers/tokenization_utils_fast.py in __init__(self, *args, **kwargs)
     94         else:
     95             raise ValueError(
---> 96                 "Couldn't instantiate the backend tokenizer from one of: "
     97                 "(1) a `tokenizers` library serialization file, "
     98                 "(2) a slow tokenizer instance to convert or "

ValueError: Couldn't instantiate the backend tokenizer from one of: (1) a `tokenizers` library serialization file, (2) a slow tokenizer instance to convert or (3) an equivalent slow tokenizer class to instantiate and convert. You need to have sentencepiece installed to convert a slow tokenizer to a fast one.
        """,
    )
    assert (found.file, found.function) == (
        "transformers/tokenization_utils_fast.py",
        "PreTrainedTokenizerFast.__init__",
    )
    assert found.confident


def test_windows_paths_pin_one_of_two_raises_of_one_text(store: Store) -> None:
    # The frame shape of BC44/Cross-Seed-AutoDL#7 (a Windows install), into the second raise.
    found = first_match(
        store,
        """
Traceback (most recent call last):
  File "CrossSeedAutoDL.py", line 214, in downloadTorrent
    config = load(path)
  File "C:\\Users\\testuser\\AppData\\Local\\Programs\\Python\\Python38-32\\lib\\site-packages\\transformers\\hub.py", line 10, in cached_files
    raise OSError("Can't load the configuration: no path or model id was given.")
OSError: Can't load the configuration: no path or model id was given.
        """,
    )
    assert (found.file, found.line, found.function) == ("transformers/hub.py", 10, "cached_files")
    assert any("innermost frame" in why for why in found.why)


def test_a_serverless_answer_with_blank_lines_between_its_fields(store: Store) -> None:
    # azerpas/nike-snkrs-pass-monitor#1: the Lambda console's answer, copied with a blank
    # line after each field.
    found = first_match(
        store,
        """
{

"errorMessage": "Query must be at least 3 characters long",

"errorType": "ValueError",

"requestId": "b256388f-2bb3-408c-932c-4cfc57cfdb4c",

"stackTrace": []

}
        """,
    )
    assert (found.file, found.function) == ("transformers/pipelines.py", "check_query")
