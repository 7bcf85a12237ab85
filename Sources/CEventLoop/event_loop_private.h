// What the event loop's C files share: the loop's state and the calls made with its lock held.
// Not part of the module's interface.
#ifndef ENERGYCLOCK_EVENT_LOOP_PRIVATE_H
#define ENERGYCLOCK_EVENT_LOOP_PRIVATE_H

#include "event_loop.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stddef.h>

// One piece of work: a callback and its context.
typedef struct {
    ecl_callback callback;
    void *context;
} item;

// An armed timer; the heap orders by deadline, then by id (the order they were armed in).
typedef struct {
    uint64_t deadline;
    uint64_t id;
    item work;
} timer;

struct ecl_loop {
    pthread_mutex_t lock;
    pthread_cond_t wake;
    // Ready work, a ring buffer.
    item *ready;
    size_t ready_head, ready_count, ready_capacity;
    // Timers, a binary min-heap.
    timer *timers;
    size_t timer_count, timer_capacity;
    uint64_t next_id;
    bool stopping;
    // The loop thread is blocked in its wait; a post must signal it (see ecl__wake_if_waiting).
    bool waiting;
    // What that wait waits for: a deadline of ecl_now, or UINT64_MAX for none.
    uint64_t sleeping_until;
    // A helper thread runs the work (ecl_loop_help); the loop thread, if it wakes meanwhile,
    // parks until the helper is done.
    bool helping;
    bool parked;
    // A helper thread posted work while the loop thread waited, and did not signal it: it owes
    // the loop an ecl_loop_help.
    bool owed;
    _Atomic uint64_t wakeups;
    // Called before a long wait that follows some work (see ecl_loop_set_rest).
    item rest;
    uint64_t rest_after;
    bool worked;
    // The watch over the work (see ecl_loop_set_watch): when the work that runs now began
    // (0 while none runs) and the first activity it named, read from any thread.
    _Atomic uint64_t busy_since;
    _Atomic(const char *) busy_label;
    uint64_t hold_limit;
    ecl_held_callback held;
    void *held_context;
};

// Runs one piece of work under the watch: notes when it began and, after it, calls the held
// callback when it ran longer than the hold limit. On the loop thread or a helper.
void ecl__run(ecl_loop *loop, item work);

// Wakes the loop thread when it waits and no helper runs the work; with the lock held.
void ecl__wake_if_waiting(ecl_loop *loop);

// Takes the oldest ready work and notes that the loop worked; with the lock held and work ready.
item ecl__pop_ready(ecl_loop *loop);

// Whether the rest callback is due: the loop worked since it last rested, and no timer is due
// within its distance; with the lock held and nothing ready.
bool ecl__rest_is_due(const ecl_loop *loop);

// Whether the calling thread helps `loop` (event_loop_helper.c).
bool ecl__helps(const ecl_loop *loop);

#endif
