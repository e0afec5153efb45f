#!/usr/bin/env bash
# On the GPU machine (no package index): install the carried wheels (syrupy, and diffusers with
# importlib_metadata for the zoo; see README), this checkout and its downstream example.
set -euo pipefail
python3 -m pip install -q --no-deps --no-build-isolation wheels/*.whl
python3 -m pip install -q --no-deps --no-build-isolation -e .
# the downstream example's tests (examples/downstream) import it as an installed package
python3 -m pip install -q --no-deps --no-build-isolation -e examples/downstream
python3 -c "import torch, triton, syrupy, sys; print('torch', torch.__version__, 'triton', triton.__version__, 'python', sys.version.split()[0], 'gpu', torch.cuda.get_device_name())"
python3 -c "from pytest_magi import zoo; print('zoo:', zoo.names(), 'unavailable:', zoo.unavailable())"
