"""A picture's width and height, read from its header bytes before anything decodes it.

A decoder allocates what the header asks for: a PNG of 110 KB can say 30000x30000 and take
5 GB to decode. So the size is read here, from the bytes themselves, for every format the
import lets through (PNG, JPEG, GIF, BMP, TIFF, WebP); a picture of another format, or whose
header is cut short or makes no sense, is refused as not an image, and a picture over
MAX_PIXELS (or a side over MAX_SIDE) as far larger than a screenshot. Nothing here imports
OpenCV or Pillow: what refuses a picture must not be what a bad picture attacks.

Glossary: a *header* is the start of the file that says the picture's size (PNG's IHDR
chunk, JPEG's SOF segment, GIF's logical screen and first image descriptor, BMP's DIB
header, TIFF's first directory, WebP's VP8/VP8L/VP8X chunk).
"""

from __future__ import annotations

import struct
from collections.abc import Callable

from cpflow.errors import NotAnImage

MAX_PIXELS = 40_000_000  # a 1440x3200 phone screen is 4.6 megapixels; a larger picture is refused unread
MAX_SIDE = 65_535  # pixels: JPEG's own limit (a longer side, as OpenCV's libpng refuses past 2**20, is no screen)
UNREADABLE = "not an image (PNG, JPEG, GIF, BMP, WebP), or a damaged one"

Size = tuple[int, int]  # (width, height) in pixels, e.g. (1080, 2400)


def check_size(data: bytes) -> Size:
    """The picture's size from its header; NotAnImage when it cannot be told, or passes MAX_PIXELS
    or MAX_SIDE."""
    width, height = dimensions(data)
    if width * height > MAX_PIXELS or max(width, height) > MAX_SIDE:
        raise NotAnImage(
            f"the image of {width}x{height} pixels is far larger than a screenshot "
            f"({MAX_PIXELS:,} pixels and {MAX_SIDE:,} a side at most)"
        )
    return width, height


def dimensions(data: bytes) -> Size:
    """The (width, height) the picture's header says; NotAnImage when the bytes start as no format
    read here, or the header is cut short, out of order or says a size of nothing."""
    for signature, reader in READERS:
        if data.startswith(signature) and (signature != b"RIFF" or data[8:12] == b"WEBP"):
            width, height = reader(data)
            if width <= 0 or height <= 0:
                raise NotAnImage(UNREADABLE)
            return width, height
    raise NotAnImage(UNREADABLE)


def _unpack(layout: str, data: bytes, at: int) -> tuple[int, ...]:
    """The numbers at `at` as struct `layout` says; NotAnImage where the data stops short."""
    if at < 0 or at + struct.calcsize(layout) > len(data):
        raise NotAnImage(UNREADABLE)
    return struct.unpack_from(layout, data, at)


def _png(data: bytes) -> Size:
    """PNG: the IHDR chunk, which must come first: length 13, then width and height."""
    length, kind, width, height = _unpack(">I4sII", data, 8)
    if length != 13 or kind != b"IHDR":
        raise NotAnImage(UNREADABLE)
    return width, height


JPEG_FRAMES = {
    0xC0,
    0xC1,
    0xC2,
    0xC3,
    0xC5,
    0xC6,
    0xC7,
    0xC9,
    0xCA,
    0xCB,
    0xCD,
    0xCE,
    0xCF,
}  # SOF0-15 less DHT, JPG, DAC
JPEG_BARE = {0x01, *range(0xD0, 0xD8)}  # markers with no length: TEM, RST0-7


def _jpeg(data: bytes) -> Size:
    """JPEG: the first frame header (SOF), found by walking the segments from the start; one met
    after the scan begins (SOS), or a height left to a later DNL marker, is refused."""
    at = 2  # after SOI
    while True:
        (tag,) = _unpack("B", data, at)
        if tag != 0xFF:
            raise NotAnImage(UNREADABLE)
        while data[at + 1 : at + 2] == b"\xff":  # fill bytes
            at += 1
        (marker,) = _unpack("B", data, at + 1)
        if marker in JPEG_BARE:
            at += 2
            continue
        if marker in (0xD8, 0xD9, 0xDA, 0x00):  # a second start, the end or the scan before any frame
            raise NotAnImage(UNREADABLE)
        (length,) = _unpack(">H", data, at + 2)
        if marker in JPEG_FRAMES:
            _, height, width = _unpack(">BHH", data, at + 4)
            return width, height
        if length < 2:
            raise NotAnImage(UNREADABLE)
        at += 2 + length


def _gif(data: bytes) -> Size:
    """GIF: the logical screen, and the first image's place on it (a decoder may size its canvas
    by either): the larger of the two each way."""
    width, height, flags = _unpack("<HHB", data, 6)
    at = 13 + (3 << ((flags & 7) + 1) if flags & 0x80 else 0)  # past the global colour table
    while True:
        (block,) = _unpack("B", data, at)
        if block == 0x2C:  # the first image descriptor
            left, top, own_width, own_height = _unpack("<HHHH", data, at + 1)
            if own_width == 0 or own_height == 0:
                raise NotAnImage(UNREADABLE)
            return max(width, left + own_width), max(height, top + own_height)
        if block != 0x21:  # only extensions may come before it
            raise NotAnImage(UNREADABLE)
        at += 2  # the introducer and the extension's label, then its sub-blocks
        while (size := _unpack("B", data, at)[0]) != 0:
            at += 1 + size
        at += 1


BMP_HEADERS = {12, 16, 40, 52, 56, 64, 108, 124}  # DIB header sizes: OS/2 1 and 2, Windows 3 to 5


def _bmp(data: bytes) -> Size:
    """BMP: the DIB header after the 14-byte file header; a negative height is a top-down picture."""
    (size,) = _unpack("<I", data, 14)
    if size not in BMP_HEADERS:
        raise NotAnImage(UNREADABLE)
    width, height = _unpack("<HH" if size == 12 else "<ii", data, 18)
    return width, abs(height)


TIFF_WIDTH, TIFF_HEIGHT = 256, 257  # ImageWidth, ImageLength
TIFF_NUMBERS = {3: "H", 4: "I"}  # SHORT, LONG


def _tiff(data: bytes) -> Size:
    """TIFF: ImageWidth and ImageLength in the first directory (the page a decoder reads)."""
    order = "<" if data.startswith(b"II") else ">"
    (first,) = _unpack(order + "I", data, 4)
    (count,) = _unpack(order + "H", data, first)
    found = {}
    for k in range(count):
        tag, kind, many = _unpack(order + "HHI", data, first + 2 + 12 * k)
        if tag in (TIFF_WIDTH, TIFF_HEIGHT) and kind in TIFF_NUMBERS and many == 1:
            (found[tag],) = _unpack(order + TIFF_NUMBERS[kind], data, first + 2 + 12 * k + 8)
    if set(found) != {TIFF_WIDTH, TIFF_HEIGHT}:
        raise NotAnImage(UNREADABLE)
    return found[TIFF_WIDTH], found[TIFF_HEIGHT]


def _webp(data: bytes) -> Size:
    """WebP: the first chunk, lossy (VP8), lossless (VP8L) or extended (VP8X, whose canvas holds
    every frame)."""
    (kind,) = _unpack("4s", data, 12)
    if kind == b"VP8 ":
        start, width, height = _unpack("<3sHH", data, 23)
        if start != b"\x9d\x01\x2a":
            raise NotAnImage(UNREADABLE)
        return width & 0x3FFF, height & 0x3FFF
    if kind == b"VP8L":
        signature, bits = _unpack("<BI", data, 20)
        if signature != 0x2F:
            raise NotAnImage(UNREADABLE)
        return (bits & 0x3FFF) + 1, ((bits >> 14) & 0x3FFF) + 1
    if kind == b"VP8X":
        low_w, high_w, low_h, high_h = _unpack("<HBHB", data, 24)
        return (low_w | high_w << 16) + 1, (low_h | high_h << 16) + 1
    raise NotAnImage(UNREADABLE)


READERS: tuple[tuple[bytes, Callable[[bytes], Size]], ...] = (
    (b"\x89PNG\r\n\x1a\n", _png),
    (b"\xff\xd8\xff", _jpeg),
    (b"GIF87a", _gif),
    (b"GIF89a", _gif),
    (b"BM", _bmp),
    (b"II*\x00", _tiff),
    (b"MM\x00*", _tiff),
    (b"RIFF", _webp),  # and WEBP at byte 8
)
