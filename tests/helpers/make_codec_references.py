#!/usr/bin/python3
"""Writes the reference files the inflate, FITS and fuzz conformance tests read.

Usage: /usr/bin/python3 tests/helpers/make_codec_references.py OUTDIR

Every compressed file is made by a real tool: the gzip and pigz commands (pigz -11 is zopfli),
Python's gzip module, and zlib's raw deflate with each strategy; gzip headers with FNAME,
FCOMMENT, FEXTRA and FHCRC are assembled by hand around zlib's deflate (RFC 1952 §2.3). FITS
files are written by astropy. A few corrupt DEFLATE streams are written bit by bit here,
because no tool writes them. OUTDIR/manifest.json lists every case:

  inflate: {name, file, format: "gzip"|"raw", expect: FILE | null, error: MESSAGE | null}
  fits:    {name, file, hdu, header: {...}, expect: FILE(float64 LE) | null, error}
"""

import gzip
import json
import os
import struct
import subprocess
import sys
import zlib

import numpy as np
from astropy.io import fits

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
manifest = {"inflate": [], "fits": []}


def write(name, data):
    with open(os.path.join(out, name), "wb") as f:
        f.write(data)
    return name


def tool(args, data):
    return subprocess.run(args, input=data, stdout=subprocess.PIPE, check=True).stdout


# ---- sources -------------------------------------------------------------------------------
rng = np.random.default_rng(20261122)
licenses = b""
for root in ["/usr/share/common-licenses"]:
    for entry in sorted(os.listdir(root)):
        path = os.path.join(root, entry)
        if os.path.isfile(path):
            with open(path, "rb") as f:
                licenses += f.read()
text = (licenses * (1 + 700_000 // max(1, len(licenses))))[:700_000]
floats = (np.sin(np.arange(150_000) / 50.0) * 1000 + rng.normal(0, 3, 150_000)).astype(">f4").tobytes()
sources = {
    "empty": b"",
    "one-byte": b"x",
    "text": text,
    "random": rng.integers(0, 256, 200_000, dtype=np.uint8).tobytes(),
    "float32": floats,
    "runs": b"a" * 300_000 + b"ab" * 50_000 + bytes(range(256)) * 64,
}
for name, data in sources.items():
    write(f"{name}.bin", data)


def case(name, data, source, fmt="gzip"):
    manifest["inflate"].append(
        {"name": name, "file": write(name, data), "format": fmt, "expect": f"{source}.bin", "error": None}
    )


def error_case(name, data, message, fmt="gzip"):
    manifest["inflate"].append({"name": name, "file": write(name, data), "format": fmt, "expect": None, "error": message})


# ---- gzip and pigz commands ---------------------------------------------------------------
for source, data in sources.items():
    for level in ["-1", "-6", "-9"]:
        case(f"{source}.gzip{level}.gz", tool(["gzip", "-c", level], data), source)
    for level in ["-1", "-6", "-9", "-11"]:
        case(f"{source}.pigz{level}.gz", tool(["pigz", "-c", level], data), source)
    # pigz in 32 KiB blocks compressed independently: empty stored blocks (sync flushes) between.
    case(f"{source}.pigz-independent.gz", tool(["pigz", "-c", "-i", "-b", "32", "-p", "2"], data), source)
    case(f"{source}.gzip-rsyncable.gz", tool(["gzip", "-c", "--rsyncable"], data), source)
    # Stored blocks: Python's gzip at level 0 (RFC 1951 §3.2.4).
    case(f"{source}.stored.gz", gzip.compress(data, compresslevel=0, mtime=0), source)

# Multi-member files: members concatenated (RFC 1952 §2.2), as `cat a.gz b.gz` makes them.
multi = tool(["gzip", "-c", "-6"], sources["text"]) + tool(["pigz", "-c", "-1"], sources["float32"])
multi += gzip.compress(sources["runs"], compresslevel=0) + tool(["gzip", "-c"], b"")
write("multi.bin", sources["text"] + sources["float32"] + sources["runs"])
case("multi-member.gz", multi, "multi")
case("multi-member-padded.gz", multi + b"\0" * 7, "multi")


# ---- headers with every flag, by hand around zlib's raw deflate ---------------------------
def raw_deflate(data, level=6, strategy=zlib.Z_DEFAULT_STRATEGY, wbits=-15, mem_level=8):
    c = zlib.compressobj(level, zlib.DEFLATED, wbits, mem_level, strategy)
    return c.compress(data) + c.flush()


def gzip_member(data, flags=0, extra=b"", fname=b"", comment=b"", body=None):
    header = bytearray(b"\x1f\x8b\x08" + bytes([flags]) + struct.pack("<I", 1_700_000_000) + b"\x00\x03")
    if flags & 0x04:
        header += struct.pack("<H", len(extra)) + extra
    if flags & 0x08:
        header += fname + b"\0"
    if flags & 0x10:
        header += comment + b"\0"
    if flags & 0x02:
        header += struct.pack("<H", zlib.crc32(bytes(header)) & 0xFFFF)
    body = raw_deflate(data) if body is None else body
    return bytes(header) + body + struct.pack("<II", zlib.crc32(data), len(data) & 0xFFFFFFFF)


text = sources["text"]
case("flags-fname.gz", gzip_member(text, 0x08, fname=b"galaxies.txt"), "text")
case("flags-fcomment.gz", gzip_member(text, 0x10, comment=b"a comment"), "text")
case("flags-fextra.gz", gzip_member(text, 0x04, extra=b"AP\x04\x00abcd" + bytes(300)), "text")
case("flags-fhcrc.gz", gzip_member(text, 0x02), "text")
case("flags-ftext.gz", gzip_member(text, 0x01), "text")
case("flags-all.gz", gzip_member(text, 0x1F, extra=b"xy\x00\x00", fname=b"n", comment=b"c"), "text")

# ---- raw deflate with every zlib strategy and some window sizes ----------------------------
strategies = {
    "default": zlib.Z_DEFAULT_STRATEGY,
    "filtered": zlib.Z_FILTERED,
    "huffman-only": zlib.Z_HUFFMAN_ONLY,
    "rle": zlib.Z_RLE,
    "fixed": zlib.Z_FIXED,
}
for source in ["text", "float32", "runs", "random"]:
    for sname, strategy in strategies.items():
        for level in [1, 9]:
            case(f"{source}.raw-{sname}-{level}.deflate", raw_deflate(sources[source], level, strategy), source, "raw")
    case(f"{source}.raw-window9.deflate", raw_deflate(sources[source], 9, wbits=-9, mem_level=1), source, "raw")
    # Python's gzip module with its own header (FNAME from the file name is not set by compress()).
    case(f"{source}.python-gzip.gz", gzip.compress(sources[source], compresslevel=5), source)

# ---- errors of viewer-spec §5 --------------------------------------------------------------
good = gzip_member(text[:5000], 0x02)
error_case("not-gzip.txt", b"SIMPLE  =                    T", "Not a GZIP file")
error_case("zlib-not-gzip.z", zlib.compress(text[:100]), "Not a GZIP file")
bad = bytearray(good)
bad[2] = 7
error_case("method-7.gz", bytes(bad), "Unsupported compression method")
plain = bytearray(gzip_member(text[:5000]))
bad = bytearray(plain)
bad[-8] ^= 0x01
error_case("bad-crc.gz", bytes(bad), "Checksum does not match")
bad = bytearray(plain)
bad[-4] ^= 0x10
error_case("bad-isize.gz", bytes(bad), "Size of decompressed file not correct")
bad = bytearray(good)
bad[10] ^= 0xFF  # the FHCRC field itself
error_case("bad-fhcrc.gz", bytes(bad), "Checksum does not match")
bad = bytearray(gzip_member(text[:5000]))
bad[3] = 0x80
error_case("reserved-flag.gz", bytes(bad), "Unsupported GZIP header flags")
member = tool(["gzip", "-c", "-9"], text[:50_000])
for cut in [5, 10, 20, len(member) // 2, len(member) - 9, len(member) - 4]:
    error_case(f"truncated-{cut}.gz", member[:cut], "TRUNCATED")


# Hand-written DEFLATE streams (RFC 1951 §3.1.1: bits packed from the least significant end).
class Bits:
    def __init__(self):
        self.value = 0
        self.count = 0

    def put(self, value, n):
        self.value |= (value & ((1 << n) - 1)) << self.count
        self.count += n

    def huff(self, code, n):  # Huffman codes go most significant bit first
        self.put(int(format(code, f"0{n}b")[::-1], 2), n)

    def bytes(self):
        return self.value.to_bytes((self.count + 7) // 8, "little")


def fixed_literal(bits, byte):
    if byte < 144:
        bits.huff(0x30 + byte, 8)
    else:
        bits.huff(0x190 + byte - 144, 9)


b = Bits()
b.put(1, 1)
b.put(3, 2)  # block type 3 is reserved
error_case("block-type-3.deflate", b.bytes() + bytes(8), "invalid block type", "raw")
error_case("stored-nlen.deflate", bytes([1, 5, 0, 0, 0]) + b"hello", "invalid stored block lengths", "raw")
b = Bits()
b.put(1, 1)
b.put(1, 2)
fixed_literal(b, ord("a"))
b.huff(0b0000011, 7)  # length symbol 259: length 5
b.huff(3, 5)  # distance symbol 3: distance 4, but only 1 byte exists
b.huff(0, 7)
error_case("distance-too-far.deflate", b.bytes(), "invalid distance too far back", "raw")
b = Bits()
b.put(1, 1)
b.put(1, 2)
fixed_literal(b, ord("a"))
b.huff(0b11000110, 8)  # literal/length symbol 286, which never occurs
error_case("litlen-286.deflate", b.bytes() + bytes(8), "invalid literal/length code", "raw")
b = Bits()
b.put(1, 1)
b.put(1, 2)
fixed_literal(b, ord("a"))
b.huff(0b0000001, 7)  # length 3
b.huff(30, 5)  # distance symbol 30, which never occurs
error_case("distance-30.deflate", b.bytes() + bytes(8), "invalid distance code", "raw")
b = Bits()
b.put(1, 1)
b.put(2, 2)
b.put(0, 5)
b.put(0, 5)
b.put(15, 4)  # 19 code length code lengths follow
for _ in range(19):
    b.put(1, 3)  # nineteen codes of length 1: over-subscribed
error_case("oversubscribed.deflate", b.bytes() + bytes(16), "invalid code lengths set", "raw")
b = Bits()
b.put(1, 1)
b.put(2, 2)
b.put(0, 5)
b.put(0, 5)
b.put(0, 4)  # 4 code length code lengths: symbols 16, 17, 18, 0
for length in [1, 1, 1, 1]:  # lengths 1,1,1,1 are over-subscribed as well
    b.put(length, 3)
error_case("oversubscribed-2.deflate", b.bytes() + bytes(16), "invalid code lengths set", "raw")
b = Bits()
b.put(1, 1)
b.put(2, 2)
b.put(0, 5)
b.put(0, 5)
b.put(0, 4)
for length in [1, 0, 0, 1]:  # code length codes: 16 and 0, one bit each (0 -> "0", 16 -> "1")
    b.put(length, 3)
b.huff(0, 1)  # one length of 0, then repeats of 6 that run past the 258 lengths announced
for _ in range(50):
    b.huff(1, 1)
    b.put(3, 2)
error_case("repeat-overflow.deflate", b.bytes() + bytes(16), "invalid bit length repeat", "raw")

# ---- FITS (astropy) ------------------------------------------------------------------------
ny, nx = 37, 53


def expected_physical(raw, bzero, bscale, blank):
    # Without scaling the raw values stand (so -0.0 stays -0.0, as astropy reads it).
    values = raw.astype(np.float64) if (bzero, bscale) == (0, 1) else bzero + bscale * raw.astype(np.float64)
    if blank is not None:
        values[raw == blank] = np.nan
    return values


def fits_case(name, hdus, hdu_index, raw, bzero=0.0, bscale=1.0, blank=None, gz=False, header=None, declare=False):
    path = os.path.join(out, name.removesuffix(".gz"))  # astropy would gzip a .gz name itself
    fits.HDUList(hdus).writeto(path, overwrite=True)
    if declare:
        # Raw values written untouched; now declare the scaling and BLANK in the header.
        with fits.open(path, mode="update", do_not_scale_image_data=True) as hdul:
            target = hdul[hdu_index or 0].header
            target["BZERO"] = bzero
            target["BSCALE"] = bscale
            if blank is not None:
                target["BLANK"] = blank
    # The expected values below are computed from the raw integers; check that astropy reads
    # the file it wrote the same way (its own scaling, in float32 for small integers).
    with fits.open(path) as hdul:
        index = hdu_index if hdu_index is not None else next(i for i, u in enumerate(hdul) if u.data is not None)
        theirs = np.asarray(hdul[index].data, dtype=np.float64)
    mine = expected_physical(np.asarray(raw), bzero, bscale, blank)
    # astropy turns BLANK into NaN only in some cases; where it does not, those pixels are skipped.
    kept = np.ones(mine.shape, bool) if blank is None else np.asarray(raw) != blank
    scale = np.nanmax(np.abs(np.where(np.isinf(mine), 0, mine))) if mine.size else 0
    assert np.allclose(theirs[kept], mine[kept], rtol=1e-6, atol=1e-6 * scale, equal_nan=True), name
    if gz:
        with open(path, "rb") as f:
            data = f.read()
        write(name, tool(["gzip", "-c", "-6"], data))
    expect = expected_physical(np.asarray(raw), bzero, bscale, blank)
    write(name + ".f64", expect.astype("<f8").tobytes())
    manifest["fits"].append(
        {
            "name": name,
            "file": name,
            "hdu": hdu_index,
            "header": header or {},
            "bitpix": {np.uint8: 8, np.int16: 16, np.int32: 32, np.float32: -32, np.float64: -64}[
                np.asarray(raw).dtype.type
            ],
            "axes": list(reversed(np.asarray(raw).shape)),
            "bzero": bzero,
            "bscale": bscale,
            "expect": name + ".f64",
            "error": None,
        }
    )


u8 = rng.integers(0, 256, (ny, nx), dtype=np.uint8)
i16 = rng.integers(-32768, 32768, (ny, nx), dtype=np.int16)
i16[0, :4] = [-32768, -1, 0, 32767]
i32 = rng.integers(-(2**31), 2**31, (ny, nx), dtype=np.int64).astype(np.int32)
i32[0, :4] = [-(2**31), -1, 0, 2**31 - 1]
f32 = rng.normal(0, 1e3, (ny, nx)).astype(np.float32)
f32[0, :5] = [np.nan, np.inf, -np.inf, -0.0, 1e-40]
f64 = rng.normal(0, 1e6, (ny, nx))
f64[0, :3] = [np.nan, 5e-324, -1e308]

fits_case("u8.fits", [fits.PrimaryHDU(u8)], 0, u8)
fits_case("i16.fits", [fits.PrimaryHDU(i16)], 0, i16)
fits_case("i32.fits", [fits.PrimaryHDU(i32)], 0, i32)
fits_case("f32.fits", [fits.PrimaryHDU(f32)], 0, f32)
fits_case("f64.fits", [fits.PrimaryHDU(f64)], 0, f64)
fits_case("odd-size.fits", [fits.PrimaryHDU(i16[:3, :5])], 0, i16[:3, :5])
fits_case("u8-scaled-blank.fits", [fits.PrimaryHDU(u8)], 0, u8, -3.5, 0.125, 7, declare=True)
fits_case("i16-scaled.fits", [fits.PrimaryHDU(i16)], 0, i16, 1000.25, 0.01, declare=True)
fits_case("i16-blank.fits", [fits.PrimaryHDU(i16)], 0, i16, 0.0, 1.0, -1, declare=True)
fits_case("i32-scaled-blank.fits", [fits.PrimaryHDU(i32)], 0, i32, -7.0, 3.0, 0, declare=True)
fits_case("f32-scaled.fits", [fits.PrimaryHDU(f32)], 0, f32, 2.5, -0.5, declare=True)
fits_case("f64-scaled.fits", [fits.PrimaryHDU(f64)], 0, f64, 1.0, 1e-3, declare=True)
# Unsigned 16-bit data: astropy stores it signed with BZERO = 32768 (FITS Standard §5.2.5).
u16 = rng.integers(0, 65536, (ny, nx), dtype=np.uint16)
unsigned = fits.PrimaryHDU(u16)
fits_case("u16-bzero.fits", [unsigned], 0, (u16.astype(np.int32) - 32768).astype(np.int16), 32768.0, 1.0)

# Larger than one decoding chunk (16384 pixels) and not a multiple of it.
big16 = rng.integers(-32768, 32768, (181, 173), dtype=np.int16)
fits_case("big-i16-u16.fits", [fits.PrimaryHDU(big16)], 0, big16, 32768.0, 1.0, -7, declare=True)
fits_case("big-i16-scaled.fits", [fits.PrimaryHDU(big16)], 0, big16, -1.5, 0.003, declare=True)
big64 = rng.normal(0, 1, (150, 151))
fits_case("big-f64.fits", [fits.PrimaryHDU(big64)], 0, big64)
# Two chunks and a tail of 899 pixels, both chunk boundaries inside a row (16384 and 32768 are
# not multiples of 257), with NaN, infinities, -0 and a subnormal on either side of each
# boundary and at the very end; every BITPIX, scaled or not, and gzip (decoded in wasm memory).
big32 = rng.normal(0, 1e3, (131, 257)).astype(np.float32)
specials = [np.nan, np.inf, -np.inf, -0.0, 1e-40, np.nan, -np.inf, 1e-45]
for at, value in zip([16382, 16383, 16384, 16385, 32767, 32768, 32769, big32.size - 1], specials):
    big32.flat[at] = value
fits_case("big-f32.fits", [fits.PrimaryHDU(big32)], 0, big32)
fits_case("big-f32-scaled.fits", [fits.PrimaryHDU(big32)], 0, big32, 2.5, -0.5, declare=True)
fits_case("big-f32.fits.gz", [fits.PrimaryHDU(big32)], 0, big32, gz=True)
bigi32 = rng.integers(-(2**31), 2**31, (131, 257), dtype=np.int64).astype(np.int32)
bigi32.flat[[16383, 16384, 32767, 32768, bigi32.size - 1]] = [5, -(2**31), 2**31 - 1, 5, 5]
fits_case("big-i32-scaled-blank.fits", [fits.PrimaryHDU(bigi32)], 0, bigi32, -7.0, 3.0, 5, declare=True)
bigu8 = rng.integers(0, 256, (131, 257), dtype=np.uint8)
bigu8.flat[[16383, 16384, 32768, bigu8.size - 1]] = [7, 7, 255, 7]
fits_case("big-u8-scaled-blank.fits", [fits.PrimaryHDU(bigu8)], 0, bigu8, -3.5, 0.125, 7, declare=True)
fits_case("big-i16-u16-gz.fits.gz", [fits.PrimaryHDU(big16)], 0, big16, 32768.0, 1.0, -7, gz=True, declare=True)
fits_case("big-f64-gz.fits.gz", [fits.PrimaryHDU(big64)], 0, big64, gz=True)

# Image extensions: an empty primary then images; a table in between; gzip-compressed.
ext = [fits.PrimaryHDU(), fits.ImageHDU(f32, name="SCI"), fits.ImageHDU(i16, name="ERR")]
fits_case("ext-first.fits", ext, None, f32)
ext = [fits.PrimaryHDU(), fits.ImageHDU(f32, name="SCI"), fits.ImageHDU(i16, name="ERR")]
fits_case("ext-second.fits", ext, 2, i16)
table = fits.BinTableHDU.from_columns([fits.Column(name="flux", format="E", array=np.arange(10, dtype=np.float32))])
fits_case("ext-after-table.fits", [fits.PrimaryHDU(), table, fits.ImageHDU(f64)], 2, f64)
fits_case("f32.fits.gz", [fits.PrimaryHDU(f32)], 0, f32, gz=True)
fits_case("ext.fits.gz", [fits.PrimaryHDU(), fits.ImageHDU(i32)], 1, i32, gz=True)

# Header cards of every kind.
cards = fits.PrimaryHDU(i16)
h = cards.header
h["OBSERVER"] = ("O'Brien", "a quote inside a string")
h["FLAG"] = (True, "a logical")
h["OFF"] = False
h["EXPTIME"] = (1.5e3, "a float")
h["GAIN"] = 2
h["LONGSTR"] = "The quick brown fox jumps over the lazy dog; " * 5
h["HIERARCH ESO DET CHIP NAME"] = "CCD-1"
h["HIERARCH ESO TEL AIRM START"] = 1.25
h["COMMENT"] = "first comment"
h["COMMENT"] = "second comment"
h["HISTORY"] = "made by make_codec_references.py"
header = {
    "OBSERVER": "O'Brien",
    "FLAG": True,
    "OFF": False,
    "EXPTIME": 1500.0,
    "GAIN": 2,
    "LONGSTR": ("The quick brown fox jumps over the lazy dog; " * 5).rstrip(),
    "ESO DET CHIP NAME": "CCD-1",
    "ESO TEL AIRM START": 1.25,
}
fits_case("cards.fits", [cards], 0, i16, header=header)


# Hand-made headers for the 'type mismatch' error (viewer-spec §5) and broken files.
def raw_fits(cards, data=b""):
    text = "".join(c.ljust(80) for c in cards + ["END"])
    text = text.ljust((len(text) + 2879) // 2880 * 2880)
    return text.encode("ascii") + data + bytes((-len(data)) % 2880)


def card(key, value):
    return f"{key:<8}= {value:>20}"


base = [card("SIMPLE", "T"), card("BITPIX", "16"), card("NAXIS", "2"), card("NAXIS1", "4"), card("NAXIS2", "2")]
pixels = struct.pack(">8h", 1, -2, 3, -4, 5, -6, 7, -8)
for name, cards_, message in [
    ("bzero-string.fits", base + [card("BZERO", "'ten'")], "type mismatch"),
    ("bitpix-float.fits", [base[0], card("BITPIX", "16.0")] + base[2:], "type mismatch"),
    ("naxis-logical.fits", base[:2] + [card("NAXIS", "T")] + base[3:], "type mismatch"),
    ("blank-float.fits", base + [card("BLANK", "1.5")], "type mismatch"),
]:
    write(name, raw_fits(cards_, pixels))
    manifest["fits"].append({"name": name, "file": name, "hdu": None, "expect": None, "error": message})
write("truncated-data.fits", raw_fits(base, pixels)[: 2880 + 10])
manifest["fits"].append(
    {"name": "truncated-data.fits", "file": "truncated-data.fits", "hdu": None, "expect": None, "error": "truncated"}
)
write("no-end.fits", raw_fits(base)[:2880].replace(b"END" + b" " * 77, b" " * 80))
manifest["fits"].append({"name": "no-end.fits", "file": "no-end.fits", "hdu": None, "expect": None, "error": "END"})
write("raw-i16.fits", raw_fits(base, pixels))
manifest["fits"].append(
    {
        "name": "raw-i16.fits",
        "file": "raw-i16.fits",
        "hdu": None,
        "header": {},
        "bitpix": 16,
        "axes": [4, 2],
        "bzero": 0,
        "bscale": 1,
        "expect": write("raw-i16.fits.f64", np.array([1, -2, 3, -4, 5, -6, 7, -8], "<f8").tobytes()),
        "error": None,
    }
)

with open(os.path.join(out, "manifest.json"), "w") as f:
    json.dump(manifest, f, indent=1)
print(f"{len(manifest['inflate'])} inflate cases, {len(manifest['fits'])} FITS cases in {out}")
