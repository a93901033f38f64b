// Line-by-line reading of a trace file, plain or compressed (zstd, xz), with the ability to
// return to a line seen before. Plain files seek; compressed files decode forward and restart
// from the beginning when asked to go back. Memory: one buffer, independent of the file size.
#pragma once
#include <cstdint>
#include <cstdio>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

namespace warpsim {

class TraceFile {
 public:
  explicit TraceFile(std::string path);  // throws Error when the file cannot be opened
  ~TraceFile();
  TraceFile(const TraceFile&) = delete;
  TraceFile& operator=(const TraceFile&) = delete;

  // Next line without its line terminator ('\n' or "\r\n"); false at end of file. The view
  // stays valid until the next call.
  bool next_line(std::string_view& line);
  // Byte offset (in the decompressed text) and 1-based number of the line last returned.
  uint64_t line_offset() const { return line_off_; }
  uint64_t line_no() const { return line_no_; }
  // Continue reading at a line start returned earlier: the next next_line() returns the line
  // at `offset`, numbered `line_no`.
  void seek(uint64_t offset, uint64_t line_no);

  const std::string& path() const { return path_; }
  enum class Codec { Plain, Zstd, Xz };
  Codec codec() const { return codec_; }
  // True when this build can read `codec`.
  static bool supports(Codec codec);

 private:
  struct Decoder;
  void open_decoder();
  size_t fill(char* dst, size_t n);  // decompressed bytes read into dst, 0 at end
  bool refill();                     // move the unread tail to the front and read more

  std::string path_;
  Codec codec_ = Codec::Plain;
  FILE* fp_ = nullptr;
  std::unique_ptr<Decoder> dec_;
  std::vector<char> buf_;
  size_t pos_ = 0, end_ = 0;  // unread data is buf_[pos_, end_)
  uint64_t buf_off_ = 0;      // text offset of buf_[0]
  bool eof_ = false;
  uint64_t line_off_ = 0, line_no_ = 0;
  uint64_t next_line_no_ = 1;
};

}  // namespace warpsim
