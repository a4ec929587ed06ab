"""Strict JSON in: what json.loads lets through that a record must not hold is refused."""

from __future__ import annotations

import json

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tabletop import jsonin
from tabletop.errors import InputError

_plain = st.recursive(
    st.none() | st.booleans() | st.integers(-10**17, 10**17)
    | st.floats(allow_nan=False, allow_infinity=False) | st.text(max_size=10),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(st.text(max_size=6), inner,
                                                                max_size=4),
    max_leaves=25)


@settings(max_examples=200, deadline=None, derandomize=True, database=None)
@given(_plain)
def test_strict_json_reads_back_what_was_written(value):
    assert jsonin.loads(json.dumps(value), "v") == value


@settings(max_examples=300, deadline=None, derandomize=True, database=None)
@given(st.text(max_size=60) | st.binary(max_size=60))
def test_any_text_is_read_or_refused_with_an_input_error(text):
    try:
        jsonin.loads(text, "v")
    except InputError as exc:
        assert str(exc).startswith("v")


@pytest.mark.parametrize(("text", "words"), [
    ("NaN", "NaN is not JSON"), ("[Infinity]", "Infinity is not JSON"),
    ("1e400", "too large a number"), ("9" * 19, "19 digits"), ("-" + "9" * 5000, "5000 digits"),
    ("[" * 100 + "]" * 100, "nested more than 32"), ("[" * 100000 + "]" * 100000, "nested"),
    ('"\\ud800"', "lone surrogate"), ('{"\\udc00": 1}', "lone surrogate"),
    ("{", "not valid JSON"), (b"\xff", "not UTF-8"),
])
def test_what_a_record_must_not_hold_is_refused_naming_it(text, words):
    with pytest.raises(InputError, match=words):
        jsonin.loads(text, "record.jsonl: line 3")


def test_values_made_in_python_are_checked_too():
    with pytest.raises(InputError, match=r"event: options\.speed: nan"):
        jsonin.check({"options": {"speed": float("nan")}}, "event")
    with pytest.raises(InputError, match="too large"):
        jsonin.check([2**70], "event")
