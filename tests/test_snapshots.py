"""The snapshot extensions and fixtures (`pytest_magi.snapshots`) and the update workflow.

Unit tests of the serializers and the layout, then `pytester` runs of small projects: update,
compare, diff, unused and deleted snapshots, skipped tests, other torch versions' folders,
corrupted files, xdist. Those runs snapshot plain strings (no codegen) except one, which
snapshots real generated code and checks it is identical when generated in a second session.
"""

from __future__ import annotations

import ast
import re
import textwrap
import types
from collections.abc import Iterator
from pathlib import Path

import pytest
import syrupy
import torch

from pytest_magi import snapshots
from pytest_magi.capture.codegen import CapturedGraph, GeneratedCode, inductor_codegen
from pytest_magi.snapshots import (
    FxGraphExtension,
    MagiAmberExtension,
    SignatureExtension,
    TritonCodeExtension,
    in_version_folder,
    owning_extension,
    torch_version_dirname,
    triton_header,
)

VERSION = torch_version_dirname()
OTHER_VERSION = "torch-2.11" if VERSION != "torch-2.11" else "torch-2.13"

# Registers the magi snapshot plugin in a pytester project unless the installed plugin
# (entry point `magi`) already did, under whatever name.
CONFTEST = """
import pytest_magi.snapshots as _snapshots


def pytest_configure(config):
    if not config.pluginmanager.is_registered(_snapshots):
        config.pluginmanager.register(_snapshots, "pytest_magi.snapshots")
"""

CODE = """\
# kernel path: /tmp/torchinductor_bob/ab/cabcdef0123.py
# AOT ID: ['7_inference']
def call(args):
    s17 = args[0]
    ks3 = s17 * 2
    return ks3
"""


# --------------------------------------------------------------------------- unit
def test_torch_version_dirname() -> None:
    major, minor = torch.__version__.split(".")[:2]
    assert VERSION == f"torch-{major}.{minor}"
    assert torch_version_dirname("2.11.0+cu130") == "torch-2.11"
    assert torch_version_dirname("2.13.0a0+git1234") == "torch-2.13"
    with pytest.raises(ValueError, match=r"torch version 'nightly'.*'2.13.0'"):
        torch_version_dirname("nightly")


@pytest.mark.parametrize(
    "extension",
    [TritonCodeExtension, FxGraphExtension, SignatureExtension],
    ids=lambda e: e.__name__,
)
@pytest.mark.parametrize("data", [42, {"code": "x"}, b"bytes", torch.zeros(2)], ids=type)
def test_serializers_reject_other_types_naming_the_type(
    extension: type[TritonCodeExtension], data: object
) -> None:
    with pytest.raises(TypeError) as excinfo:
        extension().serialize(data)
    message = str(excinfo.value)
    assert f"{extension.__name__} cannot snapshot {type(data).__module__}." in message
    assert type(data).__qualname__ in message
    assert "accepts a pytest_magi.codegen.GeneratedCode or a str" in message
    assert "inductor_codegen(fn, *inputs)" in message


def test_triton_extension_normalises_text() -> None:
    text = TritonCodeExtension().serialize(CODE.replace("\n", "\r\n"))
    assert text == triton_header() + (
        "# kernel path: <kernel-path>\n"
        "# AOT ID: ['N_inference']\n"
        "def call(args):\n"
        "    s0 = args[0]\n"
        "    ks0 = s0 * 2\n"
        "    return ks0\n"
    )
    assert triton_header() == (
        f"# ruff: noqa\n# pytest-magi snapshot ({VERSION}): Inductor's generated code, "
        "normalised. Update: pytest --snapshot-update\n"
    )
    # idempotent: a snapshot file serialised again is unchanged
    assert TritonCodeExtension().serialize(text) == text


def test_fx_and_signature_extensions_normalise_text() -> None:
    graph = "graph():\n    %arg0_1 : [num_users=1] = placeholder[target=arg0_1]  # s27, s5\n"
    assert FxGraphExtension().serialize(graph) == graph.replace("s27, s5", "s0, s1")
    assert SignatureExtension().serialize("inference pointwise add size_hints={x:ks7}") == (
        "inference pointwise add size_hints={x:ks0}\n"
    )


@pytest.fixture(scope="module")
def generated() -> GeneratedCode:
    def fn(x: torch.Tensor) -> torch.Tensor:
        return (x * 2).sin() + 1

    return inductor_codegen(fn, torch.randn(8, 16), dynamic_dims={0: 0})


def test_extensions_serialise_generated_code(generated: GeneratedCode) -> None:
    text = TritonCodeExtension().serialize(generated)
    assert text == triton_header() + generated.normalized().rstrip("\n") + "\n"
    ast.parse(text)  # readable, and valid Python
    assert SignatureExtension().serialize(generated) == generated.signature() + "\n"
    fx = FxGraphExtension().serialize(generated)
    assert fx.startswith("# ===== graph 0: inference =====\ngraph():\n")
    assert generated.graphs[0].strip() in fx
    assert "triton_" in text


def test_fx_extension_without_graphs_says_what_to_use() -> None:
    code = GeneratedCode(
        [CapturedGraph("inference", "def call(args): pass", (), (), (), None)], "x"
    )
    with pytest.raises(ValueError, match="holds no post-pass FX graph.*triton_snapshot instead"):
        FxGraphExtension().serialize(code)


def test_layout_is_snapshots_version_module(tmp_path: Path) -> None:
    location = types.SimpleNamespace(
        filepath=str(tmp_path / "tests" / "test_codegen.py"), basename="test_codegen"
    )
    expected = tmp_path / "tests" / "__snapshots__" / VERSION / "test_codegen"
    for extension in (TritonCodeExtension, FxGraphExtension, SignatureExtension):
        assert Path(extension.dirname(test_location=location)) == expected  # type: ignore[arg-type]
    assert in_version_folder(expected / "test_x.py")
    assert in_version_folder(tmp_path / "__snapshots__" / "torch-2.11" / "m" / "t.sig.txt")
    assert not in_version_folder(tmp_path / "__snapshots__" / "test_codegen.ambr")
    assert not in_version_folder(tmp_path / "torch-2.13" / "m" / "t.py")
    assert owning_extension("a/test_x[dyn].fx.txt") is FxGraphExtension
    assert owning_extension("a/test_x.sig.txt") is SignatureExtension
    assert owning_extension("a/test_x.py") is TritonCodeExtension
    assert owning_extension("a/test_x.txt") is None


def test_corrupted_file_reads_as_text_not_an_exception(tmp_path: Path) -> None:
    path = tmp_path / "test_x.py"
    path.write_bytes(b"def call():\r\n    pass\xff\xfe\n")
    data = TritonCodeExtension().read_snapshot_data_from_location(
        snapshot_location=str(path), snapshot_name="test_x", session_id="1"
    )
    assert data == "def call():\n    pass\ufffd\ufffd\n"
    assert (
        TritonCodeExtension().read_snapshot_data_from_location(
            snapshot_location=str(tmp_path), snapshot_name="test_x", session_id="1"
        )
        is None
    )


# --------------------------------------------------------------------------- pytester
@pytest.fixture
def project(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> Iterator[pytest.Pytester]:
    """A pytester project with the magi snapshot plugin; keeps the outer session's syrupy."""
    pytester.makeconftest(CONFTEST)
    # in an xdist worker these make the inner syrupy skip its report, as if it were a worker
    for name in ("PYTEST_XDIST_WORKER", "PYTEST_XDIST_WORKER_COUNT"):
        monkeypatch.delenv(name, raising=False)
    # pytest keeps whole assertion explanations where CI or BUILD_NUMBER is set; the tests of
    # what a reader sees below -vv need the truncation a developer's terminal gets
    for name in ("CI", "BUILD_NUMBER"):
        monkeypatch.delenv(name, raising=False)
    # syrupy keeps its running session in a module global; an in-process run replaces it
    saved = getattr(syrupy, "_syrupy", None)
    yield pytester
    syrupy._syrupy = saved  # type: ignore[attr-defined]


def _run(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    return pytester.runpytest("-p", "no:cacheprovider", "--snapshot-details", *args)


def _run_subprocess(pytester: pytest.Pytester, *args: str) -> pytest.RunResult:
    """For runs that generate code: an in-process run would re-import Inductor's modules, which
    refuse a second registration; two sessions in two processes is also what the test claims."""
    return pytester.runpytest_subprocess("-p", "no:cacheprovider", "--snapshot-details", *args)


def _files(root: Path) -> list[str]:
    base = root / "__snapshots__"
    return sorted(str(p.relative_to(base)) for p in base.rglob("*") if p.is_file())


STRING_TESTS = """
import pytest

CODE = {code!r}


def test_code(triton_snapshot):
    assert triton_snapshot == CODE


def test_graph_and_signature(fx_snapshot, signature_snapshot):
    assert fx_snapshot == "graph():\\n    %x : s9"
    assert signature_snapshot == "inference pointwise mul size_hints={{x:ks4}}"


@pytest.mark.parametrize("mode", ["static", "dynamic"])
def test_modes(mode, triton_snapshot):
    assert triton_snapshot == f"# {{mode}}\\n"


class TestGroup:
    def test_method(self, signature_snapshot):
        assert signature_snapshot == "x"
"""


def test_update_writes_one_readable_file_per_snapshot_then_changes_fail_with_a_diff(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE))
    result = _run(project, "--snapshot-update")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["*6 snapshots generated*"])
    module = f"{VERSION}/test_gen"
    assert _files(project.path) == [
        f"{module}/TestGroup.test_method.sig.txt",
        f"{module}/test_code.py",
        f"{module}/test_graph_and_signature.fx.txt",
        f"{module}/test_graph_and_signature.sig.txt",
        f"{module}/test_modes[dynamic].py",
        f"{module}/test_modes[static].py",
    ]
    folder = project.path / "__snapshots__" / VERSION / "test_gen"
    assert (folder / "test_code.py").read_text() == TritonCodeExtension().serialize(CODE)
    assert (folder / "test_graph_and_signature.sig.txt").read_text() == (
        "inference pointwise mul size_hints={x:ks0}\n"
    )

    # changed code: a diff; the .py snapshots (named test_*.py) are not collected as tests
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE.replace("* 2", "* 3")))
    result = _run(project)
    result.assert_outcomes(passed=4, failed=1)
    result.stdout.fnmatch_lines(
        ["*test_code*", "*-     ks0 = s0 * 2*", "*+     ks0 = s0 * 3*", "*1 snapshot failed*"]
    )
    _run(project, "--snapshot-update").stdout.fnmatch_lines(["*1 snapshot updated*"])
    assert "s0 * 3" in (folder / "test_code.py").read_text()


KERNEL_CODE = """\
# kernel path: /tmp/torchinductor_bob/ab/cabcdef0123.py
# Topologically Sorted Source Nodes: [add, mul], Original ATen: [aten.add, aten.mul]
# Source node to ATen node mapping:
#   add => add_3
#   mul => mul_7
# Graph fragment:
#   %add_3 : Tensor "f32[64]" = call_function[target=torch.ops.aten.add.Tensor](args = (%x, 1))
#   %mul_7 : Tensor "f32[64]" = call_function[target=torch.ops.aten.mul.Tensor](args = (%add_3,))
triton_poi_fused_add_mul_0 = async_compile.triton('triton_poi_fused_add_mul_0', '''
import triton
import triton.language as tl

@triton.jit
def triton_poi_fused_add_mul_0(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    xoffset = tl.program_id(0) * XBLOCK
    xindex = xoffset + tl.arange(0, XBLOCK)[:]
    xmask = xindex < xnumel
    x0 = xindex
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = 1.0
    tmp2 = tmp0 + tmp1
    tmp3 = tmp2 * tmp2
    tl.store(out_ptr0 + (x0), tmp3, xmask)
''', device_str='cuda')


# kernel path: /tmp/torchinductor_bob/cd/cdef0123abc.py
triton_poi_fused_sin_1 = async_compile.triton('triton_poi_fused_sin_1', '''
import triton

@triton.jit
def triton_poi_fused_sin_1(in_ptr0, out_ptr0, xnumel, XBLOCK : tl.constexpr):
    tmp0 = tl.load(in_ptr0 + (x0), xmask)
    tmp1 = tl_math.sin(tmp0)
    tl.store(out_ptr0 + (x0), tmp1, xmask)
''', device_str='cuda')


def call(args):
    arg0_1, = args
    # Topologically Sorted Source Nodes: [add, mul], Original ATen: [aten.add, aten.mul]
    triton_poi_fused_add_mul_0.run(arg0_1, buf0, 64, stream=stream0)
    triton_poi_fused_sin_1.run(buf0, buf1, 64, stream=stream0)
    return (buf1, )


def benchmark_compiled_module(times=10, repeat=10):
    return print_performance(lambda: call([arg0_1]), times=times, repeat=repeat)  # end of file
"""


def test_a_changed_kernel_shows_its_changed_body_line_within_pytests_budget_at_q(
    project: pytest.Pytester,
) -> None:
    """Below -vv pytest keeps 8 lines / 640 characters of an assertion's explanation: the
    changed kernel and its changed line come first, the FX comments' renames after them, and
    the traceback shows a summary of the snapshot, not the whole file."""
    project.makepyfile(
        test_gen="from pathlib import Path\n\n\ndef test_code(triton_snapshot):\n"
        "    assert triton_snapshot == Path(__file__).with_name('code.txt').read_text()\n"
    )
    (project.path / "code.txt").write_text(KERNEL_CODE)
    _run(project, "--snapshot-update").assert_outcomes(passed=1)
    changed = KERNEL_CODE.replace("add_3", "add_4").replace(
        "tmp3 = tmp2 * tmp2", "tmp3 = tmp2 * tmp1"
    )
    (project.path / "code.txt").write_text(changed)
    result = _run(project, "-q")
    result.assert_outcomes(failed=1)
    out = result.stdout.str()
    result.stdout.fnmatch_lines(
        [
            "*triton kernels: 1 changed (triton_poi_fused_add_mul_0) (FX comments only: * lines,"
            " shown last)",
            "*triton_poi_fused_add_mul_0, body line *:",
            "*      tmp2 = tmp0 + tmp1",
            "*-     tmp3 = tmp2 * tmp2",
            "*+     tmp3 = tmp2 * tmp1",
            "*      tl.store(out_ptr0 + (x0), tmp3, xmask)",
        ]
    )
    lines = KERNEL_CODE.count("\n") + 2  # with the snapshot's two header lines
    assert f"triton_snapshot = <triton snapshot: 2 kernels, {lines} lines>" in out
    assert "# end of file" not in out and "def benchmark_compiled_module" not in out
    assert "Full output truncated" in out  # the comments and the whole diff: with -vv
    verbose = _run(project, "-vv").stdout.str()
    assert "-     tmp3 = tmp2 * tmp2" in verbose and "- #   add => add_3" in verbose


CORRUPTIONS = {
    "empty": b"",
    "hand_edited": b"not the code\n",
    "binary": b"\xff\xfe\x00garbage\x80",
    "truncated": triton_header().encode(),
    # the right code with Windows line ends (those match) and one added latin-1 line
    "crlf_and_latin1": TritonCodeExtension().serialize(CODE).replace("\n", "\r\n").encode()
    + b"# caf\xe9\n",
}


def test_corrupted_or_hand_edited_snapshots_fail_with_a_diff_not_a_crash(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_gen="\n".join(
            f"def test_{name}(triton_snapshot):\n    assert triton_snapshot == {CODE!r}\n"
            for name in CORRUPTIONS
        )
    )
    _run(project, "--snapshot-update").assert_outcomes(passed=len(CORRUPTIONS))
    folder = project.path / "__snapshots__" / VERSION / "test_gen"
    for name, content in CORRUPTIONS.items():
        (folder / f"test_{name}.py").write_bytes(content)
    result = _run(project)
    result.assert_outcomes(failed=len(CORRUPTIONS))
    out = result.stdout.str()
    diffs = re.findall(
        r"^E +(?:AssertionError: )?assert \[- snapshot\] == \[\+ received\]", out, re.M
    )
    assert len(diffs) == len(CORRUPTIONS), out
    for crash in ("INTERNALERROR", "UnicodeDecodeError", "Traceback"):
        assert crash not in out
    result.stdout.fnmatch_lines(["*-*caf\ufffd*"])
    _run(project, "--snapshot-update").assert_outcomes(passed=len(CORRUPTIONS))
    _run(project).assert_outcomes(passed=len(CORRUPTIONS))


def test_removed_test_is_reported_unused_and_update_deletes_it(project: pytest.Pytester) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE))
    _run(project, "--snapshot-update").assert_outcomes(passed=5)
    folder = project.path / "__snapshots__" / VERSION / "test_gen"
    # drop the test using fx_snapshot/signature_snapshot and one parametrisation
    source = STRING_TESTS.format(code=CODE)
    source = source.replace('["static", "dynamic"]', '["static"]')
    start = source.index("def test_graph_and_signature")
    source = source[:start] + source[source.index("@pytest.mark.parametrize") :]
    project.makepyfile(test_gen=source)

    result = _run(project)
    result.assert_outcomes(passed=3)
    assert result.ret == pytest.ExitCode.TESTS_FAILED  # syrupy fails a run with unused snapshots
    result.stdout.fnmatch_lines_random(
        [
            "*3 snapshots unused*",
            f"Unused test_graph_and_signature (__snapshots__/{VERSION}/test_gen/test_graph_and_signature.fx.txt)",
            f"Unused test_graph_and_signature (__snapshots__/{VERSION}/test_gen/test_graph_and_signature.sig.txt)",
            f"Unused test_modes[dynamic] (__snapshots__/{VERSION}/test_gen/test_modes[dynamic].py)",
            "*Re-run pytest with --snapshot-update to delete unused snapshots*",
        ]
    )
    assert (folder / "test_modes[dynamic].py").exists()

    result = _run(project, "--snapshot-update")
    result.stdout.fnmatch_lines(["*3 unused snapshots deleted*"])
    assert result.ret == pytest.ExitCode.OK
    assert sorted(p.name for p in folder.iterdir()) == [
        "TestGroup.test_method.sig.txt",
        "test_code.py",
        "test_modes[static].py",
    ]
    _run(project).assert_outcomes(passed=3)


def test_deleted_test_module_is_unused_but_an_ignored_one_is_not(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE), test_other="def test_x(): pass")
    _run(project, "--snapshot-update").assert_outcomes(passed=6)
    # --ignore: the module still exists, its snapshots are kept
    result = _run(project, "--ignore", "test_gen.py", "--snapshot-update")
    result.assert_outcomes(passed=1)
    assert len(_files(project.path)) == 6
    # deleted module: its folder is reported and removed
    (project.path / "test_gen.py").unlink()
    result = _run(project)
    result.stdout.fnmatch_lines(["*6 snapshots unused*"])
    assert result.ret == pytest.ExitCode.TESTS_FAILED
    _run(project, "--snapshot-update").stdout.fnmatch_lines(["*6 unused snapshots deleted*"])
    assert _files(project.path) == []
    assert not (project.path / "__snapshots__" / VERSION).exists()


def test_skipped_test_keeps_its_snapshot(project: pytest.Pytester) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE))
    _run(project, "--snapshot-update").assert_outcomes(passed=5)
    project.makeconftest(
        CONFTEST
        + textwrap.dedent(
            """
            import pytest

            def pytest_collection_modifyitems(items):
                for item in items:
                    if "graph" in item.name or "dynamic" in item.name:
                        item.add_marker(pytest.mark.skip(reason="no GPU"))
            """
        )
    )
    result = _run(project, "--snapshot-update")
    result.assert_outcomes(passed=3, skipped=2)
    assert "unused" not in result.stdout.str()
    assert len(_files(project.path)) == 6


def test_other_torch_versions_are_left_alone_even_beside_amber_snapshots(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(
        test_gen=STRING_TESTS.format(code=CODE)
        + "\n\ndef test_amber(snapshot):\n    assert snapshot == {'plain': 'syrupy'}\n"
    )
    _run(project, "--snapshot-update").assert_outcomes(passed=6)
    current = project.path / "__snapshots__" / VERSION
    other = project.path / "__snapshots__" / OTHER_VERSION
    other.mkdir()
    (other / "test_gen").mkdir()
    for path in (current / "test_gen").iterdir():
        (other / "test_gen" / path.name).write_text("older torch, other code\n")
    (other / "test_removed_long_ago").mkdir()
    (other / "test_removed_long_ago" / "test_y.py").write_text("x\n")
    before = _files(project.path)
    assert "test_gen.ambr" in before

    for args in ((), ("test_gen.py",), ("--snapshot-update",)):
        result = _run(project, *args)
        result.assert_outcomes(passed=6)
        assert "unused" not in result.stdout.str(), args
        assert result.ret == pytest.ExitCode.OK, args
    assert _files(project.path) == before


def test_serializer_type_error_reaches_the_test(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_bad="""
        def test_bad(triton_snapshot):
            assert triton_snapshot == {"not": "code"}
        """
    )
    result = _run(project, "--snapshot-update")
    result.assert_outcomes(failed=1)
    result.stdout.fnmatch_lines(
        ["*TypeError: TritonCodeExtension cannot snapshot builtins.dict*accepts a pytest_magi*"]
    )


@pytest.mark.slow
def test_xdist_runs_compare_but_update_with_two_workers_is_refused(
    project: pytest.Pytester,
) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE))
    result = _run(project, "--snapshot-update", "-n", "2")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(
        ["*--snapshot-update with 2 xdist workers*pytest -n 0 --snapshot-update*"]
    )
    assert not (project.path / "__snapshots__").exists()
    _run(project, "--snapshot-update", "-n", "0").assert_outcomes(passed=5)
    other = project.path / "__snapshots__" / OTHER_VERSION / "test_gen"
    other.mkdir(parents=True)
    (other / "test_code.py").write_text("older torch, other code\n")
    result = _run(project, "-n", "2")
    result.assert_outcomes(passed=5)
    result.stdout.fnmatch_lines(["*6 snapshots passed.*"])
    assert "unused" not in result.stdout.str()


@pytest.mark.slow
def test_generated_code_snapshots_match_across_sessions(project: pytest.Pytester) -> None:
    # a module name no file of our own suite has: in-process runs share sys.modules
    project.makepyfile(
        test_session_codegen="""
        import torch
        from pytest_magi.capture.codegen import inductor_codegen


        def fn(x, y):
            return torch.softmax(x @ y, dim=-1).relu()


        def test_code(triton_snapshot, fx_snapshot, signature_snapshot):
            code = inductor_codegen(fn, torch.randn(4, 8), torch.randn(8, 16), dynamic_dims={0: 0})
            assert signature_snapshot == code
            assert fx_snapshot == code
            assert triton_snapshot == code
        """
    )
    _run_subprocess(project, "--snapshot-update").assert_outcomes(passed=1)
    folder = project.path / "__snapshots__" / VERSION / "test_session_codegen"
    code = (folder / "test_code.py").read_text()
    assert "<kernel-path>" in code and "s0" in code and "/tmp/" not in code
    assert "extern_kernels.mm(" in code
    assert "inference extern mm\n" in (folder / "test_code.sig.txt").read_text()
    result = _run_subprocess(project)
    result.assert_outcomes(passed=1)
    result.stdout.fnmatch_lines(["*3 snapshots passed.*"])


def test_magi_amber_is_the_default_extension_unless_chosen(project: pytest.Pytester) -> None:
    project.makepyfile(
        test_ext="""
        def test_ext(snapshot, request):
            print("EXT", type(snapshot.extension).__module__, type(snapshot.extension).__name__)
        """
    )
    result = _run(project, "-s")
    result.stdout.fnmatch_lines([f"*EXT pytest_magi.snapshot_amber {MagiAmberExtension.__name__}"])
    result = _run(
        project,
        "-s",
        "--snapshot-default-extension",
        "syrupy.extensions.json.JSONSnapshotExtension",
    )
    result.stdout.fnmatch_lines(["*EXT syrupy.extensions.json JSONSnapshotExtension"])
    assert snapshots.DEFAULT_EXTENSION == "pytest_magi.snapshot_amber.MagiAmberExtension"


# --------------------------------------------------------------------------- devices
@pytest.mark.parametrize(
    ("capability", "key"),
    [(None, None), ((9, 0), None), ((8, 0), "sm80"), ((8, 9), "sm89"), ((10, 0), "sm100")],
)
def test_device_key_is_none_for_the_baseline_and_smXY_otherwise(
    capability: tuple[int, int] | None, key: str | None
) -> None:
    assert snapshots.snapshot_device_key(capability) == key


@pytest.fixture
def sm80(monkeypatch: pytest.MonkeyPatch) -> None:
    """Simulate a real A100 (sm80): what `device_capability()` reports on such a machine."""
    monkeypatch.setattr(snapshots, "device_capability", lambda: (8, 0))
    monkeypatch.delenv(snapshots.DEVICE_ENV, raising=False)


def test_fake_cuda_is_the_baseline_folder() -> None:
    # CPU here: code comes from fake CUDA (sm90-like), stored where CI keeps its baselines
    assert snapshots.device_capability() is None or torch.cuda.is_available()
    if snapshots.device_capability() in (None, snapshots.BASELINE_CAPABILITY):
        assert snapshots.snapshot_version_dirname() == VERSION


@pytest.mark.usefixtures("sm80")
def test_another_capability_has_its_own_folder(tmp_path: Path) -> None:
    assert snapshots.snapshot_version_dirname() == f"{VERSION}-sm80"
    location = tmp_path / "__snapshots__" / f"{VERSION}-sm80" / "test_m" / "test_x.py"
    assert in_version_folder(location)
    assert f"({VERSION}-sm80)" in triton_header()


@pytest.mark.usefixtures("sm80")
def test_update_on_another_capability_is_refused_with_the_way_out() -> None:
    refusal = snapshots.device_update_refusal("sm80", environ={})
    assert refusal is not None
    assert "--snapshot-update on a sm80 GPU" in refusal
    assert "Update on a CPU machine or an sm90 GPU" in refusal
    assert "MAGI_SNAPSHOT_DEVICE=sm80" in refusal and f"{VERSION}-sm80" in refusal
    assert snapshots.device_update_refusal("sm80", environ={"MAGI_SNAPSHOT_DEVICE": "sm80"}) is None
    assert snapshots.device_update_refusal("sm80", environ={"MAGI_SNAPSHOT_DEVICE": "sm90"})
    assert snapshots.device_update_refusal(None, environ={}) is None


@pytest.mark.usefixtures("sm80")
def test_device_folders_in_a_project_update_refused_opt_in_and_skip(
    project: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> None:
    project.makepyfile(test_gen=STRING_TESTS.format(code=CODE))
    # no snapshots for this device yet: the tests skip, saying why, instead of failing
    result = _run(project, "-rs")
    result.assert_outcomes(skipped=5)
    result.stdout.fnmatch_lines(["*this sm80 GPU generates other code and has no snapshots*"])

    # CI's baselines exist; an sm80 machine must not overwrite them
    monkeypatch.setattr(snapshots, "device_capability", lambda: None)
    _run(project, "--snapshot-update").assert_outcomes(passed=5)
    baseline = _files(project.path)
    assert all(f.startswith(f"{VERSION}/") for f in baseline)
    monkeypatch.setattr(snapshots, "device_capability", lambda: (8, 0))
    result = _run(project, "--snapshot-update")
    assert result.ret == pytest.ExitCode.USAGE_ERROR
    result.stderr.fnmatch_lines(["*--snapshot-update on a sm80 GPU*set MAGI_SNAPSHOT_DEVICE=sm80*"])
    assert _files(project.path) == baseline

    # opting in writes this device's own folder, beside the baseline, and leaves it alone
    monkeypatch.setenv(snapshots.DEVICE_ENV, "sm80")
    _run(project, "--snapshot-update").assert_outcomes(passed=5)
    files = _files(project.path)
    assert [f for f in files if f.startswith(f"{VERSION}/")] == baseline
    assert len([f for f in files if f.startswith(f"{VERSION}-sm80/test_gen/")]) == 6
    monkeypatch.delenv(snapshots.DEVICE_ENV)
    result = _run(project)
    result.assert_outcomes(passed=5)
    assert "unused" not in result.stdout.str()

    # back on the baseline (CPU, fake CUDA): the sm80 folder is not reported or touched
    monkeypatch.setattr(snapshots, "device_capability", lambda: None)
    for args in ((), ("--snapshot-update",)):
        result = _run(project, *args)
        result.assert_outcomes(passed=5)
        assert "unused" not in result.stdout.str()
    assert _files(project.path) == files
