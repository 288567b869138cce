"""Export: the open file or the whole tree as JSON (the schema of `chunk-explorer chunk`), from the explorer."""
