"""How many chunk ids a commit changes, with the file's imports in every header against the
imports each chunk uses, over a repository's recent history.

    python benchmarks/id_churn.py REPO [--commits 30] [--max-size N]

For each of the last ``--commits`` commits of REPO's current branch (oldest first), the
tree at that commit is chunked as ``chunk-explorer chunk`` chunks it (the adapters' walk
and ids, which are the CLI's) and its ids are compared with the previous commit's. Per
commit and in total it prints:

- ``file upserts``: the chunks of the files the commit changed (what a per-file re-send
  would upsert);
- ``code new``: chunks whose code (``text``, without the header) is not among the
  previous commit's chunks of the same path: what has to be embedded at the least;
- ``new ids`` and ``deletes``, before (``filter_imports = false``: the file's imports in
  every ``Uses:`` line) and after (the default: the imports the chunk uses). A new id is
  an upsert whose embedded text is new; the closer it is to ``code new``, the fewer
  chunks are embedded again for nothing.

The trees are read with ``git archive`` into a temporary folder; REPO is only read.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Iterator

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from explorer.engine.options import ChunkOptions
from explorer.integrations.common import chunk_text, walk_sources
from explorer.workspace.settings import Settings

#: (id, path, code) of every chunk of one tree.
Tree = list[tuple[str, str, str]]


def commits(repo: str, count: int) -> list[str]:
    out = subprocess.run(["git", "-C", repo, "rev-list", "--first-parent", f"--max-count={count + 1}", "HEAD"],
                         check=True, capture_output=True, text=True).stdout.split()
    return out[::-1]  # oldest first; the first is the baseline


def extracted(repo: str, commit: str) -> Iterator[str]:
    with tempfile.TemporaryDirectory(prefix="id-churn-") as folder:
        archive = subprocess.run(["git", "-C", repo, "archive", "--format=tar", commit],
                                 check=True, capture_output=True).stdout
        tar_path = os.path.join(folder, "tree.tar")
        with open(tar_path, "wb") as handle:
            handle.write(archive)
        tree = os.path.join(folder, "tree")
        with tarfile.open(tar_path) as tar:
            tar.extractall(tree, filter="data")
        yield tree


def chunk_tree(tree: str, options: ChunkOptions, cache: dict[tuple[str, str, bool], Tree]) -> tuple[Tree, dict[str, str]]:
    """Every chunk of the tree, and each file's content hash (files unchanged since the
    previous commit are taken from ``cache``)."""
    chunks: Tree = []
    hashes: dict[str, str] = {}
    for source in walk_sources(tree, Settings().walk):
        hashes[source.rel] = source.file_hash
        key = (source.rel, source.file_hash, options.filter_imports)
        found = cache.get(key)
        if found is None:
            found = cache[key] = [(item.id, source.rel, item.chunk.text)
                                  for item in chunk_text(source.rel, source.text, options)]
        chunks += found
    return chunks, hashes


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("repo")
    parser.add_argument("--commits", type=int, default=30)
    parser.add_argument("--max-size", type=int, default=ChunkOptions().max_size)
    args = parser.parse_args()
    settings = {"before": ChunkOptions(max_size=args.max_size, filter_imports=False),
                "after": ChunkOptions(max_size=args.max_size, filter_imports=True)}
    cache: dict[tuple[str, str, bool], Tree] = {}
    previous: dict[str, Tree] = {}
    previous_hashes: dict[str, str] = {}
    totals = dict.fromkeys(("files", "file_upserts", "code_new", "before_new", "before_deletes",
                            "after_new", "after_deletes", "chunks"), 0)
    print(f"{'commit':8} {'files':>5} {'file upserts':>12} {'code new':>8} {'new ids before':>14} "
          f"{'new ids after':>13} {'deletes before':>14} {'deletes after':>13}")
    history = commits(args.repo, args.commits)
    for step, commit in enumerate(history):
        for tree in extracted(args.repo, commit):
            current = {name: chunk_tree(tree, options, cache) for name, options in settings.items()}
        hashes = current["after"][1]
        if step:
            changed = {rel for rel, digest in hashes.items() if previous_hashes.get(rel) != digest}
            after = current["after"][0]
            old_code = {(path, code) for _, path, code in previous["after"]}
            row = {
                "files": len(changed | (set(previous_hashes) - set(hashes))),
                "file_upserts": sum(1 for _, path, _ in after if path in changed),
                "code_new": sum(1 for _, path, code in after if (path, code) not in old_code),
                "chunks": len(after),
            }
            for name in settings:
                new_ids = {id_ for id_, _, _ in current[name][0]}
                old_ids = {id_ for id_, _, _ in previous[name]}
                row[f"{name}_new"] = len(new_ids - old_ids)
                row[f"{name}_deletes"] = len(old_ids - new_ids)
            for key, value in row.items():
                totals[key] += value
            print(f"{commit[:8]} {row['files']:5} {row['file_upserts']:12} {row['code_new']:8} "
                  f"{row['before_new']:14} {row['after_new']:13} {row['before_deletes']:14} {row['after_deletes']:13}")
        previous = {name: found[0] for name, found in current.items()}
        previous_hashes = hashes
    steps = len(history) - 1
    print(f"{'total':8} {totals['files']:5} {totals['file_upserts']:12} {totals['code_new']:8} "
          f"{totals['before_new']:14} {totals['after_new']:13} {totals['before_deletes']:14} "
          f"{totals['after_deletes']:13}")
    for name in settings:
        new = totals[f"{name}_new"]
        share = totals["code_new"] / new if new else 1.0
        print(f"{name}: {new} new ids over {steps} commits, {totals['code_new']} with new code "
              f"({share:.0%} of the new ids carry code that changed); "
              f"{totals['file_upserts']} chunks in the changed files")
    return 0


if __name__ == "__main__":
    sys.exit(main())
