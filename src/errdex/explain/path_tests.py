"""A test that a path is missing from the folder a setting names: the way out supplies it.

`not os.path.exists(os.path.join(model_path, "audio_tokenizer"))` holds where the folder
`model_path` names lacks `audio_tokenizer` (see `link.joined_paths`).
"""

from __future__ import annotations

import ast

from errdex.extract.conditions import dotted_name
from errdex.link.joined_paths import joined_onto, path_test


def missing_path(node: ast.expr, folder: str) -> tuple[str, str] | None:
    """For `not os.path.exists(os.path.join(folder, "a", "b"))`: ("a/b", "exists"), the
    path under `folder` the test finds missing and the test's name; None otherwise."""
    if not (isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not)):
        return None
    tested = path_test(node.operand)
    joined = joined_onto(tested[0]) if tested is not None else None
    if tested is None or joined is None or dotted_name(joined[0]) != folder:
        return None
    return joined[1], tested[1]
