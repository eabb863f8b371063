"""The spreadsheet model behind the Sheets v4 emulator (pure, no I/O).

A `Book` holds one spreadsheet: its properties, sheets and sparse cells. The
values.* semantics live here (get/update/append/clear with A1 ranges, RAW and
USER_ENTERED input, FORMATTED_VALUE / UNFORMATTED_VALUE / FORMULA output) as
well as the Spreadsheet JSON that spreadsheets.get returns. Errors raise
`SheetsError` with the HTTP status and message Google uses.
"""

from __future__ import annotations

import copy
from typing import Any

from .a1 import A1Range, RangeError, format_range, index_to_col, parse_a1, quote_sheet
from .cells import (
    Cell,
    extended_value,
    format_value,
    parse_raw,
    parse_user_entered,
    unformatted,
)
from .formulas import FormulaError, Value, evaluate

DEFAULT_ROWS = 1000
DEFAULT_COLS = 26


class SheetsError(Exception):
    def __init__(self, status: int, message: str, reason: str = "badRequest") -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason


class Sheet:
    def __init__(self, props: dict[str, Any], cells: dict[tuple[int, int], Cell] | None = None) -> None:
        self.props = props
        self.cells: dict[tuple[int, int], Cell] = cells or {}

    @property
    def title(self) -> str:
        return str(self.props["title"])

    @property
    def sheet_id(self) -> int:
        return int(self.props["sheetId"])

    @property
    def rows(self) -> int:
        return int(self.props["gridProperties"]["rowCount"])

    @property
    def cols(self) -> int:
        return int(self.props["gridProperties"]["columnCount"])

    def grow(self, rows: int, cols: int) -> None:
        gp = self.props["gridProperties"]
        gp["rowCount"] = max(self.rows, rows)
        gp["columnCount"] = max(self.cols, cols)


def sheet_properties(sheet_id: int, title: str, index: int, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    props: dict[str, Any] = {"sheetId": sheet_id, "title": title, "index": index, "sheetType": "GRID",
                             "gridProperties": {"rowCount": DEFAULT_ROWS, "columnCount": DEFAULT_COLS}}
    for k, v in (extra or {}).items():
        if k == "gridProperties":
            props["gridProperties"].update(v)
        elif k not in ("sheetId", "index") and v is not None:
            props[k] = v
    return props


class _Evaluator:
    """Formula context: evaluates referenced cells on demand, catching cycles."""

    def __init__(self, book: Book, home: Sheet) -> None:
        self.book = book
        self.home = home
        self.cache: dict[tuple[int, int, int], Value] = {}
        self.active: set[tuple[int, int, int]] = set()
        self.used: dict[int, tuple[int, int]] = {}  # sheet id -> (rows, cols) in use

    def _sheet(self, name: str | None) -> Sheet:
        if name is None:
            return self.home
        s = self.book.sheet_by_title(name)
        if s is None:
            from .formulas import _err
            raise _err("#REF!", f"Unresolved sheet name '{name}'.")
        return s

    def value_of(self, sheet: Sheet, r: int, c: int) -> Value:
        key = (sheet.sheet_id, r, c)
        if key in self.cache:
            return self.cache[key]
        cell = sheet.cells.get((r, c))
        if cell is None:
            return None
        if "f" not in cell:
            return cell.get("v")
        if key in self.active:
            return FormulaError("#REF!", "Circular dependency detected. To resolve with iterative calculation, see File > Settings.")
        self.active.add(key)
        prev_home, self.home = self.home, sheet
        try:
            v = evaluate(cell["f"], self)
        finally:
            self.home = prev_home
            self.active.discard(key)
        self.cache[key] = v
        return v

    def cell(self, sheet: str | None, row: int, col: int) -> Value:
        return self.value_of(self._sheet(sheet), row, col)

    def range(self, sheet: str | None, sr: int | None, er: int | None,
              sc: int | None, ec: int | None) -> list[list[Value]]:
        s = self._sheet(sheet)
        r0, c0 = sr or 0, sc or 0
        # Open ranges stop at the last used row/column, not the grid edge.
        if er is None or ec is None:
            used = self.used.get(s.sheet_id)
            if used is None:
                used = (max((r for r, _ in s.cells), default=-1) + 1, max((c for _, c in s.cells), default=-1) + 1)
                self.used[s.sheet_id] = used
            er = er if er is not None else used[0]
            ec = ec if ec is not None else used[1]
        return [[self.value_of(s, r, c) for c in range(c0, ec)] for r in range(r0, er)]


class Book:
    """One spreadsheet. `from_json`/`to_json` round-trip it through storage."""

    def __init__(self, spreadsheet_id: str, properties: dict[str, Any], sheets: list[Sheet], next_sheet_id: int) -> None:
        self.spreadsheet_id = spreadsheet_id
        self.properties = properties
        self.sheets = sheets
        self.next_sheet_id = next_sheet_id

    # ---------------------------------------------------------------- storage
    @classmethod
    def new(cls, spreadsheet_id: str, body: dict[str, Any] | None = None) -> Book:
        body = body or {}
        props = {"title": "Untitled spreadsheet", "locale": "en_US", "autoRecalc": "ON_CHANGE",
                 "timeZone": "Etc/GMT",
                 "defaultFormat": {"backgroundColor": {"red": 1, "green": 1, "blue": 1},
                                   "padding": {"top": 2, "right": 3, "bottom": 2, "left": 3},
                                   "verticalAlignment": "BOTTOM", "wrapStrategy": "OVERFLOW_CELL",
                                   "textFormat": {"foregroundColor": {}, "fontFamily": "arial", "fontSize": 10,
                                                  "bold": False, "italic": False, "strikethrough": False,
                                                  "underline": False}},
                 "spreadsheetTheme": {"primaryFontFamily": "Arial"}}
        for k, v in (body.get("properties") or {}).items():
            if v is not None:
                props[k] = v
        book = cls(spreadsheet_id, props, [], 0)
        for spec in body.get("sheets") or []:
            p = dict(spec.get("properties") or {})
            book.add_sheet(p)
            sheet = book.sheets[-1]
            for grid in spec.get("data") or []:
                r0, c0 = int(grid.get("startRow", 0)), int(grid.get("startColumn", 0))
                for dr, row in enumerate(grid.get("rowData") or []):
                    for dc, cd in enumerate(row.get("values") or []):
                        uev = (cd or {}).get("userEnteredValue")
                        if uev:
                            from .cells import cell_from_extended
                            sheet.cells[(r0 + dr, c0 + dc)] = cell_from_extended(uev)
        if not book.sheets:
            book.add_sheet({})
        return book

    @classmethod
    def from_json(cls, data: dict[str, Any]) -> Book:
        sheets = []
        for s in data["sheets"]:
            cells = {}
            for key, cell in s["cells"].items():
                r, c = key.split(",")
                cells[(int(r), int(c))] = cell
            sheets.append(Sheet(s["properties"], cells))
        return cls(data["spreadsheetId"], data["properties"], sheets, int(data["nextSheetId"]))

    def to_json(self) -> dict[str, Any]:
        return {"spreadsheetId": self.spreadsheet_id, "properties": self.properties,
                "nextSheetId": self.next_sheet_id,
                "sheets": [{"properties": s.props,
                            "cells": {f"{r},{c}": cell for (r, c), cell in s.cells.items()}}
                           for s in self.sheets]}

    # ----------------------------------------------------------------- sheets
    def sheet_by_title(self, title: str) -> Sheet | None:
        return next((s for s in self.sheets if s.title == title), None)

    def sheet_by_id(self, sheet_id: int) -> Sheet | None:
        return next((s for s in self.sheets if s.sheet_id == sheet_id), None)

    def _reindex(self) -> None:
        for i, s in enumerate(self.sheets):
            s.props["index"] = i

    def add_sheet(self, props: dict[str, Any]) -> Sheet:
        title = props.get("title")
        if title is None:
            n = len(self.sheets) + 1
            while self.sheet_by_title(f"Sheet{n}"):
                n += 1
            title = f"Sheet{n}"
        if self.sheet_by_title(str(title)):
            raise SheetsError(400, f'A sheet with the name "{title}" already exists. Please enter another name.')
        sheet_id = props.get("sheetId")
        if sheet_id is None:
            # Google gives the first sheet id 0 and random ids after; a counter
            # keeps the emulator deterministic.
            sheet_id = 0 if not self.sheets else max(self.next_sheet_id, 1)
            while self.sheet_by_id(int(sheet_id)):
                sheet_id = int(sheet_id) + 1
        elif self.sheet_by_id(int(sheet_id)):
            raise SheetsError(400, f"Sheet with id {sheet_id} already exists.")
        self.next_sheet_id = max(self.next_sheet_id, int(sheet_id) + 1)
        index = props.get("index")
        index = len(self.sheets) if index is None else max(0, min(int(index), len(self.sheets)))
        sheet = Sheet(sheet_properties(int(sheet_id), str(title), index, props))
        self.sheets.insert(index, sheet)
        self._reindex()
        return sheet

    def delete_sheet(self, sheet_id: int) -> None:
        sheet = self.sheet_by_id(sheet_id)
        if sheet is None:
            raise SheetsError(400, f"No sheet with id: {sheet_id}")
        if len(self.sheets) == 1:
            raise SheetsError(400, "You can't remove all the sheets in a document.")
        self.sheets.remove(sheet)
        self._reindex()

    def move_sheet(self, sheet: Sheet, index: int) -> None:
        self.sheets.remove(sheet)
        self.sheets.insert(max(0, min(index, len(self.sheets))), sheet)
        self._reindex()

    # ----------------------------------------------------------------- ranges
    def resolve(self, a1: str) -> tuple[Sheet, A1Range]:
        try:
            rng = parse_a1(a1, [s.title for s in self.sheets])
        except RangeError as exc:
            raise SheetsError(400, str(exc)) from None
        if rng.sheet is None:
            return self.sheets[0], rng
        sheet = self.sheet_by_title(rng.sheet)
        if sheet is None:
            raise SheetsError(400, f"Unable to parse range: {a1}")
        return sheet, rng

    def bounded_for_read(self, a1: str) -> tuple[Sheet, int, int, int, int]:
        sheet, rng = self.resolve(a1)
        sr, er, sc, ec = rng.bounded(sheet.rows, sheet.cols)
        if er > sheet.rows or ec > sheet.cols or sr >= sheet.rows or sc >= sheet.cols:
            raise SheetsError(400, f"Range ({quote_sheet(sheet.title)}!{_corner(rng)}) exceeds grid limits. "
                                   f"Max rows: {sheet.rows}, max columns: {sheet.cols}")
        return sheet, sr, er, sc, ec

    # ----------------------------------------------------------------- values
    def effective(self, sheet: Sheet, r: int, c: int, ev: _Evaluator | None = None) -> Value:
        return (ev or _Evaluator(self, sheet)).value_of(sheet, r, c)

    def render(self, sheet: Sheet, r: int, c: int, option: str, ev: _Evaluator,
               date_option: str = "SERIAL_NUMBER") -> Any:
        cell = sheet.cells.get((r, c))
        if cell is None:
            return ""
        if option == "FORMULA" and "f" in cell:
            return cell["f"]
        v = ev.value_of(sheet, r, c)
        if option == "FORMATTED_VALUE":
            return format_value(v, cell.get("fmt"))
        fmt_type = (cell.get("fmt") or {}).get("type")
        if date_option == "FORMATTED_STRING" and fmt_type in ("DATE", "DATE_TIME", "TIME"):
            return format_value(v, cell.get("fmt"))
        return unformatted(v)

    def get_values(self, a1: str, *, major: str = "ROWS", render: str = "FORMATTED_VALUE",
                   date_render: str = "SERIAL_NUMBER") -> dict[str, Any]:
        """values.get: a ValueRange with trailing empty rows and cells trimmed."""
        sheet, sr, er, sc, ec = self.bounded_for_read(a1)
        ev = _Evaluator(self, sheet)
        grid: list[list[Any]] = []
        used = [(r, c) for (r, c) in sheet.cells if sr <= r < er and sc <= c < ec]
        if used:
            last_r = max(r for r, _ in used) + 1
            last_c = max(c for _, c in used) + 1
            grid = [[self.render(sheet, r, c, render, ev, date_render) for c in range(sc, last_c)]
                    for r in range(sr, last_r)]
        if major == "COLUMNS":
            width = max((len(row) for row in grid), default=0)
            grid = [[row[i] if i < len(row) else "" for row in grid] for i in range(width)]
        trimmed = [_trim(row) for row in grid]
        while trimmed and not trimmed[-1]:
            trimmed.pop()
        out: dict[str, Any] = {"range": format_range(sheet.title, sr, er, sc, ec), "majorDimension": major}
        if trimmed:
            out["values"] = trimmed
        return out

    def _write_grid(self, a1: str, values: list[list[Any]], major: str) -> tuple[Sheet, int, int, list[list[Any]], A1Range]:
        sheet, rng = self.resolve(a1)
        rows = [list(r) if isinstance(r, list) else [r] for r in values]
        if major == "COLUMNS":
            height = max((len(c) for c in rows), default=0)
            rows = [[col[i] if i < len(col) else None for col in rows] for i in range(height)]
        sr, sc = rng.start_row or 0, rng.start_col or 0
        height = len(rows)
        width = max((len(r) for r in rows), default=0)
        # A single cell is only an anchor: Google writes the whole block from it.
        single = rng.end_row == sr + 1 and rng.end_col == sc + 1
        if single:
            return sheet, sr, sc, rows, rng
        if rng.end_row is not None and sr + height > rng.end_row:
            raise SheetsError(400, f"Requested writing within range [{a1}], but tried writing to row [{sr + height}]")
        if rng.end_col is not None and sc + width > rng.end_col:
            raise SheetsError(400, f"Requested writing within range [{a1}], but tried writing to column [{index_to_col(sc + width - 1)}]")
        return sheet, sr, sc, rows, rng

    def _store(self, sheet: Sheet, sr: int, sc: int, rows: list[list[Any]], input_option: str) -> tuple[int, int, int]:
        """Write cells; None skips a cell, '' clears it. Returns (rows, cols, cells) touched."""
        if input_option not in ("RAW", "USER_ENTERED"):
            raise SheetsError(400, f"Invalid valueInputOption: {input_option!r}. Use RAW or USER_ENTERED.")
        parse = parse_raw if input_option == "RAW" else parse_user_entered
        touched_rows: set[int] = set()
        touched_cols: set[int] = set()
        count = 0
        for dr, row in enumerate(rows):
            for dc, raw in enumerate(row):
                if raw is None:
                    continue
                if isinstance(raw, (dict, list)):
                    raise SheetsError(400, f"Invalid values[{dr}][{dc}]: a cell value must be a string, number or boolean, got {type(raw).__name__}")
                key = (sr + dr, sc + dc)
                if raw == "":
                    sheet.cells.pop(key, None)
                else:
                    sheet.cells[key] = parse(raw)
                touched_rows.add(key[0])
                touched_cols.add(key[1])
                count += 1
        if touched_rows:
            sheet.grow(max(touched_rows) + 1, max(touched_cols) + 1)
        return len(touched_rows), len(touched_cols), count

    def update_values(self, a1: str, values: list[list[Any]], *, input_option: str,
                      major: str = "ROWS", include_values: bool = False,
                      render: str = "FORMATTED_VALUE") -> dict[str, Any]:
        """values.update: write a block starting at the range's top-left corner."""
        sheet, sr, sc, rows, _ = self._write_grid(a1, values, major)
        n_rows, n_cols, n_cells = self._store(sheet, sr, sc, rows, input_option)
        height = len(rows)
        width = max((len(r) for r in rows), default=0)
        out: dict[str, Any] = {"spreadsheetId": self.spreadsheet_id,
                               "updatedRange": format_range(sheet.title, sr, sr + max(height, 1), sc, sc + max(width, 1))}
        if n_cells:
            out.update(updatedRows=n_rows, updatedColumns=n_cols, updatedCells=n_cells)
        if include_values:
            out["updatedData"] = self.get_values(out["updatedRange"], render=render)
        return out

    def append_values(self, a1: str, values: list[list[Any]], *, input_option: str,
                      insert_option: str = "OVERWRITE", major: str = "ROWS",
                      include_values: bool = False, render: str = "FORMATTED_VALUE") -> dict[str, Any]:
        """values.append: find the table in the range and write after its last row."""
        sheet, rng = self.resolve(a1)
        sr, _, sc, ec = rng.bounded(sheet.rows, sheet.cols)
        in_cols = [(r, c) for (r, c) in sheet.cells if sc <= c < ec and r >= sr]
        table_range = None
        start_row, start_col = sr, sc
        if in_cols:
            # The "table" is the block of touching data that starts at the
            # first used row of the range; grow it down and right until the
            # next row and column are empty.
            first = min(r for r, _ in in_cols)
            c0 = min(c for r, c in in_cols if r == first)
            c1 = max(c for r, c in in_cols if r == first)
            last = first
            cells = sheet.cells
            while True:
                grew = False
                if any((last + 1, c) in cells for c in range(c0, c1 + 1)):
                    last += 1
                    grew = True
                if any((r, c1 + 1) in cells for r in range(first, last + 1)):
                    c1 += 1
                    grew = True
                if not grew:
                    break
            start_col = c0
            table_range = format_range(sheet.title, first, last + 1, c0, c1 + 1)
            start_row = last + 1
        grid = [list(r) if isinstance(r, list) else [r] for r in values]
        if major == "COLUMNS":
            height = max((len(c) for c in grid), default=0)
            grid = [[col[i] if i < len(col) else None for col in grid] for i in range(height)]
        if insert_option == "INSERT_ROWS" and grid:
            self._shift_rows(sheet, start_row, len(grid))
        elif insert_option not in ("OVERWRITE", "INSERT_ROWS"):
            raise SheetsError(400, f"Invalid insertDataOption: {insert_option!r}. Use OVERWRITE or INSERT_ROWS.")
        n_rows, n_cols, n_cells = self._store(sheet, start_row, start_col, grid, input_option)
        width = max((len(r) for r in grid), default=0)
        updated = format_range(sheet.title, start_row, start_row + max(len(grid), 1), start_col, start_col + max(width, 1))
        updates: dict[str, Any] = {"spreadsheetId": self.spreadsheet_id, "updatedRange": updated}
        if n_cells:
            updates.update(updatedRows=n_rows, updatedColumns=n_cols, updatedCells=n_cells)
        if include_values:
            updates["updatedData"] = self.get_values(updated, render=render)
        out: dict[str, Any] = {"spreadsheetId": self.spreadsheet_id, "updates": updates}
        if table_range:
            out["tableRange"] = table_range
        return out

    def _shift_rows(self, sheet: Sheet, at: int, n: int) -> None:
        moved = {((r + n) if r >= at else r, c): cell for (r, c), cell in sheet.cells.items()}
        sheet.cells = moved
        sheet.grow(sheet.rows + n, sheet.cols)

    def clear_values(self, a1: str) -> dict[str, Any]:
        sheet, sr, er, sc, ec = self.bounded_for_read(a1)
        for key in [k for k in sheet.cells if sr <= k[0] < er and sc <= k[1] < ec]:
            del sheet.cells[key]
        return {"spreadsheetId": self.spreadsheet_id, "clearedRange": format_range(sheet.title, sr, er, sc, ec)}

    # -------------------------------------------------------- dimension edits
    def insert_dimension(self, sheet: Sheet, dim: str, start: int, end: int) -> None:
        n = end - start
        if dim == "ROWS":
            self._shift_rows(sheet, start, n)
        else:
            sheet.cells = {(r, (c + n) if c >= start else c): cell for (r, c), cell in sheet.cells.items()}
            sheet.grow(sheet.rows, sheet.cols + n)

    def delete_dimension(self, sheet: Sheet, dim: str, start: int, end: int) -> None:
        n = end - start
        gp = sheet.props["gridProperties"]
        if dim == "ROWS":
            if n >= sheet.rows:
                raise SheetsError(400, "You can't delete all the rows on the sheet.")
            sheet.cells = {((r - n) if r >= end else r, c): cell for (r, c), cell in sheet.cells.items()
                           if not start <= r < end}
            gp["rowCount"] = sheet.rows - n
        else:
            if n >= sheet.cols:
                raise SheetsError(400, "You can't delete all the columns on the sheet.")
            sheet.cells = {(r, (c - n) if c >= end else c): cell for (r, c), cell in sheet.cells.items()
                           if not start <= c < end}
            gp["columnCount"] = sheet.cols - n

    # ------------------------------------------------------------ JSON views
    def grid_data(self, sheet: Sheet, sr: int, er: int, sc: int, ec: int) -> dict[str, Any]:
        ev = _Evaluator(self, sheet)
        used = [(r, c) for (r, c) in sheet.cells if sr <= r < er and sc <= c < ec]
        last_r = max((r for r, _ in used), default=sr - 1) + 1
        last_c = max((c for _, c in used), default=sc - 1) + 1
        row_data = []
        for r in range(sr, last_r):
            values: list[dict[str, Any]] = []
            for c in range(sc, last_c):
                cell = sheet.cells.get((r, c))
                if cell is None:
                    values.append({})
                    continue
                v = ev.value_of(sheet, r, c)
                cd: dict[str, Any] = {
                    "userEnteredValue": {"formulaValue": cell["f"]} if "f" in cell else extended_value(cell.get("v")),
                    "effectiveValue": extended_value(v),
                    "formattedValue": format_value(v, cell.get("fmt"))}
                if cell.get("fmt"):
                    cd["userEnteredFormat"] = {"numberFormat": dict(cell["fmt"])}
                if cell.get("style"):
                    cd.setdefault("userEnteredFormat", {}).update(copy.deepcopy(cell["style"]))
                values.append(cd)
            while values and values[-1] == {}:
                values.pop()
            row_data.append({"values": values} if values else {})
        data: dict[str, Any] = {}
        if sr:
            data["startRow"] = sr
        if sc:
            data["startColumn"] = sc
        if row_data:
            data["rowData"] = row_data
        data["rowMetadata"] = [{"pixelSize": 21} for _ in range(sr, er)]
        data["columnMetadata"] = [{"pixelSize": 100} for _ in range(sc, ec)]
        return data

    def to_resource(self, *, ranges: list[str] | None = None, include_grid: bool = False,
                    url_base: str = "https://docs.google.com/spreadsheets/d/") -> dict[str, Any]:
        """The Spreadsheet JSON of spreadsheets.get."""
        wanted: dict[int, list[tuple[int, int, int, int]]] = {}
        for a1 in ranges or []:
            sheet, sr, er, sc, ec = self.bounded_for_read(a1)
            wanted.setdefault(sheet.sheet_id, []).append((sr, er, sc, ec))
        sheets = []
        for s in self.sheets:
            if ranges and s.sheet_id not in wanted:
                continue
            entry: dict[str, Any] = {"properties": copy.deepcopy(s.props)}
            if include_grid:
                boxes = wanted.get(s.sheet_id) or [(0, s.rows, 0, s.cols)]
                entry["data"] = [self.grid_data(s, *box) for box in boxes]
            sheets.append(entry)
        return {"spreadsheetId": self.spreadsheet_id, "properties": copy.deepcopy(self.properties),
                "sheets": sheets, "spreadsheetUrl": f"{url_base}{self.spreadsheet_id}/edit"}

    def to_csv(self, sheet: Sheet | None = None, sep: str = ",") -> str:
        """Drive export as text/csv (the first sheet), using formatted values."""
        import csv
        import io
        s = sheet or self.sheets[0]
        ev = _Evaluator(self, s)
        if not s.cells:
            return ""
        last_r = max(r for r, _ in s.cells) + 1
        last_c = max(c for _, c in s.cells) + 1
        buf = io.StringIO()
        w = csv.writer(buf, delimiter=sep, lineterminator="\r\n")
        for r in range(last_r):
            w.writerow([self.render(s, r, c, "FORMATTED_VALUE", ev) for c in range(last_c)])
        return buf.getvalue()


def _trim(row: list[Any]) -> list[Any]:
    while row and row[-1] == "":
        row.pop()
    return row


def _corner(rng: A1Range) -> str:
    r = (rng.end_row or 1)
    c = (rng.end_col or 1) - 1
    return f"{index_to_col(max(c, 0))}{r}"
