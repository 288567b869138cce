"""One plain sentence per step, with the step's place in the run above it."""

from __future__ import annotations

from rich.style import Style
from rich.text import Text
from textual.widgets import Static

from explorer.engine.text import display_line
from explorer.engine.trace import ACTION_LABELS, TraceStep

LABEL = Style(dim=True)
ACTION = Style(bold=True, reverse=True)
CODE = Style(bold=True, color="#d7afff")


def sentence_text(sentence: str) -> Text:
    """The sentence as ``Text``: `quoted` node kinds in bold; nothing read as markup."""
    text = Text()
    for k, part in enumerate(sentence.split("`")):
        # Node kinds come from grammars (and text from files): make them safe to print.
        text.append(display_line(part)[0], CODE if k % 2 else Style())
    return text


def heading(step: TraceStep, total: int, chunks_done: int) -> Text:
    text = Text(no_wrap=True, overflow="ellipsis")
    text.append(f" {ACTION_LABELS.get(step.action, step.action)} ", ACTION)
    text.append(f"  step {step.number:,} of {total:,}", LABEL)
    text.append(f"  ·  {chunks_done:,} chunk{'s' if chunks_done != 1 else ''} done", LABEL)
    return text


class StepNarration(Static):
    """What happened at this step and why."""

    DEFAULT_CSS = """
    StepNarration { height: auto; min-height: 3; padding: 0 1; }
    """

    #: The sentence shown, as plain text.
    sentence = ""

    def show_step(self, step: TraceStep | None, total: int = 0, chunks_done: int = 0) -> None:
        self.sentence = step.sentence if step is not None else ""
        if step is None:
            self.update(Text("Tracing…", style=LABEL))
            return
        text = heading(step, total, chunks_done)
        text.append("\n")
        text.append_text(sentence_text(step.sentence))
        self.update(text)
