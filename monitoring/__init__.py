"""Watching the site run: health probes, Prometheus metrics, the operators' live page."""
