import Foundation
import JobEngine

/// `mediajob prune [--older-than DURATION]`: forgets finished jobs.
package enum PruneCommand: Command {
    package static let name = "prune"
    package static let synopsis = "[--older-than DURATION] [--state-dir DIR] [--store URL]"
    package static let summary = "Remove the records of completed, discarded and refused jobs"
    package static let discussion = """
        Deletes the records (state, chunks, journal) of completed, discarded and rejected jobs,
        and any workspace they left, and says how many it removed. A job that can still resume
        (paused, interrupted, failed) or is queued or running is never touched. With
        --older-than, only jobs last changed longer ago than DURATION: a number and a unit,
        s, m, h, d or w (90m, 12h, 30d, 2w). What a job published stays where it is.

        Examples:
          mediajob prune
          mediajob prune --older-than 30d
        """
    package static let options = [OptionSpec.option("older-than", "DURATION", "only jobs last changed longer ago than this (30d, 12h, 90m)")]
        + CommonOptions.jobStore

    package static func run(_ context: CommandContext) async throws -> Int32 {
        try context.arguments.none()
        let age = try context.arguments.value("older-than").map(seconds) ?? 0
        let removed = try context.openScheduler().prune(changedBefore: Date().addingTimeInterval(-age))
        let scope = context.arguments.value("older-than").map { " last changed more than \($0) ago" } ?? ""
        guard !removed.isEmpty else {
            context.console.err("Nothing to prune: no completed, discarded or refused job\(scope).")
            return ExitCode.completed
        }
        let counts = Dictionary(grouping: removed, by: \.state).sorted { $0.key.rawValue < $1.key.rawValue }
            .map { "\($0.value.count) \($0.key == .rejected ? "refused" : $0.key.rawValue)" }
        context.console.err("Removed the records of \(Plural.of(removed.count, "job"))\(scope) (\(counts.joined(separator: ", "))).")
        return ExitCode.completed
    }

    /// Reads a duration such as `90m`, `12h`, `30d` or `2w`.
    private static func seconds(_ text: String) throws -> TimeInterval {
        let units: [Character: TimeInterval] = ["s": 1, "m": 60, "h": 3600, "d": 86_400, "w": 604_800]
        guard let unit = text.last.flatMap({ units[$0] }), let number = Double(text.dropLast()), number >= 0, number.isFinite else {
            throw UsageError("--older-than expects a number and a unit (s, m, h, d or w) such as 30d, got '\(text)'", command: name)
        }
        return number * unit
    }
}
