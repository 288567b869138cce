"""Offline retrieval evaluation of chunking settings on the user's own code.

:func:`evaluate` chunks files under several settings, retrieves with queries made
from the code's docs (masked out of the code) or given in a JSONL file, and scores
with span relevance, bootstrap intervals and paired differences. See
:mod:`.evaluate` for the steps and :mod:`.results` for what they give back;
:mod:`.queries`, :mod:`.relevance`, :mod:`.statistics` for the definitions,
:mod:`.bm25` and :mod:`.embeddings` for the retrievers.
"""

from ..cancel import Cancelled
from .evaluate import Prepared, SettingRun, evaluate, evaluate_prepared, prepare, run_setting
from .masking import Edit, MaskedSource, mask
from .queries import Query, QueryFileError, QuerySpec, parse_query_lines
from .ranking import Ranking, Retriever
from .relevance import HEADLINE_METRICS, METRIC_NAMES, is_hit, score_query
from .results import (
    CHUNKING,
    RETRIEVING,
    SCORING,
    EvalConfig,
    EvalProgress,
    EvalResult,
    QueryOutcome,
    RetrievedChunk,
    SettingEval,
    SubsetComparison,
    compare_on,
    cut_by,
    strategy_pairs,
)
from .statistics import Bootstrap, Estimate

__all__ = [
    "CHUNKING", "RETRIEVING", "SCORING", "HEADLINE_METRICS", "METRIC_NAMES",
    "Bootstrap", "Cancelled", "Edit", "Estimate", "EvalConfig", "EvalProgress", "EvalResult", "MaskedSource",
    "Prepared", "Query", "QueryFileError", "QueryOutcome", "QuerySpec", "Ranking", "RetrievedChunk",
    "Retriever", "SettingEval", "SettingRun", "SubsetComparison", "compare_on", "cut_by", "evaluate", "evaluate_prepared",
    "is_hit", "mask", "parse_query_lines", "prepare", "run_setting", "score_query", "strategy_pairs",
]
