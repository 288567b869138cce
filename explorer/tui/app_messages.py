"""What screens ask of the app: the requests it answers by changing its state.

The app owns the state (:mod:`.app_state` is how screens read it); anything in any
screen that wants it changed posts one of these, and the app's handler does the rest.
Past-tense facts, as every message of the explorer: the user chose, the user changed.

The rest have other homes: a widget's events are nested in the widget that posts them
(``ChunkList.Selected``, as Textual's own ``Input.Changed``) and go to its screen; a
feature's worker results (Ready, Failed, Progressed) are in its folder's ``messages.py``.
"""

from __future__ import annotations

from dataclasses import dataclass

from textual.message import Message

from explorer.engine.options import ChunkOptions


@dataclass
class FileChosen(Message):
    """The user picked a file to open (in the tree, the finder, the palette, the repository view)."""

    path: str


@dataclass
class OptionsChanged(Message):
    """The user changed chunking parameters."""

    options: ChunkOptions


@dataclass
class UnitChosen(Message):
    """The user chose another size unit: the max size is converted to it (see
    :meth:`~explorer.tui.app.ChunkExplorerApp.choose_unit`)."""

    unit: str


@dataclass
class SettingChosen(Message):
    """The user chose a setting (in the sweep panel) to use, and perhaps to save."""

    options: ChunkOptions
    #: Also write it to the settings file.
    save: bool = False
    #: How the screen names the setting (``#4 (2,000)``), for the notice; "" for none.
    label: str = ""


@dataclass
class QuerySourcesChosen(Message):
    """The user chose the query sources of the retrieval evaluations (in the sweep)."""

    sources: tuple[str, ...]
