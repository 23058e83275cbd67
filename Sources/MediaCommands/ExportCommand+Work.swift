import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands
import TaskContract

extension ExportCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let arguments = context.arguments
        let (folder, file) = ProjectLoader.locate(URL(fileURLWithPath: try arguments.single("<project>")).standardizedFileURL)
        let source = ManifestSource(file: file.path, keepProfile: arguments.has("keep-profile"),
                                    keepMetadata: arguments.has("keep-metadata"))
        let manifest = try source.load()
        let packageName = manifest.export.package.name ?? manifest.name
        let defaultOutput = packageName + (manifest.export.package.format == "zip" && !packageName.hasSuffix(".zip") ? ".zip" : "")
        let output = URL(fileURLWithPath: arguments.value("output") ?? defaultOutput).standardizedFileURL
        let spec = ExportJob.Spec(project: folder.path, manifest: manifest,
                                  settings: try context.batchSettings(output: output.path), source: source)
        return try await JobSession(context: context, scheduler: try context.openMediaScheduler(kinds))
            .submit(spec, kind: name, title: spec.title, gpu: spec.settings.gpu)
    }
}
