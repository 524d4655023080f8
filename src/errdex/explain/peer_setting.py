"""A setting compared with the same setting of the other instance: both launches match.

A connector between two running instances checks its own size against the one the other
side reported in its handshake: `self.dcp_size % remote_dcp_size != 0`, `local_tp_size !=
remote_tp_size`, `self.pp_size != meta.remote_pp_size`. The flag behind the local side
(`--decode-context-parallel-size` behind `self.dcp_size`) is only half of it: the other
value is the same setting of the peer, so the way out is to launch both with matching
values. Said only where matching values make the test false: the two names unequal (`!=`)
or one not dividing the other (`a % b != 0`, `a % b`); the peer's name is the local one's
last part with `remote_` or `peer_` before it (`meta.remote_pp_size` for `self.pp_size`,
`remote_tp_size` for `local_tp_size`), or that part read from a `remote...`/`peer...`
object (`remote_layout.num_heads` for `local_layout.num_heads`).
"""

from __future__ import annotations

import ast
import re

from errdex.explain.plain import code

# The other side's object or value: `remote_meta`, `peer`, `remote`.
_PEER_PREFIX = re.compile(r"^(?:remote|peer)(?:_|$)")


def peer_text(node: ast.expr, flag: str, behind: str) -> str | None:
    """The sentence that launches both instances with matching values of `flag`, when
    `node` fails only where `behind` and the peer's own value of it differ."""
    pair = _compared_pair(node)
    if pair is None:
        return None
    texts = [_text(side) for side in pair]
    if behind not in texts:
        return None
    other = texts[1 - texts.index(behind)]
    if other is None or not _is_peer_of(other, behind):
        return None
    return (
        f"Launch this instance and the one it connects to with the same `{flag}`: "
        f"{code(behind)} follows that flag here, and {code(other)} is the other instance's "
        "value, which the check compares with it"
    )


def _compared_pair(node: ast.expr) -> tuple[ast.expr, ast.expr] | None:
    """(a, b) of `a != b`, `a % b != 0` or `a % b`: tests equal values make false."""
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod):
        return node.left, node.right
    if not (isinstance(node, ast.Compare) and len(node.ops) == 1):
        return None
    left, op, right = node.left, node.ops[0], node.comparators[0]
    if isinstance(op, ast.NotEq) and isinstance(right, ast.Constant) and right.value == 0:
        return _compared_pair(left) if isinstance(left, ast.BinOp) else None
    if isinstance(op, ast.NotEq) and not isinstance(right, ast.Constant):
        return left, right
    return None


def _text(node: ast.expr) -> str | None:
    if not isinstance(node, ast.Name | ast.Attribute):
        return None
    try:
        return ast.unparse(node)
    except (ValueError, RecursionError):
        return None


def _is_peer_of(other: str, behind: str) -> bool:
    """`remote_tp_size` / `meta.remote_tp_size` for `self.tp_size` or `local_tp_size`;
    `remote_layout.num_heads` for `local_layout.num_heads`."""
    *owner, last = behind.split(".")
    if any(_PEER_PREFIX.match(part) for part in (*owner, last)):
        return False  # the local side is no other instance's
    stem = last.removeprefix("local_")
    *other_owner, other_last = other.split(".")
    if other_last in (f"remote_{stem}", f"peer_{stem}"):
        return True
    return other_last == last and bool(other_owner) and bool(_PEER_PREFIX.match(other_owner[-1]))
