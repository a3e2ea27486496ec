#ifndef MART_CZLIB_SHIM_H
#define MART_CZLIB_SHIM_H
#include <stdlib.h>
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
static inline int mart_gzip(const void *input, size_t length, void *output, size_t capacity, size_t *written);

/// `mart_gzip` at compression `level` (1 fastest … 9 smallest).
static inline int mart_gzip_at_level(
  const void *input, size_t length, int level, void *output, size_t capacity, size_t *written
) {
  z_stream stream;
  memset(&stream, 0, sizeof stream);
  // 15 window bits + 16: a gzip wrapper instead of a zlib one.
  int status = deflateInit2(&stream, level, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY);
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

static inline int mart_gzip(const void *input, size_t length, void *output, size_t capacity, size_t *written) {
  return mart_gzip_at_level(input, length, Z_BEST_COMPRESSION, output, capacity, written);
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

/// A gzip member compressed piece by piece, with the same parameters and header as
/// `mart_gzip`, so its bytes equal `mart_gzip`'s for the same input however it is split.
/// Returns NULL when zlib cannot start.
static inline z_stream *mart_gzip_stream_new(void) {
  // The header must outlive the first deflate call, so it is allocated with the stream.
  struct mart_gzip_stream { z_stream stream; gz_header header; };
  struct mart_gzip_stream *state = (struct mart_gzip_stream *)calloc(1, sizeof(struct mart_gzip_stream));
  if (!state) return NULL;
  if (deflateInit2(&state->stream, Z_BEST_COMPRESSION, Z_DEFLATED, 15 + 16, 9, Z_DEFAULT_STRATEGY) != Z_OK) {
    free(state);
    return NULL;
  }
  state->header.os = 255;
  if (deflateSetHeader(&state->stream, &state->header) != Z_OK) {
    deflateEnd(&state->stream);
    free(state);
    return NULL;
  }
  return &state->stream;
}

/// Feeds `length` bytes (all of them, or none when `finish`) to `stream`, writing compressed
/// bytes to `output` (at most `capacity`). Sets `consumed` and `written`. Returns Z_OK while
/// there is more to do (call again with the rest and a new output buffer), Z_STREAM_END when
/// `finish` and everything was written, or a zlib error.
static inline int mart_gzip_stream_write(
  z_stream *stream, const void *input, size_t length, int finish, void *output, size_t capacity,
  size_t *consumed, size_t *written
) {
  stream->next_in = (Bytef *)input;
  stream->avail_in = (uInt)length;
  stream->next_out = (Bytef *)output;
  stream->avail_out = (uInt)capacity;
  int status = deflate(stream, finish ? Z_FINISH : Z_NO_FLUSH);
  *consumed = length - stream->avail_in;
  *written = capacity - stream->avail_out;
  if (status == Z_BUF_ERROR) return Z_OK;  // no progress possible: needs more output room or input
  return status;
}

/// Releases a stream made by `mart_gzip_stream_new`.
static inline void mart_gzip_stream_free(z_stream *stream) {
  deflateEnd(stream);
  free(stream);
}
#endif
