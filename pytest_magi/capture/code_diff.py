"""A diff of two generated-code texts that says first what matters: which Triton kernels changed.

pytest cuts an assertion's explanation to 8 lines / 640 characters below ``-vv``; a line diff of
generated code spends that on the FX comments Inductor writes above each kernel (``# Source node
to ATen node mapping``, ``# Graph fragment``), which change with every node renamed. Here the
explanation starts with a one-line summary (kernels changed, added, removed; comment-only lines),
then each changed kernel's changed body lines with a line of context, then the wrapper's changed
code lines, and only then the comment-only changes and the whole line diff (shown with
``-vv``). Long lines (``triton_meta=...``) are cut to a window around their first difference.

Works on any text; :func:`code_diff_lines` is what
:class:`pytest_magi.snapshots.TritonCodeExtension` reports with.
"""

from __future__ import annotations

import difflib
import re
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field

_KERNEL_START_RE = re.compile(r"^\w+ = async_compile\.triton\(\s*'(?P<name>[^']+)',\s*'''\s*$")
_KERNEL_END_RE = re.compile(r"^''',")
#: the longest line shown as it is; longer ones are cut around their first difference
LINE_WIDTH = 110
#: lines of context around each changed run of lines
CONTEXT = 1


@dataclass
class CodeParts:
    """A generated-code text split into its Triton kernels (name -> body lines, in order;
    a name seen twice, e.g. in a forward and a backward graph, gets ``#2``) and the rest."""

    kernels: dict[str, list[str]] = field(default_factory=dict)
    wrapper: list[str] = field(default_factory=list)


def split_code(text: str) -> CodeParts:
    parts = CodeParts()
    current: list[str] | None = None
    for line in text.splitlines():
        if current is not None:
            if _KERNEL_END_RE.match(line):
                current = None
            else:
                current.append(line)
                continue
        match = _KERNEL_START_RE.match(line)
        if match is None:
            parts.wrapper.append(line)
            continue
        name, n = match["name"], 2
        while name in parts.kernels:
            name, n = f"{match['name']}#{n}", n + 1
        current = parts.kernels[name] = []
        parts.wrapper.append(f"<kernel {name}>")
    return parts


def _is_comment(line: str) -> bool:
    stripped = line.strip()
    return not stripped or stripped.startswith("#")


def _cut(line: str, at: int) -> str:
    if len(line) <= LINE_WIDTH:
        return line
    start = max(0, min(at - LINE_WIDTH // 3, len(line) - LINE_WIDTH))
    text = line[start : start + LINE_WIDTH]
    return ("..." if start else "") + text + ("..." if start + LINE_WIDTH < len(line) else "")


def _first_difference(a: str, b: str) -> int:
    for i, (x, y) in enumerate(zip(a, b, strict=False)):
        if x != y:
            return i
    return min(len(a), len(b))


@dataclass
class _Hunk:
    start: int  # line number (1-based) in the received text's part
    lines: list[str]
    comment_only: bool


def _hunks(old: Sequence[str], new: Sequence[str]) -> list[_Hunk]:
    found: list[_Hunk] = []
    matcher = difflib.SequenceMatcher(None, old, new, autojunk=False)
    for group in matcher.get_grouped_opcodes(CONTEXT):
        lines: list[str] = []
        changed: list[str] = []
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines.extend(f"  {line}" for line in old[i1:i2])
                continue
            gone, came = old[i1:i2], new[j1:j2]
            changed.extend(gone)
            changed.extend(came)
            for k, line in enumerate(gone):
                other = came[k] if k < len(came) else ""
                lines.append(f"- {_cut(line, _first_difference(line, other))}")
            for k, line in enumerate(came):
                other = gone[k] if k < len(gone) else ""
                lines.append(f"+ {_cut(line, _first_difference(line, other))}")
        lines = [_cut(line, 0) if not line.startswith(("- ", "+ ")) else line for line in lines]
        start = group[0][3] + 1
        found.append(_Hunk(start, lines, all(_is_comment(c) for c in changed)))
    return found


def _pair_renamed(
    removed: list[str], added: list[str], old: CodeParts, new: CodeParts
) -> list[tuple[str, str]]:
    """Removed and added kernels that are one kernel renamed (its fused ops changed): paired in
    order where their bodies are mostly alike."""
    pairs: list[tuple[str, str]] = []
    free = list(added)
    for name in removed:
        for other in free:
            if difflib.SequenceMatcher(None, old.kernels[name], new.kernels[other]).ratio() > 0.5:
                pairs.append((name, other))
                free.remove(other)
                break
    return pairs


def code_diff_lines(received: str, snapshot: str) -> list[str]:
    """The diff of ``received`` against ``snapshot``, most telling first (module docstring)."""
    old, new = split_code(snapshot), split_code(received)
    removed = [k for k in old.kernels if k not in new.kernels]
    added = [k for k in new.kernels if k not in old.kernels]
    renamed = _pair_renamed(removed, added, old, new)
    removed = [k for k in removed if k not in {a for a, _ in renamed}]
    added = [k for k in added if k not in {b for _, b in renamed}]
    compared = [(k, k) for k in new.kernels if k in old.kernels] + renamed
    kernel_hunks: list[tuple[str, str, list[_Hunk]]] = []
    comment_lines = 0
    for before, after in compared:
        hunks = _hunks(old.kernels[before], new.kernels[after])
        if hunks:
            kernel_hunks.append((before, after, hunks))
    wrapper = _hunks(_unnamed(old), _unnamed(new))
    for hunks in [h for _, _, h in kernel_hunks] + [wrapper]:
        comment_lines += sum(
            sum(1 for line in h.lines if line[:1] in "+-") for h in hunks if h.comment_only
        )
    code_changed = [(b, a, [h for h in hs if not h.comment_only]) for b, a, hs in kernel_hunks]
    code_changed = [(b, a, hs) for b, a, hs in code_changed if hs]
    summary = [
        f"{len(code_changed)} changed ({', '.join(_names(code_changed))})" if code_changed else "",
        f"{len(added)} added ({', '.join(added)})" if added else "",
        f"{len(removed)} removed ({', '.join(removed)})" if removed else "",
    ]
    head = "; ".join(s for s in summary if s) or "no kernel's code changed"
    wrapper_code = [h for h in wrapper if not h.comment_only]
    tail = []
    if wrapper_code:
        tail.append(f"wrapper code: {sum(len(h.lines) for h in wrapper_code)} lines")
    if comment_lines:
        tail.append(f"FX comments only: {comment_lines} lines, shown last")
    lines = [f"triton kernels: {head}" + (f" ({'; '.join(tail)})" if tail else "")]
    for before, after, hunks in code_changed:
        title = after if before == after else f"{before} -> {after}"
        for h in hunks:
            lines.append(f"{title}, body line {h.start}:")
            lines.extend(h.lines)
    for h in wrapper_code:
        lines.append(f"wrapper, line {h.start}:")
        lines.extend(h.lines)
    for name in added:
        lines.append(f"added {name}: {len(new.kernels[name])} lines")
    for name in removed:
        lines.append(f"removed {name}")
    comments = [(b, a, [h for h in hs if h.comment_only]) for b, a, hs in kernel_hunks]
    comments.append(("wrapper", "wrapper", [h for h in wrapper if h.comment_only]))
    for _, after, hunks in comments:
        for h in hunks:
            lines.append(f"{after}, line {h.start} (comments):")
            lines.extend(h.lines)
    return lines


def _unnamed(parts: CodeParts) -> list[str]:
    # the kernels' placeholders match whatever their names: a renamed kernel is not a change of
    # the wrapper's, and its launches' names show where they differ
    return [("<kernel>" if line.startswith("<kernel ") else line) for line in parts.wrapper]


def _names(changed: Iterable[tuple[str, str, list[_Hunk]]]) -> list[str]:
    return [a if b == a else f"{b} -> {a}" for b, a, _ in changed]


def code_summary(text: str) -> str:
    """``N kernels, M lines``: what a generated-code text holds, in a few words."""
    parts = split_code(text)
    n = len(parts.kernels)
    return f"{n} kernel{'' if n == 1 else 's'}, {len(text.splitlines())} lines"
