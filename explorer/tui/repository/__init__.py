"""The repository view: every file with its chunking problems, worst first."""
