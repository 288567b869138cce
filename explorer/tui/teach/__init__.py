"""Teach mode: the chunker's decisions played step by step (key ``t``)."""
