"""Keep an index in step with a codebase from Python: only what changed since last time.

    python examples/incremental_index.py path/to/repo index.json

A toy index (a JSON file of id -> record) stands in for a vector store: upserts are
written, deletes removed, and the state is committed only once the index has them all.
Run it, edit a file, run it again: only that file's chunks move.
"""

from __future__ import annotations

import json
import os
import sys

from explorer.workspace.incremental import StateError, open_incremental


def main(path: str, index_path: str) -> int:
    index: dict[str, dict] = {}
    if os.path.exists(index_path):
        with open(index_path, encoding="utf-8") as handle:
            index = json.load(handle)
    try:
        with open_incremental([path], index_path + ".state") as run:
            if run.rechunk_reason:
                print(f"{run.rechunk_reason}: re-chunking every file")
            for record in run.records():
                if record.op == "upsert":
                    index[record.id] = record.to_dict()  # embed record["contextualizedText"] here
                else:
                    index.pop(record.id, None)
            with open(index_path, "w", encoding="utf-8") as handle:
                json.dump(index, handle)
            run.commit()  # only now: a crash before this repeats the same changes next time
    except StateError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    summary = run.summary
    upserts = f"{summary.upserts} upsert{'' if summary.upserts == 1 else 's'}"
    deletes = f"{summary.deletes} delete{'' if summary.deletes == 1 else 's'}"
    print(f"{upserts}, {deletes}; the index holds {len(index)} chunks")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1] if len(sys.argv) > 1 else ".", sys.argv[2] if len(sys.argv) > 2 else "index.json"))
