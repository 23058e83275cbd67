import Foundation
import JobEngine
import MediaJobCLI

// The commands that need no media run here; the others replace this process with mediajob-media
// (MediaProgram), which sets the media libraries' environment itself. This file is compiled with
// -static-stdlib (Package.swift): its object names the static Foundation's libraries for the link.
// The crash and I/O-error tests of this program stop it at a named durable step; only this
// program and mediajob-media arm those points, so programs that embed the engine never see the variable.
FaultPoints.arm(ProcessInfo.processInfo.environment["MEDIAJOB_FAULT"])
let code = await MediaJobCLI.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
