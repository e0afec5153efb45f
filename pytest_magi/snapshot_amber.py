"""syrupy's default extension under the plugin: Amber that leaves `torch-X.Y` folders alone.

syrupy imports its default extension in every run that uses `snapshot`, so this module imports
nothing but syrupy's Amber: the magi extensions (`pytest_magi.snapshots`) are loaded only when
a snapshot folder of theirs is met.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from syrupy.extensions.amber import AmberSnapshotExtension

if TYPE_CHECKING:
    from syrupy.data import SnapshotCollections
    from syrupy.location import PyTestLocation


class MagiAmberExtension(AmberSnapshotExtension):
    """syrupy's Amber extension that leaves the `torch-X.Y` folders to the magi extensions.

    Amber discovers every file below `__snapshots__` and reports those it cannot explain as
    unused: every other torch version's folder, and (by their `.fx`/`.sig` stems) the files of
    skipped tests. Here the running torch's folder is discovered by the magi extensions
    themselves, whichever of them the session uses (so the file of a removed `fx_snapshot`
    test is still reported), and other versions' folders are left alone. `.ambr` files are
    handled exactly as by Amber.
    """

    def discover_snapshots(
        self, *, test_location: PyTestLocation, ignore_extensions: list[str] | None = None
    ) -> SnapshotCollections:
        from syrupy.data import SnapshotCollections

        discovered = super().discover_snapshots(
            test_location=test_location, ignore_extensions=ignore_extensions
        )
        kept = SnapshotCollections()
        versioned = False
        for collection in discovered:
            if _in_version_folder(collection.location):
                versioned = True
            else:
                kept.add(collection)
        if not versioned:
            return kept
        for extension in _magi().MAGI_EXTENSIONS:
            kept.merge(
                extension().discover_snapshots(
                    test_location=test_location, ignore_extensions=ignore_extensions
                )
            )
        return kept

    @classmethod
    def matches_test_location(
        cls, *, test_location: PyTestLocation, snapshot_location: str
    ) -> bool:
        if _in_version_folder(snapshot_location):
            owner = _magi().owning_extension(snapshot_location)
            if owner is not None:
                return owner.matches_test_location(
                    test_location=test_location, snapshot_location=snapshot_location
                )
        return super().matches_test_location(
            test_location=test_location, snapshot_location=snapshot_location
        )

    def delete_snapshots(self, snapshot_location: str, snapshot_names: set[str]) -> None:
        if _in_version_folder(snapshot_location):
            owner = _magi().owning_extension(snapshot_location)
            if owner is not None:
                owner().delete_snapshots(
                    snapshot_location=snapshot_location, snapshot_names=snapshot_names
                )
                return
        super().delete_snapshots(snapshot_location, snapshot_names)


def _magi() -> Any:
    """The magi extensions' module, loaded when a folder of theirs is met (by name: it imports
    this module, whose class it re-exports, so a static import here would be a cycle)."""
    return importlib.import_module("pytest_magi.snapshots")


def _in_version_folder(location: str) -> bool:
    if "torch-" not in str(location):  # no magi folder on the path: nothing to load
        return False
    return bool(_magi().in_version_folder(location))
