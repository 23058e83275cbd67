import Foundation
import JobEngine
import MediaJobCLI
import PhotoJobs
import TaskContract

extension ThumbnailCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let arguments = context.arguments
        let (items, output) = try context.batch()
        let size = try arguments.integer("size", in: 16...4096) ?? 256
        let cells = try arguments.integer("sheet-cells", in: 1...10_000) ?? ThumbnailJob.defaultCellsPerSheet
        let most = ThumbnailJob.mostCellsPerSheet(size: size)
        guard min(cells, items.count) <= most else {
            throw UsageError("contact sheets of \(min(cells, items.count)) thumbnails of \(size) pixels would be wider than a "
                             + "JPEG can be (65,535 pixels): give --sheet-cells \(most) or less, or a smaller --size", command: name)
        }
        let spec = ThumbnailJob.Spec(
            items: items, size: size,
            format: (try context.imageFormat() ?? ThumbnailJob.defaultFormat).rawValue, quality: try arguments.integer("quality", in: 1...100) ?? 80,
            settings: try context.batchSettings(output: output), metadata: arguments.has("keep-metadata") ? .all : .safe,
            cellsPerSheet: cells)
        if let code = try kinds.handOverRun(of: items, settings: spec.settings, context: context) { return code }
        // Photos stay on the CPU unless --gpu on (shrink-on-load beats any full decode).
        return try await JobSession(context: context, scheduler: try context.openMediaScheduler(kinds), kinds: kinds)
            .submit(spec, kind: name, title: spec.title, gpu: spec.settings.gpu, announcing: spec.settings.gpu == .on)
    }
}
