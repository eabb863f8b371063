"""Field masks in the nested form Google accepts: a(b,c) is a.b and a.c."""

from deskact.toolkits.google.emulator.masks import apply_mask, mask_paths


def test_nested_masks_expand_to_paths() -> None:
    assert mask_paths("userEnteredFormat(textFormat,backgroundColor), note", "x") == [
        ["userEnteredFormat", "textFormat"], ["userEnteredFormat", "backgroundColor"], ["note"]]
    assert mask_paths("a(b(c,d),e)", "x") == [["a", "b", "c"], ["a", "b", "d"], ["a", "e"]]


def test_nested_mask_copies_and_clears() -> None:
    dest = {"userEnteredFormat": {"textFormat": {"italic": True}, "numberFormat": {"type": "NUMBER"}}}
    apply_mask(dest, {"userEnteredFormat": {"backgroundColor": {"red": 1}}},
               "userEnteredFormat(textFormat,backgroundColor)", "x")
    # textFormat named but absent: cleared; numberFormat not named: kept
    assert dest == {"userEnteredFormat": {"backgroundColor": {"red": 1}, "numberFormat": {"type": "NUMBER"}}}
