"""A repository by its address (`https://github.com/OWNER/REPO@REV`): only that revision is fetched.

The revision's commit is fetched shallowly into a bare repository in errdex's cache and then
read like any local revision (`GitSource`): nothing is checked out, built or run. The project
is named after the address (`OWNER/REPO`), so two forks never mix, and the version is pinned
to the commit, with a tag's name as its label (a branch moves, so it is labelled by its
commit).
"""

from __future__ import annotations

import hashlib
import os
import re
import subprocess
from pathlib import Path
from typing import NamedTuple

import msgspec

from errdex.errors import SourceError
from errdex.sources.git import GitSource, git_env, web_link_template, web_repository
from errdex.sources.pypi import cache_dir

# Hostile or slow servers: a fetch that takes longer than this is given up.
FETCH_TIMEOUT_SECONDS = float(os.environ.get("ERRDEX_GIT_TIMEOUT", "900"))
# `file:` and `ext::` would let an address read local files or run a command.
_ALLOWED_PROTOCOLS = "https:http:git:ssh"

_URL = re.compile(
    r"^(?P<url>(?:https?|git|ssh)://(?:[^@/\s]+@)?(?P<host>[^/@\s]+)/(?P<path>[^@\s]+?)"
    r"|(?:[\w.-]+@)(?P<scp_host>[\w.-]+):(?P<scp_path>[^@\s]+?))"
    r"(?:@(?P<rev>[^@\s]+))?$"
)
_SHA = re.compile(r"[0-9a-f]{7,40}")


class RemoteSpec(NamedTuple):
    """An address split into its parts: where to fetch from, what to call it, which revision."""

    url: str
    project: str  # OWNER/REPO, or the repository's whole path on hosts with groups
    rev: str | None  # None: the repository's default branch


def parse_remote(spec: str) -> RemoteSpec | None:
    """The parts of `URL[@REV]` for a git address (https, http, git, ssh or `user@host:path`)."""
    match = _URL.match(spec.strip())
    if match is None:
        return None
    path = (match["path"] or match["scp_path"]).strip("/").removesuffix(".git").strip("/")
    if not path or any(part in {"", ".", ".."} for part in path.split("/")):
        return None
    rev = match["rev"]
    if rev is not None and (rev.startswith("-") or not rev.strip()):
        return None
    return RemoteSpec(match["url"], path, rev)


class _Ref(NamedTuple):
    commit: str
    tag: str | None  # the tag's name when the revision is a tag


def _run(repo: Path, *args: str, timeout: float | None = None) -> subprocess.CompletedProcess[str]:
    env = git_env()
    env["GIT_ALLOW_PROTOCOL"] = _ALLOWED_PROTOCOLS
    try:
        return subprocess.run(
            ["git", *args],
            cwd=repo,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            errors="replace",
            timeout=timeout,
            check=False,
        )
    except FileNotFoundError as exc:
        raise SourceError("git is not installed (needed to read a repository)") from exc
    except subprocess.TimeoutExpired as exc:
        raise SourceError(f"git {args[0]}: no answer within {timeout:.0f} s") from exc


def _failure(done: subprocess.CompletedProcess[str], what: str) -> SourceError:
    lines = [line for line in done.stderr.strip().splitlines() if line.strip()]
    return SourceError(f"{what}: {lines[-1] if lines else f'exit status {done.returncode}'}")


def _resolve(repo: Path, remote: RemoteSpec) -> _Ref | None:
    """The commit a named revision points to on the server (a tag's peeled commit), via
    `ls-remote`; None when the revision is no ref name (then it may be a commit)."""
    rev = remote.rev or "HEAD"
    patterns = ["HEAD"] if rev == "HEAD" else [f"refs/tags/{rev}", f"refs/heads/{rev}"]
    if rev.startswith("refs/"):
        patterns = [rev]
    done = _run(repo, "ls-remote", "--", remote.url, *patterns, timeout=FETCH_TIMEOUT_SECONDS)
    if done.returncode != 0:
        raise _failure(done, f"cannot reach {remote.url}")
    refs: dict[str, str] = {}
    for line in done.stdout.splitlines():
        sha, _, name = line.partition("\t")
        refs[name] = sha
    for pattern in patterns:
        peeled = refs.get(pattern + "^{}") or refs.get(pattern)
        if peeled is not None:
            tag = pattern.removeprefix("refs/tags/") if pattern.startswith("refs/tags/") else None
            return _Ref(peeled, tag)
    return None


def _has_commit(repo: Path, sha: str) -> str | None:
    done = _run(repo, "rev-parse", "--verify", "--quiet", f"{sha}^{{commit}}")
    return done.stdout.strip() if done.returncode == 0 else None


def _fetch(repo: Path, url: str, *wants: str, depth: bool = True) -> bool:
    shallow = ["--depth=1"] if depth else []
    done = _run(
        repo,
        "-c",
        "fetch.recurseSubmodules=false",
        "fetch",
        "--quiet",
        "--no-tags",
        "--no-write-fetch-head",
        *shallow,
        "--",
        url,
        *wants,
        timeout=FETCH_TIMEOUT_SECONDS,
    )
    return done.returncode == 0


def _repository(url: str) -> Path:
    """The bare repository that caches what was fetched from `url`."""
    repo = cache_dir().parent / "repositories" / hashlib.sha256(url.encode()).hexdigest()[:24]
    if not (repo / "HEAD").is_file():
        repo.mkdir(parents=True, exist_ok=True)
        done = _run(repo, "init", "--bare", "--quiet", ".")
        if done.returncode != 0:
            raise _failure(done, f"cannot make a repository for {url}")
    return repo


def fetch_revision(remote: RemoteSpec) -> tuple[Path, _Ref]:
    """Fetch the revision's commit (and nothing older) into the cache; its repository and ref."""
    repo = _repository(remote.url)
    ref = _resolve(repo, remote)
    if ref is None:
        rev = remote.rev or ""
        if not _SHA.fullmatch(rev):
            raise SourceError(f"no branch, tag or commit {rev!r} in {remote.url}")
        ref = _Ref(rev, None)
    commit = _has_commit(repo, ref.commit)
    if commit is None and len(ref.commit) == 40:
        # Servers that allow it (GitHub, GitLab, protocol v2) send one commit by its sha.
        _fetch(repo, remote.url, f"{ref.commit}:refs/errdex/{ref.commit}")
        commit = _has_commit(repo, ref.commit)
    if commit is None:
        # An abbreviated sha, or a server that only sends what its refs name: fetch the
        # branches and tags whole, then look for the commit among them.
        _fetch(repo, remote.url, "+refs/heads/*:refs/remotes/origin/*", depth=False)
        _fetch(repo, remote.url, "+refs/tags/*:refs/tags/*", depth=False)
        commit = _has_commit(repo, ref.commit)
    if commit is None:
        raise SourceError(f"cannot fetch {remote.rev or 'HEAD'} from {remote.url}")
    # Keep the commit reachable so that a later `git gc` of the cache does not drop it.
    _run(repo, "update-ref", f"refs/errdex/{commit}", commit)
    return repo, _Ref(commit, ref.tag)


def remote_git_source(spec: str, remote: RemoteSpec) -> GitSource:
    """The revision `remote` names, fetched, as a source pinned to its commit."""
    repo, ref = fetch_revision(remote)
    source = GitSource(repo, ref.commit, spec=spec)
    source.info = msgspec.structs.replace(
        source.info,
        project=remote.project,
        version=ref.tag or ref.commit[:12],
        source_kind="git",
        link_template=web_link_template(remote.url),
        homepage=source.info.homepage or web_repository(remote.url),
    )
    return source
