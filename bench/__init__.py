"""Benchmarks: the engine, in-process actions and pages, a move's writes, and the
load benchmark (``python -m bench.load``) with the site it serves (``bench.site``)."""
