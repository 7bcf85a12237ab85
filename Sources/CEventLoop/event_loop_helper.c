// Helper threads: a thread that posts work while the loop thread sleeps may run that work itself
// (ecl_loop_help), so that the loop thread is not woken on another core for it.
#define _GNU_SOURCE
#include "event_loop.h"
#include "event_loop_private.h"

#include <sched.h>

// The helper thread that the calling thread is, if any (ecl_loop_set_helper).
static _Thread_local struct {
    ecl_loop *loop;
    item between;
    // Inside ecl_loop_help, running the loop's work.
    bool running;
    // Set by ecl_help_enough: the help hands the rest over after the work it runs now.
    bool enough;
    // Inside ecl_yield_looking.
    bool looking;
} helper;

bool ecl__helps(const ecl_loop *loop) { return helper.loop == loop; }

// Called with the lock held: the oldest timer is due.
static bool timer_due(const ecl_loop *loop) { return loop->timer_count > 0 && loop->timers[0].deadline <= ecl_now(); }

// Called with the lock held: a timer was armed that the loop thread's wait does not end for.
static bool timer_before_wait(const ecl_loop *loop) {
    return loop->timer_count > 0 && loop->timers[0].deadline < loop->sleeping_until;
}

void ecl_loop_hand_over(ecl_loop *loop) {
    pthread_mutex_lock(&loop->lock);
    if (loop->owed) {
        loop->owed = false;
        ecl__wake_if_waiting(loop);
    }
    pthread_mutex_unlock(&loop->lock);
}

void ecl_loop_set_helper(ecl_loop *loop, ecl_callback between, void *context) {
    ecl_loop *left = helper.loop;
    helper.loop = loop;
    helper.between = (item){between, context};
    // Whatever this thread still owed the loop it leaves goes to the loop thread.
    if (left != NULL && left != loop) ecl_loop_hand_over(left);
}

void ecl_help_enough(void) {
    if (helper.running) helper.enough = true;
}

bool ecl_loop_help(ecl_loop *loop, uint64_t budget) {
    pthread_mutex_lock(&loop->lock);
    bool owed = loop->owed;
    loop->owed = false;
    // Awake, the loop thread runs the work itself; another helper drains it.
    if (!owed || !loop->waiting || loop->helping) {
        pthread_mutex_unlock(&loop->lock);
        return false;
    }
    loop->helping = true;
    helper.enough = false;
    uint64_t start = ecl_now();
    // Timers are the loop thread's: one that falls due, a budget spent or a helper that has
    // enough else to do hands the rest over.
    while (loop->ready_count > 0 && !loop->stopping && !timer_due(loop) && !helper.enough && ecl_now() - start < budget) {
        item work = ecl__pop_ready(loop);
        pthread_mutex_unlock(&loop->lock);
        helper.running = true;
        ecl__run(loop, work);
        if (helper.between.callback != NULL) helper.between.callback(helper.between.context);
        helper.running = false;
        pthread_mutex_lock(&loop->lock);
    }
    loop->helping = false;
    if (!loop->parked && loop->ready_count == 0 && !loop->stopping && !timer_before_wait(loop) && ecl__rest_is_due(loop)) {
        // The burst is over here, not on the loop thread, which sleeps on.
        loop->worked = false;
        item rest = loop->rest;
        loop->helping = true;
        pthread_mutex_unlock(&loop->lock);
        ecl__run(loop, rest);
        pthread_mutex_lock(&loop->lock);
        loop->helping = false;
    }
    // The loop thread looks again when something is left for it, a timer it does not wait for
    // was armed, or it woke and parked meanwhile.
    if (loop->parked || loop->ready_count > 0 || loop->stopping || timer_before_wait(loop)) pthread_cond_signal(&loop->wake);
    pthread_mutex_unlock(&loop->lock);
    return true;
}

void ecl_yield(void) {
    if (helper.running && helper.between.callback != NULL) {
        helper.between.callback(helper.between.context);
    } else {
        sched_yield();
    }
}

void ecl_yield_looking(void) {
    helper.looking = true;
    ecl_yield();
    helper.looking = false;
}

bool ecl_yield_looks(void) { return helper.looking; }
