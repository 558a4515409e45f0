"""Where the output goes: ``-o`` into files, links, devices and FIFOs, and
standard output when it is closed or its reader goes away early.

None of these tests touches the machine's own /dev nodes: on a writer that
replaces its target they would replace them.  Device nodes are made in the
test's folder (as root) and /dev/stdout is imitated by a link of our own.
"""
import os
import stat
import subprocess
import sys
import threading

import pytest

from conftest import write
from havhex import cli
from havhex.cli import output

CASES = "2\n2 2\n1 1\n1 2\n3 2\n1 1\n2 2\n"
OUTPUT = "Case #1: bridge in move 2\nCase #2: none\n"


def run(*args, cwd=None, umask=None, **options):
    """``python -m havhex ARGS``, from a shell-less subprocess."""
    return subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                          capture_output=True, cwd=cwd, umask=-1 if umask is None else umask,
                          env={**os.environ, "PYTHONDONTWRITEBYTECODE": "1"}, **options)


def ok(process):
    assert (process.returncode, process.stderr) == (0, b""), process.stderr.decode()
    assert process.stdout == b""


def listing(folder):
    return sorted(path.name for path in folder.iterdir())


@pytest.fixture
def case_file(tmp_path):
    return write(tmp_path, "ok.in", CASES)


needs_root = pytest.mark.skipif(os.geteuid() != 0, reason="needs root (mknod, chown)")


def make_null_device(path):
    """A character device like /dev/null (1, 3) at ``path``."""
    try:
        os.mknod(path, stat.S_IFCHR | 0o666, os.makedev(1, 3))
    except PermissionError:
        pytest.skip("this environment does not allow creating device nodes")


# ---------------------------------------------------------------------------
# The temporary file of -o (issue 16, item 1)
# ---------------------------------------------------------------------------

def test_planted_link_at_the_old_temporary_name_is_not_followed(tmp_path, case_file):
    # The attack of the issue, as written: the old temporary name was
    # .NAME.havhex-PID.tmp, and ``exec`` keeps the shell's PID.
    victim = write(tmp_path, "victim", "precious\n")
    script = 'ln -s victim .out.txt.havhex-$$.tmp; exec "$0" -m havhex havannah ok.in -o out.txt'
    process = subprocess.run(["bash", "-c", script, sys.executable], cwd=tmp_path,
                             capture_output=True)
    ok(process)
    assert victim.read_text() == "precious\n"
    out = tmp_path / "out.txt"
    assert not out.is_symlink() and out.read_text() == OUTPUT
    planted = [p for p in tmp_path.iterdir() if p.name.startswith(".out.txt.havhex-")]
    assert len(planted) == 1 and os.readlink(planted[0]) == "victim"


def test_planted_link_at_the_chosen_temporary_name_is_not_followed(tmp_path, case_file,
                                                                    monkeypatch, capsys):
    # Whatever name the writer picks, an entry already there is never opened:
    # here the first name it picks holds a link to a victim.
    victim = write(tmp_path, "victim", "precious\n")
    names = iter([".planted", ".fresh"])
    monkeypatch.setattr(output, "temporary_name", lambda name: next(names))
    os.symlink("victim", tmp_path / ".planted")
    assert cli.main(["havannah", str(case_file), "-o", str(tmp_path / "out.txt")]) == 0
    assert capsys.readouterr().err == ""
    assert victim.read_text() == "precious\n"
    assert (tmp_path / "out.txt").read_text() == OUTPUT
    assert listing(tmp_path) == [".planted", "ok.in", "out.txt", "victim"]


def test_temporary_names_are_not_predictable(tmp_path):
    names = {output.temporary_name("out.txt") for _ in range(50)}
    assert len(names) == 50
    assert all(name.startswith(".out.txt.") and str(os.getpid()) not in name for name in names)


# ---------------------------------------------------------------------------
# What -o replaces and what it writes into (issue 16, item 2)
# ---------------------------------------------------------------------------

@needs_root
def test_device_target_stays_a_device(tmp_path, case_file):
    null = tmp_path / "null"
    make_null_device(null)
    ok(run("havannah", case_file, "-o", null))
    assert stat.S_ISCHR(os.lstat(null).st_mode)
    assert os.lstat(null).st_rdev == os.makedev(1, 3)
    assert listing(tmp_path) == ["null", "ok.in"]


def test_link_to_a_device_stays_a_link(tmp_path, case_file):
    link = tmp_path / "sink"
    os.symlink(os.devnull, link)
    ok(run("havannah", case_file, "-o", link))
    assert os.readlink(link) == os.devnull
    assert stat.S_ISCHR(os.stat(link).st_mode)
    assert listing(tmp_path) == ["ok.in", "sink"]


def test_full_device_is_one_error_naming_the_path(tmp_path, case_file):
    if not os.path.exists("/dev/full"):
        pytest.skip("no /dev/full here")
    link = tmp_path / "full"
    os.symlink("/dev/full", link)
    process = run("havannah", case_file, "-o", link)
    assert process.returncode == 1
    assert process.stderr.decode() == (f"havhex: {link}: cannot write the output: "
                                       f"{os.strerror(28)}\n")
    assert os.readlink(link) == "/dev/full"


def read_fifo_in_background(fifo):
    """Start reading ``fifo`` whole in a subprocess (which waits for a writer)."""
    return subprocess.Popen(["cat", str(fifo)], stdout=subprocess.PIPE)


def fifo_text(reader, fifo):
    try:
        data, _ = reader.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        reader.kill()
        reader.communicate()
        data = None
    return data


def test_fifo_target_receives_the_output(tmp_path, case_file):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = read_fifo_in_background(fifo)
    process = run("havannah", case_file, case_file, "-o", fifo, timeout=60)
    ok(process)
    assert fifo_text(reader, fifo) == (OUTPUT * 2).encode()
    assert stat.S_ISFIFO(os.lstat(fifo).st_mode)
    assert listing(tmp_path) == ["fifo", "ok.in"]


def test_fifo_target_gets_nothing_when_an_input_is_bad(tmp_path, case_file):
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    reader = read_fifo_in_background(fifo)
    bad = write(tmp_path, "bad.in", "1\n2 2\n1 1\n1 1\n")
    process = run("havannah", case_file, bad, "-o", fifo, timeout=60)
    assert process.returncode == 1
    assert process.stderr.decode().startswith(f"havhex: {bad}:4: ")
    # The writer never opened the FIFO: open it ourselves so that ``cat`` ends.
    os.close(os.open(fifo, os.O_WRONLY | os.O_NONBLOCK))
    assert fifo_text(reader, fifo) == b""


def test_descriptor_target_is_written_as_it_is(tmp_path, case_file):
    # A link of our own to /proc/self/fd/1, like /dev/stdout: the output goes
    # into the open descriptor, here appended to a file opened for appending.
    if not os.path.isdir("/proc/self/fd"):
        pytest.skip("no /proc/self/fd here")
    link = tmp_path / "stdout"
    os.symlink("/proc/self/fd/1", link)
    log = write(tmp_path, "log", "earlier\n")
    with open(log, "ab") as appending:
        process = subprocess.run([sys.executable, "-m", "havhex", "havannah", str(case_file),
                                  "-o", str(link)], stdout=appending, stderr=subprocess.PIPE)
    assert (process.returncode, process.stderr) == (0, b"")
    assert log.read_text() == "earlier\n" + OUTPUT
    assert os.readlink(link) == "/proc/self/fd/1"
    # And into a pipe.
    process = run("havannah", case_file, "-o", link)
    assert (process.returncode, process.stdout, process.stderr) == (0, OUTPUT.encode(), b"")
    assert listing(tmp_path) == ["log", "ok.in", "stdout"]


def test_existing_file_keeps_its_mode(tmp_path, case_file):
    out = write(tmp_path, "out.txt", "old\n")
    out.chmod(0o600)
    ok(run("havannah", case_file, "-o", out, umask=0o022))
    assert out.read_text() == OUTPUT
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o600
    out.chmod(0o751)
    ok(run("havannah", case_file, "-o", out, umask=0o022))
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o751


@needs_root
def test_existing_file_keeps_its_owner(tmp_path, case_file):
    out = write(tmp_path, "out.txt", "old\n")
    os.chown(out, 4321, 4322)
    out.chmod(0o640)
    ok(run("havannah", case_file, "-o", out))
    info = os.stat(out)
    assert (info.st_uid, info.st_gid, stat.S_IMODE(info.st_mode)) == (4321, 4322, 0o640)
    assert out.read_text() == OUTPUT


@pytest.mark.parametrize("umask", [0o022, 0o027, 0o077])
def test_new_file_gets_the_mode_a_plain_open_gives(tmp_path, case_file, umask):
    out = tmp_path / "new.txt"
    ok(run("havannah", case_file, "-o", out, umask=umask))
    assert stat.S_IMODE(os.stat(out).st_mode) == 0o666 & ~umask
    assert out.read_text() == OUTPUT


def test_link_to_a_regular_file_stays_a_link(tmp_path, case_file):
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    real = write(elsewhere, "real.txt", "old\n")
    real.chmod(0o640)
    link = tmp_path / "out.txt"
    os.symlink(real, link)
    ok(run("havannah", case_file, "-o", link))
    assert os.readlink(link) == str(real)
    assert real.read_text() == OUTPUT
    assert stat.S_IMODE(os.stat(real).st_mode) == 0o640
    assert listing(tmp_path) == ["elsewhere", "ok.in", "out.txt"]
    assert listing(elsewhere) == ["real.txt"]


def test_relative_links_are_followed_hop_by_hop(tmp_path, case_file):
    (tmp_path / "a").mkdir()
    (tmp_path / "b").mkdir()
    real = write(tmp_path / "b", "real.txt", "old\n")
    os.symlink("../b/real.txt", tmp_path / "a" / "middle")
    os.symlink("a/middle", tmp_path / "out.txt")
    ok(run("havannah", case_file, "-o", "out.txt", cwd=tmp_path))
    assert real.read_text() == OUTPUT
    assert os.readlink(tmp_path / "out.txt") == "a/middle"
    assert listing(tmp_path / "a") == ["middle"] and listing(tmp_path / "b") == ["real.txt"]


@needs_root
def test_someone_elses_link_in_a_shared_folder_is_not_followed(tmp_path, case_file):
    # As the kernel refuses to (protected_symlinks): in a sticky folder that
    # anyone may write to, like /tmp, a link planted by another user.
    shared = tmp_path / "shared"
    shared.mkdir()
    shared.chmod(0o1777)
    victim = write(tmp_path, "victim", "precious\n")
    planted = shared / "out.txt"
    os.symlink(victim, planted)
    os.lchown(planted, 4321, 4321)
    process = run("havannah", case_file, "-o", planted)
    assert process.returncode == 1
    assert process.stderr.decode().startswith(f"havhex: {planted}: cannot write the output: ")
    assert victim.read_text() == "precious\n"
    assert listing(shared) == ["out.txt"]
    # The folder's owner's links, and our own, are followed.
    os.lchown(planted, 0, 0)
    ok(run("havannah", case_file, "-o", planted))
    assert victim.read_text() == OUTPUT


def test_dangling_link_creates_its_target(tmp_path, case_file):
    link = tmp_path / "out.txt"
    os.symlink("made.txt", link)
    ok(run("havannah", case_file, "-o", link))
    assert os.readlink(link) == "made.txt"
    assert (tmp_path / "made.txt").read_text() == OUTPUT


def test_error_names_the_users_path(tmp_path, case_file):
    out = tmp_path / "missing" / "out.txt"
    process = run("havannah", case_file, "-o", out)
    assert process.returncode == 1
    assert process.stderr.decode() == (f"havhex: {out}: cannot write the output: "
                                       f"{os.strerror(2)}\n")
    process = run("havannah", case_file, "-o", tmp_path)
    assert process.stderr.decode() == f"havhex: {tmp_path}: cannot write the output: it is a directory\n"


def test_nothing_is_left_when_writing_fails_midway(tmp_path, case_file, monkeypatch, capsys):
    # A failure after the first pieces (here an interrupt while the second
    # input is judged) leaves the old file whole and no temporary file.
    out = write(tmp_path, "out.txt", "old\n")

    def outputs():
        yield iter(["Case #1: none\n"])
        raise KeyboardInterrupt

    monkeypatch.setattr(cli, "_judge", lambda *args: outputs())
    assert cli.main(["havannah", "-o", str(out), str(case_file)]) == 130
    assert out.read_text() == "old\n"
    assert listing(tmp_path) == ["ok.in", "out.txt"]


# ---------------------------------------------------------------------------
# Standard output closed or broken (issue 16, item 9)
# ---------------------------------------------------------------------------

def many_cases(folder, count=100_000):
    """An input whose output is megabytes, far beyond a pipe's buffer, so that
    a reader leaving after one line really breaks the pipe."""
    return write(folder, "many.in", f"{count}\n" + "2 1\n1 1\n" * count)


def big_picture_input(folder):
    return write(folder, "big.in", "1\n40 1\n1 1\n")  # an SVG of some 400 kB


def commands(folder):
    many = many_cases(folder)
    return {
        "text": ["havannah", many],
        "json": ["havannah", "--format", "json", many],
        "hex": ["hex", write(folder, "hex.in", "50000\n" + "1\nR\n" * 50000)],
        "draw": ["draw", "havannah", big_picture_input(folder)],
    }


@pytest.mark.parametrize("mode", ["text", "json", "hex", "draw", "help"])
def test_closed_stdout_is_one_clear_line(tmp_path, mode):
    args = ["havannah", "--help"] if mode == "help" else commands(tmp_path)[mode]
    process = subprocess.run([sys.executable, "-m", "havhex", *map(str, args)],
                             stderr=subprocess.PIPE, preexec_fn=lambda: os.close(1))
    assert process.returncode == 1
    assert process.stderr.decode() == "havhex: cannot write the output: standard output is closed\n"


def read_one_line_and_leave(args):
    """Run the CLI with a reader that takes one line and closes the pipe, as
    ``| head -1`` does; returns (status, the line, stderr)."""
    process = subprocess.Popen([sys.executable, "-m", "havhex", *map(str, args)],
                               stdout=subprocess.PIPE, stderr=subprocess.PIPE)
    errors = []
    reading = threading.Thread(target=lambda: errors.append(process.stderr.read()))
    reading.start()
    line = process.stdout.readline()
    process.stdout.close()
    status = process.wait(timeout=120)
    reading.join()
    return status, line, errors[0]


def test_broken_pipe_is_quiet_and_the_same_in_every_mode(tmp_path):
    outcomes = {}
    for mode, args in commands(tmp_path).items():
        status, line, errors = read_one_line_and_leave(args)
        assert line, mode
        assert errors == b"", (mode, errors.decode())
        outcomes[mode] = status
    assert outcomes == {"text": 1, "json": 1, "hex": 1, "draw": 1}


def test_output_that_fits_is_written_whole(tmp_path):
    # The block-wise writer loses nothing when the reader stays.
    many = many_cases(tmp_path, 30_000)
    process = run("havannah", many)
    assert process.returncode == 0
    lines = process.stdout.decode().splitlines()
    assert lines == [f"Case #{n}: none" for n in range(1, 30_001)]
