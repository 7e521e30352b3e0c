"""The figures as text: one step's report, a ramp's lines, the medians of repeats."""

from __future__ import annotations

import argparse
import json
import statistics
from typing import Any

RAMP_HEADER = (
    "tables players  moves/s (target)    p50     p90     p99     max   echo p50/p99"
    "  errors lost  CPU%   RSS MB  client CPU%  server waiting%  load"
)

#: The figures ``--repeat`` gives the median of (paths into a step's result).
MEDIAN_FIGURES = (
    ("moves_per_s",),
    ("target_per_s",),
    ("latency_ms", "p50"),
    ("latency_ms", "p90"),
    ("latency_ms", "p99"),
    ("latency_ms", "max"),
    ("echo_ms", "p50"),
    ("echo_ms", "p99"),
    ("errors",),
    ("lost_updates",),
    ("server_cpu_pct",),
    ("server_rss_mb",),
    ("client_cpu_pct",),
    ("frame_bytes", "p50"),
    ("frame_bytes", "max"),
    ("server_waiting_for_cpu_pct",),
    ("machine_load",),
)


def ms(value: float | None) -> str:
    if value is None:
        return "-"
    return f"{value:.1f} ms" if value < 10 else f"{value:.0f} ms"


def pages_text(pages: dict[str, float]) -> str:
    """Each page's median, and its ratio to the bare view's."""
    bare = pages.get("bare")
    return " · ".join(
        f"{name} {ms(value)}" + (f" ({value / bare:.1f}x)" if bare and name != "bare" else "")
        for name, value in pages.items()
    )


def report(result: dict[str, Any], args: argparse.Namespace) -> str:
    lat, echo, fb = result["latency_ms"], result["echo_ms"], result["frame_bytes"]
    kinds = ", ".join(f"{k} {v}" for k, v in result["error_kinds"].items() if v) or "none"
    lines = [
        f"tables            {result['tables_playing']} playing of {result['tables']} "
        f"({result['players']} players), a move per table every {args.interval:g} s, "
        f"window {result['window_s']:g} s",
        f"moves/s           {result['moves_per_s']:.1f} achieved / "
        f"{result['target_per_s']:.1f} target  (moves {result['actions']['move']}, "
        f"next-hand {result['actions']['next']}, joins {result['actions']['join']}, "
        f"starts {result['actions']['start']}, rematches {result['rematches']})",
        f"move→update       p50 {ms(lat['p50'])}  p90 {ms(lat['p90'])}  p99 {ms(lat['p99'])}  "
        f"max {ms(lat['max'])}  ({lat['n']} viewer updates)",
        f"echo round trip   p50 {ms(echo['p50'])}  p90 {ms(echo['p90'])}  p99 {ms(echo['p99'])}  "
        f"max {ms(echo['max'])}  ({echo['n']} on {result['echo_sockets']} sockets)",
        f"overhead          x{result['ratio_p50']} at p50, x{result['ratio_p99']} at p99 "
        "(move→update / echo)",
        f"errors            {result['errors']} ({kinds}); stale races {result['stale']}",
        f"lost updates      {result['lost_updates']}",
        f"frames            p50 {(fb['p50'] or 0) / 1024:.1f} KB  "
        f"max {(fb['max'] or 0) / 1024:.1f} KB"
        f"  ({fb['n']} frames, {fb['per_s'] / 1e6:.2f} MB/s)",
        f"server            CPU {result['server_cpu_pct']}% of a core "
        f"({result.get('server_kernel_cpu_pct')}% in the kernel), "
        f"RSS {result['server_rss_mb']} MB (peak {result['server_peak_rss_mb']} MB)",
        f"machine           load {result.get('machine_load')}; the server's threads waited "
        f"for a CPU {result.get('server_waiting_for_cpu_pct')}% of the window",
        collections_line(result.get("collections")),
        f"players process   CPU {result['client_cpu_pct']}% of a core, "
        f"loop lag p99 {ms(result['client_loop_lag_ms']['p99'])}",
        f"pages (median)    {pages_text(result['pages_median_ms']) or '-'}",
    ]
    engine = result.get("engine_children_cpu_pct")
    lag = result.get("server_loop_lag_ms")
    if lag or engine is not None:
        lines.insert(
            9,
            f"server loop       lag p50 {ms(lag['p50']) if lag else '-'}  p99 "
            f"{ms(lag['p99']) if lag else '-'}  max {ms(lag['max']) if lag else '-'}"
            f"; the engine's child processes CPU {'-' if engine is None else engine}% "
            "of a core",
        )
    if result.get("busy_duels"):
        lines.insert(
            10,
            f"busy duels        {result['busy_duels']} guests against the computer "
            f"({args.busy_level}), the guests' moves {result['busy_guest_moves_per_s']}/s "
            "(not in the figures above)",
        )
    if "server_split" in result:
        lines[9:9] = scaled_lines(result)
    for sample in result["error_samples"]:
        lines.append(f"  error: {sample}")
    if (result["client_cpu_pct"] or 0) > 85:
        lines.append("  warning: the players' process was near a full core: figures include it")
    return "\n".join(lines)


def scaled_lines(result: dict[str, Any]) -> list[str]:
    """--scaled: each process's share, and the updates that crossed between them."""
    split = " · ".join(
        f"{name} {v['cpu_pct']}% {v['rss_mb']} MB"
        + (f" ({v['seats']} seats)" if v["seats"] is not None else "")
        for name, v in result["server_split"].items()
    )
    refused = result["pg_connections_unknown"]
    return [
        f"per process       {split}",
        f"across processes  {result['crossed_updates']} of {result['latency_ms']['n']} viewer "
        f"updates went from one process to another ({result['server_processes']} daphne + "
        f"worker, Redis); PostgreSQL connections peak {result['pg_connections_peak']}"
        + (f" ({refused} samples refused)" if refused else ""),
    ]


def collections_line(logged: dict[str, Any] | None) -> str:
    if logged is None:
        return "collections       - (the servers' output is not read: --url)"
    return (
        f"collections       {logged['n']} held the server {logged['at_least_ms']} ms or more "
        f"({logged['full']} full), longest {ms(logged['max_ms'])}, "
        f"{logged['total_ms'] / 1000:.1f} s in all"
    )


def ramp_line(r: dict[str, Any]) -> str:
    lat, echo = r["latency_ms"], r["echo_ms"]
    return (
        f"{r['tables_playing']:>6} {r['players']:>7}  "
        f"{r['moves_per_s']:>7.1f} ({r['target_per_s']:>5.1f})"
        f" {ms(lat['p50']):>7} {ms(lat['p90']):>7} {ms(lat['p99']):>7} {ms(lat['max']):>7}"
        f"   {ms(echo['p50'])}/{ms(echo['p99'])}"
        f"  {r['errors']:>6} {r['lost_updates']:>4}  {r['server_cpu_pct'] or 0:>5.1f}"
        f"  {r['server_rss_mb'] or 0:>7.1f}  {r['client_cpu_pct'] or 0:>11.1f}"
        f"  {r.get('server_waiting_for_cpu_pct') or 0:>15.1f}  {r.get('machine_load') or 0:>4.1f}"
    )


def median_of(results: list[dict[str, Any]]) -> dict[str, Any]:
    """A result whose figures are the medians of ``results`` (the same table count)."""
    out: dict[str, Any] = json.loads(json.dumps(results[0]))
    for path in MEDIAN_FIGURES:
        values = []
        for r in results:
            value: Any = r
            for key in path:
                value = value.get(key) if isinstance(value, dict) else None
            if isinstance(value, (int, float)):
                values.append(value)
        target = out
        for key in path[:-1]:
            target = target.setdefault(key, {})
        target[path[-1]] = statistics.median(values) if values else None
    pages: dict[str, list[float]] = {}
    for r in results:
        for name, value in r["pages_median_ms"].items():
            pages.setdefault(name, []).append(value)
    out["pages_median_ms"] = {k: statistics.median(v) for k, v in pages.items()}
    return out


def medians_text(runs: list[dict[str, Any]]) -> str:
    """``--repeat``: each run's line, then their medians."""
    lines = [f"\n{len(runs)} runs, and their medians:\n{RAMP_HEADER}"]
    lines += [ramp_line(step) for outcome in runs for step in outcome["steps"]]
    done = [o["steps"][0] for o in runs if o["steps"]]
    if done:
        median = median_of(done)
        lines.append(ramp_line(median) + "  ← median")
        lines.append("pages (median)  " + pages_text(median["pages_median_ms"]))
    return "\n".join(lines)
