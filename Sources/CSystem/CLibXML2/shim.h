#ifndef MART_CLIBXML2_SHIM_H
#define MART_CLIBXML2_SHIM_H
/* Debian builds libxml2 with ICU, so its encoding.h includes the system <unicode/ucnv.h>, whose
   types clash with the ICU copy inside Foundation. Hiding the flag drops only the two trailing ICU
   converter pointers of xmlCharEncodingHandler, a struct this package never allocates or reads. */
#include <libxml/xmlversion.h>
#undef LIBXML_ICU_ENABLED
#include <libxml/HTMLparser.h>
#include <libxml/xmlerror.h>
#include <libxml/xpath.h>
#include <libxml/xpathInternals.h>

/// Frees memory that libxml2 allocated (`xmlFree` is a function-pointer variable, not a function).
static inline void mart_xml_free(void *pointer) {
  if (pointer != NULL) xmlFree(pointer);
}

/// Number of nodes in a node set (0 for NULL); wraps the `xmlXPathNodeSetGetLength` macro.
static inline int mart_xml_node_set_count(xmlNodeSetPtr set) {
  return xmlXPathNodeSetGetLength(set);
}

/// Node `index` of a node set, or NULL when out of range; wraps the `xmlXPathNodeSetItem` macro.
static inline xmlNodePtr mart_xml_node_set_item(xmlNodeSetPtr set, int index) {
  return xmlXPathNodeSetItem(set, index);
}

/// An XPath error handler that records nothing beyond what libxml2 stores in the context's
/// `lastError`; installing it keeps libxml2 from printing XPath errors to stderr.
static inline void mart_xml_ignore_structured_error(void *user_data, xmlErrorPtr error) {
  (void)user_data;
  (void)error;
}

/// Installs `mart_xml_ignore_structured_error` on an XPath context.
static inline void mart_xml_xpath_silence_errors(xmlXPathContextPtr context) {
  context->error = mart_xml_ignore_structured_error;
  context->userData = NULL;
}
#endif
