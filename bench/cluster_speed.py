"""Indexing several versions over a Dask LocalCluster beside one after another locally.

    python bench/cluster_speed.py [--workers 2] [--runs 3] [--with-downloads] [NAME==VERSION ...]

Both runs index the same releases with cold facts caches into a SQLite file of their own
(every worker of a LocalCluster is on this machine), as `errdex index` would from the
command line, each in a process of its own: locally one version after another (each with
its extraction pool over every core), and over the cluster one task per version on workers
of one thread each. The archives are downloaded once before any timing, so the figures
are indexing, not the network, unless --with-downloads (each run then downloads them
again: one after another locally, on the workers at once over the cluster). The cluster is
started once and timed apart. Prints wall seconds of each run and checks that both stores
hold the same sites.
"""

from __future__ import annotations

import argparse
import json
import os
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from pathlib import Path

from distributed import LocalCluster

from errdex.sources import download, parse_requirement
from errdex.store import open_store

SMALL = ["six==1.16.0", "six==1.17.0", "tomli==2.0.1", "toml==0.10.2"]


def _errdex(args: list[str], cache: Path) -> float:
    """Run `errdex ARGS` with its own facts cache; its wall seconds."""
    env = {**os.environ, "ERRDEX_CACHE": str(cache)}
    env.pop("ERRDEX_DB", None)
    started = time.perf_counter()
    subprocess.run([sys.executable, "-m", "errdex", *args], env=env, check=True)
    return time.perf_counter() - started


def _fresh_cache(cache: Path, downloads: Path | None) -> Path:
    """The cache folder emptied, holding the downloads (unless None) and no facts."""
    shutil.rmtree(cache, ignore_errors=True)
    cache.mkdir(parents=True)
    if downloads is not None:
        shutil.copytree(downloads, cache / "downloads")
    return cache


def _sites(db: Path) -> dict[str, int]:
    with open_store(str(db)) as store:
        return {
            f"{p.name} {v.label}": v.stats.sites
            for p in store.projects()
            for v in store.versions(p.name)
        }


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("releases", nargs="*", default=SMALL, metavar="NAME==VERSION")
    parser.add_argument("--workers", type=int, default=2, help="cluster worker processes")
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--with-downloads", action="store_true", help="time the downloads too")
    options = parser.parse_args()

    root = Path(tempfile.mkdtemp(prefix="errdex-cluster-bench-"))
    downloads = root / "downloads"
    for spec in options.releases:
        parsed = parse_requirement(spec)
        if parsed is None:
            parser.error(f"not NAME==VERSION: {spec}")
        download(*parsed, directory=downloads)

    # The workers take on ERRDEX_CACHE when they start: one cache for the cluster's runs,
    # emptied of facts before each.
    cluster_cache = root / "cluster" / "cache"
    os.environ["ERRDEX_CACHE"] = str(cluster_cache)
    started = time.perf_counter()
    with LocalCluster(
        n_workers=options.workers, threads_per_worker=1, dashboard_address=":0"
    ) as cluster:
        cluster_start = time.perf_counter() - started
        local_runs, cluster_runs = [], []
        for run in range(options.runs):
            db_local, db_cluster = root / f"local-{run}.db", root / f"cluster-{run}.db"
            given = None if options.with_downloads else downloads
            cache = _fresh_cache(root / "local" / "cache", given)
            local_runs.append(_errdex(["index", *options.releases, "--db", str(db_local)], cache))
            _fresh_cache(cluster_cache, given)  # no task holds its files open between runs
            args = ["index", *options.releases, "--db", str(db_cluster)]
            args += ["--scheduler", cluster.scheduler_address]
            cluster_runs.append(_errdex(args, cluster_cache))
            sites = _sites(db_local)
            assert sites == _sites(db_cluster), "the two stores differ"
    shutil.rmtree(root, ignore_errors=True)
    print(
        json.dumps(
            {
                "releases": options.releases,
                "with_downloads": options.with_downloads,
                "sites": sum(sites.values()),
                "cluster_workers": options.workers,
                "cluster_start_seconds": round(cluster_start, 2),
                "local_seconds": [round(s, 2) for s in local_runs],
                "cluster_seconds": [round(s, 2) for s in cluster_runs],
                "local_median": round(statistics.median(local_runs), 2),
                "cluster_median": round(statistics.median(cluster_runs), 2),
            },
            indent=2,
        )
    )


if __name__ == "__main__":
    main()
