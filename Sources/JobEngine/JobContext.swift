import Foundation
import TaskContract

/// What a chunk or the finalisation of a job may use: its workspace and its task.
public struct JobContext: Sendable {
    /// The job's private folder.
    public let workspace: Workspace
    /// The running task: words, stop signal.
    public let task: ContinuedTask

    package init(workspace: Workspace, task: ContinuedTask) {
        self.workspace = workspace
        self.task = task
    }

    /// Whether the work in hand should stop: the job was asked to stop, or a sibling chunk failed.
    /// Long work checks this between frames or rows.
    public var isStopRequested: Bool { task.isExpired || Task.isCancelled }

    /// Throws ``JobStopped`` when the work in hand should stop, abandoning it.
    public func checkStop() throws {
        if isStopRequested { throw JobStopped() }
    }
}

/// Thrown by work that abandons itself because the job was asked to stop. The engine then ends
/// the job as paused; the abandoned chunk is redone on resume.
public struct JobStopped: Error, Equatable {
    public init() {}
}
