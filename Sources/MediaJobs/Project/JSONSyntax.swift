import Foundation

/// Finds where JSON text first goes wrong, for errors that point at the line and column and say
/// what was expected there. Foundation's decoder says only "not valid JSON".
struct JSONSyntax {
    /// The first mistake in a text: where it is and what should have been there.
    struct Mistake: Equatable, CustomStringConvertible {
        /// 1-based line and column (in characters) of the offending character, or of the end.
        var line: Int, column: Int
        /// What the grammar allowed there, for example `',' or '}'`.
        var expected: String
        /// What was there instead: a quoted character, or `the end of the file`.
        var found: String

        var description: String { "line \(line), column \(column): expected \(expected), found \(found)" }
    }

    private enum Expect { case value, valueOrClose, name, nameOrClose, colon, commaOrClose, end }

    private let bytes: [UInt8]
    private var index = 0

    private init(_ data: Data) { bytes = Array(data) }

    /// The first syntax mistake in `data`, or `nil` when it is well-formed JSON (it may still be
    /// refused for its depth or its numbers, which this does not judge).
    static func firstMistake(in data: Data) -> Mistake? {
        var scanner = JSONSyntax(data)
        return scanner.scan()
    }

    private mutating func scan() -> Mistake? {
        var open: [UInt8] = [] // the brackets not yet closed; a list, not recursion, for any depth
        var expect = Expect.value
        func afterValue() -> Expect { open.isEmpty ? .end : .commaOrClose }
        while true {
            while index < bytes.count, [0x20, 0x09, 0x0A, 0x0D].contains(bytes[index]) { index += 1 }
            guard index < bytes.count else {
                return expect == .end ? nil : mistake(expected: expected(expect, open.last))
            }
            let byte = bytes[index]
            switch expect {
            case .value, .valueOrClose:
                if expect == .valueOrClose, byte == UInt8(ascii: "]") {
                    open.removeLast()
                    index += 1
                    expect = afterValue()
                    continue
                }
                switch byte {
                case UInt8(ascii: "{"), UInt8(ascii: "["):
                    open.append(byte)
                    index += 1
                    expect = byte == UInt8(ascii: "{") ? .nameOrClose : .valueOrClose
                    continue
                case UInt8(ascii: "\""):
                    if let wrong = scanString() { return wrong }
                case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                    if let wrong = scanNumber() { return wrong }
                case UInt8(ascii: "t"), UInt8(ascii: "f"), UInt8(ascii: "n"):
                    let word = byte == UInt8(ascii: "t") ? "true" : byte == UInt8(ascii: "f") ? "false" : "null"
                    guard bytes[index...].starts(with: Array(word.utf8)) else { return mistake(expected: expected(expect, open.last)) }
                    index += word.utf8.count
                default:
                    return mistake(expected: expected(expect, open.last))
                }
                expect = afterValue()
            case .name, .nameOrClose:
                if expect == .nameOrClose, byte == UInt8(ascii: "}") {
                    open.removeLast()
                    index += 1
                    expect = afterValue()
                    continue
                }
                guard byte == UInt8(ascii: "\"") else { return mistake(expected: expected(expect, open.last)) }
                if let wrong = scanString() { return wrong }
                expect = .colon
            case .colon:
                guard byte == UInt8(ascii: ":") else { return mistake(expected: expected(expect, open.last)) }
                index += 1
                expect = .value
            case .commaOrClose:
                let object = open.last == UInt8(ascii: "{")
                if byte == UInt8(ascii: ",") {
                    index += 1
                    expect = object ? .name : .value
                } else if byte == UInt8(ascii: object ? "}" : "]") {
                    open.removeLast()
                    index += 1
                    expect = afterValue()
                } else {
                    return mistake(expected: expected(expect, open.last))
                }
            case .end:
                return mistake(expected: expected(expect, nil))
            }
        }
    }

    private func expected(_ expect: Expect, _ bracket: UInt8?) -> String {
        let value = "a value (an object, a list, text in double quotes, a number, true, false or null)"
        return switch expect {
        case .value: value
        case .valueOrClose: "\(value) or ']'"
        case .name: "a field name in double quotes"
        case .nameOrClose: "a field name in double quotes or '}'"
        case .colon: "':' after the field name"
        case .commaOrClose: bracket == UInt8(ascii: "{") ? "',' or '}'" : "',' or ']'"
        case .end: "nothing more after the closing '}'"
        }
    }

    /// Moves past a string starting at `index`; the mistake if it is not one.
    private mutating func scanString() -> Mistake? {
        index += 1
        while index < bytes.count {
            switch bytes[index] {
            case UInt8(ascii: "\""):
                index += 1
                return nil
            case UInt8(ascii: "\\"):
                index += 1
                guard index < bytes.count else { break }
                if bytes[index] == UInt8(ascii: "u") {
                    let hex = bytes[(index + 1)...].prefix(4)
                    guard hex.count == 4, hex.allSatisfy({ $0 < 0x80 && Character(UnicodeScalar($0)).isHexDigit }) else {
                        index += 1
                        return mistake(expected: "four hexadecimal digits after \\u")
                    }
                    index += 5
                } else {
                    guard "\"\\/bfnrt".utf8.contains(bytes[index]) else {
                        return mistake(expected: "one of \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\u after a backslash")
                    }
                    index += 1
                }
            case 0..<0x20:
                return mistake(expected: "'\"' to close the text (a line break inside text is written \\n)")
            default:
                index += 1
            }
        }
        return mistake(expected: "'\"' to close the text")
    }

    /// Moves past a number starting at `index`; the mistake if it is not one.
    private mutating func scanNumber() -> Mistake? {
        func digits() -> Int {
            let start = index
            while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) { index += 1 }
            return index - start
        }
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        guard digits() > 0 else { return mistake(expected: "a digit") }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            guard digits() > 0 else { return mistake(expected: "a digit after the decimal point") }
        }
        if index < bytes.count, bytes[index] | 0x20 == UInt8(ascii: "e") {
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits() > 0 else { return mistake(expected: "a digit in the exponent") }
        }
        return nil
    }

    /// The mistake at `index`: its line and column, and the character found there.
    private func mistake(expected: String) -> Mistake {
        let before = String(decoding: bytes[..<index], as: UTF8.self)
        let line = before.reduce(1) { $1.isNewline ? $0 + 1 : $0 }
        let column = (before.split(omittingEmptySubsequences: false, whereSeparator: \.isNewline).last?.count ?? 0) + 1
        guard index < bytes.count else { return Mistake(line: line, column: column, expected: expected, found: "the end of the file") }
        let rest = String(decoding: bytes[index...].prefix(4), as: UTF8.self)
        let found = rest.first.map { $0.isWhitespace || $0.unicodeScalars.first!.value < 0x20 ? "a control character" : "'\($0)'" }
        return Mistake(line: line, column: column, expected: expected, found: found ?? "the end of the file")
    }
}
