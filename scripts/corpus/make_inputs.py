#!/usr/bin/env python3
"""Writes small inputs for the Rodinia programs in programs.txt, in the formats of Rodinia's data
package (which is not in the suite's repository): a BFS graph, HotSpot temperature and power grids,
k-means points, nearest-neighbour hurricane records, B+tree keys and commands, a PGM image for
SRAD, a BMP image for DWT2D and a byte stream for Huffman. Deterministic: a fixed seed."""
import os
import random
import struct
import sys


def write(path, text):
    with open(path, "w") as f:
        f.write(text)


def main():
    if len(sys.argv) != 2:
        sys.exit("usage: make_inputs.py OUTDIR")
    out = sys.argv[1]
    os.makedirs(out, exist_ok=True)
    rng = random.Random(19)

    # BFS (Rodinia graphgen format): nodes, "start degree" per node, source, edges, "dest cost".
    n = 4096
    adjacency = [sorted(rng.sample(range(n), 4)) for _ in range(n)]
    lines = [str(n)]
    start = 0
    for edges in adjacency:
        lines.append(f"{start} {len(edges)}")
        start += len(edges)
    lines += ["0", str(start)]
    lines += [f"{d} {rng.randint(1, 10)}" for edges in adjacency for d in edges]
    write(os.path.join(out, "graph4096.txt"), "\n".join(lines) + "\n")

    # HotSpot: one value a line, row-major.
    side = 64
    write(os.path.join(out, "hotspot_temp_64"), "".join(f"{rng.uniform(320, 345):.6f}\n" for _ in range(side * side)))
    write(os.path.join(out, "hotspot_power_64"), "".join(f"{rng.uniform(0, 0.01):.6f}\n" for _ in range(side * side)))
    layers = 4
    write(os.path.join(out, "hotspot3D_temp_64x4"), "".join(f"{rng.uniform(320, 345):.6f}\n" for _ in range(side * side * layers)))
    write(os.path.join(out, "hotspot3D_power_64x4"), "".join(f"{rng.uniform(0, 0.01):.6f}\n" for _ in range(side * side * layers)))

    # k-means: "id f1 f2 ..." a line.
    write(os.path.join(out, "kmeans_1024_8.txt"),
          "".join(f"{i} " + " ".join(f"{rng.uniform(0, 1):.4f}" for _ in range(8)) + "\n" for i in range(1024)))

    # nn: a file list naming record files; a record is 49 characters with latitude at column 28 and
    # longitude at column 33 (5 characters each).
    records = []
    for i in range(2048):
        rec = f"{1950 + i % 50:4d} {i % 12 + 1:2d} {i % 28 + 1:2d} {i % 24:2d} {i % 100:2d} NAME{i % 10:<5d} {rng.uniform(0, 90):5.1f} {rng.uniform(0, 180):5.1f} {rng.randint(0, 150):4d} {rng.randint(0, 900):4d}"
        records.append(rec[:49].ljust(49))
    write(os.path.join(out, "nn_records.db"), "\n".join(records) + "\n")
    write(os.path.join(out, "nn_filelist"), os.path.join(out, "nn_records.db") + "\n")

    # B+tree: the key count, then one key a line; commands as Rodinia's command.txt.
    keys = 4096
    write(os.path.join(out, "btree_keys.txt"), f"{keys}\n" + "".join(f"{rng.randint(1, keys * 4)}\n" for _ in range(keys)))
    write(os.path.join(out, "btree_command.txt"), "k 256\nj 256 128\n")

    # SRAD v1: a binary (P5) PGM image, 64 x 64.
    with open(os.path.join(out, "image.pgm"), "wb") as f:
        f.write(b"P5\n64 64\n255\n" + bytes(rng.randint(0, 255) for _ in range(64 * 64)))

    # DWT2D: a 24-bit BMP, 64 x 64.
    w = h = 64
    pixels = bytes(rng.randint(0, 255) for _ in range(w * h * 3))
    header = b"BM" + struct.pack("<IHHI", 54 + len(pixels), 0, 0, 54)
    info = struct.pack("<IiiHHIIiiII", 40, w, h, 1, 24, 0, len(pixels), 2835, 2835, 0, 0)
    with open(os.path.join(out, "dwt_64.bmp"), "wb") as f:
        f.write(header + info + pixels)

    # Huffman: 64 KiB of skewed bytes (a multiple of 256 four-byte symbols).
    with open(os.path.join(out, "huffman_16k.in"), "wb") as f:
        f.write(bytes(min(255, int(rng.expovariate(0.05))) for _ in range(65536)))


if __name__ == "__main__":
    main()
