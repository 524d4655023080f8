"""`NAME==VERSION` is fetched as a file from the configured index into the cache once, its hash
checked, and read as an archive: nothing of it is ever built or run."""

from __future__ import annotations

import hashlib
import json
import os
import sys
import zipfile
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.pypi import cache_dir, find_cached, parse_requirement, pypi_source
from errdex.sources.simple_index import IndexFile, newest_version
from package_index import LocalIndex, write_sdist, write_wheel


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "downloads"


def _downloaded(cache: Path) -> list[str]:
    """The files in the downloads folder (the folder `.digests` beside them left out)."""
    return sorted(p.name for p in cache.iterdir() if p.is_file())


@pytest.mark.parametrize(
    ("spec", "expected"),
    [
        ("six==1.16.0", ("six", "1.16.0")),
        ("  Typing_Extensions == 4.12.2 ", ("Typing_Extensions", "4.12.2")),
        ("pkg==1.0.post1+local", ("pkg", "1.0.post1+local")),
        ("six", None),
        ("six>=1.0", None),
        ("--index-url==1", None),
        ("six==--pre", None),
        ("six[extra]==1.0", None),
    ],
)
def test_only_plain_name_equals_version_is_a_requirement(
    spec: str, expected: tuple[str, str] | None
) -> None:
    assert parse_requirement(spec) == expected


@pytest.fixture
def index(tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[LocalIndex]:
    """A loopback index as the only one pip is configured with (no config file is read)."""
    folder = tmp_path / "index"
    folder.mkdir()
    served = LocalIndex(folder)
    with served.serving():
        monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
        monkeypatch.setenv("PIP_INDEX_URL", served.url)
        for name in ("PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX"):
            monkeypatch.delenv(name, raising=False)
        yield served


@pytest.fixture
def index_env_public(monkeypatch: pytest.MonkeyPatch) -> None:
    """pip's configuration as the machine has it, but only the public index: the test
    must fetch from the index itself, not from a local mirror's folder."""
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX"):
        monkeypatch.delenv(name, raising=False)


def hostile_sdist(folder: Path, filename: str, marker: Path) -> Path:
    """An sdist whose build code (setup.py, and an in-tree PEP 517 backend that needs nothing
    installed) writes `marker` when anything builds or prepares it."""
    write = f"open({str(marker)!r}, 'w').write('build code ran')\n"
    return write_sdist(
        folder,
        filename,
        {
            "setup.py": write + "from setuptools import setup\nsetup()\n",
            "pyproject.toml": '[build-system]\nrequires = []\nbuild-backend = "hostile_backend"\n'
            'backend-path = ["."]\n',
            "hostile_backend.py": write,
            "hostile/__init__.py": "def check(x):\n    raise ValueError(f'bad {x}')\n",
        },
    )


def test_an_sdist_only_release_is_read_without_running_its_build_code(
    index: LocalIndex, cache: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    sdist = hostile_sdist(index.folder, "hostile-1.0.tar.gz", marker)

    source = pypi_source("hostile==1.0")

    assert not marker.exists()
    files = {f.path: f.data for f in source.files()}
    assert b"raise ValueError" in files["hostile/__init__.py"]
    assert b"build code ran" in files["setup.py"]  # read as bytes, never run
    assert _downloaded(cache) == ["hostile-1.0.tar.gz"]
    assert source.info.revision == hashlib.sha256(sdist.read_bytes()).hexdigest()
    assert (source.info.project, source.info.version) == ("hostile", "1.0")


def test_a_pure_wheel_is_chosen_before_a_platform_wheel_and_the_sdist(
    index: LocalIndex, cache: Path, tmp_path: Path
) -> None:
    hostile_sdist(index.folder, "choice-2.0.tar.gz", tmp_path / "marker")
    write_wheel(index.folder, "choice-2.0-cp399-cp399-win_amd64.whl", {"choice/a.py": "# platform"})
    write_wheel(index.folder, "choice-2.0-py3-none-any.whl", {"choice/a.py": "# pure"})
    write_wheel(index.folder, "choice-1.0-py3-none-any.whl", {"choice/a.py": "# old"})

    source = pypi_source("choice==2.0")

    assert [f.data for f in source.files()] == [b"# pure"]
    assert _downloaded(cache) == ["choice-2.0-py3-none-any.whl"]


def test_a_platform_wheel_is_chosen_before_the_sdist(
    index: LocalIndex, cache: Path, tmp_path: Path
) -> None:
    marker = tmp_path / "marker"
    hostile_sdist(index.folder, "native-2.0.tar.gz", marker)
    write_wheel(index.folder, "native-2.0-cp399-cp399-win_amd64.whl", {"native/a.py": "# win"})

    source = pypi_source("native==2.0")

    assert [f.data for f in source.files()] == [b"# win"]
    assert not marker.exists()


def test_a_pep_503_html_index_is_read_too(index: LocalIndex, cache: Path) -> None:
    index.html_only = True
    write_wheel(index.folder, "plain-1.0-py3-none-any.whl", {"plain/a.py": "x = 1\n"})

    source = pypi_source("Plain==1.0.0")

    assert [f.path for f in source.files()] == ["plain/a.py"]
    assert _downloaded(cache) == ["plain-1.0-py3-none-any.whl"]


def test_a_file_whose_hash_differs_from_the_index_is_refused_and_not_kept(
    index: LocalIndex, cache: Path
) -> None:
    write_wheel(index.folder, "tampered-1.0-py3-none-any.whl", {"tampered/a.py": "x = 1\n"})
    index.bad_hash.add("tampered-1.0-py3-none-any.whl")

    with pytest.raises(SourceError, match="sha256 differs from the index's"):
        pypi_source("tampered==1.0")
    assert not cache.exists() or list(cache.iterdir()) == []


def test_a_project_the_index_does_not_have_is_a_clear_error(index: LocalIndex, cache: Path) -> None:
    with pytest.raises(SourceError) as caught:
        pypi_source("nowhere==1.0")
    assert str(caught.value) == "cannot download nowhere==1.0: no project nowhere on the index"


def test_a_release_that_does_not_exist_is_a_clear_error(index: LocalIndex, cache: Path) -> None:
    write_wheel(index.folder, "some-1.0-py3-none-any.whl", {"some/a.py": "x = 1\n"})
    with pytest.raises(SourceError) as caught:
        pypi_source("some==2.0")
    assert str(caught.value) == "cannot download some==2.0: the index has no release 2.0 of some"


def test_a_release_with_neither_a_wheel_nor_an_sdist_is_a_clear_error(
    index: LocalIndex, cache: Path
) -> None:
    index.extra_names.append("eggy-1.0-py3.11.egg")
    with pytest.raises(SourceError) as caught:
        pypi_source("eggy==1.0")
    assert str(caught.value) == (
        "cannot download eggy==1.0: the index has neither a wheel nor an sdist of it"
        " (only eggy-1.0-py3.11.egg)"
    )


def test_an_index_that_cannot_be_reached_does_not_hide_another_s_release(
    index: LocalIndex, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_wheel(index.folder, "spread-1.0-py3-none-any.whl", {"spread/a.py": "x = 1\n"})
    monkeypatch.setenv("PIP_EXTRA_INDEX_URL", "http://127.0.0.1:9/simple/")  # discard port
    assert [f.path for f in pypi_source("spread==1.0").files()] == ["spread/a.py"]
    with pytest.raises(SourceError, match=r"cannot read the index at http://127\.0\.0\.1:9/"):
        pypi_source("elsewhere==1.0")


def test_a_downloaded_release_is_read_again_from_the_cache(index: LocalIndex, cache: Path) -> None:
    write_wheel(index.folder, "again-1.0-py3-none-any.whl", {"again/a.py": "x = 1\n"})
    first = pypi_source("again==1.0")
    asked = len(index.requests)
    second = pypi_source("again==1.0")
    assert second.info.revision == first.info.revision
    assert len(index.requests) == asked  # the cache answered, not the index


def test_a_download_records_the_sha256_it_checked_beside_it(
    index: LocalIndex, cache: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    write_wheel(index.folder, "kept-1.0-py3-none-any.whl", {"kept/a.py": "x = 1\n"})
    source = pypi_source("kept==1.0")
    wheel = cache / "kept-1.0-py3-none-any.whl"
    sha256 = hashlib.sha256(wheel.read_bytes()).hexdigest()
    record = json.loads((cache / ".digests" / f"{wheel.name}.json").read_text())
    assert record["sha256"] == sha256 == source.info.revision
    assert not (cache.parent / "digests").exists()  # the archive was not hashed again
    # another cache folder reading the same downloads reads the record too
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "other"))
    assert pypi_source("kept==1.0", directory=cache).info.revision == sha256
    assert not (tmp_path / "other" / "digests").exists()


def test_a_release_is_dated_by_the_index_s_upload_time_not_its_build_s_file_times(
    index: LocalIndex, cache: Path
) -> None:
    write_wheel(index.folder, "dated-1.0-py3-none-any.whl", {"dated/a.py": "x = 1\n"})
    index.uploaded["dated-1.0-py3-none-any.whl"] = "2024-05-05T10:11:12.345678Z"
    assert pypi_source("dated==1.0").info.date == "2024-05-05T10:11:12+00:00"
    # read again from the cache, the record beside the download still dates it
    assert pypi_source("dated==1.0").info.date == "2024-05-05T10:11:12+00:00"

    write_wheel(index.folder, "odd-1.0-py3-none-any.whl", {"odd/a.py": "x = 1\n"})
    index.uploaded["odd-1.0-py3-none-any.whl"] = "yesterday\x1b[2J"
    source = pypi_source("odd==1.0")
    assert source.info.date is not None and "yesterday" not in source.info.date


def test_the_index_comes_from_pip_s_configuration_file(
    tmp_path: Path, cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "index"
    folder.mkdir()
    write_wheel(folder, "configured-1.0-py3-none-any.whl", {"configured/a.py": "x = 1\n"})
    served = LocalIndex(folder)
    with served.serving():
        config = tmp_path / "pip.conf"
        config.write_text(f"[global]\nindex-url = {served.url}\n")
        monkeypatch.setenv("PIP_CONFIG_FILE", str(config))
        for name in ("PIP_INDEX_URL", "PIP_EXTRA_INDEX_URL", "PIP_FIND_LINKS", "PIP_NO_INDEX"):
            monkeypatch.delenv(name, raising=False)
        source = pypi_source("configured==1.0")
    assert [f.path for f in source.files()] == ["configured/a.py"]


def test_the_newest_version_is_a_final_one_else_the_newest_pre_release() -> None:
    def files(*names: str) -> list[IndexFile]:
        return [IndexFile(n, f"https://index.invalid/{n}", {}, False) for n in names]

    assert newest_version(files("a-1.0.tar.gz", "a-2.0b1-py3-none-any.whl", "a-1.1.zip")) == "1.1"
    assert newest_version(files("a-0.5b0.tar.gz", "a-0.60b1-py3-none-any.whl")) == "0.60b1"
    assert newest_version(files("a-1.0.egg")) is None


def test_the_cache_folder_follows_errdex_cache(cache: Path) -> None:
    assert cache_dir() == cache


def test_a_cached_archive_is_read_without_the_network(cache: Path) -> None:
    # No index has this project: reading it proves that the cached file was used.
    cache.mkdir(parents=True)
    wheel = cache / "errdex_cache_probe-1.0-py3-none-any.whl"
    with zipfile.ZipFile(wheel, "w") as archive:
        archive.writestr("probe/__init__.py", "raise RuntimeError('probe')\n")
        archive.writestr(
            "errdex_cache_probe-1.0.dist-info/METADATA",
            "Metadata-Version: 2.1\nName: errdex-cache-probe\nVersion: 1.0\n",
        )
    (cache / "errdex-cache-probe-1.0.tar.gz").write_bytes(b"an sdist that must not be chosen")

    source = pypi_source("Errdex.Cache_Probe==1.0")
    assert [f.path for f in source.files()] == ["probe/__init__.py"]
    info = source.info
    assert (info.project, info.version, info.source_kind) == ("errdex-cache-probe", "1.0", "pypi")
    assert info.source == "Errdex.Cache_Probe==1.0"
    assert info.revision == hashlib.sha256(wheel.read_bytes()).hexdigest()


def test_find_cached_matches_normalized_names_and_equal_versions(tmp_path: Path) -> None:
    sdist = tmp_path / "Foo_Bar-2.0.tar.gz"
    sdist.write_bytes(b"")
    (tmp_path / "foo_bar-2.0.1-py3-none-any.whl").write_bytes(b"")
    assert find_cached(tmp_path, "foo-bar", "2.0.0") == sdist
    assert find_cached(tmp_path, "foo-bar", "3.0") is None
    assert find_cached(tmp_path / "missing", "foo-bar", "2.0") is None


def test_a_spec_that_is_not_a_requirement_is_refused(cache: Path) -> None:
    with pytest.raises(SourceError, match="not a NAME==VERSION requirement"):
        pypi_source("six>=1")


@pytest.mark.network
def test_a_real_package_is_downloaded_once_and_read(cache: Path) -> None:
    source = pypi_source("six==1.16.0")
    files = {f.path: f.data for f in source.files()}
    assert "six.py" in files
    assert b"class _SixMetaPathImporter" in files["six.py"]
    info = source.info
    assert (info.project, info.version, info.source_kind) == ("six", "1.16.0", "pypi")
    [downloaded] = cache.glob("*.whl")
    assert downloaded.name.endswith(".whl")  # a wheel is preferred over the sdist
    assert info.revision == hashlib.sha256(downloaded.read_bytes()).hexdigest()
    assert info.homepage == "https://github.com/benjaminp/six"

    stamp = downloaded.stat().st_mtime_ns
    again = pypi_source("six==1.16.0")
    assert again.info.revision == info.revision
    assert downloaded.stat().st_mtime_ns == stamp
    # and the sdist, once, for its listing (where the repository keeps the files)
    assert _downloaded(cache) == [downloaded.name, "six-1.16.0.tar.gz"]


@pytest.mark.network
def test_a_version_that_does_not_exist_is_a_clear_error(cache: Path) -> None:
    with pytest.raises(SourceError) as caught:
        pypi_source("six==9.9.9")
    assert str(caught.value) == "cannot download six==9.9.9: the index has no release 9.9.9 of six"


_AUDITED: list[str] = []
_WATCHING: list[bool] = []


def _audit(event: str, args: tuple[object, ...]) -> None:
    """Record each process started and each code object run by `exec` (how a setup.py runs
    in-process; imports run modules that way too, so the file each came from is kept)."""
    if not _WATCHING:
        return
    if event == "subprocess.Popen":
        _AUDITED.append(" ".join(map(str, args[1])))  # type: ignore[call-overload]
    elif event in {"os.system", "os.posix_spawn"} or event.startswith("os.exec"):
        _AUDITED.append(event)
    elif event == "exec" and hasattr(args[0], "co_filename"):
        _AUDITED.append(f"exec {args[0].co_filename}")


@pytest.mark.network
def test_a_real_sdist_only_release_is_fetched_with_no_process_started_and_nothing_run(
    index_env_public: None, cache: Path
) -> None:
    # docopt 0.6.2 has only an sdist with a setup.py: pip would run it to prepare metadata.
    sys.addaudithook(_audit)  # hooks cannot be removed: it records only while watching
    _WATCHING.append(True)
    try:
        source = pypi_source("docopt==0.6.2")
        files = {f.path: f.data for f in source.files()}
    finally:
        _WATCHING.clear()
    # The one process is pip's reading of its own configuration; no code of docopt's ran.
    assert [c for c in _AUDITED if not c.startswith("exec")] == [
        f"{sys.executable} -m pip config list"
    ]
    assert not [c for c in _AUDITED if "docopt" in c or "setup.py" in c]
    assert _downloaded(cache) == ["docopt-0.6.2.tar.gz"]
    assert b"class DocoptExit" in files["docopt.py"]
    assert b"setup(" in files["setup.py"]
