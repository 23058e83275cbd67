import Glibc

/// `renameat2(2)`, which Glibc declares only under `_GNU_SOURCE` and Swift therefore cannot see.
/// It is looked up in the C library at run time; its flags are the kernel's stable ABI.
enum LinuxRename {
    /// Fail with `EEXIST` instead of replacing the target.
    static let noReplace: UInt32 = 1
    /// Swap source and target atomically.
    static let exchange: UInt32 = 2

    private typealias Function = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32

    private static let function: Function? = {
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "renameat2") else { return nil }
        return unsafeBitCast(symbol, to: Function.self)
    }()

    /// Renames `source` to `target` with `flags`; returns 0 or -1 with `errno` set (`ENOSYS`
    /// when the C library lacks the call).
    static func rename(_ source: String, _ target: String, flags: UInt32) -> Int32 {
        guard let function else {
            errno = ENOSYS
            return -1
        }
        return function(AT_FDCWD, source, AT_FDCWD, target, flags)
    }
}
