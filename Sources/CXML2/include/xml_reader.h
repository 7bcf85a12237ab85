#ifndef ENERGYCLOCK_XML_READER_H
#define ENERGYCLOCK_XML_READER_H

// The part of libxml2's streaming reader (xmlTextReader) that energyclock uses, loaded with
// dlopen on the first parse rather than linked: a daemon on a JSON source never maps libxml2 and
// the ICU, lzma and zlib libraries it brings (about 1 MB resident). The declarations follow
// libxml2's ABI (soname libxml2.so.2, and libxml2.so.16 from 2.14 on), which these few calls
// have kept since 2.6; the names are energyclock's, so nothing here clashes with a libxml2
// that another part of a process has linked.

/// An open reader (libxml2's xmlTextReaderPtr).
typedef struct ec_xml_reader ec_xml_reader;

/// Where a reported error is (libxml2's xmlTextReaderLocatorPtr).
typedef void *ec_xml_locator;

/// Called for each error the reader reports: the message, its severity and where it is.
typedef void (*ec_xml_error_handler)(void *context, const char *message, int severity, ec_xml_locator locator);

/// XML_PARSE_NONET: no network access, ever.
#define EC_XML_PARSE_NONET (1 << 11)

/// The node types energyclock reads (libxml2's xmlReaderTypes).
enum {
    EC_XML_ELEMENT = 1,
    EC_XML_TEXT = 3,
    EC_XML_CDATA = 4,
    EC_XML_SIGNIFICANT_WHITESPACE = 14,
    EC_XML_END_ELEMENT = 15,
};

/// Loads libxml2 once per process and initialises its parser; NULL when it is ready, otherwise
/// why not (the library is missing or lacks a call), the same text on every call.
const char *ec_xml_load(void);

/// The calls below may be made only after ec_xml_load returned NULL.
ec_xml_reader *ec_xml_reader_for_memory(const char *buffer, int size, const char *encoding, int options);
void ec_xml_free_reader(ec_xml_reader *reader);
void ec_xml_set_error_handler(ec_xml_reader *reader, ec_xml_error_handler handler, void *context);
int ec_xml_read(ec_xml_reader *reader);
int ec_xml_node_type(ec_xml_reader *reader);
int ec_xml_is_empty_element(ec_xml_reader *reader);
const unsigned char *ec_xml_local_name(ec_xml_reader *reader);
const unsigned char *ec_xml_value(ec_xml_reader *reader);
int ec_xml_move_to_first_attribute(ec_xml_reader *reader);
int ec_xml_move_to_next_attribute(ec_xml_reader *reader);
int ec_xml_move_to_element(ec_xml_reader *reader);
int ec_xml_locator_line(ec_xml_locator locator);

/// libxml2 writes some errors (an unknown encoding, a failed allocation) through its generic
/// handler, straight to standard error and around the daemon's logger, whatever handler a reader
/// has. This keeps that handler quiet on the calling thread.
void ec_xml_silence(void);

#endif
