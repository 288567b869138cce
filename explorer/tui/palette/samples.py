"""Palette commands that open teach mode on a sample file ("teach: open sample python"), offered
where teach mode can be opened (the explorer) and in teach mode itself (which then teaches it)."""

from __future__ import annotations

from functools import partial

from explorer.samples import list_samples

from .provider import Command, CommandListProvider


def sample_commands(run_action: object) -> list[Command]:
    """One command per sample; each runs the app's ``teach_sample`` action."""
    assert callable(run_action)
    return [(f"teach: open sample {sample.name}", partial(run_action, f"app.teach_sample({sample.name!r})"),
             sample.description) for sample in list_samples()]


class SampleCommands(CommandListProvider):
    """Teach mode on a sample."""

    def _commands(self) -> list[Command]:
        return sample_commands(self.screen.run_action)
