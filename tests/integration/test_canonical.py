"""The canonical encoding is the one docs/events.md specifies (Python's json.dumps form)."""

import json

from hypothesis import given
from hypothesis import strategies as st

from events.envelope import canonical

json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-(2**53), 2**53) | st.text(),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(), inner, max_size=4),
    max_leaves=20,
)


@given(json_values)
def test_canonical_bytes_are_sorted_compact_unescaped_json(value):
    expected = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=False)
    assert canonical(value) == expected.encode()
