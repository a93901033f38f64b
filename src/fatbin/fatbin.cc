#include "fatbin/fatbin.h"

#include <fmt/format.h>
#include <lz4.h>
#include <zstd.h>

#include <algorithm>
#include <cstring>

#include "core/error.h"

namespace warpsim::fatbin {

namespace {

// Container header: magic, version, header size, size of the entries that follow.
constexpr uint32_t kMagic = 0xBA55ED50u;
constexpr size_t kContainerHeader = 16;
// Entry header: kind, version, header size, payload size, compressed size, ..., PTX/ELF
// version, arch, object name, flags, ..., decompressed size.
constexpr size_t kEntryHeaderMin = 64;
constexpr uint64_t kFlagLz4 = 0x2000;
constexpr uint64_t kFlagZstd = 0x8000;
// Decompressed entries larger than this are refused as corrupt.
constexpr uint64_t kMaxDecompressed = uint64_t(1) << 30;

uint16_t rd16(const uint8_t* p) { return uint16_t(p[0] | (p[1] << 8)); }
uint32_t rd32(const uint8_t* p) { return uint32_t(rd16(p)) | (uint32_t(rd16(p + 2)) << 16); }
uint64_t rd64(const uint8_t* p) { return uint64_t(rd32(p)) | (uint64_t(rd32(p + 4)) << 32); }

[[noreturn]] void fail(size_t offset, const std::string& what) {
  throw Error(fmt::format("fatbinary at offset {:#x}: {}", offset, what));
}

std::string decompress_zstd(const uint8_t* src, size_t n, uint64_t want, size_t at) {
  unsigned long long frame = ZSTD_getFrameContentSize(src, n);
  if (frame == ZSTD_CONTENTSIZE_ERROR) fail(at, "payload is not a zstd frame");
  if (frame != ZSTD_CONTENTSIZE_UNKNOWN && frame != want)
    fail(at, fmt::format("zstd frame holds {} bytes, the entry header says {}", frame, want));
  // Streaming decompression: the output grows only as far as the input really expands.
  ZSTD_DStream* ds = ZSTD_createDStream();
  if (!ds) fail(at, "out of memory for zstd decompression");
  std::string out;
  ZSTD_inBuffer in{src, n, 0};
  size_t ret = 1;
  while (true) {
    size_t used = out.size();
    size_t chunk = ZSTD_DStreamOutSize();
    if (used + chunk > want + 1) chunk = size_t(want + 1 - used);  // room for one excess byte
    out.resize(used + chunk);
    ZSTD_outBuffer ob{out.data() + used, chunk, 0};
    ret = ZSTD_decompressStream(ds, &ob, &in);
    out.resize(used + ob.pos);
    if (ZSTD_isError(ret)) {
      ZSTD_freeDStream(ds);
      fail(at, fmt::format("zstd decompression failed: {}", ZSTD_getErrorName(ret)));
    }
    if (out.size() > want) break;
    if (ret == 0) break;                             // frame complete
    if (in.pos == in.size && ob.pos < chunk) break;  // input exhausted mid-frame
  }
  ZSTD_freeDStream(ds);
  if (out.size() > want) fail(at, fmt::format("zstd payload expands beyond the declared {} bytes", want));
  if (ret != 0) fail(at, "truncated zstd payload");
  if (out.size() != want)
    fail(at, fmt::format("zstd payload expands to {} bytes, the entry header says {}", out.size(), want));
  return out;
}

std::string decompress_lz4(const uint8_t* src, size_t n, uint64_t want, size_t at) {
  // A raw LZ4 block expands at most 255:1.
  if (want > uint64_t(n) * 255 + 16) fail(at, fmt::format("LZ4 payload of {} bytes cannot expand to {}", n, want));
  if (n > size_t(LZ4_MAX_INPUT_SIZE) || want > uint64_t(LZ4_MAX_INPUT_SIZE)) fail(at, "LZ4 payload too large");
  std::string out(size_t(want), '\0');
  int got = LZ4_decompress_safe(reinterpret_cast<const char*>(src), out.data(), int(n), int(want));
  if (got < 0) fail(at, "LZ4 decompression failed (corrupt payload)");
  if (uint64_t(got) != want)
    fail(at, fmt::format("LZ4 payload expands to {} bytes, the entry header says {}", got, want));
  return out;
}

// Parse one container at `base`; returns its total size.
size_t parse_container(const uint8_t* data, size_t size, size_t base, std::vector<Entry>& out) {
  if (size - base < kContainerHeader)
    fail(base, fmt::format("truncated container header ({} bytes left, 16 needed)", size - base));
  const uint8_t* h = data + base;
  uint32_t magic = rd32(h);
  if (magic != kMagic) fail(base, fmt::format("bad magic {:#010x} (expected {:#010x})", magic, kMagic));
  uint16_t hsize = rd16(h + 6);
  uint64_t body = rd64(h + 8);
  if (hsize < kContainerHeader) fail(base, fmt::format("container header size {} is below 16", hsize));
  if (hsize > size - base || body > size - base - hsize)
    fail(base, fmt::format("container of {} + {} bytes exceeds the {} bytes available", hsize, body, size - base));
  size_t pos = base + hsize;
  size_t end = pos + size_t(body);
  while (pos < end) {
    if (end - pos < kEntryHeaderMin) fail(pos, fmt::format("truncated entry header ({} bytes left)", end - pos));
    const uint8_t* e = data + pos;
    uint16_t kind = rd16(e);
    uint32_t ehsize = rd32(e + 4);
    uint64_t psize = rd64(e + 8);
    uint32_t csize = rd32(e + 16);
    uint32_t arch = rd32(e + 28);
    uint64_t flags = rd64(e + 40);
    uint64_t dsize = rd64(e + 56);
    if (ehsize < kEntryHeaderMin || ehsize > end - pos)
      fail(pos, fmt::format("entry header size {} is impossible", ehsize));
    if (psize > end - pos - ehsize)
      fail(pos,
           fmt::format("entry payload of {} bytes exceeds the container ({} bytes left)", psize, end - pos - ehsize));
    Entry entry;
    entry.kind = kind == 1 ? EntryKind::Ptx : kind == 2 ? EntryKind::Elf : EntryKind::Other;
    entry.arch = arch;
    entry.offset = pos;
    const uint8_t* payload = e + ehsize;
    bool lz4 = flags & kFlagLz4, zstd = flags & kFlagZstd;
    if (lz4 && zstd) {
      entry.compression = Compression::Unknown;
    } else if (lz4 || zstd) {
      entry.compression = lz4 ? Compression::Lz4 : Compression::Zstd;
      if (csize > psize) fail(pos, fmt::format("compressed size {} exceeds the payload size {}", csize, psize));
      if (dsize > kMaxDecompressed) fail(pos, fmt::format("declared decompressed size {} is implausible", dsize));
      // Only PTX is decompressed: warpsim does not execute ELF cubins.
      if (entry.kind == EntryKind::Ptx)
        entry.payload = lz4 ? decompress_lz4(payload, csize, dsize, pos) : decompress_zstd(payload, csize, dsize, pos);
    } else {
      entry.payload.assign(reinterpret_cast<const char*>(payload), size_t(psize));
    }
    if (entry.kind == EntryKind::Ptx) {
      // PTX text is NUL-padded to the entry alignment.
      size_t n = entry.payload.find('\0');
      if (n != std::string::npos) entry.payload.resize(n);
    } else if (entry.compression != Compression::None) {
      entry.payload.clear();
    }
    out.push_back(std::move(entry));
    pos += ehsize + size_t(psize);
  }
  return end - base;
}

std::string arch_list(const std::vector<Entry>& entries) {
  std::string s;
  for (const auto& e : entries) {
    const char* k = e.kind == EntryKind::Ptx ? "compute" : e.kind == EntryKind::Elf ? "sm" : "other";
    s += fmt::format("{}{}_{}", s.empty() ? "" : ", ", k, e.arch);
  }
  return s.empty() ? "none" : s;
}

}  // namespace

std::vector<Entry> parse(const uint8_t* data, size_t size) {
  std::vector<Entry> out;
  if (!data || size == 0) throw Error("fatbinary: empty input");
  size_t pos = 0;
  while (pos < size) {
    pos += parse_container(data, size, pos, out);
    // Containers are laid out at 8-byte alignment; trailing zero padding ends the list.
    while (pos < size && (pos & 7) != 0 && data[pos] == 0) ++pos;
    bool rest_zero = true;
    for (size_t i = pos; i < size && rest_zero; ++i) rest_zero = data[i] == 0;
    if (rest_zero) break;
  }
  return out;
}

const Entry& select_ptx(const std::vector<Entry>& entries, uint32_t max_arch) {
  const Entry* best = nullptr;
  bool any_ptx = false;
  for (const auto& e : entries) {
    if (e.kind != EntryKind::Ptx) continue;
    any_ptx = true;
    if (e.compression == Compression::Unknown) continue;
    if (max_arch && e.arch > max_arch) continue;
    if (!best || e.arch > best->arch) best = &e;
  }
  if (best) return *best;
  if (any_ptx && max_arch)
    throw Error(
        fmt::format("fatbinary: no PTX for an architecture <= {} (entries: {}); add "
                    "-gencode arch=compute_{},code=compute_{} to the nvcc command line",
                    max_arch, arch_list(entries), max_arch, max_arch));
  if (any_ptx)
    throw Error(fmt::format("fatbinary: the PTX entries use an unknown compression (entries: {})", arch_list(entries)));
  throw Error(
      fmt::format("fatbinary carries no PTX (entries: {}); warpsim executes PTX: rebuild with "
                  "-gencode arch=compute_75,code=compute_75 added to the nvcc command line "
                  "(or -arch=sm_75, which embeds compute_75 PTX too)",
                  arch_list(entries)));
}

}  // namespace warpsim::fatbin
