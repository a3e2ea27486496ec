#ifndef MART_CZLIB_SHIM_H
#define MART_CZLIB_SHIM_H
#include <string.h>
#include <zlib.h>

/// An upper bound on the size of `mart_gzip`'s output for `length` input bytes.
static inline size_t mart_gzip_bound(size_t length) {
  // deflate's own bound plus the gzip header (10 bytes) and trailer (8 bytes), with margin.
  return (size_t)compressBound((uLong)length) + 64;
}

/// Compresses `input` into a gzip member whose bytes depend on the input alone: maximum
/// compression, no file name, no comment, modification time 0 and operating system "unknown".
/// Writes at most `capacity` bytes to `output` and stores the count in `written`.
/// Returns Z_OK, or a zlib error code (Z_BUF_ERROR when `capacity` is too small).
static inline int mart_gzip(const void *input, size_t length, void *output, size_t capacity, size_t *written) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  // 15 window bits + 16: a gzip wrapper instead of a zlib one.
  int status = deflateInit2(&stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
  if (status != Z_OK) return status;
  gz_header header;
  memset(&header, 0, sizeof header);
  header.os = 255;
  status = deflateSetHeader(&stream, &header);
  if (status != Z_OK) { deflateEnd(&stream); return status; }
  stream.next_in = (Bytef *)input;
  stream.avail_in = (uInt)length;
  stream.next_out = (Bytef *)output;
  stream.avail_out = (uInt)capacity;
  status = deflate(&stream, Z_FINISH);
  *written = (size_t)stream.total_out;
  deflateEnd(&stream);
  return status == Z_STREAM_END ? Z_OK : (status == Z_OK ? Z_BUF_ERROR : status);
}

/// Decompresses one gzip member. Writes at most `capacity` bytes to `output` and the count to
/// `written`. Returns Z_OK, Z_BUF_ERROR when `capacity` is too small, or Z_DATA_ERROR for
/// input that is not a complete gzip member.
static inline int mart_gunzip(const void *input, size_t length, void *output, size_t capacity, size_t *written) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  int status = inflateInit2(&stream, 15 + 16);
  if (status != Z_OK) return status;
  stream.next_in = (Bytef *)input;
  stream.avail_in = (uInt)length;
  stream.next_out = (Bytef *)output;
  stream.avail_out = (uInt)capacity;
  status = inflate(&stream, Z_FINISH);
  *written = (size_t)stream.total_out;
  int trailing = stream.avail_in != 0;
  inflateEnd(&stream);
  if (status == Z_STREAM_END) return trailing ? Z_DATA_ERROR : Z_OK;
  if (status == Z_BUF_ERROR && stream.avail_out == 0) return Z_BUF_ERROR;
  return status == Z_NEED_DICT || status == Z_BUF_ERROR ? Z_DATA_ERROR : status;
}
#endif
