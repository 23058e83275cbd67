import Foundation
import MediaJobCLI

let code = await MediaJobCLI.main(Array(CommandLine.arguments.dropFirst()), environment: ProcessInfo.processInfo.environment)
exit(code)
