import Foundation

/// `mediajob export <project>`: renders, encodes and packages a project.
package enum ExportCommand: MediaCommand {
    package static let name = "export"
    package static let runsJobs = true
    package static let synopsis = "<project> [--output PATH] [--overwrite] [--skip-bad] [--gpu auto|on|off] [options]"
    package static let summary = "Export a project's photos and videos, with their edits, into a zip archive or folder"
    package static let discussion = """
        Reads <project>/project.json (format in the README; <project> may also name the
        manifest file itself), renders each asset with its edits,
        encodes it, and packages everything with a manifest.json of sizes and SHA-256 digests.
        Work is done in chunks (one per photo, one per video segment) that are checkpointed as
        they finish: Ctrl-C pauses, `mediajob resume JOB` continues, and the package appears at
        its destination only when it is complete and has passed its checks.

        Assets that are missing, unreadable, too large or not a photo or video are named, all
        at once, before any work (exit 65). A damaged asset that only decoding shows fails with
        a message naming it while the others finish; the job then ends failed and lists them.
        With --skip-bad the job completes and the package's manifest lists what was skipped.

        Photos and video frames render on a Vulkan GPU when probing selected one (see
        `mediajob probe`), else on the CPU; both give the same pictures within the tolerance the
        README states, and each chunk records which path rendered it (`mediajob status JOB`).

        Photos are converted to sRGB through their ICC profile and keep only their capture time,
        description, artist and copyright; videos their capture time, copyright, artist,
        description and comment (README: photo colour, photo metadata, video metadata); --keep-profile
        and --keep-metadata override the manifest's export.image.profile and export.metadata.

        Examples:
          mediajob export Media/sample
          mediajob export ~/Projects/holiday --output ~/holiday.zip --json
        """
    package static let options: [OptionSpec] = [
        .option("output", "PATH", "where the package goes (default: <package name>.zip in the current folder)"),
        .flag("overwrite", "replace an existing package at the destination"),
        CommonOptions.skipBad, CommonOptions.maxPixels,
        CommonOptions.gpu, CommonOptions.verbose, CommonOptions.keepProfile, CommonOptions.keepMetadata,
    ] + CommonOptions.submitting
}
