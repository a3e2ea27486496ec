#ifndef MART_CICONV_SHIM_H
#define MART_CICONV_SHIM_H
#include <errno.h>
#include <iconv.h>
#include <stddef.h>

/* iconv (part of the C library) behind typed wrappers: iconv_open signals failure with
   (iconv_t)-1, which Swift cannot compare, so the wrapper returns NULL instead. */

static inline iconv_t mart_iconv_open(const char *to_code, const char *from_code) {
  iconv_t converter = iconv_open(to_code, from_code);
  return converter == (iconv_t)-1 ? NULL : converter;
}

/* Converts all of `input` into `output`. Returns 0 on success, or the errno of the failure:
   EILSEQ (invalid bytes), EINVAL (incomplete sequence at the end), E2BIG (output too small).
   `input_left` and `output_left` say how much was not consumed or not filled. */
static inline int mart_iconv_convert(
    iconv_t converter, const char *input, size_t input_count, size_t *input_left, char *output,
    size_t output_count, size_t *output_left) {
  char *in = (char *)input;
  char *out = output;
  *input_left = input_count;
  *output_left = output_count;
  size_t result = iconv(converter, &in, input_left, &out, output_left);
  if (result == (size_t)-1) return errno;
  /* Flush any shift state. */
  result = iconv(converter, NULL, NULL, &out, output_left);
  return result == (size_t)-1 ? errno : 0;
}

static inline void mart_iconv_close(iconv_t converter) { iconv_close(converter); }

#endif
