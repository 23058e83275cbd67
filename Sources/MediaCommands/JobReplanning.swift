import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands
import PhotoJobs
import TaskContract

/// `restart` and `resume` against inputs that changed since a job was planned: a restarted media
/// job is planned again from its inputs as they are now (an export reads its project.json again),
/// and a resumed export whose failed or skipped assets were fixed plans them again, while one whose
/// project changed elsewhere says what changed instead of exporting the old one.
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

    /// Takes `job` into this process to resume it. An export whose project changed since it was
    /// planned in its failed or skipped assets alone (their files, or their entries in the
    /// manifest) is planned again for those assets, keeping every finished chunk of the others;
    /// one whose project changed elsewhere is refused, saying what changed and that `restart`
    /// will redo it.
    /// - Throws: ``ProjectChanged``; the project's ``ManifestError`` when it no longer reads;
    ///   what planning the assets again throws; what ``JobScheduler/resume(_:strategy:)`` throws.
    static func resume(_ job: JobRecord, context: CommandContext, scheduler: JobScheduler) throws -> JobHandle {
        let strategy = try context.strategy()
        guard job.kind == "export", let spec = try? JSONDecoder().decode(ExportJob.Spec.self, from: job.spec) else {
            return try scheduler.resume(job.id, strategy: strategy)
        }
        let restart = "mediajob restart \(job.id.short)\(context.stateDirectoryArgument)"
        let bad = try badAssets(of: job, in: scheduler)
        guard let source = spec.source else {
            guard bad.isEmpty else {
                throw ProjectChanged(message: "job \(job.id.short) was planned by an earlier mediajob, which did not keep where "
                                     + "its project.json is, so resume cannot plan its failed or skipped assets again; "
                                     + "run `\(restart)` to redo the job from its files as they are now")
            }
            return try scheduler.resume(job.id, strategy: strategy)
        }
        let now = try source.load()
        let changes = ManifestChanges.between(spec.manifest, now)
        guard ManifestChanges.outside(bad, from: spec.manifest, to: now).isEmpty, !bad.isEmpty || changes.isEmpty else {
            throw ProjectChanged(message: "\(source.file) changed since job \(job.id.short) was planned: "
                                 + changes.joined(separator: "; ") + ". Resuming would export the project as it was; "
                                 + "run `\(restart)` to redo the job with the project as it is now")
        }
        guard !bad.isEmpty else { return try scheduler.resume(job.id, strategy: strategy) }
        var replanned = spec
        replanned.manifest = now
        do {
            return try scheduler.resume(job.id, replanning: replanned, redoing: { ExportJob.asset(of: $0).map(bad.contains) ?? false },
                                        strategy: strategy)
        } catch let unusable as UnusableInputs {
            throw ProjectChanged(message: "\(unusable.message), then run `mediajob resume \(job.id.short)"
                                 + "\(context.stateDirectoryArgument)`")
        }
    }

    /// The positions of the assets that failed or were skipped in the job's chunks.
    private static func badAssets(of job: JobRecord, in scheduler: JobScheduler) throws -> Set<Int> {
        let plans = Dictionary(uniqueKeysWithValues: try scheduler.store.chunks(of: job.id).map { ($0.index, $0.plan) })
        return Set(try scheduler.store.badItems(of: job.id).compactMap { item in
            item.chunkIndex.flatMap { plans[$0] }.flatMap(ExportJob.asset(of:))
        })
    }

    /// A project that changed under a job being resumed.
    struct ProjectChanged: CategorizedError {
        var message: String
        var category: FailureCategory { .invalidInput }
    }
}
