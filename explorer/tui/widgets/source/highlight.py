"""Syntax highlighting for the source view: pygments tokens per line, lexed only near what is shown.

Lexing a whole 50,000-line file takes seconds, so lines are lexed in blocks of
``BLOCK`` lines when first shown and the tokens are cached. A block must not
start inside a multi-line token (a docstring, a block comment): the parse tree
says where such a token starts, and lexing begins on that token's first line.
Over-long lines are cut to ``max_chars`` before lexing, so minified code costs
no more than ordinary code. Such a line shows a window of ``max_chars`` characters,
from its start unless the view moved the window (:meth:`LineHighlighter.follow`) to
where its cursor is: a window away from the start is lexed on its own.
"""

from __future__ import annotations

from collections import OrderedDict

from pygments.lexer import Lexer
from pygments.token import Token, _TokenType
from tree_sitter import Node

from explorer.engine.text import SourceText

LineTokens = list[tuple[str, _TokenType]]

#: Node kinds (by suffix) that a lexer sees as one token even when they span lines.
_TOKEN_KIND_ENDINGS = ("string", "string_literal", "string_content", "comment", "heredoc_body", "heredoc")


class LineHighlighter:
    """Tokens of each line of a source, computed block by block on demand."""

    BLOCK = 48
    #: How many lines back a block may start to catch the beginning of a multi-line token.
    MAX_LOOKBACK = 2000

    def __init__(self, source: SourceText, lexer: Lexer, root: Node | None, max_chars: int, cache_blocks: int = 64):
        self.source = source
        self.lexer = lexer
        self.root = root
        self.max_chars = max_chars
        self._blocks: OrderedDict[int, list[LineTokens]] = OrderedDict()
        self._cache_blocks = cache_blocks
        #: First character shown of each over-long line whose window was moved (else 0).
        self.windows: dict[int, int] = {}
        self._window_tokens: dict[tuple[int, int], LineTokens] = {}

    def line_text(self, line: int) -> str:
        """A line without its ending, cut to its window of ``max_chars`` characters."""
        start = self.source.line_starts[line]
        end = self.source.line_end(line, keep_newline=False)
        window = self.windows.get(line, 0)
        if window:
            start = self.source.byte_offset(self.source.char_offset(start) + window)
        # Cut in bytes first (a minified megabyte line must not be decoded whole), then in characters.
        cut = min(end, start + 4 * self.max_chars + 4)
        text = self.source.slice(start, self.source.floor_char_boundary(cut))
        return text[: self.max_chars]

    def line_length(self, line: int) -> int:
        """Characters in a line, without its ending (all of them, not only the window's)."""
        start = self.source.line_starts[line]
        return self.source.chars(start, self.source.line_end(line, keep_newline=False))

    def is_cut(self, line: int) -> bool:
        """Whether the line goes on after its window."""
        start = self.source.line_starts[line]
        end = self.source.line_end(line, keep_newline=False)
        if end - start <= self.max_chars:
            return False
        return self.line_length(line) > self.windows.get(line, 0) + self.max_chars

    def follow(self, line: int, column: int) -> bool:
        """Move the window of an over-long line so that it shows ``column``; True if it moved."""
        window = self.windows.get(line, 0)
        if window <= column < window + self.max_chars:
            return False
        length = self.line_length(line)
        if length <= self.max_chars or (column >= length and length - window <= self.max_chars):
            return False  # all of it fits, or the column is the line's end, already shown
        window = max(0, min(column - self.max_chars // 4, length - self.max_chars + 1))
        if window:
            self.windows[line] = window
        else:
            self.windows.pop(line, None)
        self._blocks.pop(line // self.BLOCK, None)  # it was lexed with the former window's text
        return True

    def tokens(self, line: int) -> LineTokens:
        window = self.windows.get(line, 0)
        if window:
            return self._tokens_in_window(line, window)
        block = line // self.BLOCK
        lines = self._blocks.get(block)
        if lines is None:
            lines = self._lex_block(block)
            self._blocks[block] = lines
            if len(self._blocks) > self._cache_blocks:
                self._blocks.popitem(last=False)
        else:
            self._blocks.move_to_end(block)
        return lines[line - block * self.BLOCK]

    def _tokens_in_window(self, line: int, window: int) -> LineTokens:
        key = (line, window)
        tokens = self._window_tokens.get(key)
        if tokens is None:
            self._window_tokens.clear()  # one window is looked at at a time
            text = self.line_text(line)
            tokens = [(value, ttype) for ttype, value in self.lexer.get_tokens(text) if value and value != "\n"]
            # The lexer adds a final newline (ensurenl): drop it, keep the text's length exact.
            total = sum(len(value) for value, _ in tokens)
            if total != len(text):
                tokens = [(text, Token.Text)] if text else []  # unlexable: shown plain
            self._window_tokens[key] = tokens
        return tokens

    def _lex_block(self, block: int) -> list[LineTokens]:
        first = block * self.BLOCK
        last = min(self.source.line_count, first + self.BLOCK)
        start = self._safe_start(first)
        text = "\n".join(self.line_text(n) for n in range(start, last)) + "\n"
        lines: list[LineTokens] = [[]]
        for ttype, value in self.lexer.get_tokens(text):
            if "\n" not in value:
                if value:
                    lines[-1].append((value, ttype))
                continue
            parts = value.split("\n")
            for i, part in enumerate(parts):
                if i:
                    lines.append([])
                if part:
                    lines[-1].append((part, ttype))
        # The joined text ends with a newline, which opens one empty extra line.
        lines = lines[first - start : first - start + (last - first)]
        while len(lines) < last - first:
            lines.append([])
        return lines

    def _safe_start(self, line: int) -> int:
        """The line to start lexing at so that ``line`` is lexed in the right state."""
        if self.root is None or line == 0:
            return line
        offset = self.source.line_starts[line]
        node: Node | None = self.root.descendant_for_byte_range(offset, offset)
        outer = None
        while node is not None and node.start_byte < offset:
            if node.type.endswith(_TOKEN_KIND_ENDINGS):
                outer = node
            node = node.parent
        if outer is None:
            return line
        return max(self.source.line_of(outer.start_byte), line - self.MAX_LOOKBACK)
