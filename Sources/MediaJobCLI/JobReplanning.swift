import Foundation
import JobEngine
import MediaJobs
import TaskContract

/// `restart` and `resume` against inputs that changed since a job was planned: a restarted media
/// job is planned again from its inputs as they are now (an export reads its project.json again),
/// and a resumed export whose project changed says what changed instead of exporting the old one.
enum JobReplanning {
    /// Submits `job`'s work again as a new job planned from its inputs as they are now, after
    /// discarding `job`, and runs it; `nil` for a kind whose plan does not depend on its inputs
    /// (the self-test), which restarts as it was planned.
    static func restart(_ job: JobRecord, context: CommandContext, scheduler: JobScheduler) async throws -> Int32? {
        guard job.state != .completed, job.state != .rejected else { throw SchedulerError.wrongState(job.id, job.state, .restart) }
        let session = JobSession(context: context, scheduler: scheduler)
        let submit: () async throws -> Int32
        switch job.kind {
        case "export":
            var spec = try JSONDecoder().decode(ExportJob.Spec.self, from: job.spec)
            if let source = spec.source { spec.manifest = try source.load() }
            submit = { try await session.submit(spec, kind: job.kind, title: spec.title, gpu: spec.settings.gpu) }
        case "compress":
            let spec = try JSONDecoder().decode(CompressJob.Spec.self, from: job.spec)
            submit = { try await session.submit(spec, kind: job.kind, title: spec.title, gpu: spec.settings.gpu) }
        case "thumbnail":
            let spec = try JSONDecoder().decode(ThumbnailJob.Spec.self, from: job.spec)
            submit = {
                try await session.submit(spec, kind: job.kind, title: spec.title, gpu: spec.settings.gpu,
                                         announcing: spec.settings.gpu == .on)
            }
        default:
            return nil
        }
        if job.state != .discarded { try scheduler.discard(job.id) }
        context.console.err("Job \(job.id.short) is discarded; its work starts again as a new job, planned from its inputs as they are now.")
        return try await submit()
    }

    /// Refuses to resume an export whose project changed since it was planned, saying what
    /// changed and that `restart` will redo it; nothing for other jobs or an unchanged project.
    /// - Throws: ``ProjectChanged``, or the project's ``ManifestError`` when it no longer reads.
    static func checkUnchanged(_ job: JobRecord, stateDirArgument: String) throws {
        guard job.kind == "export", let spec = try? JSONDecoder().decode(ExportJob.Spec.self, from: job.spec),
              let source = spec.source else { return }
        let changes = ManifestChanges.between(spec.manifest, try source.load())
        guard !changes.isEmpty else { return }
        throw ProjectChanged(message: "\(source.file) changed since job \(job.id.short) was planned: "
                             + changes.joined(separator: "; ") + ". Resuming would export the project as it was; "
                             + "run `mediajob restart \(job.id.short)\(stateDirArgument)` to redo the job with the project as it is now")
    }

    /// A project that changed under a job being resumed.
    struct ProjectChanged: CategorizedError {
        var message: String
        var category: FailureCategory { .invalidInput }
    }
}
