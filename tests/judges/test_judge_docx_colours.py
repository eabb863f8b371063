"""docx.table_word_colours: CIEDE2000 (Sharma, Wu and Dalal's test pairs) and the table rule."""

import pytest
from deskact.judges.docx_colours import ciede2000, rgb_to_lab
from deskact.runtime.tasks.steps import StepContext, run_judge


@pytest.mark.parametrize(("lab1", "lab2", "delta"), [
    ((50.0, 2.6772, -79.7751), (50.0, 0.0, -82.7485), 2.0425),
    ((50.0, 2.5, 0.0), (50.0, 0.0, -2.5), 4.3065),
    ((50.0, 2.5, 0.0), (73.0, 25.0, -18.0), 27.1492),
    ((60.2574, -34.0099, 36.2677), (60.4626, -34.1751, 39.4387), 1.2644),
    ((2.0776, 0.0795, -1.1350), (0.9033, -0.0636, -0.5514), 0.9082),
])
def test_ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float], delta: float) -> None:
    assert ciede2000(lab1, lab2) == pytest.approx(delta, abs=1e-4)


def test_rgb_to_lab() -> None:
    assert rgb_to_lab((255, 255, 255)) == pytest.approx((100.0, 0.0, 0.0), abs=0.01)
    assert rgb_to_lab((255, 0, 0)) == pytest.approx((53.24, 80.09, 67.20), abs=0.02)


def test_table_words(ctx: StepContext) -> None:
    import docx
    from docx.shared import RGBColor

    document = docx.Document()
    table = document.add_table(rows=1, cols=2)
    for cell, (word, rgb) in zip(table.rows[0].cells, [("apple", (255, 0, 0)), ("pear", (0, 0, 250))]):
        cell.paragraphs[0].add_run(word).font.color.rgb = RGBColor(*rgb)
    document.save(str(ctx.workspace / "w.docx"))
    assert run_judge("docx.table_word_colours", {"path": "w.docx"}, ctx).passed
    table.rows[0].cells[1].paragraphs[0].runs[0].font.color.rgb = RGBColor(255, 0, 0)
    document.save(str(ctx.workspace / "w.docx"))
    v = run_judge("docx.table_word_colours", {"path": "w.docx"}, ctx)
    assert not v.passed and "'pear' is #FF0000" in v.feedback and "from blue" in v.feedback
