"""The HTML report: one self-contained file a review can open anywhere (no request at
open time: styles, scripts and figures inlined).

By stage: :mod:`.files` chunks the files and finds their problems (and the second side of
the compare), :mod:`.content` holds what one report shows (built by ``report``, ``eval
--html`` and ``sweep --html`` alike), :mod:`.figures` draws the plots with matplotlib (SVG,
text kept as text), :mod:`.walkthrough` turns teach's trace into steps a page replays, and
:mod:`.render` is the one renderer (Jinja2, every value escaped). No Textual, no Rich: a
layer beside the CLI, below it.
"""
