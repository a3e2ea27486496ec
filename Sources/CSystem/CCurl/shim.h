#ifndef MART_CCURL_SHIM_H
#define MART_CCURL_SHIM_H
#include <curl/curl.h>

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

/* The share interface: which data the transfers of one multi handle share (TLS sessions). */

static inline CURLSHcode mart_curl_share_setopt_long(CURLSH *share, CURLSHoption option, long value) {
  return curl_share_setopt(share, option, value);
}

/* Whether `message` says a transfer finished; if so, sets its easy handle and result. */
static inline int mart_curl_message_done(const CURLMsg *message, CURL **handle, CURLcode *result) {
  if (message->msg != CURLMSG_DONE) return 0;
  *handle = message->easy_handle;
  *result = message->data.result;
  return 1;
}

#endif
