"""`NAME==VERSION` is downloaded by pip into the cache once, then read as an archive."""

from __future__ import annotations

import hashlib
import zipfile
from pathlib import Path

import pytest

from errdex.errors import SourceError
from errdex.sources.pypi import cache_dir, find_cached, parse_requirement, pypi_source


@pytest.fixture
def cache(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("ERRDEX_CACHE", str(tmp_path / "cache"))
    return tmp_path / "cache" / "downloads"


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
    [downloaded] = cache.iterdir()
    assert downloaded.name.endswith(".whl")  # a wheel is preferred over the sdist
    assert info.revision == hashlib.sha256(downloaded.read_bytes()).hexdigest()
    assert info.homepage == "https://github.com/benjaminp/six"

    stamp = downloaded.stat().st_mtime_ns
    again = pypi_source("six==1.16.0")
    assert again.info.revision == info.revision
    assert downloaded.stat().st_mtime_ns == stamp
    assert list(cache.iterdir()) == [downloaded]


@pytest.mark.network
def test_a_version_that_does_not_exist_is_a_clear_error(cache: Path) -> None:
    with pytest.raises(SourceError) as caught:
        pypi_source("six==9.9.9")
    assert str(caught.value) == (
        "cannot download six==9.9.9: No matching distribution found for six==9.9.9"
    )
