"""The tree holds the product: no work-log references, a bounded file count, a short README.

Git and CHANGELOG.md hold the history; a tracked file that names a numbered work session or an
issue number is a diary entry, and says how the code came to be instead of what it is. Every
tracked file is read (snapshots and data files too: they can carry such text as well); a file
that is not UTF-8 text is skipped.
"""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
HISTORY = re.compile(r"[Ss]ession [0-9]|session[0-9]|issue [0-9]")
MAX_TRACKED_FILES = 350
MAX_README_LINES = 200


def tracked_files() -> list[str]:
    try:
        out = subprocess.run(
            ["git", "ls-files", "-z"], cwd=ROOT, capture_output=True, check=True
        ).stdout
    except (OSError, subprocess.CalledProcessError) as e:
        pytest.skip(f"not a git checkout ({e}): the tree checks need `git ls-files`")
    return [p for p in out.decode().split("\0") if p and (ROOT / p).is_file()]


def test_no_tracked_file_refers_to_work_sessions_or_issue_numbers() -> None:
    found = []
    for path in tracked_files():
        try:
            text = (ROOT / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        if HISTORY.search(path):
            found.append(f"{path}: its path")
        for number, line in enumerate(text.splitlines(), 1):
            match = HISTORY.search(line)
            if match:
                found.append(f"{path}:{number}: {match.group(0)!r} in {line.strip()[:100]!r}")
    assert not found, (
        f"{len(found)} work-log references in tracked files (history belongs in git and "
        "CHANGELOG.md; say what is true now, or cite a docs/results.md heading):\n"
        + "\n".join(found)
    )


def test_the_tree_stays_small() -> None:
    files = tracked_files()
    assert len(files) <= MAX_TRACKED_FILES, (
        f"{len(files)} tracked files, more than {MAX_TRACKED_FILES}: run logs and one-off "
        "scripts do not belong in the tree"
    )


def test_the_readme_is_a_guide_not_a_manual() -> None:
    lines = (ROOT / "README.md").read_text().splitlines()
    assert len(lines) <= MAX_README_LINES, (
        f"README.md has {len(lines)} lines, more than {MAX_README_LINES}: move reference and "
        "how-to into docs/ and link them"
    )
