"""Accounting: what was captured, what ran where, what it cost.

One Session per process collects, while models run:

* graphs: every graph captured (dynamo, inference, forward, backward), with
  its node count and status: `compiled` (npucc built it), `cached` (the
  compile cache had it), `fallback` (it ran eagerly on the host, with the
  reason), `partitioned` (it holds nodes npucc does not know, which PyTorch
  ran between its parts, each a graph of its own: npusim.partition),
  `pending` (never called);
* calls: every execution of a graph: the Python call that reached it (its
  sequence number and the user's frame), the simulator run (its label in the
  trace database, so `runs.id` is found), its cycles and host calls, or the
  fallback that replaced it;
* graph breaks and their reasons, recompilations and the guard that failed,
  and regions Dynamo ran eagerly (frames it could not compile).

A region the user asked to compile that ran eagerly without being asked to
is a failure: `Report.ok` is False and the text says FAILED.  Timing-only
runs compute values on the host on purpose and are not failures.

`Session.write_db(path)` adds the same facts to a trace database in
`frontend_*` tables (docs/frontend.md), created IF NOT EXISTS next to the
simulator's own tables; the database must already be an npusim trace
(npusim creates it with its first run), because a file holding only these
tables would be refused by npusim as another program's database.
"""

import collections
import datetime
import json
import os
import sqlite3
import traceback
import urllib.parse

import torch

SCHEMA = [
    """CREATE TABLE IF NOT EXISTS frontend_sessions (
        id INTEGER PRIMARY KEY,
        started TEXT NOT NULL,
        torch TEXT NOT NULL,
        options TEXT,
        ok INTEGER NOT NULL,
        report TEXT)""",
    """CREATE TABLE IF NOT EXISTS frontend_graphs (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES frontend_sessions(id),
        name TEXT NOT NULL,
        graph_kind TEXT NOT NULL,
        nodes INTEGER,
        status TEXT NOT NULL,
        reason TEXT,
        cache_key TEXT,
        compile_s REAL)""",
    """CREATE TABLE IF NOT EXISTS frontend_calls (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES frontend_sessions(id),
        graph_id INTEGER NOT NULL REFERENCES frontend_graphs(id),
        seq INTEGER NOT NULL,
        caller TEXT,
        run_id INTEGER REFERENCES runs(id),
        label TEXT,
        cycles INTEGER,
        host_calls INTEGER,
        fallback INTEGER NOT NULL,
        wall_s REAL)""",
    """CREATE TABLE IF NOT EXISTS frontend_events (
        id INTEGER PRIMARY KEY,
        session_id INTEGER NOT NULL REFERENCES frontend_sessions(id),
        kind TEXT NOT NULL,
        detail TEXT,
        count INTEGER NOT NULL)""",
]

# PRAGMA application_id of npusim traces ("NPUT"), as traces/trace.c sets it.
_TRACE_APP_ID = 0x4E505554

_HERE = os.path.dirname(os.path.abspath(__file__))


def user_frame():
    """Where the user's code made the call: the innermost frames outside
    torch and this package, outermost first ("run.py:12 in main >
    model.py:40 in forward"; under Dynamo the inner one is the compiled
    frame itself, the outer one its caller)."""
    torch_dir = os.path.dirname(os.path.abspath(torch.__file__))
    found = []
    for fr in reversed(traceback.extract_stack()[:-1]):
        f = os.path.abspath(fr.filename)
        if f.startswith(torch_dir) or f.startswith(_HERE) or fr.filename.startswith("<"):
            continue
        found.append("%s:%d in %s" % (os.path.basename(fr.filename), fr.lineno, fr.name))
        if len(found) == 2:
            break
    return " > ".join(reversed(found)) or None


class GraphRecord:
    def __init__(self, gid, name, kind, nodes):
        self.id = gid
        self.name = name
        self.kind = kind
        self.nodes = nodes
        self.status = "pending"
        self.reason = None
        self.key = None
        self.compile_s = None
        self.calls = []

    def cycles(self):
        return [c.cycles for c in self.calls if c.cycles is not None]

    def host_calls(self):
        """Host calls inside the program, per call that ran it (ops npucc
        lowers to an `hcall`: simulated, their transfers and compute
        timed on the host unit, not a failure)."""
        return [c.host_calls for c in self.calls if c.host_calls is not None]


class CallRecord:
    def __init__(self, seq, graph, caller):
        self.seq = seq
        self.graph = graph
        self.caller = caller
        self.label = None
        self.cycles = None
        self.host_calls = None
        self.fallback = None      # None, or the reason it ran eagerly
        self.host_ops = None      # Counter of targets PyTorch ran (partitioned)
        self.host_bytes = None    # bytes those took from and gave back
        self.wall_s = None
        self.run_id = None


class Session:
    """The accounting of one process (see the module comment)."""

    def __init__(self):
        self.reset()

    def reset(self):
        self.started = datetime.datetime.now(datetime.timezone.utc).strftime(
            "%Y-%m-%dT%H:%M:%SZ")
        self.graphs = []
        self.calls = []
        self.breaks = collections.Counter()
        self.recompiles = []
        self.eager_frames = collections.Counter()
        self.options = {}
        self.db_session = {}
        self._dynamo_base = _dynamo_counters()

    # --- recording -----------------------------------------------------
    def new_graph(self, name, kind, nodes):
        g = GraphRecord(len(self.graphs) + 1, name, kind, nodes)
        self.graphs.append(g)
        return g

    def new_call(self, graph):
        c = CallRecord(len(self.calls) + 1, graph, user_frame())
        self.calls.append(c)
        graph.calls.append(c)
        return c

    def recompiled(self, where, reason):
        self.recompiles.append((where, reason))

    def graph_break(self, reason, n=1):
        self.breaks[reason] += n

    # --- reading -------------------------------------------------------
    def report(self):
        self._collect_dynamo()
        return Report(self)

    def _collect_dynamo(self):
        """Graph breaks and eager frames from Dynamo's own counters,
        counted since this session began."""
        now = _dynamo_counters()
        base = self._dynamo_base
        for reason, n in now.get("graph_break", {}).items():
            d = n - base.get("graph_break", {}).get(reason, 0)
            if d > 0:
                self.breaks[reason] = max(self.breaks[reason], d)
        frames = now.get("frames", {})
        bframes = base.get("frames", {})
        total = frames.get("total", 0) - bframes.get("total", 0)
        ok = frames.get("ok", 0) - bframes.get("ok", 0)
        if total > ok:
            why = sorted(_first_line(r) + _hint(r) for r, n in
                         now.get("unimplemented", {}).items()
                         if n > base.get("unimplemented", {}).get(r, 0))
            key = "frames Dynamo could not compile"
            self.eager_frames[key + (" (%s)" % "; ".join(why) if why else "")] = total - ok

    # --- the trace database --------------------------------------------
    def write_db(self, path):
        """Adds this session to the trace database at `path`; returns the
        session's id there, or raises ValueError when the file is not (yet)
        an npusim trace."""
        self._collect_dynamo()
        try:
            # mode=rw: never create the file; npusim must make it first.
            con = sqlite3.connect("file:%s?mode=rw" % urllib.parse.quote(
                os.path.abspath(path)), uri=True, timeout=60)
        except sqlite3.OperationalError as ex:
            raise ValueError("%s: cannot open as a trace database: %s "
                             "(npusim run --trace creates it)" % (path, ex))
        try:
            app = con.execute("PRAGMA application_id").fetchone()[0]
            ver = con.execute("PRAGMA user_version").fetchone()[0]
            if app != _TRACE_APP_ID or ver < 1:
                raise ValueError("%s: not an npusim trace yet (npusim run "
                                 "--trace creates it)" % path)
            with con:
                for sql in SCHEMA:
                    con.execute(sql)
                rep = Report(self)
                sid = self.db_session.get(path)
                if sid is None:
                    sid = con.execute(
                        "INSERT INTO frontend_sessions (started, torch, options, ok, report) "
                        "VALUES (?, ?, ?, ?, ?)",
                        (self.started, torch.__version__,
                         json.dumps(self.options, sort_keys=True, default=str),
                         int(rep.ok), rep.text())).lastrowid
                    self.db_session[path] = sid
                else:
                    con.execute("UPDATE frontend_sessions SET ok = ?, report = ? "
                                "WHERE id = ?", (int(rep.ok), rep.text(), sid))
                # Rewrite this session's rows: a report may be written
                # several times as the run goes on.
                con.execute("DELETE FROM frontend_calls WHERE session_id = ?", (sid,))
                con.execute("DELETE FROM frontend_events WHERE session_id = ?", (sid,))
                con.execute("DELETE FROM frontend_graphs WHERE session_id = ?", (sid,))
                gids = {}
                for g in self.graphs:
                    gids[g.id] = con.execute(
                        "INSERT INTO frontend_graphs (session_id, name, graph_kind, "
                        "nodes, status, reason, cache_key, compile_s) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                        (sid, g.name, g.kind, g.nodes, g.status, g.reason,
                         g.key, g.compile_s)).lastrowid
                has_runs = con.execute(
                    "SELECT count(*) FROM sqlite_master WHERE name = 'runs'").fetchone()[0]
                for c in self.calls:
                    run_id = c.run_id
                    if run_id is None and c.label and has_runs:
                        r = con.execute("SELECT id FROM runs WHERE label = ? "
                                        "ORDER BY id DESC LIMIT 1", (c.label,)).fetchone()
                        run_id = r[0] if r else None
                    con.execute(
                        "INSERT INTO frontend_calls (session_id, graph_id, seq, caller, "
                        "run_id, label, cycles, host_calls, fallback, wall_s) "
                        "VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        (sid, gids[c.graph.id], c.seq, c.caller, run_id, c.label,
                         c.cycles, c.host_calls, int(c.fallback is not None), c.wall_s))
                for kind, detail, n in rep.events():
                    con.execute("INSERT INTO frontend_events (session_id, kind, detail, count) "
                                "VALUES (?, ?, ?, ?)", (sid, kind, detail, n))
            return sid
        finally:
            con.close()


def _dynamo_counters():
    try:
        from torch._dynamo.utils import counters
    except Exception:
        return {}
    return {k: dict(v) for k, v in counters.items()}


def _first_line(text):
    lines = [ln.strip() for ln in str(text).splitlines() if ln.strip()]
    return lines[0] if lines else ""


def _eager_op(reason):
    """Does the break leave an operator to eager: one Dynamo cannot trace,
    or a recurrent layer (unless allow_rnn)?"""
    return _hint(reason).startswith(": unsupported operator") or \
        _first_line(reason).startswith("Attempted to wrap RNN")


def _hint(text):
    """What Dynamo's message names beyond its first line: the operator it
    could not trace, or the config setting it suggests."""
    for ln in str(text).splitlines():
        ln = ln.strip()
        if ln.startswith("Developer debug context: unsupported operator"):
            return ": " + ln.split(": ", 1)[1]
        if ln.startswith("Hint: Set torch._dynamo.config."):
            return ": " + ln[len("Hint: "):]
    return ""


class Report:
    """A snapshot of a Session, as numbers (to_dict) and as text."""

    def __init__(self, s):
        self.graphs = list(s.graphs)
        self.calls = list(s.calls)
        self.breaks = collections.Counter(s.breaks)
        self.recompiles = list(s.recompiles)
        self.eager_frames = collections.Counter(s.eager_frames)

    @property
    def fallbacks(self):
        """Calls that ran on the host instead of the simulator."""
        return [c for c in self.calls if c.fallback is not None]

    @property
    def eager_ops(self):
        """Graph breaks at an operator Dynamo cannot trace or at a
        recurrent layer: PyTorch runs it eagerly, on the host, between
        the graphs."""
        return {r: n for r, n in self.breaks.items() if _eager_op(r)}

    @property
    def host_ops(self):
        """{"graph: target": count} of the nodes npucc does not know that
        PyTorch ran between a partitioned graph's npusim parts."""
        n = collections.Counter()
        for c in self.calls:
            for t, k in (c.host_ops or {}).items():
                n["%s: %s" % (c.graph.name, t)] += k
        return dict(n)

    @property
    def host_bytes(self):
        """{graph: bytes} the host ops of a partitioned graph's calls read
        and wrote: the traffic across the boundary to PyTorch."""
        n = collections.Counter()
        for c in self.calls:
            if c.host_bytes:
                n[c.graph.name] += c.host_bytes
        return dict(n)

    @property
    def ok(self):
        return not self.fallbacks and not self.eager_frames and \
            not self.eager_ops and not self.host_ops and \
            not any(g.status == "fallback" for g in self.graphs)

    def events(self):
        for r, n in sorted(self.breaks.items()):
            yield ("graph_break", r, n)
        for where, why in self.recompiles:
            yield ("recompile", "%s: %s" % (where, why), 1)
        for r, n in sorted(self.eager_frames.items()):
            yield ("eager_frame", r, n)
        fb = collections.Counter("%s: %s" % (c.graph.name, c.fallback)
                                 for c in self.fallbacks)
        for r, n in sorted(fb.items()):
            yield ("host_fallback", r, n)
        for r, n in sorted(self.host_ops.items()):
            yield ("host_op", r, n)

    def to_dict(self):
        return {
            "ok": self.ok,
            "graphs_captured": len([g for g in self.graphs if g.kind != "dynamo"]),
            "dynamo_graphs": len([g for g in self.graphs if g.kind == "dynamo"]),
            "graph_breaks": dict(self.breaks),
            "recompilations": [{"where": w, "guard": r} for w, r in self.recompiles],
            "host_fallbacks": len(self.fallbacks),
            "host_ops": self.host_ops,
            "host_op_bytes": self.host_bytes,
            "eager_frames": dict(self.eager_frames),
            "graphs": [{"name": g.name, "kind": g.kind, "nodes": g.nodes,
                        "status": g.status, "reason": g.reason,
                        "calls": len(g.calls), "cycles": g.cycles(),
                        "host_calls": g.host_calls()}
                       for g in self.graphs],
        }

    def text(self):
        d = self.to_dict()
        out = ["npusim report: %s" % ("ok" if self.ok else
                                      "FAILED (regions ran eagerly on the host)"),
               "graphs captured: %d (plus %d Dynamo-level); graph breaks: %d; "
               "recompilations: %d; host fallbacks: %d"
               % (d["graphs_captured"], d["dynamo_graphs"],
                  sum(self.breaks.values()), len(self.recompiles),
                  len(self.fallbacks))]
        for r, n in sorted(self.breaks.items()):
            out.append("  %sgraph break x%d: %s%s" % ("FAILED: " if _eager_op(r) else "",
                                                    n, _first_line(r), _hint(r)))
        for w, r in self.recompiles:
            out.append("  recompiled %s: guard failed: %s" % (w, r))
        for r, n in sorted(self.eager_frames.items()):
            out.append("  FAILED: ran eagerly x%d: %s" % (n, r))
        for r, n in sorted(self.host_ops.items()):
            out.append("  FAILED: host op x%d: %s (PyTorch ran it between npusim "
                       "graphs)" % (n, r))
        for g, b in sorted(self.host_bytes.items()):
            out.append("  %s: host ops read and wrote %d bytes" % (g, b))
        out.append("%-28s %-9s %6s %-9s %6s %14s %10s" % (
            "graph", "kind", "nodes", "status", "calls", "cycles/call", "host calls"))
        for g in self.graphs:
            if g.kind == "dynamo":
                continue
            cyc, hc = g.cycles(), g.host_calls()
            out.append("%-28s %-9s %6s %-9s %6d %14s %10s" % (
                g.name, g.kind, g.nodes if g.nodes is not None else "-",
                g.status, len(g.calls),
                ("%d" % (sum(cyc) // len(cyc))) if cyc else "-",
                ("%d" % max(hc)) if hc else "-"))
            if g.reason:
                out.append("    %s%s" % ("FAILED: " if g.status in ("fallback", "partitioned")
                                          else "",
                                          g.reason))
        total = sum(sum(g.cycles()) for g in self.graphs)
        out.append("simulated cycles, all calls: %d" % total)
        hcalls = sum(sum(g.host_calls()) for g in self.graphs)
        if hcalls:
            out.append("host calls inside the programs, all calls: %d (simulated on "
                       "the host unit; `npucc --report` names their ops)" % hcalls)
        return "\n".join(out)

    __str__ = text
