"""Measured decisions on disk: the `Decision` record, the per-key `DecisionCache`, and decision
files, so that a team pays for each measurement once.

A decision file is one JSON bundle of every decision in a cache folder (`export_decisions`).
Another machine imports it into its cache (`import_decisions`) or names it in
`$MAGI_DECISIONS_FILE`, where `DecisionCache.load` looks up a key that its folder lacks. Bundles
and their entries are checked as strictly as cache files. A bundle exported with another torch
version is stale (its keys cannot match), and it is reported and ignored, as a bad one is.

An artifacts file (`save_artifacts`) holds what the compiles of one process wrote to torch's
caches (torch.compile's portable cache artifacts: Inductor's compiled graphs, AOTAutograd's,
Triton's kernels, the autotuning picks), so that the kept variants compile from warm caches
elsewhere; `$MAGI_ARTIFACTS_FILE` loads one when a magi backend is made (`load_artifacts`).
"""

from __future__ import annotations

import contextlib
import dataclasses
import datetime
import functools
import hashlib
import json
import os
import re
import tempfile
import warnings
from collections.abc import Iterator, Mapping
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any

import torch

CACHE_ENV = "MAGI_DECISION_CACHE_DIR"
CACHE_SUBDIR = "magi_decisions"
SCHEMA = 1
DEFAULT_MARGIN = 0.02
CHOICES = ("magi", "plain")
SOURCES = ("measured", "cached", "static", "shared")
FILES_ENV = "MAGI_DECISIONS_FILE"
FILE_SCHEMA = "magi-decisions/1"
FILE_FIELDS = ("schema", "created", "torch", "devices", "decisions")
_KEY = re.compile(r"[0-9a-f]{64}")
_EXPORT_HINT = "python -m magi_passes.decisions export FILE"


class DecisionCacheWarning(UserWarning):
    """A decision cache file or decision file could not be read or written; the graphs it
    would have decided are measured again."""


@dataclass(frozen=True)
class Decision:
    """Which variant of one graph was compiled, and why.

    `choice`: "magi" (the passes as their static rules decide) or "plain" (the measured passes
    off). `source`: "measured" (timed now), "cached" (timed by an earlier compile), "shared"
    (decided by a graph of the same structure timed at other shapes, never stored) or "static"
    (not measured: `reason` says why). `recorded_in`: the decision file it was read from.
    """

    choice: str
    source: str
    reason: str
    magi_ms: float | None = None
    plain_ms: float | None = None
    margin: float = DEFAULT_MARGIN
    rounds: int = 0
    key: str | None = None
    passes: tuple[str, ...] = ()  # the measured passes that changed the graph
    recorded_in: str = ""

    def __post_init__(self) -> None:
        if self.choice not in CHOICES:
            raise ValueError(f"Decision.choice must be one of {CHOICES}, got {self.choice!r}")
        if self.source not in SOURCES:
            raise ValueError(f"Decision.source must be one of {SOURCES}, got {self.source!r}")

    @property
    def in_play(self) -> bool:
        """Whether a measured pass was in play: measured or read from the cache, a static
        decision on a graph a measured pass changed, or a recorded decision to keep plain
        Inductor (`PassConfig.decided_plain_on`); otherwise there is nothing to report."""
        return self.source != "static" or bool(self.passes) or self.choice == "plain"

    def describe(self) -> str:
        """`measured: plain 1.31 ms vs magi 1.52 ms (margin 2%), kept plain`, or the static why."""
        if self.magi_ms is None or self.plain_ms is None:
            return f"{self.source}: {self.reason}"
        text = (
            f"{self.source}: plain {self.plain_ms:.3f} ms vs magi {self.magi_ms:.3f} ms "
            f"(margin {self.margin:.0%}), kept {self.choice}"
        )
        if not self.reason.startswith("timed "):  # the graph's variants were not what was timed
            text = f"{text} ({self.reason})"
        return f"{text}, recorded in {self.recorded_in}" if self.recorded_in else text

    def to_dict(self) -> dict[str, Any]:
        data = asdict(self)
        data["passes"] = list(self.passes)
        if not self.recorded_in:
            del data["recorded_in"]
        return data

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Decision:
        names = set(cls.__dataclass_fields__)
        unknown = set(data) - names
        if unknown:
            raise ValueError(f"unknown decision fields {sorted(unknown)}")
        values = dict(data)
        values["passes"] = tuple(values.get("passes", ()))
        for name in ("magi_ms", "plain_ms"):
            value = values.get(name)
            if value is not None and not (isinstance(value, (int, float)) and value > 0):
                raise ValueError(f"{name} must be a positive number or null, got {value!r}")
        return cls(**values)


def checked_decision(key: str, data: object) -> Decision:
    """The timed decision `data` holds for `key`; ValueError says what is wrong with it."""
    if not isinstance(data, dict):
        raise ValueError(f"expected an object (Decision.to_dict()), got {type(data).__name__}")
    passes = data.get("passes", [])
    if not isinstance(passes, list) or not all(isinstance(p, str) for p in passes):
        raise ValueError(f"passes must be a list of pass names, got {passes!r}")
    try:
        decision = Decision.from_dict(data)
    except TypeError as exc:  # a required field missing
        raise ValueError(str(exc)) from exc
    if decision.key != key:
        raise ValueError(f"it holds the decision of key {decision.key!r}")
    if decision.magi_ms is None or decision.plain_ms is None:
        raise ValueError("it holds no timings")
    return decision


# --------------------------------------------------------------------------- the cache
def default_cache_dir() -> Path:
    """`$MAGI_DECISION_CACHE_DIR`, else `magi_decisions/` in Inductor's cache folder."""
    chosen = os.environ.get(CACHE_ENV)
    if chosen:
        return Path(chosen)
    from torch._inductor.runtime.cache_dir_utils import cache_dir

    return Path(cache_dir()) / CACHE_SUBDIR


def _write_atomically(path: Path, text: str | bytes) -> None:
    """Write `text` to `path` so that a reader never sees half a file (OSError if it fails)."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(dir=path.parent, prefix=".tmp-", suffix=".json")
    try:
        with os.fdopen(fd, "wb" if isinstance(text, bytes) else "w") as f:
            f.write(text)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class DecisionCache:
    """Decisions on disk, one JSON file per key. `directory=None`: `default_cache_dir()`, read
    at each use (so a changed `TORCHINDUCTOR_CACHE_DIR` or `MAGI_DECISION_CACHE_DIR` counts).
    A key without a file is looked up in the decision files of `$MAGI_DECISIONS_FILE`."""

    def __init__(self, directory: str | os.PathLike[str] | None = None) -> None:
        if directory is not None and not isinstance(directory, (str, os.PathLike)):
            raise TypeError(
                f"DecisionCache: directory must be a path or None, got {directory!r}; fix: "
                f"DecisionCache('/tmp/magi-decisions') or DecisionCache() for the default"
            )
        self._directory = Path(directory) if directory is not None else None

    @property
    def directory(self) -> Path:
        return self._directory if self._directory is not None else default_cache_dir()

    def path(self, key: str) -> Path:
        if not _KEY.fullmatch(key):
            raise ValueError(f"DecisionCache: a key is a sha256 hex digest, got {key!r}")
        return self.directory / f"{key}.json"

    def read(self, key: str) -> Decision:
        """The decision in the folder's file for `key`: OSError if it cannot be read
        (FileNotFoundError: there is none), ValueError if it is not a valid decision."""
        data = json.loads(self.path(key).read_text())
        if not isinstance(data, dict) or data.get("schema") != SCHEMA:
            raise ValueError(f"not a schema-{SCHEMA} decision")
        if "decision" not in data:
            raise ValueError("it holds no 'decision'")
        return checked_decision(key, data["decision"])

    def load(self, key: str) -> Decision | None:
        """The stored decision, or the one a decision file of `$MAGI_DECISIONS_FILE` records,
        or None: missing, or unreadable (warned, then measured again)."""
        try:
            return self.read(key)
        except FileNotFoundError:
            return recorded_decision(key)
        except OSError as exc:
            self._warn(self.path(key), f"cannot be read ({exc})")
        except ValueError as exc:  # json's errors among them
            self._warn(self.path(key), f"is not a valid decision ({exc})")
        return None

    def keys(self) -> list[str]:
        """The keys that have a file in the folder, sorted ([] where there is no folder)."""
        try:
            names = [p.stem for p in self.directory.glob("*.json")]
        except OSError:
            return []
        return sorted(n for n in names if _KEY.fullmatch(n))

    def store(self, decision: Decision) -> Path | None:
        """Write `decision` (atomically: a reader never sees half a file). None if it failed."""
        if decision.key is None:
            raise ValueError("DecisionCache.store: the decision has no key")
        path = self.path(decision.key)
        payload = json.dumps({"schema": SCHEMA, "decision": decision.to_dict()}, indent=1)
        try:
            _write_atomically(path, payload)
        except OSError as exc:
            warnings.warn(
                DecisionCacheWarning(
                    f"magi decision cache: could not write {path} ({exc}); the decision holds "
                    f"for this process only. Fix: make {path.parent} writable or set "
                    f"{CACHE_ENV} to a writable folder"
                ),
                stacklevel=2,
            )
            return None
        return path

    @staticmethod
    def _warn(path: Path, problem: str) -> None:
        warnings.warn(
            DecisionCacheWarning(
                f"magi decision cache: {path} {problem}; measuring again and rewriting it"
            ),
            stacklevel=3,
        )

    def __repr__(self) -> str:
        return f"DecisionCache({str(self.directory)!r})"


@contextlib.contextmanager
def decision_cache_dir(directory: str | os.PathLike[str]) -> Iterator[Path]:
    """Within the block, the default `DecisionCache` uses `directory` (the variable restored)."""
    old = os.environ.get(CACHE_ENV)
    os.environ[CACHE_ENV] = str(directory)
    try:
        yield Path(directory)
    finally:
        if old is None:
            os.environ.pop(CACHE_ENV, None)
        else:
            os.environ[CACHE_ENV] = old


# --------------------------------------------------------------------------- decision files
class DecisionFileError(ValueError):
    """A decision file that cannot be used at all: unreadable, not JSON, or not a bundle."""


@dataclass(frozen=True)
class DecisionFile:
    """One bundle of decisions: where it lies, when and with which torch and GPUs it was
    exported, its valid entries by key (sorted), and why any other entry was left out."""

    path: Path
    created: str
    torch: str
    devices: tuple[str, ...]
    decisions: Mapping[str, Decision]
    skipped: tuple[str, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {
            "schema": FILE_SCHEMA,
            "created": self.created,
            "torch": self.torch,
            "devices": list(self.devices),
            "decisions": {k: self.decisions[k].to_dict() for k in sorted(self.decisions)},
        }

    def stale(self) -> str | None:
        """Why its decisions cannot match this process's keys (another torch), or None."""
        if self.torch == str(torch.__version__):
            return None
        return (
            f"it was exported with torch {self.torch!r} and this process runs torch "
            f"{str(torch.__version__)!r}, so none of its decisions can match a key here; fix: "
            f"re-export it from a measured run on torch {str(torch.__version__)!r} "
            f"({_EXPORT_HINT})"
        )


@dataclass(frozen=True)
class ImportResult:
    """What `import_decisions` wrote: how many entries, how many it left out, and why
    (`refused`: the file as a whole was, as stale or unusable)."""

    path: Path
    imported: int
    skipped: int
    reasons: tuple[str, ...] = ()
    refused: bool = False


def _cuda_devices() -> tuple[str, ...]:
    if not torch.cuda.is_available():
        return ()
    return tuple(str(torch.cuda.get_device_name(i)) for i in range(torch.cuda.device_count()))


def _warn(message: str) -> None:
    warnings.warn(DecisionCacheWarning(message), stacklevel=3)


def read_decision_file(path: str | os.PathLike[str]) -> DecisionFile:
    """The bundle at `path`, its bad entries left out and named in `skipped`.
    DecisionFileError where the file as a whole is unusable (FileNotFoundError: no file)."""
    path = Path(path)
    try:
        text = path.read_text()
    except FileNotFoundError:
        raise
    except OSError as exc:
        raise DecisionFileError(f"magi decision file {path} cannot be read ({exc})") from exc
    try:
        data = json.loads(text)
    except ValueError as exc:
        raise DecisionFileError(
            f"magi decision file {path} is not JSON ({exc}); expected a bundle written by "
            f"{_EXPORT_HINT}"
        ) from exc
    problem = _bundle_problem(data)
    if problem is not None:
        raise DecisionFileError(
            f"magi decision file {path} is not a {FILE_SCHEMA!r} bundle: {problem}; fix: "
            f"re-export it ({_EXPORT_HINT})"
        )
    decisions: dict[str, Decision] = {}
    skipped: list[str] = []
    for key, entry in sorted(data["decisions"].items()):
        try:
            if not _KEY.fullmatch(key):
                raise ValueError("the key is not a sha256 hex digest (64 lowercase hex digits)")
            decisions[key] = checked_decision(key, entry)
        except ValueError as exc:
            skipped.append(f"magi decision file {path}: entry {key!r} skipped: {exc}")
    return DecisionFile(
        path, data["created"], data["torch"], tuple(data["devices"]), decisions, tuple(skipped)
    )


def _bundle_problem(data: object) -> str | None:
    if not isinstance(data, dict):
        return f"expected a JSON object, got {type(data).__name__}"
    if data.get("schema") != FILE_SCHEMA:
        return f"schema {data.get('schema')!r}, expected {FILE_SCHEMA!r}"
    unknown = sorted(set(data) - set(FILE_FIELDS))
    missing = [f for f in FILE_FIELDS if f not in data]
    if unknown or missing:
        return f"unknown fields {unknown}, missing fields {missing}"
    for name, kind in (("created", str), ("torch", str), ("devices", list), ("decisions", dict)):
        if not isinstance(data[name], kind):
            return f"{name} must be a {kind.__name__}, got {data[name]!r}"
    if not all(isinstance(d, str) for d in data["devices"]):
        return f"devices must be a list of GPU names, got {data['devices']!r}"
    return None


def export_decisions(
    path: str | os.PathLike[str], cache: DecisionCache | None = None
) -> DecisionFile:
    """Write every valid decision of `cache`'s folder to the decision file `path` (sorted by
    key, atomically). Unreadable cache files are left out with a `DecisionCacheWarning`.
    FileNotFoundError where the folder does not exist."""
    cache = cache if cache is not None else DecisionCache()
    folder = cache.directory
    if not folder.is_dir():
        raise FileNotFoundError(
            f"no decision cache folder at {str(folder)!r}; fix: run the measured GPU compiles "
            f"first, or name the folder they used (--cache-dir, or {CACHE_ENV})"
        )
    decisions: dict[str, Decision] = {}
    skipped: list[str] = []
    for key in cache.keys():
        try:
            decisions[key] = cache.read(key)
        except (OSError, ValueError) as exc:
            skipped.append(f"magi decision cache: {cache.path(key)} left out of {path}: {exc}")
            _warn(skipped[-1])
    now = datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds")
    bundle = DecisionFile(
        Path(path), now, str(torch.__version__), _cuda_devices(), decisions, tuple(skipped)
    )
    _write_atomically(Path(path), json.dumps(bundle.to_json(), indent=1) + "\n")
    return bundle


def import_decisions(
    path: str | os.PathLike[str], cache: DecisionCache | None = None
) -> ImportResult:
    """Write the decision file's valid entries into `cache`'s folder (`DecisionCache.store`,
    replacing a decision the folder holds for the same key). A stale or unusable file imports
    nothing; a bad entry is left out. Each problem is a `DecisionCacheWarning`, and every
    reason is in the result. FileNotFoundError where there is no file."""
    cache = cache if cache is not None else DecisionCache()
    try:
        bundle = read_decision_file(path)
    except DecisionFileError as exc:
        _warn(f"{exc}; nothing imported")
        return ImportResult(Path(path), 0, 0, (str(exc),), refused=True)
    stale = bundle.stale()
    if stale is not None:
        reason = f"magi decision file {bundle.path}: {stale}; nothing imported"
        _warn(reason)
        skipped = len(bundle.decisions) + len(bundle.skipped)
        return ImportResult(bundle.path, 0, skipped, (reason,), refused=True)
    reasons = list(bundle.skipped)
    for reason in bundle.skipped:
        _warn(reason)
    imported = 0
    for decision in bundle.decisions.values():
        if cache.store(decision) is None:
            reasons.append(f"magi decision cache: could not write {decision.key!r}")
        else:
            imported += 1
    return ImportResult(bundle.path, imported, len(reasons), tuple(reasons))


# --------------------------------------------------------------------------- $MAGI_DECISIONS_FILE
def decision_file_paths() -> list[Path]:
    """The decision files named in `$MAGI_DECISIONS_FILE` (several: separated by os.pathsep)."""
    return _env_paths(FILES_ENV)


def _env_paths(variable: str) -> list[Path]:
    """The files the environment variable ``variable`` names (several: separated by os.pathsep)."""
    return [Path(p) for p in os.environ.get(variable, "").split(os.pathsep) if p.strip()]


def _file_version(path: Path) -> tuple[int, int, int]:
    """`path`'s (mtime ns, size, inode), (-1, -1, -1) where it cannot be read: the version a
    file named in the environment is read once per."""
    try:
        stat = path.stat()
    except OSError:
        return (-1, -1, -1)
    return (stat.st_mtime_ns, stat.st_size, stat.st_ino)


def recorded_decision(key: str) -> Decision | None:
    """The decision that a file of `$MAGI_DECISIONS_FILE` records for `key` (the first file
    that has it), as a cached one; None where none does. Each file is read once per version
    of it (path, mtime, size); a stale or bad one is warned about once and ignored."""
    for path in decision_file_paths():
        decision = _recorded(str(path.absolute()), _file_version(path)).get(key)
        if decision is not None:
            return decision
    return None


@functools.lru_cache(maxsize=64)
def _recorded(path: str, version: tuple[int, int, int]) -> Mapping[str, Decision]:
    """The usable decisions of one file named in `$MAGI_DECISIONS_FILE` ({} if none is),
    each marked as read from it; warnings are given here, once per version of the file."""
    where = f"; the graphs it would decide are measured again (the file is named in {FILES_ENV})"
    try:
        bundle = read_decision_file(path)
    except FileNotFoundError:
        _warn(f"magi decision file {path!r} does not exist{where}; fix: correct {FILES_ENV}")
        return {}
    except DecisionFileError as exc:
        _warn(f"{exc}{where}")
        return {}
    stale = bundle.stale()
    if stale is not None:
        _warn(f"magi decision file {path}: {stale}{where}")
        return {}
    if bundle.skipped:
        _warn("; ".join(bundle.skipped) + where)
    return {
        key: dataclasses.replace(
            d, source="cached", reason=f"{d.reason}, recorded in {path}", recorded_in=path
        )
        for key, d in bundle.decisions.items()
    }


# --------------------------------------------------------------------------- $MAGI_ARTIFACTS_FILE
ARTIFACTS_ENV = "MAGI_ARTIFACTS_FILE"
ARTIFACTS_MAGIC = b"magi-artifacts/1\n"


class CompileArtifactsWarning(DecisionCacheWarning):
    """An artifacts file could not be used; the graphs compile with the caches as they are."""


def save_artifacts(path: str | os.PathLike[str]) -> dict[str, Any]:
    """Write the artifacts this process's compiles left in torch's caches
    (``torch.compiler.save_cache_artifacts``) to `path`, after a header with the torch, Triton
    and GPUs they hold for and a digest of them; returns the header. The payload is pickled
    compiled code: share it as code, and load only files you would run. ValueError where
    nothing was cached (caches off, or nothing compiled yet)."""
    saved = torch.compiler.save_cache_artifacts()
    if saved is None or not saved[0]:
        raise ValueError(
            f"save_artifacts({str(path)!r}): this process's compiles left nothing in torch's "
            f"caches; fix: compile and call the model first, with Inductor's caches on "
            f"(force_disable_caches and fx_graph_cache=False leave them empty)"
        )
    payload, info = saved
    header = {
        "created": datetime.datetime.now(datetime.UTC).isoformat(timespec="seconds"),
        "torch": str(torch.__version__),
        "triton": _triton_version(),
        "devices": list(_cuda_devices()),
        "sha256": hashlib.sha256(payload).hexdigest(),
        "artifacts": {kind: len(keys) for kind, keys in sorted(info.artifacts.items())},
    }
    _write_atomically(Path(path), ARTIFACTS_MAGIC + json.dumps(header).encode() + b"\n" + payload)
    return header


def _triton_version() -> str | None:
    try:
        import triton
    except ImportError:
        return None
    return str(triton.__version__)


def read_artifacts(path: str | os.PathLike[str]) -> tuple[dict[str, Any], bytes]:
    """(header, payload) of the artifacts file at `path`, checked: its magic, header, digest,
    and that it was saved with this process's torch and Triton and, on a GPU, for one of this
    machine's GPUs. ValueError naming what is wrong and the fix (OSError: unreadable)."""
    data = Path(path).read_bytes()
    fix = "fix: save it again from a compiled run here (magi_passes.decisions.save_artifacts)"
    head, _, payload = data[len(ARTIFACTS_MAGIC) :].partition(b"\n")
    try:
        if not data.startswith(ARTIFACTS_MAGIC):
            raise ValueError(f"it does not start with {ARTIFACTS_MAGIC!r}")
        header = json.loads(head)
        if not isinstance(header, dict) or not isinstance(header.get("devices"), list):
            raise ValueError(f"its header is not an object with devices: {head[:200]!r}")
    except ValueError as exc:
        raise ValueError(f"magi artifacts file {path} is not one ({exc}); {fix}") from exc
    if hashlib.sha256(payload).hexdigest() != header.get("sha256"):
        raise ValueError(f"magi artifacts file {path} is cut or changed (digest differs); {fix}")
    here = {"torch": str(torch.__version__), "triton": _triton_version()}
    for name, value in here.items():
        if header.get(name) != value:
            raise ValueError(
                f"magi artifacts file {path} was saved with {name} {header.get(name)!r} and this "
                f"process runs {value!r}, so none of it can match; {fix}"
            )
    devices = set(_cuda_devices())
    if header["devices"] and devices and not devices & set(header["devices"]):
        raise ValueError(
            f"magi artifacts file {path} was saved on {header['devices']} and this machine has "
            f"{sorted(devices)}, so its kernels and autotuning do not hold here; {fix}"
        )
    return header, payload


def load_artifacts() -> list[str]:
    """Load each file of `$MAGI_ARTIFACTS_FILE` (several: os.pathsep) into torch's caches, once
    per version of it in a process; a file that `read_artifacts` refuses is warned about
    (`CompileArtifactsWarning`) and skipped. The paths loaded now."""
    loaded = []
    for path in (p.absolute() for p in _env_paths(ARTIFACTS_ENV)):
        version = (str(path), _file_version(path))
        if version in _LOADED:
            continue
        _LOADED.add(version)
        try:
            _, payload = read_artifacts(path)
            if torch.compiler.load_cache_artifacts(payload) is None:
                raise ValueError(f"torch could not read the payload of {path}")
        except Exception as exc:  # refused here, unreadable, or a payload torch cannot load
            if isinstance(exc, FileNotFoundError):
                problem = f"magi artifacts file {path} does not exist; fix: correct {ARTIFACTS_ENV}"
            else:
                problem = str(exc) if isinstance(exc, (OSError, ValueError)) else repr(exc)
            why = f"{problem}; its graphs compile as without it (the file is named in {ARTIFACTS_ENV})"
            warnings.warn(CompileArtifactsWarning(why), stacklevel=2)
            continue
        loaded.append(str(path))
    return loaded


_LOADED: set[tuple[str, tuple[int, int, int]]] = set()
