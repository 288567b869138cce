"""git's wildmatch, on bytes: the glob dialect of .gitignore files.

A port of the rules of git's ``wildmatch.c`` (not a translation to regular expressions):
``?`` is one byte, ``*`` any run of bytes, ``[...]`` a byte class with ranges, ``!``/``^``
negation, ``\\`` escapes and POSIX classes such as ``[:alpha:]`` (ASCII only, as in git).
With :data:`PATHNAME`, ``*``, ``?`` and classes never match ``/`` and ``**`` between slashes
spans directories. Names are matched as bytes, so ``?`` is one byte of a UTF-8 character,
and names that are not valid UTF-8 match like any other.

Speed: like git, a failed ``*`` reports how far the failure reaches (the whole match, or
up to the enclosing ``**``), so ``*a*a*a*a*a*a*a*a*a*a*a*a`` against a long run of ``a``
fails in time linear in the name instead of exponential. Backtracking uses an explicit
stack, so a pattern with thousands of stars cannot exhaust Python's recursion limit.
"""

from __future__ import annotations

#: Flags for :func:`wildmatch`.
PATHNAME = 1  # "/" is special: only "**" between slashes crosses it
CASEFOLD = 2  # ASCII letters match either case

_MATCH = 0
_NOMATCH = 1
_ABORT_ALL = -1  # no later position of any enclosing "*" can match either
_ABORT_TO_STARSTAR = -2  # only an enclosing "**" may still match by advancing

_NUL, _STAR, _QUESTION, _BRACKET, _BACKSLASH = 0, 0x2A, 0x3F, 0x5B, 0x5C
_SLASH, _CLOSE, _BANG, _CARET, _DASH, _COLON = 0x2F, 0x5D, 0x21, 0x5E, 0x2D, 0x3A
_GLOB_SPECIAL = frozenset(b"*?[\\")


def _ascii_set(test: object) -> frozenset[int]:
    return frozenset(c for c in range(128) if test(chr(c)))  # type: ignore[operator]


_LOWER = _ascii_set(str.islower)
_UPPER = _ascii_set(str.isupper)
_DIGIT = _ascii_set(lambda c: "0" <= c <= "9")
# git's own ctype table (sane-ctype.h): ASCII only; "space" is \t \n \r and space (not \v \f).
_CLASSES: dict[bytes, frozenset[int]] = {
    b"alnum": _LOWER | _UPPER | _DIGIT,
    b"alpha": _LOWER | _UPPER,
    b"blank": frozenset(b" \t"),
    b"cntrl": frozenset(range(32)) | {127},
    b"digit": _DIGIT,
    b"graph": frozenset(range(0x21, 0x7F)),
    b"lower": _LOWER,
    b"print": frozenset(range(0x20, 0x7F)),
    b"punct": frozenset(range(0x21, 0x7F)) - _LOWER - _UPPER - _DIGIT,
    b"space": frozenset(b"\t\n\r "),
    b"upper": _UPPER,
    b"xdigit": _DIGIT | frozenset(b"abcdefABCDEF"),
}


def is_glob_special(byte: int) -> bool:
    """``*``, ``?``, ``[`` and ``\\``: where the literal prefix of a pattern ends."""
    return byte in _GLOB_SPECIAL


def literal_prefix_length(pattern: bytes) -> int:
    """How many leading bytes of ``pattern`` are plain (git's ``simple_length``)."""
    for index, byte in enumerate(pattern):
        if byte in _GLOB_SPECIAL:
            return index
    return len(pattern)


def wildmatch(pattern: bytes, text: bytes, flags: int = 0) -> bool:
    """Whether ``text`` matches ``pattern`` under git's wildmatch rules."""
    fold = bool(flags & CASEFOLD)
    # A NUL ends both strings, as in C; neither can hold one (a NUL ends an ignore line
    # and cannot be in a file name). Case folding lowers every text byte up front, which
    # is what git does byte by byte.
    pat = pattern.split(b"\0", 1)[0] + b"\0"
    txt = (text.lower() if fold else text).split(b"\0", 1)[0] + b"\0"
    return _dowild(pat, txt, fold, bool(flags & PATHNAME)) == _MATCH


def match_prepared(pattern0: bytes, text0: bytes, fold: bool, pathname: bool) -> bool:
    """:func:`wildmatch` for callers that match one pattern many times: both strings
    already end in one NUL (and hold no other), ``text0`` already lower-cased if ``fold``."""
    return _dowild(pattern0, text0, fold, pathname) == _MATCH


def byte_sets(pattern: bytes, fold: bool = False) -> list[frozenset[int]] | None:
    """For a pattern of fixed length (plain bytes, escapes and classes only: no ``*`` or
    ``?``), the bytes each position accepts, judged by the matcher itself (``fold``: for a
    lower-cased text, as :func:`wildmatch` sees it); ``None`` for any other pattern."""
    pat = pattern + b"\0"
    sets: list[frozenset[int]] = []
    p = 0
    while pat[p] != _NUL:
        byte = pat[p]
        if byte in (_STAR, _QUESTION):
            return None
        if byte == _BRACKET:
            end = _class_end(pat, p)
            if end < 0:
                return None
            sets.append(frozenset(t for t in range(256) if _match_class(pat, p, t, fold, False)))
            p = end + 1
        elif byte == _BACKSLASH:
            if pat[p + 1] == _NUL:
                return None
            sets.append(frozenset((pat[p + 1],)))
            p += 2
        else:
            sets.append(frozenset((byte + 0x20 if fold and 0x41 <= byte <= 0x5A else byte,)))
            p += 1
    return sets


def literal_runs(pattern: bytes) -> list[bytes]:
    """The runs of plain bytes of a pattern (outside classes and escapes): each must
    appear in any text the pattern matches, except a ``/`` at either end of a run, which
    a ``**/`` may match without one."""
    runs: list[bytes] = []
    current = bytearray()
    i, n = 0, len(pattern)
    while i < n:
        byte = pattern[i]
        if byte in _GLOB_SPECIAL:
            runs.append(bytes(current).strip(b"/"))
            current.clear()
            if byte == _BRACKET:
                end = _class_end(pattern + b"\0", i)
                if end < 0:
                    break  # a malformed class: the pattern matches nothing anyway
                i = end + 1
            else:
                i += 2 if byte == _BACKSLASH else 1
            continue
        current.append(byte)
        i += 1
    runs.append(bytes(current).strip(b"/"))
    return [r for r in runs if r]


# A suspended "*": (kind, pattern index, text index, star may match "/").
# Kind _ZERO_DIRS waits on "**/" matching zero directories; _STAR_LOOP on the rest of
# the pattern from one text position.
_ZERO_DIRS, _STAR_LOOP = 0, 1
_Frame = tuple[int, int, int, bool]


def _dowild(pat: bytes, txt: bytes, fold: bool, pathname: bool) -> int:
    stack: list[_Frame] = []
    outcome = _run(pat, txt, 0, 0, fold, pathname)
    while True:
        if isinstance(outcome, int):
            if not stack:
                return outcome
            outcome = _resume(stack.pop(), outcome, pat, txt, fold)
            continue
        stack.append(outcome)
        kind, p, t, _ = outcome
        outcome = _run(pat, txt, p + 1 if kind == _ZERO_DIRS else p, t, fold, pathname)


def _resume(frame: _Frame, result: int, pat: bytes, txt: bytes, fold: bool) -> int | _Frame:
    """Continue a suspended ``*`` with the result of the match it was waiting on."""
    kind, p, t, match_slash = frame
    if kind == _ZERO_DIRS:
        if result == _MATCH:
            return _MATCH
        return _star_loop(pat, txt, p, t, True, fold)
    if result != _NOMATCH:
        if not match_slash or result != _ABORT_TO_STARSTAR:
            return result
    elif not match_slash and txt[t] == _SLASH:
        return _ABORT_TO_STARSTAR
    return _star_loop(pat, txt, p, t + 1, match_slash, fold)


def _star_loop(pat: bytes, txt: bytes, p: int, t: int, match_slash: bool, fold: bool) -> int | _Frame:
    """The next text position where the pattern after a ``*`` is worth trying."""
    if txt[t] == _NUL:
        return _ABORT_ALL
    literal = pat[p]
    if literal not in _GLOB_SPECIAL:
        # The bytes before the next literal must all belong to the "*": skip to it.
        if fold and 0x41 <= literal <= 0x5A:
            literal += 0x20
        end = len(txt) - 1
        found = txt.find(bytes((literal,)), t, end)
        if not match_slash:
            slash = txt.find(b"/", t, end if found < 0 else found)
            if slash >= 0 and literal != _SLASH:
                found = -1
        if found < 0:
            return _ABORT_ALL if match_slash else _ABORT_TO_STARSTAR
        t = found
    return (_STAR_LOOP, p, t, match_slash)


def _run(pat: bytes, txt: bytes, p: int, t: int, fold: bool, pathname: bool) -> int | _Frame:
    """Match from ``pat[p:]`` and ``txt[t:]`` until a result, or a ``*`` that must try
    several positions (returned as a frame for :func:`_dowild` to drive)."""
    while True:
        p_ch = pat[p]
        if p_ch == _NUL:
            return _NOMATCH if txt[t] != _NUL else _MATCH
        t_ch = txt[t]
        if t_ch == _NUL and p_ch != _STAR:
            return _ABORT_ALL
        if p_ch == _BACKSLASH:
            # The next byte is literal (and not case-folded, as in git); a trailing
            # backslash compares with the terminating NUL and so never matches.
            p += 1
            if t_ch != pat[p]:
                return _NOMATCH
        elif p_ch == _QUESTION:
            if pathname and t_ch == _SLASH:
                return _NOMATCH
        elif p_ch == _STAR:
            p += 1
            if pat[p] == _STAR:
                second = p
                while pat[p] == _STAR:
                    p += 1
                if not pathname:
                    match_slash = True
                elif (second < 2 or pat[second - 2] == _SLASH) and (
                    pat[p] in (_NUL, _SLASH) or (pat[p] == _BACKSLASH and pat[p + 1] == _SLASH)
                ):
                    if pat[p] == _SLASH:
                        # "**/" may match no directory at all: try that first.
                        return (_ZERO_DIRS, p, t, True)
                    match_slash = True
                else:
                    match_slash = False  # "**" inside a name is an ordinary "*"
            else:
                match_slash = not pathname
            if pat[p] == _NUL:
                # A trailing "**" matches everything, a trailing "*" all but a "/".
                if not match_slash and txt.find(b"/", t) >= 0:
                    return _ABORT_TO_STARSTAR
                return _MATCH
            if not match_slash and pat[p] == _SLASH:
                # "*/" matches the rest of this directory name.
                slash = txt.find(b"/", t)
                if slash < 0:
                    return _ABORT_ALL
                t = slash
            else:
                return _star_loop(pat, txt, p, t, match_slash, fold)
        elif p_ch == _BRACKET:
            outcome = _match_class(pat, p, t_ch, fold, pathname)
            if outcome < 0:
                return _ABORT_ALL
            if outcome == 0:
                return _NOMATCH
            p = outcome
        else:
            if fold and 0x41 <= p_ch <= 0x5A:
                p_ch += 0x20
            if t_ch != p_ch:
                return _NOMATCH
        p += 1
        t += 1


def _class_end(pat: bytes, p: int) -> int:
    """Where the bracket expression at ``pat[p] == '['`` ends (its ``]``), or -1 if it
    is malformed; the same walk through the class as :func:`_match_class`."""
    p += 1
    if pat[p] in (_BANG, _CARET):
        p += 1
    p_ch = pat[p]
    prev_ch = 0
    while True:
        if p_ch == _NUL:
            return -1
        if p_ch == _BACKSLASH:
            p += 1
            if pat[p] == _NUL:
                return -1
        elif p_ch == _DASH and prev_ch and pat[p + 1] not in (_NUL, _CLOSE):
            p += 1
            if pat[p] == _BACKSLASH:
                p += 1
                if pat[p] == _NUL:
                    return -1
            p_ch = 0
        elif p_ch == _BRACKET and pat[p + 1] == _COLON:
            start = p + 2
            p = start
            while pat[p] not in (_NUL, _CLOSE):
                p += 1
            if pat[p] == _NUL:
                return -1
            if p - start - 1 < 0 or pat[p - 1] != _COLON:
                p = start - 2
                p_ch = _BRACKET
            else:
                if pat[start:p - 1] not in _CLASSES:
                    return -1
                p_ch = 0
        prev_ch = p_ch
        p += 1
        p_ch = pat[p]
        if p_ch == _CLOSE:
            return p


def _match_class(pat: bytes, p: int, t_ch: int, fold: bool, pathname: bool) -> int:
    """A bracket expression at ``pat[p] == '['`` against one text byte: the index of its
    closing ``]`` if it matches, 0 if not, -1 if the class is malformed (unclosed, or an
    unknown ``[:name:]``), which makes the whole pattern fail as in git."""
    p += 1
    p_ch = pat[p]
    if p_ch == _CARET:
        p_ch = _BANG
    negated = p_ch == _BANG
    if negated:
        p += 1
        p_ch = pat[p]
    prev_ch = 0
    matched = False
    while True:
        if p_ch == _NUL:
            return -1
        if p_ch == _BACKSLASH:
            p += 1
            p_ch = pat[p]
            if p_ch == _NUL:
                return -1
            if t_ch == p_ch:
                matched = True
        elif p_ch == _DASH and prev_ch and pat[p + 1] not in (_NUL, _CLOSE):
            p += 1
            p_ch = pat[p]
            if p_ch == _BACKSLASH:
                p += 1
                p_ch = pat[p]
                if p_ch == _NUL:
                    return -1
            if prev_ch <= t_ch <= p_ch or fold and t_ch in _LOWER and prev_ch <= t_ch - 0x20 <= p_ch:
                matched = True
            p_ch = 0  # a "-" right after a range is literal
        elif p_ch == _BRACKET and pat[p + 1] == _COLON:
            start = p + 2
            p = start
            while pat[p] not in (_NUL, _CLOSE):
                p += 1
            p_ch = pat[p]
            if p_ch == _NUL:
                return -1
            if p - start - 1 < 0 or pat[p - 1] != _COLON:
                # No ":]": the "[" is an ordinary member.
                p = start - 2
                p_ch = _BRACKET
                if t_ch == p_ch:
                    matched = True
            else:
                members = _CLASSES.get(pat[start:p - 1])
                if members is None:
                    return -1
                if t_ch in members or (fold and pat[start:p - 1] == b"upper" and t_ch in _LOWER):
                    matched = True
                p_ch = 0
        elif t_ch == p_ch:
            matched = True
        prev_ch = p_ch
        p += 1
        p_ch = pat[p]
        if p_ch == _CLOSE:
            break
    if matched == negated or (pathname and t_ch == _SLASH):
        return 0
    return p
