"""A repository's history, read with git, as queries for the retrieval evaluation:
:mod:`.git` reads the log and file contents, :mod:`.mine` screens the commits and finds
the definitions each one changed (with the engine's rules and structure)."""

from .git import HistoryUnavailable, Repository, find_repository
from .mine import MinedHistory, mine_history

__all__ = ["HistoryUnavailable", "MinedHistory", "Repository", "find_repository", "mine_history"]
