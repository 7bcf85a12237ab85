// swift-tools-version:6.0
import PackageDescription

// Benchmarks of energyclock, kept out of the main package so they never slow its tests.
let package = Package(
    name: "energyclock-bench",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "energyclock", path: "..")],
    targets: [
        .executableTarget(
            name: "energyclock-bench",
            dependencies: [
                .product(name: "EnergyClockDomain", package: "energyclock"),
                .product(name: "EnergyClockSources", package: "energyclock"),
                .product(name: "EnergyClockStore", package: "energyclock"),
                .product(name: "EnergyClockRuntime", package: "energyclock"),
                .product(name: "MQTTClient", package: "energyclock"),
            ],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        ),
        // The least a daemon must do for a settings round trip: the yardstick of `bench/run.sh`.
        .executableTarget(
            name: "energyclock-reference",
            linkerSettings: [.linkedLibrary("mosquitto"), .linkedLibrary("sqlite3")]
        ),
    ],
    swiftLanguageModes: [.v6]
)
