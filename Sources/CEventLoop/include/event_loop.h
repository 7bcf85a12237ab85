// A single-threaded event loop that can serve as Swift concurrency's global executor.
//
// One thread runs the loop; any thread posts work to it or arms a timer on the monotonic clock.
// While there is nothing to do, the loop thread sleeps in one futex wait with the next timer as
// its timeout, so an idle process wakes only for its own timers. A helper thread may run the work
// it posts itself while the loop thread sleeps on; the work never runs on two threads at once.
#ifndef ENERGYCLOCK_EVENT_LOOP_H
#define ENERGYCLOCK_EVENT_LOOP_H

#include <stdbool.h>
#include <stdint.h>

typedef struct ecl_loop ecl_loop;

/// Work the loop runs on its thread: a posted callback, or a timer's.
typedef void (*ecl_callback)(void *context);

/// A new loop, not yet running; NULL when the system has no memory or no clock for it.
ecl_loop *ecl_loop_create(void);

/// Runs the loop on the calling thread until `ecl_loop_stop`; what is still queued then stays.
void ecl_loop_run(ecl_loop *loop);

/// Makes `ecl_loop_run` return once the work it is running now is done; from any thread.
void ecl_loop_stop(ecl_loop *loop);

/// Runs `callback(context)` on the loop thread soon, after what was posted before it.
void ecl_loop_post(ecl_loop *loop, ecl_callback callback, void *context);

/// Runs `callback(context)` on the loop thread at `deadline` (nanoseconds of `ecl_now`), or at
/// once when that has passed. Returns the timer's id, never 0.
uint64_t ecl_loop_add_timer(ecl_loop *loop, uint64_t deadline, ecl_callback callback, void *context);

/// Removes timer `id` before it fires. True when it was removed: its callback will never run.
/// False when it has fired, is firing or never existed.
bool ecl_loop_cancel_timer(ecl_loop *loop, uint64_t id);

/// Runs `callback(context)` whenever the loop, having run work since the last such call, is about
/// to sleep with no timer due within `after` nanoseconds: once per burst of work, when it is
/// over, and never while the loop only sleeps; on the loop thread, or on the helper that ran the
/// burst (`ecl_loop_help`). It costs no wake-up of its own.
/// NULL removes it.
void ecl_loop_set_rest(ecl_loop *loop, uint64_t after, ecl_callback callback, void *context);

/// Makes the calling thread, which must not be the loop's, a helper of `loop` (NULL: of none):
/// work it posts while the loop thread sleeps does not wake the loop thread; the helper runs it
/// itself in its next `ecl_loop_help`, which it must call before it blocks. `between(context)`
/// runs on the helper after each piece of work it runs and at each `ecl_yield` inside one.
///
/// The MQTT thread is the daemon's helper: a message it reads resumes a task, and running that
/// task there saves the wake-up of a sleeping loop thread on another core.
void ecl_loop_set_helper(ecl_loop *loop, ecl_callback between, void *context);

/// Runs, on the calling helper thread, the work it owes `loop` and what that work posts, while
/// the loop thread sleeps on; stops when none is left, a timer falls due or `budget`
/// nanoseconds are spent, and hands what is left to the loop thread. Runs the rest callback
/// when the burst is over. False when it owed nothing or the loop thread was awake to run it.
bool ecl_loop_help(ecl_loop *loop, uint64_t budget);

/// On a helper, gives the loop thread the work the helper owes it, instead of running it itself:
/// for a helper that has more of its own to do first.
void ecl_loop_hand_over(ecl_loop *loop);

/// Inside work a helper runs (`between` included): the help hands what is left to the loop thread
/// after the work it runs now.
void ecl_help_enough(void);

/// Inside work a helper runs, calls its `between`; elsewhere gives the core to another thread
/// (`sched_yield`): either way, what was queued for another thread to send can leave now.
void ecl_yield(void);

/// As ecl_yield, and a `between` it calls looks for input at once, however recently it looked
/// (`ecl_yield_looks`): for work that lets what the helper reads meanwhile go first.
void ecl_yield_looking(void);

/// Inside a `between` that ecl_yield_looking called: it is to look for input now.
bool ecl_yield_looks(void);

/// Called after a piece of work held the loop for longer than its hold limit: how long, in
/// nanoseconds, and the first activity it named (`ecl_activity_begin`), or NULL.
typedef void (*ecl_held_callback)(void *context, uint64_t nanoseconds, const char *activity);

/// Watches every piece of work the loop runs: one that runs longer than `limit` nanoseconds is
/// reported to `held(context, …)` once it is over, on the thread that ran it. Set it once, before
/// `ecl_loop_run`; `held` NULL watches without reporting (for `ecl_loop_busy`).
void ecl_loop_set_watch(ecl_loop *loop, uint64_t limit, ecl_held_callback held, void *context);

/// Names what the calling thread does from now on, for the watch; returns the name it replaces,
/// to hand back to `ecl_activity_end`. `label` must live for the life of the process (a static
/// string). The first name a piece of work gives is the one reported.
const char *ecl_activity_begin(const char *label);

/// Ends the activity `ecl_activity_begin` began, restoring `previous`.
void ecl_activity_end(const char *previous);

/// Whether a piece of work runs on `loop` now; if so, for how many nanoseconds it has, and the
/// first activity it named (or NULL). From any thread: the shutdown's guard asks it.
bool ecl_loop_busy(ecl_loop *loop, uint64_t *nanoseconds, const char **activity);

/// How many times the loop thread has woken from a wait since it was created.
uint64_t ecl_loop_wakeups(ecl_loop *loop);

/// Now on the monotonic clock, in nanoseconds.
uint64_t ecl_now(void);

struct pollfd;

/// `poll` for at most `nanoseconds` (`ppoll`): a wait that must end a fraction of a millisecond
/// before a deadline cannot be given in poll's whole milliseconds.
int ecl_poll_for(struct pollfd *fds, unsigned long count, uint64_t nanoseconds);

/// Makes `loop` Swift concurrency's global executor for the rest of the process: every job the
/// runtime enqueues globally (a task's start, a resumed continuation, an actor's turn, a job with
/// a delay) runs on the loop thread. False when a loop is already installed.
bool ecl_install_global(ecl_loop *loop);

/// The loop installed with `ecl_install_global`, or NULL.
ecl_loop *ecl_global(void);

#endif
