import JobEngine
import MediaJobCLI
import PhotoCommands

extension ResumeCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let scheduler = try context.openMediaScheduler(kinds)
        let job = try context.namedJob(in: scheduler)
        let handle = try JobReplanning.resume(job, context: context, scheduler: scheduler)
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Resuming")
    }
}
extension RestartCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let scheduler = try context.openMediaScheduler(kinds)
        let job = try context.namedJob(in: scheduler)
        if let code = try await JobReplanning.restart(job, context: context, scheduler: scheduler) { return code }
        let handle = try scheduler.restart(job.id, strategy: try context.strategy())
        return await JobSession(context: context, scheduler: scheduler).run(handle, verb: "Restarting")
    }
}
