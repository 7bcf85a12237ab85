#define _GNU_SOURCE
#include "xml_reader.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

// libxml2's own signatures, with its pointer types as void * and its enums as int.
static struct {
    void (*init_parser)(void);
    ec_xml_reader *(*reader_for_memory)(const char *, int, const char *, const char *, int);
    void (*free_reader)(ec_xml_reader *);
    void (*set_error_handler)(ec_xml_reader *, ec_xml_error_handler, void *);
    int (*read)(ec_xml_reader *);
    int (*node_type)(ec_xml_reader *);
    int (*is_empty_element)(ec_xml_reader *);
    const unsigned char *(*local_name)(ec_xml_reader *);
    const unsigned char *(*value)(ec_xml_reader *);
    int (*move_to_first_attribute)(ec_xml_reader *);
    int (*move_to_next_attribute)(ec_xml_reader *);
    int (*move_to_element)(ec_xml_reader *);
    int (*locator_line)(ec_xml_locator);
    void (*set_generic_error_func)(void *, void (*)(void *, const char *, ...));
} xml;

static pthread_once_t once = PTHREAD_ONCE_INIT;
static const char *failure;
static char failure_text[512];

static void *symbol(void *library, const char *name) {
    void *found = dlsym(library, name);
    if (!found && !failure) {
        snprintf(failure_text, sizeof failure_text, "libxml2 has no %s", name);
        failure = failure_text;
    }
    return found;
}

static void load(void) {
    // Never closed: a daemon that parsed XML once will again at its next poll.
    void *library = dlopen("libxml2.so.2", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libxml2.so.16", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();
        snprintf(failure_text, sizeof failure_text, "libxml2 could not be loaded (install Debian's libxml2): %s", why ? why : "not found");
        failure = failure_text;
        return;
    }
    *(void **)&xml.init_parser = symbol(library, "xmlInitParser");
    *(void **)&xml.reader_for_memory = symbol(library, "xmlReaderForMemory");
    *(void **)&xml.free_reader = symbol(library, "xmlFreeTextReader");
    *(void **)&xml.set_error_handler = symbol(library, "xmlTextReaderSetErrorHandler");
    *(void **)&xml.read = symbol(library, "xmlTextReaderRead");
    *(void **)&xml.node_type = symbol(library, "xmlTextReaderNodeType");
    *(void **)&xml.is_empty_element = symbol(library, "xmlTextReaderIsEmptyElement");
    *(void **)&xml.local_name = symbol(library, "xmlTextReaderConstLocalName");
    *(void **)&xml.value = symbol(library, "xmlTextReaderConstValue");
    *(void **)&xml.move_to_first_attribute = symbol(library, "xmlTextReaderMoveToFirstAttribute");
    *(void **)&xml.move_to_next_attribute = symbol(library, "xmlTextReaderMoveToNextAttribute");
    *(void **)&xml.move_to_element = symbol(library, "xmlTextReaderMoveToElement");
    *(void **)&xml.locator_line = symbol(library, "xmlTextReaderLocatorLineNumber");
    *(void **)&xml.set_generic_error_func = symbol(library, "xmlSetGenericErrorFunc");
    // Once, before any thread parses: libxml2 asks for this in a program with threads.
    if (!failure) xml.init_parser();
}

const char *ec_xml_load(void) {
    pthread_once(&once, load);
    return failure;
}

ec_xml_reader *ec_xml_reader_for_memory(const char *buffer, int size, const char *encoding, int options) {
    return xml.reader_for_memory(buffer, size, NULL, encoding, options);
}
void ec_xml_free_reader(ec_xml_reader *reader) { xml.free_reader(reader); }
void ec_xml_set_error_handler(ec_xml_reader *reader, ec_xml_error_handler handler, void *context) {
    xml.set_error_handler(reader, handler, context);
}
int ec_xml_read(ec_xml_reader *reader) { return xml.read(reader); }
int ec_xml_node_type(ec_xml_reader *reader) { return xml.node_type(reader); }
int ec_xml_is_empty_element(ec_xml_reader *reader) { return xml.is_empty_element(reader); }
const unsigned char *ec_xml_local_name(ec_xml_reader *reader) { return xml.local_name(reader); }
const unsigned char *ec_xml_value(ec_xml_reader *reader) { return xml.value(reader); }
int ec_xml_move_to_first_attribute(ec_xml_reader *reader) { return xml.move_to_first_attribute(reader); }
int ec_xml_move_to_next_attribute(ec_xml_reader *reader) { return xml.move_to_next_attribute(reader); }
int ec_xml_move_to_element(ec_xml_reader *reader) { return xml.move_to_element(reader); }
int ec_xml_locator_line(ec_xml_locator locator) { return xml.locator_line(locator); }

static void ignore(void *context, const char *message, ...) {
    (void)context;
    (void)message;
}
void ec_xml_silence(void) { xml.set_generic_error_func(NULL, ignore); }
