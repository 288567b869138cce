"""What screens may read of the app: a typed view of its state.

The app owns the state (the open document, the parameters, the problem shown) and
is the only one to change it, in message handlers. Screens read it through
:func:`explorer_state` and ask for changes by posting the messages of
:mod:`.app_messages` (``OptionsChanged``, ``SettingChosen``, ``QuerySourcesChosen``); they never call into the app.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Protocol, runtime_checkable

if TYPE_CHECKING:
    from textual.dom import DOMNode

    from explorer.engine.options import ChunkOptions
    from explorer.workspace.walk import WalkOptions

    from .document.model import Document


#: The query sources the explorer evaluates with until the user chooses others in the sweep:
#: the code's docs, and calls and type uses for code with few docs, as ``eval --queries
#: docs,calls,types`` (``eval``'s own default is docs alone). Names of the engine's
#: ``QUERY_SOURCES``, written here so that starting the explorer loads no retrieval code.
DEFAULT_QUERY_SOURCES: tuple[str, ...] = ("docs", "calls", "types")


@runtime_checkable
class ExplorerState(Protocol):
    """The explorer's state, read-only."""

    @property
    def root(self) -> str:
        """The explored directory."""

    @property
    def walk_options(self) -> WalkOptions | None:
        """Which files the tree and whole-tree runs take."""

    @property
    def document(self) -> Document | None:
        """The open file and its chunking (None: nothing shown)."""

    @property
    def options(self) -> ChunkOptions:
        """The chunking parameters in force."""

    @property
    def problem(self) -> str:
        """Why nothing is shown, or ""."""

    @property
    def query_sources(self) -> tuple[str, ...]:
        """The query sources the retrieval evaluations use (chosen in the sweep)."""

    @property
    def show_timings(self) -> bool:
        """Whether the stats show how long chunking took."""


def explorer_state(node: DOMNode) -> ExplorerState:
    """The state of the explorer app that ``node`` runs in."""
    app = node.app
    if not isinstance(app, ExplorerState):
        raise TypeError(f"{type(node).__name__} runs only inside the explorer app, not {type(app).__name__}")
    return app
