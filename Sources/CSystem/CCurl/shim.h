#ifndef MART_CCURL_SHIM_H
#define MART_CCURL_SHIM_H
#include <curl/curl.h>
#include <pthread.h>
#include <openssl/ssl.h>
#include <openssl/x509_vfy.h>

/* Typed wrappers around libcurl's variadic setopt/getinfo, so Swift never calls a
   variadic C function. Each passes exactly the argument type the option expects. */

typedef size_t (*mart_curl_data_callback)(char *data, size_t size, size_t count, void *context);

static inline CURLcode mart_curl_setopt_long(CURL *handle, CURLoption option, long value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mart_curl_setopt_string(CURL *handle, CURLoption option, const char *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mart_curl_setopt_pointer(CURL *handle, CURLoption option, void *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mart_curl_setopt_slist(CURL *handle, CURLoption option, struct curl_slist *value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mart_curl_setopt_off_t(CURL *handle, CURLoption option, curl_off_t value) {
  return curl_easy_setopt(handle, option, value);
}

static inline CURLcode mart_curl_setopt_data_callback(
    CURL *handle, CURLoption option, mart_curl_data_callback callback) {
  return curl_easy_setopt(handle, option, callback);
}

static inline CURLcode mart_curl_getinfo_long(CURL *handle, CURLINFO info, long *value) {
  return curl_easy_getinfo(handle, info, value);
}

static inline CURLcode mart_curl_getinfo_string(CURL *handle, CURLINFO info, const char **value) {
  /* libcurl writes a `char *` into the pointer; the string is owned by the handle. */
  return curl_easy_getinfo(handle, info, (char **)value);
}

/* The multi interface: typed wrappers around the variadic curl_multi_setopt, and the one
   message kind read back (a finished transfer), so Swift never touches the CURLMsg union. */

static inline CURLMcode mart_curl_multi_setopt_long(CURLM *multi, CURLMoption option, long value) {
  return curl_multi_setopt(multi, option, value);
}

/* The share interface: which data the transfers of a client's multi handles share (TLS
   sessions), and the locks that let several threads use one share handle. */

static inline CURLSHcode mart_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
  return curl_share_setopt(share, option, value);
}

static void mart_curl_share_lock(CURL *handle, curl_lock_data data, curl_lock_access access, void *locks) {
  (void)handle;
  (void)access;
  pthread_mutex_lock(&((pthread_mutex_t *)locks)[data]);
}

static void mart_curl_share_unlock(CURL *handle, curl_lock_data data, void *locks) {
  (void)handle;
  pthread_mutex_unlock(&((pthread_mutex_t *)locks)[data]);
}

/* Makes `share` safe to use from several threads: each kind of shared data behind its own mutex
   of `locks`, an array of CURL_LOCK_DATA_LAST initialized mutexes that outlives the share. */
static inline CURLSHcode mart_curl_share_set_locks(CURLSH *share, pthread_mutex_t *locks) {
  CURLSHcode code = curl_share_setopt(share, CURLSHOPT_LOCKFUNC, mart_curl_share_lock);
  if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_UNLOCKFUNC, mart_curl_share_unlock);
  if (code == CURLSHE_OK) code = curl_share_setopt(share, CURLSHOPT_USERDATA, (void *)locks);
  return code;
}

/* Whether `message` says a transfer finished; if so, sets its easy handle and result. */
static inline int mart_curl_message_done(const CURLMsg *message, CURL **handle, CURLcode *result) {
  if (message->msg != CURLMSG_DONE) return 0;
  *handle = message->easy_handle;
  *result = message->data.result;
  return 1;
}

/* Trusted certificates parsed once for a whole client. libcurl keeps the X509 store it parses
   from CURLOPT_CAINFO in its multi handle, so every multi handle (a lane's own included) would
   parse the bundle again, which costs tens of milliseconds with OpenSSL 3. Instead one store is
   made here and every connection's SSL_CTX is given it (CURLOPT_SSL_CTX_FUNCTION). */

/* A new X509 store holding the certificates of the PEM file at `path`, with the flags libcurl
   sets on the store it makes itself: trusted certificates tried first when building a chain,
   and a trusted intermediate accepted as an anchor (X509_V_FLAG_PARTIAL_CHAIN). NULL when the
   file cannot be read or holds no certificate. Released with mart_x509_store_free. */
static inline X509_STORE *mart_x509_store_from_file(const char *path) {
  X509_STORE *store = X509_STORE_new();
  if (!store) return NULL;
  if (X509_STORE_load_file(store, path) != 1) {
    X509_STORE_free(store);
    return NULL;
  }
  X509_STORE_set_flags(store, X509_V_FLAG_TRUSTED_FIRST | X509_V_FLAG_PARTIAL_CHAIN);
  return store;
}

static inline void mart_x509_store_free(X509_STORE *store) { X509_STORE_free(store); }

/* Makes the SSL_CTX `context` check servers against `store`, taking a reference of its own to
   it (the SSL_CTX releases it when freed). Returns 1 on success. */
static inline int mart_ssl_context_use_store(void *context, X509_STORE *store) {
  if (!context || !store || X509_STORE_up_ref(store) != 1) return 0;
  SSL_CTX_set_cert_store((SSL_CTX *)context, store);
  return 1;
}

typedef CURLcode (*mart_curl_ssl_context_callback)(CURL *handle, void *context, void *data);

/* Sets CURLOPT_SSL_CTX_FUNCTION and its data; CURLE_NOT_BUILT_IN where the TLS library libcurl
   was built with has no SSL_CTX (then nothing is set). */
static inline CURLcode mart_curl_setopt_ssl_context_callback(
    CURL *handle, mart_curl_ssl_context_callback callback, void *data) {
  CURLcode code = curl_easy_setopt(handle, CURLOPT_SSL_CTX_FUNCTION, callback);
  if (code != CURLE_OK) return code;
  return curl_easy_setopt(handle, CURLOPT_SSL_CTX_DATA, data);
}

#endif
