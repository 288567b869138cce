"""What the repository view lists: every scanned file with its problems, filtered and sorted.

Pure data, no Textual: the scan worker adds files as they finish, the screen asks for
the rows to show and the problems to walk. Filters and the sort order apply to both,
so ``n``/``p`` in the explorer walk the problems in the order the view lists them.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import TypeVar

from explorer.engine.measure.problems import PROBLEM_KINDS, WEIGHTS, FileProblems, Problem
from explorer.engine.options import ChunkOptions

#: Sort orders, in the order the sort key cycles through them.
SORTS = ("worst", "most", "path")
SORT_LABELS = {"worst": "worst first (weighted)", "most": "most problems first", "path": "by path"}


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
    complete: bool = False
    _rows: list[ScannedFile] | None = None
    _walk: list[WalkStop] | None = None

    # -- filling ---------------------------------------------------------------------------
    def add(self, files: Sequence[ScannedFile], failed: Sequence[tuple[str, str]] = ()) -> None:
        self.files.extend(files)
        self.failed.extend(failed)
        self._changed()

    def _changed(self) -> None:
        self._rows = self._walk = None

    # -- choosing what to show --------------------------------------------------------------
    @property
    def languages(self) -> list[str]:
        """Languages of the files scanned so far, by name."""
        return sorted({f.language for f in self.files})

    def cycle_language(self, step: int = 1) -> None:
        self.language = _cycle([None, *self.languages], self.language, step)
        self._changed()

    def cycle_kind(self, step: int = 1) -> None:
        self.kind = _cycle([None, *PROBLEM_KINDS], self.kind, step)
        self._changed()

    def cycle_sort(self, step: int = 1) -> None:
        self.sort = _cycle(list(SORTS), self.sort, step)
        self._changed()

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
            else:
                shown.sort(key=lambda f: f.rel)
            self._rows = shown
        return self._rows

    def walk(self) -> list[WalkStop]:
        """Every problem shown, file by file in the view's order, each file's in source order."""
        if self._walk is None:
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

    def describe_filters(self) -> str:
        language = self.language or "every language"
        kind = self.kind or "every kind"
        return f"{language} · {kind} · {SORT_LABELS[self.sort]}"


Value = TypeVar("Value")


def _cycle(values: list[Value], current: Value, step: int) -> Value:
    """The value ``step`` places after ``current`` in ``values``, wrapping around."""
    index = values.index(current) if current in values else 0
    return values[(index + step) % len(values)]
