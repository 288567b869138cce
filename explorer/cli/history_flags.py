"""The flags of history queries (``--queries history``), shared by eval and sweep: which
commits give queries, and whether parsed definitions are kept between runs."""

from __future__ import annotations

import argparse

from ..engine.retrieval.history import HistoryRules
from ..workspace.history.mine import DEFAULT_CACHE
from .flag_types import positive_int


def add_history_options(parser: argparse.ArgumentParser) -> None:
    defaults = HistoryRules()
    group = parser.add_argument_group("history queries (--queries history: commit messages and the definitions "
                                      "they changed)")
    group.add_argument("--history-commits", type=positive_int, default=defaults.commits, metavar="N",
                       help=f"commits read, newest first (default {defaults.commits:,})")
    group.add_argument("--history-limit", type=positive_int, default=defaults.limit, metavar="N",
                       help=f"at most this many queries: the newest eligible commits (default {defaults.limit:,})")
    group.add_argument("--history-min-words", type=positive_int, default=defaults.min_words, metavar="N",
                       help=f"words a message needs once trailers and issue references are stripped "
                            f"(default {defaults.min_words})")
    group.add_argument("--history-max-files", type=positive_int, default=defaults.max_files, metavar="N",
                       help=f"code files (tests left out) a commit may change (default {defaults.max_files})")
    group.add_argument("--history-max-definitions", type=positive_int, default=defaults.max_definitions,
                       metavar="N", help=f"definitions a commit may change (default {defaults.max_definitions})")
    group.add_argument("--no-history-cache", action="store_true",
                       help="parse every changed file again (default: the definitions of files already parsed are "
                            "kept in $XDG_CACHE_HOME/chunk-explorer/history.sqlite)")


def history_rules(args: argparse.Namespace) -> HistoryRules:
    return HistoryRules(commits=args.history_commits, limit=args.history_limit, min_words=args.history_min_words,
                        max_files=args.history_max_files, max_definitions=args.history_max_definitions)


def history_cache(args: argparse.Namespace) -> str | None:
    return None if args.no_history_cache else DEFAULT_CACHE
