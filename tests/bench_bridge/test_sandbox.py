"""Child processes of kgen run with limits: a wall clock, memory, and no network where the OS allows."""
from __future__ import annotations

import socket
import sys

import pytest

from bench_bridge import sandbox
from bench_bridge.sim.runner import run

needs_sandbox = pytest.mark.skipif(sandbox.opted_out() or sandbox.probe() is not None,
                                   reason=f"the sandbox is turned off ({sandbox.OPT_OUT_ENV})" if sandbox.opted_out()
                                   else f"this machine cannot sandbox: {sandbox.probe()}")


@needs_sandbox
def test_child_has_no_network():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(1)
    port = srv.getsockname()[1]
    code = f"import socket\ntry:\n    socket.create_connection(('127.0.0.1', {port}), timeout=2)\n    print('connected')\nexcept OSError as e:\n    print('refused', e)\n"
    r = run(sys.executable, ["-c", code], timeout=30)
    srv.close()
    assert "refused" in r.stdout and "connected" not in r.stdout


def test_hang_becomes_a_timeout_diagnostic():
    r = run(sys.executable, ["-c", "import time; time.sleep(60)"], timeout=1.5)
    assert r.timed_out and not r.ok
    assert r.diagnostics[-1].code == "timeout"


def test_memory_limit_stops_a_runaway_child():
    r = run(sys.executable, ["-c", "x = bytearray(3 * 1024**3); print('allocated')"], timeout=60, memory_mb=1024)
    assert "allocated" not in r.stdout and not r.ok


def test_a_symlinked_interpreter_runs_as_itself(tmp_path):
    # a venv's python is a symlink to the base interpreter: the reference worker must run as the venv's
    # python (its packages), so the runner must not resolve the link
    link = tmp_path / "venv-python"
    link.symlink_to(sys.executable)
    r = run(link, ["-c", "import sys; print(sys.executable)"], timeout=30)
    assert r.ok, r.stderr
    assert r.stdout.strip() == str(link)


def test_the_reference_worker_runs_in_this_interpreters_environment(tmp_path):
    # a python created as `python -m venv` sees the venv's site-packages only when started through its
    # own path; kgen starts the worker with sys.executable, which must stay the path it was given
    import subprocess
    venv = tmp_path / "v"
    subprocess.run([sys.executable, "-m", "venv", "--without-pip", str(venv)], check=True, timeout=120)
    py = venv / "bin" / "python"
    r = run(py, ["-c", "import sys; print(sys.prefix)"], timeout=30)
    assert r.ok, r.stderr
    assert r.stdout.strip() == str(venv)


# ---- hostile programs: every rule of bench_bridge.sandbox, proved on real children -------------------

import json  # noqa: E402
import os  # noqa: E402
import shutil  # noqa: E402
import subprocess  # noqa: E402
import tempfile  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
import uuid  # noqa: E402
from pathlib import Path  # noqa: E402

from bench_bridge.sim import build  # noqa: E402

ROOT = Path(__file__).resolve().parents[2]
ADD = ROOT / "examples" / "add" / "add.asc"
TASKS = ROOT / "tests" / "data" / "tasks"

HOSTILE_MAIN = r'''
#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <unistd.h>
#include <cstdlib>
#include <cstring>

static const char* try_write(const char* path) {
    FILE* f = std::fopen(path, "w");
    if (!f) return "blocked";
    std::fputs("pwned\n", f);
    std::fclose(f);
    return "WROTE";
}

static const char* try_read(const char* path) {
    FILE* f = std::fopen(path, "r");
    if (!f) return "blocked";
    char buf[64] = {0};
    size_t n = std::fread(buf, 1, sizeof buf - 1, f);
    std::fclose(f);
    return n ? "READ" : "empty";
}

static const char* try_connect(int port) {
    int s = socket(AF_INET, SOCK_STREAM, 0);
    if (s < 0) return "blocked";
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_port = htons(port);
    inet_pton(AF_INET, "127.0.0.1", &a.sin_addr);
    int rc = connect(s, reinterpret_cast<sockaddr*>(&a), sizeof a);
    close(s);
    return rc == 0 ? "CONNECTED" : "blocked";
}

static const char* own_work() {   // legitimate: write an output into the work folder, read it back
    FILE* f = std::fopen("result.txt", "w");
    if (!f) return "cannot-write";
    std::fputs("42\n", f);
    std::fclose(f);
    return std::strcmp(try_read("result.txt"), "READ") == 0 ? "ok" : "cannot-read";
}

int main() {
    int rc = add_main();
    std::printf("home-write=%s tmp-write=%s home-read=%s socket=%s spawn=%s work=%s\n",
                try_write(HOME_FILE), try_write(TMP_FILE), try_read(BASHRC), try_connect(PORT),
                std::system("true") == 0 ? "ran" : "refused", own_work());
    std::printf("%s\n", rc == 0 ? "PASS" : "FAIL");
    return rc;
}
'''


@pytest.fixture
def home(tmp_path, monkeypatch):
    """A throw-away $HOME with a .bashrc: nothing real is touched."""
    h = tmp_path / "home"
    h.mkdir()
    (h / ".bashrc").write_text("export SECRET=do-not-read\n")
    monkeypatch.setenv("HOME", str(h))
    return h


def _listener():
    srv = socket.socket()
    srv.bind(("127.0.0.1", 0))
    srv.listen(4)
    return srv


def _hostile_program(tmp_path: Path, home: Path, port: int) -> tuple[Path, Path]:
    """add.asc (its kernel and self-check) with a host main that also pokes at the machine."""
    prog = tmp_path / "prog"
    prog.mkdir()
    outside = Path(f"/tmp/kgen-hostile-{uuid.uuid4().hex}.txt")
    src = ADD.read_text().replace("int main() {", "static int add_main() {")
    defs = (f'#define HOME_FILE "{home}/pwned.txt"\n#define TMP_FILE "{outside}"\n'
            f'#define BASHRC "{home}/.bashrc"\n#define PORT {port}\n')
    path = prog / "hostile.asc"
    path.write_text(src + defs + HOSTILE_MAIN)
    return path, outside


def _probes(stdout: str) -> dict[str, str]:
    line = next(ln for ln in stdout.splitlines() if ln.startswith("home-write="))
    return dict(kv.split("=", 1) for kv in line.split())


@needs_sandbox
def test_a_hostile_launch_program_is_confined_and_its_own_work_succeeds(tmp_path, home):
    srv = _listener()
    path, outside = _hostile_program(tmp_path, home, srv.getsockname()[1])
    try:
        res = build([path])
        assert res.ok, "\n".join(d.format() for d in res.diagnostics)
        work = tmp_path / "work"
        work.mkdir()
        r = run(res.binary, cwd=work, timeout=120, reads=[path.parent])
    finally:
        srv.close()
    probes = _probes(r.stdout)
    assert probes["home-write"] == "blocked" and not (home / "pwned.txt").exists()
    assert probes["tmp-write"] == "blocked" and not outside.exists()
    assert probes["home-read"] == "blocked"
    assert probes["socket"] == "blocked"
    assert probes["work"] == "ok" and (work / "result.txt").read_text() == "42\n"   # its own folder: writable
    assert r.ok and r.stdout.strip().splitlines()[-1] == "PASS"                    # the kernel's compute: fine
    # spawning a process inside the sandbox is allowed (the emulator runs addr2line for located
    # diagnostics); whatever it starts is confined the same way and counted by the process limit
    assert probes["spawn"] == "ran"


@needs_sandbox
def test_kgen_bench_of_a_hostile_program_reports_its_verdict_and_leaves_nothing(tmp_path, home):
    srv = _listener()
    path, outside = _hostile_program(tmp_path, home, srv.getsockname()[1])
    try:
        r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--json"], capture_output=True,
                           text=True, cwd=ROOT, timeout=600)
    finally:
        srv.close()
    rep = json.loads(r.stdout)
    assert r.returncode == 0 and rep["correct"] and rep["cases"][0]["status"] == "pass", r.stderr
    assert not (home / "pwned.txt").exists() and not outside.exists()
    assert not list(path.parent.glob("result.txt"))     # its outputs went to its own work folder, not the source's


FORK_BOMB = r'''
#include <unistd.h>
#include <cstdio>
int main() {
    std::printf("forking\n");
    std::fflush(stdout);
    for (;;) fork();
}
'''


def _procs_of(binary: Path) -> int:
    n = 0
    for d in Path("/proc").iterdir():
        try:
            if d.name.isdigit() and os.readlink(d / "exe") == str(binary):
                n += 1
        except OSError:
            continue
    return n


@needs_sandbox
def test_a_fork_bomb_dies_alone_with_a_clear_verdict(tmp_path):
    src = tmp_path / "bomb.asc"
    src.write_text(FORK_BOMB)
    res = build([src])
    assert res.ok
    out: dict = {}
    t = threading.Thread(target=lambda: out.update(r=run(res.binary, cwd=tmp_path, timeout=4)))
    t0 = time.monotonic()
    t.start()
    time.sleep(2)
    # meanwhile the host still starts processes at once
    assert subprocess.run(["true"], timeout=10).returncode == 0
    t.join(60)
    assert not t.is_alive() and time.monotonic() - t0 < 40
    r = out["r"]
    assert not r.ok and r.timed_out
    assert {d.code for d in r.diagnostics} & {"timeout", "process-limit"}
    if os.geteuid() == 0:   # the pids cgroup says it was the process limit
        assert any(d.code == "process-limit" for d in r.diagnostics), [d.format() for d in r.diagnostics]
    time.sleep(0.5)
    assert _procs_of(res.binary) == 0   # the whole sandbox is gone


# ---- the reference worker and the op host code are confined the same way ---------------------------

def _spec_task(tmp_path: Path) -> Path:
    """The scaled_add spec and its project, copied so the test can make them hostile."""
    task = tmp_path / "task"
    shutil.copytree(TASKS / "spec_scaled_add", task)
    shutil.copytree(TASKS / "npukb_scaled_add" / "answer" / "0", tmp_path / "project")
    spec = task / "kgen-task.toml"
    spec.write_text(spec.read_text().replace('project = "../npukb_scaled_add/answer/0"', 'project = "../project"'))
    return task


def _bench_json(path: Path) -> tuple[int, dict, str]:
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(path), "--json"], capture_output=True, text=True,
                       cwd=ROOT, timeout=900)
    return r.returncode, (json.loads(r.stdout) if r.stdout.strip().startswith("{") else {}), r.stderr


@needs_sandbox
def test_the_reference_workers_module_code_cannot_write_home(tmp_path, home):
    task = _spec_task(tmp_path)
    ref = task / "reference.py"
    ref.write_text("import os as _os\n"
                   "try:\n"
                   f"    open({str(home / 'pwned-by-reference.txt')!r}, 'w').write('x')\n"
                   "except OSError:\n"
                   "    pass\n"
                   f"assert not _os.path.exists({str(home / '.bashrc')!r}), 'the reference saw $HOME'\n"
                   + ref.read_text())
    rc, rep, err = _bench_json(task)
    assert not (home / "pwned-by-reference.txt").exists()
    assert rc == 0 and rep["correct"], err + json.dumps(rep)[:2000]   # the reference's real work still runs


@needs_sandbox
def test_host_tiling_code_cannot_touch_home(tmp_path, home):
    task = _spec_task(tmp_path)
    host = next((tmp_path / "project" / "op_host").glob("*.cpp"))
    text = host.read_text()
    probe = (f'    if (FILE* f = std::fopen("{home}/pwned-by-tiling.txt", "w")) {{ std::fclose(f); }}\n'
             f'    if (FILE* f = std::fopen("{home}/.bashrc", "r")) {{ std::fclose(f); return ge::GRAPH_FAILED; }}\n')
    head = "static ge::graphStatus TilingFunc(gert::TilingContext* context) {\n"
    assert head in text
    host.write_text("#include <cstdio>\n" + text.replace(head, head + probe))
    rc, rep, err = _bench_json(task)
    assert not (home / "pwned-by-tiling.txt").exists()
    assert rc == 0 and rep["correct"], err + json.dumps(rep)[:2000]   # read blocked too: the tiling did not fail


# ---- honest verdicts ----------------------------------------------------------------------------

SILENT = r'''
#include <cstdio>
int main() { std::printf("hello from a program that checks nothing\n"); return 0; }
'''


@needs_sandbox
def test_a_program_that_verifies_nothing_is_unverified_never_correct(tmp_path):
    src = tmp_path / "silent.asc"
    src.write_text(SILENT)
    rc, rep, err = _bench_json(src)
    assert rc == 1, err
    assert rep["correct"] is False and rep["cases"][0]["status"] == "unverified"
    assert "nothing verified" in rep["cases"][0]["message"]
    r = subprocess.run([sys.executable, "-m", "assistant.cli", "bench", str(src)], capture_output=True, text=True,
                       cwd=ROOT, timeout=600)
    assert "correct: UNVERIFIED (ran, nothing verified)" in r.stdout and "CORRECT (" not in r.stdout


def test_a_program_verdict_is_what_it_prints():
    from bench_bridge.verify import program_verdict

    assert program_verdict(0, "max err 0 -> PASS\n") == "pass"
    assert program_verdict(0, "test pass!\n") == "pass"
    assert program_verdict(0, "case 1 FAIL\nPASS\n") == "fail"
    assert program_verdict(1, "PASS\n") == "fail"
    assert program_verdict(0, "done, passes=3\n") == "unverified"


# ---- where the platform cannot sandbox ------------------------------------------------------------

def _path_without_bwrap(tmp_path: Path) -> str:
    """A PATH with every program of this one but bwrap: a machine without bubblewrap."""
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    for d in os.environ["PATH"].split(os.pathsep):
        if not os.path.isdir(d):
            continue
        for name in os.listdir(d):
            target = Path(d) / name
            if name != "bwrap" and not (bin_dir / name).exists() and os.access(target, os.X_OK):
                (bin_dir / name).symlink_to(target)
    return str(bin_dir)


def test_without_a_sandbox_kgen_refuses_in_one_line_unless_told(tmp_path):
    src = tmp_path / "silent.asc"
    src.write_text(SILENT)
    env = {k: v for k, v in os.environ.items() if k != "KGEN_NO_SANDBOX"}
    env["PATH"] = _path_without_bwrap(tmp_path)
    cmd = [sys.executable, "-m", "assistant.cli", "sim", "run", str(src)]
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=ROOT, env=env, timeout=600)
    assert r.returncode == 2
    assert r.stderr.strip().splitlines() == [r.stderr.strip()] and "Traceback" not in r.stderr
    assert "cannot sandbox" in r.stderr and "--no-sandbox" in r.stderr and "bwrap" in r.stderr
    cmd.insert(-1, "--no-sandbox")   # before FILE: what follows the files is the program's own arguments
    r = subprocess.run(cmd, capture_output=True, text=True, cwd=tmp_path, env=env, timeout=600)
    assert r.returncode == 0 and "hello from" in r.stdout, r.stderr
    assert r.stderr.count("the sandbox is off") == 1


@needs_sandbox
def test_a_sandboxed_crash_is_reported_as_the_signal_that_killed_it():
    """bubblewrap exits 128 + N for a child killed by signal N; the run still says which signal it was."""
    r = run(sys.executable, ["-c", "import os, signal; os.kill(os.getpid(), signal.SIGSEGV)"], timeout=30)
    assert r.returncode == -11 and not r.ok
    assert any(d.code == "killed" and "SIGSEGV" in d.message for d in r.diagnostics), r.diagnostics
