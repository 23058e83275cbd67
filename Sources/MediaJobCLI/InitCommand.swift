import Foundation
import JobEngine
import MediaJobs

/// `mediajob init [DIR]`: writes a starter `project.json` for the photos and videos in a folder.
enum InitCommand: Command {
    static let name = "init"
    static let synopsis = "[DIR] [--force]"
    static let summary = "Start a project: write a project.json for the photos and videos in a folder"
    static let discussion = """
        Looks at every file in DIR (default: the current folder) and its subfolders, hidden ones
        aside, and tells photos and videos from other files by their content, not their names.
        Writes DIR/project.json listing them in path order with no edits and default export
        settings (JPEG photos at quality 85, H.264 videos, audio copied, a zip named after the
        folder), and says what it found, which files it left out and why, and the command that
        exports the project. Edit project.json to add edits (README: Project manifest).
        An existing project.json is kept unless --force is given.

        Examples:
          mediajob init ~/Pictures/holiday
          mediajob init . --force
        """
    static let options: [OptionSpec] = [.flag("force", "replace an existing project.json")]

    static func run(_ context: CommandContext) async throws -> Int32 {
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
