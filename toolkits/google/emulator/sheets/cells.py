"""Cell values for the Sheets emulator: input parsing and rendering.

A stored cell is a small dict: `{"v": value}` for a literal (float, str or
bool), `{"f": "=SUM(A1:A3)"}` for a formula, plus an optional `"fmt"`
(`{"type": "PERCENT", "pattern": "0%"}`) recording the number format that
USER_ENTERED parsing inferred, so FORMATTED_VALUE reads show "50%" or
"2024-01-15" the way Sheets does.
"""

from __future__ import annotations

import re
from datetime import date, datetime, timedelta
from typing import Any

from .formulas import FormulaError, Value, format_number

Cell = dict[str, Any]

# Sheets' date serial numbers count days from 1899-12-30.
_EPOCH = datetime(1899, 12, 30)

_NUM = re.compile(r"^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$")
_GROUPED = re.compile(r"^[+-]?\d{1,3}(,\d{3})+(\.\d+)?$")
_CURRENCY = re.compile(r"^([+-]?)\$(\d{1,3}(?:,\d{3})+|\d+)(\.\d+)?$")
_PERCENT = re.compile(r"^([+-]?(?:\d+\.?\d*|\.\d+))%$")
_ISO_DATE = re.compile(r"^(\d{4})-(\d{1,2})-(\d{1,2})(?:[ T](\d{1,2}):(\d{2})(?::(\d{2}))?)?$")
_US_DATE = re.compile(r"^(\d{1,2})/(\d{1,2})/(\d{4})(?: (\d{1,2}):(\d{2})(?::(\d{2}))?)?$")


def _serial(dt: datetime) -> float:
    delta = dt - _EPOCH
    return delta.days + delta.seconds / 86400.0


def _date_from_match(m: re.Match[str], iso: bool) -> tuple[datetime, bool] | None:
    g = m.groups()
    y, mo, d = (int(g[0]), int(g[1]), int(g[2])) if iso else (int(g[2]), int(g[0]), int(g[1]))
    try:
        dt = datetime(y, mo, d, int(g[3] or 0), int(g[4] or 0), int(g[5] or 0))
    except ValueError:
        return None
    return dt, g[3] is not None


def parse_user_entered(raw: Any) -> Cell:
    """What typing `raw` into a cell stores (valueInputOption=USER_ENTERED)."""
    if isinstance(raw, bool):
        return {"v": raw}
    if isinstance(raw, (int, float)):
        return {"v": float(raw)}
    s = str(raw)
    if s.startswith("'"):
        return {"v": s[1:]}  # a leading apostrophe forces text, and is not stored
    if s.startswith("=") and len(s) > 1:
        return {"f": s}
    t = s.strip()
    if t.upper() in ("TRUE", "FALSE"):
        return {"v": t.upper() == "TRUE"}
    if _NUM.match(t):
        return {"v": float(t)}
    if _GROUPED.match(t):
        dec = "." in t
        return {"v": float(t.replace(",", "")),
                "fmt": {"type": "NUMBER", "pattern": "#,##0.00" if dec else "#,##0"}}
    m = _CURRENCY.match(t)
    if m:
        num = float(m.group(1) + m.group(2).replace(",", "") + (m.group(3) or ""))
        return {"v": num, "fmt": {"type": "CURRENCY", "pattern": '"$"#,##0.00'}}
    m = _PERCENT.match(t)
    if m:
        whole = float(m.group(1)).is_integer()
        return {"v": float(m.group(1)) / 100.0,
                "fmt": {"type": "PERCENT", "pattern": "0%" if whole else "0.00%"}}
    for rx, iso in ((_ISO_DATE, True), (_US_DATE, False)):
        m = rx.match(t)
        if m:
            parsed = _date_from_match(m, iso)
            if parsed:
                dt, has_time = parsed
                date_pat = "yyyy-mm-dd" if iso else "M/d/yyyy"
                if has_time:
                    return {"v": _serial(dt), "fmt": {"type": "DATE_TIME", "pattern": date_pat + " H:mm:ss"}}
                return {"v": _serial(dt), "fmt": {"type": "DATE", "pattern": date_pat}}
    return {"v": s}


def parse_raw(raw: Any) -> Cell:
    """valueInputOption=RAW: strings stay strings, even '=1+2' or '12'."""
    if isinstance(raw, bool):
        return {"v": raw}
    if isinstance(raw, (int, float)):
        return {"v": float(raw)}
    return {"v": str(raw)}


def _group(x: float, decimals: int) -> str:
    return f"{x:,.{decimals}f}"


def _format_date(serial: float, pattern: str) -> str:
    dt = _EPOCH + timedelta(days=serial)
    out = pattern
    # Order matters: longest tokens first so 'yyyy' is not read as two 'yy'.
    for token, value in (("yyyy", f"{dt.year:04d}"), ("mm", f"{dt.month:02d}"), ("dd", f"{dt.day:02d}"),
                         ("M", str(dt.month)), ("d", str(dt.day)), ("H", str(dt.hour)),
                         ("mm", f"{dt.minute:02d}"), ("ss", f"{dt.second:02d}")):
        out = out.replace(token, value, 1)
    return out


def format_value(v: Value, fmt: dict[str, Any] | None) -> str:
    """The FORMATTED_VALUE string of an effective value under its number format."""
    if v is None:
        return ""
    if isinstance(v, FormulaError):
        return v.code
    if isinstance(v, bool):
        return "TRUE" if v else "FALSE"
    if isinstance(v, str):
        return v
    kind = (fmt or {}).get("type")
    pattern = str((fmt or {}).get("pattern", ""))
    if kind == "PERCENT":
        decimals = len(pattern.split(".")[1].rstrip("%")) if "." in pattern else 0
        return f"{v * 100:.{decimals}f}%"
    if kind == "CURRENCY":
        sign = "-" if v < 0 else ""
        return f"{sign}${_group(abs(v), 2)}"
    if kind == "NUMBER" and pattern:
        decimals = len(pattern.split(".")[1]) if "." in pattern else 0
        return _group(v, decimals) if "," in pattern else f"{v:.{decimals}f}"
    if kind in ("DATE", "DATE_TIME", "TIME") and pattern:
        try:
            return _format_date(v, pattern)
        except (OverflowError, ValueError):
            return format_number(v)
    return format_number(v)


def unformatted(v: Value) -> Any:
    """UNFORMATTED_VALUE: whole numbers come back as JSON integers, like Google's."""
    if isinstance(v, FormulaError):
        return v.code
    if isinstance(v, float) and v.is_integer() and abs(v) < 2**53:
        return int(v)
    return "" if v is None else v


_ERROR_TYPES = {"#DIV/0!": "DIVIDE_BY_ZERO", "#VALUE!": "VALUE", "#REF!": "REF", "#NAME?": "NAME",
                "#N/A": "N_A", "#NUM!": "NUM", "#ERROR!": "ERROR", "#NULL!": "NULL_VALUE"}


def extended_value(v: Value) -> dict[str, Any]:
    """An ExtendedValue JSON object (effectiveValue / userEnteredValue)."""
    if isinstance(v, FormulaError):
        return {"errorValue": {"type": _ERROR_TYPES.get(v.code, "ERROR"), "message": v.message or v.code}}
    if isinstance(v, bool):
        return {"boolValue": v}
    if isinstance(v, float):
        return {"numberValue": unformatted(v)}
    return {"stringValue": "" if v is None else str(v)}


def cell_from_extended(ev: dict[str, Any]) -> Cell:
    """Inverse of extended_value for userEnteredValue in updateCells/repeatCell."""
    if "formulaValue" in ev:
        return {"f": str(ev["formulaValue"])}
    if "numberValue" in ev:
        return {"v": float(ev["numberValue"])}
    if "boolValue" in ev:
        return {"v": bool(ev["boolValue"])}
    return {"v": str(ev.get("stringValue", ""))}


def date_serial(d: date) -> float:
    return _serial(datetime(d.year, d.month, d.day))
