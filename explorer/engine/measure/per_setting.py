"""One file under several settings, and how those settings are told apart.

Everything that compares settings (the sweep, the retrieval evaluation, ``stats
--compare lines``, the explorer's comparison view) chunks a parsed file here:

- :func:`chunk_setting`: the chunks of a parsed file under one setting. A ``lines``
  setting packs lines even when the file was parsed with a tree; the tree stays with the
  caller, so a line-packed chunking is measured against the same syntax tree as the AST
  settings (its split definitions and cut kinds are comparable with theirs).
- :func:`chunk_settings`: the same file under many settings, parsed once per language
  (chunking is cheap next to parsing): re-parsed only for a setting that forces another
  language.
- :func:`varied_fields` and :func:`setting_label`: the option fields that differ
  between settings, and a setting's name made of them (``max_size=1000 overlap_lines=5``).
"""

from __future__ import annotations

import time
from collections.abc import Iterable, Iterator, Mapping, Sequence
from dataclasses import dataclass, fields, replace

from ..api import chunk_parsed
from ..model import Chunk
from ..options import ChunkOptions
from ..parse import LINES_STRATEGY, ParsedFile, parse_source
from ..structure import FileStructure


def chunk_setting(parsed: ParsedFile, options: ChunkOptions, *, structure: FileStructure | None = None) -> list[Chunk]:
    """The chunks of ``parsed`` under ``options`` (``structure``: the file's, when the
    caller has it, for the AST chunker's context)."""
    if options.strategy == "lines" and (parsed.tree is not None or parsed.regions):
        # The baseline packs lines, whatever the file holds (a container's regions too).
        return chunk_parsed(replace(parsed, tree=None, regions=(), fallback=LINES_STRATEGY), options)
    return chunk_parsed(parsed, options, structure=structure)


@dataclass(frozen=True, slots=True)
class SettingChunks:
    """One setting's chunking of the file."""

    options: ChunkOptions
    #: The file parsed in the setting's language, with its tree (what to measure against).
    tree: ParsedFile
    chunks: list[Chunk]
    parse_seconds: float  # re-parsing for this setting's language (0 when a tree was reused)
    chunk_seconds: float  # 0 for a chunking given in ``chunked``


def chunk_settings(
    parsed: ParsedFile,
    settings: Iterable[ChunkOptions],
    *,
    parsed_language: str | None = None,
    chunked: Mapping[ChunkOptions, list[Chunk]] | None = None,
) -> Iterator[SettingChunks]:
    """``parsed`` under each setting, in order. ``parsed_language``: the ``language``
    option ``parsed`` was parsed with (None: detected), so that a setting asking for the
    same one reuses its tree; ``chunked``: chunkings already made of ``parsed`` (e.g. by
    the batch), reused as they are."""
    trees: dict[str | None, ParsedFile] = {parsed_language: parsed, parsed.language: parsed}
    for setting in settings:
        tree = trees.get(setting.language)
        parse_seconds = 0.0
        if tree is None:
            started = time.perf_counter()
            tree = trees[setting.language] = parse_source(parsed.source, parsed.path, setting.language)
            parse_seconds = time.perf_counter() - started
        known = chunked.get(setting) if chunked is not None and tree is parsed else None
        if known is not None:
            yield SettingChunks(setting, tree, known, parse_seconds, 0.0)
            continue
        started = time.perf_counter()
        chunks = chunk_setting(tree, setting)
        yield SettingChunks(setting, tree, chunks, parse_seconds, time.perf_counter() - started)


def varied_fields(settings: Sequence[ChunkOptions]) -> list[str]:
    """The option fields whose value differs between the settings, in field order
    (``max_size`` for a single setting: the one a reader looks for)."""
    if len(settings) < 2:
        return ["max_size"]
    return [f.name for f in fields(ChunkOptions) if len({getattr(s, f.name) for s in settings}) > 1]


def setting_label(options: ChunkOptions, varied: Sequence[str], index: int) -> str:
    """``max_size=1000 overlap_lines=5``: the setting's values of the ``varied`` fields
    (``setting N``, from 1, when none vary)."""
    return " ".join(f"{name}={getattr(options, name)}" for name in varied) or f"setting {index + 1}"
