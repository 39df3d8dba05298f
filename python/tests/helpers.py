"""Shared helpers of the frontend tests: temporary folders, the paths of
the source and build trees, fake npucc/npusim programs, and a small
interpreter of fxgraph JSON (so a test can check that the JSON alone, read
back, computes what the model computed)."""

import os
import shutil
import sys
import tempfile
import textwrap

import torch

SRCDIR = os.environ.get("srcdir") or os.path.join(
    os.path.dirname(os.path.abspath(__file__)), "..", "..")
BUILD = os.environ.get("NPUSIM_BUILD")


def tmpdir(test):
    """A fresh folder under $TMPDIR, removed when the test ends."""
    d = tempfile.mkdtemp(prefix="npusim-py-", dir=os.environ.get("TMPDIR") or "/tmp")
    test.addCleanup(shutil.rmtree, d, True)
    return d


def data(*parts):
    return os.path.join(SRCDIR, "tests", "data", *parts)


def real_tool(name):
    """The build tree's npucc or npusim, or None."""
    if BUILD and os.access(os.path.join(BUILD, name), os.X_OK):
        return os.path.join(BUILD, name)
    return shutil.which(name)


# --- fake tools -------------------------------------------------------------

# The fake npucc "compiles" by copying the graph into the program file and
# counting its calls; the fake npusim copies $FAKE_OUTPUTS to --outputs,
# keeps the inputs it was given ($FAKE_SEEN) and prints a summary line.
FAKE_NPUCC = """\
import os, shutil, sys
a = sys.argv[1:]
if a and a[0] == "--version":
    print("npucc fake-1"); sys.exit(0)
if a and a[0] == "--list-ops":   # (an npucc that cannot list them)
    sys.stderr.write("npucc: unknown option --list-ops\\n"); sys.exit(2)
if os.environ.get("FAKE_NPUCC_FAIL"):
    sys.stderr.write("npucc: graph.json: node 'x': no lowering for aten.foo.default\\n")
    sys.exit(2)
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("npucc %s\\n" % " ".join(a))
out = a[a.index("-o") + 1]
shutil.copyfile(a[0] if not a[0].startswith("-") else [x for x in a if x.endswith(".json")][0], out)
"""

FAKE_NPUSIM = """\
import os, shutil, sys
a = sys.argv[1:]
with open(os.environ["FAKE_LOG"], "a") as f:
    f.write("npusim %s\\n" % " ".join(a))
if os.environ.get("FAKE_NPUSIM_FAULT"):
    sys.stderr.write("npusim run: prog.bin: fault at cycle 12 on vec\\n"); sys.exit(1)
shutil.copyfile(a[a.index("--inputs") + 1], os.environ["FAKE_SEEN"])
shutil.copyfile(os.environ["FAKE_OUTPUTS"], a[a.index("--outputs") + 1])
print("%s on npu-base: 777 cycles, 0.777 us at 1000 MHz, 12 instructions" % a[1])
print("MACs: 0 (utilization 0.00%); vector lane ops: 0; DMA transfers: 2; host calls: 1")
"""


def fake_tools(test, folder):
    """Writes fake npucc and npusim into folder; points NPUSIM_BUILD and
    the FAKE_* variables there (restored after the test)."""
    for name, body in (("npucc", FAKE_NPUCC), ("npusim", FAKE_NPUSIM)):
        p = os.path.join(folder, name)
        with open(p, "w") as f:
            f.write("#!%s\n%s" % (sys.executable, textwrap.dedent(body)))
        os.chmod(p, 0o755)
    env = {"NPUSIM_BUILD": folder, "FAKE_LOG": os.path.join(folder, "log"),
           "FAKE_SEEN": os.path.join(folder, "seen.safetensors"),
           "FAKE_OUTPUTS": os.path.join(folder, "outputs.safetensors"),
           "NPUSIM_CACHE_DIR": os.path.join(folder, "cache")}
    setenv(test, env)
    from npusim import tools
    tools._versions.clear()
    return env


def setenv(test, env):
    old = {k: os.environ.get(k) for k in env}

    def restore():
        for k, v in old.items():
            if v is None:
                os.environ.pop(k, None)
            else:
                os.environ[k] = v
    test.addCleanup(restore)
    for k, v in env.items():
        if v is None:
            os.environ.pop(k, None)
        else:
            os.environ[k] = v


def log_lines(env, prog):
    try:
        with open(env["FAKE_LOG"]) as f:
            return [ln for ln in f if ln.startswith(prog + " ")]
    except FileNotFoundError:
        return []


# --- reading fxgraph JSON back --------------------------------------------

def _decode(v, env):
    if isinstance(v, list):
        return [_decode(x, env) for x in v]
    if isinstance(v, dict):
        (tag, val), = v.items()
        if tag == "node":
            return env[val]
        if tag == "dtype":
            return getattr(torch, val)
        if tag == "device":
            return torch.device(val)
        if tag == "layout":
            return getattr(torch, val)
        if tag == "memory_format":
            return getattr(torch, val)
        if tag == "float":
            return float(val)
        raise ValueError("cannot decode %r" % v)
    return v


def _fn(target):
    if target == "_operator.getitem":
        import operator
        return operator.getitem
    ns, op, overload = target.split(".")
    return getattr(getattr(getattr(torch.ops, ns), op), overload)


def run_doc(doc, tensors):
    """Runs an fxgraph document with torch ops, taking placeholders (by
    name) and get_attr tensors (attr.<target>) from `tensors`."""
    env = {}
    for n in doc["nodes"]:
        if n["op"] == "placeholder":
            env[n["name"]] = tensors[n["name"]]
        elif n["op"] == "get_attr":
            env[n["name"]] = tensors["attr." + n["target"]]
        elif n["op"] == "call_function":
            args = _decode(n["args"], env)
            kwargs = {k: _decode(v, env) for k, v in n["kwargs"].items()}
            env[n["name"]] = _fn(n["target"])(*args, **kwargs)
        elif n["op"] == "output":
            return _decode(n["args"][0], env)
    raise ValueError("no output node")
