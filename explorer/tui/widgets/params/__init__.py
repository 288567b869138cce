"""The parameter form: the chunking options in force, edited in place."""
