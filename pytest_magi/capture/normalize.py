"""Normalise Inductor's generated code and FX graph printouts for stable snapshots.

Pure functions on text. What changes between two processes generating the *same*
code (measured by generating twice in fresh interpreters and diffing, see
``tests/test_normalize.py``) is replaced by a fixed placeholder:

* ``# kernel path: /tmp/torchinductor_<user>/<tmp>/xx/<hash>.py`` comments;
* ``'backend_hash': '<sha256>'`` in ``inductor_meta``;
* ``# AOT ID: ['0_inference']``: a process-wide compilation counter;
* temporary and cache paths (``/tmp/...``, ``torchinductor_<user>``, ``$TRITON_CACHE_DIR``);
* dynamic-size symbols (``s17``, ``s27``, ``ks0``, ``u3`` ...): renumbered per prefix
  in order of first appearance (``s17 -> s0``, ``s27 -> s1``; ``ks3 -> ks0``);
* memory addresses (``0x7f...``) and ``<object at 0x...>`` reprs.

Kernel names (``triton_poi_fused_add_0``) are left alone: they are stable within one
torch version and are what a reader looks for.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

#: Placeholders written in place of volatile text.
KERNEL_PATH = "<kernel-path>"
BACKEND_HASH = "<backend-hash>"
TEMP_PATH = "<tmp>"
ADDRESS = "0xADDR"

#: Prefixes of ShapeEnv/Inductor size symbols (``torch.utils._sympy.symbol.prefix_str``):
#: ``s`` backed sizes, ``u`` unbacked sizes, ``zf``/``zuf`` backed/unbacked floats,
#: ``ps`` precomputed sizes, ``ks`` the size arguments of a Triton kernel.
SYMBOL_PREFIXES: tuple[str, ...] = ("zuf", "zf", "ks", "ps", "s", "u")

_KERNEL_PATH_RE = re.compile(r"^(\s*# kernel path: ).*$", re.MULTILINE)
_BACKEND_HASH_RE = re.compile(r"(['\"]backend_hash['\"]:\s*)(['\"])[0-9A-Fa-f]{16,}\2")
_AOT_ID_RE = re.compile(r"^(# AOT ID: ).*$", re.MULTILINE)
_ADDRESS_RE = re.compile(r"\b0x[0-9a-fA-F]{6,}\b")
_TMP_PATH_RE = re.compile(
    r"(?:/(?:private/)?(?:var/folders|tmp|var/tmp)|[A-Za-z]:\\[^\s'\"]*?Temp)"
    r"(?:/[^\s'\":,)\]]*)?"
)
_INDUCTOR_DIR_RE = re.compile(r"torchinductor_[A-Za-z0-9_.\-]+")


def normalize_kernel_paths(text: str) -> str:
    """``# kernel path: /tmp/torchinductor_u/ab/cab....py`` -> ``# kernel path: <kernel-path>``."""
    return _KERNEL_PATH_RE.sub(lambda m: m.group(1) + KERNEL_PATH, text)


def normalize_backend_hash(text: str) -> str:
    """``'backend_hash': 'A79746...'`` -> ``'backend_hash': '<backend-hash>'``."""
    return _BACKEND_HASH_RE.sub(
        lambda m: f"{m.group(1)}{m.group(2)}{BACKEND_HASH}{m.group(2)}", text
    )


def normalize_aot_ids(text: str) -> str:
    """``# AOT ID: ['3_inference']`` -> ``# AOT ID: ['N_inference']`` (the counter is per process)."""

    def repl(match: re.Match[str]) -> str:
        ids = re.sub(r"'\d+_", "'N_", match.group(0)[len(match.group(1)) :])
        return match.group(1) + ids

    return _AOT_ID_RE.sub(repl, text)


def normalize_temp_paths(text: str) -> str:
    """Temporary and cache directories (``/tmp/...``, ``torchinductor_<user>``) -> ``<tmp>``."""
    text = _TMP_PATH_RE.sub(TEMP_PATH, text)
    return _INDUCTOR_DIR_RE.sub("torchinductor_<user>", text)


def normalize_addresses(text: str) -> str:
    """Memory addresses ``0x7f3a...`` -> ``0xADDR``."""
    return _ADDRESS_RE.sub(ADDRESS, text)


def _check_text(where: str, text: object) -> None:
    if not isinstance(text, str):
        hint = (
            "decode it first: text.decode()"
            if isinstance(text, bytes)
            else "pass the generated code as text, e.g. str(graph) or GeneratedCode.normalized()"
        )
        raise TypeError(
            f"{where}: text must be a str, got {text!r:.120} ({type(text).__name__}); fix: {hint}"
        )


def _symbol_re(prefixes: Iterable[str]) -> re.Pattern[str]:
    alternatives = "|".join(sorted(prefixes, key=len, reverse=True))
    # A whole word, not an attribute (``x.s0``); quoted is fine (``'ks0': 'i64'``).
    return re.compile(rf"(?<![\w.])({alternatives})(\d+)(?!\w)")


def renumber_symbols(text: str, prefixes: Iterable[str] = SYMBOL_PREFIXES) -> str:
    """Renumber size symbols per prefix in order of first appearance.

    ``s27*s17 + s27`` -> ``s0*s1 + s0``; ``ks4`` and ``s4`` are numbered independently.
    Idempotent: normalised text renumbers to itself.
    """
    _check_text("renumber_symbols", text)
    given = prefixes
    prefixes = () if isinstance(prefixes, str) else tuple(prefixes)
    if not prefixes or not all(isinstance(p, str) and p.isidentifier() for p in prefixes):
        raise TypeError(
            "renumber_symbols: prefixes must be a non-empty iterable of identifier prefixes "
            f"(not one str), got {given!r}; fix: renumber_symbols(text, prefixes=('s', 'ks'))"
        )
    pattern = _symbol_re(prefixes)
    mapping: dict[str, dict[str, int]] = {}

    def repl(match: re.Match[str]) -> str:
        prefix, number = match.group(1), match.group(2)
        table = mapping.setdefault(prefix, {})
        if number not in table:
            table[number] = len(table)
        return f"{prefix}{table[number]}"

    return pattern.sub(repl, text)


def normalize_code(text: str) -> str:
    """Everything above, in the order that keeps each step well-defined."""
    _check_text("normalize_code", text)
    text = normalize_kernel_paths(text)
    text = normalize_backend_hash(text)
    text = normalize_aot_ids(text)
    text = normalize_temp_paths(text)
    text = normalize_addresses(text)
    return renumber_symbols(text)


def normalize_fx_graph(text: str) -> str:
    """An FX graph printout (``str(graph)`` / ``gm.print_readable()``): symbols, addresses, paths."""
    _check_text("normalize_fx_graph", text)
    text = normalize_addresses(text)
    text = normalize_temp_paths(text)
    return renumber_symbols(text)
