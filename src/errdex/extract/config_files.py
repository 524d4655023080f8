"""Config files a program reads in place of its command line (`vllm serve --config x.yaml`).

A parser that loads a YAML, JSON or TOML file and turns each key into a flag (`"--" + key`)
lets a user put any flag's setting in that file: `enforce-eager: true`. The flag that names
the file is the one the same module looks for among the arguments (`"--config" in args`).
Read from the text: a module holding a loader, the key turned into a flag, and that test.
"""

from __future__ import annotations

from errdex.lazy_re import lazy_compile

_LOADER_WORDS = ("yaml.safe_load(", "yaml.load(", "json.load(", "tomllib.load(", "toml.load(")
_LOADER = lazy_compile(r"\b(?:(yaml)\.(?:safe_)?load|(json)\.load|(tomllib|toml)\.load)\(")
# `"--" + key`, `f"--{key}"`: a key of the loaded mapping written as a flag
_KEY_AS_FLAG = lazy_compile(r"""["']--["']\s*\+\s*[A-Za-z_]\w*|\bf["']--\{[A-Za-z_]\w*\}""")
# `"--config" in args`, `args.index("--config")`: the flag that names the file
_FILE_FLAG = lazy_compile(
    r"""["'](--[a-z][\w-]*)["']\s+in\s+[A-Za-z_]\w*|\.index\(\s*["'](--[a-z][\w-]*)["']\s*\)"""
)


def config_file_flags(text: str) -> dict[str, str]:
    """The flag that names a config file of flags → its format (`yaml`, `json`, `toml`)."""
    # the loaders' names, found by `str.find` before any pattern runs over the text; each
    # holds `load(`, so one pass rules out most files before five more would
    if "load(" not in text or "--" not in text or not any(w in text for w in _LOADER_WORDS):
        return {}
    loader = _LOADER.search(text)
    if loader is None or _KEY_AS_FLAG.search(text) is None:
        return {}
    form = "yaml" if loader.group(1) else "json" if loader.group(2) else "toml"
    flags = {m.group(1) or m.group(2) for m in _FILE_FLAG.finditer(text)}
    return {flag: form for flag in sorted(flags) if "config" in flag}
