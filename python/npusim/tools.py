"""Finding and running the two programs: npucc and npusim.

Lookup order for each program: $NPUSIM_BUILD/<prog> (a build tree), then
the PATH.  Targets given by name are resolved the way npusim does it:
$NPU_TARGET_PATH, then the `targets/` folder next to this package (the
source tree's `targets/` for python/npusim, and `$(pkgdatadir)/targets` for
the installed `$(pkgdatadir)/python/npusim`).
"""

import hashlib
import os
import re
import shutil
import subprocess


class ToolError(RuntimeError):
    """npucc or npusim failed, or could not be found."""

    def __init__(self, msg, stderr="", status=None):
        RuntimeError.__init__(self, msg)
        self.stderr = stderr
        self.status = status


def find(prog):
    """The path of npucc or npusim, or ToolError saying where it looked."""
    build = os.environ.get("NPUSIM_BUILD")
    if build:
        p = os.path.join(build, prog)
        if os.access(p, os.X_OK):
            return p
    p = shutil.which(prog)
    if p:
        return p
    raise ToolError("cannot find '%s': set NPUSIM_BUILD to a build folder "
                    "or put it on PATH" % prog)


def run(argv, timeout=None):
    """Runs a command; returns (status, stdout, stderr) as text."""
    p = subprocess.run(argv, stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                       timeout=timeout)
    return (p.returncode, p.stdout.decode("utf-8", "replace"),
            p.stderr.decode("utf-8", "replace"))


_versions = {}


def version(prog):
    """`prog --version`'s first line (cached per path)."""
    path = find(prog)
    if path not in _versions:
        st, out, err = run([path, "--version"])
        _versions[path] = (out or err).strip().splitlines()[0] if (out or err).strip() else "unknown"
    return _versions[path]


_known = {}


def known_ops():
    """The FX targets npucc knows (`npucc --list-ops`, cached per path),
    or None when this npucc cannot say: every node is then left to it."""
    path = find("npucc")
    if path not in _known:
        st, out, err = run([path, "--list-ops"])
        ops = set(out.split()) if st == 0 else set()
        _known[path] = ops if "aten.add.Tensor" in ops else None
    return _known[path]


def target_file(target):
    """The file a --target value names (a path, or a name looked up as
    NAME.ini), or None when it cannot be found here."""
    if not target:
        return None
    if os.sep in target or target.endswith(".ini"):
        return target if os.path.isfile(target) else None
    dirs = [d for d in os.environ.get("NPU_TARGET_PATH", "").split(os.pathsep) if d]
    here = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
    dirs.append(os.path.join(here, "targets"))
    for d in dirs:
        p = os.path.join(d, target + ".ini")
        if os.path.isfile(p):
            return p
    return None


def target_hash(target):
    """sha256 of the target file's bytes; of the name when the file is
    not found (npusim will then resolve it, or fail)."""
    p = target_file(target)
    h = hashlib.sha256()
    if p:
        with open(p, "rb") as f:
            h.update(f.read())
    else:
        h.update(("name:%s" % (target or "")).encode())
    return h.hexdigest()


_CYCLES = re.compile(r": (\d+) cycles, ")
_HOSTCALLS = re.compile(r"host calls: (\d+)")


def parse_summary(text):
    """(cycles, host calls) from npusim run's summary (docs/cli.md)."""
    m = _CYCLES.search(text)
    h = _HOSTCALLS.search(text)
    return (int(m.group(1)) if m else None, int(h.group(1)) if h else None)
