#ifndef MART_CLIBXML2_SHIM_H
#define MART_CLIBXML2_SHIM_H
#include <libxml/HTMLparser.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>
#endif
