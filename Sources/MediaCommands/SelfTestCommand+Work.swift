import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands
import PhotoJobs
import TaskContract

extension SelfTestCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let arguments = context.arguments
        try arguments.none()
        let units = try arguments.integer("units", in: 1...1_000_000) ?? 20
        let output = arguments.value("output").map { URL(fileURLWithPath: $0).standardizedFileURL.path }
        let spec = SelfTestJob.Spec(
            units: units, unitMilliseconds: try arguments.integer("unit-ms", in: 0...3_600_000) ?? 50,
            failAt: try arguments.integer("fail-at", in: 0...(units - 1)),
            output: output ?? context.stateDirectory.appendingPathComponent("selftest/result.json").path,
            overwrite: output == nil || arguments.has("overwrite"),
            chunkMilliseconds: try arguments.integer("chunk-ms", in: 0...3_600_000))
        let scheduler = try context.openMediaScheduler(kinds)
        let request = try TaskRequest(identifier: MediaJobKinds.identifier("selftest"), title: spec.title,
                                      subtitle: "starting", strategy: try context.strategy())
        let session = JobSession(context: context, scheduler: scheduler)
        return try await session.run {
            try scheduler.submit(request, spec: spec, detached: session.submitsForWorkers, submitterWorks: session.worksOnIt)
        }
    }
}
