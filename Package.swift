// swift-tools-version:6.0
import PackageDescription

let package = Package(
    name: "energyclock",
    platforms: [.macOS(.v15)],
    products: [
        .executable(name: "energyclock", targets: ["energyclock"]),
        .executable(name: "energyclock-render", targets: ["energyclock-render"]),
        .executable(name: "energyclock-fetch", targets: ["energyclock-fetch"]),
        .library(name: "EnergyClockDomain", targets: ["EnergyClockDomain"]),
        .library(name: "EnergyClockSupport", targets: ["EnergyClockSupport"]),
        .library(name: "EnergyClockSources", targets: ["EnergyClockSources"]),
        .library(name: "EnergyClockStore", targets: ["EnergyClockStore"]),
        .library(name: "EnergyClockRuntime", targets: ["EnergyClockRuntime"]),
        .library(name: "MQTTClient", targets: ["MQTTClient"]),
        .library(name: "EnergyClockFace", targets: ["EnergyClockFace"]),
        .library(name: "EnergyClockPublisher", targets: ["EnergyClockPublisher"]),
    ],
    targets: [
        // C libraries from Debian.
        .systemLibrary(
            name: "CMosquitto",
            pkgConfig: "libmosquitto",
            providers: [.apt(["libmosquitto-dev"])]
        ),
        .systemLibrary(
            name: "CCurl",
            pkgConfig: "libcurl",
            providers: [.apt(["libcurl4-openssl-dev"])]
        ),
        .systemLibrary(
            name: "CCairo",
            pkgConfig: "cairo",
            providers: [.apt(["libcairo2-dev"])]
        ),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),

        // libxml2's streaming reader, loaded on the first XML document instead of linked.
        .target(name: "CXML2"),

        // glibc's malloc.h: the heap's statistics and its trim.
        .systemLibrary(name: "CMalloc"),

        // The daemon's executor: one thread, woken by work and by its own timers.
        .target(name: "CEventLoop"),

        // Named threads for blocking C calls, the event loop, sleeps and memory housekeeping,
        // without Foundation.
        .target(name: "Platform", dependencies: ["CMalloc", "CEventLoop"]),

        // MQTT: libmosquitto behind async/await.
        .target(name: "MQTTClient", dependencies: ["CMosquitto", "Platform"]),

        // The domain: prices, bands, settings and their descriptors, tariffs, plans, profiles, time
        // as values, and JSON, the language settings are written in. Links no C module and does no
        // I/O (DomainBoundaryTests hold it to that).
        .target(name: "EnergyClockDomain"),

        // Adapters, each over the domain. Support: XML through libxml2, the system's time-zone
        // database, the wall clock, standard error and the log.
        .target(name: "EnergyClockSupport", dependencies: ["EnergyClockDomain", "CXML2", "Platform"]),
        // The price sources with their parsers, HTTP through the fetch helper, exchange rates.
        .target(name: "EnergyClockSources", dependencies: ["EnergyClockDomain", "EnergyClockSupport", "Platform"]),
        // The store: prices, rates, settings, plans and health in SQLite.
        .target(name: "EnergyClockStore", dependencies: ["EnergyClockDomain", "EnergyClockSupport", "CSQLite", "Platform"]),
        // The runtime: the manager that fetches, stores, follows the clock and hands each change to
        // its output. Knows nothing of MQTT.
        .target(
            name: "EnergyClockRuntime",
            dependencies: ["EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "Platform"]),

        // One HTTP transfer through libcurl, in a process of its own, so that the daemon never maps
        // libcurl and the libraries it brings. C; the images compile it with clang alone
        // (scripts/build-release.sh), as SwiftPM links every program with the Swift runtime.
        .executableTarget(name: "energyclock-fetch", dependencies: ["CCurl"]),

        // The 24-hour clock as a value and as terminal text.
        .target(name: "EnergyClockFace", dependencies: ["EnergyClockDomain", "EnergyClockSupport", "Platform"]),

        // The clock as SVG and PNG through cairo, and the helper that draws it for the daemon, so
        // the daemon itself never loads cairo.
        .target(name: "EnergyClockRender", dependencies: ["EnergyClockFace", "CCairo"]),
        .executableTarget(name: "energyclock-render", dependencies: ["EnergyClockRender", "Platform"]),

        // Topic tree, payloads and the service that ties the manager to the broker.
        .target(
            name: "EnergyClockPublisher",
            dependencies: [
                "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "EnergyClockRuntime",
                "EnergyClockFace",
                "MQTTClient", "Platform",
            ]),

        // The command line.
        .executableTarget(
            name: "energyclock",
            dependencies: [
                "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "EnergyClockRuntime",
                "EnergyClockFace",
                "EnergyClockPublisher", "MQTTClient", "Platform",
            ]),

        // What the tests share: the test clock, recorded answers, a memory source, a recording
        // output and a recording message sink.
        .target(
            name: "EnergyClockTesting",
            dependencies: [
                "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockRuntime", "EnergyClockPublisher", "Platform",
            ],
            resources: [.copy("Fixtures")]),

        // The domain alone: pure units, no I/O.
        .testTarget(name: "EnergyClockDomainTests", dependencies: ["EnergyClockDomain", "EnergyClockTesting"]),
        // The adapters and the runtime: sources against loopback servers, the store, the manager on a
        // test clock.
        .testTarget(
            name: "EnergyClockRuntimeTests",
            dependencies: [
                "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "EnergyClockRuntime",
                "EnergyClockTesting", "CSQLite", "Platform",
            ]),
        // The platform layer on its own: the event loop, waits, children, files, memory.
        .testTarget(name: "PlatformTests", dependencies: ["Platform"]),
        // The MQTT client's lifecycle and reconnection as values, on a manual clock: no broker.
        .testTarget(name: "MQTTClientTests", dependencies: ["MQTTClient"]),
        // The publisher's rules, fed events and read as actions or recorded messages: no broker.
        .testTarget(
            name: "EnergyClockPublisherTests",
            dependencies: [
                "EnergyClockPublisher", "EnergyClockDomain", "EnergyClockStore", "EnergyClockFace", "EnergyClockTesting", "MQTTClient",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "EnergyClockRenderTests",
            dependencies: [
                "EnergyClockFace", "EnergyClockRender", "EnergyClockPublisher", "EnergyClockTesting", "CCairo", "energyclock-render",
            ],
            exclude: ["Golden"]),
        .testTarget(
            name: "IntegrationTests",
            dependencies: [
                "EnergyClockDomain", "EnergyClockSupport", "EnergyClockSources", "EnergyClockStore", "EnergyClockRuntime",
                "EnergyClockPublisher", "EnergyClockFace", "EnergyClockTesting", "MQTTClient", "CSQLite",
                "energyclock", "energyclock-render",
            ]
        ),
    ],
    swiftLanguageModes: [.v6]
)

// Strict settings for every Swift target. Warnings fail the build in scripts/test.sh
// (`-Xswiftc -warnings-as-errors`), not here: unsafe flags would keep the libraries from being
// used as dependencies.
for target in package.targets where target.type != .system {
    target.swiftSettings =
        (target.swiftSettings ?? []) + [
            .enableUpcomingFeature("ExistentialAny"),
            .enableUpcomingFeature("MemberImportVisibility"),
        ]
}
