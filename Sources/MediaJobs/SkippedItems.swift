import Foundation
import JobEngine
import TaskContract

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

    /// Runs one item's work. A bad item (invalid input) fails as an ``ItemFailure`` naming it, or
    /// with `skipBad` is recorded as skipped; an error while a stop is asked for is the stop.
    static func guarding(_ item: String, index: Int, skipBad: Bool, context: JobContext, _ work: () throws -> Void) throws {
        do {
            try work()
        } catch where context.isStopRequested {
            throw JobStopped()
        } catch let error as any CategorizedError where error.category == .invalidInput {
            let failure = error as? ItemFailure ?? ItemFailure(item: item, reason: error.message)
            guard skipBad else { throw failure }
            try record(index, reason: failure.message, in: context.workspace)
        }
    }
}
