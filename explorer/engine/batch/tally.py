"""What a run over many files did, counted as the results arrive: the files chunked, their
chunks and source bytes, the inputs skipped (the walk's, then those found binary or
undecodable while chunking), the files chunked with parts left out and the files that failed. The export's ``summary``, the
CLI's closing lines and the explorer's export notice all read this one tally."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from .skips import SkippedInput, SkipReason, SkipRecord, count_reasons

if TYPE_CHECKING:  # the tally takes results; it needs not load what makes them
    from .task import BatchResult


@dataclass(slots=True)
class RunTally:
    """Counts filled by :meth:`add` as results arrive."""

    files: int = 0
    chunks: int = 0
    bytes: int = 0
    skipped: list[SkipRecord] = field(default_factory=list)
    failed: list[BatchResult] = field(default_factory=list)
    #: Files chunked with parts left out: ``(rel, what was left out and why)``.
    partial: list[tuple[str, tuple[str, ...]]] = field(default_factory=list)
    #: Chunks whose embedded text (header + overlap + code) is over the limit, and the
    #: largest embedded size, when the run measured them (:meth:`add_embedded`).
    embedded_over: int = 0
    embedded_largest: int = 0

    def add_embedded(self, over: int, largest: int) -> None:
        """Count a file's chunks whose embedded text is over the limit, and its largest."""
        self.embedded_over += over
        self.embedded_largest = max(self.embedded_largest, largest)

    def add(self, result: BatchResult, rel: str, chunks: int | None = None) -> None:
        """Count a result, named ``rel``; ``chunks`` when the chunks themselves stayed in
        the worker. A file that is not text is skipped, never counted as a file."""
        if result.ok:
            self.files += 1
            self.chunks += len(result.chunks or ()) if chunks is None else chunks
            self.bytes += result.bytes
            if result.skipped:
                self.partial.append((rel, result.skipped))
        elif result.not_text:
            self.skipped.append(SkippedInput.not_text(rel, result.error_kind, result.error))
        else:
            self.failed.append(result)

    def skipped_by_reason(self) -> dict[SkipReason, int]:
        return count_reasons(self.skipped)

    def to_dict(self, seconds: float, jobs: int) -> dict[str, object]:
        return {
            "files": self.files,
            "chunks": self.chunks,
            "bytes": self.bytes,
            "skipped": self.skipped_by_reason(),
            "failed": len(self.failed),
            "seconds": round(seconds, 3),
            "jobs": jobs,
        }
