"""The chosen query: its text, its target, what each setting did to it, and the top 5."""

from __future__ import annotations

from rich.console import Group
from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from .model import RetrievalRun, lesson, rank_text
from .table import MISSED, rank_cell, shown

LABEL = Style(dim=True)
HIT = Style(color="#5fd75f", bold=True)
LESSON = Style(italic=True)


def query_head(run: RetrievalRun, query: int) -> list[Text]:
    """The query and what it asks for: a doc's or a use's text and its target; a commit's
    subject, the rest of its message, and every definition it changed."""
    target = run.result.queries[query]
    if target.commit is None:
        what = f"{target.kind} {target.name} in " if target.name else ""
        return [Text(f"“{shown(target.text, 200)}”", style=Style(bold=True)),
                Text(shown(f"target: {what}{target.path}, lines {target.line_start + 1}–{target.line_end + 1}", 200),
                     style=LABEL)]
    subject = target.subject or target.text
    lines = [Text(f"commit {target.commit[:10]}: “{shown(subject, 200)}”", style=Style(bold=True))]
    rest = target.text[len(subject):].strip(" .") if target.text.startswith(subject) else target.text
    if rest:
        lines.append(Text(shown(rest, 300), style=LABEL))
    spans = target.targets
    lines.append(Text(f"{'target' if len(spans) == 1 else f'{len(spans)} targets'} (the definitions it changed"
                      + (", named in its message" if target.names_target else "") + "):", style=LABEL))
    for span in spans:
        lines.append(Text(shown(f"  {span.kind} {span.name} in {span.path}, lines {span.line_start + 1}–"
                                f"{span.line_end + 1}", 200), style=LABEL))
    return lines


def query_detail(run: RetrievalRun, query: int, setting: int) -> Group:
    labels = run.labels()
    lines = [*query_head(run, query), Text(lesson(run, query), style=LESSON), Text("")]
    reference = run.result.reference
    for k, evaluated in enumerate(run.settings):
        pieces = run.pieces[k][query]
        row = Text("▸ " if k == setting else "  ")
        row.append(f"{labels[k]}{' (ref)' if k == reference else ''}: ")
        row.append_text(Text("rank ") + rank_cell(evaluated.outcomes[query].rank))
        row.append(f" · {'whole' if pieces <= 1 else f'cut into {pieces} pieces'}", style=LABEL)
        lines.append(row)
    lines += [Text(""), Text(f"Top 5 under {labels[setting]} (green: hit, red: miss):", style=LABEL)]
    top = run.settings[setting].outcomes[query].top
    for chunk in top:
        row = Text(f"{chunk.rank:>2} ")
        row.append("✓ hit " if chunk.hit else "✗ miss", style=HIT if chunk.hit else MISSED)
        row.append("  " + shown(f"{chunk.path}:{chunk.line_start + 1}–{chunk.line_end + 1}", 80))
        row.append(f"  {chunk.nws:,} nws, {chunk.overlap:,} of the target", style=LABEL)
        lines.append(row)
    if not top:
        lines.append(Text("  nothing retrieved", style=LABEL))
    first = run.settings[setting].outcomes[query].rank
    lines.append(Text(f"first hit: {rank_text(first)}", style=LABEL))
    return Group(*lines)


class QueryDetail(Static):
    """What the queries view says about the highlighted query."""

    DEFAULT_CSS = """
    QueryDetail { height: 45%; padding: 0 1; }  /* fixed: a changing height would move the table under its cursor */
    """

    def show_query(self, run: RetrievalRun, query: int, setting: int) -> None:
        self.update(query_detail(run, query, setting))
