import Foundation
import JobEngine
import MediaCommands
import MediaJobCLI

// mediajob-media: every command, the media ones with the media libraries. `mediajob` hands the
// media commands to it (MediaProgram); it runs on its own just as well.

// libarchive writes zip entry times through localtime(): pin the zone so that the same export
// makes the same bytes on every machine. Nothing the program shows depends on the local zone.
setenv("TZ", "UTC", 1)
tzset()
// Jobs run one chunk per usable CPU; one libvips thread per chunk keeps the cores from being
// oversubscribed (measured: thumbnails of 50 photos 10 % faster than with libvips' own threads).
setenv("VIPS_CONCURRENCY", "1", 0)
// libvips prints decoder warnings itself; the errors they lead to are reported with the file's name.
setenv("VIPS_WARNING", "0", 0)
// The crash and I/O-error tests stop it at a named durable step (as in mediajob's main).
FaultPoints.arm(ProcessInfo.processInfo.environment["MEDIAJOB_FAULT"])
let code = await MediaJobCLI.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment,
                                  media: MediaCommands())
exit(code)
