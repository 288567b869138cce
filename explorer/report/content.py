"""What one report shows: the parts a run produced, and the record of how (settings, tool
version, date, command). ``report`` fills every part; ``eval --html`` and ``sweep --html``
fill the parts of their run; ``report --teach`` the walkthrough alone."""

from __future__ import annotations

import datetime
import shlex
import sys
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..engine.measure.sweep import SweepResult
from ..engine.options import ChunkOptions
from ..engine.retrieval import EvalResult
from ..engine.retrieval.pareto import ParetoFront
from ..engine.retrieval.recommend import Recommendation, SourceAdvice
from ..version import tool_version
from .files import FilesPart
from .walkthrough import Walkthrough


@dataclass(frozen=True, slots=True)
class EvaluationPart:
    """An evaluation with its trade-off and its advice, as eval (or sweep --retrieval) ends."""

    result: EvalResult
    front: ParetoFront
    recommendation: Recommendation | None = None
    advice: Sequence[SourceAdvice] = ()
    warning: str | None = None
    current: int | None = None


@dataclass(slots=True)
class ReportContent:
    title: str
    root: str
    options: ChunkOptions
    settings_file: str | None = None
    files: FilesPart | None = None
    sweep: SweepResult | None = None
    #: The grid's setting that is the settings in effect (``*`` in the sweep's table), or None.
    sweep_current: int | None = None
    evaluation: EvaluationPart | None = None
    walkthrough: Walkthrough | None = None
    command: str = field(default_factory=lambda: shlex.join(["chunk-explorer", *sys.argv[1:]]))
    version: str = field(default_factory=tool_version)
    created: str = field(default_factory=lambda: datetime.datetime.now().astimezone().isoformat(timespec="seconds"))
