// swift-tools-version:6.0
import PackageDescription

// libFuzzer targets for every parser that reads outside input. Built by fuzz/run.sh with
// -sanitize=fuzzer,address; kept out of the main package so its tests never build them.
let package = Package(
    name: "energyclock-fuzz",
    platforms: [.macOS(.v15)],
    dependencies: [.package(name: "energyclock", path: "..")],
    targets: [
        .executableTarget(
            name: "energyclock-fuzz",
            dependencies: [
                .product(name: "EnergyClockDomain", package: "energyclock"),
                .product(name: "EnergyClockSources", package: "energyclock"),
                .product(name: "EnergyClockStore", package: "energyclock"),
                .product(name: "EnergyClockRuntime", package: "energyclock"),
                .product(name: "EnergyClockFace", package: "energyclock"),
                .product(name: "EnergyClockPublisher", package: "energyclock"),
            ]
        )
    ],
    swiftLanguageModes: [.v6]
)
