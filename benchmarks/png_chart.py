"""A line chart as a PNG with nothing but the standard library (no plotting package on the machines
the benchmarks run on): grid lines, numbered axes in a 3x5 pixel font, one coloured line per series.

    write_line_chart(path, {"VmRSS": [(x, y), ...], ...}, x_step=100_000, y_step=10, x_unit=1000)
"""
import struct
import zlib

# 3x5 digits, one row of 3 bits per line.
DIGITS = {
    "0": ["111", "101", "101", "101", "111"], "1": ["010", "110", "010", "010", "111"],
    "2": ["111", "001", "111", "100", "111"], "3": ["111", "001", "111", "001", "111"],
    "4": ["101", "101", "111", "001", "001"], "5": ["111", "100", "111", "001", "111"],
    "6": ["111", "100", "111", "101", "111"], "7": ["111", "001", "010", "010", "010"],
    "8": ["111", "101", "111", "101", "111"], "9": ["111", "101", "111", "001", "111"],
    "k": ["100", "101", "110", "101", "101"],
}
COLOURS = [(31, 119, 180), (214, 39, 40), (44, 160, 44), (148, 103, 189)]


class Canvas:
    def __init__(self, width, height):
        self.width, self.height = width, height
        self.pixels = bytearray(b"\xff" * (width * height * 3))

    def dot(self, x, y, colour, size=1):
        for dx in range(size):
            for dy in range(size):
                px, py = int(x) + dx, int(y) + dy
                if 0 <= px < self.width and 0 <= py < self.height:
                    i = (py * self.width + px) * 3
                    self.pixels[i:i + 3] = bytes(colour)

    def line(self, x0, y0, x1, y1, colour, size=1):
        steps = int(max(abs(x1 - x0), abs(y1 - y0))) + 1
        for s in range(steps + 1):
            t = s / steps
            self.dot(x0 + (x1 - x0) * t, y0 + (y1 - y0) * t, colour, size)

    def text(self, x, y, text, colour=(0, 0, 0), scale=2):
        for n, ch in enumerate(text):
            for row, bits in enumerate(DIGITS.get(ch, ["000"] * 5)):
                for col, bit in enumerate(bits):
                    if bit == "1":
                        self.dot(x + (n * 4 + col) * scale, y + row * scale, colour, scale)

    def png(self):
        raw = b"".join(b"\x00" + bytes(self.pixels[y * self.width * 3:(y + 1) * self.width * 3]) for y in range(self.height))

        def chunk(kind, data):
            return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)
        header = struct.pack(">IIBBBBB", self.width, self.height, 8, 2, 0, 0, 0)
        return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(raw, 9)) + chunk(b"IEND", b"")


def write_line_chart(path, series, x_step, y_step, x_unit=1, width=720, height=400):
    """`series`: {name: [(x, y), ...]}; the y axis starts at 0. Labels: x / x_unit followed by "k" when
    x_unit is 1000, y as it is. The legend is the caller's (colours in COLOURS order)."""
    left, bottom, top, right = 50, 30, 15, 15
    xs = [x for points in series.values() for x, _ in points]
    ys = [y for points in series.values() for _, y in points]
    x_max = max(xs)
    y_max = (int(max(ys) / y_step) + 1) * y_step
    canvas = Canvas(width, height)

    def at(x, y):
        return (left + (width - left - right) * x / x_max, height - bottom - (height - top - bottom) * y / y_max)
    grey = (220, 220, 220)
    for gy in range(0, int(y_max) + 1, int(y_step)):
        _, py = at(0, gy)
        canvas.line(left, py, width - right, py, grey)
        canvas.text(5, py - 5, str(gy))
    gx = 0
    while gx <= x_max:
        px, _ = at(gx, 0)
        canvas.line(px, top, px, height - bottom, grey)
        label = f"{gx // x_unit}k" if x_unit == 1000 else str(gx // x_unit)
        canvas.text(px - 8, height - bottom + 8, label)
        gx += x_step
    canvas.line(left, height - bottom, width - right, height - bottom, (0, 0, 0))
    canvas.line(left, top, left, height - bottom, (0, 0, 0))
    for colour, points in zip(COLOURS, series.values()):
        for (x0, y0), (x1, y1) in zip(points, points[1:]):
            canvas.line(*at(x0, y0), *at(x1, y1), colour, size=2)
        for x, y in points:
            canvas.dot(at(x, y)[0] - 2, at(x, y)[1] - 2, colour, size=5)
    with open(path, "wb") as f:
        f.write(canvas.png())
