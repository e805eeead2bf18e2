"""danger_verify's tests run from the repository's root, installed or not."""

import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))
