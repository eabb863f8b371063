"""Measures of edited images, as OSWorld's GIMP metrics take them (desktop-env's metrics/gimp.py):
SSIM on RGB with a 7x7 uniform window (scikit-image's defaults, written here with numpy), mean
brightness, saturation and contrast, and the brightness-normalised mean squared error.

PIL and numpy are imported where used (see image.py).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import numpy as np
    from PIL import Image

WINDOW = 7
"""scikit-image's default SSIM window, which OSWorld's structure checks use; smaller images fail."""


def _box_mean(img: np.ndarray) -> np.ndarray:
    """The mean over each full 7x7 window. scikit-image filters the whole image and then drops a
    3-pixel border, so only full windows count; summed tables give exactly those."""
    import numpy as np

    n = WINDOW
    table = np.pad(img, ((1, 0), (1, 0))).cumsum(axis=0).cumsum(axis=1)
    sums = table[n:, n:] - table[:-n, n:] - table[n:, :-n] + table[:-n, :-n]
    return sums / (n * n)


def _channel_ssim(a: np.ndarray, b: np.ndarray) -> float:
    import numpy as np

    a, b = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    count = WINDOW * WINDOW
    sample = count / (count - 1)  # scikit-image's sample covariance
    mu_a, mu_b = _box_mean(a), _box_mean(b)
    var_a = sample * (_box_mean(a * a) - mu_a * mu_a)
    var_b = sample * (_box_mean(b * b) - mu_b * mu_b)
    cov = sample * (_box_mean(a * b) - mu_a * mu_b)
    num = (2 * mu_a * mu_b + c1) * (2 * cov + c2)
    den = (mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2)
    return float(np.mean(num / den))


def rgb_ssim(first: Image.Image, second: Image.Image) -> float | None:
    """Mean SSIM over the R, G and B channels (any other mode converted to RGB, alpha dropped);
    None when the sizes differ or a side is under 7 pixels, which OSWorld counts as not similar."""
    import numpy as np

    if first.size != second.size or min(*first.size, *second.size) < WINDOW:
        return None
    a = np.asarray(first if first.mode == "RGB" else first.convert("RGB"))
    b = np.asarray(second if second.mode == "RGB" else second.convert("RGB"))
    return sum(_channel_ssim(a[:, :, c], b[:, :, c]) for c in range(3)) / 3


def brightness(image: Image.Image) -> float:
    """Mean of the grayscale ("L") pixels."""
    from PIL import ImageStat

    return float(ImageStat.Stat(image.convert("L")).mean[0])


def saturation(image: Image.Image) -> float:
    """Mean of the HSV saturation channel."""
    import numpy as np

    return float(np.mean(np.asarray(image.convert("HSV").split()[1])))


def contrast(image: Image.Image) -> float:
    """Standard deviation of every value of the image's bands (alpha included, as OSWorld counts)."""
    import numpy as np

    return float(np.std(np.asarray(image, dtype=np.float32)))


def normalised(image: Image.Image, target: float = 128) -> Image.Image:
    """Every band scaled so that the mean brightness would be ``target`` (values cut to 0..255)."""
    factor = target / brightness(image)
    return image.point([min(255, max(0, int(x * factor))) for x in range(256)] * len(image.getbands()))


def normalised_mse(first: Image.Image, second: Image.Image) -> float:
    """Mean squared error (values scaled to 0..1) of the two images at equal brightness, in RGB, the
    first resized (Lanczos) to the second's size when they differ."""
    import numpy as np
    from PIL import Image

    a, b = normalised(first), normalised(second)
    if a.size != b.size:
        a = a.resize(b.size, Image.Resampling.LANCZOS)
    a, b = a.convert("RGB"), b.convert("RGB")
    diff = np.asarray(a, dtype=np.float32) / 255 - np.asarray(b, dtype=np.float32) / 255
    return float(np.mean(diff**2))


def _column_box_mean(signal: np.ndarray) -> np.ndarray:
    """The mean over each full 7-long window down every column of a 2-D array."""
    import numpy as np

    n = WINDOW
    table = np.pad(signal, ((1, 0), (0, 0))).cumsum(axis=0)
    return (table[n:] - table[:-n]) / n


def _column_ssim(a: np.ndarray, b: np.ndarray) -> float:
    """Mean SSIM of the columns of two 2-D arrays, each column a 1-D signal with a 7-long window."""
    import numpy as np

    a, b = a.astype(np.float64), b.astype(np.float64)
    c1, c2 = (0.01 * 255) ** 2, (0.03 * 255) ** 2
    sample = WINDOW / (WINDOW - 1)
    mu_a, mu_b = _column_box_mean(a), _column_box_mean(b)
    var_a = sample * (_column_box_mean(a * a) - mu_a * mu_a)
    var_b = sample * (_column_box_mean(b * b) - mu_b * mu_b)
    cov = sample * (_column_box_mean(a * b) - mu_a * mu_b)
    num = (2 * mu_a * mu_b + c1) * (2 * cov + c2)
    den = (mu_a**2 + mu_b**2 + c1) * (var_a + var_b + c2)
    return float(np.mean(num / den, axis=0).mean())


def stored_ssim(first: Image.Image, second: Image.Image) -> float | None:
    """SSIM of the two images' 8-bit pixel arrays as stored, with their last axis as channels (what
    scikit-image computes for AgentStudio's GIMP checks): every band of a multi-band image (alpha too),
    and for a single-band image every column as a 1-D signal. None when the arrays differ in shape,
    are not 8-bit, or are under 7 long, where scikit-image raises."""
    import numpy as np

    a, b = np.asarray(first), np.asarray(second)
    if a.shape != b.shape or a.dtype != np.uint8 or b.dtype != np.uint8 or a.shape[0] < WINDOW:
        return None
    if a.ndim == 2:
        return _column_ssim(a, b)
    if a.ndim != 3 or a.shape[1] < WINDOW:
        return None
    return sum(_channel_ssim(a[:, :, c], b[:, :, c]) for c in range(a.shape[2])) / a.shape[2]


def stored_normalised_mse(first: Image.Image, second: Image.Image) -> float | None:
    """``normalised_mse`` on the arrays as stored (no RGB conversion, no resizing: every band, alpha
    too, as AgentStudio computes it); None when the arrays differ in shape."""
    import numpy as np

    a, b = np.asarray(normalised(first), dtype=np.float32), np.asarray(normalised(second), dtype=np.float32)
    if a.shape != b.shape:
        return None
    return float(np.mean((a / 255 - b / 255) ** 2))
