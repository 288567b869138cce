"""Command-line flags shared by the verbs, and how they combine with the settings file.

Precedence: built-in defaults < ``.chunk-explorer.toml`` < flags. Every flag defaults
to ``None`` ("not given") so a value from the settings file is only overridden by a
flag the user actually typed.
"""

from __future__ import annotations

import argparse
import os
from dataclasses import dataclass, replace
from typing import TYPE_CHECKING, Any

from ..engine.batch import default_jobs
from ..engine.options import CONTEXT_MODES, FITS, SIZE_UNITS, STRATEGIES, ChunkOptions
from ..engine.tokens import ENCODINGS
from ..terminal_text import visible
from ..workspace.settings import Settings, SettingsError, load_settings, settings_notice
from ..workspace.walk import WalkOptions
from .errors import UsageError
from .flag_types import option, positive_int, size
from .report import say

if TYPE_CHECKING:  # the cache is loaded by the commands that use it, not at every start
    from ..workspace.results_cache import ResultsCache

#: argparse destination -> ChunkOptions field.
CHUNK_FLAGS: dict[str, str] = {
    "max_size": "max_size",
    "size_unit": "size_unit",
    "overlap_lines": "overlap_lines",
    "language": "language",
    "context": "context_mode",
    "strategy": "strategy",
    "sibling_detail": "sibling_detail",
    "filter_imports": "filter_imports",
    "max_siblings": "max_siblings",
    "strict": "strict",
    "tokenizer": "tokenizer",
    "fit": "fit",
    "namespace": "namespace",
}


def add_chunk_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("chunking (override the settings file)")
    defaults = ChunkOptions()
    group.add_argument("--max-size", type=option("max_size"), metavar="N",
                       help=f"largest chunk, in --size-unit (default {defaults.max_size})")
    group.add_argument("--size-unit", type=option("size_unit"), metavar=choices(SIZE_UNITS),
                       help="nws = non-whitespace characters (default), chars, lines, or tokens (needs --tokenizer)")
    add_token_options(group)
    group.add_argument("--overlap-lines", type=option("overlap_lines"), metavar="N",
                       help=f"lines of the previous chunk repeated before each chunk (default {defaults.overlap_lines})")
    add_language_option(group)
    group.add_argument("--context", type=option("context_mode"), metavar=choices(CONTEXT_MODES),
                       help="how much context goes into contextualizedText (default full)")
    group.add_argument("--strategy", type=option("strategy"), metavar=choices(STRATEGIES),
                       help="ast (syntax-aware, default) or lines (line packing baseline)")
    group.add_argument("--strict", action="store_true", default=None,
                       help="a file of unknown language (or plain text) fails instead of being chunked by lines")
    group.add_argument("--sibling-detail", type=option("sibling_detail"), help=argparse.SUPPRESS)
    group.add_argument("--filter-imports", action=argparse.BooleanOptionalAction, default=None,
                       help=argparse.SUPPRESS)
    group.add_argument("--max-siblings", type=option("max_siblings"), help=argparse.SUPPRESS)


def choices(values: tuple[str, ...]) -> str:
    """The metavar of a choice flag: ``{nws,chars,lines,tokens}``, as argparse writes its own."""
    return "{" + ",".join(values) + "}"


def add_language_option(group: argparse._ActionsContainer) -> None:
    """--language (every verb that chunks): checked as the settings file checks it."""
    group.add_argument("--language", type=option("language"), metavar="L",
                       help="parse every file as language L instead of detecting it (`chunk-explorer languages` "
                            "lists them)")


def add_token_options(group: argparse._ArgumentGroup) -> None:
    """--tokenizer and --fit (shared by every verb that chunks)."""
    group.add_argument("--tokenizer", metavar="NAME|FILE",
                       help=f"count tokens with an encoding ({', '.join(ENCODINGS)}) or a model's tokenizer.json; "
                            "chunks then report their token counts")
    group.add_argument("--fit", type=option("fit"), metavar=choices(FITS),
                       help="what --max-size binds: the chunk's text, or the embedded text (header + overlap + "
                            "code); auto (default) = embedded for tokens, text otherwise")


def add_walk_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("which files (directories are walked)")
    group.add_argument("--include", action="append", metavar="GLOB",
                       help="only files matching GLOB (gitignore syntax; repeatable); "
                            "also admits files of unknown language")
    group.add_argument("--exclude", action="append", metavar="GLOB",
                       help="leave out files and directories matching GLOB (repeatable)")
    group.add_argument("--max-file-size", type=size, metavar="SIZE",
                       help="skip larger files, e.g. 500K, 2M (default 2M)")
    group.add_argument("--no-gitignore", action="store_true", default=None,
                       help="do not apply .gitignore files")
    group.add_argument("--no-default-excludes", action="store_true", default=None,
                       help="also walk .git, node_modules, virtualenvs, build output...")
    group.add_argument("--follow-symlinks", action="store_true", default=None,
                       help="also follow symbolic links that lead outside the walked directory")


def add_settings_options(parser: argparse.ArgumentParser) -> None:
    group = parser.add_argument_group("settings file")
    exclusive = group.add_mutually_exclusive_group()
    exclusive.add_argument("--settings", metavar="FILE",
                           help="read settings from FILE instead of the .chunk-explorer.toml "
                                "found from the path upwards (to the repository top)")
    exclusive.add_argument("--no-settings", action="store_true",
                           help="ignore any .chunk-explorer.toml")


def add_jobs_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("-j", "--jobs", type=positive_int, metavar="N",
                        help=f"worker processes (default: all cores, {default_jobs()} here)")


def add_cache_option(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("--no-cache", action="store_true",
                        help="chunk every file again (default: a file unchanged since a run with the same settings "
                             "is answered from $XDG_CACHE_HOME/chunk-explorer/results; CHUNK_EXPLORER_CACHE=off "
                             "keeps nothing)")


def results_cache(args: argparse.Namespace) -> ResultsCache:
    """The results cache of a run: the user's, or none with ``--no-cache``. Raises UsageError
    for a cap that is not a number (``CHUNK_EXPLORER_CACHE_MB``)."""
    from ..workspace.results_cache import CacheSettingError, ResultsCache

    try:
        return ResultsCache.default(enabled=not args.no_cache)
    except CacheSettingError as exc:
        raise UsageError(str(exc)) from None


@dataclass(frozen=True, slots=True)
class Resolved:
    """The effective parameters of a run and where they came from."""

    options: ChunkOptions
    walk: WalkOptions
    settings: Settings

    @property
    def settings_path(self) -> str | None:
        return self.settings.path


def resolve(args: argparse.Namespace, root: str) -> Resolved:
    """Defaults < settings file (the nearest one from ``root`` upwards) < flags; says on
    stderr which settings file was read (unless ``--quiet``). Raises UsageError."""
    try:
        if getattr(args, "no_settings", False):
            settings = Settings()
        else:
            settings = load_settings(root, getattr(args, "settings", None))
    except SettingsError as exc:
        raise UsageError(str(exc)) from None
    if not getattr(args, "quiet", False):
        say(visible("settings: none (--no-settings)" if getattr(args, "no_settings", False)
                      else settings_notice(settings, root)))

    overrides = {
        field: getattr(args, dest)
        for dest, field in CHUNK_FLAGS.items()
        if getattr(args, dest, None) is not None
    }
    try:
        options = ChunkOptions.build(settings.options, **overrides)
    except ValueError as exc:
        raise UsageError(str(exc)) from None
    return Resolved(options, _walk_options(args, settings.walk), settings)


def _walk_options(args: argparse.Namespace, base: WalkOptions) -> WalkOptions:
    changes: dict[str, Any] = {}
    # Globs from flags add to the settings file's lists.
    if getattr(args, "include", None):
        changes["include"] = base.include + tuple(args.include)
    if getattr(args, "exclude", None):
        changes["exclude"] = base.exclude + tuple(args.exclude)
    if getattr(args, "max_file_size", None) is not None:
        changes["max_file_size"] = args.max_file_size
    if getattr(args, "no_gitignore", None):
        changes["gitignore"] = False
    if getattr(args, "no_default_excludes", None):
        changes["default_excludes"] = False
    if getattr(args, "follow_symlinks", None):
        changes["follow_symlinks"] = True
    if getattr(args, "language", None):
        changes["all_languages"] = True  # a forced language applies to files of any name
    try:
        return replace(base, **changes)
    except ValueError as exc:
        raise UsageError(str(exc)) from None


def check_paths(paths: list[str]) -> None:
    missing = [p for p in paths if not os.path.exists(p)]
    if missing:
        listed = ", ".join(missing)
        raise UsageError(f"no such file or directory: {listed}; check the path(s)")
