#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A named operating-system thread for work that blocks: a network loop, a transfer.
///
/// Foundation's `Thread` would pull all of Foundation into the process; a plain pthread is all
/// the daemon needs.
package enum DetachedThread {
    /// Runs `body` on a new detached thread called `name` (the first 15 bytes show in `top -H`).
    ///
    /// Returns false when the system has no thread to give; `body` is then not run.
    @discardableResult
    package static func start(name: String, _ body: @escaping @Sendable () -> Void) -> Bool {
        let work = Work(name: name, body: body)
        return work.spawn()
    }

    /// What the new thread runs, kept alive by the retain handed to it.
    fileprivate final class Work: Sendable {
        let name: String
        let body: @Sendable () -> Void

        init(name: String, body: @escaping @Sendable () -> Void) {
            self.name = name
            self.body = body
        }

        func spawn() -> Bool {
            let argument = Unmanaged.passRetained(self).toOpaque()
            var attributes = pthread_attr_t()
            pthread_attr_init(&attributes)
            defer { pthread_attr_destroy(&attributes) }
            pthread_attr_setdetachstate(&attributes, Int32(PTHREAD_CREATE_DETACHED))
            #if canImport(Glibc)
                var thread = pthread_t()
            #else
                var thread: pthread_t?
            #endif
            if pthread_create(&thread, &attributes, threadEntry, argument) == 0 { return true }
            Unmanaged<Work>.fromOpaque(argument).release()
            return false
        }

        func run() {
            nameCurrentThread(name)
            body()
        }
    }
}

#if canImport(Glibc)
    private func threadEntry(_ argument: UnsafeMutableRawPointer?) -> UnsafeMutableRawPointer? {
        Unmanaged<DetachedThread.Work>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
    }
#else
    private func threadEntry(_ argument: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer? {
        Unmanaged<DetachedThread.Work>.fromOpaque(argument).takeRetainedValue().run()
        return nil
    }
#endif

/// Glibc's module map leaves out `pthread_setname_np`; Linux takes the name through /proc too.
private func nameCurrentThread(_ name: String) {
    #if os(Linux)
        let fd = open("/proc/thread-self/comm", O_WRONLY)
        guard fd >= 0 else { return }
        let bytes = Array(name.utf8.prefix(15))
        _ = write(fd, bytes, bytes.count)
        close(fd)
    #else
        _ = pthread_setname_np(name)
    #endif
}
