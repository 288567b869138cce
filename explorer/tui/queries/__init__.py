"""The queries view: the retrieval evaluation query by query, with the target and the top chunks in the source."""
