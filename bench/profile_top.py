"""Where a profiled process spent its time: the top lines of a py-spy raw profile.

    py-spy record --format raw -o bench/results/profile.txt --pid <daphne> -d 30
    .venv/bin/python bench/profile_top.py bench/results/profile.txt [--lines 15]

Prints, like ``py-spy top``, the functions with the most samples of their own
(the frame on top of the stack) and the most samples in total (anywhere on the
stack, counted once per stack), as a share of the samples at work.  Line numbers are
dropped, so a function's lines add up.
"""

from __future__ import annotations

import argparse
import re
from collections import Counter
from pathlib import Path

LINE_NUMBER = re.compile(r":\d+\)$")


def frame_name(frame: str) -> str:
    """``render (django/template/base.py:1018)`` → ``render (django/template/base.py)``,
    with the site-packages prefix cut."""
    name = LINE_NUMBER.sub(")", frame.strip())
    return re.sub(r"\(.*?site-packages/", "(", name)


# Frames where a thread waits rather than works (py-spy's idle filter misses some of
# them on a busy machine): the thread pool's idle workers, the event loop's select.
WAITING = (
    "_worker (concurrent/futures/thread.py)",
    "EpollSelector.select (selectors.py)",
    "Condition.wait (threading.py)",
    "Event.wait (threading.py)",
)


def read(path: Path) -> tuple[Counter[str], Counter[str], int, int]:
    own: Counter[str] = Counter()
    total: Counter[str] = Counter()
    samples = waiting = 0
    for line in path.read_text().splitlines():
        stack, _, count = line.rpartition(" ")
        if not stack or not count.isdigit():
            continue
        n = int(count)
        frames = [frame_name(f) for f in stack.split(";") if f]
        # The first frame may be the thread ("thread (0x…)") or process name: not code.
        frames = [f for f in frames if not f.startswith(("thread ", "process "))]
        if not frames:
            continue
        if frames[-1] in WAITING:
            waiting += n
            continue
        samples += n
        own[frames[-1]] += n
        for name in set(frames):
            total[name] += n
    return own, total, samples, waiting


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("profile", type=Path)
    parser.add_argument("--lines", type=int, default=15)
    args = parser.parse_args()
    own, total, samples, waiting = read(args.profile)
    print(
        f"{samples} samples at work; {waiting} more left out, waiting "
        "(idle pool threads, the event loop's select, condition waits)"
    )
    for title, counter in (("own", own), ("total", total)):
        print(f"\n  %{title:<5} function")
        for name, n in counter.most_common(args.lines):
            print(f"  {100 * n / max(samples, 1):5.1f}  {name}")


if __name__ == "__main__":
    main()
