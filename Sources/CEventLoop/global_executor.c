// Swift concurrency's global executor on an event loop, through the runtime's enqueue hooks.
//
// The hooks are part of the Swift runtime's interface (swift/Runtime/Concurrency.h) and are
// called for every job enqueued on the global executor. A job runs with `swift_job_run` on the
// generic executor, as the default executor runs it.
#define _GNU_SOURCE
#include "event_loop.h"

#include <stdatomic.h>
#include <time.h>

#define SWIFT_CC __attribute__((swiftcall))

typedef struct swift_job swift_job;

// SerialExecutorRef: an identity and an implementation word; both zero is the generic executor.
typedef struct {
    const void *identity;
    uintptr_t implementation;
} executor_ref;

typedef SWIFT_CC void (*enqueue_original)(swift_job *job);
typedef SWIFT_CC void (*delay_original)(unsigned long long delay, swift_job *job);
typedef SWIFT_CC void (*deadline_original)(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                           swift_job *job);

extern SWIFT_CC void (*swift_task_enqueueGlobal_hook)(swift_job *job, enqueue_original original);
extern SWIFT_CC void (*swift_task_enqueueGlobalWithDelay_hook)(unsigned long long delay, swift_job *job,
                                                               delay_original original);
extern SWIFT_CC void (*swift_task_enqueueGlobalWithDeadline_hook)(long long sec, long long nsec, long long tsec,
                                                                  long long tnsec, int clock, swift_job *job,
                                                                  deadline_original original);
extern SWIFT_CC void swift_job_run(swift_job *job, executor_ref executor);

// The runtime's clock identifiers (swift_clock_id_continuous and swift_clock_id_suspending).
enum { clock_continuous = 1, clock_suspending = 2 };

static _Atomic(ecl_loop *) installed;

ecl_loop *ecl_global(void) { return atomic_load_explicit(&installed, memory_order_acquire); }

static void run_job(void *job) { swift_job_run(job, (executor_ref){0, 0}); }

static SWIFT_CC void enqueue(swift_job *job, enqueue_original original) {
    (void)original;
    ecl_loop_post(ecl_global(), run_job, job);
}

static SWIFT_CC void enqueue_with_delay(unsigned long long delay, swift_job *job, delay_original original) {
    (void)original;
    uint64_t now = ecl_now();
    uint64_t deadline = delay > UINT64_MAX - now ? UINT64_MAX : now + delay;
    ecl_loop_add_timer(ecl_global(), deadline, run_job, job);
}

// A deadline on the continuous clock (which counts suspended time) or the suspending one,
// turned into one on the loop's monotonic clock by the distance from now.
static SWIFT_CC void enqueue_with_deadline(long long sec, long long nsec, long long tsec, long long tnsec, int clock,
                                           swift_job *job, deadline_original original) {
    (void)tsec, (void)tnsec, (void)original;
    struct timespec now;
    clock_gettime(clock == clock_continuous ? CLOCK_BOOTTIME : CLOCK_MONOTONIC, &now);
    long double distance = ((long double)sec - (long double)now.tv_sec) * 1e9L + ((long double)nsec - now.tv_nsec);
    uint64_t start = ecl_now();
    uint64_t deadline;
    if (!(distance > 0)) {
        deadline = start;
    } else if (distance >= (long double)(UINT64_MAX - start)) {
        deadline = UINT64_MAX;
    } else {
        deadline = start + (uint64_t)distance;
    }
    ecl_loop_add_timer(ecl_global(), deadline, run_job, job);
}

bool ecl_install_global(ecl_loop *loop) {
    ecl_loop *none = NULL;
    if (!atomic_compare_exchange_strong(&installed, &none, loop)) return false;
    swift_task_enqueueGlobal_hook = enqueue;
    swift_task_enqueueGlobalWithDelay_hook = enqueue_with_delay;
    swift_task_enqueueGlobalWithDeadline_hook = enqueue_with_deadline;
    return true;
}
