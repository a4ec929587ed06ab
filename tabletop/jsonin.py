"""Strict JSON in: what every request body, record line and option is read with.

The standard :func:`json.loads` takes ``NaN`` and ``Infinity`` (not JSON), integers of any
length, ``1e400`` (as infinity), nesting until the interpreter's stack runs out, and ``\\ud800``
(a lone surrogate, which no UTF-8 file can hold). Each of these would either crash later or
reach the permanent record as something that is not JSON. :func:`loads` refuses them all with a
one-line :class:`~tabletop.errors.InputError` naming where (``event: options.sizes.coin_mm``).

>>> loads('{"a": [1, 2.5, "x"]}', "body")
{'a': [1, 2.5, 'x']}
>>> loads('{"a": NaN}', "body")
Traceback (most recent call last):
...
tabletop.errors.InputError: body: NaN is not JSON (give a number)
>>> check({"a": {"b": float("inf")}}, "event")
Traceback (most recent call last):
...
tabletop.errors.InputError: event: a.b: inf is not a finite number
"""

from __future__ import annotations

import json
import math
from typing import Any

from tabletop.errors import InputError
from tabletop.limits import MAX_JSON_DEPTH, MAX_JSON_INT_DIGITS

MAX_INT = 10**MAX_JSON_INT_DIGITS


class _Refused(ValueError):
    def __init__(self, message: str) -> None:
        super().__init__(message)
        self.message = message


def _no_constant(name: str) -> Any:
    raise _Refused(f"{name} is not JSON (give a number)")


def _int(text: str) -> int:
    digits = text.lstrip("-")
    if len(digits) > MAX_JSON_INT_DIGITS:
        raise _Refused(f"an integer of {len(digits)} digits is too large "
                       f"(at most {MAX_JSON_INT_DIGITS})")
    return int(text)


def _float(text: str) -> float:
    if len(text) > 64:
        raise _Refused(f"a number of {len(text)} characters is too long")
    v = float(text)
    if not math.isfinite(v):
        raise _Refused(f"{text} is too large a number")
    return v


def loads(text: str | bytes, where: str, error: type[InputError] = InputError) -> Any:
    """Parses strict JSON text, then :func:`check` s it.

    Raises:
        InputError (or ``error``): naming ``where`` and what is wrong.
    """
    if isinstance(text, bytes):
        try:
            text = text.decode("utf-8")
        except UnicodeDecodeError:
            raise error(f"{where}: not UTF-8 text") from None
    try:
        obj = json.loads(text, parse_constant=_no_constant, parse_int=_int, parse_float=_float)
    except _Refused as exc:
        raise error(f"{where}: {exc.message}") from None
    except json.JSONDecodeError as exc:
        raise error(f"{where}: not valid JSON ({exc.msg} at line {exc.lineno} column "
                    f"{exc.colno})") from None
    except (ValueError, RecursionError):
        raise error(f"{where}: not valid JSON (nested too deep or too large)") from None
    return check(obj, where, error)


def _text_ok(s: str) -> bool:
    try:
        s.encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def check(obj: Any, where: str, error: type[InputError] = InputError) -> Any:
    """``obj`` when it is a strict JSON value within bounds, else ``error`` naming the field.

    Bounds: nesting at most :data:`~tabletop.limits.MAX_JSON_DEPTH` deep, integers below
    ``10**18`` in size, finite numbers, strings (and keys) that are valid Unicode text.
    """
    stack: list[tuple[Any, str, int]] = [(obj, "", 0)]
    while stack:
        value, path, depth = stack.pop()
        at = f"{where}: {path}" if path else where
        if depth > MAX_JSON_DEPTH:
            raise error(f"{where}: nested more than {MAX_JSON_DEPTH} levels deep")
        if value is None or isinstance(value, bool):
            continue
        if isinstance(value, int):
            if abs(value) >= MAX_INT:
                raise error(f"{at}: the integer is too large (at most "
                            f"{MAX_JSON_INT_DIGITS} digits)")
        elif isinstance(value, float):
            if not math.isfinite(value):
                raise error(f"{at}: {value} is not a finite number")
        elif isinstance(value, str):
            if not _text_ok(value):
                raise error(f"{at}: the text holds a lone surrogate (not valid Unicode)")
        elif isinstance(value, dict):
            for k, v in value.items():
                if not isinstance(k, str):
                    raise error(f"{at}: a key that is not text ({k!r})")
                if not _text_ok(k):
                    raise error(f"{at}: a key holds a lone surrogate (not valid Unicode)")
                stack.append((v, f"{path}.{k}" if path else k, depth + 1))
        elif isinstance(value, list | tuple):
            for i, v in enumerate(value):
                stack.append((v, f"{path}[{i}]" if path else f"[{i}]", depth + 1))
        else:
            raise error(f"{at}: {type(value).__name__} is not a JSON value")
    return obj
