import Foundation

/// A network namespace joined to this one by a veth pair, standing in for a second machine on a
/// network the test can cut: `hostAddress` is this side's end, `namespaceAddress` the other's, in a
/// /30 of 10.0.0.0/8 drawn at random. Needs root (CI runs as root in its container); see
/// ``unavailableReason``.
final class VethNamespace {
    let name: String
    let hostAddress: String
    let namespaceAddress: String
    /// This side's end of the pair, `hostAddress/30`, for a server to listen on.
    var hostNetwork: String { "\(hostAddress)/30" }
    /// The command prefix that runs a program inside the namespace (it is exec'd, keeping its pid).
    var launcher: [String] { ["/usr/sbin/ip", "netns", "exec", name] }

    private let hostEnd: String

    /// Makes the namespace and the pair, with both ends up.
    init() throws {
        let tag = String(UInt32.random(in: 0...0xFFFFFF), radix: 16)
        name = "mediajob-\(tag)"
        hostEnd = "mjh\(tag)"
        let namespaceEnd = "mjn\(tag)"
        let subnet = "10.\(Int.random(in: 100...250)).\(Int.random(in: 0...255)).\(4 * Int.random(in: 0...63))"
        let base = subnet.split(separator: ".").map { Int($0)! }
        hostAddress = "\(base[0]).\(base[1]).\(base[2]).\(base[3] + 1)"
        namespaceAddress = "\(base[0]).\(base[1]).\(base[2]).\(base[3] + 2)"
        try Self.ip("netns", "add", name)
        do {
            try Self.ip("link", "add", hostEnd, "type", "veth", "peer", "name", namespaceEnd)
            try Self.ip("link", "set", namespaceEnd, "netns", name)
            try Self.ip("addr", "add", hostNetwork, "dev", hostEnd)
            try Self.ip("link", "set", hostEnd, "up")
            try Self.ip("-n", name, "addr", "add", "\(namespaceAddress)/30", "dev", namespaceEnd)
            try Self.ip("-n", name, "link", "set", namespaceEnd, "up")
            try Self.ip("-n", name, "link", "set", "lo", "up")
        } catch {
            remove()
            throw error
        }
    }

    /// Cuts the link: this side's end goes down, and nothing passes either way.
    func linkDown() throws { try Self.ip("link", "set", hostEnd, "down") }

    /// Restores the link.
    func linkUp() throws { try Self.ip("link", "set", hostEnd, "up") }

    /// Removes the pair and the namespace.
    func remove() {
        try? Self.ip("link", "del", hostEnd)
        try? Self.ip("netns", "del", name)
    }

    deinit { remove() }

    /// Why no namespace can be made here (not root, or a container that refuses), or `nil` when one can.
    /// Found by making one, which is removed at once.
    static let unavailableReason: String? = {
        do {
            _ = try VethNamespace()
            return nil
        } catch {
            return "\(error)"
        }
    }()

    /// Runs `ip arguments…`, throwing what it said on failure.
    private static func ip(_ arguments: String...) throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/sbin/ip")
        process.arguments = arguments
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let said = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw VethError(description: "ip \(arguments.joined(separator: " ")) failed: \(said.trimmingCharacters(in: .whitespacesAndNewlines))")
        }
    }

    struct VethError: Error, CustomStringConvertible {
        let description: String
    }
}
