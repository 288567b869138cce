"""Measuring chunkings: quality per file, the problems a user should fix, one file under many
settings, sweeps over a grid, and the analyzers batch workers run."""
