"""The open document: the file read, parsed and chunked (pure data), how it is loaded, and the worker service that loads it."""
