"""Fuzzy matching of file paths, as file finders do: the letters typed, in order, anywhere.

Pure functions, no Textual. A path scores more when the letters run together, start words
(after ``/ _ - .`` or a lower-to-upper case change), lie in the file name rather than
its folders, begin the file name, or appear as one piece; shorter paths win ties. Case is ignored.

    >>> [path for path, _, _ in rank("qpy", ["orm/query.py", "sql/quoting.py", "README"])]
    ['orm/query.py', 'sql/quoting.py']
"""

from __future__ import annotations

from collections.abc import Iterable

_WORD_STARTS = "/_-. "

#: Score of each matched letter, and bonuses.
LETTER, RUN, WORD_START, IN_NAME, WHOLE, NAME_START = 1.0, 3.0, 2.0, 1.0, 8.0, 4.0


def match(query: str, path: str) -> tuple[float, list[int]] | None:
    """``(score, positions of the matched letters)``, or None when ``path`` lacks a letter."""
    needle = query.lower().replace(" ", "")
    if not needle:
        return 0.0, []
    hay = path.lower()
    name_start = path.rfind("/") + 1
    at = hay.rfind(needle)
    if at >= 0:  # as one piece: the rightmost occurrence (the file name before the folders)
        positions = list(range(at, at + len(needle)))
        return _score(path, positions, name_start) + WHOLE, positions
    # Letters matched from the end, so the last ones land in the file name.
    positions = []
    k = len(hay)
    for letter in reversed(needle):
        k = hay.rfind(letter, 0, k)
        if k < 0:
            return None
        positions.append(k)
    positions.reverse()
    return _score(path, positions, name_start), positions


def _score(path: str, positions: list[int], name_start: int) -> float:
    score = 0.0
    previous = -2
    for k in positions:
        score += LETTER
        if k == previous + 1:
            score += RUN
        if k == 0 or path[k - 1] in _WORD_STARTS or (path[k - 1].islower() and path[k].isupper()):
            score += WORD_START
        if k >= name_start:
            score += IN_NAME
        previous = k
    if positions and positions[0] == name_start:  # the file name starts with what was typed
        score += NAME_START
    return score - len(path) / 1000  # shorter paths first among equals


def rank(query: str, paths: Iterable[str], limit: int | None = None) -> list[tuple[str, float, list[int]]]:
    """The paths that match, best first: ``(path, score, positions)``."""
    found = []
    for path in paths:
        hit = match(query, path)
        if hit is not None:
            found.append((path, hit[0], hit[1]))
    found.sort(key=lambda item: (-item[1], item[0]))
    return found if limit is None else found[:limit]
