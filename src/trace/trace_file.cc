#include "trace/trace_file.h"

#include <fmt/format.h>

#include <cerrno>
#include <cstring>
#include <filesystem>

#include "core/error.h"

#ifndef WARPSIM_HAVE_ZSTD
#define WARPSIM_HAVE_ZSTD 0
#endif
#ifndef WARPSIM_HAVE_LZMA
#define WARPSIM_HAVE_LZMA 0
#endif

#if WARPSIM_HAVE_ZSTD
#include <zstd.h>
#endif
#if WARPSIM_HAVE_LZMA
#include <lzma.h>
#endif

namespace warpsim {

namespace {
constexpr size_t kBufferBytes = 1 << 20;
constexpr size_t kInputBytes = 1 << 18;
const char* codec_name(TraceFile::Codec c) {
  switch (c) {
    case TraceFile::Codec::Zstd:
      return "zstd";
    case TraceFile::Codec::Xz:
      return "xz";
    default:
      return "plain";
  }
}
}  // namespace

// Decompression state; empty for plain files.
struct TraceFile::Decoder {
  std::vector<char> in;
  size_t in_pos = 0, in_end = 0;
  bool in_eof = false;
#if WARPSIM_HAVE_ZSTD
  ZSTD_DStream* zstd = nullptr;
  bool zstd_frame_done = true;
#endif
#if WARPSIM_HAVE_LZMA
  lzma_stream xz = LZMA_STREAM_INIT;
  bool xz_open = false;
#endif
  ~Decoder() {
#if WARPSIM_HAVE_ZSTD
    if (zstd) ZSTD_freeDStream(zstd);
#endif
#if WARPSIM_HAVE_LZMA
    if (xz_open) lzma_end(&xz);
#endif
  }
};

bool TraceFile::supports(Codec codec) {
  switch (codec) {
    case Codec::Plain:
      return true;
    case Codec::Zstd:
      return WARPSIM_HAVE_ZSTD != 0;
    case Codec::Xz:
      return WARPSIM_HAVE_LZMA != 0;
  }
  return false;
}

TraceFile::TraceFile(std::string path) : path_(std::move(path)) {
  buf_.resize(kBufferBytes);
  open_decoder();
}

TraceFile::~TraceFile() {
  if (fp_) std::fclose(fp_);
}

void TraceFile::open_decoder() {
  if (fp_) std::fclose(fp_);
  std::error_code ec;
  if (std::filesystem::is_directory(path_, ec))
    throw Error(fmt::format("trace file '{}' is a directory (expected a kernel trace file)", path_));
  fp_ = std::fopen(path_.c_str(), "rb");
  if (!fp_) throw Error(fmt::format("cannot open trace file '{}': {}", path_, std::strerror(errno)));
  unsigned char magic[6] = {};
  size_t n = std::fread(magic, 1, sizeof magic, fp_);
  std::rewind(fp_);
  static const unsigned char kZstd[4] = {0x28, 0xb5, 0x2f, 0xfd};
  static const unsigned char kXz[6] = {0xfd, '7', 'z', 'X', 'Z', 0x00};
  codec_ = Codec::Plain;
  if (n >= 4 && std::memcmp(magic, kZstd, 4) == 0) codec_ = Codec::Zstd;
  if (n >= 6 && std::memcmp(magic, kXz, 6) == 0) codec_ = Codec::Xz;
  if (!supports(codec_))
    throw Error(fmt::format("trace file '{}' is {}-compressed, and this build has no {} support; decompress it first",
                            path_, codec_name(codec_), codec_name(codec_)));
  dec_.reset();
  if (codec_ == Codec::Plain) return;
  dec_ = std::make_unique<Decoder>();
  dec_->in.resize(kInputBytes);
#if WARPSIM_HAVE_ZSTD
  if (codec_ == Codec::Zstd) {
    dec_->zstd = ZSTD_createDStream();
    if (!dec_->zstd) throw Error("out of memory creating a zstd decoder");
    ZSTD_initDStream(dec_->zstd);
  }
#endif
#if WARPSIM_HAVE_LZMA
  if (codec_ == Codec::Xz) {
    if (lzma_stream_decoder(&dec_->xz, UINT64_MAX, LZMA_CONCATENATED) != LZMA_OK)
      throw Error("cannot create an xz decoder");
    dec_->xz_open = true;
  }
#endif
}

size_t TraceFile::fill(char* dst, size_t n) {
  if (codec_ == Codec::Plain) return std::fread(dst, 1, n, fp_);
  Decoder& d = *dec_;
  auto read_input = [&] {
    if (d.in_pos == d.in_end && !d.in_eof) {
      d.in_end = std::fread(d.in.data(), 1, d.in.size(), fp_);
      d.in_pos = 0;
      if (d.in_end == 0) d.in_eof = true;
    }
  };
#if WARPSIM_HAVE_ZSTD
  if (codec_ == Codec::Zstd) {
    ZSTD_outBuffer out{dst, n, 0};
    while (out.pos == 0) {
      read_input();
      const bool no_input = d.in_pos == d.in_end && d.in_eof;
      if (no_input && d.zstd_frame_done) break;  // clean end of the last frame
      ZSTD_inBuffer in{d.in.data(), d.in_end, d.in_pos};
      size_t r = ZSTD_decompressStream(d.zstd, &out, &in);
      if (ZSTD_isError(r)) throw Error(fmt::format("trace file '{}': zstd: {}", path_, ZSTD_getErrorName(r)));
      d.in_pos = in.pos;
      d.zstd_frame_done = r == 0;
      if (no_input && out.pos == 0 && !d.zstd_frame_done)
        throw Error(fmt::format("trace file '{}': truncated zstd stream", path_));
    }
    return out.pos;
  }
#endif
#if WARPSIM_HAVE_LZMA
  if (codec_ == Codec::Xz) {
    lzma_stream& s = d.xz;
    s.next_out = reinterpret_cast<uint8_t*>(dst);
    s.avail_out = n;
    while (s.avail_out == n) {
      read_input();
      s.next_in = reinterpret_cast<const uint8_t*>(d.in.data() + d.in_pos);
      s.avail_in = d.in_end - d.in_pos;
      lzma_ret r = lzma_code(&s, d.in_eof ? LZMA_FINISH : LZMA_RUN);
      d.in_pos = d.in_end - s.avail_in;
      if (r == LZMA_STREAM_END) break;
      if (r != LZMA_OK) {
        if (r == LZMA_BUF_ERROR && d.in_eof) throw Error(fmt::format("trace file '{}': truncated xz stream", path_));
        throw Error(fmt::format("trace file '{}': xz decoding failed (code {})", path_, static_cast<int>(r)));
      }
    }
    return n - s.avail_out;
  }
#endif
  (void)d;
  (void)read_input;
  return 0;
}

bool TraceFile::refill() {
  if (eof_) return false;
  if (pos_ > 0) {
    std::memmove(buf_.data(), buf_.data() + pos_, end_ - pos_);
    buf_off_ += pos_;
    end_ -= pos_;
    pos_ = 0;
  }
  if (end_ == buf_.size()) buf_.resize(buf_.size() * 2);  // a line longer than the buffer
  size_t got = fill(buf_.data() + end_, buf_.size() - end_);
  if (got == 0) {
    eof_ = true;
    return false;
  }
  end_ += got;
  return true;
}

bool TraceFile::next_line(std::string_view& line) {
  size_t scan = pos_;
  for (;;) {
    const char* base = buf_.data();
    const void* nl = std::memchr(base + scan, '\n', end_ - scan);
    if (nl) {
      size_t p = static_cast<const char*>(nl) - base;
      size_t len = p - pos_;
      if (len > 0 && base[pos_ + len - 1] == '\r') --len;
      line = std::string_view(base + pos_, len);
      line_off_ = buf_off_ + pos_;
      line_no_ = next_line_no_++;
      pos_ = p + 1;
      return true;
    }
    size_t scanned = end_ - pos_;
    if (!refill()) {
      if (pos_ < end_) {  // last line without a terminator
        size_t len = end_ - pos_;
        if (buf_[pos_ + len - 1] == '\r') --len;
        line = std::string_view(buf_.data() + pos_, len);
        line_off_ = buf_off_ + pos_;
        line_no_ = next_line_no_++;
        pos_ = end_;
        return true;
      }
      return false;
    }
    scan = pos_ + scanned;
  }
}

void TraceFile::seek(uint64_t offset, uint64_t line_no) {
  next_line_no_ = line_no;
  if (offset >= buf_off_ && offset <= buf_off_ + end_) {
    pos_ = static_cast<size_t>(offset - buf_off_);
    return;
  }
  if (codec_ == Codec::Plain) {
    if (fseeko(fp_, static_cast<off_t>(offset), SEEK_SET) != 0)
      throw Error(fmt::format("trace file '{}': cannot seek to byte {}", path_, offset));
    buf_off_ = offset;
    pos_ = end_ = 0;
    eof_ = false;
    return;
  }
  if (offset < buf_off_) {  // compressed: start again from the beginning
    open_decoder();
    buf_off_ = 0;
    pos_ = end_ = 0;
    eof_ = false;
  }
  while (buf_off_ + end_ < offset) {
    buf_off_ += end_;
    pos_ = end_ = 0;
    if (!refill()) throw Error(fmt::format("trace file '{}': cannot seek to byte {} (file ends first)", path_, offset));
  }
  pos_ = static_cast<size_t>(offset - buf_off_);
}

}  // namespace warpsim
