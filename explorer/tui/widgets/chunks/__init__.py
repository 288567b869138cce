"""The chunks: the list of the open file's chunks, the selected one in full, and their stats."""
