"""A task's Python file is loaded as if started on its own: a module that parses the command line at import
time (NPUKernelBench's ``framework`` package does) sees its own path only, not kgen's arguments, in the
drafter's process as in the reference worker's; kgen's command line is restored afterwards."""
import sys

from bench_bridge.tasks.pymodule import load_module


def test_import_time_argument_parsing_sees_no_kgen_arguments(tmp_path, monkeypatch):
    (tmp_path / "helper_args.py").write_text(
        "import argparse\n"
        "p = argparse.ArgumentParser()\n"
        "p.add_argument('-config', default='base')\n"
        "ARGS = p.parse_args()\n")
    ref = tmp_path / "module.py"
    ref.write_text("import sys\nimport helper_args\nSEEN = list(sys.argv)\nCONFIG = helper_args.ARGS.config\n")
    monkeypatch.setattr(sys, "argv", ["kgen", "generate", str(tmp_path), "--offline", "-o", "out"])
    mod = load_module("kgen_task_module_argv", ref)
    assert mod.SEEN == [str(ref)] and mod.CONFIG == "base"
    assert sys.argv == ["kgen", "generate", str(tmp_path), "--offline", "-o", "out"]
    assert str(tmp_path) not in sys.path     # the folder was importable only while the module ran
