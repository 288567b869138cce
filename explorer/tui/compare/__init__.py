"""The compare view: one file chunked two ways, side by side (key ``c``)."""
