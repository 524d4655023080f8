"""What the lines of a traceback, a pytest report or a printed warning look like: headers
and chain markers, frames in every style (plain, notebook, rich), code and elision lines,
exception lines.
"""

from __future__ import annotations

from errdex.lazy_re import lazy_compile

# A paste is untrusted: every pattern is anchored (`match`, once per line) or bounded, with no
# nested repeats that can backtrack over each other, so no line can make a pattern explode.
TB_HEAD = lazy_compile(r"\s*(?:\+ Exception Group )?Traceback \(most recent call last\):\s*$")
NB_HEAD = lazy_compile(r"(?P<exc>[A-Za-z_][\w.]*)\s{2,}Traceback \(most recent call last\)\s*$")
CHAIN = lazy_compile(
    r"\s*(?:During handling of the above exception, another exception occurred"
    r"|The above exception was the direct cause of the following exception):\s*$"
)
GROUP_HEAD = lazy_compile(r"\s*\+ Exception Group Traceback")
GROUP_SEP = lazy_compile(r"\s*\+[-+]{0,3}-{3,}(?: (?:\d+|\.\.\.) -{3,})?\s*$")
FRAME = lazy_compile(r'\s*File "(?P<path>[^"]+)", line (?P<line>\d+)(?:, in (?P<fn>.+))?$')
# A frame line whose start the paste cut off (`/path/x.py", line 12, in f`, or `e "/path...`):
# the path must still read as a Python file's.
CUT_FRAME = lazy_compile(
    r'\s*(?:(?:(?:(?:F?i)?l)?e)? ?")?(?P<path>[^"\s][^"]{0,500}?\.pyx?)", line (?P<line>\d+)'
    r"(?:, in (?P<fn>.+))?$"
)
# A frame line split where its path ends (`/x/models.py"` over `line 975, in json`, blank
# lines between): the second part, and the first as it ends.
LINE_IN = lazy_compile(r"\s*line (?P<line>\d+), in (?P<fn>[\w.<>]{1,200})\s*$")
PATH_END = lazy_compile(r'\s*(?P<path>[^"\s]{0,500}\.pyx?)"\s*$')
NB_FILE = lazy_compile(r'\s*File (?P<path>[^\s"].*?):(?P<line>\d+), in (?P<fn>[^\s(]+)')
NB_CELL = lazy_compile(  # Cell In[3], line 2 / Input In [1], in <cell line: 1>()
    r"\s*(?P<path>(?:Cell|Input) In ?\[\d+\]), (?:line (?P<line>\d+)(?:, in (?P<fn>[^\s(]+))?"
    r"|in (?P<fn2>[^(]+)\()"
)
NB_OLD = lazy_compile(r"\s*(?P<path>\S+\.py[xw]?|<ipython-input-[\w-]+>) in (?P<fn>[^\s(]+)")
RICH_FRAME = lazy_compile(r"\s*(?P<path>(?:\w:)?[^\s:]+|<[^>]+>):(?P<line>\d+) in (?P<fn>\S+)\s*$")
ARROW = lazy_compile(r"\s*-*> ?(?P<line>\d+)(?: (?P<code>.*))?$")  # ----> 2 foo()
CONTEXT = lazy_compile(r"\s+\d+(?:\s.*)?$")  # '      1 import foo'
RICH_CODE = lazy_compile(r"\s*(?P<cur>❱)?\s*(?P<line>\d+)(?: ?│| |$)(?P<code>.*)$")
CARET = lazy_compile(r"\s*[~^]+\s*$")
SKIP = lazy_compile(  # elisions: by Python, notebooks, rich, or the user
    r"\s*(?:\[Previous line repeated \d+ more times?\]|\.\.\.<\d+ lines>\.\.\.|\d+ frames?"
    r"|\[\.\.\. .{0,80}\]|\.{3,}|…|<snip>|\(\.\.\.\))\s*$"
)
SUFFIX = "(?:Error|Exception|Warning|Exit|Interrupt|Iteration|Group|Failure|Fault|Timeout|Abort)"
# Bounded repeats: `(?:\w+\.)*` then `\w*?` would backtrack quadratically on `a.a.a.a...`.
EXC_STRONG = lazy_compile(
    rf"(?P<name>(?:[A-Za-z_]\w{{0,80}}\.){{0,12}}(?:_{{0,2}}[A-Z]\w{{0,80}}?)?{SUFFIX}(?:\([\w.]+\))?)"
    r"(?:: (?P<msg>.*)|:?\s*$)"
)
EXC_LOOSE = lazy_compile(r"(?P<name>[A-Za-z_][\w.<>]*(?:\([\w.]+\))?)(?:: ?(?P<msg>.*)|:?\s*$)")
PYTEST_E = lazy_compile(r"E(?: {2,}(?P<msg>.*))?\s*$")
PYTEST_LOC = lazy_compile(
    r"(?P<path>(?:\w:)?[^\s:]+\.py):(?P<line>\d+):(?: in (?P<fn>\S+)| (?P<exc>[\w.]+))?\s*$"
)
PYTEST_CODE = lazy_compile(r">\s{2,}(?P<code>\S.*)$")
FAILED = lazy_compile(r"(?:FAILED|ERROR) \S+ - (?P<msg>.+)$")
WARN = lazy_compile(
    r"\s*(?P<path>(?:\w:)?[^\s:][^:]*?|<[^>]+>):(?P<line>\d+): "
    r"(?P<cat>(?:[A-Za-z_]\w{0,80}\.){0,10}[A-Z]\w{0,80}?Warning): (?P<msg>.*)$"
)
CODE_LIKE = lazy_compile(r"\s*(?:warn|logger\.|logging\.|raise |return |@|[\w.]+ ?= ?[\w.]+\()")
# A class name the parser does not trust alone (`UnexpectedCharacters: ...`, `pkg.Bad: ...`),
# heading a paragraph: CamelCase with two capitals, or dotted.
CLASS_LED = lazy_compile(
    r"(?:[A-Za-z_]\w{0,80}\.){0,12}_{0,2}(?:[A-Z][a-z0-9_]{0,80}[A-Z]\w{0,80}"
    r"|(?<=\.)[A-Z]\w{0,80}): \S"
)
