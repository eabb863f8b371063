"""docx.table_word_colours: each word in a .docx's tables coloured by its first letter, red for a
vowel and blue otherwise, within a CIEDE2000 colour difference (OSWorld's
``evaluate_colored_words_in_tables``: skimage's ``rgb2lab`` and ``deltaE_ciede2000``, threshold 3.5).

The colour science is written here (sRGB with D65, CIE L*a*b*, the CIEDE2000 formula of Sharma, Wu
and Dalal, 2005) as skimage computes it, so the judge needs no scikit-image.
"""

from __future__ import annotations

import math

from ..runtime.tasks.helpers import clip
from ..runtime.tasks.steps import StepContext, Verdict, judge

_M = ((0.412453, 0.357580, 0.180423), (0.212671, 0.715160, 0.072169), (0.019334, 0.119193, 0.950227))
_WHITE = (0.95047, 1.0, 1.08883)  # D65, 2 degree observer (skimage's default)


def rgb_to_lab(rgb: tuple[int, int, int]) -> tuple[float, float, float]:
    """An 8-bit sRGB colour in CIE L*a*b* (skimage.color.rgb2lab)."""
    linear = [(((c / 255) + 0.055) / 1.055) ** 2.4 if c / 255 > 0.04045 else (c / 255) / 12.92 for c in rgb]
    xyz = [sum(m * v for m, v in zip(row, linear)) / w for row, w in zip(_M, _WHITE)]
    f = [v ** (1 / 3) if v > 0.008856 else 7.787 * v + 16 / 116 for v in xyz]
    return 116 * f[1] - 16, 500 * (f[0] - f[1]), 200 * (f[1] - f[2])


def ciede2000(lab1: tuple[float, float, float], lab2: tuple[float, float, float]) -> float:
    """The CIEDE2000 colour difference (kL = kC = kH = 1)."""
    (l1, a1, b1), (l2, a2, b2) = lab1, lab2
    c_bar = (math.hypot(a1, b1) + math.hypot(a2, b2)) / 2
    g = 0.5 * (1 - math.sqrt(c_bar ** 7 / (c_bar ** 7 + 25 ** 7)))
    a1p, a2p = a1 * (1 + g), a2 * (1 + g)
    c1p, c2p = math.hypot(a1p, b1), math.hypot(a2p, b2)
    h1p = math.degrees(math.atan2(b1, a1p)) % 360
    h2p = math.degrees(math.atan2(b2, a2p)) % 360
    dl, dc = l2 - l1, c2p - c1p
    if c1p * c2p == 0:
        dh = 0.0
    else:
        dh = h2p - h1p
        if dh > 180:
            dh -= 360
        elif dh < -180:
            dh += 360
    dH = 2 * math.sqrt(c1p * c2p) * math.sin(math.radians(dh / 2))
    l_bar, c_bar_p = (l1 + l2) / 2, (c1p + c2p) / 2
    if c1p * c2p == 0:
        h_bar = h1p + h2p
    elif abs(h1p - h2p) <= 180:
        h_bar = (h1p + h2p) / 2
    else:
        h_bar = (h1p + h2p + 360) / 2 if h1p + h2p < 360 else (h1p + h2p - 360) / 2
    t = (1 - 0.17 * math.cos(math.radians(h_bar - 30)) + 0.24 * math.cos(math.radians(2 * h_bar))
         + 0.32 * math.cos(math.radians(3 * h_bar + 6)) - 0.20 * math.cos(math.radians(4 * h_bar - 63)))
    d_theta = 30 * math.exp(-(((h_bar - 275) / 25) ** 2))
    r_c = 2 * math.sqrt(c_bar_p ** 7 / (c_bar_p ** 7 + 25 ** 7))
    s_l = 1 + 0.015 * (l_bar - 50) ** 2 / math.sqrt(20 + (l_bar - 50) ** 2)
    s_c, s_h = 1 + 0.045 * c_bar_p, 1 + 0.015 * c_bar_p * t
    r_t = -math.sin(math.radians(2 * d_theta)) * r_c
    return math.sqrt((dl / s_l) ** 2 + (dc / s_c) ** 2 + (dH / s_h) ** 2 + r_t * (dc / s_c) * (dH / s_h))


_RED, _BLUE = rgb_to_lab((255, 0, 0)), rgb_to_lab((0, 0, 255))


@judge("docx.table_word_colours")
def docx_table_word_colours(ctx: StepContext, path: str, threshold: float = 3.5) -> Verdict:
    """Every run with text in the tables of the .docx at ``path`` has a colour of its own within
    ``threshold`` (CIEDE2000) of red when its first letter is a vowel (a, e, i, o, u, any case) and of
    blue otherwise. A run without its own colour fails (OSWorld's metric cannot measure it and fails)."""
    import docx

    p = ctx.path(path)
    if not p.is_file():
        return Verdict.fail(f"{p.name} does not exist")
    try:
        document = docx.Document(p.bytes_io())
    except Exception as exc:  # noqa: BLE001 - python-docx raises several kinds for a bad file; OSWorld scores 0
        return Verdict.fail(f"{p.name} is not a Word document ({type(exc).__name__}: {exc})")
    runs = 0
    for table in document.tables:
        for row in table.rows:
            for cell in row.cells:
                for paragraph in cell.paragraphs:
                    for run in paragraph.runs:
                        word = run.text
                        if not word:
                            continue
                        runs += 1
                        vowel = word[0].lower() in "aeiou"
                        rgb = run.font.color.rgb if run.font.color.type is not None else None
                        if rgb is None:
                            return Verdict.fail(f"{p.name}: {clip(word)} in a table has no colour of its own"
                                                f" (it should be {'red' if vowel else 'blue'})")
                        distance = ciede2000(rgb_to_lab((rgb[0], rgb[1], rgb[2])), _RED if vowel else _BLUE)
                        if distance > threshold:
                            return Verdict.fail(f"{p.name}: {clip(word)} is #{rgb} (CIEDE2000 {distance:.1f} from"
                                                f" {'red' if vowel else 'blue'}, more than {threshold:g})")
    return Verdict.ok(f"{p.name}: the {runs} coloured run(s) in its tables are red for vowels and blue otherwise")
