#ifndef MART_COPENSSLCRYPTO_SHIM_H
#define MART_COPENSSLCRYPTO_SHIM_H
#include <openssl/evp.h>

/// One-shot SHA-256 of a buffer; writes 32 bytes to `digest`. Returns 1 on success.
static inline int mart_sha256(const void *data, size_t length, unsigned char digest[32]) {
  unsigned int written = 0;
  return EVP_Digest(data, length, digest, &written, EVP_sha256(), NULL) && written == 32;
}
#endif
