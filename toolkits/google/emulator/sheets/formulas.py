"""A small spreadsheet formula engine for the Sheets emulator.

It covers what agents and task fixtures actually write: arithmetic (`+ - * /
^ %`, unary minus), text concatenation `&`, comparisons, cell and range
references (`A1`, `$B$2`, `A1:B3`, `A:A`, `Sheet2!A1`, `'My sheet'!B2:C`) and
the common functions (SUM, AVERAGE, MIN, MAX, COUNT, COUNTA, IF, ROUND,
SUMIF, COUNTIF, VLOOKUP, CONCATENATE, ...). Errors are values, as in Sheets
(`#DIV/0!`, `#VALUE!`, `#NAME?`, `#REF!`, `#N/A`, `#ERROR!` for a parse
failure), so one bad cell never breaks a whole read.

Evaluation is lazy: the caller supplies a `Context` whose lookups evaluate
referenced formula cells on demand (with cycle detection on its side).
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass
from functools import lru_cache
from typing import Any, Protocol

from .a1 import parse_cells, split_sheet


@dataclass(frozen=True)
class FormulaError:
    """An error value (shown as its code, e.g. '#DIV/0!')."""

    code: str
    message: str = ""

    def __str__(self) -> str:
        return self.code


Value = float | str | bool | None | FormulaError


class Context(Protocol):
    def cell(self, sheet: str | None, row: int, col: int) -> Value: ...

    def range(self, sheet: str | None, sr: int | None, er: int | None,
              sc: int | None, ec: int | None) -> list[list[Value]]: ...


class _ErrorRaised(Exception):
    def __init__(self, err: FormulaError) -> None:
        self.err = err


def _err(code: str, message: str = "") -> _ErrorRaised:
    return _ErrorRaised(FormulaError(code, message))


# ---------------------------------------------------------------- tokenizer

_TOKEN = re.compile(r"""
    (?P<ws>\s+)
  | (?P<str>"(?:[^"]|"")*")
  | (?P<ref>(?:(?:'(?:[^']|'')+'|[A-Za-z_][A-Za-z0-9_.]*)!)?
            (?:\$?[A-Za-z]{1,3}\$?\d+(?::\$?[A-Za-z]{1,3}\$?\d*)?
              |\$?[A-Za-z]{1,3}:\$?[A-Za-z]{1,3}
              |\$?\d+:\$?\d+)(?![A-Za-z0-9_(]))
  | (?P<num>(?:\d+\.?\d*|\.\d+)(?:[eE][+-]?\d+)?)
  | (?P<func>[A-Za-z_][A-Za-z0-9_.]*(?=\s*\())
  | (?P<name>[A-Za-z_][A-Za-z0-9_.]*)
  | (?P<op><=|>=|<>|[-+*/^&=<>%(),;:])
""", re.VERBOSE)


def _tokenize(src: str) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    pos = 0
    while pos < len(src):
        m = _TOKEN.match(src, pos)
        if not m:
            raise _err("#ERROR!", f"Formula parse error at {src[pos:pos + 10]!r}")
        kind = m.lastgroup or ""
        if kind != "ws":
            out.append((kind, m.group(0)))
        pos = m.end()
    return out


# ------------------------------------------------------------------- parser
# AST nodes are tuples: ("num", x) ("str", s) ("bool", b) ("ref", sheet, bounds)
# ("unary", op, node) ("binary", op, left, right) ("pct", node) ("call", name, args)

_BINARY_PREC = {"=": 1, "<>": 1, "<": 1, ">": 1, "<=": 1, ">=": 1, "&": 2,
                "+": 3, "-": 3, "*": 4, "/": 4, "^": 5}


class _Parser:
    def __init__(self, tokens: list[tuple[str, str]]) -> None:
        self.toks = tokens
        self.i = 0

    def peek(self) -> tuple[str, str] | None:
        return self.toks[self.i] if self.i < len(self.toks) else None

    def take(self) -> tuple[str, str]:
        t = self.peek()
        if t is None:
            raise _err("#ERROR!", "Formula parse error: unexpected end")
        self.i += 1
        return t

    def expr(self, min_prec: int = 1) -> tuple:
        left = self.unary()
        while True:
            t = self.peek()
            if t is None or t[0] != "op" or t[1] not in _BINARY_PREC:
                return left
            prec = _BINARY_PREC[t[1]]
            if prec < min_prec:
                return left
            self.take()
            # '^' is left-associative in Sheets too (2^3^2 = 64).
            right = self.expr(prec + 1)
            left = ("binary", t[1], left, right)

    def unary(self) -> tuple:
        t = self.peek()
        if t is not None and t[0] == "op" and t[1] in "+-":
            self.take()
            return ("unary", t[1], self.unary())
        node = self.primary()
        while (p := self.peek()) is not None and p == ("op", "%"):
            self.take()
            node = ("pct", node)
        return node

    def primary(self) -> tuple:
        kind, text = self.take()
        if kind == "num":
            return ("num", float(text))
        if kind == "str":
            return ("str", text[1:-1].replace('""', '"'))
        if kind == "ref":
            sheet, part = split_sheet(text)
            bounds = parse_cells(part.replace("$", ""))
            if bounds is None:
                raise _err("#REF!", f"Bad reference {text}")
            return ("ref", sheet, bounds)
        if kind == "name":
            up = text.upper()
            if up in ("TRUE", "FALSE"):
                return ("bool", up == "TRUE")
            return ("name", text)
        if kind == "func":
            self.take()  # '('
            args: list[tuple] = []
            if self.peek() == ("op", ")"):
                self.take()
                return ("call", text.upper(), args)
            while True:
                if self.peek() in (("op", ","), ("op", ")")):
                    args.append(("blank",))
                else:
                    args.append(self.expr())
                sep = self.take()
                if sep == ("op", ")"):
                    return ("call", text.upper(), args)
                if sep not in (("op", ","), ("op", ";")):
                    raise _err("#ERROR!", f"Formula parse error near {sep[1]!r}")
        if (kind, text) == ("op", "("):
            node = self.expr()
            if self.take() != ("op", ")"):
                raise _err("#ERROR!", "Formula parse error: missing ')'")
            return node
        raise _err("#ERROR!", f"Formula parse error near {text!r}")


@lru_cache(maxsize=4096)
def parse_formula(formula: str) -> tuple:
    """Parse '=...' into an AST (cached: a sheet repeats the same formulas);
    raises _ErrorRaised on a syntax error."""
    src = formula.removeprefix("=")
    p = _Parser(_tokenize(src))
    node = p.expr()
    if p.peek() is not None:
        raise _err("#ERROR!", f"Formula parse error near {p.peek()[1]!r}")  # type: ignore[index]
    return node


# --------------------------------------------------------------- evaluation

class _RangeVal:
    """A range argument: kept 2-D so VLOOKUP can see rows, flattened for SUM."""

    def __init__(self, rows: list[list[Value]]) -> None:
        self.rows = rows

    def flat(self) -> list[Value]:
        return [v for row in self.rows for v in row]


def to_number(v: Value) -> float:
    if isinstance(v, FormulaError):
        raise _ErrorRaised(v)
    if v is None or v == "":
        return 0.0
    if isinstance(v, bool):
        return 1.0 if v else 0.0
    if isinstance(v, (int, float)):
        return float(v)
    try:
        return float(str(v).strip().replace(",", ""))
    except ValueError:
        raise _err("#VALUE!", f"Function expects number values. But '{v}' is a text and cannot be coerced to a number.") from None


def to_text(v: Value) -> str:
    if isinstance(v, FormulaError):
        raise _ErrorRaised(v)
    if v is None:
        return ""
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, float):
        return format_number(v)
    return str(v)


def to_bool(v: Value) -> bool:
    if isinstance(v, FormulaError):
        raise _ErrorRaised(v)
    if isinstance(v, bool):
        return v
    if v is None or v == "":
        return False
    if isinstance(v, str):
        up = v.strip().upper()
        if up in ("TRUE", "FALSE"):
            return up == "TRUE"
        raise _err("#VALUE!", f"'{v}' cannot be coerced to a boolean")
    return float(v) != 0


def format_number(x: float) -> str:
    """Sheets' automatic number format: integers plainly, up to 10 decimals otherwise."""
    if math.isinf(x) or math.isnan(x):
        return "#NUM!"
    if x == int(x) and abs(x) < 1e15:
        return str(int(x))
    if abs(x) >= 1e15 or abs(x) < 1e-9:
        return f"{x:.2E}".replace("E+0", "E+").replace("E-0", "E-")
    digits = max(0, min(10, 15 - len(str(int(abs(x))))))
    return f"{x:.{digits}f}".rstrip("0").rstrip(".")


def _rank(v: Value) -> tuple[int, Any]:
    # Sheets orders numbers < text < booleans; text compares case-insensitively.
    if v is None:
        return (0, 0.0)
    if isinstance(v, bool):
        return (2, v)
    if isinstance(v, (int, float)):
        return (0, float(v))
    return (1, str(v).casefold())


def _compare(op: str, a: Value, b: Value) -> bool:
    for v in (a, b):
        if isinstance(v, FormulaError):
            raise _ErrorRaised(v)
    if a is None and isinstance(b, str):
        a = ""
    if b is None and isinstance(a, str):
        b = ""
    ra, rb = _rank(a), _rank(b)
    return {"=": ra == rb, "<>": ra != rb, "<": ra < rb, ">": ra > rb,
            "<=": ra <= rb, ">=": ra >= rb}[op]


def _numbers(args: list[Any]) -> list[float]:
    """Numbers from arguments: ranges contribute only their numeric cells."""
    out: list[float] = []
    for a in args:
        if isinstance(a, _RangeVal):
            for v in a.flat():
                if isinstance(v, FormulaError):
                    raise _ErrorRaised(v)
                if isinstance(v, (int, float)) and not isinstance(v, bool):
                    out.append(float(v))
        elif a is None:
            continue
        else:
            out.append(to_number(a))
    return out


def _values(args: list[Any]) -> list[Value]:
    out: list[Value] = []
    for a in args:
        out.extend(a.flat() if isinstance(a, _RangeVal) else [a])
    return out


def _criterion(crit: Value) -> Callable[[Value], bool]:
    """SUMIF/COUNTIF criteria: '>5', '<>x', 'abc', 3, 'a*' wildcards."""
    if not isinstance(crit, str):
        return lambda v: _rank(v) == _rank(crit) if v is not None else False
    m = re.match(r"^(<=|>=|<>|=|<|>)?(.*)$", crit, re.DOTALL)
    assert m
    op, rest = m.group(1) or "=", m.group(2)
    target: Value
    try:
        target = float(rest)
    except ValueError:
        target = rest
    if isinstance(target, str) and op in ("=", "<>") and any(c in target for c in "*?"):
        pat = re.compile("^" + re.escape(target).replace(r"\*", ".*").replace(r"\?", ".") + "$",
                         re.IGNORECASE | re.DOTALL)
        return (lambda v: bool(pat.match(to_text(v)))) if op == "=" else (lambda v: not pat.match(to_text(v)))

    def check(v: Value) -> bool:
        if isinstance(v, FormulaError):
            return False
        if (isinstance(target, float) and not isinstance(v, (int, float))) or isinstance(v, bool):
            return op == "<>"
        if isinstance(target, str) and target == "" and op == "=":
            return v is None or v == ""
        return _compare(op, v, target)
    return check


def _round(x: float, digits: int, mode: str) -> float:
    factor = 10.0 ** digits
    if mode == "half":
        return math.floor(abs(x) * factor + 0.5) / factor * (1 if x >= 0 else -1)
    if mode == "up":
        return math.ceil(abs(x) * factor - 1e-9) / factor * (1 if x >= 0 else -1)
    return math.floor(abs(x) * factor + 1e-9) / factor * (1 if x >= 0 else -1)


def _vlookup(key: Value, table: Any, index: Value, exact: Value = True) -> Value:
    if not isinstance(table, _RangeVal):
        raise _err("#N/A", "VLOOKUP needs a range")
    col = int(to_number(index)) - 1
    if col < 0:
        raise _err("#VALUE!", "VLOOKUP column index must be at least 1")
    sorted_mode = to_bool(exact) if exact is not None else True
    hit: list[Value] | None = None
    for row in table.rows:
        first = row[0] if row else None
        if not sorted_mode:
            if first is not None and _rank(first) == _rank(key):
                hit = row
                break
        elif first is not None and _rank(first)[0] == _rank(key)[0] and _rank(first) <= _rank(key):
            hit = row
    if hit is None:
        raise _err("#N/A", f"Did not find value '{to_text(key)}' in VLOOKUP evaluation.")
    if col >= len(hit):
        raise _err("#REF!", "VLOOKUP column index is out of range")
    return hit[col]


def _need(args: list[Any], lo: int, hi: int, name: str) -> None:
    if not lo <= len(args) <= hi:
        raise _err("#N/A", f"Wrong number of arguments to {name}. Expected between {lo} and {hi} arguments, but got {len(args)} arguments.")


def _scalar(a: Any) -> Value:
    if isinstance(a, _RangeVal):
        flat = a.flat()
        return flat[0] if len(flat) == 1 else _raise(_err("#VALUE!", "An array value could not be found."))
    return a


def _raise(e: Exception) -> Any:
    raise e


class _Scalars:
    """``args[i]`` as one value, taken only when a function reads it (those that take ranges read
    ``args``): a one-cell range is its value, a larger one #VALUE!."""

    def __init__(self, args: list[Any]) -> None:
        self.args = args

    def __getitem__(self, i: int) -> Value:
        return _scalar(self.args[i])

    def __len__(self) -> int:
        return len(self.args)


def _call(name: str, args: list[Any]) -> Value:
    s = _Scalars(args)
    if name == "SUM":
        return sum(_numbers(args))
    if name == "PRODUCT":
        return math.prod(_numbers(args)) if args else 0.0
    if name in ("AVERAGE", "MEAN"):
        nums = _numbers(args)
        if not nums:
            raise _err("#DIV/0!", "Evaluation of function AVERAGE caused a divide by zero error.")
        return sum(nums) / len(nums)
    if name == "MEDIAN":
        nums = sorted(_numbers(args))
        if not nums:
            raise _err("#NUM!", "MEDIAN has no valid input data.")
        mid = len(nums) // 2
        return nums[mid] if len(nums) % 2 else (nums[mid - 1] + nums[mid]) / 2
    if name == "MIN":
        nums = _numbers(args)
        return min(nums) if nums else 0.0
    if name == "MAX":
        nums = _numbers(args)
        return max(nums) if nums else 0.0
    if name == "COUNT":
        n = 0
        for a in args:
            vals = a.flat() if isinstance(a, _RangeVal) else [a]
            n += sum(1 for v in vals if isinstance(v, (int, float)) and not isinstance(v, bool))
        return float(n)
    if name == "COUNTA":
        return float(sum(1 for v in _values(args) if v is not None and v != ""))
    if name == "COUNTBLANK":
        return float(sum(1 for v in _values(args) if v is None or v == ""))
    if name == "IF":
        _need(args, 2, 3, name)
        cond = to_bool(_scalar(args[0]))
        if cond:
            return _scalar(args[1])
        return _scalar(args[2]) if len(args) > 2 else False
    if name == "IFERROR":
        raise AssertionError("IFERROR is evaluated lazily")
    if name == "AND":
        return all(to_bool(v) for v in _values(args) if v is not None)
    if name == "OR":
        return any(to_bool(v) for v in _values(args) if v is not None)
    if name == "NOT":
        _need(args, 1, 1, name)
        return not to_bool(_scalar(args[0]))
    if name in ("ROUND", "ROUNDUP", "ROUNDDOWN"):
        _need(args, 1, 2, name)
        digits = int(to_number(s[1])) if len(s) > 1 else 0
        return _round(to_number(s[0]), digits, {"ROUND": "half", "ROUNDUP": "up", "ROUNDDOWN": "down"}[name])
    if name == "ABS":
        _need(args, 1, 1, name)
        return abs(to_number(s[0]))
    if name == "INT":
        _need(args, 1, 1, name)
        return float(math.floor(to_number(s[0])))
    if name == "MOD":
        _need(args, 2, 2, name)
        d = to_number(s[1])
        if d == 0:
            raise _err("#DIV/0!", "Function MOD parameter 2 cannot be zero.")
        return to_number(s[0]) % d
    if name == "POWER":
        _need(args, 2, 2, name)
        return to_number(s[0]) ** to_number(s[1])
    if name == "SQRT":
        _need(args, 1, 1, name)
        x = to_number(s[0])
        if x < 0:
            raise _err("#NUM!", "Function SQRT parameter 1 value is negative.")
        return math.sqrt(x)
    if name in ("CONCATENATE", "CONCAT"):
        return "".join(to_text(v) for v in _values(args))
    if name == "LEN":
        _need(args, 1, 1, name)
        return float(len(to_text(s[0])))
    if name == "UPPER":
        return to_text(s[0]).upper()
    if name == "LOWER":
        return to_text(s[0]).lower()
    if name == "TRIM":
        return " ".join(to_text(s[0]).split())
    if name == "LEFT":
        return to_text(s[0])[: int(to_number(s[1])) if len(s) > 1 else 1]
    if name == "RIGHT":
        n = int(to_number(s[1])) if len(s) > 1 else 1
        return to_text(s[0])[-n:] if n else ""
    if name == "MID":
        _need(args, 3, 3, name)
        start = int(to_number(s[1])) - 1
        return to_text(s[0])[start:start + int(to_number(s[2]))]
    if name in ("SUMIF", "COUNTIF", "AVERAGEIF"):
        _need(args, 2, 3, name)
        rng = args[0] if isinstance(args[0], _RangeVal) else _RangeVal([[args[0]]])
        check = _criterion(_scalar(args[1]))
        target = args[2] if len(args) > 2 and isinstance(args[2], _RangeVal) else rng
        picked = [t for v, t in zip(rng.flat(), target.flat()) if check(v)]
        if name == "COUNTIF":
            return float(len(picked))
        nums = [float(v) for v in picked if isinstance(v, (int, float)) and not isinstance(v, bool)]
        if name == "SUMIF":
            return sum(nums)
        if not nums:
            raise _err("#DIV/0!", "AVERAGEIF found no matching numbers.")
        return sum(nums) / len(nums)
    if name == "VLOOKUP":
        _need(args, 3, 4, name)
        return _vlookup(_scalar(args[0]), args[1], _scalar(args[2]),
                        _scalar(args[3]) if len(args) > 3 else True)
    raise _err("#NAME?", f"Unknown function: '{name}'.")


def _eval(node: tuple, ctx: Context) -> Any:
    kind = node[0]
    if kind == "num":
        return node[1]
    if kind in ("str", "bool"):
        return node[1]
    if kind == "blank":
        return None
    if kind == "name":
        raise _err("#NAME?", f"Unknown range name: '{node[1]}'.")
    if kind == "ref":
        _, sheet, (sr, er, sc, ec) = node
        if sr is not None and er == sr + 1 and sc is not None and ec == sc + 1:
            return ctx.cell(sheet, sr, sc)
        return _RangeVal(ctx.range(sheet, sr, er, sc, ec))
    if kind == "unary":
        v = to_number(_scalar(_eval(node[2], ctx)))
        return -v if node[1] == "-" else v
    if kind == "pct":
        return to_number(_scalar(_eval(node[1], ctx))) / 100.0
    if kind == "binary":
        op = node[1]
        a = _scalar(_eval(node[2], ctx))
        b = _scalar(_eval(node[3], ctx))
        if op == "&":
            return to_text(a) + to_text(b)
        if op in ("=", "<>", "<", ">", "<=", ">="):
            return _compare(op, a, b)
        x, y = to_number(a), to_number(b)
        if op == "+":
            return x + y
        if op == "-":
            return x - y
        if op == "*":
            return x * y
        if op == "/":
            if y == 0:
                raise _err("#DIV/0!", "Function DIVIDE parameter 2 cannot be zero.")
            return x / y
        if op == "^":
            return x ** y
    if kind == "call":
        name, arg_nodes = node[1], node[2]
        if name == "IFERROR":
            _need(arg_nodes, 1, 2, name)
            try:
                value = _scalar(_eval(arg_nodes[0], ctx))
                if isinstance(value, FormulaError):
                    raise _ErrorRaised(value)
                return value
            except _ErrorRaised:
                return _scalar(_eval(arg_nodes[1], ctx)) if len(arg_nodes) > 1 else ""
        if name == "IF":
            # Only the chosen branch is evaluated, as in Sheets.
            _need(arg_nodes, 2, 3, name)
            cond = to_bool(_scalar(_eval(arg_nodes[0], ctx)))
            if cond:
                return _scalar(_eval(arg_nodes[1], ctx))
            return _scalar(_eval(arg_nodes[2], ctx)) if len(arg_nodes) > 2 else False
        return _call(name, [_eval(a, ctx) for a in arg_nodes])
    raise _err("#ERROR!", f"Unsupported formula element {kind}")


def evaluate(formula: str, ctx: Context) -> Value:
    """Evaluate '=...' against `ctx`; errors come back as FormulaError values."""
    try:
        v = _scalar(_eval(parse_formula(formula), ctx))
    except _ErrorRaised as e:
        return e.err
    except RecursionError:
        return FormulaError("#REF!", "Circular dependency detected.")
    if isinstance(v, float) and (math.isinf(v) or math.isnan(v)):
        return FormulaError("#NUM!", "The result is not a finite number.")
    return None if v is None else v


def is_error(v: Any) -> bool:
    return isinstance(v, FormulaError)
