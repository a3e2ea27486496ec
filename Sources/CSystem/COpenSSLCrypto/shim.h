#ifndef MART_COPENSSLCRYPTO_SHIM_H
#define MART_COPENSSLCRYPTO_SHIM_H
#include <openssl/evp.h>

/// One-shot SHA-256 of a buffer; writes 32 bytes to `digest`. Returns 1 on success.
static inline int mart_sha256(const void *data, size_t length, unsigned char digest[32]) {
  unsigned int written = 0;
  return EVP_Digest(data, length, digest, &written, EVP_sha256(), NULL) && written == 32;
}
/// One-shot SHA-1 of a buffer (the digest older WARC files carry); writes 20 bytes to `digest`.
/// Returns 1 on success.
static inline int mart_sha1(const void *data, size_t length, unsigned char digest[20]) {
  unsigned int written = 0;
  return EVP_Digest(data, length, digest, &written, EVP_sha1(), NULL) && written == 20;
}

/// A SHA-256 computed piece by piece; NULL when libcrypto cannot start one.
static inline EVP_MD_CTX *mart_sha256_new(void) {
  EVP_MD_CTX *context = EVP_MD_CTX_new();
  if (context && EVP_DigestInit_ex(context, EVP_sha256(), NULL) != 1) {
    EVP_MD_CTX_free(context);
    return NULL;
  }
  return context;
}

/// Adds `length` bytes to the digest. Returns 1 on success.
static inline int mart_sha256_update(EVP_MD_CTX *context, const void *data, size_t length) {
  return EVP_DigestUpdate(context, data, length);
}

/// Writes the 32-byte digest of everything added. Returns 1 on success.
static inline int mart_sha256_final(EVP_MD_CTX *context, unsigned char digest[32]) {
  unsigned int written = 0;
  return EVP_DigestFinal_ex(context, digest, &written) && written == 32;
}

/// Releases a context made by `mart_sha256_new`.
static inline void mart_sha256_free(EVP_MD_CTX *context) { EVP_MD_CTX_free(context); }
#endif
