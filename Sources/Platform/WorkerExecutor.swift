import Synchronization

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A thread of its own that runs the jobs of tasks that prefer it (`withTaskExecutorPreference`):
/// work that can grow with what a server sends, kept off the event loop.
///
/// The daemon fetches and parses prices here: an answer of 86,400 one-second slots takes 50 ms to
/// parse, which on the loop would hold a slot boundary, the keepalive and every settings answer
/// for as long. The thread sleeps in one condition wait while it has nothing to do, so it costs no
/// wake-up at rest.
package final class WorkerExecutor: TaskExecutor, @unchecked Sendable {
    // The queue is guarded by `lock`; the thread waits on `ready` for it.
    private var queue: [UnownedJob] = []
    private var lock = pthread_mutex_t()
    private var ready = pthread_cond_t()
    private var started = false
    private let name: String

    /// An executor whose thread, called `name`, starts with its first job.
    package init(name: String) {
        self.name = name
        pthread_mutex_init(&lock, nil)
        pthread_cond_init(&ready, nil)
    }

    /// Queues `job` for the thread.
    package func enqueue(_ job: consuming ExecutorJob) {
        let job = UnownedJob(job)
        pthread_mutex_lock(&lock)
        queue.append(job)
        let start = !started
        started = true
        pthread_cond_signal(&ready)
        pthread_mutex_unlock(&lock)
        if start, !DetachedThread.start(name: name, { [self] in work() }) {
            // Without a thread of its own (the system has none to give), the jobs run where they
            // are queued, as the global executor would run them; the next job tries again.
            pthread_mutex_lock(&lock)
            let stranded = queue
            queue.removeAll()
            started = false
            pthread_mutex_unlock(&lock)
            for job in stranded { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }

    /// The thread: runs the jobs in order, and sleeps while there are none.
    private func work() {
        while true {
            pthread_mutex_lock(&lock)
            while queue.isEmpty { pthread_cond_wait(&ready, &lock) }
            let jobs = queue
            queue.removeAll(keepingCapacity: true)
            pthread_mutex_unlock(&lock)
            for job in jobs { job.runSynchronously(on: asUnownedTaskExecutor()) }
        }
    }
}
