"""Pointer actions parsed from a step's code, and their mapping into screenshot pixels."""

from __future__ import annotations

from deskact.runtime.ui.viewer.clicks import find_points, to_image


def test_gui_toolkit_calls_are_in_image_pixels() -> None:
    code = (
        "windows.activate('Terminal')\n"
        "mouse.click(120, 45)\n"
        "mouse.double_click(x=10.5, y=20)\n"
        "gui.mouse.right_click(300, 200)\n"
        "mouse.drag((1, 2), (30, 40))\n"
        "mouse.scroll(0, 3, 50, 60)\n"
        "mouse.move(7, 8)\n"
    )
    got = [(p.action, p.x, p.y, p.space, p.line) for p in find_points(code)]
    assert got == [("click", 120, 45, "image", 2), ("double", 10.5, 20, "image", 3), ("right", 300, 200, "image", 4),
                   ("drag", 30, 40, "image", 5), ("scroll", 50, 60, "image", 6), ("move", 7, 8, "image", 7)]
    assert find_points(code)[3].start == (1, 2)


def test_pyautogui_calls_are_in_screen_pixels_and_scaled_into_the_image() -> None:
    code = "import pyautogui\npyautogui.click(960, 540)\npyautogui.moveTo((100, 200))\npyautogui.scroll(-3, 400, 300)\n"
    points = find_points(code)
    assert [(p.action, p.x, p.y, p.space) for p in points] == [
        ("click", 960, 540, "screen"), ("move", 100, 200, "screen"), ("scroll", 400, 300, "screen")]
    # A 1920x1080 screen shown as a 1280x720 screenshot: everything times 2/3.
    scaled = to_image(points, (1280, 720), (1920, 1080))
    assert [(round(p.x, 3), round(p.y, 3), p.space) for p in scaled] == [
        (640, 360, "image"), (66.667, 133.333, "image"), (266.667, 200, "image")]
    # Screen size unknown: screen-space points are dropped rather than drawn in the wrong place.
    assert to_image(points, (1280, 720), None) == []


def test_relative_and_computed_positions_are_not_guessed() -> None:
    code = (
        "pyautogui.move(10, 0)\n"        # relative in pyautogui
        "pyautogui.drag(5, 5)\n"         # relative too
        "mouse.click(*box.center)\n"     # computed
        "mouse.click(x, 100)\n"          # a variable
        "mouse.click()\n"                # where the pointer is
        "keyboard.press('enter')\n"
        "other.click(1, 2)\n"            # not the mouse
    )
    assert find_points(code) == []


def test_code_that_does_not_parse_has_no_points() -> None:
    assert find_points("!ls -la\nmouse.click(1, 2)") == []
    assert find_points(None) == []
    assert find_points("") == []


def test_nested_calls_are_found_in_source_order() -> None:
    code = "for i in range(2):\n    mouse.click(10 + 5, 20)\nif True:\n    pyautogui.dragTo(3, 4)\n"
    assert [(p.action, p.x, p.line) for p in find_points(code)] == [("click", 15, 2), ("drag", 3, 4)]


def test_a_huge_expression_in_agent_code_is_left_out_without_recursing() -> None:
    long = " + ".join(["1"] * 2000)  # Python parses it; evaluating it recursively would not finish
    code = f"if False:\n    mouse.click({long}, 5)\nmouse.click(10, 20)\npyautogui.moveTo(x=-{long}, y=3)\n"
    points = find_points(code)
    assert [(p.action, p.x, p.y, p.line) for p in points] == [("click", 10.0, 20.0, 3)]
    huge = " + ".join(["1"] * 5000)  # past what Python's own parser recurses through: no marks, no error
    assert find_points(f"if False:\n    mouse.click({huge}, 5)\nmouse.click(10, 20)\n") == []


def test_short_arithmetic_still_counts_and_nesting_past_the_parser_is_no_points() -> None:
    assert [(p.x, p.y) for p in find_points("mouse.click(640 + 20 * 2, -(1280 / 4))")] == [(680.0, -320.0)]
    assert find_points("mouse.click(" + "(" * 5000 + "1" + ")" * 5000 + ", 2)") == []
    assert find_points("x = " + "-" * 100_000 + "1\nmouse.click(1, 2)") in ([], find_points("mouse.click(1, 2)"))
