// Prepares the gpu-check folder's references and the CPU path's figures (run by Scripts/gpu-check):
//   gpu-check-references <folder> <sample project folder>
import Foundation
import MediaJobs

let arguments = CommandLine.arguments
guard arguments.count == 3 else {
    FileHandle.standardError.write(Data("usage: gpu-check-references <folder> <sample project folder>\n".utf8))
    exit(64)
}
do {
    try GPUCheckReferences.write(to: URL(fileURLWithPath: arguments[1]), sample: URL(fileURLWithPath: arguments[2]))
} catch {
    FileHandle.standardError.write(Data("Error: \(error)\n".utf8))
    exit(1)
}
