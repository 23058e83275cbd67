/// The key of a PostgreSQL advisory lock, made from a name.
///
/// The 64-bit key is the FNV-1a hash of the name's UTF-8 bytes: the same in every process and
/// every version of this program, so all of them agree on which lock a name means.
public struct AdvisoryLockKey: Sendable, Hashable, CustomStringConvertible {
    /// The name the key was made from.
    public let name: String
    /// The key PostgreSQL locks.
    public let value: Int64

    /// The key for `name`.
    public init(_ name: String) {
        self.name = name
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in name.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        value = Int64(bitPattern: hash)
    }

    /// `advisory lock "name" (key)`.
    public var description: String { "advisory lock \(name.debugDescription) (\(value))" }
}
