import MediaJobCLI

// libFuzzer entry for the command-line parser: `ParsedArguments.exercise` (parsing, then every
// accessor a command uses) over arbitrary arguments. A target of the package (Package.swift,
// `fuzzTargets`) that Fuzz/build builds against the MediaJobCLI module.
//
// The input is the arguments separated by NUL bytes (as in /proc/PID/cmdline). The promise
// checked: every input parses or gives usage errors with a message — never a crash.

@_cdecl("LLVMFuzzerTestOneInput")
public func argumentsFuzzerTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let buffer = UnsafeBufferPointer(start: bytes, count: count)
    let arguments = buffer.split(separator: 0, omittingEmptySubsequences: false).map { String(decoding: $0, as: UTF8.self) }
    for message in ParsedArguments.exercise(arguments) {
        precondition(!message.isEmpty, "a usage error without a message")
    }
    return 0
}
