"""Per-chunk context and contextualized text.

PLACEHOLDER written by the engine author so the API runs end to end; the
structure work (issue 3) replaces this module, keeping these two names and
their signatures.
"""

from __future__ import annotations

from typing import Any

from .options import ChunkOptions
from .parse import ParsedFile


class ContextBuilder:
    def __init__(self, parsed: ParsedFile, options: ChunkOptions, filepath: str | None, structure: Any = None):
        self.parsed = parsed
        self.options = options
        self.filepath = filepath

    def context_for(self, start: int, end: int) -> dict[str, Any]:
        if self.options.context_mode == "none":
            return {"scope": [], "entities": [], "siblings": [], "imports": []}
        ctx: dict[str, Any] = {"filepath": self.filepath, "language": self.parsed.language,
                               "scope": [], "entities": [], "siblings": [], "imports": []}
        if self.parsed.parse_error:
            ctx["parseError"] = self.parsed.parse_error
        return ctx

    def contextualize(self, context: dict[str, Any], text: str, overlap_text: str) -> str:
        if self.options.context_mode == "none":
            return text
        header = [f"# {self.filepath}"] if self.filepath else []
        parts = header + ([""] if header else [])
        if overlap_text:
            parts += ["# ...", overlap_text.rstrip("\r\n"), "# ---"]
        return "\n".join(parts + [text]) if parts else text


def make_context_builder(parsed: ParsedFile, options: ChunkOptions, filepath: str | None, structure: Any = None) -> ContextBuilder:
    return ContextBuilder(parsed, options, filepath, structure)
