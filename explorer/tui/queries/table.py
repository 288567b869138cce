"""The query list: one row per query, the rank of its target under each setting."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.coordinate import Coordinate
from textual.widgets import DataTable

from explorer.terminal_text import visible

from .model import RetrievalRun, disagreement, in_top, rank_text

QUERY_WIDTH = 32
TARGET_WIDTH = 22
FIRST = Style(color="#5fd75f", bold=True)
TOP5 = Style(color="#87d787")
TOP10 = Style(color="#ffd670")
MISSED = Style(color="#ff5f5f")


def shown(text: str, width: int) -> str:
    """File-derived text made safe for one cell (control characters visible), cut to ``width``."""
    safe = visible(" ".join(text.split()))
    return safe if len(safe) <= width else safe[: width - 1] + "…"


def shown_tail(text: str, width: int) -> str:
    """Like :func:`shown`, cut at the start instead (a path's end says the most)."""
    safe = visible(" ".join(text.split()))
    return safe if len(safe) <= width else "…" + safe[len(safe) - width + 1:]


def rank_cell(rank: int | None) -> Text:
    style = MISSED if rank is None or not in_top(rank) else FIRST if rank == 1 else TOP5 if rank <= 5 else TOP10
    return Text(rank_text(rank), style=style, justify="right")


class QueryTable(DataTable):
    """Queries with their target's rank per setting; ``o`` puts first the queries some settings
    find and others miss."""

    BINDING_GROUP_TITLE = "Query list"
    BINDINGS = [
        Binding("down,j", "cursor_down", "Down", show=False, id="queries.down", tooltip="Move to the next query"),
        Binding("up,k", "cursor_up", "Up", show=False, id="queries.up", tooltip="Move to the previous query"),
        Binding("home,g", "first_row", "First query", show=False, id="queries.first",
                tooltip="Go to the first query"),
        Binding("end,G", "last_row", "Last query", show=False, id="queries.last", tooltip="Go to the last query"),
    ]

    DEFAULT_CSS = """
    QueryTable { height: 1fr; }
    """

    def __init__(self, *, id: str | None = None):
        super().__init__(id=id, cursor_type="row", zebra_stripes=True)
        self.run: RetrievalRun | None = None
        self.by_disagreement = False

    def show_run(self, run: RetrievalRun) -> None:
        self.run = run
        self.clear(columns=True)
        varied = run.result.varied
        # The target right after the number: a table wider than its pane is clipped on the
        # right, and the target must keep its line number. Then the ranks (what the view is
        # about), then the query (long: the detail below shows it whole).
        labels = [(Text("#"), "#"), (Text("target"), "target")]
        for k, setting in enumerate(run.settings):
            header = " ".join(str(getattr(setting.options, name)) for name in varied)
            labels.append((Text(header, justify="right"), f"setting-{k}"))
        labels.append((Text("query"), "query"))
        # Widths given, not left to DataTable: it measures auto-width columns when idle and
        # keeps the cells it drew before at the old widths, so on a busy machine rows drawn
        # early stay misaligned under the header.
        rows = [self._cells(q) for q in range(len(run.result.queries))]
        for column, (label, key) in enumerate(labels):
            width = max([label.cell_len, *(row[column].cell_len for row in rows)])
            self.add_column(label, key=key, width=width)
        self._fill()

    def action_first_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=0)

    def action_last_row(self) -> None:
        if self.row_count:
            self.move_cursor(row=self.row_count - 1)

    def toggle_order(self) -> None:
        self.by_disagreement = not self.by_disagreement
        self._fill()

    @property
    def query_index(self) -> int | None:
        """The highlighted query (its index in the run's queries)."""
        if self.run is None or self.row_count == 0:
            return None
        row_key, _ = self.coordinate_to_cell_key(Coordinate(max(0, self.cursor_row), 0))
        return int(row_key.value) if row_key.value is not None else None

    def _cells(self, q: int) -> list[Text]:
        """The cells of query ``q``'s row."""
        assert self.run is not None
        query = self.run.result.queries[q]
        more = f" +{len(query.more)}" if query.more else ""  # a commit that changed several definitions
        cells = [Text(str(q + 1), justify="right"),
                 Text(shown_tail(f"{query.path}:{query.line_start + 1}", TARGET_WIDTH - len(more)) + more)]
        cells += [rank_cell(setting.outcomes[q].rank) for setting in self.run.settings]
        # a commit by its subject: the message's first line says what the change is
        cells.append(Text(shown(query.subject or query.text, QUERY_WIDTH)))
        return cells

    def _fill(self) -> None:
        run = self.run
        if run is None:
            return
        keep = self.query_index
        self.clear()
        order = list(range(len(run.result.queries)))
        if self.by_disagreement:
            order.sort(key=lambda q: disagreement(run, q), reverse=True)
        for q in order:
            self.add_row(*self._cells(q), key=str(q))
        if keep is not None:
            self.move_cursor(row=self.get_row_index(str(keep)))
