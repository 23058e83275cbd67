import Foundation

/// Runs `body` with a fresh, empty folder and the path of a store file inside it, removing the
/// folder afterwards.
func withStorePath<T>(_ body: (String) throws -> T) throws -> T {
    let folder = FileManager.default.temporaryDirectory
        .appendingPathComponent("sqlite-job-store-tests-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: folder) }
    return try body(folder.appendingPathComponent("jobs.sqlite").path)
}
