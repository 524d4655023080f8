"""Platform tests: a function whose body is one `return` of a query of the machine
(`extract.environment.platform_tests`)."""

from __future__ import annotations

from errdex.extract.environment import platform_tests

# One query for each alternative of `PLATFORM_WORDS` (the list mirrors them): each must also
# pass the cheap gate of words the scan tries first.
QUERIES = (
    "current_platform.is_rocm()",
    "has_device_capability_family(100)",
    "is_device_capability(90)",
    "get_device_capability()[0] >= 9",
    "torch.cuda.is_available()",
    "torch.backends.mps.is_available()",
    "sys.platform == 'darwin'",
    "os.name == 'nt'",
    "platform.system() == 'Linux'",
)


def test_a_function_returning_any_platform_query_is_a_platform_test() -> None:
    for query in QUERIES:
        assert platform_tests(f"def check():\n    return {query}\n") == {"check": query}, query
    assert platform_tests("def enabled(self):\n    return self.enabled\n") == {}


def test_each_function_returning_a_query_is_named_with_the_query() -> None:
    text = (
        "def on_rocm() -> bool:\n"
        "    return current_platform.is_rocm()\n"
        "\n"
        "def blackwell():\n"
        "    return has_device_capability_family(100)\n"
    )
    assert platform_tests(text) == {
        "on_rocm": "current_platform.is_rocm()",
        "blackwell": "has_device_capability_family(100)",
    }
