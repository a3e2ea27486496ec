#ifndef MART_CZLIB_SHIM_H
#define MART_CZLIB_SHIM_H
#include <stdlib.h>
#include <string.h>
#include <zlib.h>

/// Decompresses the first gzip member of `input`, which may be followed by more: writes at most
/// `capacity` bytes to `output`, the count to `written` and the input bytes the member took to
/// `consumed`. Returns Z_OK, Z_BUF_ERROR when `capacity` is too small, or Z_DATA_ERROR for input
/// that does not start with a complete gzip member.
static inline int mart_gunzip_member(
  const void *input, size_t length, void *output, size_t capacity, size_t *consumed, size_t *written
) {
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
  *consumed = (size_t)stream.total_in;
  inflateEnd(&stream);
  if (status == Z_STREAM_END) return Z_OK;
  if (status == Z_BUF_ERROR && stream.avail_out == 0) return Z_BUF_ERROR;
  return status == Z_NEED_DICT || status == Z_BUF_ERROR ? Z_DATA_ERROR : status;
}

/// Decompresses one gzip member that is the whole of `input`. Writes at most `capacity` bytes to
/// `output` and the count to `written`. Returns Z_OK, Z_BUF_ERROR when `capacity` is too small,
/// or Z_DATA_ERROR for input that is not a complete gzip member or has bytes after it.
static inline int mart_gunzip(const void *input, size_t length, void *output, size_t capacity, size_t *written) {
  size_t consumed = 0;
  int status = mart_gunzip_member(input, length, output, capacity, &consumed, written);
  return status == Z_OK && consumed != length ? Z_DATA_ERROR : status;
}
#endif
