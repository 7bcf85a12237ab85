import EnergyClockDomain
import EnergyClockPublisher
import EnergyClockRuntime
import EnergyClockStore
import EnergyClockSupport
import FoundationEssentials
import Glibc
import MQTTClient
import Platform
import Synchronization

/// The `energyclock` command line.
@main
enum EnergyClockCommand {
    /// Runs the command on the process's own event loop, not on libdispatch's thread pool (see
    /// `EventLoop`), on the main thread.
    static func main() {
        let arguments = Array(CommandLine.arguments.dropFirst())
        // The daemon takes its termination signals on a thread of its own: they are blocked
        // before any other thread exists, so that every thread inherits the mask.
        if arguments.first == "run" { SignalStream.block() }
        EventLoop.runProcess { await run(arguments) }
    }

    /// The command named by the first argument.
    static func run(_ arguments: [String]) async {
        var environment = ProcessInfo.processInfo.environment
        do {
            switch arguments.first {
            case nil, "--help", "-h", "help":
                print(Help.text)
            case "--version", "version":
                print("energyclock \(EnergyClockVersion.string)")
            case "run":
                environment = try await addOnEnvironment(arguments, environment)
                guard let options = try parsedOptions(arguments, specs: RunConfiguration.specs, environment: environment) else { return }
                exit(await Daemon.run(try RunConfiguration(options, environment: environment)))
            case "health":
                guard let options = try parsedOptions(arguments, specs: HealthConfiguration.specs, environment: environment) else { return }
                exit(HealthCommand.run(try HealthConfiguration(options, environment: environment)))
            case "prices":
                guard let options = try parsedOptions(arguments, specs: DayConfiguration.pricesSpecs, environment: environment) else {
                    return
                }
                exit(await PricesCommand.run(try DayConfiguration(options, environment: environment)))
            case "clock":
                guard let options = try parsedOptions(arguments, specs: DayConfiguration.clockSpecs, environment: environment) else {
                    return
                }
                exit(await ClockCommand.terminal(try DayConfiguration(options, environment: environment), environment: environment))
            case "render":
                guard let options = try parsedOptions(arguments, specs: DayConfiguration.renderSpecs, environment: environment) else {
                    return
                }
                exit(await ClockCommand.render(try DayConfiguration(options, environment: environment)))
            case let other?:
                throw UsageError("unknown command \"\(other)\"; use run, prices, clock, render, health, --help or --version")
            }
        } catch {
            StandardError.write("energyclock: \(error)\n")
            exit(2)
        }
    }
}

extension EnergyClockCommand {
    /// The environment with an options file (`--options-file` or `ENERGYCLOCK_OPTIONS_FILE`) and,
    /// inside a Home Assistant add-on, the Supervisor's MQTT broker added.
    static func addOnEnvironment(_ arguments: [String], _ environment: [String: String]) async throws -> [String: String] {
        guard !arguments.contains("--help") else { return environment }
        let options = try ParsedOptions(arguments: Array(arguments.dropFirst()), specs: RunConfiguration.specs, environment: environment)
        var merged = environment
        do {
            if let file = try options.value(DaemonOptions.optionsFile) { merged = try AddOnOptions.merge(file, into: merged) }
            // A broker given as a flag also counts as given.
            if options[BrokerOptions.host.spec.name] != nil { return merged }
            return try await AddOnOptions.supervisorBroker(into: merged)
        } catch let error as UsageError {
            throw error
        } catch {
            throw UsageError("\(error)")
        }
    }

    /// The options of a command, read from its arguments after the command's name and from the
    /// environment; nil when `--help` was asked for (and printed).
    static func parsedOptions(_ arguments: [String], specs: [OptionSpec], environment: [String: String]) throws -> ParsedOptions? {
        guard !arguments.contains("--help") else {
            print(arguments.first.map(Help.text(for:)) ?? Help.text)
            return nil
        }
        return try ParsedOptions(arguments: Array(arguments.dropFirst()), specs: specs, environment: environment)
    }
}

/// Exit statuses beyond 0 (done) and 2 (a bad command line).
enum ExitStatus {
    /// The daemon failed while running, or could not start for a reason other than its state.
    static let failure: Int32 = 1
    /// The state directory or the store cannot be used: missing permissions, a file in the way,
    /// a read-only store, or another daemon holding the directory.
    static let unusableState: Int32 = 3

    /// The status for a failure to start with `error`.
    static func forStart(_ error: any Error) -> Int32 {
        switch error {
        case is StoreError: unusableState
        case let error as ManagerError:
            if case .store = error { unusableState } else { failure }
        default: failure
        }
    }
}

/// `energyclock run`: the daemon.
enum Daemon {
    /// Seconds a shutdown may take before the process ends regardless: within five seconds of
    /// SIGTERM, as a service manager or a container runtime expects, whatever the loop is doing.
    static let shutdownLimit = 4.0

    /// Seconds any one piece of work may hold the event loop; the watch logs each that holds it longer.
    static let holdLimit = 0.010

    /// Runs until SIGTERM, SIGINT or SIGHUP; returns the exit status.
    static func run(_ config: RunConfiguration) async -> Int32 {
        // Once a burst of work is over and nothing is due for a second, the heap it left free
        // goes back to the system (not at the pauses of a publish, nor between one-second slots).
        EventLoop.global?.whenResting(after: 1) { Memory.trimWhenFreed() }
        let logger = config.common.logger("energyclock")
        // The watch over the loop: whatever holds it for longer than the bound is named in the
        // log, at most once a minute with a count of the others.
        let holds = Mutex(LogThrottle(interval: 60))
        EventLoop.global?.watch(limit: holdLimit) { seconds, activity in
            let admitted = holds.withLock { $0.admit("held") }
            guard admitted.allowed else { return }
            let others = admitted.suppressed > 0 ? "; \(admitted.suppressed) more since the last such line" : ""
            logger.warning(
                "the event loop was held for \(Int(seconds * 1000)) ms by \(activity ?? "unnamed work") (the bound is \(Int(holdLimit * 1000)) ms)\(others)"
            )
        }
        let signals = SignalStream.termination(guardedFor: shutdownLimit) { why in
            // On the signals thread: the event loop may be held, and is not waited for.
            logger.error("\(why); exiting now\(EventLoop.global.flatMap(\.busyReport).map { " (the event loop \($0))" } ?? "")")
        }
        let service: EnergyClockService
        let lock: StateLock
        do {
            let directory = try StateDirectory(path: config.common.stateDirectory.path)
            lock = try StateLock(directory)
            service = try EnergyClockService(config.serviceParts(directory: directory))
        } catch {
            logger.error("\(error)")
            return ExitStatus.forStart(error)
        }
        if config.mqtt.tls?.insecure == true {
            logger.warning(
                "--mqtt-tls-insecure: the broker's certificate is not checked against \(config.mqtt.host); anyone who can intercept the connection can pose as the broker"
            )
        }
        logger.info(
            "energyclock \(EnergyClockVersion.string) starting: broker \(config.mqtt.brokers.map(\.description).joined(separator: ", "))\(config.mqtt.tls == nil ? "" : " (TLS)") as \(config.mqtt.clientID), topics \(config.topics.prefix)/…, store \(config.common.stateDirectory.path), zone \(config.common.calendar.timeZone.identifier)"
        )

        let running = Task { try await service.run() }
        // Whatever a fetch, a parse, a helper or the loop itself is doing, the process ends: every
        // part stops within a second or two, and should one not, the signals thread ends it (see
        // SignalStream) and the broker's Last Will says `offline` once the connection drops with it.
        let stopper = Task {
            for await number in signals {
                logger.info("received signal \(number), shutting down")
                running.cancel()
                return
            }
        }
        var status: Int32 = 0
        if case let .failure(error) = await running.result {
            logger.error("\(error)")
            status = ExitStatus.failure
        }
        stopper.cancel()
        withExtendedLifetime(lock) {}
        return status
    }
}
