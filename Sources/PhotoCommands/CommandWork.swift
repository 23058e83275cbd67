import MediaJobCLI

/// A media command's work, done in `mediajob-media` (or, for a thumbnail run of photos,
/// `mediajob-photo`) with the libraries that program links.
package protocol CommandWork: MediaCommand {
    /// Does the command with the program's job kinds; returns the exit code.
    static func work(_ context: CommandContext, kinds: any ProgramJobKinds) async throws -> Int32
}
