"""The verbs' names and one-line summaries, in the order ``--help`` lists them: the list
``chunk-explorer --help`` prints without importing any verb's module (each verb's module
takes its ``HELP`` from here)."""

from __future__ import annotations

#: Each verb's summary line (``%%`` is argparse's escaped ``%``).
SUMMARIES = {
    "chunk": "chunk files and directories; JSON or JSONL to stdout or a file",
    "stats": "quality measures of the chunking (sizes, over%%, tiny%%, clean%%, split%%...)",
    "languages": "list the supported languages, their support level and file extensions",
    "sweep": "compare settings over a codebase: chunk counts, sizes, tiny%%, split definitions, index size",
    "eval": "which settings retrieve best on this code: an offline retrieval evaluation with intervals",
    "report": "one self-contained HTML page: chunks over the source, problems, compare, sweep, evaluation",
    "serve": "the explorer in a browser: an app per visitor, for a class (loopback unless --host)",
}

VERB_NAMES = tuple(SUMMARIES)
