"""The quality summary as a fixed-width text table (the benchmarks print it; the CLI's
``stats`` has its own report)."""

from __future__ import annotations

from typing import Any

from explorer.engine.measure.quality import Summary

#: Columns of the plain-text table: (header, how to get the value from a GroupSummary).
TABLE_COLUMNS: tuple[tuple[str, Any], ...] = (
    ("files", lambda g: g.files),
    ("chunks", lambda g: g.chunks),
    ("min", lambda g: g.size_stats()["min"]),
    ("med", lambda g: g.size_stats()["median"]),
    ("p95", lambda g: g.size_stats()["p95"]),
    ("max", lambda g: g.size_stats()["max"]),
    ("over%", lambda g: g.over_pct),
    ("emb_over%", lambda g: g.embedded_over_pct),
    ("tiny%", lambda g: g.tiny_pct),
    ("exact%", lambda g: g.exact_pct),
    ("clean%", lambda g: g.clean_pct),
    ("token%", lambda g: g.cut_pct("token")),
    ("inner%", lambda g: g.cut_pct("inner")),
    ("midline%", lambda g: g.midline_pct),
    ("split_top%", lambda g: g.split_top_pct),
    ("split_any%", lambda g: g.split_any_pct),
    ("doc_split%", lambda g: g.doc_split_pct),
)


def format_table(summary: Summary) -> str:
    """The summary as a fixed-width text table, one row per language and an overall row."""

    def cell(value: Any) -> str:
        if value is None:
            return "-"
        if isinstance(value, float) and not value.is_integer():
            return f"{value:.1f}" if value >= 10 or value == 0 else f"{value:.2f}"
        return str(int(value)) if isinstance(value, float) else str(value)

    rows = [["language"] + [h for h, _ in TABLE_COLUMNS]]
    for name, group in [*summary.languages.items(), ("ALL", summary.overall)]:
        rows.append([name] + [cell(get(group)) for _, get in TABLE_COLUMNS])
    widths = [max(len(row[i]) for row in rows) for i in range(len(rows[0]))]
    return "\n".join(
        "  ".join(v.ljust(w) if i == 0 else v.rjust(w) for i, (v, w) in enumerate(zip(row, widths))) for row in rows
    )
