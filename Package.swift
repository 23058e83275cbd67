// swift-tools-version:6.0
import PackageDescription

// Layers (arrows point down): mediajob-media → MediaCommands → MediaJobCLI, MediaJobs → JobEngine → TaskContract;
// mediajob → MediaJobCLI, which links no media library and hands the media commands to mediajob-media.
// Stores plug into the engine through its `JobStore` protocol; C libraries come in through
// system-library targets named `C<Lib>` and reach Swift only through their bridge module.

/// Unit tests: in process, no binary spawned, no root, strace, tmpfs, lavapipe or PostgreSQL server; the
/// whole set runs in well under a minute once built. `Scripts/unit-test` runs them alone (the inner loop).
/// They may run a reference tool (the `vips`, `ffmpeg`, `ffprobe` command lines) to check a result.
let unitTests: [Target] = [
    .testTarget(name: "TaskContractTests", dependencies: ["TaskContract", "EngineTestKit"]),
    .testTarget(name: "JobEngineTests", dependencies: ["JobEngine", "EngineTestKit", "JobStoreConformance"]),
    .testTarget(name: "SQLiteJobStoreTests", dependencies: ["SQLiteJobStore", "EngineTestKit", "JobStoreConformance"]),
    .testTarget(name: "VipsTests", dependencies: ["Vips", "EngineTestKit", "MediaTestKit"]),
    .testTarget(name: "FFmpegTests", dependencies: ["FFmpeg", "EngineTestKit", "MediaTestKit"]),
    .testTarget(name: "ArchiveTests", dependencies: ["Archive", "EngineTestKit"]),
    .testTarget(name: "MediaJobsTests", dependencies: ["MediaJobs", "EngineTestKit"]),
    .testTarget(name: "MediaJobCLIUnitTests", dependencies: ["MediaJobCLI", "MediaCommands", "JobEngine", "EngineTestKit"]),
]

/// Integration tests: they run the built `mediajob` (as root and as nobody, under strace, on a small
/// tmpfs, killed with signals), render on lavapipe, talk to a throwaway PostgreSQL server, build a
/// package, or run reference tools by the dozen. `Scripts/test` runs them together with the unit tests.
let integrationTests: [Target] = [
    // libvips' results against the `vips` and `exiftool` command lines on full-size photos in every
    // colour space and format: dozens of tool processes and AVIF/HEIC encodes, most of the unit set's time.
    .testTarget(name: "VipsReferenceTests", dependencies: ["Vips", "EngineTestKit", "MediaTestKit"]),
    // The embedding example, and an embedder's own package (Tests/Fixtures) built with `swift build`.
    .testTarget(name: "EmbeddingExampleTests", dependencies: ["JobEngine", "SQLiteJobStore", "EngineTestKit"]),
    .testTarget(name: "PostgresTests", dependencies: ["Postgres", "PostgresTestKit"]),
    .testTarget(name: "PostgresJobStoreTests",
                dependencies: ["PostgresJobStore", "PostgresTestKit", "JobStoreConformance", "EngineTestKit"]),
    .testTarget(name: "GPURenderTests", dependencies: ["GPURender", "Vulkan", "MediaJobs", "Vips", "FFmpeg", "EngineTestKit", "MediaTestKit"]),
    .testTarget(
        name: "MediaJobCLITests",
        dependencies: [
            "MediaJobCLI", "MediaCommands", "SQLiteJobStore", "PostgresJobStore", "EngineTestKit", "MediaTestKit", "Vips", "FFmpeg", "Archive",
            "PostgresTestKit", "JobStoreConformance",
        ]
    ),
]

let package = Package(
    name: "mediajob",
    products: [
        .executable(name: "mediajob", targets: ["mediajob"]),
        .executable(name: "mediajob-media", targets: ["mediajob-media"]),
        .library(name: "TaskContract", targets: ["TaskContract"]),
        .library(name: "JobEngine", targets: ["JobEngine"]),
        .library(name: "SQLiteJobStore", targets: ["SQLiteJobStore"]),
        // For embedders' own tests: an in-memory store, a scripted job kind, a gate, a temporary folder.
        .library(name: "EngineTestKit", targets: ["EngineTestKit"]),
        .library(name: "PostgresJobStore", targets: ["PostgresJobStore"]),
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
        // PostgreSQL through libpq: the bridge a shared store is built on (DESIGN.md §10).
        .systemLibrary(name: "CPostgres", pkgConfig: "libpq", providers: [.apt(["libpq-dev"])]),
        .target(name: "Postgres", dependencies: ["CPostgres", "TaskContract"]),
        // The shared store for many machines: the JobStore protocol over PostgreSQL.
        .target(name: "PostgresJobStore", dependencies: ["JobEngine", "Postgres"]),

        // C libraries and their bridges: each bridge knows its C module and the task contract only.
        .systemLibrary(name: "CVips", pkgConfig: "vips", providers: [.apt(["libvips-dev"])]),
        .target(name: "CVipsShim", dependencies: ["CVips"]),
        .target(name: "Vips", dependencies: ["CVipsShim", "CVips", "TaskContract"]),
        .systemLibrary(
            name: "CFFmpeg",
            pkgConfig: "libavfilter",
            providers: [.apt(["libavfilter-dev", "libavformat-dev", "libavcodec-dev", "libavutil-dev", "libswscale-dev",
                              "libswresample-dev"])]
        ),
        .target(name: "CFFmpegShim", dependencies: ["CFFmpeg"]),
        .target(name: "FFmpeg", dependencies: ["CFFmpegShim", "CFFmpeg", "TaskContract"]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .target(name: "Archive", dependencies: ["CArchive", "TaskContract"]),
        // Vulkan's headers only: the loader is opened at run time, so the program starts without it.
        .systemLibrary(name: "CVulkan", providers: [.apt(["libvulkan-dev"])]),
        .target(name: "Vulkan", dependencies: ["CVulkan"]),
        // The render stage's compute shaders: GLSL sources and the SPIR-V made from them (Scripts/make-shaders).
        .target(name: "CShaders", exclude: ["glsl", "spirv"]),
        .target(name: "GPURender", dependencies: ["Vulkan", "CShaders"]),

        .target(name: "MediaJobs", dependencies: ["JobEngine", "Vips", "FFmpeg", "Archive", "GPURender", "Vulkan"]),
        // The command line without the media libraries: parsing, help, the commands on stored jobs,
        // and the words of the media commands, whose work it hands to mediajob-media (issue 15:
        // loading libvips' and FFmpeg's ~190 libraries took ~0.13 s of CPU before main).
        .target(name: "MediaJobCLI", dependencies: ["JobEngine", "SQLiteJobStore", "PostgresJobStore", "TaskContract", "GPURender"]),
        // The media commands' work: submitting, running and working on media jobs, probing the GPU.
        .target(
            name: "MediaCommands",
            dependencies: ["MediaJobCLI", "MediaJobs", "SQLiteJobStore", "PostgresJobStore", "Vips", "FFmpeg", "GPURender"]
        ),
        // The Swift runtime and Foundation linked into the program (main.swift compiled against
        // their static modules, whose link lists name Foundation's own libraries): the dynamic
        // loader then binds about 7,000 fewer symbols across 14 fewer libraries before `main`
        // (issue 15: start-up).
        .executableTarget(name: "mediajob", dependencies: ["MediaJobCLI", "JobEngine"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"])],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        .executableTarget(name: "mediajob-media", dependencies: ["MediaCommands", "MediaJobCLI", "JobEngine"]),
        // The GPU check for a machine with a GPU (Scripts/gpu-check, DEVELOPERS.md): GPURender and
        // Vulkan only, so that it runs where libvips and FFmpeg are not installed; and the program
        // that prepares its references and CPU figures here.
        .executableTarget(name: "gpu-check", dependencies: ["GPURender", "Vulkan"]),
        .executableTarget(name: "gpu-check-references", dependencies: ["MediaJobs"]),
        // Claim→commit cycles through the PostgreSQL store (Scripts/bench scenario 7).
        .executableTarget(name: "lease-bench", dependencies: ["PostgresJobStore"]),
        .target(name: "EngineTestKit", dependencies: ["JobEngine"]),
        // Media the tests make and measure with the ffmpeg, vips and exiftool command lines.
        .target(name: "MediaTestKit"),
        // The store contract as test cases any store's tests run (SQLite, PostgreSQL, in memory).
        .target(name: "JobStoreConformance", dependencies: ["JobEngine"]),
        // A throwaway PostgreSQL cluster (Scripts/postgres-test-cluster) and a fresh schema per test.
        .target(name: "PostgresTestKit", dependencies: ["Postgres"]),
    ] + unitTests + integrationTests,
    swiftLanguageModes: [.v6]
)
