"""Public path of the model zoo: `pytest_magi.models.zoo` (models), `pytest_magi.pairs.zoo` (pairs)."""

from __future__ import annotations

from .models.zoo import ZooModel as ZooModel
from .models.zoo import all_names as all_names
from .models.zoo import load as load
from .models.zoo import names as names
from .models.zoo import unavailable as unavailable
from .models.zoo_builders import causal_frame_mask as causal_frame_mask
from .models.zoo_specs import VIDEO_VAES as VIDEO_VAES
from .pairs.zoo import ZooPair as ZooPair
