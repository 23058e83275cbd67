import Foundation
import JobEngine
import MediaJobCLI

// libarchive writes zip entry times through localtime(): pin the zone so that the same export
// makes the same bytes on every machine. Nothing the program shows depends on the local zone.
setenv("TZ", "UTC", 1)
tzset()
// Jobs run one chunk per usable CPU; one libvips thread per chunk keeps the cores from being
// oversubscribed (measured: thumbnails of 50 photos 10 % faster than with libvips' own threads).
setenv("VIPS_CONCURRENCY", "1", 0)
// libvips prints decoder warnings itself; the errors they lead to are reported with the file's name.
setenv("VIPS_WARNING", "0", 0)
// The crash and I/O-error tests of this program stop it at a named durable step; only this
// executable arms those points, so programs that embed the engine never see the variable.
FaultPoints.arm(ProcessInfo.processInfo.environment["MEDIAJOB_FAULT"])
let code = await MediaJobCLI.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
