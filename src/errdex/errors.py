"""errdex's own exceptions: one root, a few children; the CLI turns them into one line.

ErrdexError
├── SourceError      a source that cannot be read (missing path, bad archive, unknown rev)
├── StoreError       the database cannot be opened, migrated or written
│   └── ConnectionLostError  the server dropped the connection (say, it restarted)
├── NotFoundError    an id, project or version that is not in the database
├── InputError       input that errdex will not take (empty, binary, too large)
├── ModelError       a model endpoint that cannot be reached or answers with no content
└── ClusterError     a Dask cluster that cannot be reached or cannot be used as asked
"""

from __future__ import annotations


class ErrdexError(Exception):
    """The root of every error errdex raises on purpose."""

    exit_code = 2


class SourceError(ErrdexError):
    """A source (directory, git revision, archive, package) cannot be read."""


class StoreError(ErrdexError):
    """The database cannot be opened, migrated or written."""


class ConnectionLostError(StoreError):
    """The database server dropped the connection mid-request (it restarted, say). The store
    opens a new one on its next use, so the request may be tried again once."""


class NotFoundError(ErrdexError):
    """An error id, project or version that the database does not hold."""

    exit_code = 1


class InputError(ErrdexError):
    """Input errdex refuses: empty, binary, or over a size limit."""


class ModelError(ErrdexError):
    """A model endpoint (OpenAI-compatible) failed: unreachable, refused, or no answer."""


class ClusterError(ErrdexError):
    """A Dask scheduler that cannot be reached, has no workers, or cannot do what was asked
    (a SQLite file that some worker cannot share)."""
