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
                .product(name: "EnergyClockCore", package: "energyclock"),
                .product(name: "MQTTClient", package: "energyclock"),
            ],
            swiftSettings: [.unsafeFlags(["-warnings-as-errors"])]
        )
    ],
    swiftLanguageModes: [.v6]
)
