"""Keeping Python's cyclic garbage collector off long-lived objects.

Every full collection walks every tracked object: the imported modules (some
40,000 objects) and, once a 50,000-line file is open, some 100,000 more (syntax
nodes, entities, chunks, caches). Such a collection froze the UI for 20 ms at
start-up and for 100 ms or more later, at a random moment (typically in the
middle of drawing a re-chunk). Objects that live until the app ends or the file
is replaced are moved out of the collector's sight with ``gc.freeze``: at
start-up, and once a file is loaded.

Not after every re-chunk: chunking leaves cyclic garbage (some 6,000 objects a
run, in the engine), which must be collected, not frozen; full collections then
walk only what changed since the file was loaded (about 40 ms instead of 110).
What a load leaves as garbage is frozen with the file (one file's worth) and
freed with it: when a file (or the app) is dropped, everything is handed back to
the collector (``gc.unfreeze``), and frozen again only at the end of a full
collection (a ``gc.callbacks`` hook), so that the dropped objects' cycles are
freed, not frozen.

The collector's state belongs to the process, so this is module state, in force
only while an app runs: the app calls :func:`install` when it loads and
:func:`uninstall` when it unmounts, which hands everything back and removes the
hook, so that a process embedding the app (a test run) keeps its collector as it
was. Pure Python, no Textual: the app calls these from its handlers (UI thread).
"""

from __future__ import annotations

import gc

#: Objects were handed back and no full collection has run since.
_released = False
#: A freeze is wanted as soon as a full collection has freed what was handed back.
_waiting = False
_frozen = False


def install() -> None:
    """Start managing the collector (the app has loaded)."""
    global _released, _waiting
    _released = _waiting = False
    if _after_collection not in gc.callbacks:
        gc.callbacks.append(_after_collection)


def uninstall() -> None:
    """Stop managing the collector (the app has ended): nothing stays frozen, no hook stays."""
    global _released, _waiting
    release()
    _released = _waiting = False
    while _after_collection in gc.callbacks:
        gc.callbacks.remove(_after_collection)


def keep() -> None:
    """Everything alive now lives long (the app's modules, a loaded file): freeze
    it now, or right after the next full collection if dropped objects wait for it."""
    global _waiting, _frozen
    if _after_collection not in gc.callbacks:
        return  # not installed: no app runs
    if _released:
        _waiting = True
        return
    gc.freeze()
    _frozen = True


def release() -> None:
    """Long-lived objects were dropped (a file replaced, the app ended): hand
    everything back to the collector so that their cycles get freed."""
    global _released, _waiting, _frozen
    if _frozen:
        gc.unfreeze()
        _frozen = False
    _released = True
    _waiting = False


def _after_collection(phase: str, info: dict) -> None:
    """At the end of a full collection only live objects are left: freeze them if wanted."""
    global _released, _waiting, _frozen
    if phase != "stop" or info.get("generation") != 2:
        return
    _released = False
    if _waiting:
        _waiting = False
        gc.freeze()
        _frozen = True

