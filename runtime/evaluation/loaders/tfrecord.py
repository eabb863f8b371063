"""TFRecord files of ``tf.train.Example`` records, read without TensorFlow (Android in the Wild's shards).

A TFRecord file (optionally GZIP-compressed, as AITW's are) is a sequence of records::

    uint64 length (little endian) | uint32 masked CRC-32C of length | data | uint32 masked CRC-32C of data

and each record's data here is a ``tf.train.Example`` protocol buffer: ``Example.features`` (1) ->
``Features.feature`` (1, a map<string, Feature> as key 1 / value 2 entries) -> ``Feature`` with one
of ``bytes_list`` (1), ``float_list`` (2), ``int64_list`` (3), each a repeated ``value`` (1), packed
or not. The length's CRC is checked (it tells a TFRecord from anything else); the data's is not
(pure-Python CRC-32C over a screenshot's megabytes would dominate the reading).
"""

from __future__ import annotations

import gzip
import struct
from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

from ..samples import DatasetError

_CRC_TABLE: list[int] = []


def crc32c(data: bytes) -> int:
    """CRC-32C (Castagnoli), the checksum TFRecord masks."""
    if not _CRC_TABLE:
        for n in range(256):
            c = n
            for _ in range(8):
                c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            _CRC_TABLE.append(c)
    crc = 0xFFFFFFFF
    for byte in data:
        crc = _CRC_TABLE[(crc ^ byte) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def masked_crc(data: bytes) -> int:
    crc = crc32c(data)
    return (((crc >> 15) | (crc << 17)) + 0xA282EAD8) & 0xFFFFFFFF


def _open(path: Path) -> BinaryIO:
    with path.open("rb") as fh:
        gz = fh.read(2) == b"\x1f\x8b"
    return gzip.GzipFile(path, "rb") if gz else path.open("rb")  # type: ignore[return-value]  # GzipFile reads like one


def is_tfrecord(path: Path) -> bool:
    """Whether the file starts with a TFRecord header (its length's CRC matches), plain or GZIP."""
    try:
        with _open(path) as fh:
            head = fh.read(12)
    except (OSError, EOFError, gzip.BadGzipFile):
        return False
    return len(head) == 12 and struct.unpack("<I", head[8:])[0] == masked_crc(head[:8])


def records(path: Path) -> Iterator[bytes]:
    """Each record's data, in file order."""
    with _open(path) as fh:
        index = 0
        while head := fh.read(12):
            if len(head) < 12 or struct.unpack("<I", head[8:])[0] != masked_crc(head[:8]):
                raise DatasetError(f"{path}: record {index}: not a TFRecord header (a cut or corrupt file)")
            (length,) = struct.unpack("<Q", head[:8])
            data = fh.read(length)
            if len(data) < length or len(fh.read(4)) < 4:
                raise DatasetError(f"{path}: record {index}: cut short ({len(data)} of {length} bytes)")
            yield data
            index += 1


def _varint(buf: bytes, pos: int) -> tuple[int, int]:
    value = shift = 0
    while True:
        byte = buf[pos]
        pos += 1
        value |= (byte & 0x7F) << shift
        if not byte & 0x80:
            return value, pos
        shift += 7


def _fields(buf: bytes) -> Iterator[tuple[int, int, int | bytes]]:
    """(field number, wire type, value) of one message: varints as int, the rest as bytes."""
    pos = 0
    while pos < len(buf):
        key, pos = _varint(buf, pos)
        number, wire = key >> 3, key & 7
        if wire == 0:
            value, pos = _varint(buf, pos)
            yield number, wire, value
        elif wire == 1:
            yield number, wire, buf[pos:pos + 8]
            pos += 8
        elif wire == 2:
            size, pos = _varint(buf, pos)
            yield number, wire, buf[pos:pos + size]
            pos += size
        elif wire == 5:
            yield number, wire, buf[pos:pos + 4]
            pos += 4
        else:
            raise ValueError(f"wire type {wire} of field {number}")


def _feature(buf: bytes) -> list[bytes] | list[float] | list[int]:
    for kind, _, body in _fields(buf):
        assert isinstance(body, bytes)
        if kind == 1:
            return [v for _, _, v in _fields(body) if isinstance(v, bytes)]
        if kind == 2:
            floats: list[float] = []
            for _, wire, v in _fields(body):
                assert isinstance(v, bytes)
                floats += struct.unpack(f"<{len(v) // 4}f", v) if wire in (2, 5) else []
            return floats
        if kind == 3:
            ints: list[int] = []
            for _, wire, v in _fields(body):
                if wire == 0 and isinstance(v, int):
                    ints.append(v)
                elif isinstance(v, bytes):  # packed
                    pos = 0
                    while pos < len(v):
                        n, pos = _varint(v, pos)
                        ints.append(n)
            return [n - (1 << 64) if n >= 1 << 63 else n for n in ints]  # int64 two's complement
    return []


def parse_example(data: bytes) -> dict[str, list[bytes] | list[float] | list[int]]:
    """A ``tf.train.Example``'s features by name, each its list of values."""
    out: dict[str, list[bytes] | list[float] | list[int]] = {}
    for number, _, features in _fields(data):
        if number != 1 or not isinstance(features, bytes):
            continue
        for entry_number, _, entry in _fields(features):
            if entry_number != 1 or not isinstance(entry, bytes):
                continue
            key, value = "", b""
            for n, _, v in _fields(entry):
                if n == 1 and isinstance(v, bytes):
                    key = v.decode("utf-8")
                elif n == 2 and isinstance(v, bytes):
                    value = v
            out[key] = _feature(value)
    return out
