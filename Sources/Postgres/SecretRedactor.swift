import CPostgres
import Foundation

/// Removes passwords from texts that came from libpq, before they reach an error, a log or a
/// description.
///
/// libpq's connection errors name hosts, ports, users and databases, but its complaints about a
/// malformed connection string quote pieces of that string, and a password may be among them.
/// A redactor knows the passwords a connection string gives (as libpq parsed them, and as written,
/// percent-encoded or not) or the one a live connection uses (from a password file too), and
/// replaces each occurrence with `***`. It holds those passwords, so it never shows them: its
/// description and mirror give only how many it knows.
struct SecretRedactor: CustomStringConvertible, CustomDebugStringConvertible, CustomReflectable {
    /// The passwords, longest first, so that one containing another is removed whole.
    private let secrets: [String]

    private init(_ candidates: [String]) {
        secrets = Set(candidates.filter { !$0.isEmpty }).sorted { $0.count > $1.count }
    }

    /// Knows every password `connectionString` gives: libpq's parse of it, and the text after
    /// `user:` in a URL (and its pieces between URL delimiters) or after `password=` as written,
    /// also percent-decoded.
    init(connectionString: String) {
        var candidates = Self.writtenPasswords(in: connectionString)
        candidates += candidates.compactMap { $0.removingPercentEncoding }
        if let parsed = Self.parsedPassword(connectionString) { candidates.append(parsed) }
        self.init(candidates)
    }

    /// Knows the password a connection uses, wherever libpq found it.
    init(connection: OpaquePointer) {
        self.init(PQpass(connection).map { [String(cString: $0)] } ?? [])
    }

    /// `text` with every known password replaced by `***`.
    func redact(_ text: String) -> String {
        secrets.reduce(text) { $0.replacingOccurrences(of: $1, with: "***") }
    }

    /// `target` with every known password removed from its fields (a password with unencoded
    /// delimiters can end up in libpq's idea of the host, port or database).
    func redact(_ target: ConnectionTarget) -> ConnectionTarget {
        ConnectionTarget(
            host: redact(target.host), port: redact(target.port), database: redact(target.database),
            user: redact(target.user)
        )
    }

    var description: String { "SecretRedactor(\(secrets.count) passwords, not shown)" }
    var debugDescription: String { description }
    var customMirror: Mirror { Mirror(self, children: ["passwords": secrets.count]) }

    /// The password libpq parses out of `connectionString`, if it parses.
    private static func parsedPassword(_ connectionString: String) -> String? {
        var message: UnsafeMutablePointer<CChar>?
        guard let options = PQconninfoParse(connectionString, &message) else {
            PQfreemem(message)
            return nil
        }
        defer { PQconninfoFree(options) }
        var option = options
        while let keyword = option.pointee.keyword {
            if String(cString: keyword) == "password", let value = option.pointee.val {
                return String(cString: value)
            }
            option += 1
        }
        return nil
    }

    /// Passwords as written, found without libpq's help (so also in strings libpq cannot parse):
    /// a URL's `user:PASSWORD@`, and the value after every `password=`.
    private static func writtenPasswords(in text: String) -> [String] {
        var found: [String] = []
        if let scheme = text.range(of: "://"), let at = text.range(of: "@", options: .backwards),
           scheme.upperBound <= at.lowerBound {
            let userInfo = text[scheme.upperBound..<at.lowerBound]
            if let colon = userInfo.firstIndex(of: ":") {
                let password = userInfo[userInfo.index(after: colon)...]
                found.append(String(password))
                // Unencoded delimiters in a password make libpq cut it into host, port and path.
                found += password.split(whereSeparator: { "/?#@:&=".contains($0) }).filter { $0.count >= 3 }.map(String.init)
            }
        }
        var rest = text[...]
        while let keyword = rest.range(of: "password", options: .caseInsensitive) {
            rest = rest[keyword.upperBound...].drop { $0 == " " }
            guard rest.first == "=" else { continue }
            let value = rest.dropFirst().drop { $0 == " " }
            let quoted = value.first == "'"
            let body = quoted ? value.dropFirst() : value
            let end = body.firstIndex { quoted ? $0 == "'" : ($0 == " " || $0 == "&") } ?? body.endIndex
            found.append(String(body[..<end]))
            rest = body[end...]
        }
        return found
    }
}
