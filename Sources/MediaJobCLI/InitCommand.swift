import Foundation

/// `mediajob init [DIR]`: writes a starter `project.json` for the photos and videos in a folder.
package enum InitCommand: MediaCommand {
    package static let name = "init"
    package static let synopsis = "[DIR] [--force]"
    package static let summary = "Start a project: write a project.json for the photos and videos in a folder"
    package static let discussion = """
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
    package static let options: [OptionSpec] = [.flag("force", "replace an existing project.json")]
}
