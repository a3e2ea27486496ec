#ifndef MART_CCURL_SHIM_H
#define MART_CCURL_SHIM_H
#include <curl/curl.h>
#endif
