"""What the repository view lists: every scanned file with its problems, or every chunk that has
one across the repository, filtered and sorted.

Pure data, no Textual: the scan worker adds files as they finish, the screen asks for
the rows to show and the problems to walk. Filters and the sort order apply to both
lists, and ``n``/``p`` in the explorer walk the problems in the order of the list the
view showed last (files, or chunks).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from explorer.engine.measure.problems import PROBLEM_KINDS, WEIGHTS, FileProblems, Problem, problem_kinds
from explorer.engine.options import ChunkOptions

#: Sort orders, in the order the sort key cycles through them.
SORTS = ("worst", "most", "path", "kind")
SORT_LABELS = {"worst": "worst first (weighted)", "most": "most problems first", "path": "by path",
               "kind": "by kind (the worst kind first)"}
#: What the view lists: files, or chunks.
FILES, CHUNKS = "files", "chunks"


@dataclass(frozen=True, slots=True)
class ScannedFile:
    """A file of the scan: where it is on disk, its name in the view, its problems (with
    their counts per kind and weighted score, figured once, in the scan's worker)."""

    path: str  # absolute, to open it
    rel: str  # relative to the explored directory, as shown
    found: FileProblems
    counts: dict[str, int] = field(default_factory=dict)
    score: int = 0

    @classmethod
    def of(cls, path: str, rel: str, found: FileProblems) -> ScannedFile:
        return cls(path, rel, found, found.counts(), found.score)

    @property
    def language(self) -> str:
        return self.found.language or "plain text"


@dataclass(frozen=True, slots=True)
class ChunkRow:
    """A chunk with problems: its file, its number in the file, its problems (in source order)."""

    file: ScannedFile
    chunk: int
    problems: tuple[Problem, ...]

    @property
    def score(self) -> int:
        return sum(WEIGHTS[p.kind] for p in self.problems)

    @property
    def worst_kind(self) -> int:
        """The position in PROBLEM_KINDS of its worst problem's kind."""
        return min(PROBLEM_KINDS.index(p.kind) for p in self.problems)

    @property
    def line(self) -> int:
        """The 0-based line of its first problem."""
        return self.problems[0].line

    @property
    def worst(self) -> Problem:
        """Its problem of the worst kind (the first of them in the source)."""
        return min(self.problems, key=lambda p: PROBLEM_KINDS.index(p.kind))


@dataclass(frozen=True, slots=True)
class WalkStop:
    """One problem of the walk: the file it is in and the problem."""

    file: ScannedFile
    problem: Problem


@dataclass(slots=True)
class RepositoryModel:
    """The scanned files and the view's filters (language, kind) and sort order."""

    options: ChunkOptions
    files: list[ScannedFile] = field(default_factory=list)
    #: Files that could not be chunked: (relative path, reason).
    failed: list[tuple[str, str]] = field(default_factory=list)
    language: str | None = None  # None: every language
    kind: str | None = None  # None: every kind
    sort: str = "worst"
    #: The list shown: FILES or CHUNKS.
    listing: str = FILES
    complete: bool = False
    _rows: list[ScannedFile] | None = None
    _chunk_rows: list[ChunkRow] | None = None
    _walk: list[WalkStop] | None = None

    # -- filling ---------------------------------------------------------------------------
    def add(self, files: Sequence[ScannedFile], failed: Sequence[tuple[str, str]] = ()) -> None:
        self.files.extend(files)
        self.failed.extend(failed)
        self._changed()

    def _changed(self) -> None:
        self._rows = self._chunk_rows = self._walk = None

    # -- choosing what to show --------------------------------------------------------------
    @property
    def languages(self) -> list[str]:
        """Languages of the files scanned so far, by name."""
        return sorted({f.language for f in self.files})

    def cycle_language(self, step: int = 1) -> None:
        self.language = _cycle([None, *self.languages], self.language, step)
        self._changed()

    @property
    def kinds(self) -> tuple[str, ...]:
        """The kinds that can be found under the view's options, worst first."""
        return problem_kinds(self.options)

    def cycle_kind(self, step: int = 1) -> None:
        self.kind = _cycle([None, *self.kinds], self.kind, step)
        self._changed()

    def cycle_sort(self, step: int = 1) -> None:
        self.sort = _cycle(list(SORTS), self.sort, step)
        self._changed()

    def toggle_listing(self) -> None:
        self.listing = CHUNKS if self.listing == FILES else FILES
        self._walk = None

    def problems(self, file: ScannedFile) -> list[Problem]:
        """The file's problems that pass the kind filter, in source order."""
        return [p for p in file.found.problems if self.kind is None or p.kind == self.kind]

    def score(self, file: ScannedFile) -> int:
        """The file's weighted count, of the filtered kind only when one is chosen."""
        return file.score if self.kind is None else WEIGHTS[self.kind] * file.counts[self.kind]

    def count(self, file: ScannedFile) -> int:
        """The file's problems that pass the kind filter."""
        return len(file.found.problems) if self.kind is None else file.counts[self.kind]

    def rows(self) -> list[ScannedFile]:
        """The files shown: those of the language with problems of the kind, sorted."""
        if self._rows is None:
            shown = [
                f for f in self.files
                if (self.language is None or f.language == self.language) and self.count(f)
            ]
            # Ties (common with one kind chosen) go to the file that is worse over every kind.
            if self.sort == "worst":
                shown.sort(key=lambda f: (-self.score(f), -f.score, f.rel))
            elif self.sort == "most":
                shown.sort(key=lambda f: (-self.count(f), -len(f.found.problems), f.rel))
            elif self.sort == "kind":
                shown.sort(key=lambda f: (min((PROBLEM_KINDS.index(k) for k, n in f.counts.items() if n),
                                              default=len(PROBLEM_KINDS)), -self.score(f), f.rel))
            else:
                shown.sort(key=lambda f: f.rel)
            self._rows = shown
        return self._rows

    def chunk_rows(self) -> list[ChunkRow]:
        """Every chunk with a problem of the kind, in files of the language, sorted: worst first
        (weighted over its problems), most problems first, by path, or by its worst kind."""
        if self._chunk_rows is None:
            rows: list[ChunkRow] = []
            for file in self.files:
                if self.language is not None and file.language != self.language:
                    continue
                by_chunk: dict[int, list[Problem]] = {}
                for problem in file.found.problems:
                    by_chunk.setdefault(problem.chunk, []).append(problem)
                for chunk, problems in by_chunk.items():
                    if self.kind is None or any(p.kind == self.kind for p in problems):
                        rows.append(ChunkRow(file, chunk, tuple(problems)))
            if self.sort == "worst":
                rows.sort(key=lambda r: (-r.score, r.file.rel, r.chunk))
            elif self.sort == "most":
                rows.sort(key=lambda r: (-len(r.problems), -r.score, r.file.rel, r.chunk))
            elif self.sort == "kind":
                rows.sort(key=lambda r: (r.worst_kind, -r.score, r.file.rel, r.chunk))
            else:
                rows.sort(key=lambda r: (r.file.rel, r.chunk))
            self._chunk_rows = rows
        return self._chunk_rows

    def walk(self) -> list[WalkStop]:
        """Every problem shown, in the order of the list shown: file by file (each file's in
        source order), or chunk by chunk."""
        if self._walk is None:
            if self.listing == CHUNKS:
                self._walk = [WalkStop(row.file, p) for row in self.chunk_rows() for p in row.problems
                              if self.kind is None or p.kind == self.kind]
            else:
                self._walk = [WalkStop(f, p) for f in self.rows() for p in self.problems(f)]
        return self._walk

    def totals(self) -> dict[str, int]:
        """Problems per kind over the files of the chosen language (every kind)."""
        counts = dict.fromkeys(PROBLEM_KINDS, 0)
        for f in self.files:
            if self.language is None or f.language == self.language:
                for kind, count in f.counts.items():
                    counts[kind] += count
        return counts

    def embedded(self) -> tuple[int, int, int]:
        """``(chunks, chunks whose embedded text is over the limit, the largest such size)``
        over the files of the chosen language: information under every fit."""
        chunks = over = largest = 0
        for f in self.files:
            if self.language is None or f.language == self.language:
                chunks += f.found.chunks
                over += f.found.embedded_over
                largest = max(largest, f.found.embedded_largest)
        return chunks, over, largest

    def describe_filters(self) -> str:
        language = self.language or "every language"
        kind = self.kind or "every kind"
        return f"{self.listing} · {language} · {kind} · {SORT_LABELS[self.sort]}"


Value = TypeVar("Value")


def _cycle(values: list[Value], current: Value, step: int) -> Value:
    """The value ``step`` places after ``current`` in ``values``, wrapping around."""
    index = values.index(current) if current in values else 0
    return values[(index + step) % len(values)]
