#include <libxml/xmlversion.h>
// Only the reader API is used. Left on, libxml2 pulls in the system ICU headers, which clash with
// the toolchain's own copy wherever Foundation is imported too.
#undef LIBXML_ICU_ENABLED
#include <libxml/xmlreader.h>
