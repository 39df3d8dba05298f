"""The compile cache: a graph compiled once is not compiled again.

An entry's key is the sha256 of everything that decides the program:

    the graph's canonical text (fxjson.canonical_text: ops, arguments,
    meta, placeholder kinds, aot facts; not names of files or provenance),
    the hash of the frozen weights (their names, dtypes, shapes, bytes),
    the hash of the target file, the compiler's `--version`, the options.

Entries live in $NPUSIM_CACHE_DIR (default $XDG_CACHE_HOME/npusim or
~/.cache/npusim) as KEY.bin (the program) and KEY.json (what it is: the
program's size and sha256, and the parts of the key).  Both are written to
a temporary name and renamed into place, the .json last, so an entry is
visible only when complete; two processes compiling the same graph both
publish the same bytes.  An entry whose .json is unreadable, names another
key, or whose program's size or hash differs, is corrupt: it counts as a
miss and is removed.
"""

import hashlib
import json
import os

from . import st

_ENTRY_VERSION = 1


def default_dir():
    d = os.environ.get("NPUSIM_CACHE_DIR")
    if d:
        return d
    base = os.environ.get("XDG_CACHE_HOME") or os.path.join(
        os.path.expanduser("~"), ".cache")
    return os.path.join(base, "npusim")


def weights_hash(tensors):
    """sha256 over the frozen tensors, in name order: name, dtype, shape
    and bytes each, so renaming or reshaping changes the hash too."""
    h = hashlib.sha256()
    for name in sorted(tensors):
        t = tensors[name]
        h.update(("%s|%s|%s\n" % (name, st.dtype_name(t.dtype),
                                   list(t.shape))).encode())
        h.update(st._raw_bytes(t))
    return h.hexdigest()


def make_key(canonical, wtensors_hash, target_hash, compiler_version, options):
    parts = {"graph": hashlib.sha256(canonical.encode()).hexdigest(),
             "weights": wtensors_hash, "target": target_hash,
             "compiler": compiler_version,
             "options": json.dumps(options or {}, sort_keys=True)}
    text = json.dumps(parts, sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest(), parts


class Cache:
    """A folder of compiled programs.  get() and put() never raise on a
    bad entry; a cache that cannot be written just does not cache."""

    def __init__(self, path=None):
        self.path = path or default_dir()
        self.hits = 0
        self.misses = 0
        self.corrupt = 0

    def _paths(self, key):
        d = os.path.join(self.path, key[:2])
        return d, os.path.join(d, key + ".bin"), os.path.join(d, key + ".json")

    def _drop(self, key):
        _, b, j = self._paths(key)
        for p in (j, b):
            try:
                os.unlink(p)
            except OSError:
                pass

    def get(self, key):
        """The program's path for `key`, or None (a miss)."""
        _, b, j = self._paths(key)
        try:
            with open(j, "rb") as f:
                info = json.loads(f.read().decode("utf-8"))
            with open(b, "rb") as f:
                data = f.read()
        except FileNotFoundError:
            self.misses += 1
            return None
        except (OSError, ValueError):
            return self._corrupt(key)
        if (not isinstance(info, dict) or info.get("key") != key or
                info.get("entry_version") != _ENTRY_VERSION or
                info.get("size") != len(data) or
                info.get("sha256") != hashlib.sha256(data).hexdigest()):
            return self._corrupt(key)
        self.hits += 1
        return b

    def _corrupt(self, key):
        self.corrupt += 1
        self.misses += 1
        self._drop(key)
        return None

    def put(self, key, program_path, parts=None):
        """Publishes a compiled program under `key`; returns its path in
        the cache, or the original path when the cache is not writable."""
        d, b, j = self._paths(key)
        try:
            with open(program_path, "rb") as f:
                data = f.read()
            os.makedirs(d, exist_ok=True)
            st.atomic_write(b, data)
            info = {"entry_version": _ENTRY_VERSION, "key": key,
                    "size": len(data),
                    "sha256": hashlib.sha256(data).hexdigest(),
                    "parts": parts or {}}
            st.atomic_write(j, json.dumps(info, indent=1).encode())
        except OSError:
            return program_path
        return b
