// A poll with a finer grain than milliseconds.
#define _GNU_SOURCE
#include "event_loop.h"

#include <poll.h>
#include <time.h>

int ecl_poll_for(struct pollfd *fds, unsigned long count, uint64_t nanoseconds) {
    struct timespec timeout = {(time_t)(nanoseconds / 1000000000u), (long)(nanoseconds % 1000000000u)};
    return ppoll(fds, (nfds_t)count, &timeout, NULL);
}
