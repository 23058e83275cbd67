import Glibc

/// Runs libarchive calls with the calling thread's character set switched to UTF-8.
///
/// libarchive converts entry names between the zip's UTF-8 and "the current locale". A Swift
/// process usually runs in the C locale, where any non-ASCII name fails to convert (reading
/// then loses the name). `uselocale` changes only the calling thread, and only for the call;
/// libarchive settles its conversions when a handle is first configured and when a header is
/// processed, so those are the calls to wrap. Without a `C.UTF-8` locale the call runs as is.
enum UTF8CharacterLocale {
    /// Runs `body` on this thread with `LC_CTYPE` set to `C.UTF-8`, then restores the thread's
    /// previous locale.
    static func run<Result>(_ body: () throws -> Result) rethrows -> Result {
        guard let utf8 = newlocale(LC_CTYPE_MASK, "C.UTF-8", nil) else { return try body() }
        let previous = uselocale(utf8)
        defer {
            uselocale(previous)
            freelocale(utf8)
        }
        return try body()
    }
}
