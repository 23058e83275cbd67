import Foundation
import JobEngine
import TaskContract

/// How jobs are shown: JSON objects for `--json`, and lines for people.
package enum JobDescription {
    /// The `status --json` object of a job; `renderedBy`, when given, says how many done chunks
    /// each path (`cpu`, `gpu`) rendered (``JobStore/executorCounts(of:)``), as `rendered_by`, and
    /// `ranBy` how many each worker committed (``LeasingJobStore/workerCounts(of:)``), as `ran_by`.
    package static func json(_ job: JobRecord, renderedBy: [String: Int] = [:], ranBy: [String: Int] = [:]) -> [String: Any] {
        var object: [String: Any] = [
            "job_id": job.id.rawValue, "identifier": job.request.identifier.rawValue, "kind": job.kind,
            "state": job.state.rawValue, "fraction": (job.progress.fraction * 10_000).rounded() / 10_000,
            "stage": job.progress.stage?.rawValue ?? NSNull(), "title": job.request.title,
            "destination": job.destination, "units_done": job.progress.unitsDone,
            "units_total": job.progress.unitsTotal, "created_at": iso(job.createdAt), "updated_at": iso(job.updatedAt),
        ]
        object["eta_s"] = job.progress.etaSeconds ?? NSNull()
        object["failure"] = job.failure?.rawValue ?? NSNull()
        object["rejection"] = job.rejection?.rawValue ?? NSNull()
        object["message"] = job.message ?? NSNull()
        object["owner_pid"] = job.ownerPID.map { Int($0) } ?? NSNull()
        if !renderedBy.isEmpty { object["rendered_by"] = renderedBy }
        if !ranBy.isEmpty { object["ran_by"] = ranBy }
        return object
    }

    /// The `status --json` object of a live worker: `name` (`host:pid`), `host`, `pid`, `gpu`, `slots`, `lease_s`.
    package static func json(_ worker: WorkerRecord) -> [String: Any] {
        ["name": worker.name, "host": worker.host, "pid": Int(worker.pid), "gpu": worker.hasGPU, "slots": worker.slots,
         "lease_s": Double(worker.lease.components.seconds) + Double(worker.lease.components.attoseconds) / 1e18]
    }

    /// The `status --json` object of a bad item: `item`, `reason`, `outcome` (`skipped` or
    /// `failed`) and `chunk` (its index, or null for the package stage).
    package static func json(_ bad: BadItem) -> [String: Any] {
        ["item": bad.item, "reason": bad.reason, "outcome": bad.outcome.rawValue, "chunk": bad.chunkIndex ?? NSNull()]
    }

    /// A few lines about one job for `status`: one for each bad item, naming it and why.
    /// `autoPaths`, when given, says where `--gpu auto` renders each operation and why.
    /// `ranBy` says how many chunks each worker committed, `liveWorkers` who is taking chunks now.
    package static func detail(_ job: JobRecord, renderedBy rendered: [String: Int] = [:], badItems: [BadItem] = [],
                       autoPaths: String? = nil, ranBy: [String: Int] = [:], liveWorkers: [WorkerRecord] = [],
                       stateDirArgument: String) -> String {
        var lines = [
            "Job \(job.id.short)  \(job.request.title)",
            "  state:       \(job.state.rawValue)\(job.failure.map { " (\($0.rawValue))" } ?? "")",
            "  progress:    \(percent(job.progress.fraction)) — \(job.progress.unitsDone)/\(Plural.of(job.progress.unitsTotal, "unit"))",
            "  destination: \(job.destination.isEmpty ? "—" : job.destination)",
            "  identifier:  \(job.request.identifier)",
            "  updated:     \(iso(job.updatedAt))",
        ]
        if !rendered.isEmpty {
            lines.append("  rendered:    " + rendered.sorted { $0.key < $1.key }.map { "\($0.value) on \($0.key)" }.joined(separator: ", "))
            if let autoPaths { lines.append("  gpu auto:    " + autoPaths) }
        }
        if !ranBy.isEmpty {
            lines.append("  ran by:      " + ranBy.sorted { $0.key < $1.key }.map { "\(Plural.of($0.value, "chunk")) on \($0.key)" }
                .joined(separator: ", "))
        }
        if !liveWorkers.isEmpty {
            lines.append("  workers:     " + liveWorkers.map { "\($0.name)\($0.hasGPU ? " (GPU)" : "")" }.joined(separator: ", ")
                + " live")
        }
        for bad in badItems {
            lines.append("  \((bad.outcome.rawValue + ":").padding(toLength: 12, withPad: " ", startingAt: 0)) \(bad.item): \(bad.reason)")
        }
        if let message = job.message { lines.append("  message:     \(message)") }
        if let next = nextStep(job, stateDirArgument: stateDirArgument) { lines.append("  next:        \(next)") }
        return lines.joined(separator: "\n")
    }

    /// One row of the `jobs` table; the destination shortened, `~` for `home`.
    package static func row(_ job: JobRecord, home: String) -> [String] {
        [job.id.short, job.kind, job.state.rawValue, percent(job.progress.fraction), shortened(job.destination, home: home),
         job.request.title]
    }

    /// A path for a table: `~` for the home folder, and at most `limit` characters, keeping its
    /// end (where the file's name is) after `…`.
    package static func shortened(_ path: String, home: String, limit: Int = 40) -> String {
        guard !path.isEmpty else { return "—" }
        var text = path
        if !home.isEmpty, home != "/", text == home || text.hasPrefix(home + "/") { text = "~" + text.dropFirst(home.count) }
        return text.count <= limit ? text : "…" + text.suffix(limit - 1)
    }

    /// What the person can do next with a job in its state.
    package static func nextStep(_ job: JobRecord, stateDirArgument: String) -> String? {
        nextStep(job.id, job.state, stateDirArgument: stateDirArgument)
    }

    /// What the person can do next with job `identity` in `state`: a stopped job resumes (or
    /// restarts, or is discarded), a live one is followed; nil for a job that has ended.
    package static func nextStep(_ identity: JobID, _ state: JobState, stateDirArgument: String) -> String? {
        let id = identity.short
        switch state {
        case .paused, .interrupted, .failed:
            return "mediajob resume \(id)\(stateDirArgument)   (or restart / discard)"
        case .running, .queued:
            return "mediajob status \(id) --watch\(stateDirArgument)   (or cancel)"
        case .completed, .rejected, .discarded:
            return nil
        }
    }

    package static func percent(_ fraction: Double) -> String {
        "\(Int((fraction * 100).rounded(.down)))%"
    }

    package static func iso(_ date: Date) -> String {
        date.formatted(.iso8601)
    }

    /// Lays out rows in columns under `header`.
    package static func table(_ header: [String], _ rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        return all.map { row in
            row.enumerated().map { column, cell in
                column == row.count - 1 ? cell : cell.padding(toLength: widths[column], withPad: " ", startingAt: 0)
            }.joined(separator: "  ")
        }.joined(separator: "\n")
    }
}
