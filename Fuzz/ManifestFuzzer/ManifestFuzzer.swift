import Foundation
import MediaJobs

// libFuzzer entry for the manifest reader: `ProjectLoader.decode` (JSON decoding of
// `ProjectManifest`, then `ManifestValidator`) over arbitrary bytes. A target of the package
// (Package.swift, `fuzzTargets`) that Fuzz/build builds against the MediaJobs module.
//
// The promise checked: every input yields a manifest or a `ManifestError` naming the problem —
// never a crash, a hang, or any other error type.

/// The project folder paths are resolved in: empty, made once per process.
private let projectFolder: URL = {
    let folder = FileManager.default.temporaryDirectory.appendingPathComponent("manifest-fuzzer-\(getpid())")
    try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    return folder
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func manifestFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let data = Data(bytes: bytes, count: count)
    do {
        _ = try ProjectLoader.decode(data, file: "project.json", folder: projectFolder)
    } catch let error as ManifestError {
        precondition(!error.problem.isEmpty, "a ManifestError without a problem")
    } catch {
        fatalError("the manifest reader threw \(type(of: error)), not a ManifestError: \(error)")
    }
    return 0
}
