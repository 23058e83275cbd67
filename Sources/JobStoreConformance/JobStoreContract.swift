import JobEngine
import Testing

/// One clause of the ``JobStore`` contract, checked against any store: the conformance suite that
/// every store (SQLite, PostgreSQL, in memory) runs.
///
/// A store's test target runs every clause with a way to open that store:
///
/// ```swift
/// @Test(arguments: JobStoreContract.all)
/// func keepsTheContract(_ clause: JobStoreContract) throws {
///     try withStorePath { path in try clause.check { try SQLiteJobStore(path: path) } }
/// }
/// ```
///
/// `open` is called once or more per clause; every store it returns must see the same, initially
/// empty, data (as two processes sharing one store do).
public struct JobStoreContract: Sendable, CustomTestStringConvertible {
    /// What the clause requires, as a sentence.
    public let name: String
    private let body: @Sendable (_ open: () throws -> any JobStore) throws -> Void

    init(_ name: String, _ body: @escaping @Sendable (_ open: () throws -> any JobStore) throws -> Void) {
        self.name = name
        self.body = body
    }

    /// Checks the clause, recording failed expectations with Swift Testing.
    /// - Parameter open: opens a store over the clause's own, initially empty, data.
    /// - Throws: what the store throws, and `#require` failures.
    public func check(_ open: () throws -> any JobStore) throws {
        try body(open)
    }

    public var testDescription: String { name }

    /// Every clause.
    public static let all: [JobStoreContract] = jobs + checkpoints + states + badItems + replans + owedWork
}
