"""The file tree: the explored directory, filtered by the same rules as the headless walk."""

from __future__ import annotations

import os
from collections.abc import Iterable
from pathlib import Path

from rich.style import Style
from rich.text import Text
from textual.binding import Binding
from textual.widgets import DirectoryTree
from textual.widgets.tree import TreeNode

from explorer.engine.languages import detect_language
from explorer.terminal_text import visible
from explorer.workspace.walk import WalkOptions, WalkRules

from ...app_messages import FileChosen


class FileTree(DirectoryTree):
    """Directory tree hiding what the walker skips (.gitignore, caches, virtualenvs);
    files show the language they are chunked as."""

    BINDING_GROUP_TITLE = "Files"

    BINDINGS = [
        Binding("j", "cursor_down", "Down", show=False, id="files.cursor_down"),
        Binding("k", "cursor_up", "Up", show=False, id="files.cursor_up"),
        Binding("g", "scroll_home", "First", show=False, id="files.scroll_home"),
        Binding("G", "scroll_end", "Last", show=False, id="files.scroll_end"),
    ]

    COMPONENT_CLASSES = {"file-tree--language"}

    DEFAULT_CSS = """
    FileTree > .file-tree--language { color: $text-muted; text-style: italic; }
    """

    def __init__(self, path: str | Path, walk: WalkOptions | None = None, *, id: str | None = None):
        super().__init__(path, id=id)
        self.walk = walk
        self.rules = WalkRules(path, walk)
        self._languages: dict[str, str | None] = {}

    def filter_paths(self, paths: Iterable[Path]) -> Iterable[Path]:
        # Runs in the tree's loader thread: only pure checks here. isdir follows links (a
        # link to a folder is listed as one) and says False when stat fails (dangling link,
        # no permission), as DirectoryTree does when it adds the entry.
        shown = []
        for path in paths:
            text = os.fspath(path)
            is_dir = os.path.isdir(text)
            if self.rules.entry_skip_reason(text, self.rules.rel(text), is_dir) is None:
                shown.append(path)
        return shown

    def process_label(self, label: str | Text) -> Text:
        # A file name may hold a newline (the Tree keeps only a label's first line) or other
        # control characters: show them as visible symbols, the name whole.
        return Text(visible(label)) if isinstance(label, str) else super().process_label(label)

    def language_of(self, path: Path) -> str | None:
        key = os.fspath(path)
        if key not in self._languages:
            self._languages[key] = detect_language(key)
        return self._languages[key]

    def render_label(self, node: TreeNode, base_style: Style, style: Style) -> Text:
        label = super().render_label(node, base_style, style)
        if node.data is not None and not node.allow_expand:
            language = self.language_of(node.data.path)
            if language:
                label.append(f" {language}", self.get_component_rich_style("file-tree--language", partial=True))
        return label

    def on_directory_tree_file_selected(self, event: DirectoryTree.FileSelected) -> None:
        event.stop()
        if event.node is self.root:
            return  # the explored folder, removed: DirectoryTree takes it for a file
        self.post_message(FileChosen(os.fspath(event.path)))

    def find_node(self, path: str) -> TreeNode | None:
        """The loaded tree node for a path, if its folder has been loaded. Paths are
        compared as written and resolved: a link's target may lie outside the root."""
        targets = {os.path.abspath(path), os.path.realpath(path)}
        stack = [self.root]
        while stack:
            node = stack.pop()
            data = node.data
            if data is not None:
                here = {os.path.abspath(data.path), os.path.realpath(data.path)}
                if here & targets:
                    return node
                if not any(t.startswith(h.rstrip(os.sep) + os.sep) for t in targets for h in here):
                    continue  # not on the way to the target
            stack.extend(node.children)
        return None

    def reveal_path(self, path: str, attempts: int = 30) -> None:
        """Move the cursor to a file; folders load in a worker, so retry for a moment."""
        node = self.find_node(path)
        if node is not None:
            self.move_cursor(node)
        elif attempts > 0:
            self.set_timer(0.1, lambda: self.reveal_path(path, attempts - 1))

    def reload_rules(self) -> None:
        """Read the ignore files again and filter the whole tree with them."""
        self.rules = WalkRules(self.path, self.walk)
        self.reload()

    def reload_folders(self, folders: set[str]) -> None:
        for folder in folders:
            node = self.find_node(folder)
            if node is not None and (node is self.root or node.is_expanded):
                self.reload_node(node)
