"""Models: the reference models (`reference`: `VAEDecoderLike`, `GQAProjection`,
`WanCausalStage`) and the zoo of real ones (`zoo`: `load`, `ZooModel`; its table in `zoo_specs`,
its builds in `zoo_builders`)."""

from __future__ import annotations

from .reference import GQAProjection as GQAProjection
from .reference import VAEDecoderLike as VAEDecoderLike
from .reference import WanCausalStage as WanCausalStage
