"""The magi post-grad passes, one per module, each a `MagiPass` (`passes.base`)."""
