// swift-tools-version:6.0
import PackageDescription

// Layers (arrows point down): mediajob → MediaJobCLI → MediaJobs → JobEngine → TaskContract.
// Stores plug into the engine through its `JobStore` protocol; C libraries come in through
// system-library targets named `C<Lib>` and reach Swift only through their bridge module.
let package = Package(
    name: "mediajob",
    products: [
        .executable(name: "mediajob", targets: ["mediajob"]),
        .library(name: "TaskContract", targets: ["TaskContract"]),
        .library(name: "JobEngine", targets: ["JobEngine"]),
        .library(name: "SQLiteJobStore", targets: ["SQLiteJobStore"]),
    ],
    targets: [
        .target(name: "TaskContract"),
        .target(name: "JobEngine", dependencies: ["TaskContract"]),
        .systemLibrary(
            name: "CSQLite",
            pkgConfig: "sqlite3",
            providers: [.apt(["libsqlite3-dev"])]
        ),
        .target(name: "SQLiteJobStore", dependencies: ["JobEngine", "CSQLite"]),
        .target(name: "MediaJobs", dependencies: ["JobEngine"]),
        .target(name: "MediaJobCLI", dependencies: ["MediaJobs", "SQLiteJobStore"]),
        .executableTarget(name: "mediajob", dependencies: ["MediaJobCLI"]),
        .target(name: "EngineTestKit", dependencies: ["JobEngine"]),

        .testTarget(name: "TaskContractTests", dependencies: ["TaskContract"]),
        .testTarget(name: "JobEngineTests", dependencies: ["JobEngine", "EngineTestKit"]),
        .testTarget(name: "SQLiteJobStoreTests", dependencies: ["SQLiteJobStore", "EngineTestKit"]),
        .testTarget(name: "EmbeddingExampleTests", dependencies: ["JobEngine", "SQLiteJobStore", "EngineTestKit"]),
        .testTarget(name: "MediaJobCLITests", dependencies: ["MediaJobCLI", "SQLiteJobStore", "EngineTestKit"]),
    ],
    swiftLanguageModes: [.v6]
)
