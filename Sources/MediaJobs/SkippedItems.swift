import Foundation
import JobEngine

/// Records, in a job's workspace, the items skipped with `--skip-bad` and why, so that the
/// package can list them and a resumed job does not try them again.
enum SkippedItems {
    private static func name(_ index: Int) -> String { "skipped-\(index).txt" }

    static func record(_ index: Int, reason: String, in workspace: Workspace) throws {
        try workspace.commit(name(index), data: Data(reason.utf8))
    }

    static func reason(_ index: Int, in workspace: Workspace) -> String? {
        try? String(contentsOf: workspace.url(for: name(index)), encoding: .utf8)
    }
}
