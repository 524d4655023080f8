"""Config files a program reads in place of its command line (`vllm serve --config x.yaml`).

A parser that loads a YAML, JSON or TOML file and turns each key into a flag (`"--" + key`)
lets a user put any flag's setting in that file: `enforce-eager: true`. The flag that names
the file is the one the same module looks for among the arguments (`"--config" in args`).
Read from the text: a module holding a loader, the key turned into a flag, and that test.
"""

from __future__ import annotations

from errdex.extract.textscan import after_word_boundary, occurrences
from errdex.lazy_re import lazy_compile

# A loader call, by what comes before its `load(`: `yaml.safe_load(`, `json.load(`. No word
# ends another (`yaml.` is not the end of `yaml.safe_`), so at most one stands right before
# a given `load(`: keep it so.
_LOADERS = (
    ("yaml.safe_", "yaml"),
    ("yaml.", "yaml"),
    ("json.", "json"),
    ("tomllib.", "toml"),
    ("toml.", "toml"),
)
# `"--" + key`, `f"--{key}"`: a key of the loaded mapping written as a flag
_KEY_AS_FLAG = lazy_compile(r"""["']--["']\s*\+\s*[A-Za-z_]\w*|\bf["']--\{[A-Za-z_]\w*\}""")
# `"--config" in args`, `args.index("--config")`: the flag that names the file
_FILE_FLAG = lazy_compile(
    r"""["'](--[a-z][\w-]*)["']\s+in\s+[A-Za-z_]\w*|\.index\(\s*["'](--[a-z][\w-]*)["']\s*\)"""
)


def config_file_flags(text: str) -> dict[str, str]:
    """The flag that names a config file of flags → its format (`yaml`, `json`, `toml`)."""
    # the loader first: one pass for `load(` rules out most files (all but 20 of vllm's
    # 3,231), and `str.find` looks for it faster than for the two characters of `--`
    form = _loader_format(text)
    if form is None or not _key_as_flag(text):
        return {}
    flags = {m.group(1) or m.group(2) for m in _FILE_FLAG.finditer(text)}
    return {flag: form for flag in sorted(flags) if "config" in flag}


def _key_as_flag(text: str) -> bool:
    """Whether `_KEY_AS_FLAG` is found in `text`: tried only where its `--` can stand (right
    after its quote, or after `f` and the quote), since its leading word boundary and quote keep
    the engine from skipping to a literal: searched, it is tried at every character."""
    return any(
        _KEY_AS_FLAG.match(text, start) is not None
        for at in occurrences(text, "--")
        for start in (at - 2, at - 1)
        if start >= 0
    )


def _loader_format(text: str) -> str | None:
    """The format of the file's first loader call, found from one `str.find` pass for
    `load(` (a pattern for the loaders' names, or a pass for each, costs several times
    more); a loader's name starts a word."""
    for at in occurrences(text, "load("):
        for before, form in _LOADERS:
            start = at - len(before)
            if start >= 0 and text.startswith(before, start) and after_word_boundary(text, start):
                return form
    return None
