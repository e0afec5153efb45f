"""syrupy extensions for generated code, kept per torch minor version.

Three single-file extensions, one readable text file per snapshot:

- `TritonCodeExtension` (`.py`): the normalised generated code (wrapper and Triton kernels of
  every graph) of a `GeneratedCode`, or a str of generated code, normalised here;
- `FxGraphExtension` (`.fx.txt`): the normalised post-pass FX graph of every graph;
- `SignatureExtension` (`.sig.txt`): `GeneratedCode.signature()`, the coarse structural summary.

Layout. Generated code is only stable within one torch minor version, so each version has its
own folder between `__snapshots__` and the test module's folder::

    tests/__snapshots__/torch-2.13/test_codegen/test_vae.py
    tests/__snapshots__/torch-2.13/test_codegen/test_vae.sig.txt
    tests/__snapshots__/torch-2.11/test_codegen/test_vae.py

The module's folder is the file's parent on purpose: syrupy relates a single-file snapshot to
its test through that folder's name, so its unused-snapshot report, `--snapshot-update` cleanup,
skipped tests and deleted test modules work as for syrupy's own single-file extensions. The
magi extensions only ever read, write and clean the running torch's folder.

syrupy's default (Amber) extension, which every `snapshot` fixture registers, scans the whole
`__snapshots__` tree and would report every other torch version's folder as unused (and delete
it under `--snapshot-update`). `MagiAmberExtension` is Amber without that: the plugin makes it
the default extension unless `--snapshot-default-extension` names another one.

Device. Fake CUDA generates code for an H100-like sm90 device, and so does a real sm90 GPU (H100,
H200): that code is CI's baseline and lives in `torch-X.Y/`. A real GPU of another capability
generates other code (other tile sizes, other kernels), so its snapshots are kept apart, in
`torch-X.Y-sm80/` (`snapshot_device_key()`), and never overwrite the baseline.
`--snapshot-update` on such a machine is refused with an explanation unless
`MAGI_SNAPSHOT_DEVICE=sm80` says that writing that machine's own folder is intended; without
snapshots of its own, its snapshot tests skip, saying why (docs/snapshots.md, "Devices").

The fixtures `triton_snapshot`, `fx_snapshot` and `signature_snapshot` (`pytest_magi.plugin`)
are syrupy's `snapshot` with an extension bound; the plugin keeps pytest out of snapshot folders
(`.py` snapshots are named after their tests) and makes `MagiAmberExtension` the default. The
extensions' `serialize` works without pytest.
"""

from __future__ import annotations

import importlib.metadata
import os
import re
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from syrupy.assertion import SnapshotAssertion
from syrupy.data import SnapshotCollections
from syrupy.extensions.amber import AmberSnapshotExtension
from syrupy.extensions.single_file import SingleFileSnapshotExtension, WriteMode
from syrupy.utils import walk_snapshot_dir

from .capture.code_diff import code_diff_lines, code_summary
from .capture.normalize import normalize_code, normalize_fx_graph
from .snapshot_amber import MagiAmberExtension as MagiAmberExtension

if TYPE_CHECKING:
    from collections.abc import Iterator

    from syrupy.location import PyTestLocation
    from syrupy.types import PropertyFilter, PropertyMatcher, SerializableData, SerializedData

    from .capture.generated import GeneratedCode

_VERSION_RE = re.compile(r"^(\d+)\.(\d+)")
#: A per-version folder directly below a snapshot folder: `torch-2.13`, or `torch-2.13-sm80` for
#: a real GPU whose code differs from the baseline's.
VERSION_DIR_RE = re.compile(r"^torch-\d+\.\d+(?:-sm\d+)?$")
#: The capability fake CUDA generates code for (H100-like), whose code is CI's baseline.
BASELINE_CAPABILITY = (9, 0)
#: Set to a device key (`sm80`) to let `--snapshot-update` write that device's own folder.
DEVICE_ENV = "MAGI_SNAPSHOT_DEVICE"
DEFAULT_EXTENSION = "pytest_magi.snapshot_amber.MagiAmberExtension"


def torch_version_dirname(version: str | None = None) -> str:
    """`"torch-<major>.<minor>"` of `version` (default: the running torch), e.g. `torch-2.13`."""
    if version is None:
        # torch's own version when it is imported; else read without importing it (the session
        # end discovers snapshot folders even in runs that never imported torch)
        torch = sys.modules.get("torch")
        version = torch.__version__ if torch is not None else importlib.metadata.version("torch")
    text = version
    match = _VERSION_RE.match(str(text))
    if match is None:
        raise ValueError(
            f"cannot read a major.minor version from torch version {text!r}; expected a "
            "version such as '2.13.0' or '2.11.0+cu130'"
        )
    return f"torch-{match.group(1)}.{match.group(2)}"


def device_capability() -> tuple[int, int] | None:
    """The capability of the real GPU generated code comes from, or None under fake CUDA (no GPU)."""
    from .capture.fake_cuda import real_cuda_available

    if not real_cuda_available():
        return None
    import torch

    major, minor = torch.cuda.get_device_capability()
    return (int(major), int(minor))


def snapshot_device_key(capability: tuple[int, int] | None | str = "current") -> str | None:
    """None when the code is the baseline's (fake CUDA, or a real GPU of the baseline capability);
    else `"sm<major><minor>"`, the suffix of that device's own snapshot folders."""
    cap = device_capability() if capability == "current" else capability
    if cap is None or tuple(cap) == BASELINE_CAPABILITY:
        return None
    return f"sm{cap[0]}{cap[1]}"


def snapshot_version_dirname() -> str:
    """The folder this machine's generated-code snapshots live in: `torch-2.13` (baseline) or
    `torch-2.13-sm80` (a real GPU of another capability).

    In a process that has not imported torch no code was generated, so what a snapshot holds
    does not depend on the device: the baseline folder, and torch stays unimported (plugin
    startup cost). `--snapshot-update` asks the device itself (`pytest_configure`).
    """
    key = snapshot_device_key() if "torch" in sys.modules else None
    return torch_version_dirname() + (f"-{key}" if key else "")


def device_update_refusal(key: str | None, environ: Any = None) -> str | None:
    """Why `--snapshot-update` must not run on a device with snapshot key `key`, or None."""
    if key is None:
        return None
    env = os.environ if environ is None else environ
    if env.get(DEVICE_ENV) == key:
        return None
    base = f"sm{BASELINE_CAPABILITY[0]}{BASELINE_CAPABILITY[1]}"
    return (
        f"--snapshot-update on a {key} GPU: the snapshot baselines are the code generated for "
        f"{base} (fake CUDA on CPU, as CI runs, or a real {base} GPU such as H100/H200); this GPU "
        f"generates different code, and an update here would not reproduce in CI. Update on a "
        f"CPU machine or an {base} GPU. To keep snapshots of this GPU's own code instead, in "
        f"__snapshots__/{torch_version_dirname()}-{key}/, set {DEVICE_ENV}={key}"
    )


def snapshot_dirname() -> str:
    """The name of snapshot folders (`__snapshots__`, or syrupy's `--snapshot-dirname`)."""
    return str(AmberSnapshotExtension.snapshot_dirname)


def in_version_folder(location: str | Path) -> bool:
    """Whether `location` lies in a `<snapshot folder>/torch-X.Y/` folder of any torch version."""
    path = Path(location)
    return any(
        VERSION_DIR_RE.match(parent.name) and parent.parent.name == snapshot_dirname()
        for parent in path.parents
    )


def _unix_newlines(text: str) -> str:
    # snapshot files are read back with universal newlines: a '\r' kept here would never match
    text = text.replace("\r\n", "\n").replace("\r", "\n")
    return text if text.endswith("\n") else text + "\n"


class _GeneratedCodeExtension(SingleFileSnapshotExtension):
    """Text single-file snapshots in `<test dir>/__snapshots__/torch-X.Y/<test module>/`."""

    _write_mode = WriteMode.TEXT
    #: What `serialize` accepts, in words, for its TypeError.
    accepted = "a pytest_magi.codegen.GeneratedCode or a str"

    def serialize(
        self,
        data: SerializableData,
        *,
        exclude: PropertyFilter | None = None,
        include: PropertyFilter | None = None,
        matcher: PropertyMatcher | None = None,
    ) -> SerializedData:
        from .capture.generated import GeneratedCode

        if isinstance(data, GeneratedCode):
            text = self.from_generated_code(data)
        elif isinstance(data, str):
            text = self.from_text(data)
        else:
            kind = f"{type(data).__module__}.{type(data).__qualname__}"
            raise TypeError(
                f"{type(self).__name__} cannot snapshot {kind} ({_short_repr(data)}): it accepts "
                f"{self.accepted}. Snapshot what inductor_codegen(fn, *inputs) returns"
            )
        return _unix_newlines(text)

    def from_generated_code(self, code: GeneratedCode) -> str:
        raise NotImplementedError

    def from_text(self, text: str) -> str:
        raise NotImplementedError

    @classmethod
    def dirname(cls, *, test_location: PyTestLocation) -> str:
        snapshots = Path(test_location.filepath).parent / str(cls.snapshot_dirname)
        return str(snapshots / snapshot_version_dirname() / test_location.basename)

    @classmethod
    def discovery_dirname(cls, *, test_location: PyTestLocation) -> str:
        return cls.dirname(test_location=test_location)

    def discover_snapshots(
        self, *, test_location: PyTestLocation, ignore_extensions: list[str] | None = None
    ) -> SnapshotCollections:
        """This extension's files in the test module's folder of the running torch version,
        and in the folders of deleted test modules next to it (as syrupy does: a module that
        still exists but was not collected, e.g. `--ignore`d, keeps its snapshots)."""
        module_dir = Path(self.dirname(test_location=test_location))
        version_dir = module_dir.parent
        test_dir = Path(test_location.filepath).parent
        folders = [module_dir]
        if version_dir.is_dir():
            folders += [
                folder
                for folder in sorted(version_dir.iterdir())
                if folder.is_dir()
                and folder != module_dir
                and not any((test_dir / f"{folder.name}{s}").is_file() for s in (".py", ".pyi"))
            ]
        discovered = SnapshotCollections()
        for folder in folders:
            if not folder.is_dir():
                continue
            for filepath in walk_snapshot_dir(folder, ignore_extensions=ignore_extensions):
                if Path(filepath).parent == folder and self.is_snapshot_location(location=filepath):
                    discovered.add(self.read_snapshot_collection(snapshot_location=filepath))
        return discovered

    def read_snapshot_data_from_location(
        self, *, snapshot_location: str, snapshot_name: str, session_id: str
    ) -> SerializableData | None:
        """The file's text. Bytes that are not UTF-8 (a corrupted file) read as U+FFFD, so the
        test fails with syrupy's diff, not with a UnicodeDecodeError."""
        try:
            raw = Path(snapshot_location).read_bytes()
        except (FileNotFoundError, IsADirectoryError, NotADirectoryError):
            return None
        text = raw.decode(self.get_write_encoding() or "utf-8", errors="replace")
        return text.replace("\r\n", "\n").replace("\r", "\n")

    def delete_snapshots(self, *, snapshot_location: str, snapshot_names: set[str]) -> None:
        """Delete the file, then the module and version folders it leaves empty."""
        path = Path(snapshot_location)
        path.unlink(missing_ok=True)
        for folder in (path.parent, path.parent.parent):
            if folder.name == str(self.snapshot_dirname):
                break
            try:
                folder.rmdir()
            except OSError:  # not empty
                break


def _short_repr(data: object, limit: int = 80) -> str:
    text = repr(data)
    return text if len(text) <= limit else text[: limit - 3] + "..."


def triton_header() -> str:
    """The first lines of a `.py` snapshot: linters skip it, readers learn what it is."""
    return (
        "# ruff: noqa\n"
        f"# pytest-magi snapshot ({snapshot_version_dirname()}): Inductor's generated code, "
        "normalised. Update: pytest --snapshot-update\n"
    )


class TritonCodeExtension(_GeneratedCodeExtension):
    """The normalised generated code (wrapper + Triton kernels of every graph), one `.py` file
    that starts with `triton_header()` (`# ruff: noqa`: generated code is not linted)."""

    file_extension = "py"

    def from_generated_code(self, code: GeneratedCode) -> str:
        return triton_header() + code.normalized()

    def diff_lines(
        self, serialized_data: SerializedData, snapshot_data: SerializedData
    ) -> Iterator[str]:
        """The changed kernels and their changed body lines first, within pytest's explanation
        budget below ``-vv`` (``code_diff``), then syrupy's whole line diff."""
        yield from code_diff_lines(str(serialized_data), str(snapshot_data))
        yield "whole line diff (shown with -vv):"
        yield from super().diff_lines(serialized_data, snapshot_data)

    def from_text(self, text: str) -> str:
        first = triton_header().splitlines()[0]
        lines = text.splitlines(keepends=True)
        if lines and lines[0].rstrip() == first:  # a snapshot's own text: keep one header
            text = "".join(lines[2:])
        return triton_header() + normalize_code(text)


class FxGraphExtension(_GeneratedCodeExtension):
    """The normalised post-pass FX graph of every graph, one `.fx.txt` file."""

    file_extension = "fx.txt"

    def from_generated_code(self, code: GeneratedCode) -> str:
        parts = [
            f"# ===== graph {index}: {graph.kind} =====\n{graph.fx_graph.strip()}"
            for index, graph in enumerate(code.captured)
            if graph.fx_graph is not None
        ]
        if not parts:
            raise ValueError(
                f"{code!r} holds no post-pass FX graph (no graph went through Inductor's "
                "post-grad passes); snapshot its code with triton_snapshot instead"
            )
        return "\n\n".join(parts)

    def from_text(self, text: str) -> str:
        return normalize_fx_graph(text)


class SignatureExtension(_GeneratedCodeExtension):
    """`GeneratedCode.signature()`: one line per kernel launch or extern call, one `.sig.txt`."""

    file_extension = "sig.txt"

    def from_generated_code(self, code: GeneratedCode) -> str:
        return code.signature()

    def from_text(self, text: str) -> str:
        return normalize_code(text)


MAGI_EXTENSIONS: tuple[type[_GeneratedCodeExtension], ...] = (
    FxGraphExtension,
    SignatureExtension,
    TritonCodeExtension,
)


def owning_extension(location: str | Path) -> type[_GeneratedCodeExtension] | None:
    """The magi extension that stores `location` (by its file extension), if any."""
    name = Path(location).name
    for extension in MAGI_EXTENSIONS:  # longest file extension first
        if name.endswith(f".{extension.file_extension}"):
            return extension
    return None


# syrupy's default extension under the plugin (a module of its own: syrupy imports it in
# every run that uses `snapshot`, and it must stay light)


# --------------------------------------------------------------------------- fixture support
def skip_without_device_snapshots(request: pytest.FixtureRequest) -> None:
    """On a GPU whose code is not the baseline's, with no snapshots of its own: skip, saying why."""
    key = snapshot_device_key()
    if key is None or request.config.getoption("update_snapshots", False):
        return
    folder = (
        Path(request.node.path).parent
        / snapshot_dirname()
        / snapshot_version_dirname()
        / Path(request.node.path).stem
    )
    if not folder.is_dir():
        pytest.skip(
            f"generated-code snapshots are kept for sm{BASELINE_CAPABILITY[0]}"
            f"{BASELINE_CAPABILITY[1]} (fake CUDA, CI's baseline); this {key} GPU generates other "
            f"code and has no snapshots of its own in {folder} (see docs/snapshots.md, Devices)"
        )


class CodeSnapshotAssertion(SnapshotAssertion):
    """syrupy's ``SnapshotAssertion`` whose repr, once it has asserted, is a summary of the
    generated code (``<triton snapshot: 3 kernels, 178 lines>``), not the whole file: pytest
    prints a failing test's arguments in its traceback."""

    kind = "triton"

    def __repr__(self) -> str:
        text = super().__repr__()
        if not self.num_executions:
            return text
        return f"<{self.kind} snapshot: {code_summary(text)}>"


def use_code_extension(
    snapshot: SnapshotAssertion, extension: type[_GeneratedCodeExtension]
) -> CodeSnapshotAssertion:
    """``snapshot.use_extension(extension)`` as a :class:`CodeSnapshotAssertion` (what the
    ``triton_snapshot`` fixture returns)."""
    return CodeSnapshotAssertion(
        matcher=snapshot.matcher,
        include=snapshot.include,
        exclude=snapshot.exclude,
        update_snapshots=snapshot.update_snapshots,
        update_new_snapshots_only=snapshot.update_new_snapshots_only,
        test_location=snapshot.test_location,
        extension_class=extension,
        session=snapshot.session,
    )
