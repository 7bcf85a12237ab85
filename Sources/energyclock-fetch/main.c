// energyclock-fetch: one HTTP transfer through libcurl for the daemon, in a process of its own.
//
// The daemon never maps libcurl: with its TLS stacks (OpenSSL and, through librtmp, GnuTLS,
// nettle and p11-kit), Kerberos, LDAP, libssh2 and nghttp2 it held some 4 MB resident for a few
// transfers an hour. This helper holds them for the length of one transfer instead, and a fault
// in any of them ends this process, not the daemon.
//
// The request comes on standard input, never in the arguments, since a URL's query may hold a
// token and the arguments of a process are visible to every user of the machine:
//
//   GET <url>\n          or  POST <url>\n
//   timeout-ms <1..3600000>\n
//   max-body <0..1073741824>\n
//   header <Name: value>\n          (any number, in order)
//   \n
//   <the body to POST: every byte up to the end of the input>
//
// The reply goes to standard output, with exit status 0:
//
//   ok <status>\n<content type as received, maybe empty>\n<body>
//   error <timeout|too-large|transport> <what happened>\n
//
// A request it cannot read ends it with status 2 and a message on standard error. It is started
// by the daemon with a clean signal state and a time limit of its own (see `Subprocess`).
#define _GNU_SOURCE
#include <curl/curl.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

enum {
    max_request = 64 << 20,  // the head and the body of a POST (InfluxDB batches)
    max_headers = 64,
    max_line = 16 << 10,
};

typedef struct {
    char *data;
    size_t count, capacity, limit;
    int too_large;
} buffer;

static void fail_request(const char *what) {
    fprintf(stderr, "energyclock-fetch: %s\n", what);
    exit(2);
}

static int grow(buffer *b, size_t extra) {
    if (b->count + extra <= b->capacity) return 1;
    size_t capacity = b->capacity ? b->capacity : 64 << 10;
    while (capacity < b->count + extra) capacity *= 2;
    char *data = realloc(b->data, capacity);
    if (!data) return 0;
    b->data = data;
    b->capacity = capacity;
    return 1;
}

// All of standard input, at most max_request bytes.
static buffer read_request(void) {
    buffer input = {0};
    for (;;) {
        if (!grow(&input, 64 << 10)) fail_request("out of memory reading the request");
        ssize_t count = read(0, input.data + input.count, input.capacity - input.count);
        if (count < 0 && errno == EINTR) continue;
        if (count < 0) fail_request("cannot read the request");
        if (count == 0) return input;
        input.count += (size_t)count;
        if (input.count > max_request) fail_request("request too large");
    }
}

// The next line of the head, NUL-terminated in place, or NULL at the end of the input. A line
// holding a NUL or a carriage return, or longer than max_line, is refused.
static char *next_line(buffer *input, size_t *at) {
    if (*at >= input->count) return NULL;
    char *start = input->data + *at;
    char *end = memchr(start, '\n', input->count - *at);
    if (!end) fail_request("a line without its end");
    size_t length = (size_t)(end - start);
    if (length > max_line) fail_request("a line too long");
    if (memchr(start, '\0', length) || memchr(start, '\r', length)) fail_request("a control character in the head");
    *end = '\0';
    *at += length + 1;
    return start;
}

// A decimal number in [low, high] that is the whole of `text`, or exits.
static long number(const char *text, long low, long high, const char *what) {
    if (*text < '0' || *text > '9' || strlen(text) > 10) fail_request(what);
    char *end = NULL;
    long value = strtol(text, &end, 10);
    if (*end != '\0' || value < low || value > high) fail_request(what);
    return value;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
    buffer *body = user;
    size_t length = size * count;
    if (body->count + length > body->limit || !grow(body, length)) {
        body->too_large = body->count + length > body->limit;
        return 0;  // ends the transfer
    }
    memcpy(body->data + body->count, data, length);
    body->count += length;
    return length;
}

static int write_all(const char *data, size_t count) {
    while (count > 0) {
        ssize_t written = write(1, data, count);
        if (written < 0 && errno == EINTR) continue;
        if (written <= 0) return 0;
        data += written;
        count -= (size_t)written;
    }
    return 1;
}

enum { max_redirects = 3 };

// Whether `a` and `b` have the same scheme, host and port (a default port counted as given).
static int same_origin(const char *a, const char *b) {
    CURLU *left = curl_url(), *right = curl_url();
    int same = 0;
    if (left && right && curl_url_set(left, CURLUPART_URL, a, 0) == CURLUE_OK &&
        curl_url_set(right, CURLUPART_URL, b, 0) == CURLUE_OK) {
        same = 1;
        const CURLUPart parts[] = {CURLUPART_SCHEME, CURLUPART_HOST, CURLUPART_PORT};
        for (size_t i = 0; i < sizeof parts / sizeof parts[0] && same; i++) {
            char *x = NULL, *y = NULL;
            unsigned int flags = parts[i] == CURLUPART_PORT ? CURLU_DEFAULT_PORT : 0;
            same = curl_url_get(left, parts[i], &x, flags) == CURLUE_OK && curl_url_get(right, parts[i], &y, flags) == CURLUE_OK &&
                   strcasecmp(x, y) == 0;
            curl_free(x);
            curl_free(y);
        }
    }
    curl_url_cleanup(left);
    curl_url_cleanup(right);
    return same;
}

static int reply_error(const char *kind, const char *what) {
    char line[512];
    int length = snprintf(line, sizeof line, "error %s %s\n", kind, what);
    if (length < 0) return 1;
    return write_all(line, (size_t)length < sizeof line ? (size_t)length : sizeof line - 1) ? 0 : 1;
}

int main(void) {
    buffer input = read_request();
    size_t at = 0;
    char *first = next_line(&input, &at);
    if (!first) fail_request("no request");
    int post = strncmp(first, "POST ", 5) == 0;
    if (!post && strncmp(first, "GET ", 4) != 0) fail_request("the first line is not GET or POST and a URL");
    const char *url = first + (post ? 5 : 4);

    char *line = next_line(&input, &at);
    if (!line || strncmp(line, "timeout-ms ", 11) != 0) fail_request("no timeout-ms line");
    long timeout = number(line + 11, 1, 3600000, "timeout-ms out of range");
    line = next_line(&input, &at);
    if (!line || strncmp(line, "max-body ", 9) != 0) fail_request("no max-body line");
    long max_body = number(line + 9, 0, 1L << 30, "max-body out of range");

    struct curl_slist *headers = NULL;
    int header_count = 0;
    for (;;) {
        line = next_line(&input, &at);
        if (!line) fail_request("a head without its blank line");
        if (*line == '\0') break;
        if (strncmp(line, "header ", 7) != 0) fail_request("an unknown line in the head");
        if (++header_count > max_headers) fail_request("too many headers");
        struct curl_slist *more = curl_slist_append(headers, line + 7);
        if (!more) fail_request("out of memory for a header");
        headers = more;
    }
    if (!post && at != input.count) fail_request("a body for a GET");

    if (curl_global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) return reply_error("transport", "libcurl did not start");
    CURL *curl = curl_easy_init();
    if (!curl) return reply_error("transport", "could not start a transfer");
    buffer body = {.limit = (size_t)max_body};
    curl_easy_setopt(curl, CURLOPT_URL, url);
    curl_easy_setopt(curl, CURLOPT_PROTOCOLS_STR, "http,https");
    curl_easy_setopt(curl, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
    // Redirects are followed here, not by libcurl, which would follow one to any host: a source
    // may move within its own scheme, host and port, never away from them.
    curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 0L);
    curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
    curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, timeout);
    curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, timeout < 10000 ? timeout : 10000L);
    curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
    curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
    curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
    curl_easy_setopt(curl, CURLOPT_WRITEDATA, &body);
    if (post) {
        curl_easy_setopt(curl, CURLOPT_POST, 1L);
        curl_easy_setopt(curl, CURLOPT_POSTFIELDSIZE_LARGE, (curl_off_t)(input.count - at));
        curl_easy_setopt(curl, CURLOPT_POSTFIELDS, input.count > at ? input.data + at : "");
    }

    CURLcode code;
    char *moved = NULL;
    for (int redirects = 0;; redirects++) {
        code = curl_easy_perform(curl);
        if (code != CURLE_OK) break;
        long status = 0;
        const char *location = NULL;
        curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
        curl_easy_getinfo(curl, CURLINFO_REDIRECT_URL, &location);
        if (status < 300 || status > 399 || location == NULL) break;
        // Named, never quoted: a URL's query may hold a token.
        if (post) return reply_error("transport", "the server redirected a POST; it is not followed");
        if (redirects == max_redirects) return reply_error("transport", "more than 3 redirects");
        if (!same_origin(url, location)) return reply_error("transport", "the server redirected to another host, port or scheme; it is not followed");
        char *next = strdup(location);
        if (!next) return reply_error("transport", "out of memory for a redirect");
        free(moved);
        moved = next;
        body.count = 0;
        body.too_large = 0;
        curl_easy_setopt(curl, CURLOPT_URL, moved);
    }
    switch (code) {
    case CURLE_OK: break;
    case CURLE_WRITE_ERROR:
        if (body.too_large) return reply_error("too-large", "the body is larger than max-body");
        return reply_error("transport", "out of memory for the body");
    case CURLE_FILESIZE_EXCEEDED: return reply_error("too-large", "the body is larger than max-body");
    case CURLE_OPERATION_TIMEDOUT: return reply_error("timeout", "no answer in time");
    case CURLE_COULDNT_CONNECT: return reply_error("transport", "connection refused");
    case CURLE_COULDNT_RESOLVE_HOST: return reply_error("transport", "host not found");
    default: return reply_error("transport", curl_easy_strerror(code));
    }

    long status = 0;
    curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &status);
    const char *type = NULL;
    curl_easy_getinfo(curl, CURLINFO_CONTENT_TYPE, &type);
    // The content type on one line of at most 256 bytes: a header is no place for a line break.
    char head[320];
    int length = snprintf(head, sizeof head, "ok %ld\n%.256s", status, type ? type : "");
    if (length < 0 || (size_t)length + 1 >= sizeof head) return reply_error("transport", "a status line that does not fit");
    for (char *c = strchr(head, '\n') + 1; *c; c++)
        if ((unsigned char)*c < 0x20 || *c == 0x7F) *c = ' ';
    head[length++] = '\n';
    if (!write_all(head, (size_t)length) || !write_all(body.data ? body.data : "", body.count)) return 1;
    return 0;
}
