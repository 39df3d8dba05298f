"""npusim's PyTorch frontend.

    import torch, npusim
    model = torch.compile(model, backend="npusim")   # PyTorch >= 2.1
    y = model(x)                                      # runs on the simulator
    print(npusim.report())                            # graphs, breaks, cycles

Importing the package registers the backend "npusim" (where Dynamo
exists).  npucc and npusim are found through $NPUSIM_BUILD (a build
folder) or the PATH.  See docs/frontend.md.
"""

from . import backend as _backend
from .export import compile, session  # noqa: F401
from .export import export as export_model  # noqa: F401
from .graph import DEFAULTS as OPTIONS  # noqa: F401

__all__ = ["compile", "export_model", "report", "reset", "write_trace", "OPTIONS"]

_backend.register()
# Accounting starts here, not at the first graph: a model Dynamo leaves
# to eager entirely never reaches the backend, and its frames must still
# count against the report.
session()


def report():
    """The accounting of everything run so far (report.Report; print it)."""
    return session().report()


def reset():
    """Starts a new accounting session."""
    session().reset()


def write_trace(path=None):
    """Writes the report into the trace database (default: the `trace`
    option in use); returns the frontend session's id there."""
    s = session()
    path = path or s.options.get("trace")
    if not path:
        raise ValueError("npusim.write_trace: no trace database given")
    return s.write_db(path)
