#ifndef MART_COPENSSLCRYPTO_SHIM_H
#define MART_COPENSSLCRYPTO_SHIM_H
#include <limits.h>
#include <openssl/err.h>
#include <openssl/evp.h>
#include <openssl/pem.h>
#include <openssl/x509.h>
#include <pthread.h>

/// SHA-256 fetched from libcrypto's providers once: `EVP_sha256()` makes every digest fetch it
/// again (OpenSSL 3), which costs as much as hashing a few kilobytes.
static EVP_MD *mart_sha256_fetched = NULL;
static pthread_once_t mart_sha256_fetch_once = PTHREAD_ONCE_INIT;
static void mart_sha256_fetch(void) { mart_sha256_fetched = EVP_MD_fetch(NULL, "SHA256", NULL); }
static inline const EVP_MD *mart_sha256_digest(void) {
  pthread_once(&mart_sha256_fetch_once, mart_sha256_fetch);
  return mart_sha256_fetched ? mart_sha256_fetched : EVP_sha256();
}

/// One-shot SHA-256 of a buffer; writes 32 bytes to `digest`. Returns 1 on success.
static inline int mart_sha256(const void *data, size_t length, unsigned char digest[32]) {
  unsigned int written = 0;
  return EVP_Digest(data, length, digest, &written, mart_sha256_digest(), NULL) && written == 32;
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
  if (context && EVP_DigestInit_ex(context, mart_sha256_digest(), NULL) != 1) {
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
/// Reads every PEM certificate in a buffer, as libcurl's TLS library will. Returns the number
/// read when all of them parse and the rest holds no other certificate, or minus the 1-based
/// position of the first certificate that does not parse.
static inline long mart_pem_certificates_check(const void *data, size_t length) {
  if (length > INT_MAX) return -1;
  BIO *bio = BIO_new_mem_buf(data, (int)length);
  if (!bio) return -1;
  ERR_clear_error();
  long count = 0;
  for (;;) {
    X509 *certificate = PEM_read_bio_X509_AUX(bio, NULL, NULL, NULL);
    if (!certificate) break;
    X509_free(certificate);
    count += 1;
  }
  unsigned long error = ERR_peek_last_error();
  BIO_free(bio);
  ERR_clear_error();
  // The end of the buffer: no further "-----BEGIN" line.
  if (ERR_GET_LIB(error) == ERR_LIB_PEM && ERR_GET_REASON(error) == PEM_R_NO_START_LINE) return count;
  return -(count + 1);
}

#endif
