// swift-tools-version:6.0
import PackageDescription

// A program of its own that embeds the engine as any other package would: through the
// products it depends on by path, and nothing that `package` access keeps to the project.
let package = Package(
    name: "HashFolder",
    dependencies: [.package(name: "mediajob", path: "../../..")],
    targets: [
        .target(name: "FolderHashing", dependencies: [
            .product(name: "JobEngine", package: "mediajob"),
            .product(name: "TaskContract", package: "mediajob"),
        ]),
        .executableTarget(name: "hash-folder", dependencies: [
            "FolderHashing",
            .product(name: "JobEngine", package: "mediajob"),
            .product(name: "SQLiteJobStore", package: "mediajob"),
            .product(name: "TaskContract", package: "mediajob"),
        ]),
        .testTarget(name: "FolderHashingTests", dependencies: [
            "FolderHashing",
            .product(name: "EngineTestKit", package: "mediajob"),
            .product(name: "JobEngine", package: "mediajob"),
            .product(name: "TaskContract", package: "mediajob"),
        ]),
    ],
    swiftLanguageModes: [.v6]
)
