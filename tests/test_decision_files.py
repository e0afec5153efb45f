"""Decision files (`magi_passes.compile.decision_files`): export, import, `show`, the bundles that
`MAGI_DECISIONS_FILE` names, and the command line. Decisions are built directly; nothing compiles.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
import warnings
from pathlib import Path

import pytest
import torch

from magi_passes.compile import decision_files
from magi_passes.compile.decision_files import (
    CACHE_ENV,
    FILE_SCHEMA,
    FILES_ENV,
    Decision,
    DecisionCache,
    DecisionCacheWarning,
    export_decisions,
    import_decisions,
    read_decision_file,
)
from magi_passes.decisions import main

KEYS = ("a" * 64, "b" * 64, "c" * 64)


def _decision(key: str, choice: str = "magi", magi_ms: float = 1.2) -> Decision:
    return Decision(
        choice,
        "measured",
        "timed 9 interleaved rounds",
        magi_ms=magi_ms,
        plain_ms=1.5,
        rounds=9,
        key=key,
        passes=("ConvChannelsLastPass",),
    )


def _cache(folder: Path, *keys: str) -> DecisionCache:
    cache = DecisionCache(folder)
    for i, key in enumerate(keys):
        cache.store(_decision(key, "magi" if i % 2 == 0 else "plain", 1.0 + i))
    return cache


def _bundle(tmp_path: Path, *keys: str) -> Path:
    """A decision file holding `keys`, exported from a cache folder of its own."""
    path = tmp_path / "team.json"
    export_decisions(path, _cache(tmp_path / "measured", *keys))
    return path


def _edit(path: Path, change) -> None:
    data = json.loads(path.read_text())
    change(data)
    path.write_text(json.dumps(data))


# --------------------------------------------------------------------------- export and import
def test_export_then_import_into_an_empty_folder_gives_equal_decisions(tmp_path):
    source = _cache(tmp_path / "measured", KEYS[1], KEYS[0])
    bundle = export_decisions(tmp_path / "out" / "team.json", source)
    data = json.loads((tmp_path / "out" / "team.json").read_text())
    assert data["schema"] == FILE_SCHEMA and data["torch"] == str(torch.__version__)
    gpus = range(torch.cuda.device_count()) if torch.cuda.is_available() else ()
    assert data["devices"] == [torch.cuda.get_device_name(i) for i in gpus]
    assert data["created"].endswith("+00:00")  # UTC
    assert list(data["decisions"]) == sorted(KEYS[:2])  # deterministic order
    assert "recorded_in" not in data["decisions"][KEYS[0]]
    assert list(bundle.decisions) == sorted(KEYS[:2]) and bundle.skipped == ()
    assert not list((tmp_path / "out").glob(".tmp-*"))  # written atomically

    target = DecisionCache(tmp_path / "empty")
    result = import_decisions(tmp_path / "out" / "team.json", target)
    assert (result.imported, result.skipped, result.reasons) == (2, 0, ())
    assert target.keys() == sorted(KEYS[:2])
    for key in KEYS[:2]:
        assert target.read(key) == source.read(key)


def test_export_leaves_out_an_unreadable_cache_file_and_names_it(tmp_path):
    cache = _cache(tmp_path / "measured", KEYS[0])
    (tmp_path / "measured" / f"{KEYS[1]}.json").write_text("{not json")
    with pytest.warns(DecisionCacheWarning, match=rf"{KEYS[1]}\.json left out of .*team\.json"):
        bundle = export_decisions(tmp_path / "team.json", cache)
    assert list(bundle.decisions) == [KEYS[0]]
    assert list(json.loads((tmp_path / "team.json").read_text())["decisions"]) == [KEYS[0]]


def test_export_without_a_cache_folder_names_it(tmp_path):
    with pytest.raises(FileNotFoundError, match=r"no decision cache folder at '.*nowhere'; fix"):
        export_decisions(tmp_path / "team.json", DecisionCache(tmp_path / "nowhere"))
    assert not (tmp_path / "team.json").exists()


def test_a_stale_bundle_warns_and_imports_nothing(tmp_path):
    path = _bundle(tmp_path, *KEYS[:2])
    _edit(path, lambda d: d.update(torch="2.0.0"))
    target = DecisionCache(tmp_path / "empty")
    with pytest.warns(DecisionCacheWarning) as caught:
        result = import_decisions(path, target)
    (message,) = [str(w.message) for w in caught]
    assert str(path) in message and "'2.0.0'" in message
    assert repr(str(torch.__version__)) in message and "re-export it" in message
    assert (result.imported, result.skipped, result.refused) == (0, 2, True)
    assert target.keys() == []


@pytest.mark.parametrize(
    ("content", "problem"),
    [
        ("{not json", "is not JSON"),
        ("[1, 2]", "expected a JSON object, got list"),
        (json.dumps({"schema": "magi-decisions/9"}), "schema 'magi-decisions/9', expected"),
        (json.dumps({"schema": FILE_SCHEMA, "torch": "x"}), "missing fields"),
    ],
)
def test_a_corrupted_bundle_warns_naming_the_file(tmp_path, content, problem):
    path = tmp_path / "team.json"
    path.write_text(content)
    with pytest.warns(DecisionCacheWarning, match=problem) as caught:
        result = import_decisions(path, DecisionCache(tmp_path / "empty"))
    assert str(path) in str(caught[0].message)
    assert result.imported == 0 and result.refused and str(path) in result.reasons[0]
    assert not (tmp_path / "empty").exists()


def _drop_timings(entry: dict) -> None:
    entry["magi_ms"] = None


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (lambda ds: ds.update({"not-a-key": ds.pop(KEYS[1])}), "not a sha256 hex digest"),
        (lambda ds: ds[KEYS[1]].update(key=KEYS[2]), f"holds the decision of key '{KEYS[2]}'"),
        (lambda ds: _drop_timings(ds[KEYS[1]]), "it holds no timings"),
        (lambda ds: ds[KEYS[1]].update(speed=3), r"unknown decision fields \['speed'\]"),
        (lambda ds: ds[KEYS[1]].update(choice="fast"), "choice must be one of"),
    ],
)
def test_a_bad_entry_is_skipped_and_named_while_good_ones_import(tmp_path, spoil, problem):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    _edit(path, lambda d: spoil(d["decisions"]))
    target = DecisionCache(tmp_path / "empty")
    with pytest.warns(DecisionCacheWarning, match=problem) as caught:
        result = import_decisions(path, target)
    (message,) = [str(w.message) for w in caught]
    assert str(path) in message and "entry '" in message and "skipped" in message
    assert (result.imported, result.skipped, result.refused) == (1, 1, False)
    assert target.keys() == [KEYS[0]]


# --------------------------------------------------------------------------- $MAGI_DECISIONS_FILE
def test_the_file_variable_serves_a_key_missing_from_the_folder(tmp_path):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    before = os.environ.get(FILES_ENV)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(FILES_ENV, str(path))
        folder = _cache(tmp_path / "mine")  # empty
        found = folder.load(KEYS[0])
        assert found is not None
        assert found.source == "cached" and found.recorded_in == str(path.absolute())
        assert found.choice == "magi" and found.magi_ms == 1.0 and found.key == KEYS[0]
        assert "recorded in" in found.reason and str(path) in found.describe()
        assert folder.load(KEYS[2]) is None  # in neither
        mine = Decision("plain", "measured", "local", magi_ms=2.0, plain_ms=1.0, key=KEYS[1])
        folder.store(mine)
        assert folder.load(KEYS[1]) == mine  # the folder's own file comes first
    assert os.environ.get(FILES_ENV) == before


def test_several_files_are_searched_in_order(tmp_path, monkeypatch):
    first = _bundle(tmp_path / "one", KEYS[0])
    second = _bundle(tmp_path / "two", KEYS[1])
    monkeypatch.setenv(FILES_ENV, os.pathsep.join([str(first), str(second)]))
    cache = DecisionCache(tmp_path / "empty")
    assert [cache.load(k).recorded_in for k in KEYS[:2]] == [  # type: ignore[union-attr]
        str(first.absolute()),
        str(second.absolute()),
    ]


def test_a_file_is_read_once_per_version(tmp_path, monkeypatch):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    reads: list[str] = []
    real = decision_files.read_decision_file

    def counting(p):
        reads.append(str(p))
        return real(p)

    monkeypatch.setattr(decision_files, "read_decision_file", counting)
    monkeypatch.setenv(FILES_ENV, str(path))
    cache = DecisionCache(tmp_path / "empty")
    for key in (*KEYS, *KEYS):
        cache.load(key)
    assert len(reads) == 1
    stat = path.stat()
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # a new version
    assert cache.load(KEYS[0]) is not None
    assert len(reads) == 2


@pytest.mark.parametrize("bad", ["not json", "stale", "missing", "bad entry"])
def test_a_bad_file_warns_once_and_the_graphs_are_measured_again(tmp_path, bad):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    if bad == "not json":
        path.write_text("{")
    elif bad == "stale":
        _edit(path, lambda d: d.update(torch="2.0.0"))
    elif bad == "missing":
        path = tmp_path / "nowhere.json"
    else:
        _edit(path, lambda d: d["decisions"][KEYS[1]].update(key=KEYS[2]))
    before = os.environ.get(FILES_ENV)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(FILES_ENV, str(path))
        cache = DecisionCache(tmp_path / "empty")
        with pytest.warns(DecisionCacheWarning) as caught:
            found = [cache.load(k) for k in (*KEYS, *KEYS)]
    assert os.environ.get(FILES_ENV) == before
    (message,) = [str(w.message) for w in caught]  # one warning, not one per graph
    assert str(path) in message and "measured again" in message
    if bad == "bad entry":  # the good entry still serves
        assert found[0] is not None and found[1] is None and found[3] is not None
    else:
        assert found == [None] * 6


def test_without_the_variable_a_missing_key_is_a_miss(tmp_path, monkeypatch):
    monkeypatch.delenv(FILES_ENV, raising=False)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert DecisionCache(tmp_path).load(KEYS[0]) is None


# --------------------------------------------------------------------------- the command line
def test_show_prints_a_row_per_decision(tmp_path, capsys):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out.splitlines()
    assert "2 decisions" in out[0] and str(torch.__version__) in out[0]
    assert out[1].split() == ["key", "choice", "plain", "ms", "magi", "ms", "passes"]
    assert out[2].split() == ["a" * 12, "magi", "1.500", "1.000", "ConvChannelsLastPass"]
    assert out[3].split() == ["b" * 12, "plain", "1.500", "2.000", "ConvChannelsLastPass"]


def test_the_command_line_exports_and_imports(tmp_path, capsys):
    _cache(tmp_path / "measured", KEYS[0], KEYS[1])
    path = tmp_path / "team.json"
    before = os.environ.get(CACHE_ENV)
    with pytest.MonkeyPatch.context() as mp:
        mp.setenv(CACHE_ENV, str(tmp_path / "measured"))  # the default folder
        assert main(["export", str(path)]) == 0
    assert os.environ.get(CACHE_ENV) == before
    assert "exported 2 decisions" in capsys.readouterr().out
    assert main(["import", str(path), "--cache-dir", str(tmp_path / "new")]) == 0
    assert "imported 2 decisions" in capsys.readouterr().out
    assert DecisionCache(tmp_path / "new").keys() == list(KEYS[:2])


def test_the_command_line_names_bad_input(tmp_path, capsys):
    missing = tmp_path / "missing.json"
    assert main(["import", str(missing)]) == 2
    assert f"no such file: {str(missing)!r}" in capsys.readouterr().err
    assert main(["show", str(missing)]) == 2
    assert repr(str(missing)) in capsys.readouterr().err
    garbled = tmp_path / "garbled.json"
    garbled.write_text("{")
    assert main(["show", str(garbled)]) == 2
    err = capsys.readouterr().err
    assert f"{garbled} is not JSON" in err
    assert err.rstrip().endswith(
        "or an artifacts file written by magi_passes.decisions.save_artifacts"
    )
    assert main(["export", str(garbled), "--cache-dir", str(tmp_path / "none")]) == 2
    assert "no decision cache folder at" in capsys.readouterr().err
    assert main(["frob", "x"]) == 2
    assert "invalid choice: 'frob'" in capsys.readouterr().err
    assert main([]) == 2


def test_the_command_line_says_what_it_left_out(tmp_path, capsys):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    _edit(path, lambda d: d["decisions"][KEYS[1]].update(key=KEYS[2]))
    assert main(["import", str(path), "--cache-dir", str(tmp_path / "new")]) == 1
    captured = capsys.readouterr()
    assert "imported 1 decisions" in captured.out and "(1 skipped)" in captured.out
    assert f"entry '{KEYS[1]}' skipped" in captured.err
    _edit(path, lambda d: d["decisions"][KEYS[0]].update(key=KEYS[2]))  # every entry bad
    assert main(["import", str(path), "--cache-dir", str(tmp_path / "none")]) == 1
    assert "imported 0 decisions" in capsys.readouterr().out
    _edit(path, lambda d: d.update(torch="2.0.0"))
    assert main(["import", str(path), "--cache-dir", str(tmp_path / "stale")]) == 2
    assert "exported with torch '2.0.0'" in capsys.readouterr().err
    assert not (tmp_path / "stale").exists()


def test_the_module_runs_as_a_command():
    proc = subprocess.run(
        [sys.executable, "-m", "magi_passes.decisions", "--help"],
        capture_output=True,
        text=True,
        check=False,
    )
    assert proc.returncode == 0, proc.stderr
    assert "export" in proc.stdout and "show" in proc.stdout and "exit codes" in proc.stdout


def test_a_decision_file_read_directly_lists_its_problems(tmp_path):
    path = _bundle(tmp_path, KEYS[0], KEYS[1])
    _edit(path, lambda d: d["decisions"][KEYS[0]].update(passes="ConvChannelsLastPass"))
    bundle = read_decision_file(path)
    assert list(bundle.decisions) == [KEYS[1]]
    (problem,) = bundle.skipped
    assert "passes must be a list of pass names" in problem and str(path) in problem


# --------------------------------------------------------------------------- artifacts files
class _Info:
    artifacts = {"inductor": ["k1", "k2"], "aot_autograd": ["k3"]}


@pytest.fixture
def fake_artifacts(monkeypatch):
    """torch's cache artifacts stood in for: what save returns, and the payloads loaded."""
    loaded: list[bytes] = []
    monkeypatch.setattr(torch.compiler, "save_cache_artifacts", lambda: (b"payload", _Info()))
    monkeypatch.setattr(
        torch.compiler, "load_cache_artifacts", lambda b: loaded.append(b) or _Info()
    )
    monkeypatch.setattr(decision_files, "_LOADED", set())
    monkeypatch.delenv(decision_files.ARTIFACTS_ENV, raising=False)
    return loaded


def test_saved_artifacts_read_back_with_their_header(tmp_path, fake_artifacts):
    path = tmp_path / "team.artifacts"
    header = decision_files.save_artifacts(path)
    assert header["artifacts"] == {"aot_autograd": 1, "inductor": 2}
    assert header["torch"] == str(torch.__version__)
    assert decision_files.read_artifacts(path) == (header, b"payload")


@pytest.mark.parametrize(
    ("spoil", "problem"),
    [
        (lambda d: b"not an artifacts file" + d, "does not start with"),
        (lambda d: d[:-1] + b"X", "cut or changed (digest differs)"),
        (
            lambda d: d.replace(str(torch.__version__).encode(), b"1.0.0"),
            "saved with torch '1.0.0'",
        ),
        (lambda d: d.replace(b'"devices": []', b'"devices": ["NVIDIA H200"]'), None),
    ],
)
def test_a_bad_or_stale_artifacts_file_is_refused_naming_why(
    tmp_path, fake_artifacts, monkeypatch, spoil, problem
):
    path = tmp_path / "team.artifacts"
    decision_files.save_artifacts(path)
    path.write_bytes(spoil(path.read_bytes()))
    if problem is None:  # saved on a GPU this machine lacks: refused only where it has GPUs
        assert decision_files.read_artifacts(path)[1] == b"payload"
        monkeypatch.setattr(decision_files, "_cuda_devices", lambda: ("NVIDIA H100 80GB HBM3",))
        problem = "was saved on ['NVIDIA H200'] and this machine has ['NVIDIA H100 80GB HBM3']"
    with pytest.raises(ValueError, match="fix: save it again") as caught:
        decision_files.read_artifacts(path)
    assert problem in str(caught.value) and str(path) in str(caught.value)


def test_the_artifacts_variable_loads_each_file_once_and_warns_on_a_bad_one(
    tmp_path, fake_artifacts, monkeypatch
):
    good, bad = tmp_path / "good.artifacts", tmp_path / "bad.artifacts"
    decision_files.save_artifacts(good)
    bad.write_bytes(b"junk")
    missing = tmp_path / "missing.artifacts"
    monkeypatch.setenv(
        decision_files.ARTIFACTS_ENV, os.pathsep.join(map(str, (bad, good, missing)))
    )
    with pytest.warns(decision_files.CompileArtifactsWarning) as said:
        assert decision_files.load_artifacts() == [str(good)]
    assert fake_artifacts == [b"payload"]
    text = " | ".join(str(w.message) for w in said)
    assert f"magi artifacts file {bad} is not one" in text
    assert f"magi artifacts file {missing} does not exist; fix: correct MAGI_ARTIFACTS_FILE" in text
    assert "its graphs compile as without it (the file is named in MAGI_ARTIFACTS_FILE)" in text
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert decision_files.load_artifacts() == []  # each version once: nothing new
    decision_files.save_artifacts(good)  # a new version of the file is loaded again
    os.utime(good, ns=(1, 1))
    assert decision_files.load_artifacts() == [str(good)] and len(fake_artifacts) == 2


def test_a_payload_torch_cannot_read_is_warned_about(tmp_path, fake_artifacts, monkeypatch):
    path = tmp_path / "team.artifacts"
    decision_files.save_artifacts(path)
    monkeypatch.setattr(torch.compiler, "load_cache_artifacts", lambda payload: None)
    monkeypatch.setenv(decision_files.ARTIFACTS_ENV, str(path))
    with pytest.warns(decision_files.CompileArtifactsWarning, match="torch could not read"):
        assert decision_files.load_artifacts() == []


def test_show_prints_an_artifacts_file_header_or_why_it_cannot_be_used(
    tmp_path, fake_artifacts, capsys
):
    path = tmp_path / "team.artifacts"
    decision_files.save_artifacts(path)
    assert main(["show", str(path)]) == 0
    out = capsys.readouterr().out
    assert f"{path}: compile artifacts (aot_autograd 1, inductor 2; 7 bytes), torch " in out
    assert "on no GPU" in out
    path.write_bytes(path.read_bytes() + b"more")
    assert main(["show", str(path)]) == 2
    assert "is cut or changed (digest differs)" in capsys.readouterr().err


def test_saving_artifacts_where_nothing_was_cached_says_so(tmp_path, monkeypatch):
    monkeypatch.setattr(torch.compiler, "save_cache_artifacts", lambda: None)
    with pytest.raises(ValueError, match="left nothing in torch's caches; fix: compile"):
        decision_files.save_artifacts(tmp_path / "none.artifacts")
    assert not (tmp_path / "none.artifacts").exists()


# a fresh process: compile a small conv model with magi (caches in argv[2]) and either save its
# artifacts to argv[3] or, with MAGI_ARTIFACTS_FILE set, say whether AOTAutograd's cache hit
_ARTIFACTS_ROUND_TRIP = """
import sys, torch
from torch._dynamo.utils import counters
from magi_passes import magi_compile
from magi_passes.decisions import save_artifacts
net = torch.nn.Sequential(torch.nn.Conv2d(3, 4, 3), torch.nn.SiLU()).eval()
compiled = magi_compile(net, form=None)
with torch.no_grad():
    compiled(torch.randn(1, 3, 8, 8))
if sys.argv[1] == "save":
    save_artifacts(sys.argv[2])
print(compiled.magi_backend.artifacts_loaded, dict(counters["aot_autograd"]))
"""


@pytest.mark.slow
def test_artifacts_saved_in_one_process_warm_a_fresh_one(tmp_path, monkeypatch):
    """The kept graph of a process with empty caches comes from the artifacts file: AOTAutograd's
    cache hits, where without the file it misses."""
    path = tmp_path / "team.artifacts"

    def run(side: str, caches: str, **env: str) -> str:
        done = subprocess.run(
            [sys.executable, "-c", _ARTIFACTS_ROUND_TRIP, side, str(path)],
            env={**os.environ, "TORCHINDUCTOR_CACHE_DIR": str(tmp_path / caches), **env},
            capture_output=True, text=True, timeout=600, check=False,
        )  # fmt: skip
        assert done.returncode == 0, done.stderr[-3000:]
        return done.stdout.strip().splitlines()[-1]

    monkeypatch.delenv(decision_files.ARTIFACTS_ENV, raising=False)
    assert "'autograd_cache_miss': 1" in run("save", "first")
    said = run("load", "second", MAGI_ARTIFACTS_FILE=str(path))
    assert said.startswith(f"['{path}']") and "'autograd_cache_hit': 1" in said
