"""The verifier's package (clients/verifier) and the service (the repository's root, whose
domain the tests play games with) on the import path."""

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
for path in (HERE.parent, HERE.parents[2]):
    if str(path) not in sys.path:
        sys.path.insert(0, str(path))
