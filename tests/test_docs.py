"""The docs stay a reference, not a lab notebook: an operator reading a table of
figures reads figures, and dated runs and experiments go in closing notes."""

from __future__ import annotations

from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
#: A table cell longer than this is a paragraph in disguise.
LONGEST_CELL = 300


def test_no_table_cell_in_the_docs_is_a_paragraph() -> None:
    long_cells = [
        f"{path.relative_to(ROOT)}:{number}: {len(cell.strip())} characters"
        for path in sorted([ROOT / "README.md", *(ROOT / "docs").glob("*.md")])
        for number, line in enumerate(path.read_text().splitlines(), 1)
        if line.startswith("|")
        for cell in line.strip("|").split("|")
        if len(cell.strip()) > LONGEST_CELL
    ]
    assert not long_cells, long_cells
