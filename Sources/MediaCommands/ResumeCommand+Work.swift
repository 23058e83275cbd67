import JobEngine
import MediaJobCLI

extension ResumeCommand: CommandWork {
    static func work(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openMediaScheduler()
        let job = try context.namedJob(in: scheduler)
        let handle = try JobReplanning.resume(job, context: context, scheduler: scheduler)
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Resuming")
    }
}
extension RestartCommand: CommandWork {
    static func work(_ context: CommandContext) async throws -> Int32 {
        let scheduler = try context.openMediaScheduler()
        let job = try context.namedJob(in: scheduler)
        if let code = try await JobReplanning.restart(job, context: context, scheduler: scheduler) { return code }
        let handle = try scheduler.restart(job.id, strategy: try context.strategy())
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Restarting")
    }
}
