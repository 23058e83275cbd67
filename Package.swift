// swift-tools-version:6.0
import Foundation
import PackageDescription

// Layers (arrows point down): mediajob-media → MediaCommands → PhotoCommands → MediaJobCLI, MediaJobs → PhotoJobs →
// JobEngine → TaskContract; mediajob-photo → PhotoCommands, PhotoJobs (no FFmpeg);
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
    .testTarget(name: "FFmpegTests", dependencies: ["FFmpeg", "MediaInputLimits", "EngineTestKit", "MediaTestKit"]),
    .testTarget(name: "ArchiveTests", dependencies: ["Archive", "EngineTestKit"]),
    .testTarget(name: "MediaJobsTests", dependencies: ["MediaJobs", "PhotoJobs", "MediaInputLimits", "EngineTestKit"]),
    .testTarget(name: "MediaJobCLIUnitTests", dependencies: ["MediaJobCLI", "MediaCommands", "PhotoCommands", "PhotoJobs", "JobEngine", "EngineTestKit"]),
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
    .testTarget(name: "GPURenderTests", dependencies: ["GPURender", "Vulkan", "MediaJobs", "PhotoJobs", "Vips", "FFmpeg", "EngineTestKit", "MediaTestKit"]),
    .testTarget(
        name: "MediaJobCLITests",
        dependencies: [
            "MediaJobCLI", "MediaCommands", "PhotoJobs", "SQLiteJobStore", "PostgresJobStore", "EngineTestKit", "MediaTestKit", "Vips", "FFmpeg", "Archive",
            "PostgresTestKit", "JobStoreConformance",
        ]
    ),
]

/// Start-up (issue 15): before `main`, the dynamic loader binds ~60,000 symbols of the 204 libraries
/// libvips and FFmpeg bring, and each lookup walks the global scope (the program's DT_NEEDED names,
/// then theirs, breadth first) until it reaches the library that defines the symbol. Most lookups are
/// libraries binding to their own symbols from deep in that list (libopenblas 39 % of the walk,
/// through libavfilter → libsphinxbase → libblas). Naming the costliest on `mediajob-media`'s link
/// line moves them up to just after its own libraries: the walk's estimate 7.0 M → 3.1 M objects,
/// `--version` 0.67× the CPU (README, Benchmarks: "The link order"). They are Debian 12's, every one
/// loaded anyway, in an order that keeps, for each of the 2,553 symbols defined by more than one
/// loaded library, the library that defines it first (and so the one every lookup binds to): libblas
/// and liblapack before libopenblas, whose BLAS they define too; libstdc++'s template copies in
/// their old order; libc where it was, before all of them. (Linking Swift statically moved
/// libstdc++ ahead of them and took Swift's own copies away: five such C++ template symbols now bind
/// to another copy of the same libstdc++ code.) A name that is not installed is left out, so the build
/// works where one is missing, and libopenblas is named only when libblas.so.3 is OpenBLAS's.
let lookupHeavyLibraries = [
    "libc.so.6",
    "libblas.so.3", "liblapack.so.3", "libopenblas.so.0",
    "libepoxy.so.0", "libcrypto.so.3",
    "librubberband.so.2", "libstdc++.so.6", "libzimg.so.2", "libgme.so.0", "libopenmpt.so.0", "libchromaprint.so.1",
    "libsrt-gnutls.so.1.5", "libsnappy.so.1", "libOpenEXR-3_1.so.30", "libLerc.so.4",
    "libhdf5_serial.so.103", "libIex-3_1.so.30", "libmbedcrypto.so.7", "libfftw3.so.3",
    "libasound.so.2", "libunistring.so.2", "libpango-1.0.so.0", "libldap-2.5.so.0", "libgnutls.so.30",
]

/// The folder this manifest's own copy of `soname` was loaded from, read from /proc/self/maps; nil
/// when not loaded.
func loadedFolder(of soname: String) -> String? {
    let maps = (try? String(contentsOfFile: "/proc/self/maps", encoding: .utf8)) ?? ""
    let paths = maps.split(separator: "\n").lazy.compactMap { $0.split(separator: " ").last }
    let path = paths.first { $0.hasSuffix("/" + soname) }
    return path.map { String($0.dropLast(soname.count + 1)) }
}

/// The same for `mediajob-photo` (README, Benchmarks: "The link order"), whose libraries come
/// through libvips, libpq and libstdc++ (none of FFmpeg's): those of ``lookupHeavyLibraries`` it loads
/// anyway, in their order (libIex, 77th in the scope, was 10 % of the walk), then the fourteen costliest
/// of the rest in their own order. Every binding of its start-up and of a thumbnail run keeps its
/// definer (`LD_DEBUG=bindings`); the walk's estimate fell from 0.80 M to 0.47 M objects.
let photoLookupHeavyLibraries = [
    "libc.so.6", "libcrypto.so.3", "libstdc++.so.6", "libOpenEXR-3_1.so.30", "libLerc.so.4", "libhdf5_serial.so.103",
    "libIex-3_1.so.30", "libfftw3.so.3", "libunistring.so.2", "libpango-1.0.so.0", "libldap-2.5.so.0", "libgnutls.so.30",
    "libcairo.so.2", "liblcms2.so.2", "libmount.so.1", "liblber-2.5.so.0", "libxml2.so.2", "libharfbuzz.so.0",
    "libpixman-1.so.0", "libfreetype.so.6", "libX11.so.6", "libzstd.so.1", "libnettle.so.8", "libhogweed.so.6",
    "libgmp.so.10", "libssh2.so.1",
]

/// The linker flags naming those of `libraries` (``lookupHeavyLibraries`` or
/// ``photoLookupHeavyLibraries``) installed here, in their order.
func lookupHeavyLibraryFlags(_ libraries: [String] = lookupHeavyLibraries) -> [String] {
    let folders = [loadedFolder(of: "libc.so.6")].compactMap { $0 }  // the system's library folder
    func installed(_ name: String) -> String? {
        folders.map { $0 + "/" + name }.first { FileManager.default.fileExists(atPath: $0) }
    }
    // libblas.so.3 is whichever BLAS the system chose (OpenBLAS, BLIS, the reference one); OpenBLAS's
    // sits in a folder beside its libopenblas.so.0.
    let openBLAS = installed("libblas.so.3").map { blas in
        let folder = URL(fileURLWithPath: blas).resolvingSymlinksInPath().deletingLastPathComponent()
        return FileManager.default.fileExists(atPath: folder.appendingPathComponent("libopenblas.so.0").path)
    } ?? false
    let names = libraries.filter { installed($0) != nil && ($0 != "libopenblas.so.0" || openBLAS) }
    guard !names.isEmpty else { return [] }
    return ["--push-state", "--no-as-needed"] + names.map { "-l:" + $0 } + ["--pop-state"]
}

/// The libFuzzer targets in Fuzz/ (README, "Hostile input and fuzzing"), built by `Fuzz/build` with
/// `MEDIAJOB_FUZZ=1 swift build --sanitize=fuzzer`: each is an entry point over the package's own
/// modules, and has no `main` of its own (libFuzzer's is linked in), so they are declared only when
/// that variable is set: a plain `swift build` must build without libFuzzer.
let fuzzTargets: [Target] = ProcessInfo.processInfo.environment["MEDIAJOB_FUZZ"] == nil ? [] : [
    .executableTarget(name: "manifest-fuzzer", dependencies: ["MediaJobs", "PhotoJobs"], path: "Fuzz/ManifestFuzzer"),
    .executableTarget(name: "arguments-fuzzer", dependencies: ["MediaJobCLI"], path: "Fuzz/ArgumentsFuzzer"),
]

let package = Package(
    name: "mediajob",
    products: [
        .executable(name: "mediajob", targets: ["mediajob"]),
        .executable(name: "mediajob-media", targets: ["mediajob-media"]),
        .executable(name: "mediajob-photo", targets: ["mediajob-photo"]),
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
        // The limits on what a video input may be: FFmpeg's, and the settings of jobs that do not link it.
        .target(name: "MediaInputLimits"),
        .target(name: "FFmpeg", dependencies: ["CFFmpegShim", "CFFmpeg", "TaskContract", "MediaInputLimits"]),
        .systemLibrary(name: "CArchive", pkgConfig: "libarchive", providers: [.apt(["libarchive-dev"])]),
        .target(name: "Archive", dependencies: ["CArchive", "TaskContract"]),
        // Vulkan's headers only: the loader is opened at run time, so the program starts without it.
        .systemLibrary(name: "CVulkan", providers: [.apt(["libvulkan-dev"])]),
        .target(name: "Vulkan", dependencies: ["CVulkan"]),
        // The render stage's compute shaders: GLSL sources and the SPIR-V made from them (Scripts/make-shaders).
        .target(name: "CShaders", exclude: ["glsl", "spirv"]),
        .target(name: "GPURender", dependencies: ["Vulkan", "CShaders"]),

        // The thumbnail job and what media jobs share (settings, inputs, photo rendering on the CPU or
        // the GPU, packaging) without FFmpeg: a video's frame, and telling a video from a bad file,
        // come from the program that runs the job (``VideoInputs``).
        .target(name: "PhotoJobs", dependencies: ["JobEngine", "Vips", "GPURender", "Vulkan", "MediaInputLimits"]),
        // Every media job kind: PhotoJobs' and those that take FFmpeg (export, compress, the self-test).
        .target(name: "MediaJobs", dependencies: ["PhotoJobs", "JobEngine", "Vips", "FFmpeg", "MediaInputLimits", "Archive",
                                                  "GPURender", "Vulkan"]),
        // The command line without the media libraries: parsing, help, the commands on stored jobs,
        // and the words of the media commands, whose work it hands to mediajob-media (issue 15:
        // loading libvips' and FFmpeg's ~190 libraries took ~0.13 s of CPU before main).
        .target(name: "MediaJobCLI", dependencies: ["JobEngine", "SQLiteJobStore", "PostgresJobStore", "TaskContract", "GPURender"]),
        // Running media jobs without FFmpeg: submitting and running a job in the foreground, progress,
        // stops, working on a shared store's chunks, GPU probing, and the thumbnail command's work.
        .target(
            name: "PhotoCommands",
            dependencies: ["MediaJobCLI", "PhotoJobs", "MediaInputLimits", "SQLiteJobStore", "PostgresJobStore", "Vips", "GPURender"]
        ),
        // The media commands' work: every command with every job kind, and the workers.
        .target(
            name: "MediaCommands",
            dependencies: ["PhotoCommands", "MediaJobCLI", "MediaJobs", "PhotoJobs", "SQLiteJobStore", "PostgresJobStore", "GPURender"]
        ),
        // The Swift runtime and Foundation linked into the program (main.swift compiled against
        // their static modules, whose link lists name Foundation's own libraries): the dynamic
        // loader then binds about 7,000 fewer symbols across 14 fewer libraries before `main`
        // (issue 15: start-up).
        .executableTarget(name: "mediajob", dependencies: ["MediaJobCLI", "JobEngine"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"])],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"])]),
        // The same for mediajob-media, with the libraries named for the lookup order after them:
        // `--version` 0.82× the CPU and 5 MiB less than with the runtime's 14 libraries, for 58 MB more
        // on disk (stripped 62 MB; README, Benchmarks: "The link order").
        .executableTarget(name: "mediajob-media", dependencies: ["MediaCommands", "PhotoCommands"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"])],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"] + lookupHeavyLibraryFlags().flatMap { ["-Xlinker", $0] })]),
        // Thumbnail runs of photos: libvips without FFmpeg's ~95 libraries (24.6 MiB resident before
        // any work, most of the loader's start-up); a run with anything else goes to mediajob-media.
        .executableTarget(name: "mediajob-photo", dependencies: ["PhotoCommands"],
                          swiftSettings: [.unsafeFlags(["-static-stdlib"])],
                          linkerSettings: [.unsafeFlags(["-static-stdlib"] + lookupHeavyLibraryFlags(photoLookupHeavyLibraries)
                                                            .flatMap { ["-Xlinker", $0] })]),
        // The GPU check for a machine with a GPU (Scripts/gpu-check, DEVELOPERS.md): GPURender and
        // Vulkan only, so that it runs where libvips and FFmpeg are not installed; and the program
        // that prepares its references and CPU figures here.
        .executableTarget(name: "gpu-check", dependencies: ["GPURender", "Vulkan"]),
        .executableTarget(name: "gpu-check-references", dependencies: ["MediaJobs", "PhotoJobs"]),
        // Claim→commit cycles through the PostgreSQL store (Scripts/bench scenario 7).
        .executableTarget(name: "lease-bench", dependencies: ["PostgresJobStore"]),
        .target(name: "EngineTestKit", dependencies: ["JobEngine"]),
        // Media the tests make and measure with the ffmpeg, vips and exiftool command lines.
        .target(name: "MediaTestKit"),
        // The store contract as test cases any store's tests run (SQLite, PostgreSQL, in memory).
        .target(name: "JobStoreConformance", dependencies: ["JobEngine"]),
        // A throwaway PostgreSQL cluster (Scripts/postgres-test-cluster) and a fresh schema per test.
        .target(name: "PostgresTestKit", dependencies: ["Postgres"]),
    ] + unitTests + integrationTests + fuzzTargets,
    swiftLanguageModes: [.v6]
)
