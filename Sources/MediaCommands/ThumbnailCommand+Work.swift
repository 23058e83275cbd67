import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import TaskContract

extension ThumbnailCommand: CommandWork {
    static func work(_ context: CommandContext) async throws -> Int32 {
        let arguments = context.arguments
        let (items, output) = try context.batch()
        let spec = ThumbnailJob.Spec(
            items: items, size: try arguments.integer("size", in: 16...4096) ?? 256,
            format: try context.imageFormat()?.rawValue ?? "jpeg", quality: try arguments.integer("quality", in: 1...100) ?? 80,
            settings: try context.batchSettings(output: output), metadata: arguments.has("keep-metadata") ? .all : .safe)
        // Photos stay on the CPU unless --gpu on (shrink-on-load beats any full decode).
        return try await JobSession(context: context, scheduler: try context.openMediaScheduler())
            .submit(spec, kind: name, title: spec.title, gpu: spec.settings.gpu, announcing: spec.settings.gpu == .on)
    }
}
