#define _GNU_SOURCE
#include "event_loop.h"
#include "event_loop_private.h"

#include <pthread.h>
#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

// Losing a job would leave a task suspended for ever: without memory the process cannot go on.
static void *grow(void *buffer, size_t count, size_t size) {
    void *grown = realloc(buffer, count * size);
    if (grown == NULL) {
        fputs("energyclock: out of memory in the event loop\n", stderr);
        abort();
    }
    return grown;
}

uint64_t ecl_now(void) {
    struct timespec now;
    clock_gettime(CLOCK_MONOTONIC, &now);
    return (uint64_t)now.tv_sec * 1000000000u + (uint64_t)now.tv_nsec;
}

ecl_loop *ecl_loop_create(void) {
    ecl_loop *loop = calloc(1, sizeof *loop);
    if (loop == NULL) return NULL;
    pthread_condattr_t attributes;
    pthread_condattr_init(&attributes);
    int clock_set = pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
    int made = clock_set == 0 ? pthread_cond_init(&loop->wake, &attributes) : clock_set;
    pthread_condattr_destroy(&attributes);
    if (made != 0 || pthread_mutex_init(&loop->lock, NULL) != 0) {
        free(loop);
        return NULL;
    }
    return loop;
}

// Called with the lock held.
static void push_ready(ecl_loop *loop, item work) {
    if (loop->ready_count == loop->ready_capacity) {
        size_t capacity = loop->ready_capacity ? loop->ready_capacity * 2 : 64;
        item *ready = grow(NULL, capacity, sizeof *ready);
        for (size_t i = 0; i < loop->ready_count; i++)
            ready[i] = loop->ready[(loop->ready_head + i) % loop->ready_capacity];
        free(loop->ready);
        loop->ready = ready;
        loop->ready_head = 0;
        loop->ready_capacity = capacity;
    }
    loop->ready[(loop->ready_head + loop->ready_count) % loop->ready_capacity] = work;
    loop->ready_count++;
}

// Called with the lock held; the wait is cut short only when the loop is waiting, and not while a
// helper runs the work: the helper settles what the loop thread must know when it is done.
void ecl__wake_if_waiting(ecl_loop *loop) {
    if (loop->waiting && !loop->helping) pthread_cond_signal(&loop->wake);
}

void ecl_loop_post(ecl_loop *loop, ecl_callback callback, void *context) {
    pthread_mutex_lock(&loop->lock);
    push_ready(loop, (item){callback, context});
    if (ecl__helps(loop) && loop->waiting && !loop->helping) {
        // The helper runs it itself in its next ecl_loop_help, without waking the loop thread.
        loop->owed = true;
    } else {
        ecl__wake_if_waiting(loop);
    }
    pthread_mutex_unlock(&loop->lock);
}

static bool earlier(const timer *a, const timer *b) {
    return a->deadline < b->deadline || (a->deadline == b->deadline && a->id < b->id);
}

static void sift_up(timer *heap, size_t i) {
    while (i > 0) {
        size_t parent = (i - 1) / 2;
        if (!earlier(&heap[i], &heap[parent])) break;
        timer swap = heap[i];
        heap[i] = heap[parent];
        heap[parent] = swap;
        i = parent;
    }
}

static void sift_down(timer *heap, size_t count, size_t i) {
    for (;;) {
        size_t least = i, left = 2 * i + 1, right = left + 1;
        if (left < count && earlier(&heap[left], &heap[least])) least = left;
        if (right < count && earlier(&heap[right], &heap[least])) least = right;
        if (least == i) return;
        timer swap = heap[i];
        heap[i] = heap[least];
        heap[least] = swap;
        i = least;
    }
}

// Removes heap entry `i`; called with the lock held.
static timer remove_timer(ecl_loop *loop, size_t i) {
    timer removed = loop->timers[i];
    loop->timer_count--;
    if (i < loop->timer_count) {
        loop->timers[i] = loop->timers[loop->timer_count];
        sift_up(loop->timers, i);
        sift_down(loop->timers, loop->timer_count, i);
    }
    return removed;
}

uint64_t ecl_loop_add_timer(ecl_loop *loop, uint64_t deadline, ecl_callback callback, void *context) {
    pthread_mutex_lock(&loop->lock);
    if (loop->timer_count == loop->timer_capacity) {
        loop->timer_capacity = loop->timer_capacity ? loop->timer_capacity * 2 : 16;
        loop->timers = grow(loop->timers, loop->timer_capacity, sizeof *loop->timers);
    }
    uint64_t id = ++loop->next_id;
    loop->timers[loop->timer_count] = (timer){deadline, id, {callback, context}};
    sift_up(loop->timers, loop->timer_count++);
    // Only a new earliest deadline shortens the wait.
    if (loop->timers[0].id == id) ecl__wake_if_waiting(loop);
    pthread_mutex_unlock(&loop->lock);
    return id;
}

bool ecl_loop_cancel_timer(ecl_loop *loop, uint64_t id) {
    bool removed = false;
    pthread_mutex_lock(&loop->lock);
    for (size_t i = 0; i < loop->timer_count; i++) {
        if (loop->timers[i].id == id) {
            remove_timer(loop, i);
            removed = true;
            break;
        }
    }
    pthread_mutex_unlock(&loop->lock);
    return removed;
}

void ecl_loop_stop(ecl_loop *loop) {
    pthread_mutex_lock(&loop->lock);
    loop->stopping = true;
    if (loop->waiting) pthread_cond_signal(&loop->wake);
    pthread_mutex_unlock(&loop->lock);
}

uint64_t ecl_loop_wakeups(ecl_loop *loop) { return atomic_load_explicit(&loop->wakeups, memory_order_relaxed); }

// What the calling thread does now (ecl_activity_begin), and the first name the work it runs
// now gave.
static _Thread_local const char *activity;
static _Thread_local ecl_loop *watched;

void ecl_loop_set_watch(ecl_loop *loop, uint64_t limit, ecl_held_callback held, void *context) {
    loop->hold_limit = limit;
    loop->held = held;
    loop->held_context = context;
}

const char *ecl_activity_begin(const char *label) {
    const char *previous = activity;
    activity = label;
    if (watched != NULL) {
        const char *none = NULL;
        atomic_compare_exchange_strong_explicit(&watched->busy_label, &none, label, memory_order_relaxed, memory_order_relaxed);
    }
    return previous;
}

void ecl_activity_end(const char *previous) { activity = previous; }

bool ecl_loop_busy(ecl_loop *loop, uint64_t *nanoseconds, const char **label) {
    uint64_t since = atomic_load_explicit(&loop->busy_since, memory_order_acquire);
    if (since == 0) return false;
    uint64_t now = ecl_now();
    *nanoseconds = now > since ? now - since : 0;
    *label = atomic_load_explicit(&loop->busy_label, memory_order_relaxed);
    return true;
}

void ecl__run(ecl_loop *loop, item work) {
    if (loop->hold_limit == 0) {
        work.callback(work.context);
        return;
    }
    uint64_t start = ecl_now();
    atomic_store_explicit(&loop->busy_label, NULL, memory_order_relaxed);
    atomic_store_explicit(&loop->busy_since, start, memory_order_release);
    watched = loop;
    work.callback(work.context);
    watched = NULL;
    uint64_t took = ecl_now() - start;
    atomic_store_explicit(&loop->busy_since, 0, memory_order_release);
    if (took > loop->hold_limit && loop->held != NULL)
        loop->held(loop->held_context, took, atomic_load_explicit(&loop->busy_label, memory_order_relaxed));
}

void ecl_loop_set_rest(ecl_loop *loop, uint64_t after, ecl_callback callback, void *context) {
    pthread_mutex_lock(&loop->lock);
    loop->rest = (item){callback, context};
    loop->rest_after = after;
    pthread_mutex_unlock(&loop->lock);
}

// Called with the lock held and nothing ready: the loop has worked since it last rested, and its
// next timer (if any) is at least `rest_after` away.
bool ecl__rest_is_due(const ecl_loop *loop) {
    if (loop->rest.callback == NULL || !loop->worked) return false;
    if (loop->timer_count == 0) return true;
    uint64_t now = ecl_now();
    return loop->timers[0].deadline > now && loop->timers[0].deadline - now >= loop->rest_after;
}

// Takes the oldest ready work; called with the lock held and work ready.
item ecl__pop_ready(ecl_loop *loop) {
    item work = loop->ready[loop->ready_head];
    loop->ready_head = (loop->ready_head + 1) % loop->ready_capacity;
    loop->ready_count--;
    loop->worked = true;
    return work;
}

// How long before a timer the loop thread wakes and spins up to it. A sleeping virtual CPU is
// woken late by its host: a wait that ends at the timer itself ends 0.17-0.20 ms after it at the
// median here, 0.37 ms at the 99th percentile, and a slot boundary's prices were that late. A
// spin of at most this long per timer costs nothing that shows: the daemon's timers are a few
// a minute at rest, and one per slot otherwise.
static const uint64_t spin_lead = 300000;

// Waits for the earliest timer, at most spin_lead away, without sleeping; returns when it is due,
// or work, a stop or a helper comes first. Called with the lock held; the loop is not waiting,
// so work posted meanwhile is found here without a wake-up.
static void spin_until_due(ecl_loop *loop) {
    while (loop->ready_count == 0 && loop->timer_count > 0 && !loop->stopping && !loop->helping &&
           loop->timers[0].deadline > ecl_now()) {
        pthread_mutex_unlock(&loop->lock);
#if defined(__x86_64__) || defined(__i386__)
        __builtin_ia32_pause();
#elif defined(__aarch64__)
        __asm__ volatile("yield");
#endif
        pthread_mutex_lock(&loop->lock);
    }
}

void ecl_loop_run(ecl_loop *loop) {
    pthread_mutex_lock(&loop->lock);
    loop->stopping = false;
    for (;;) {
        if (loop->helping) {
            // A helper runs the work; it signals when it is done. The loop returns only once the
            // helper is out of the work, so that nothing runs after ecl_loop_run returned.
            loop->parked = true;
            loop->waiting = true;
            loop->sleeping_until = UINT64_MAX;
            pthread_cond_wait(&loop->wake, &loop->lock);
            loop->waiting = false;
            loop->parked = false;
            continue;
        }
        if (loop->stopping) break;
        // Due timers join the ready work in deadline order, behind what is already there.
        if (loop->timer_count > 0) {
            uint64_t now = ecl_now();
            while (loop->timer_count > 0 && loop->timers[0].deadline <= now) push_ready(loop, remove_timer(loop, 0).work);
        }
        if (loop->ready_count == 0 && ecl__rest_is_due(loop)) {
            // Runs without the lock, like any work; what it posts or what fell due meanwhile is
            // looked at before the wait.
            loop->worked = false;
            item rest = loop->rest;
            pthread_mutex_unlock(&loop->lock);
            ecl__run(loop, rest);
            pthread_mutex_lock(&loop->lock);
            continue;
        }
        if (loop->ready_count == 0 && loop->timer_count > 0 && loop->timers[0].deadline <= ecl_now() + spin_lead) {
            spin_until_due(loop);
            continue;
        }
        if (loop->ready_count == 0) {
            loop->waiting = true;
            if (loop->timer_count == 0) {
                loop->sleeping_until = UINT64_MAX;
                pthread_cond_wait(&loop->wake, &loop->lock);
            } else {
                // Woken a lead before the timer, the loop spins up to it (spin_until_due).
                uint64_t deadline = loop->timers[0].deadline - spin_lead;  // more than spin_lead from now
                loop->sleeping_until = deadline;
                struct timespec until = {(time_t)(deadline / 1000000000u), (long)(deadline % 1000000000u)};
                pthread_cond_timedwait(&loop->wake, &loop->lock, &until);
            }
            loop->waiting = false;
            // Awake, the loop thread runs what a helper owed it.
            loop->owed = false;
            atomic_fetch_add_explicit(&loop->wakeups, 1, memory_order_relaxed);
            continue;
        }
        item work = ecl__pop_ready(loop);
        pthread_mutex_unlock(&loop->lock);
        ecl__run(loop, work);
        pthread_mutex_lock(&loop->lock);
    }
    pthread_mutex_unlock(&loop->lock);
}
