import Foundation
import JobEngine
import MediaJobCLI
import MediaJobs
import PhotoCommands

extension InitCommand: CommandWork {
    package static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32 {
        let arguments = context.arguments
        guard arguments.positionals.count <= 1 else {
            throw UsageError("expected at most one DIR, got \(arguments.positionals.count)", command: name)
        }
        let given = arguments.positionals.first ?? "."
        let folder = URL(fileURLWithPath: given).standardizedFileURL
        var isFolder: ObjCBool = false
        guard FileManager.default.fileExists(atPath: folder.path, isDirectory: &isFolder), isFolder.boolValue else {
            context.console.error("\(given) is not a folder; give the folder that holds your photos and videos")
            return ExitCode.invalidInput
        }
        let file = folder.appendingPathComponent(ProjectLoader.manifestName)
        if FileManager.default.fileExists(atPath: file.path), !arguments.has("force") {
            context.console.error("\(file.path) already exists", "Export it with: mediajob export \(shellQuoted(given))",
                                  "Or replace it with: mediajob init \(shellQuoted(given)) --force")
            return ExitCode.invalidInput
        }
        let survey = try ProjectStarter.survey(folder)
        let console = context.console
        let found = "Found \(Plural.of(survey.photos, "photo")) and \(Plural.of(survey.videos, "video")) in \(given)"
        if survey.leftOut.isEmpty {
            console.err(found + ".")
        } else {
            console.err(found + "; left out \(Plural.of(survey.leftOut.count, "file")):")
            for (path, reason) in survey.leftOut { console.err("  \(path): \(reason)") }
        }
        guard !survey.assets.isEmpty else {
            console.error("there is nothing to export in \(given); put photos or videos in it and run this again")
            return ExitCode.invalidInput
        }
        let name = folder.lastPathComponent == "/" ? "project" : folder.lastPathComponent
        try Data(ProjectStarter.manifest(name: name, assets: survey.assets).utf8).write(to: file, options: .atomic)
        console.err("Wrote \(file.path).\nExport it with: mediajob export \(shellQuoted(given))")
        return ExitCode.completed
    }
}
