#include <libxml/xmlversion.h>
// Only the reader API is used. Left on, libxml2 pulls in the system ICU headers, which clash with
// the toolchain's own copy wherever Foundation is imported too.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
#include <libxml/xmlerror.h>

// libxml2 writes some errors (an unknown encoding, a failed allocation) through its generic
// handler, straight to standard error and around the daemon's logger, whatever handler a reader
// has. This keeps that handler quiet on the calling thread. No structured handler is set: one
// would take the errors the reader's own handler reports.
static void ec_xml_ignore_generic(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
static inline void ec_xml_silence(void) {
    xmlSetGenericErrorFunc(NULL, ec_xml_ignore_generic);
}
